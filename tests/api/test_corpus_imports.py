"""Real files in, right numbers out (SPEC §16): every sample of the shared
import corpus (../shared/corpus/imports beside the checkout) of the formats
extrap-text, extrap-json, extrap-jsonl, caliper-json, tau, osu, lnt-json, bmf
and gbench, through the real server. Per sample: the import stores what the
corpus's facts.json says the file holds (exact numbers, from independent
parsers); importing it again, named or through `format=auto`, stores nothing
new and `auto` names the same format; a truncated copy is refused with the
file and line or field and stores nothing. Formats that name the application
from the content (LNT, gbench, TAU) store nothing new under another file name.

Samples a format cannot store yet are reported as skipped with the reason
(runs without any time metric need a run time that may be absent, SPEC §16
class 1, which the store does not have)."""
import io
import json
import os
import sys
import tarfile
import urllib.parse

from prophecy_test import Server, report, test

SRC = os.environ.get("PROPHECY_SRC", os.path.join(os.path.dirname(__file__), "../.."))
CORPUS = os.path.join(SRC, "../shared/corpus/imports")
if not os.path.isfile(os.path.join(CORPUS, "facts.json")):
    print(f"SKIP: no import corpus at {os.path.normpath(CORPUS)} (../shared beside the "
          "checkout)")
    sys.exit(0)
with open(os.path.join(CORPUS, "facts.json")) as _f:
    FACTS = json.load(_f)

MINE = ("extrap-text", "extrap-json", "extrap-jsonl", "caliper-json", "tau", "osu",
        "lnt-json", "bmf", "gbench")
# what cannot be stored yet, and why (reported as skipped)
NOT_YET = {}
S = Server()


def body_and_name(sample):
    full = os.path.join(CORPUS, sample)
    if os.path.isdir(full):
        out = io.BytesIO()
        with tarfile.open(fileobj=out, mode="w", format=tarfile.GNU_FORMAT) as t:
            for root, _, files in sorted(os.walk(full)):
                for f in sorted(files):
                    p = os.path.join(root, f)
                    t.add(p, arcname=os.path.relpath(p, full))
        return out.getvalue(), os.path.basename(full)
    with open(full, "rb") as f:
        return f.read(), os.path.basename(full)


