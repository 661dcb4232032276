"""API tests of fits on a machine curve (docs/models.md §12) against the real
prophecyd: "basis" in POST /api/v1/fit and /api/v1/suggest, given inline or
read from a system's stored benchmarks (OSU's 0-byte row left out, "arg",
"at" and "stat" choosing the rows), in the inline and the database form; a
saved model predicts what the fresh one did; bad requests get a 4xx naming
the field and store nothing."""
import math
import urllib.parse

from prophecy_test import Server, report, run_doc, test

S = Server()
BOX = "curve box"
BOXP = "/api/v1/systems/" + urllib.parse.quote(BOX)
# A transfer time with a protocol step: 1 us flat to 1 KiB, 4 us at 4 KiB,
# then doubling with the size (exact powers of two: log-log interpolation
# between the points is exact at the midpoints used below).
CURVE = [(8, 1e-6), (64, 1e-6), (1024, 1e-6), (4096, 4e-6), (16384, 16e-6),
         (65536, 64e-6), (262144, 256e-6), (1048576, 1024e-6), (4194304, 4096e-6)]


def B(x):
    xs = [c[0] for c in CURVE]
    i = 0
    while i + 2 < len(CURVE) and x > xs[i + 1]:
        i += 1
    (x0, t0), (x1, t1) = CURVE[i], CURVE[i + 1]
    u = (math.log(x) - math.log(x0)) / (math.log(x1) - math.log(x0))
    return math.exp(math.log(t0) + u * (math.log(t1) - math.log(t0)))


C0, C1 = 2e-6, 3.0
XS = [64, 256, 1024, 4096, 16384]
DATA = [[x, (C0 + C1 * B(x)) * f] for x in XS for f in (0.99, 1.0, 1.01)]


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * abs(b)


def fit(body, **kw):
    return S.post("/api/v1/fit", body, token=kw.pop("token", False), **kw)


def err(st, b, status, field=None, text=None):
    assert st == status, (st, b)
    if field is not None:
        assert b["error"]["field"] == field, b
    if text is not None:
        assert text in b["error"]["message"], b


@test
def upload_benchmarks():
    st, b = S.request("PUT", BOXP, {"description": "a box with a machine curve"})
    assert st in (200, 201), b
    rows = [{"name": "MPISR", "args": {"L": 0}, "time": 9e-7, "stat": "min"}]  # OSU's 0 B
    rows += [{"name": "MPISR", "args": {"L": x}, "time": t * f, "stat": "min"}
             for x, t in CURVE for f in (1.0, 1.0, 1.25)]  # median of three: t
    rows += [{"name": "MPISR", "args": {"L": x}, "time": 2 * t, "stat": "median"}
             for x, t in CURVE]
    rows += [{"name": "MPIBC", "args": {"L": x, "P": P}, "time": P * t}
             for x, t in CURVE for P in (2, 4)]
    # as prophecy-bench uploads it: P = 2 on every row, nothing to fix
    rows += [{"name": "PB", "args": {"L": x, "P": 2}, "time": t, "stat": "min"}
             for x, t in CURVE]
    rows += [{"name": "TWO", "args": {"L": x}, "time": t, "stat": s}
             for x, t in CURVE[:3] for s in ("a", "b")]
    st, b = S.post(BOXP + "/benchmarks", {"benchmarks": rows})
    assert st == 201, b


@test
def stored_curve_fits_and_predicts_across_the_step():
    st, b = fit({"x": "L", "data": DATA, "graph": "auto",
                 "basis": {"benchmark": "MPISR", "system": BOX},
                 "predict": [16384, 1048576, 8388608]})
    assert st == 200, b
    m = b["model"]
    assert m["graph"] == "auto" and m["chosen"] == "basis", m
    # the 0-byte row is left out: 9 points from 8 B to 4 MiB
    assert m["basis"] == {"name": "MPISR", "points": 9, "from": 8, "to": 4194304,
                          "scale": 1, "power": 1}, m
    c0, c1 = m["coefficients"]
    assert close(c0, C0, 1e-6) and close(c1, C1, 1e-6), (c0, c1)
    assert m["formula"].startswith("y = 2e-06 + 3\u00b7MPISR(L)"), m["formula"]
    p16k, p1m, p8m = b["predictions"]
    assert p16k["extrapolation"] == 0 and "warning" not in p16k
    assert close(p1m["y"], C0 + C1 * 1024e-6, 1e-6), p1m
    assert p1m["extrapolation"] == 6 and p1m["lo"] < p1m["y"] < p1m["hi"]
    # 8 MiB: beyond the data and beyond the curve
    assert close(p8m["y"], C0 + C1 * 8192e-6, 1e-6), p8m
    assert "doublings beyond" in p8m["warning"], p8m


