"""API tests of traces (SPEC §13, issue 16) against the real prophecyd: the
4-rank pattern program (uploader/trace/tests/pattern.c) recorded under real
Open MPI with `prophecy-upload exec --trace`, each analysis checked against
the program's construction; hostile trace uploads; the page and the charts;
Lyon's estimator across runs."""
import io
import json
import os
import shutil
import socket
import sqlite3
import struct
import subprocess
import tarfile
import tempfile

import prophecy_test as pt
from prophecy_test import tar_of_members as tar_of, BIN, Server, report, run_doc, test

UPLOAD = os.path.join(BIN, "prophecy-upload")
PATTERN = os.path.join(BIN, "trace_pattern")
LIB = os.path.join(BIN, "..", "uploader", "trace", "libprophecy_trace.so")
MPIRUN = shutil.which("mpirun")
MPI_FLAGS = ["--oversubscribe", "--allow-run-as-root", "-x", "LD_PRELOAD", "-x",
             "PROPHECY_TRACE_DIR"]
NAMES = ["profile", "wait", "traffic", "load", "timeline", "occupancy", "clusters"]

S = Server("--max-body", str(4 << 20))
TMP = tempfile.mkdtemp(prefix="prophecy-traces-")
UP_TMP = os.path.join(TMP, "t")
os.mkdir(UP_TMP)


def trace_dirs():
    """The uploader's temporary trace directories (exec --trace) left in its
    TMPDIR."""
    return {d for d in os.listdir(UP_TMP) if d.startswith("prophecy-trace-")}


def upload(*args, check=True):
    # its own TMPDIR: the trace directory it makes and removes is its own,
    # not one of a test running beside it
    env = dict(os.environ, PROPHECY_SPOOL=os.path.join(TMP, "spool"), TMPDIR=UP_TMP)
    r = subprocess.run([UPLOAD, "--server", f"http://127.0.0.1:{S.port}", "--token",
                        S.token, "--no-flush", *args], capture_output=True, text=True,
                       env=env, timeout=300)
    if check and r.returncode != 0:
        raise AssertionError(f"prophecy-upload {args}: {r.returncode} {r.stderr}")
    return r


def record(dest):
    """The pattern program under the recorder, its trace into dest."""
    os.makedirs(dest, exist_ok=True)
    env = dict(os.environ, LD_PRELOAD=LIB, PROPHECY_TRACE_DIR=dest)
    subprocess.run([MPIRUN, *MPI_FLAGS, "-np", "4", PATTERN], env=env, check=True,
                   timeout=120, capture_output=True)
    return dest



def trace_files(d):
    return {f: open(os.path.join(d, f), "rb").read() for f in sorted(os.listdir(d))}


DIR = record(os.path.join(TMP, "pattern"))
FILES = trace_files(DIR)

# The run stored by exec --trace, found by its application's name.
r = upload("exec", "--trace", "--application", "pattern", "--executable", "pattern",
           "--system", "test", "--nprocs", "4", "--", MPIRUN, *MPI_FLAGS, "-np", "4",
           PATTERN)
st, listing = S.get("/api/v1/runs?application=pattern")
assert st == 200 and len(listing["runs"]) == 1, (listing, r.stderr)
RID = listing["runs"][0]["id"]


def get(name, **q):
    qs = "&".join(f"{k}={v}" for k, v in q.items())
    st, body = S.get(f"/api/v1/runs/{RID}/trace/{name}" + ("?" + qs if qs else ""))
    assert st == 200, (name, st, body)
    return body


def close(got, want, slack=0.5):
    """A sleep overshoots on a loaded machine (this one is shared by several
    builds): late, never early."""
    return want - 0.03 < got < want + slack


@test
def exec_trace_stores_the_run_and_its_trace():
    st, run = S.get(f"/api/v1/runs/{RID}")
    assert st == 200 and run["nprocs"] == 4 and run["runtime"] > 0.5, run
    assert f"run {RID} and its trace stored (4 ranks" in r.stderr, r.stderr
    # the temporary trace directory is gone once the trace is stored
    assert trace_dirs() == set(), trace_dirs()


