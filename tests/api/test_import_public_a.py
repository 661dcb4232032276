"""Import trial A (SPEC §16): real Extra-P, Caliper and TAU files that are not in
the shared corpus (tests/data/import/public/, sources in its SOURCES.md: other
tool versions and producers), each imported through the real server. What is
stored must be what this test reads from the file itself with its own small
parsers (never Prophecy's): runs, nprocs and inputs, kernels (call paths joined
with "/", exclusive time, `inclusive`), metrics and the run time, to the 16
significant digits the API writes. Importing a file again, named or recognised
(`format=auto`), stores nothing new; a file cut short is refused with its name
and stores nothing."""
import io
import json
import os
import re
import tarfile
import urllib.parse

from prophecy_test import Server, report, tar_of, test

SRC = os.environ.get("PROPHECY_SRC", os.path.join(os.path.dirname(__file__), "../.."))
DATA = os.path.join(SRC, "tests/data/import/public")
S = Server()
NPROCS = ("p", "np", "nprocs", "procs", "ranks", "processes")


def same(want, got):
    """The API writes numbers with 16 significant digits (server/http.c)."""
    return got is not None and float(f"{want:.16g}") == got


def body_of(rel):
    full = os.path.join(DATA, rel)
    if not os.path.isdir(full):
        with open(full, "rb") as f:
            return f.read()
    return tar_of(full)


def post(body, **query):
    return S.request("POST", "/api/v1/import?" + urllib.parse.urlencode(query), body,
                     ctype="application/octet-stream")


def stored():
    return int(S.sql("SELECT count(*) FROM runs")[0][0])  # psql answers text


def runs_by_ids(ids):
    out = []
    for i in ids:
        st, run = S.get(f"/api/v1/runs/{i}")
        assert st == 200, run
        out.append(run)
    return out


def kernel(run, name):
    return next((k for k in run["kernels"] if k["name"] == name), None)


def imported(fmt, rel, want_runs, renamed_too=False, cut=True):
    """Posts the sample, checks the repeat and the cut copy, returns its runs."""
    name = os.path.basename(rel)
    body = body_of(rel)
    before = stored()
    st, ans = post(body, format=fmt, filename=name)
    assert st == 201, (rel, st, ans)
    assert ans["format"] == fmt and ans["created"] == ans["runs"] == want_runs, ans
    after = stored()
    assert after == before + want_runs, (before, after)
    for q in ({"format": fmt, "filename": name}, {"filename": name}):
        st, again = post(body, **q)
        assert st == 200 and again["format"] == fmt and again["created"] == 0, again
    if renamed_too:  # the application comes from the content
        st, again = post(body, format=fmt, filename="renamed-" + name)
        assert st == 200 and again["created"] == 0, again
    if cut:
        st, bad = post(truncated(rel), format=fmt, filename=name)
        assert st == 422, (rel, st, bad)
        assert name in bad["error"]["message"] or "profile." in bad["error"]["message"], bad
    assert stored() == after
    return runs_by_ids(ans["ids"])