@test
def inline_curve_is_the_same_fit():
    st, a = fit({"x": "L", "data": DATA, "basis": {"benchmark": "MPISR", "system": BOX},
                 "graph": "linear", "predict": [1048576]})
    assert st == 200, a
    st, b = fit({"x": "L", "data": DATA, "graph": "linear", "predict": [1048576],
                 "basis": {"name": "MPISR", "data": [list(c) for c in CURVE]}})
    assert st == 200, b
    assert a["model"]["chosen"] == b["model"]["chosen"] == "basis"
    assert a["model"]["coefficients"] == b["model"]["coefficients"]
    assert a["predictions"] == b["predictions"]


@test
def stat_arg_and_at_choose_the_rows():
    base = {"x": "L", "data": DATA, "predict": [65536]}
    st, lo = fit(dict(base, basis={"benchmark": "MPISR", "system": BOX}))
    st2, hi = fit(dict(base, basis={"benchmark": "MPISR", "system": BOX, "stat": "median"}))
    assert st == st2 == 200, (lo, hi)
    # the median rows are twice the min rows: the slope halves, the law is the same
    assert close(hi["model"]["coefficients"][1] * 2, lo["model"]["coefficients"][1], 1e-9)
    assert close(hi["predictions"][0]["y"], lo["predictions"][0]["y"], 1e-9)
    st, b = fit(dict(base, basis={"benchmark": "MPIBC", "system": BOX, "arg": "L",
                                  "at": {"P": 4}}))
    assert st == 200, b
    assert close(b["model"]["coefficients"][1] * 4, C1, 1e-6), b["model"]
    st, b = fit(dict(base, basis={"benchmark": "PB", "system": BOX}))
    assert st == 200 and b["predictions"] == lo["predictions"], b
    st, b = fit(dict(base, basis={"benchmark": "MPIBC", "system": BOX}))
    err(st, b, 422, "basis.arg", "varies over 2 arguments")
    st, b = fit(dict(base, basis={"benchmark": "MPIBC", "system": BOX, "arg": "L"}))
    err(st, b, 422, "basis.at", "also varies over P")
    st, b = fit(dict(base, basis={"benchmark": "MPIBC", "system": BOX, "arg": "L",
                                  "at": {"P": 3}}))
    err(st, b, 422, "basis", "no MPIBC benchmark")
    st, b = fit(dict(base, basis={"benchmark": "TWO", "system": BOX}))
    err(st, b, 422, "basis.stat", "several stat labels")


@test
def database_form_takes_the_request_system():
    runs = [run_doc(application="halo", executable="halo1", system=BOX, nprocs=2,
                    inputs={"L": x}, runtime=y, kernels=[], metrics={})
            for x, y in DATA]
    st, b = S.post("/api/v1/runs", {"runs": runs})
    assert st == 201, b
    st, b = fit({"application": "halo", "system": BOX, "x": "L", "fixed": {"nprocs": 2},
                 "basis": {"benchmark": "MPISR"}, "predict": [1048576]})
    assert st == 200, b
    st, inl = fit({"x": "L", "data": DATA, "basis": {"benchmark": "MPISR", "system": BOX},
                   "predict": [1048576]})
    assert st == 200, inl
    assert b["model"]["chosen"] == "basis"
    assert close(b["predictions"][0]["y"], inl["predictions"][0]["y"], 1e-9)


@test
def saved_model_predicts_what_the_fresh_one_did():
    body = {"x": "L", "data": DATA, "basis": {"benchmark": "MPISR", "system": BOX},
            "predict": [100, 65536, 8388608]}
    st, fresh = fit(body)
    assert st == 200, fresh
    st, saved = fit(dict(body, save=True), token=True)
    assert st == 201, saved
    for want in fresh["predictions"]:
        st, got = S.get(f"/api/v1/models/{saved['id']}/predict?L={want['x']:.17g}")
        assert st == 200, got
        for k in ("y", "lo", "hi", "extrapolation", "interval"):
            assert got[k] == want[k], (k, got, want)
        assert got.get("warning") == want.get("warning")
    st, got = S.get(f"/api/v1/models/{saved['id']}/predict?L=0")
    err(st, got, 422, None, "follows the machine curve MPISR")
    # the saved model's plot draws the law along the curve
    st, m = S.get(f"/api/v1/models/{saved['id']}")
    assert st == 200 and m["result"]["model"]["state"]["basis"]["name"] == "MPISR", m


@test
def suggest_on_a_curve():
    st, b = S.post("/api/v1/suggest", {"x": "L", "data": DATA, "target": 1048576,
                                       "candidates": [32768, 262144],
                                       "basis": {"benchmark": "MPISR", "system": BOX}},
                   token=False)
    assert st == 200, b
    assert [s["x"] for s in b["suggestions"]] == [262144, 32768], b
    assert b["model"]["chosen"] == "basis" and "MPISR(L)" in b["model"]["formula"]