@test
def exec_trace_makes_its_directory_in_tmpdir_and_leaves_none():
    """The trace directory is made under $TMPDIR (a batch job's own temporary
    directory), and a command that wrote no trace leaves no empty one."""
    said = os.path.join(TMP, "said")
    r = upload("exec", "--trace", "--application", "untraced", "--executable", "sh",
               "--system", "test", "--nprocs", "1", "--", "sh", "-c",
               f'echo "$PROPHECY_TRACE_DIR" > {said}', check=False)
    with open(said) as f:
        made = f.read().strip()
    assert os.path.dirname(made) == UP_TMP, (made, r.stderr)
    assert "holds no trace.RANK file" in r.stderr, r.stderr
    assert not os.path.exists(made) and trace_dirs() == set(), (made, trace_dirs())


def new_run(uid):
    st, b = S.post("/api/v1/runs", run_doc(id=uid, nprocs=4))
    assert st == 201, b
    return b["ids"][0]


def read_trace(files):
    """The recorder's files (docs/traces.md's format) as per-rank event lists
    of (op, begin, end, bytes, peer, peer2, tag, tag2, comm_size, comm), comm
    being the communicator's members and seq (version 3), None before."""
    ranks = {}
    for name, b in files.items():
        version, rank, nranks, nnames = struct.unpack_from("<IIII", b, 8)
        nevents = struct.unpack_from("<Q", b, 24)[0]
        ncomms = struct.unpack_from("<I", b, 52)[0] if version >= 3 else 0
        at = 64
        for _ in range(nnames):
            at += 2 + struct.unpack_from("<H", b, at)[0]
        comms = []
        for _ in range(ncomms):
            n, seq = struct.unpack_from("<II", b, at)
            members = struct.unpack_from(f"<{n}I", b, at + 8) if n else tuple(range(nranks))
            comms.append((members, seq))
            at += 8 + 4 * n
        evs = []
        for k in range(nevents):
            (begin, end, nbytes, peer, peer2, tag, tag2, size,
             op, name_or_comm) = struct.unpack_from("<QQqiiiiIHH", b, at + 48 * k)
            comm = comms[name_or_comm - 1] if op and name_or_comm else None
            evs.append((op, begin / 1e9, end / 1e9, nbytes, peer, peer2, tag, tag2, size,
                        comm))
        ranks[rank] = sorted(evs, key=lambda e: e[1])
    return [ranks[r] for r in range(len(ranks))]


SENDS = {1, 2, 3, 4, 5}       # MPI_Send, Ssend, Rsend, Bsend, Isend
RECV, SENDRECV, WAIT = 6, 8, 9
COLLECTIVES = set(range(13, 21)) | set(range(31, 39))  # the blocking ones


def expected_wait(ranks):
    """Fernandes' wait matrix by its definition (docs/traces.md), computed
    here independently of models/trace.c: the n-th receive on i from j with a
    tag waits from its begin until the n-th send from j to i with that tag
    began; the k-th collective waits until its last rank arrived, charged to
    that rank (the k-th of each member of one communicator); no call waits
    longer than it lasted."""
    p = len(ranks)
    w = [[0.0] * p for _ in range(p)]
    sends, recvs = {}, {}
    for r, evs in enumerate(ranks):
        for op, b, e, n, peer, peer2, tag, tag2, size, comm in evs:
            if op in SENDS or op == SENDRECV:
                sends.setdefault((r, peer, tag), []).append(b)
            if op == RECV or (op == WAIT and peer >= 0):
                recvs.setdefault((peer, r, tag), []).append((b, e))
            if op == SENDRECV:
                recvs.setdefault((peer2, r, tag2), []).append((b, e))
    for (src, dst, tag), rbs in recvs.items():
        for (rb, re), sb in zip(rbs, sends.get((src, dst, tag), [])):
            w[dst][src] += max(0.0, min(sb - rb, re - rb))
    keys = {e[9] if e[9] is not None else (tuple(range(p)), "v2")
            for evs in ranks for e in evs if e[0] in COLLECTIVES}
    for key in keys:
        members = key[0]
        colls = [[e for e in ranks[r] if e[0] in COLLECTIVES and
                  (e[9] if e[9] is not None else (tuple(range(p)), "v2")) == key]
                 for r in members]
        for k in range(min(len(c) for c in colls)):
            begins = [c[k][1] for c in colls]
            last = max(range(len(members)), key=lambda i: begins[i])
            for i in range(len(members)):
                if i != last:
                    w[members[i]][members[last]] += max(
                        0.0, min(begins[last] - begins[i], colls[i][k][2] - begins[i]))
    return w


