"""Import trial C2 (SPEC §16): other real Extra-P input files, from Extra-P's own
test data, that are neither in the shared corpus nor in trials A and B
(tests/data/import/public/extrap-*/, SOURCES.md's "import trial C2" says where
each comes from and what is special in it), each imported through the real
server.

Each file is read here by this test's own small readers, which follow
Extra-P's readers (extrap/fileio/file_reader/text_file_reader.py and
jsonlines_file_reader.py), never Prophecy's code: every value of a (region,
metric) at a point is the kernel value of one run at that point, the n-th
value in the n-th run of the point (runs in the order the import answers
them), a region with fewer values is absent from the later runs, `p` is the
run's nprocs and the other parameters its inputs, the run time is the sum of
the (flat) regions' times, and a file without a time metric stores runs
without a run time whose metrics are the regions' values. The same file
again, named or recognised (format=auto), stores nothing new."""
import json
import os
import re

from prophecy_test import Server, report, same16, test

SRC = os.environ.get("PROPHECY_SRC", os.path.join(os.path.dirname(__file__), "../.."))
DATA = os.path.join(SRC, "tests/data/import/public")
S = Server()
PROCS = {"p", "np", "nprocs", "procs", "ranks", "processes"}
TIME = ("time", "runtime")


def body(rel):
    with open(os.path.join(DATA, rel), "rb") as f:
        return f.read()


# ---- Extra-P's readers, as this test understands them ----------------------

def text_cells(rel):
    """(parameters, points in file order, {(region, metric): [[values] per
    point index]}) of an Extra-P text file: whitespace runs are one blank,
    REGION and METRIC restart the DATA lines at the first point, a file
    without METRIC measures "time" (Prophecy's reading of Extra-P's unnamed
    metric, docs/import.md)."""
    params, points, cells = [], [], {}
    region, metric, at = None, "time", 0
    for raw in body(rel).decode().splitlines():
        line = re.sub(r"\s+", " ", raw).strip()
        if not line or raw.startswith("#"):
            continue
        field, _, value = line.partition(" ")
        if field == "PARAMETER":
            params.extend(value.split(" "))
        elif field == "POINTS":
            groups = re.findall(r"\(([^()]*)\)", value) if "(" in value else value.split()
            points.extend(tuple(float(c) for c in g.split()) for g in groups)
        elif field in ("REGION", "METRIC"):
            if field == "REGION":
                region = value
            else:
                metric = value
            at = 0
        elif field == "DATA":
            per_point = cells.setdefault((region, metric), [None] * len(points))
            per_point[at] = [float(v) for v in value.split(" ")]
            at += 1
        else:
            raise ValueError(f"{rel}: unknown line {raw!r}")
    return params, points, cells


def jsonl_cells(rel):
    """The same of an Extra-P JSON-lines file: the first line's "params" fix
    the parameters' order; repetitions follow the lines' order."""
    params, points, cells = None, [], {}
    for raw in body(rel).decode().splitlines():
        if not raw.strip():
            continue
        d = json.loads(raw)
        params = params or list(d["params"])
        pt = tuple(float(d["params"][p]) for p in params)
        if pt not in points:
            points.append(pt)
        key = (d.get("callpath", "<root>"), d.get("metric", "time"))
        per_point = cells.setdefault(key, [])
        per_point.extend([None] * (len(points) - len(per_point)))
        vals = d["value"] if isinstance(d["value"], list) else [d["value"]]
        per_point[points.index(pt)] = (per_point[points.index(pt)] or []) + [
            float(v) for v in vals]
    return params, points, cells


# ---- what is stored -----------------------------------------------------------

def point_of(run, params):
    named = {p for p in params if p.lower() in PROCS}
    assert set(run["inputs"]) == set(params) - named, (run["inputs"], params)
    if not named:
        assert run["nprocs"] == 1, run["nprocs"]
    return tuple(float(run["nprocs"]) if p in named else run["inputs"][p] for p in params)


def check(runs, params, points, cells):
    tm = next((m for m in TIME if any(k[1] == m for k in cells)), None)
    by_point = {}
    for r in runs:  # in the import's answer order: repetition 1, 2, ...
        by_point.setdefault(point_of(r, params), []).append(r)
    assert set(by_point) == set(points), (sorted(by_point), points)
    for i, pt in enumerate(points):
        reps = by_point[pt]
        assert len(reps) == max(len(v[i] or []) for v in cells.values()), (pt, len(reps))
        for rep, r in enumerate(reps):
            want_rt, names = 0.0, set()
            for (region, metric), per_point in cells.items():
                vals = per_point[i] or []
                k = next((k for k in r["kernels"] if k["name"] == region), None)
                if rep >= len(vals):  # this region measured fewer repetitions
                    assert k is None or metric not in (k.get("metrics") or {}), (pt, rep, k)
                    continue
                names.add(region)
                assert k is not None, (pt, rep, region, r["kernels"])
                assert k["calls"] is None, k  # Extra-P counts no calls
                if metric == tm:
                    assert same16(vals[rep], k["time"]), (pt, rep, region, k)
                    want_rt += vals[rep]
                else:
                    assert same16(vals[rep], k["metrics"][metric]), (pt, rep, k)
                    if tm is None:
                        assert k["time"] is None, k
            assert {k["name"] for k in r["kernels"]} == names, (pt, rep, r["kernels"])
            if tm is None:  # no time: no run time, each metric summed over regions
                assert r["runtime"] is None, r
                for metric in {m for _, m in cells}:
                    want = sum(v[i][rep] for (_, m), v in cells.items()
                               if m == metric and v[i] and rep < len(v[i]))
                    assert abs(r["metrics"][metric] - want) <= 1e-12 * max(1, abs(want))
            else:
                assert abs(r["runtime"] - want_rt) <= 1e-12 * max(1, want_rt), (r, want_rt)
    return sum(len(v) for v in by_point.values())