@test
def scale_and_power_read_the_curve_at_the_working_set():
    # A 2-D grid of side n, 16 bytes per cell: the curve is read at 16*n^2
    # bytes. On the points n = 2, 4, ... the arguments 64 ... 4194304 are the
    # curve's own, so the law is exact there and predictions are C0 + C1*B.
    ns = [2, 4, 8, 16, 32]
    data = [[n, (C0 + C1 * B(16 * n * n)) * f] for n in ns for f in (0.99, 1.0, 1.01)]
    for basis in ({"benchmark": "MPISR", "system": BOX, "scale": 16, "power": 2},
                  {"name": "MPISR", "data": CURVE, "scale": 16, "power": 2}):
        st, b = fit({"x": "n", "data": data, "basis": basis, "predict": [64, 256, 1024]})
        assert st == 200, b
        m = b["model"]
        assert m["chosen"] == "basis" and "MPISR(16*n^2)" in m["formula"], m
        assert m["basis"] == {"name": "MPISR", "points": 9, "from": 8, "to": 4194304,
                              "scale": 16, "power": 2}, m
        assert close(m["coefficients"][0], C0, 1e-6) and close(m["coefficients"][1], C1, 1e-9)
        p = b["predictions"]
        assert close(p[0]["y"], C0 + C1 * B(65536), 1e-6), p  # 16*64^2 = 64 KiB
        assert p[0]["extrapolation"] == 1 and "warning" not in p[0], p
        # 16*1024^2 = 16 MiB is past the curve's 4 MiB: along its last segment
        assert close(p[2]["y"], C0 + C1 * 4096e-6 * 4, 1e-6), p
    # a curve that ends at 64 KiB: n = 128 reads it at 256 KiB, beyond its
    # end but 2 doublings from the data, and the warning says where
    st, b = fit({"x": "n", "data": data, "predict": [128],
                 "basis": {"name": "MPISR", "data": CURVE[:6], "scale": 16, "power": 2}})
    assert st == 200, b
    p = b["predictions"][0]
    assert close(p["y"], C0 + C1 * 256e-6, 1e-6), p
    assert p["warning"] == ("x = 128 reads the machine curve MPISR at 262144, outside its "
                            "measured 8 to 65536; the curve is continued along its end "
                            "segment there."), p
    # read at n itself the curve is flat over n = 2...32: no law on it
    st, plain = fit({"x": "n", "data": data, "basis": {"name": "MPISR", "data": CURVE}})
    err(st, plain, 422, "data", "constant over the data")
    # a saved model keeps scale and power and predicts what the fresh one did
    body = {"x": "n", "data": data, "predict": [100],
            "basis": {"name": "MPISR", "data": CURVE, "scale": 16, "power": 2}}
    st, fresh = fit(body)
    st, saved = fit(dict(body, save=True), token=True)
    assert st == 201, saved
    st, got = S.get(f"/api/v1/models/{saved['id']}/predict?n=100")
    assert st == 200 and got["y"] == fresh["predictions"][0]["y"], (got, fresh)
    assert got["lo"] == fresh["predictions"][0]["lo"], (got, fresh)
    st, sm = S.get(f"/api/v1/models/{saved['id']}")
    state = sm["result"]["model"]["state"]["basis"]
    assert state["scale"] == 16 and state["power"] == 2, state


@test
def series_of_one_name_are_chosen_not_pooled():
    """A benchmark name with several series on a system (a label, a test:
    OSU's osu_latency and osu_multi_lat are both MPISR) is several curves:
    the request names one ("label", "test"); one series needs nothing."""
    rows = [{"name": "LAT", "args": {"L": x}, "time": t * k, "test": test,
             "label": label}
            for x, t in CURVE for k, test, label in ((1, "osu_latency", ""),
                                                      (2, "osu_multi_lat", ""),
                                                      (4, "osu_latency", "far"))]
    rows += [{"name": "ONE", "args": {"L": x}, "time": t, "test": "osu_latency",
              "label": "near"} for x, t in CURVE]
    st, b = S.post(BOXP + "/benchmarks", {"benchmarks": rows})
    assert st == 201, b
    base = {"x": "L", "data": DATA, "predict": [65536]}

    def basis(**kw):
        return dict(base, basis=dict({"benchmark": "LAT", "system": BOX}, **kw))

    st, b = fit(basis())
    err(st, b, 422, "basis.label")
    assert b["error"]["message"] == ('benchmark LAT of system curve box has 3 series; '
                                     'name one with "label": "", "far"'), b
    # "" is the series without a label; two tests have one
    st, b = fit(basis(label=""))
    err(st, b, 422, "basis.test")
    assert b["error"]["message"] == ('benchmark LAT of system curve box has 2 series; '
                                     'name one with "test": "osu_latency", '
                                     '"osu_multi_lat"'), b
    for kw, k in (({"label": "", "test": "osu_latency"}, 1),
                  ({"label": "", "test": "osu_multi_lat"}, 2), ({"label": "far"}, 4)):
        st, b = fit(basis(**kw))
        assert st == 200, (kw, b)
        # the data are C0 + C1*B: on a curve k times B the slope is C1/k
        assert close(b["model"]["coefficients"][1] * k, C1, 1e-6), (kw, b["model"])
        assert close(b["predictions"][0]["y"], C0 + C1 * B(65536), 1e-6), b
        want = {"name": "LAT", "points": 9, "from": 8, "to": 4194304, "scale": 1,
                "power": 1, "test": kw.get("test", "osu_latency")}
        if kw["label"]:
            want["label"] = kw["label"]
        assert b["model"]["basis"] == want, (kw, b["model"]["basis"])
    st, b = fit(basis(label="far", test="osu_multi_lat"))
    err(st, b, 422, "basis", 'no series of test "osu_multi_lat" labelled "far"')
    # one series: nothing to name, and the answer says which it is
    st, b = fit(dict(base, basis={"benchmark": "ONE", "system": BOX}))
    assert st == 200 and b["model"]["basis"]["label"] == "near", b