@test
def wait_matrix_is_the_definition_applied_to_the_trace():
    rid = new_run("wait-exact")
    st, ans = S.post(f"/api/v1/runs/{rid}/trace", tar_of(FILES), ctype="application/x-tar")
    assert st == 201, ans
    st, w = S.get(f"/api/v1/runs/{rid}/trace/wait")
    want = expected_wait(read_trace(FILES))
    for i in range(4):
        for j in range(4):
            assert abs(w["wait"][i][j] - want[i][j]) < 1e-6, (i, j, w["wait"], want)
            assert abs(w["relative_exec"][i][j] - w["wait"][i][j] / w["exec"][i]) < 1e-9
            assert abs(w["relative_total"][i][j] - w["wait"][i][j] / w["total"]) < 1e-9
        assert abs(w["rank_wait"][i] - sum(w["wait"][i])) < 1e-9
    assert w["unmatched"] == 0 and w["nranks"] == 4


@test
def wait_matrix_matches_the_construction():
    # The run recorded by exec --trace: the barrier's last arriver is rank 3,
    # which slept 0.3 s before it; rank 1 waits for rank 0's 0.2 s state.
    # (Exact figures: the test above; a loaded machine shifts sleeps.)
    w = get("wait")
    m = w["wait"]
    for i in range(3):
        assert m[i][3] > 0.1, w
    assert m[1][0] > 0.05 and w["unmatched"] == 0 and w["nranks"] == 4, w


@test
def traffic_is_exact():
    t = get("traffic")
    m, b = t["p2p"]["msgs"], t["p2p"]["bytes"]
    assert m[0][1] == 2 and b[0][1] == 1256
    assert m[0][2] == 10 and b[0][2] == 8000
    assert m[3][2] == 1 and b[3][2] == 4000
    assert m[1][2] == 1 and m[2][3] == 1 and m[3][0] == 1 and m[1][0] == 0
    assert t["p2p"]["rate"][0][2] > 0
    assert t["collective"]["calls"] == [5, 5, 5, 5]
    assert t["collective"]["bytes"][1] == [512, 0, 512, 512]


@test
def profile_and_load():
    p = get("profile")
    calls = [rk["calls"] for rk in p["ranks"]]
    assert calls[0]["MPI_Send"] == 11
    assert calls[2]["MPI_Recv"] == 10 and calls[2]["MPI_Irecv"] == 1
    assert calls[2]["MPI_Wait"] == 1 and calls[3]["MPI_Sendrecv"] == 1
    assert "MPI_Barrier" in p["routines"]
    for rk in p["ranks"]:
        assert abs(rk["mpi"] + rk["compute"] - rk["exec"]) < 1e-9
    l = get("load")
    assert l["compute"][3] > 0.39 and l["compute"][0] > 0.19
    assert l["compute_imbalance"] >= 1


