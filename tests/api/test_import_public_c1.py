"""Import trial C1 (SPEC §16): other real TAU profile directories, each imported
through the real server (tests/data/import/public/tau/, sources in SOURCES.md,
section "import trial C1"): parameter profiles (TAU_PROFILE_PARAM), dynamic
timers, pthread threads, event-based sampling ([SAMPLE]/[CONTEXT] entries with
call paths and throttled timers), 8 ranks whose metadata and user events only
rank 0 carries. What is stored must be what this test reads
from the profiles with its own small parser (never Prophecy's): one kernel per
function (call paths joined with "/"), time = the largest exclusive time over
the profiles in seconds, `mean`/`min`/`inclusive`, calls, nprocs = nodes, the
input `threads`, user events, the run time (the root's inclusive time), and
the kernels of one profile summing to at most it. Importing a directory again
stores nothing new; a directory with a cut profile is refused and stores
nothing."""
import io
import os
import re
import tarfile

from prophecy_test import Server, report, same16 as same, tar_of, test

SRC = os.environ.get("PROPHECY_SRC", os.path.join(os.path.dirname(__file__), "../.."))
DATA = os.path.join(SRC, "tests/data/import/public/tau")
S = Server()
THR = " [THROTTLED]"
SAMPLE = ("[SAMPLE] ", "[CONTEXT] ", "[UNWIND] ", "[SUMMARY] ")


# ---- the profiles, read here ------------------------------------------------

def norm(name):
    """A call path with each part trimmed: "A  => B" is "A => B"."""
    return " => ".join(p.strip() for p in name.split(" => "))


def split_line(line):
    """'"NAME" calls subrs excl incl profcalls GROUP="G"' -> (NAME, numbers)"""
    head = line[:line.index(' GROUP="')]
    name, rest = head[1:].rsplit('" ', 1)
    calls, _, excl, incl = (float(x) for x in rest.split()[:4])
    return norm(name), calls, excl, incl


def param_base(name):
    """"F [ <size> = <100> ]" -> ("F", "[ <size> = <100> ]"), else None."""
    if not name.endswith("> ]") or " [ <" not in name:
        return None
    i = name.rindex(" [ <")
    if "> = <" not in name[i:] or i == 0:
        return None
    return name[:i].strip(), name[i + 1:].strip()


def read_dir(rel):
    """{(node, context, thread): {name: [calls, excl, incl]}} of the TIME
    profiles, the user events {name: [(numevents, max, min, mean) of each
    profile]}, the Executable."""
    full = os.path.join(DATA, rel)
    profs, events, exe = {}, {}, None
    for fn in sorted(os.listdir(full)):
        m = re.fullmatch(r"profile\.(\d+)\.(\d+)\.(\d+)", fn)
        if not m:
            continue
        with open(os.path.join(full, fn)) as f:
            text = f.read()
        lines = text.split("\n")
        nfun = int(lines[0].split()[0])
        assert lines[0].split()[1] == "templated_functions_MULTI_TIME", lines[0]
        got = re.search(r"<name>Executable</name><value>([^<]*)<", lines[1])
        exe = exe or (got and got.group(1))
        prof = {}
        for ln in lines[2:2 + nfun]:
            name, calls, excl, incl = split_line(ln)
            prof[name] = [calls, excl, incl]
        # a parameter entry's exclusive time is a part of its function's
        for name, row in prof.items():
            pb = param_base(name)
            if pb and pb[0] in prof:
                prof[pb[0]][1] -= row[1]
        for row in prof.values():
            row[1] = max(row[1], 0.0)
        profs[tuple(int(x) for x in m.groups())] = prof
        head = re.search(r"^(\d+) userevents\n#[^\n]*\n", text, re.M)
        for ln in text[head.end():].split("\n")[:int(head.group(1))] if head else ():
            name, rest = ln[1:].rsplit('" ', 1)
            row = tuple(map(float, rest.split()[:4]))  # numevents max min mean
            if " : " not in name and name != "(null)" and row[0]:  # context: per path
                events.setdefault(name.strip(), []).append(row)
    return profs, events, exe