def truncated(rel):
    """Cut in the middle of a line two thirds in (a directory: its first
    profile)."""
    def cut(data):
        mid = len(data) * 2 // 3
        start = data.rfind(b"\n", 0, mid) + 1
        end = data.find(b"\n", mid)
        end = len(data) if end < 0 else end
        return data[:max(start + 1, (start + end) // 2)]
    full = os.path.join(DATA, rel)
    if not os.path.isdir(full):
        return cut(body_of(rel))
    out, first = io.BytesIO(), True
    with tarfile.open(fileobj=out, mode="w", format=tarfile.GNU_FORMAT) as t:
        for root, _, files in sorted(os.walk(full)):
            for fn in sorted(files):
                with open(os.path.join(root, fn), "rb") as fh:
                    data = fh.read()
                if first:
                    data, first = cut(data), False
                info = tarfile.TarInfo(os.path.relpath(os.path.join(root, fn), full))
                info.size = len(data)
                t.addfile(info, io.BytesIO(data))
    return out.getvalue()


# ---- Extra-P: the file's series, read here ------------------------------------

def extrap_text(rel):
    """(params, {(region, metric): {point: [values]}}) of an Extra-P text file."""
    params, points, series = [], [], {}
    region, metric, i = None, "", 0
    with open(os.path.join(DATA, rel)) as f:
        for line in f:
            parts = line.strip().split(None, 1)
            if not parts or parts[0].startswith("#"):
                continue
            key, rest = parts[0], parts[1] if len(parts) > 1 else ""
            if key == "PARAMETER":
                params += rest.split()
            elif key == "POINTS":
                if "(" in rest:
                    points += [tuple(float(x) for x in g.split())
                               for g in re.findall(r"\(([^)]*)\)", rest)]
                else:
                    points += [(float(x),) for x in rest.split()]
            elif key == "REGION":
                region, i = " ".join(rest.split()), 0
            elif key == "METRIC":
                metric, i = rest.strip(), 0
            elif key == "DATA":
                series.setdefault((region, metric), {})[points[i]] = [
                    float(x) for x in rest.split()]
                i += 1
    return params, series


def extrap_json(rel):
    with open(os.path.join(DATA, rel)) as f:
        doc = json.load(f)
    series = {}
    if isinstance(doc.get("measurements"), list):  # Extra-P 3: ids
        pname = {p["id"]: p["name"] for p in doc["parameters"]}
        params = [pname[k] for k in sorted(pname)]
        coord = {c["id"]: {pname[pv["parameter_id"]]: float(pv["parameter_value"])
                           for pv in c["parameter_value_pairs"]} for c in doc["coordinates"]}
        cp = {c["id"]: c["name"] for c in doc["callpaths"]}
        mt = {m["id"]: m["name"] for m in doc["metrics"]}
        for m in doc["measurements"]:
            pt = tuple(coord[m["coordinate_id"]][p] for p in params)
            series.setdefault((cp[m["callpath_id"]], mt[m["metric_id"]]), {}).setdefault(
                pt, []).append(float(m["value"]))
        return params, series
    params = doc["parameters"]  # Extra-P 4
    for cpath, per_metric in doc["measurements"].items():
        for metric, pts in per_metric.items():
            for e in pts:
                series.setdefault((cpath, metric), {})[tuple(
                    float(x) for x in e["point"])] = [float(v) for v in e["values"]]
    return params, series


def extrap_jsonl(rel):
    params, series = None, {}
    with open(os.path.join(DATA, rel)) as f:
        for line in f:
            if not line.strip():
                continue
            d = json.loads(line)
            params = params or list(d["params"])
            pt = tuple(float(d["params"][p]) for p in params)
            vals = d["value"] if isinstance(d["value"], list) else [d["value"]]
            series.setdefault((d.get("callpath"), d.get("metric", "")), {}).setdefault(
                pt, []).extend(float(v) for v in vals)
    return params, series


def check_extrap(runs, params, series, want_runs):
    """Every series value is a kernel value of a run at its point (the
    multisets agree); a file without a time metric has runs without a
    runtime whose kernels carry the metric; with one, the run time is the sum
    of the run's (flat, root) regions' times."""
    metrics = {m for _, m in series}
    time_metric = next((m for m in ("time", "runtime", "") if m in metrics), None)
    points = {pt for s in series.values() for pt in s}
    assert len(runs) == want_runs == sum(
        max(len(s.get(pt, [])) for s in series.values()) for pt in points), len(runs)

    def at(run, pt):
        return all((run["nprocs"] if p in NPROCS else run["inputs"].get(p)) == v
                   for p, v in zip(params, pt))
    if not any(p in NPROCS for p in params):
        assert all(r["nprocs"] == 1 for r in runs)
    for (region, metric), per_point in series.items():
        kname = region if region is not None else "<root>"
        for pt, values in per_point.items():
            got = []
            for run in runs:
                k = kernel(run, kname) if at(run, pt) else None
                if k is None:
                    continue
                if metric == time_metric:
                    got.append(k["time"])
                elif metric in (k.get("metrics") or {}):
                    got.append(k["metrics"][metric])
            assert sorted(got) == sorted(float(f"{v:.16g}") for v in values), (
                region, metric, pt, got, values)
    for run in runs:
        if time_metric is None:
            assert run["runtime"] is None, run
            assert all(k["time"] is None for k in run["kernels"]), run
            for m in metrics:  # one root region: its value is the run's metric
                ks = [k for k in run["kernels"] if m in (k.get("metrics") or {})]
                if len(ks) == 1:
                    assert run["metrics"][m] == ks[0]["metrics"][m], run
        else:
            want = sum(k["time"] for k in run["kernels"])
            assert abs(run["runtime"] - want) <= 1e-9 * max(1, want), (run, want)


def extrap_test(fmt, rel, reader, want_runs, app):
    def run():
        runs = imported(fmt, rel, want_runs, cut=fmt != "extrap-text")
        assert {r["application"] for r in runs} == {app}, runs[0]["application"]
        params, series = reader(rel)
        check_extrap(runs, params, series, want_runs)
    run.__name__ = "extrap__" + re.sub(r"\W", "_", os.path.basename(rel))
    return run


def extrap_text_names_keep_hash_and_lose_indentation():
    """RELEARN's region names: indented, with '#', '(w/ RMA)'; the name is
    the text (blanks collapsed), p is nprocs and n an input."""
    runs = runs_by_ids([r["id"] for r in S.get(
        "/api/v1/runs?application=extrap_gpr_relearn_data&limit=1000")[1]["runs"]])
    assert len(runs) == 50
    r = next(r for r in runs if r["nprocs"] == 512 and r["inputs"] == {"n": 9000.0})
    assert same(2536.75, kernel(r, "main()")["time"])
    assert same(2342.5, kernel(r, "Create synapses (w/ Alltoall)")["time"])
    assert same(0.0, kernel(r, "Update #synaptic elements + del synapses")["time"])
    assert len(r["kernels"]) == 14


# ---- Caliper json-split ------------------------------------------------------

def check_caliper(rel, run, path_col="path", time_col="time", per_second=1.0):
    with open(os.path.join(DATA, rel)) as f:
        doc = json.load(f)
    cols = doc["columns"]
    pc, tc = cols.index(path_col), cols.index(time_col)
    rc = cols.index("mpi.rank") if "mpi.rank" in cols else None
    nodes = doc["nodes"]

    def path(i):
        n = nodes[i]
        return (path(n["parent"]) + "/" if "parent" in n else "") + n["label"]
    excl = {}  # path -> rank -> summed time
    for row in doc["data"]:
        if row[pc] is None:
            continue  # time outside any region: no kernel
        rank = row[rc] if rc is not None else 0
        d = excl.setdefault(path(row[pc]), {})
        d[rank] = d.get(rank, 0) + row[tc] / per_second
    ranks = {r for d in excl.values() for r in d}
    incl = {p: {r: sum(v.get(r, 0) for q, v in excl.items()
                       if q == p or q.startswith(p + "/")) for r in ranks} for p in excl}
    names = {k["name"] for k in run["kernels"]}
    assert len(names) == len(excl), (sorted(names), sorted(excl))
    assert {p for p in excl if len(p.encode()) <= 256} <= names, run["kernels"]
    assert run["nprocs"] == len(ranks)

    def named(p):
        if len(p.encode()) <= 256:
            return kernel(run, p)
        # a long path keeps its first name, a mark and its innermost calls
        first, last = p.split("/")[0], "/" + "/".join(p.split("/")[-2:])
        k = [k for k in run["kernels"] if k["name"].startswith(first + "/\u2026")
             and k["name"].endswith(last)]
        assert len(k) == 1, (p, k)
        return k[0]
    for p, per_rank in excl.items():
        k = named(p)
        assert same(max(per_rank.values()), k["time"]), (p, k, per_rank)
        assert same(max(incl[p].values()), k["metrics"]["inclusive"]), (p, k)
        assert "Node order" not in k["metrics"], k  # an ordering, not a measure
    # the roots' inclusive time (a root may have no time of its own: every
    # measured path is under one), the slowest rank's
    assert same(max(sum(v.get(r, 0) for v in excl.values()) for r in ranks),
                run["runtime"]), run
    if len(ranks) == 1:  # each kernel's largest over the ranks may sum to more
        assert sum(k["time"] for k in run["kernels"]) <= run["runtime"] * (1 + 1e-12)


def caliper_test(rel, app, system, renamed_too, **columns):
    def run():
        runs = imported("caliper-json", rel, 1, renamed_too=renamed_too)
        assert runs[0]["application"] == app and runs[0]["system"] == system, runs[0]
        check_caliper(rel, runs[0], **columns)
    run.__name__ = "caliper__" + re.sub(r"\W", "_", os.path.basename(rel))
    return run


# ---- TAU profile directories ------------------------------------------------

def tau_read(rel):
    """{metric: {(node, thread): {name: (calls, excl, incl)}}}, the user
    events of the time metric's profiles, and the metadata's Executable."""
    full = os.path.join(DATA, rel)
    out, events, exe = {}, {}, None
    for root, _, files in sorted(os.walk(full)):
        for fn in sorted(files):
            m = re.fullmatch(r"profile\.(\d+)\.(\d+)\.(\d+)", fn)
            if not m:
                continue
            with open(os.path.join(root, fn)) as f:
                lines = f.read().split("\n")
            nfun, head = lines[0].split(None, 1)
            metric = head.split("_MULTI_", 1)[1] if "_MULTI_" in head else "TIME"
            exe = exe or re.search(r"<name>Executable</name><value>([^<]*)<", lines[1]).group(1)
            prof = out.setdefault(metric, {}).setdefault((int(m[1]), int(m[3])), {})
            for ln in lines[2:2 + int(nfun)]:
                name, rest = tau_split(ln)
                calls, _, ex, inc = rest.split()[:4]
                prof[" => ".join(x.strip() for x in name.split(" => "))] = (
                    float(calls), float(ex), float(inc))
            if "TIME" not in metric:
                continue
            for i, ln in enumerate(lines):
                if re.fullmatch(r"\d+ userevents", ln):
                    for ev in lines[i + 2:i + 2 + int(ln.split()[0])]:
                        name, rest = ev[1:].rsplit('" ', 1)
                        name = name.strip()
                        cnt, mx, mn, mean, _ = map(float, rest.split())
                        if ":" in name or cnt == 0:  # context events: per call path
                            continue
                        e = events.setdefault(name, [0.0, mx, mn, 0.0])
                        e[0] += cnt
                        e[1], e[2] = max(e[1], mx), min(e[2], mn)
                        e[3] += mean * cnt
    return out, events, os.path.basename(exe)


def tau_split(line):
    """'"NAME" calls subrs excl incl profcalls GROUP="G"' -> (NAME, numbers)"""
    head = line[:line.index(' GROUP="')]
    name, rest = head[1:].rsplit('" ', 1)
    return name, rest


def check_tau(rel, run):
    prof, events, _ = tau_read(rel)
    tm = next(m for m in sorted(prof, key=lambda m: (m != "TIME", "TIME" not in m, m)))
    nodes = {n for n, _ in prof[tm]}
    threads = max(sum(1 for n, _ in prof[tm] if n == node) for node in nodes)
    assert run["nprocs"] == len(nodes) and run["inputs"]["threads"] == threads, run
    names = {n for p in prof[tm].values() for n in p}
    leaves = {n.split(" => ")[-1] for n in names if " => " in n}
    kernels = {n.replace(" => ", "/") for n in names if n not in leaves}
    assert {k["name"] for k in run["kernels"]} == kernels, run["kernels"]
    root = 0
    for n in names - leaves:
        rows = [p[n] for p in prof[tm].values() if n in p]
        ex, inc = [r[1] / 1e6 for r in rows], [r[2] / 1e6 for r in rows]
        k = kernel(run, n.replace(" => ", "/"))
        assert same(max(ex), k["time"]), (n, k, ex)
        assert same(min(ex), k["metrics"]["min"]) and same(max(inc), k["metrics"][
            "inclusive"]) and same(min(inc), k["metrics"]["inclusive_min"]), (n, k)
        assert abs(k["metrics"]["mean"] - sum(ex) / len(ex)) <= 1e-12 * max(1, max(ex))
        assert k["calls"] == max(int(r[0]) for r in rows), (n, k)
        root = max(root, max(inc))
        for m in prof:
            if m == tm:
                continue
            d = 1e6 if "TIME" in m else 1  # counters are counts
            mrows = [p[n] for p in prof[m].values() if n in p]
            assert same(max(r[1] for r in mrows) / d, k["metrics"][m]), (m, n, k)
            assert same(max(r[2] for r in mrows) / d, k["metrics"][m + "_inclusive"])
    assert same(root, run["runtime"]), (run["runtime"], root)
    for name, (cnt, mx, mn, s) in events.items():
        assert same(cnt, run["metrics"][name + ".count"]), (name, run["metrics"])
        assert same(mx, run["metrics"][name + ".max"]) and same(
            mn, run["metrics"][name + ".min"]), name
        assert abs(run["metrics"][name + ".mean"] - s / cnt) <= 1e-9 * max(1, s / cnt)
    assert set(run["metrics"]) == {f"{e}.{s}" for e in events
                                   for s in ("count", "max", "min", "mean")}, run["metrics"]


def tau_test(rel):
    def run():
        runs = imported("tau", rel, 1, renamed_too=True)
        assert runs[0]["application"] == tau_read(rel)[2], runs[0]["application"]
        check_tau(rel, runs[0])
    run.__name__ = "tau__" + re.sub(r"\W", "_", os.path.basename(rel))
    return run


for _fmt, _rel, _reader, _n in (
        ("extrap-text", "extrap-text/extrap_two_parameter_segmented_1.txt", extrap_text, 300),
        ("extrap-text", "extrap-text/extrap_strong_scaling_two_parameter_1.txt", extrap_text,
         125),
        ("extrap-text", "extrap-text/extrap_experiment_MP.txt", extrap_text, 125),
        ("extrap-text", "extrap-text/extrap_gpr_relearn_data.txt", extrap_text, 50),
        ("extrap-text", "extrap-text/extrapgpr_relearn-125_runtime.txt", extrap_text, 50),
        ("extrap-json", "extrap-json/extrap_input_1.JSON", extrap_json, 25),
        ("extrap-json", "extrap-json/extrap_new_input1.json", extrap_json, 25),
        ("extrap-jsonl", "extrap-jsonl/extrap_matrix_4p.jsonl", extrap_jsonl, 20),
        ("extrap-jsonl", "extrap-jsonl/extrap_extended2.jsonl", extrap_jsonl, 45)):
    test(extrap_test(_fmt, _rel, _reader, _n, os.path.splitext(os.path.basename(_rel))[0]))
test(extrap_text_names_keep_hash_and_lose_indentation)  # reads what the loop stored
test(caliper_test("caliper-json/hatchet_caliper-region-node-order_2.10.json", "lulesh2.0",
                  "quartz", True))
test(caliper_test("caliper-json/hatchet_demo_out_5.json", "hatchet_demo_out_5", "unknown",
                  False))
# nodes name no column: column_metadata's is_value says which are references
test(caliper_test("caliper-json/hatchet_cpi-sample-callpathprofile.json",
                  "hatchet_cpi-sample-callpathprofile", "unknown", False,
                  path_col="source.function#callpath.address",
                  time_col="sum#time.duration", per_second=1e6))
for _rel in ("tau/amintos_mpi-factoring_ranks0-1", "tau/stc-hw3_multi_papi",
             "tau/tau2_opencl_fft"):
    test(tau_test(_rel))

report()