@test
def timeline_at_stored_and_other_widths():
    t = get("timeline")
    assert t["width"] == 800 and t["classes"][:4] == ["compute", "p2p", "collective",
                                                         "wait"]
    assert t["classes"][4] == "sleep"
    for width in (800, 100):
        t = get("timeline", width=width) if width != 800 else t
        x = int(0.15 / t["span"] * width)
        for rank, runs in enumerate(t["ranks"]):
            assert sum(n for _, _, n in runs) == width
            cls = next(c for c, x0, n in runs if x0 <= x < x0 + n)
            assert cls == (0 if rank == 3 else 2), (rank, runs)
    st, body = S.get(f"/api/v1/runs/{RID}/trace/timeline?width=0")
    assert st == 400 and body["error"]["field"] == "width", body
    st, body = S.get(f"/api/v1/runs/{RID}/trace/wait?width=10")
    assert st == 400, body


@test
def occupancy_and_clusters():
    o = get("occupancy")
    p = get("profile")
    assert o["classes"][4] == "sleep"
    assert abs(o["mean"]["sleep"] - p["ranks"][0]["time"].get("state", 0) / 4) < 1e-9 or \
        close(o["mean"]["sleep"] * 4, 0.2)
    mean_end = sum(rk["exec"] for rk in p["ranks"]) / 4
    assert abs(sum(o["mean"].values()) - mean_end) < 1e-9
    assert o["nrows"] >= 5 and len(o["rows"]) == o["nrows"]
    assert abs(sum(row["duration"] for row in o["rows"]) - o["span"]) < 1e-6
    for row in o["rows"]:
        assert sum(row["count"]) <= 4
    c = get("clusters")
    assert 1 <= c["k"] <= 3 and len(c["ranks"]) == 4
    assert all(0 <= rk["cluster"] < c["k"] for rk in c["ranks"])
    assert len(c["main"]) <= 4 and all(d in c["dimensions"] for d in c["main"])


@test
def charts_page_and_run_link():
    for name in NAMES:
        st, body, resp = S.request("GET", f"/plots/run-{RID}-{name}.svg", raw=True,
                                   token=None)
        assert st == 200 and resp.getheader("Content-Type") == "image/svg+xml", name
        assert body.lstrip().startswith(b"<") and b"<svg" in body, name
    st, body, _ = S.request("GET", f"/plots/run-{RID}-timeline.svg?width=120", raw=True,
                            token=None)
    assert st == 200 and b"<svg" in body
    st, body, _ = S.request("GET", f"/runs/{RID}/trace", raw=True, token=None)
    assert st == 200
    for name in NAMES:
        assert f'id="{name}"'.encode() in body, name
    assert body.count(b"<svg") >= len(NAMES)
    st, body, _ = S.request("GET", f"/runs/{RID}", raw=True, token=None)
    assert st == 200 and f"/runs/{RID}/trace".encode() in body
    # a run without a trace links none, and its trace page is a 404
    st, b = S.post("/api/v1/runs", run_doc(id="no-trace"))
    other = b["ids"][0]
    st, body, _ = S.request("GET", f"/runs/{other}", raw=True, token=None)
    assert st == 200 and f"/runs/{other}/trace".encode() not in body
    st, body, _ = S.request("GET", f"/runs/{other}/trace", raw=True, token=None)
    assert st == 404
    st, body = S.get(f"/api/v1/runs/{other}/trace/wait")
    assert st == 404, body
    st, body = S.get(f"/api/v1/runs/{RID}/trace/nonsense")
    assert st == 404, body


def refused(rid, body, status, code=None, ctype="application/x-tar"):
    before = S.content()
    st, ans = S.post(f"/api/v1/runs/{rid}/trace", body, ctype=ctype)
    assert st == status, (st, ans)
    if code:
        assert ans["error"]["code"] == code, ans
    assert ans["error"]["message"], ans
    assert S.content() == before, "a refused trace changed the database"
    return ans