def strip_thr(s):
    return s[:-len(THR)] if s.endswith(THR) else s


def expected(rel):
    """{kernel name: (function name, sampled?)} and the leaves left out."""
    profs, _, _ = read_dir(rel)
    names = {n for p in profs.values() for n in p}
    ends = {strip_thr(n.split(" => ")[-1]) for n in names if " => " in n}
    out = {}
    for n in names:
        if " => " not in n and strip_thr(n) in ends:
            continue  # inside its call paths
        if n != strip_thr(n) and strip_thr(n).strip() in names:
            continue  # throttled on some profiles only: one kernel with f
        pb = param_base(n)
        path = pb[0] + " => " + pb[1] if pb and pb[0] in names else n
        sampled = n.split(" => ")[-1].startswith(SAMPLE)
        out[path.replace(" => ", "/")] = (n, sampled)
    return out


# ---- the checks ---------------------------------------------------------------

def check(rel, run):
    profs, events, exe = read_dir(rel)
    nodes = {n for n, _, _ in profs}
    threads = max(sum(1 for n, _, _ in profs if n == node) for node in nodes)
    assert run["application"] == os.path.basename(exe), run["application"]
    assert run["nprocs"] == len(nodes) and run["inputs"]["threads"] == threads, run
    want = expected(rel)
    got = {k["name"]: k for k in run["kernels"]}
    assert set(got) == set(want), (sorted(set(got) ^ set(want)))
    root = 0.0
    for kname, (n, sampled) in want.items():
        rows = [p[x] for p in profs.values() for x in (n, n + THR) if x in p]
        k = got[kname]
        assert k["calls"] == max(int(r[0]) for r in rows), (kname, k)
        if sampled:  # not a timer: no time, the samples' total as `sampled`
            assert k["time"] is None, (kname, k)
            assert same(max(r[2] for r in rows) / 1e6, k["metrics"]["sampled"]), k
            continue
        ex, inc = [r[1] / 1e6 for r in rows], [r[2] / 1e6 for r in rows]
        assert same(max(ex), k["time"]), (kname, k, ex)
        assert same(min(ex), k["metrics"]["min"]), (kname, k)
        assert abs(k["metrics"]["mean"] - sum(ex) / len(ex)) <= 1e-12 * max(1, max(ex))
        assert same(max(inc), k["metrics"]["inclusive"]), (kname, k)
        assert same(min(inc), k["metrics"]["inclusive_min"]), (kname, k)
        root = max(root, max(inc))
    assert same(root, run["runtime"]), (run["runtime"], root)
    # within each profile the kept kernels' exclusive times sum to at most
    # its root's inclusive time (nothing counted twice)
    for loc, prof in profs.items():
        total = sum(prof[n][1] for n, s in want.values() if not s and n in prof)
        top = max(r[2] for n, r in prof.items() if not n.split(" => ")[-1].startswith(SAMPLE))
        assert total <= top + 1e-6, (rel, loc, total, top)
    if len(profs) == 1:
        assert sum(k["time"] for k in run["kernels"] if k["time"] is not None) <= \
            run["runtime"] * (1 + 1e-12), run["runtime"]
    for name, rows in events.items():  # over the profiles
        cnt, mean = sum(r[0] for r in rows), sum(r[0] * r[3] for r in rows)
        mean /= cnt
        assert same(cnt, run["metrics"][name + ".count"]), (name, run["metrics"])
        assert same(max(r[1] for r in rows), run["metrics"][name + ".max"]), name
        assert same(min(r[2] for r in rows), run["metrics"][name + ".min"]), name
        assert abs(run["metrics"][name + ".mean"] - mean) <= 1e-9 * max(1, mean)
    assert set(run["metrics"]) == {f"{e}.{x}" for e in events
                                   for x in ("count", "max", "min", "mean")}, run["metrics"]