@test
def bad_requests_name_the_field():
    base = {"x": "L", "data": DATA}
    cases = [
        ({"basis": "MPISR"}, 422, "basis", None),
        ({"basis": {"benchmark": "MPISR"}}, 422, "basis.system", "name the system"),
        ({"basis": {"benchmark": "MPISR", "system": "no such box"}}, 404, "basis.system",
         "not found"),
        ({"basis": {"benchmark": "NOPE", "system": BOX}}, 422, "basis.benchmark",
         "no benchmark named NOPE"),
        ({"basis": {"benchmark": "9x", "system": BOX}}, 422, "basis.benchmark", None),
        ({"basis": {"benchmark": "MPISR", "system": BOX, "extra": 1}}, 422, None, "extra"),
        ({"basis": {"benchmark": "MPISR", "system": BOX, "at": {"P": "two"}}}, 422,
         "basis.at", None),
        ({"basis": {"name": "C", "data": [[1, 1e-6], [0, 2e-6]]}}, 422, "basis",
         "measurement 1"),
        ({"basis": {"name": "C", "data": [[1, 1e-6], [2]]}}, 422, "basis.data[1]", None),
        ({"basis": {"name": "C", "data": [[1, 1e-6]]}}, 422, "basis", "at least 2"),
        ({"basis": {"name": "C", "data": [[i + 1, 1e-6] for i in range(65)]}}, 422, "basis",
         "more than 64 distinct"),
        ({"basis": {"name": "C", "data": [[1, 1e-6]] * 100001}}, 413, "basis.data", None),
        ({"basis": {"benchmark": "MPISR", "system": BOX}, "graph": "cubic"}, 422, "graph",
         "linear in it"),
        ({"basis": {"benchmark": "MPISR", "system": BOX}, "data": DATA[:9]}, 422, "data",
         "at least 4 distinct x"),
        ({"basis": {"benchmark": "MPISR", "system": BOX},
          "data": [[x, 1 / x] for x in XS]}, 422, "data", "do not grow"),
        ({"basis": {"benchmark": "MPISR", "system": BOX, "scale": 0}}, 422, "basis.scale",
         "scale must be a number > 0"),
        ({"basis": {"name": "C", "data": CURVE, "scale": 1e16}}, 422, "basis.scale", None),
        ({"basis": {"name": "C", "data": CURVE, "scale": "24"}}, 422, "basis.scale", None),
        ({"basis": {"benchmark": "MPISR", "system": BOX, "power": 5}}, 422, "basis.power",
         "power must be a number > 0 and <= 4"),
        ({"basis": {"name": "C", "data": CURVE, "power": -1}}, 422, "basis.power", None),
        # read at 1e15 * x^4 with x up to 1e300, the curve overflows
        ({"basis": {"name": "C", "data": CURVE, "scale": 1e15, "power": 4},
          "data": [[1e290, 1], [1e295, 2], [1e298, 3], [1e300, 4]]}, 422, "data",
         "over- or underflows a double"),
        ({"basis": {"benchmark": "MPISR", "system": BOX}, "vars": ["L", "P"], "x": None,
          "data": [[x, p, 1.0] for x in XS for p in (1, 2)]}, 422, None, None),
    ]
    st, before = S.get("/api/v1/models")
    for over, status, field, text in cases:
        body = dict(base, **over)
        body = {k: v for k, v in body.items() if v is not None}
        st, b = fit(body)
        err(st, b, status, field, text)
    # nothing was stored by any of them
    st, after = S.get("/api/v1/models")
    assert after == before


report()