@test
def hostile_traces_are_refused_and_change_nothing():
    rid = new_run("hostile")
    refused(rid, b"this is not a tar archive at all" * 40, 422, "invalid_trace")
    refused(rid, b"", 422, "invalid_trace")
    refused(rid, tar_of({}), 422, "invalid_trace")
    refused(rid, tar_of(FILES)[:3000], 422, "invalid_trace")  # a truncated archive
    files = dict(FILES)
    files["trace.1"] = files["trace.1"][:100]  # truncated
    ans = refused(rid, tar_of(files), 422, "invalid_trace")
    files = dict(FILES)
    del files["trace.3"]  # a 4-rank run with 3 files
    refused(rid, tar_of(files), 422, "invalid_trace")
    files = dict(FILES)
    files["trace.4"] = FILES["trace.3"]  # a fifth rank file (a duplicate rank)
    refused(rid, tar_of(files), 422, "invalid_trace")
    files = dict(FILES)
    files["notes.txt"] = b"hello"
    refused(rid, tar_of(files), 422, "invalid_trace")
    # over the server's --max-body: 413 on the headers, the body never read
    before = S.content()
    s = socket.create_connection(("127.0.0.1", S.port), timeout=10)
    s.sendall((f"POST /api/v1/runs/{rid}/trace HTTP/1.1\r\nHost: x\r\n"
               f"Authorization: Bearer {S.token}\r\nContent-Type: application/x-tar\r\n"
               f"Content-Length: {64 << 20}\r\nExpect: 100-continue\r\n\r\n").encode())
    answer = s.recv(4096)
    s.close()
    assert answer.startswith(b"HTTP/1.1 413"), answer[:100]
    assert S.content() == before
    # a header claiming a huge event count over a short file
    files = dict(FILES)
    h = bytearray(files["trace.2"])
    h[24:32] = (10 ** 12).to_bytes(8, "little")
    files["trace.2"] = bytes(h)
    refused(rid, tar_of(files), 422, "invalid_trace")
    refused(999999, tar_of(FILES), 404)
    st, ans = S.request("POST", f"/api/v1/runs/{rid}/trace", tar_of(FILES), token=False,
                        ctype="application/x-tar")
    assert st == 401, ans


@test
def a_second_trace_for_a_run_is_a_conflict():
    rid = new_run("twice")
    st, ans = S.post(f"/api/v1/runs/{rid}/trace", tar_of(FILES), ctype="application/x-tar")
    assert st == 201 and ans["nranks"] == 4 and ans["analyses"] == NAMES, ans
    refused(rid, tar_of(FILES), 409, "conflict")


@test
def trace_command_for_a_stored_run_and_creating_one():
    rid = new_run("by-command")
    r = upload("trace", DIR, "--run", str(rid))
    assert r.stdout.strip() == str(rid), r.stdout
    st, w = S.get(f"/api/v1/runs/{rid}/trace/wait")
    assert st == 200 and w["nranks"] == 4
    r = upload("trace", DIR, "--application", "from-trace", "--executable", "p",
               "--system", "test")
    new = int(r.stdout.strip())
    st, run = S.get(f"/api/v1/runs/{new}")
    # The run made from a trace lasts as long as its trace (the latest rank's
    # end): exactly the span the stored analyses report, and at least the
    # 0.5 s the program sleeps by construction, whatever the machine's load.
    st, tl = S.get(f"/api/v1/runs/{new}/trace/timeline")
    assert st == 200, tl
    assert run["nprocs"] == 4 and abs(run["runtime"] - tl["span"]) < 1e-9, (run, tl["span"])
    assert run["runtime"] > 0.5 - 0.03, run
    # an empty directory is refused before anything is sent
    empty = os.path.join(TMP, "empty")
    os.makedirs(empty, exist_ok=True)
    r = upload("trace", empty, "--run", str(rid), check=False)
    assert r.returncode == 2 and "no trace.RANK" in r.stderr, r.stderr


def refused_at(path, body, status, code=None):
    before = S.content()
    st, ans = S.post(path, body, ctype="application/x-tar")
    assert st == status, (st, ans)
    if code:
        assert ans["error"]["code"] == code, ans
    assert S.content() == before, "a refused upload changed the database"