def cut_tar(full):
    """The directory as a tar archive with its first profile cut mid-line."""
    out, first = io.BytesIO(), True
    with tarfile.open(fileobj=out, mode="w", format=tarfile.GNU_FORMAT) as t:
        for fn in sorted(os.listdir(full)):
            with open(os.path.join(full, fn), "rb") as fh:
                data = fh.read()
            if first:
                mid = len(data) * 2 // 3
                start = data.rfind(b"\n", 0, mid) + 1
                end = data.find(b"\n", mid)
                data, first = data[:(start + end) // 2], False
            info = tarfile.TarInfo(fn)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return out.getvalue()


def dir_test(rel):
    def run():
        full = os.path.join(DATA, rel)
        body = tar_of(full)
        before = S.runs_stored()
        st, ans = S.import_data(body, format="tau", filename=rel + ".tar")
        assert st == 201 and ans["created"] == ans["runs"] == 1, (rel, st, ans)
        assert S.runs_stored() == before + 1
        for q in ({"format": "tau", "filename": rel + ".tar"}, {"filename": rel + ".tar"},
                  {"filename": "renamed.tar"}):
            st, again = S.import_data(body, **q)
            assert st == 200 and again["format"] == "tau" and again["created"] == 0, again
        st, bad = S.import_data(cut_tar(full), format="tau", filename=rel + ".tar")
        assert st == 422 and "profile." in bad["error"]["message"], (st, bad)
        assert S.runs_stored() == before + 1
        st, got = S.get(f"/api/v1/runs/{ans['ids'][0]}")
        assert st == 200, got
        check(rel, got)
    run.__name__ = "tau__" + re.sub(r"\W", "_", rel)
    return run


def sampled_entries_are_not_timers():
    """The EBS run: the timers alone sum to the root per rank; the samples
    (flat ones too, "[SAMPLE] f [THROTTLED]" beside "... => [SAMPLE] f") are
    kernels without a time under their call paths."""
    st, ans = S.import_data(tar_of(os.path.join(DATA, "anhtutran_osu_allgather_ebs_2ranks")),
                   format="tau", filename="ebs.tar")
    assert st == 200, ans
    st, run = S.get(f"/api/v1/runs/{ans['ids'][0]}")
    names = {k["name"] for k in run["kernels"]}
    assert not any(n.startswith("[SAMPLE]") for n in names), sorted(names)
    k = next(k for k in run["kernels"] if k["name"] ==
             "MPI_Barrier() [THROTTLED]/[CONTEXT] MPI_Barrier() [THROTTLED]")
    assert k["time"] is None and same(0.330006, k["metrics"]["sampled"]), k


def parameter_entries_are_children():
    """TAU_PROFILE_PARAM: "F [ <size> = <100> ]" is the kernel F/[ <size> =
    <100> ]; F keeps no time of its own (all its calls had a size)."""
    st, ans = S.import_data(tar_of(os.path.join(DATA, "tau2_wrap_param_2ranks")), format="tau",
                   filename="wrap.tar")
    assert st == 200, ans
    st, run = S.get(f"/api/v1/runs/{ans['ids'][0]}")
    f = "int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}]"
    k = {k["name"]: k for k in run["kernels"]}
    assert k[f]["time"] == 0 and k[f]["calls"] == 3, k[f]
    assert same(64e-6, k[f]["metrics"]["inclusive"]), k[f]
    assert same(40e-6, k[f + "/[ <size> = <100> ]"]["time"]), k
    assert f + " [ <size> = <100> ]" not in k


for _rel in ("tau2_wrap_param_2ranks", "tau2_timerphase_dynamic",
             "taucmdr_matmult_pthread_threads", "anhtutran_osu_allgather_ebs_2ranks",
             "homeworkbox_nbody_8ranks", "tau2_xmain_pthread_null_events"):
    test(dir_test(_rel))
test(sampled_entries_are_not_timers)
test(parameter_entries_are_children)

report()
