"""The database form of POST /api/v1/fit reads its selection as aggregates
per configuration (db_fit_sums, db_fit_spread, db_fit_nth): no run crosses
into C. Its answers must be those of the per-run reference: the inline form
given every selected run as one [x, y] row, which fit_run aggregates itself.

The data has repetitions, runs of two executables at one x (two
configurations make one point), runs without the metric or the kernel fitted,
runs with two records of one kernel, and a run a fixed input excludes. Its
values are chosen so that every sum, mean, median and square is exact in
binary floating point, so the two paths must agree to the last bit whatever
order each adds in: the comparison is exact equality."""
from prophecy_test import Server, report, run_doc, test

S = Server()
APP, SYS = "aggregates", "node-s"

# (executable, nprocs, N, runtime, flops or None, kernel "k" records or None)
ROWS = []
# The nprocs series at N = 64: p = 4 and p = 8 have runs of both executables.
for exe, p, ts in (("a.x", 1, [8.0, 8.0]), ("a.x", 2, [4.0, 4.0, 8.0, 2.0]),
                   ("a.x", 4, [2.0, 4.0]), ("a.x", 8, [2.0]), ("a.x", 16, [0.5]),
                   ("b.x", 4, [1.0, 2.0]), ("b.x", 8, [0.5, 0.5])):
    for i, t in enumerate(ts):
        ROWS.append((exe, p, 64, t, 4.0 * t, [t / 2] if i % 2 == 0 else [t / 4, t / 4]))
# The N series at nprocs = 4 (executable a.x), with N = 64 from above.
ROWS += [("a.x", 4, 16, 0.25, 1.0, [0.125]), ("a.x", 4, 16, 0.75, None, [0.25, 0.125]),
         ("a.x", 4, 32, 0.5, 2.0, [0.25]), ("a.x", 4, 32, 1.0, 4.0, [0.5]),
         ("a.x", 4, 32, 1.5, 6.0, [0.75]),
         ("a.x", 4, 128, 8.0, 32.0, [4.0, 4.0]), ("a.x", 4, 128, 8.0, 32.0, [4.0]),
         ("a.x", 4, 128, 12.0, 32.0, None), ("a.x", 4, 128, 12.0, None, [12.0])]


def doc(r, L=3):
    exe, p, n, t, flops, ks = r
    return run_doc(application=APP, executable=exe, system=SYS, nprocs=p,
                   inputs={"N": n, "L": L}, runtime=t,
                   kernels=[{"name": "k", "time": k} for k in (ks or [])] +
                   [{"name": "other", "time": 0.0625}],
                   metrics={} if flops is None else {"flops": flops})


# One run that only a fixed L excludes.
st, body = S.post("/api/v1/runs", {"runs": [doc(r) for r in ROWS] +
                                   [doc(("a.x", 2, 64, 3.0, None, None), L=5)]})
assert st == 201, body


def y_of(r, y):
    exe, p, n, t, flops, ks = r
    if y == "metric:flops":
        return flops
    if y == "kernel:k":
        return None if ks is None else sum(ks)
    return t


def reference(sel, x, y, extra):
    """The per-run reference: the selected runs in id order as inline rows."""
    names = x if isinstance(x, list) else [x]
    rows = []
    for r in ROWS:
        exe, p, n, t, flops, ks = r
        vals = {"nprocs": p, "N": n}
        if sel.get("executable") not in (None, exe):
            continue
        if any(vals[k] != v for k, v in sel.get("fixed", {}).items() if k != "L"):
            continue
        v = y_of(r, y)
        lo, hi = extra.get("range", [float("-inf"), float("inf")])
        if v is not None and lo <= vals[names[0]] <= hi:
            rows.append([vals[k] for k in names] + [v])
    if y in ("speedup", "efficiency"):
        pmin = min(row[0] for row in rows)
        ref = [row[1] for row in rows if row[0] == pmin]
        tref = sum(ref) / len(ref)
        rows = [[row[0], pmin * tref / row[1] / (row[0] if y == "efficiency" else 1.0)]
                for row in rows]
    body = dict(extra, data=rows)
    body.pop("range", None)
    body["vars" if isinstance(x, list) else "x"] = x
    return rows, S.post("/api/v1/fit", body, token=False)


def compare(sel, x, y, extra):
    fixed = dict(sel.get("fixed", {}), L=3)
    body = dict(sel, application=APP, system=SYS, x=x, y=y, fixed=fixed, **extra)
    st, got = S.post("/api/v1/fit", body, token=False)
    rows, (rst, want) = reference(sel, x, y, extra)
    assert rows, "the case selects no runs"
    assert st == rst, (body, st, got, rst, want)
    if st != 200:
        assert got["error"] == want["error"], (got, want)
        return got
    for k in ("model", "points", "predictions", "vars", "aggregate"):
        assert got[k] == want[k], (body, k, got[k], want[k])
    assert got["selection"]["runs"] == len(rows), (got["selection"], len(rows))
    return got


CASES = [
    ({"fixed": {"N": 64}}, "nprocs", "runtime", {"graph": "inv1", "predict": [32]}),
    ({"executable": "a.x", "fixed": {"nprocs": 4}}, "N", "runtime",
     {"graph": "linear", "predict": [256]}),
    ({"executable": "a.x", "fixed": {"nprocs": 4}}, "N", "metric:flops",
     {"graph": "linear", "predict": [256]}),
    ({"executable": "a.x", "fixed": {"nprocs": 4}}, "N", "kernel:k",
     {"graph": "quadratic", "predict": [256]}),
    ({"fixed": {"N": 64}}, "nprocs", "speedup", {"graph": "linear", "predict": [32]}),
    ({"fixed": {"N": 64}}, "nprocs", "efficiency", {"graph": "linear", "predict": [32]}),
    ({"fixed": {"N": 64}}, "nprocs", "kernel:k", {"graph": "unknown"}),
    ({"executable": "a.x"}, ["nprocs", "N"], "runtime",
     {"graph": "auto", "predict": [[32, 64]]}),
]


@test
def streamed_points_equal_the_per_run_reference_exactly():
    seen = 0
    for sel, x, y, extra in CASES:
        for agg in ("mean", "median", "min"):
            got = compare(sel, x, y, dict(extra, aggregate=agg))
            seen += "points" in got
    assert seen >= 20, seen


@test
def two_configurations_at_one_x_make_one_point():
    got = compare({"fixed": {"N": 64}}, "nprocs", "runtime",
                  {"graph": "inv1", "aggregate": "mean"})
    p4 = [p for p in got["points"] if p["x"] == 4][0]
    assert p4 == dict(p4, y=2.25, ymin=1.0, ymax=4.0, n=4), p4
    p8 = [p for p in got["points"] if p["x"] == 8][0]
    assert p8 == dict(p8, y=1.0, ymin=0.5, ymax=2.0, n=3), p8
    assert got["selection"]["runs"] == 14 and got["model"]["observations"] == 14


@test
def the_excluded_input_is_still_checked():
    # Without fixing L the selection mixes L = 3 and L = 5: refused as before.
    st, body = S.post("/api/v1/fit", {"application": APP, "system": SYS, "x": "nprocs",
                                      "fixed": {"N": 64}, "graph": "inv1"}, token=False)
    assert st == 422 and "differ in L" in body["error"]["message"], body
    # A range over x narrows the configurations like the runs.
    got = compare({"fixed": {"N": 64}}, "nprocs", "runtime",
                  {"graph": "linear", "range": [2, 8]})
    assert [p["x"] for p in got["points"]] == [2, 4, 8]


report()