@test
def run_and_trace_in_one_go():
    doc = json.dumps(run_doc(id="one-go", application="onego", nprocs=4)).encode()
    files = dict(FILES, **{"run.json": doc})
    st, ans = S.post("/api/v1/traces", tar_of(files), ctype="application/x-tar")
    assert st == 201 and ans["run"] == "created" and ans["trace"] == "created", ans
    rid = ans["run_id"]
    st, w = S.get(f"/api/v1/runs/{rid}/trace/wait")
    assert st == 200 and w["nranks"] == 4
    # the same again: nothing new
    before = S.content()
    st, ans = S.post("/api/v1/traces", tar_of(files), ctype="application/x-tar")
    assert st == 200 and ans["run"] == "existing" and ans["trace"] == "existing", ans
    assert ans["run_id"] == rid and S.content() == before
    # all or nothing: a bad trace stores no run, a bad run no trace
    bad = dict(files)
    bad["run.json"] = json.dumps(run_doc(id="one-go-2", application="onego")).encode()
    bad["trace.2"] = bad["trace.2"][:70]
    refused_at("/api/v1/traces", tar_of(bad), 422, "invalid_trace")
    bad = dict(FILES, **{"run.json": json.dumps(run_doc(id="one-go-3", nprocs=0)).encode()})
    refused_at("/api/v1/traces", tar_of(bad), 422)
    refused_at("/api/v1/traces", tar_of(FILES), 422, "invalid_trace")  # no run.json
    bad = dict(FILES, **{"run.json": b"{not json"})
    refused_at("/api/v1/traces", tar_of(bad), 422)
    st, listing = S.get("/api/v1/runs?application=onego")
    assert len(listing["runs"]) == 1, listing


@test
def occupancy_estimator_across_runs():
    # The same 4-rank trace stored for runs of 4 processes at inputs N = 4,
    # 8 and 16 (a trace is of its run's processes: a 4-rank trace for an
    # 8-process run is refused, issue 34): every fraction is the same, so
    # each fitted law is that constant.
    for p in (4, 8, 16):
        upload("trace", DIR, "--application", "lyon", "--executable", "p", "--system",
               "test", "--nprocs", "4", "--input", "N=%d" % p)
    r = subprocess.run([UPLOAD, "--server", f"http://127.0.0.1:{S.port}", "--token",
                        S.token, "trace", DIR, "--application", "lyon8", "--executable",
                        "p", "--system", "test", "--nprocs", "8"], capture_output=True,
                       text=True)
    assert r.returncode == 2 and ("the trace has 4 ranks but run" in r.stderr and
                                  "ran on 8 processes" in r.stderr), r.stderr
    assert S.get("/api/v1/runs?application=lyon8")[1]["runs"] == []
    st, ans = S.get("/api/v1/applications/lyon/occupancy?x=N&graph=poly1")
    assert st == 200, ans
    assert ans["runs"] == 3 and ans["x"] == "N"
    st, one = S.get("/api/v1/runs/%d/trace/occupancy" % S.get(
        "/api/v1/runs?application=lyon")[1]["runs"][0]["id"])
    for state in ans["states"]:
        frac = one["fraction"][state["state"]]
        assert [x for x, _ in state["points"]] == [4, 8, 16], state
        assert all(abs(y - frac) < 1e-12 for _, y in state["points"]), state
        assert state["model"] is not None, state
        coef = state["model"]["coef"]
        assert abs(coef[-1]) < 1e-9 or abs(coef[0] - frac) < 1e-6, state
    st, ans = S.get("/api/v1/applications/nobody/occupancy")
    assert st == 404, ans
    st, ans = S.get("/api/v1/applications/lyon/occupancy?bogus=1")
    assert st == 400, ans


OTF2 = os.path.join(os.environ.get("PROPHECY_SRC", os.path.join(os.path.dirname(
    __file__), "../..")), "tests/data/import/otf2/trace")


def otf2_tar():
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for root, _, files in sorted(os.walk(OTF2)):
            for f in sorted(files):
                path = os.path.join(root, f)
                t.add(path, arcname=os.path.relpath(path, OTF2))
    return bio.getvalue()