def imported(fmt, rel, nruns, cut=False):
    name = os.path.basename(rel)
    data = body(rel)
    st, ans = S.import_data(data, format=fmt, filename=name)
    assert st == 201, (rel, st, ans)
    assert ans["format"] == fmt and ans["runs"] == ans["created"] == nruns, ans
    before = S.content()
    for q in ({"format": fmt, "filename": name}, {"filename": name}):
        st, again = S.import_data(data, **q)
        assert st == 200 and again["format"] == fmt and again["created"] == 0, (q, again)
    if cut:  # cut in the middle of a line two thirds in: refused by name
        mid = data.rfind(b"\n", 0, len(data) * 2 // 3) + 1
        st, bad = S.import_data(data[:mid + (data.find(b"\n", mid) - mid) // 2], format=fmt,
                       filename=name)
        assert st == 422 and name in bad["error"]["message"], (st, bad)
    assert S.content() == before
    runs = []
    for i in ans["ids"]:
        st, r = S.get(f"/api/v1/runs/{i}")
        assert st == 200, r
        runs.append(r)
    app = os.path.splitext(name)[0]
    assert {r["application"] for r in runs} == {app}, runs[0]["application"]
    return runs


def extrap_case(fmt, rel, reader, nruns, cut=False):
    def run():
        runs = imported(fmt, rel, nruns, cut)
        assert check(runs, *reader(rel)) == nruns
    run.__name__ = "extrap__" + re.sub(r"\W", "_", os.path.basename(rel))
    return run


for _fmt, _rel, _reader, _n, _cut in (
        # tab-separated DATA, "# formula" comments inside REGION blocks, no
        # METRIC, p (nprocs) and s, three flat regions, no final newline
        ("extrap-text", "extrap-text/extrap_two_parameter_7.txt", text_cells, 25, False),
        # four parameters, one point per POINTS line, METRIC before REGION
        ("extrap-text", "extrap-text/extrap_gpr_4_param_base.txt", text_cells, 26, False),
        # p up to 16000; repetitions 5, 4 and 3 in one file; values up to 2.56e8;
        # "REGION met1 " with a trailing blank; blank lines at the end
        ("extrap-text", "extrap-text/extrap_strong_scaling_one_parameter_6.txt",
         text_cells, 25, False),
        # three parameters, blank lines between blocks, a value 0.0, no
        # callpath, metric metr only (no time), a sparse point set
        ("extrap-jsonl", "extrap-jsonl/extrap_matrix_3p_bands_incomplete.jsonl",
         jsonl_cells, 18, True)):
    test(extrap_case(_fmt, _rel, _reader, _n, _cut))


@test
def extrap_json_reads_json_lines_as_extrap_does():
    """Extra-P's JSON reader (extrap --json) falls back to JSON Lines: the
    file given as extrap-json stores the runs extrap-jsonl and auto store
    (one run per line at each point: 5 points x 5), and nothing twice."""
    rel = "extrap-jsonl/extrap_json_test_input.jsonl"
    name, data = os.path.basename(rel), body(rel)
    st, ans = S.import_data(data, format="extrap-json", filename=name)
    assert st == 201 and ans["created"] == 25, (st, ans)
    before = S.content()
    for q in ({"format": "extrap-jsonl"}, {}):
        st, again = S.import_data(data, filename=name, **q)
        assert st == 200 and again["created"] == 0, (q, again)
    assert S.content() == before
    runs = []
    for i in ans["ids"]:
        runs.append(S.get(f"/api/v1/runs/{i}")[1])
    assert check(runs, *jsonl_cells(rel)) == 25


@test
def broken_extrap_texts_are_refused_by_line():
    """Extra-P's own negative inputs: POINTS without any PARAMETER, four
    parameters with bare (one-number) points, a region with 24 DATA lines
    for 25 points. Each is refused with its name and line; nothing is
    stored."""
    before = S.content()
    for name, where in (("extrap_experiment_neg.txt", ":1: POINTS before any PARAMETER"),
                        ("extrap_experiment3_neg.txt",
                         ":5: with 4 parameters each point needs parentheses"),
                        ("extrap_experiment_MP_neg1.txt", ":32: 24 DATA lines for 25 points")):
        st, bad = S.import_data(body("extrap-text/" + name), format="extrap-text", filename=name)
        assert st == 422 and bad["error"]["message"] == name + where, (name, st, bad)
        assert bad["error"]["field"] == name + where.split(" ")[0].rstrip(":"), bad
    assert S.content() == before


report()