def truncated(sample):
    """A copy cut in the middle of a line two thirds in (for a directory: its
    first profile cut so). Extra-P text is cut where a line starts: its
    repetitions may differ between points, so a DATA line cut short is a
    valid line."""
    def cut(data):
        mid = len(data) * 2 // 3
        start = data.rfind(b"\n", 0, mid) + 1
        end = data.find(b"\n", mid)
        end = len(data) if end < 0 else end
        if sample.startswith("extrap-text/"):
            return data[:start]
        return data[:max(start + 1, (start + end) // 2)]
    full = os.path.join(CORPUS, sample)
    if not os.path.isdir(full):
        return cut(body_and_name(sample)[0])
    out = io.BytesIO()
    first = True
    with tarfile.open(fileobj=out, mode="w", format=tarfile.GNU_FORMAT) as t:
        for root, _, files in sorted(os.walk(full)):
            for f in sorted(files):
                p = os.path.join(root, f)
                with open(p, "rb") as fh:
                    data = fh.read()
                if first and f.startswith("profile."):
                    data, first = cut(data), False
                info = tarfile.TarInfo(os.path.relpath(p, full))
                info.size = len(data)
                t.addfile(info, io.BytesIO(data))
    return out.getvalue()


def post(body, **query):
    q = urllib.parse.urlencode(query)
    return S.request("POST", "/api/v1/import?" + q, body, ctype="application/octet-stream")


def stored():
    return (S.sql("SELECT count(*) FROM runs")[0][0],
            S.sql("SELECT count(*) FROM system_benchmarks")[0][0])


def runs_of(application):
    out, after = [], 0
    while True:
        q = urllib.parse.urlencode({"application": application, "limit": 1000,
                                    "after": after})
        st, body = S.get("/api/v1/runs?" + q)
        assert st == 200, body
        out += body["runs"]
        if len(body["runs"]) < 1000:
            return out
        after = body["runs"][-1]["id"]


def same(want, got):
    """The API writes numbers with 16 significant digits (server/http.c): a
    stored value is the file's value to that precision, exactly."""
    return got is not None and float(f"{want:.16g}") == got


def kernel(run, name):
    for k in run["kernels"]:
        if k["name"] == name:
            return k
    return None


# ---- per format: the numbers stored against facts.json ---------------------

def check_extrap(fmt, sample, facts, runs):
    f = facts["facts"]
    assert len(runs) == f["runs"], (len(runs), f["runs"])
    metrics = f["metrics"]
    time_metric = "time" if "time" in metrics else "runtime" if "runtime" in metrics else ""
    regions = f["regions"]

    def kname(r):
        return r.replace("->", "/") if r else "<root>"

    def nested(r):
        return any(o != r and (o.startswith(r + "->") or r.startswith(o + "->"))
                   for o in regions)
    for s in f["series"]:
        r, m = s["region"], s["metric"]
        for pt in s["points"]:
            coords = dict(zip(f["params"], pt["point"]))
            got = []
            for run in runs:
                if any((run["nprocs"] if p == f["nprocs_param"] else run["inputs"].get(p))
                       != v for p, v in coords.items()):
                    continue
                k = kernel(run, kname(r))
                if k is None:
                    continue
                if m == time_metric:
                    got.append(k["metrics"]["inclusive"] if nested(r) else k["time"])
                elif m in (k.get("metrics") or {}):  # fewer repetitions than time
                    got.append(k["metrics"][m])
            want = sorted(float(f"{v:.16g}") for v in pt["values"])
            assert sorted(got) == want, (r, m, coords, got, pt["values"])
    if not any(m in ("time", "runtime", "") for m in metrics):
        # ("" is Extra-P's unnamed metric, which the importer reads as time)
        # SPEC §16: no time metric, no runtime; each metric is also a run
        # metric (the roots' values summed), so y = metric:NAME models it
        roots = [r for r in regions if not any(r.startswith(o + "->") for o in regions)]
        for run in runs:
            assert run["runtime"] is None, run
            # nor has a kernel a time (never a made-up 0, migration 14)
            assert all(k["time"] is None for k in run["kernels"]), run
        if len(roots) == 1:
            for s in f["series"]:
                if s["region"] != roots[0]:
                    continue
                for pt in s["points"]:
                    coords = dict(zip(f["params"], pt["point"]))
                    got = sorted(run["metrics"][s["metric"]] for run in runs
                                 if all(run["inputs"].get(p) == v
                                        for p, v in coords.items()))
                    want = sorted(float(f"{v:.16g}") for v in pt["values"])
                    assert got == want, (s["metric"], coords, got, want)
        return
    # the run time: the roots' (time) values, never nested ones summed
    for run in runs:
        roots = [k for k in run["kernels"]
                 if not any(k["name"].startswith(o["name"] + "/") for o in run["kernels"])]
        want = sum((k.get("metrics") or {}).get("inclusive", k["time"]) for k in roots)
        assert abs(run["runtime"] - want) <= 1e-9 * max(1, want), (run, want)


def check_caliper(fmt, sample, facts, runs):
    f = facts["facts"]
    assert len(runs) == 1, runs
    run = runs[0]
    names = {k["name"] for k in run["kernels"]}
    assert len(names) == len(f["paths"]), (names, f["paths"])
    for p in f["paths"]:  # a path longer than a name keeps its root and its end
        assert p in names if len(p.encode()) <= 256 else any(
            n.startswith(p.split("/")[0] + "/\u2026") and p.endswith(n.split("/", 2)[2])
            for n in names), p
    assert run["nprocs"] == f["ranks"], run["nprocs"]
    cols = f["columns"]
    incl = next((c for c in cols if "inclusive" in c or c == "time (inc)"), None)
    excl = next((c for c in ("time", "sum#time.duration") if c in cols), None)
    # Caliper 1.x (no version) measured time.duration in microseconds
    div = 1e6 if "cali.caliper.version" not in f["metadata"] else 1
    for path, per_col in f["values"].items():
        if len(path.encode()) > 256:
            continue
        k = kernel(run, path)
        assert k is not None, path
        for col, per_rank in per_col.items():
            v = list(per_rank.values())
            if col == excl:
                assert same(max(v) / div, k["time"]), (path, col, k, v)
                if len(v) > 1:
                    assert same(min(v) / div, k["metrics"]["min"]), (path, k)
            elif col == incl:
                assert same(max(v) / div, k["metrics"]["inclusive"]), (path, col, k, v)
            else:
                assert same(max(v), k["metrics"][col]), (path, col, k, v)
    if incl is not None:  # the run time is the root's inclusive time
        roots = [p for p in f["paths"] if "/" not in p]
        assert same(max(sum(f["values"][p][incl][r] for p in roots)
                        for r in f["values"][roots[0]][incl]) / div, run["runtime"]), run


def tau_userevents(sample):
    """User events over every profile of the time metric, read here."""
    ev = {}
    full = os.path.join(CORPUS, sample)
    for root, _, files in os.walk(full):
        if "MULTI__" in root and not root.endswith("MULTI__TIME"):
            continue
        for fn in files:
            if not fn.startswith("profile."):
                continue
            with open(os.path.join(root, fn), errors="replace") as fh:
                lines = fh.read().split("\n")
            for i, line in enumerate(lines):
                if line.endswith(" userevents") or " userevents" in line and \
                        line.split()[0].isdigit() and line.split()[1] == "userevents":
                    n = int(line.split()[0])
                    for ln in lines[i + 2:i + 2 + n]:
                        name, rest = ln[1:].rsplit('"', 1)
                        name = name.strip()
                        cnt, mx, mn, mean, _ = map(float, rest.split())
                        if ":" in name or cnt == 0:
                            continue
                        e = ev.setdefault(name, [0.0, mx, mn, 0.0])
                        e[0] += cnt
                        e[1], e[2] = max(e[1], mx), min(e[2], mn)
                        e[3] += mean * cnt
                    break
    return ev


def tau_callpaths(sample):
    """The distinct call-path entries ("A => B") and flat functions of the
    time profiles."""
    out, flats = set(), set()
    for root, _, files in os.walk(os.path.join(CORPUS, sample)):
        if "MULTI__" in root and not root.endswith("MULTI__TIME"):
            continue
        for fn in files:
            if fn.startswith("profile."):
                with open(os.path.join(root, fn), errors="replace") as fh:
                    lines = fh.read().split("\n")
                k = int(lines[0].split()[0])
                for ln in lines[2:2 + k]:
                    name = ln[1:ln.rindex('"', 0, ln.index(" GROUP=")
                                          if " GROUP=" in ln else len(ln))]
                    name = name[:name.rindex('"')] if '"' in name else name
                    if " => " in name:
                        out.add(" => ".join(x.strip() for x in name.split(" => ")))
                    else:
                        flats.add(name.strip())
    return out, flats


def check_tau(fmt, sample, facts, runs):
    f = facts["facts"]
    assert len(runs) == 1, runs
    run = runs[0]
    assert run["nprocs"] == f["nodes"], run["nprocs"]
    assert run["inputs"]["threads"] == f["threads_per_node"], run["inputs"]
    t = f["metrics"]["TIME"]
    paths, flats = tau_callpaths(sample)
    leaves = {p.split(" => ")[-1].strip() for p in paths}
    for name, fn in t["functions"].items():
        name = name.strip()
        if name in leaves:
            assert kernel(run, name) is None, name  # inside its call paths
            continue
        k = kernel(run, name) if len(name.encode()) <= 256 else None
        if k is None:
            assert len(name.encode()) > 256, name
            continue
        excl = [x for x in fn["excl"] if x is not None]
        incl = [x for x in fn["incl"] if x is not None]
        assert same(max(excl) / 1e6, k["time"]), (name, k, excl)
        assert same(min(excl) / 1e6, k["metrics"]["min"]), (name, k)
        assert same(max(incl) / 1e6, k["metrics"]["inclusive"]), (name, k)
        assert same(min(incl) / 1e6, k["metrics"]["inclusive_min"]), (name, k)
        mean = sum(incl) / len(incl) / 1e6
        assert abs(k["metrics"]["inclusive_mean"] - mean) <= 1e-12 * max(1, mean), (name, k)
        assert k["calls"] == int(max(x for x in fn["calls"] if x is not None)), (name, k)
    for p in paths:  # A => B is the kernel A/B
        kname = "/".join(x.strip() for x in p.split(" => "))
        if len(kname.encode()) <= 256:
            assert kernel(run, kname) is not None, kname
    flat = len(flats - leaves)
    assert len(run["kernels"]) == len(paths) + flat, (len(run["kernels"]), len(paths), flat)
    root = max(max(x for x in fn["incl"] if x is not None) for fn in t["functions"].values())
    assert same(root / 1e6, run["runtime"]), (run["runtime"], root)
    for m, mf in f["metrics"].items():  # MULTI__ metrics on the kernels
        if m == "TIME":
            continue
        d = 1e6 if "TIME" in m else 1
        for name, fn in mf["functions"].items():
            k = kernel(run, name.strip())
            if k is None or " => " in name:
                continue
            excl = [x for x in fn["excl"] if x is not None]
            incl = [x for x in fn["incl"] if x is not None]
            assert same(max(excl) / d, k["metrics"][m]), (m, name, k)
            assert same(max(incl) / d, k["metrics"][m + "_inclusive"]), (m, name, k)
    for name, (cnt, mx, mn, s) in tau_userevents(sample).items():
        assert same(cnt, run["metrics"][name + ".count"]), (name, run["metrics"])
        assert same(mx, run["metrics"][name + ".max"]), name
        assert same(mn, run["metrics"][name + ".min"]), name
        assert abs(run["metrics"][name + ".mean"] - s / cnt) <= 1e-9 * max(1, s / cnt), name


OSU_NAMES = {"Latency": "MPISR", "Allgather Latency": "MPIAG",
             "All-to-All Personalized Exchange Latency": "MPIA2A",
             "Allreduce Latency": "MPIAR", "Bi-Directional Bandwidth": "MPIBIBW",
             "Multiple Bandwidth / Message Rate": "MPIMBW",
             "Multi-threaded Latency": "MPISRMT"}


def check_osu(fmt, sample, facts, system):
    f = facts["facts"]
    for blk in f["blocks"]:
        name = OSU_NAMES[blk["title"]]
        cols = blk["header"][1:]
        for row in blk["rows"]:
            for col, v in zip(cols, row["values"]):
                if col == "Iterations":
                    continue
                stat = "min" if col.startswith("Min") else "max" if col.startswith(
                    "Max") else "mean"
                if col == "MB/s" or "Bandwidth" in col:
                    want = [(name + "_MBS", v)]
                    if v > 0:
                        want.append((name, row["size"] / (v * 1e6)))
                elif col == "Messages/s":
                    want = [(name + "_MSGS", v)]
                else:
                    want = [(name, v / 1e6)]
                for bn, value in want:
                    q = urllib.parse.urlencode({"name": bn})
                    st, body = S.get(f"/api/v1/systems/{urllib.parse.quote(system)}"
                                     f"/benchmarks?{q}")
                    assert st == 200, body
                    got = [b["time"] for b in body["benchmarks"]
                           if b["args"].get("L") == row["size"] and b["stat"] == stat]
                    assert any(same(value, g) for g in got), (bn, row, stat, value, got)


def check_lnt(fmt, sample, facts, runs):
    f = facts["facts"]
    for run in runs:
        assert run["system"] == f["machine"], run
        assert run["commit"] == f["commit"], run
    # every numeric sample of a test that has a time is a run or a metric
    for key, samples in f["samples"].items():
        test_name, _, metric = key.rpartition("|") if "|" in key else \
            key.rpartition(".")
        if not all(isinstance(x, (int, float)) for x in samples) or metric.startswith(
                "hash"):
            continue
        mine = [r for r in runs if r["executable"] == test_name]
        v1 = {"exec": "execution_time", "compile": "compile_time", "score": "score",
              "mem": "mem_bytes", "code_size": "code_size"}
        metric = v1.get(metric, metric) if "|" not in key else metric
        time_key = next(m for m in ("execution_time", "compile_time", "wall_time")
                        if any((test_name + sep + m2) in f["samples"]
                               for sep in "|." for m2 in (m, {"execution_time": "exec",
                                                             "compile_time": "compile",
                                                             "wall_time": "wall"}[m])))
        got = sorted(r["runtime"] if metric == time_key else r["metrics"][metric]
                     for r in mine)
        assert got == sorted(samples), (key, got, samples)


def check_bmf(fmt, sample, facts, runs):
    f = facts["facts"]
    n = sum(len(b["entries"]) for b in f["benchmarks"].values())
    assert len(runs) == n, (len(runs), n)
    for bench, b in f["benchmarks"].items():
        for e in b["entries"]:
            params = e["parameters"] or {}
            words = ",".join(f"{k}={v}" for k, v in params.items() if isinstance(v, str))
            exe = bench + ("{" + words + "}" if words else "")
            mine = [r for r in runs if r["executable"] == exe and all(
                r["inputs"].get(k) == v for k, v in params.items()
                if not isinstance(v, str))]
            assert len(mine) == 1, (bench, params, [r["executable"] for r in runs])
            run = mine[0]
            for mname, fields in e["measures"].items():
                div = 1e9 if mname == "latency" else 1
                for field, v in fields.items():
                    suffix = {"value": "", "lower_value": "_lower",
                              "upper_value": "_upper"}.get(field, "_" + field)
                    assert same(v / div, run["metrics"][mname + suffix]), (mname, field, run)
            if "latency" in e["measures"]:
                assert same(e["measures"]["latency"]["value"] / 1e9, run["runtime"]), run


def check_gbench(fmt, sample, facts, runs):
    f = facts["facts"]
    assert len(runs) == f["iteration_rows"], (len(runs), f["iteration_rows"])
    assert {r["system"] for r in runs} == {f["host_name"] or "unknown"}, runs[0]
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1}
    by_name = {}
    for b in f["benchmarks"]:
        by_name.setdefault(b["run_name"], []).append(b)
    for run_name, rows in by_name.items():
        reps = [b for b in rows if b["run_type"] == "iteration"]
        aggs = [b for b in rows if b["run_type"] == "aggregate"]
        family = run_name.split("/")[0]
        if not reps and not any(a["aggregate_name"] == "mean" for a in aggs):
            # a complexity fit (BigO, RMS) of the family: on all its runs
            for r in runs:
                if r["executable"] == family:
                    for a in aggs:
                        for c, v in (a["counters"] if a["aggregate_name"] == "BigO"
                                     else {}).items():
                            assert same(v, r["metrics"]["big_o_" + c]), (run_name, r)
            continue
        mine = [r for r in runs if r["executable"] == family and all(
            r["inputs"].get(f"arg{i + 1}") == float(a)
            for i, a in enumerate(x for x in run_name.split("/")[1:] if x.isdigit()))]
        assert sorted(r["runtime"] for r in mine) == sorted(
            float(f"{b['real_time'] * scale[b['time_unit']]:.16g}") for b in reps), (
                run_name, [r["runtime"] for r in mine], reps)
        for a in aggs:
            name = a["aggregate_name"]
            for r in mine:
                if name == "BigO":
                    for c, v in a["counters"].items():
                        assert same(v, r["metrics"]["big_o_" + c]), (run_name, r)
                elif name == "RMS":
                    pass  # its coefficient is on the family's runs
                elif a["real_time"] is not None:
                    s = 1 if name == "cv" else scale[a["time_unit"]]
                    assert same(a["real_time"] * s, r["metrics"]["real_time_" + name]), (a, r)


def check_runs(fmt, sample, facts, runs):
    {"extrap-text": check_extrap, "extrap-json": check_extrap,
     "extrap-jsonl": check_extrap, "caliper-json": check_caliper, "tau": check_tau,
     "lnt-json": check_lnt, "bmf": check_bmf, "gbench": check_gbench}[fmt](
        fmt, sample, facts, runs)


# ---- one test per sample ------------------------------------------------------

def sample_test(sample, facts):
    fmt = facts["format"]

    def run():
        body, name = body_and_name(sample)
        system = "osu " + name if fmt == "osu" else None
        q = {"filename": name}
        if system:
            q["system"] = system
        before = stored()
        st, ans = post(body, format=fmt, **q)
        assert st in (200, 201), (sample, st, ans)
        assert ans["format"] == fmt, ans
        if fmt == "osu":
            # every value the output measured, equal values of two tables or
            # two repetitions included (a value was stored once however often
            # it was measured)
            assert ans["benchmarks"]["created"] == ans["benchmarks"]["read"] > 0, ans
            check_osu(fmt, sample, facts, system)
        else:
            assert ans["created"] == ans["runs"] > 0 or sample.startswith(
                "lnt-json/sample-arm"), ans
            runs = [r for app in {r["application"] for r in (
                S.get(f"/api/v1/runs/{i}")[1] for i in ans["ids"][:1])} for r in runs_of(app)
                    if r["id"] in set(ans["ids"])]
            assert len(runs) == len(ans["ids"]), (len(runs), len(ans["ids"]))
            if ans["ids"]:
                check_runs(fmt, sample, facts, runs)
        after = stored()
        # again, named and recognised: nothing new, the same format
        for query in ({"format": fmt, **q}, q):
            st, again = post(body, **query)
            assert st == 200, (sample, st, again)
            assert again["format"] == fmt, (sample, again)
            assert again.get("created", 0) == 0, again
            if fmt == "osu":
                assert again["benchmarks"]["created"] == 0, again
        assert stored() == after, (stored(), after)
        if fmt in ("lnt-json", "gbench", "tau"):  # identity from the content
            st, renamed = post(body, format=fmt, filename="renamed-" + name)
            base = name[:-4] if name.endswith(".tar") else name
            app = fmt == "tau" and S.get(f"/api/v1/runs/{ans['ids'][0]}")[1]["application"]
            if fmt == "tau" and app == base:
                # the profiles name no program: the directory's name is the
                # application (SPEC §16), so another name is another one
                assert st == 201 and renamed["created"] == renamed["runs"], renamed
                again = S.get(f"/api/v1/runs/{renamed['ids'][0]}")[1]
                assert again["application"] == "renamed-" + base, again["application"]
                after = stored()
            else:
                assert st == 200 and renamed["created"] == 0, (sample, st, renamed)
        # a truncated copy: refused, with where, and nothing stored
        st, bad = post(truncated(sample), format=fmt, **q)
        assert st == 422, (sample, st, bad)
        assert bad["error"]["message"].startswith(name) or "profile." in bad["error"][
            "message"], bad
        assert bad["error"]["field"], bad
        assert stored() == after, (sample, stored(), after)
        assert after != before or sample.startswith("lnt-json/sample-arm")

    run.__name__ = sample.replace("/", "__").replace("-", "_").replace(".", "_")
    return run


for _sample, _facts in sorted(FACTS.items()):
    if _sample in NOT_YET:
        print(f"skip {_sample}: {NOT_YET[_sample]}", flush=True)
    elif _facts["format"] in MINE:
        test(sample_test(_sample, _facts))

report()