def check_otf2_analyses(srv, rid):
    """The fixture (tests/data/import/otf2/make_trace.c.txt): two ranks,
    1000 ticks/s; rank 0 in MPI_Barrier over [0.6, 0.9] s, rank 1 over
    [0.8, 1.1] s: rank 0 waits 0.2 s for rank 1."""
    st, w = srv.get(f"/api/v1/runs/{rid}/trace/wait")
    assert st == 200, w
    assert w["nranks"] == 2 and abs(w["wait"][0][1] - 0.2) < 1e-9 and w["wait"][1][0] == 0, w
    st, p = srv.get(f"/api/v1/runs/{rid}/trace/profile")
    assert [rk["calls"]["MPI_Barrier"] for rk in p["ranks"]] == [1, 1], p
    assert [round(rk["exec"], 9) for rk in p["ranks"]] == [1.0, 1.2], p
    st, o = srv.get(f"/api/v1/runs/{rid}/trace/occupancy")
    assert abs(o["mean"]["compute (state)"] - (0.55 + 0.75) / 2) < 1e-9, o
    for name in NAMES:
        st, body, _ = srv.request("GET", f"/plots/run-{rid}-{name}.svg", raw=True,
                                  token=None)
        assert st == 200 and b"<svg" in body, name


@test
def otf2_import_stores_the_run_with_its_trace():
    st, ans = S.request("POST", "/api/v1/import?format=otf2&application=otf2trace",
                        otf2_tar(), ctype="application/octet-stream")
    assert st == 201, ans
    st, listing = S.get("/api/v1/runs?application=otf2trace")
    rid = listing["runs"][0]["id"]
    check_otf2_analyses(S, rid)
    # again: nothing new, the trace kept
    before = S.content()
    st, ans = S.request("POST", "/api/v1/import?format=otf2&application=otf2trace",
                        otf2_tar(), ctype="application/octet-stream")
    assert st == 200, ans
    assert S.content() == before


@test
def otf2_import_on_the_command_line():
    C = Server()
    try:
        C.kill()
        out = C.cli("import", "--format", "otf2", "--application", "cli otf2", OTF2)
        assert "imported 1 run" in out, out
        C.start()
        st, listing = C.get("/api/v1/runs")
        check_otf2_analyses(C, listing["runs"][0]["id"])
    finally:
        C.close()


@test
@pt.sqlite_only("damages the SQLite file's pages; a PostgreSQL server guards its own")
def a_damaged_trace_store_is_an_error_never_no_trace():
    """Every step loop of db/sqlite/trace.c checks its end: a damaged table
    answers 500 database, never "this run has no trace"."""
    D = Server()
    try:
        st, b = D.post("/api/v1/runs", run_doc(id="damaged", nprocs=4))
        rid = b["ids"][0]
        st, ans = D.post(f"/api/v1/runs/{rid}/trace", tar_of(FILES), ctype="application/x-tar")
        assert st == 201, ans
        D.kill()
        con = sqlite3.connect(D.db)
        size = con.execute("PRAGMA page_size").fetchone()[0]
        roots = {t: con.execute("SELECT rootpage FROM sqlite_master WHERE name = ?",
                                (t,)).fetchone()[0]
                 for t in ("traces", "trace_analyses", "trace_ranks")}
        con.close()
        with open(D.db, "r+b") as f:
            for page in roots.values():
                f.seek((page - 1) * size)
                f.write(bytes([0xA5]) * size)
        D.start()
        for path in (f"/api/v1/runs/{rid}/trace/wait", f"/plots/run-{rid}-wait.svg",
                     f"/api/v1/runs/{rid}/trace/timeline?width=50"):
            st, body = D.get(path)
            assert st == 500 and body["error"]["code"] == "database", (path, st, body)
        st, body, _ = D.request("GET", f"/runs/{rid}/trace", raw=True, token=None)
        assert st == 500, st
    finally:
        D.close()


try:
    report()
finally:
    S.close()
    shutil.rmtree(TMP, ignore_errors=True)
