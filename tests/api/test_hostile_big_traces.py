"""Red team, issue 34 item 8: traces of more than 256 ranks are stored.

The charts drawn at upload refused them ("a heat map must be 1x1 to
256x256", "a stacked chart needs 1..1000 categories") though the limits and
docs promise 4,096 ranks, so `prophecy-upload exec --trace` on 512 ranks lost
its trace. 512 real Open MPI ranks are impractical on a 2-core test machine
(each rank a process of tens of MB): here the command exec --trace runs
writes a 512-rank trace of the recorder's format (docs/traces.md) into the
PROPHECY_TRACE_DIR the uploader gives it, so the uploader's whole path (its
directory, its reading of the rank files, the run it derives, the upload) and
the server's (parse, every analysis and chart, store) see 512 ranks; a
1,024-rank trace goes through POST /api/v1/traces. (4,096 ranks, the limit,
is not tested: the stored wait and traffic matrices are dense, nranks^2
numbers of JSON, 2.3 GB of server memory for 16,384 events.)"""
import glob
import http.client
import io
import json
import os
import struct
import subprocess
import sys
import tarfile
import tempfile
import time

from prophecy_test import BIN, Server, report, run_doc, test

UPLOAD = os.path.join(BIN, "prophecy-upload")
LIB = os.path.join(BIN, "..", "uploader", "trace", "libprophecy_trace.so")
NAMES = ["profile", "wait", "traffic", "load", "timeline", "occupancy", "clusters"]

S = Server("--max-body", str(8 << 20))
TMP = tempfile.mkdtemp(prefix="prophecy-bigtrace-")

# One rank file of format version 3: a "solve" state over the whole run, a
# send to the next rank and a receive from the previous one inside it, and a
# barrier of the world at the end. Every rank ends at 1 s + rank us.
WRITER = r'''
import os, struct, sys
P = int(sys.argv[1]); d = sys.argv[2] if len(sys.argv) > 2 else os.environ["PROPHECY_TRACE_DIR"]
for r in range(P):
    end = 1_000_000_000 + 1000 * r
    name = b"solve"
    ev = [
        (0, end - 1, 0, -1, -1, 0, 0, 0, 0, 0),                                  # state
        (100_000, 200_000 + r, 4096, (r + 1) % P, -1, 7, 0, P, 1, 0),             # MPI_Send
        (300_000, 400_000 + 10 * r, 4096, (r - 1) % P, -1, 7, 0, P, 6, 0),        # MPI_Recv
        (900_000_000, 900_000_000 + 5000 * (P - r), 0, -1, -1, 0, 0, P, 13, 0),   # MPI_Barrier
    ]
    head = b"PRPHTRC\0" + struct.pack("<IIIIQQQII Q".replace(" ", ""), 3, r, P, 1, len(ev),
                                      end, 0, 48, 0, 0)
    body = struct.pack("<H", len(name)) + name
    for e in ev:
        body += struct.pack("<QQqiiiiIHH", *e)
    with open(os.path.join(d, "trace.%d" % r), "wb") as f:
        f.write(head + body)
'''
WRITER_PY = os.path.join(TMP, "write_trace.py")
with open(WRITER_PY, "w") as f:
    f.write(WRITER)


def upload(*args):
    env = dict(os.environ, PROPHECY_SPOOL=os.path.join(TMP, "spool"))
    return subprocess.run([UPLOAD, "--server", f"http://127.0.0.1:{S.port}", "--token",
                           S.token, "--no-flush", *args], capture_output=True, text=True,
                          env=env, timeout=600)


def slow(method, path, body=None, ctype=None):
    """A request given the time a loaded machine takes (the wait and traffic
    analyses of 1,024 ranks are a million cells each): status, body."""
    c = http.client.HTTPConnection("127.0.0.1", S.port, timeout=600)
    h = {"Authorization": "Bearer " + S.token}
    if ctype:
        h["Content-Type"] = ctype
    c.request(method, path, body, h)
    r = c.getresponse()
    st, data = r.status, r.read()
    c.close()
    try:
        return st, json.loads(data)
    except ValueError:
        return st, data


def check_trace(rid, nranks):
    st, w = slow("GET", f"/api/v1/runs/{rid}/trace/wait")
    assert st == 200 and w["nranks"] == nranks and w["unmatched"] == 0, (st, str(w)[:300])
    st, p = slow("GET", f"/api/v1/runs/{rid}/trace/profile")
    assert st == 200 and len(p["ranks"]) == nranks
    # the longest rank is the last: 1 s + (nranks - 1) us
    assert abs(max(rk["exec"] for rk in p["ranks"]) - (1 + (nranks - 1) * 1e-6)) < 1e-9
    st, body = slow("GET", f"/runs/{rid}/trace")
    assert st == 200, body[:300]
    for name in NAMES:
        assert f'id="{name}"'.encode() in body, name
        st, svg = slow("GET", f"/plots/run-{rid}-{name}.svg")
        assert st == 200 and b"<svg" in svg, (name, st, svg[:300])


@test
def exec_trace_on_512_ranks_keeps_its_trace():
    before = set(glob.glob("/tmp/prophecy-trace-*"))
    r = upload("exec", "--trace", "--application", "wide", "--executable", "wide.x",
               "--system", "test", "--nprocs", "512", "--", sys.executable, WRITER_PY,
               "512")
    assert r.returncode == 0, r.stderr
    st, listing = S.get("/api/v1/runs?application=wide")
    assert st == 200 and len(listing["runs"]) == 1, listing
    run = listing["runs"][0]
    assert run["nprocs"] == 512, run
    assert f"run {run['id']} and its trace stored (512 ranks" in r.stderr, r.stderr
    assert set(glob.glob("/tmp/prophecy-trace-*")) <= before
    check_trace(run["id"], 512)


@test
def a_trace_of_1024_ranks_is_stored():
    d = os.path.join(TMP, "t1024")
    os.makedirs(d)
    subprocess.run([sys.executable, WRITER_PY, "1024", d], check=True)
    files = {f: open(os.path.join(d, f), "rb").read() for f in os.listdir(d)}
    files["run.json"] = json.dumps(run_doc(id="wide-1024", application="wide1024",
                                           nprocs=1024)).encode()
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for name, data in sorted(files.items()):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    t0 = time.time()
    st, ans = slow("POST", "/api/v1/traces", bio.getvalue(), ctype="application/x-tar")
    print(f"     1,024 ranks stored in {time.time() - t0:.1f} s", flush=True)
    assert st == 201 and ans["trace"] == "created", ans
    check_trace(ans["run_id"], 1024)


report()
