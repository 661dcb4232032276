"""API tests of curve fitting over stored runs (the database form of
POST /api/v1/fit), saved models, predictions (GET /api/v1/models/{id}/predict,
GET /api/v1/predict) and plots at stable URLs, against the real prophecyd.
Runs are uploaded with known values so the expected numbers are computed here
independently."""
import urllib.parse
import xml.etree.ElementTree as ET

from prophecy_test import Server, report, run_doc, test

S = Server()
APP, SYS, EXE = "stencil", "cluster-a", "stencil.x"


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(1.0, abs(b))


def law(n):
    return 0.5 + 2e-3 * n + 4e-6 * n * n


def speed(p):
    return 40.0 / p + 0.25 * p


RUNS = []
# N series at nprocs = 4: two repetitions at +-1 %, so the mean is the law.
for n in (100, 200, 300, 400, 500, 600):
    for f in (0.99, 1.01):
        RUNS.append(run_doc(application=APP, executable=EXE, system=SYS, nprocs=4,
                            inputs={"N": n}, runtime=law(n) * f,
                            kernels=[{"name": "solve", "time": 0.6 * law(n) * f},
                                     {"name": "halo", "time": 0.1 * law(n) * f}],
                            metrics={"gflops": n / 100.0}))
# P series at N = 1000, without P = 4 (the N series above is at P = 4), and one
# run at N = 300, P = 8 that a fixed N must exclude.
for p in (2, 8, 16, 32, 64):
    RUNS.append(run_doc(application=APP, executable=EXE, system=SYS, nprocs=p,
                        inputs={"N": 1000}, runtime=speed(p), kernels=[], metrics={}))
RUNS.append(run_doc(application=APP, executable=EXE, system=SYS, nprocs=8,
                    inputs={"N": 300}, runtime=99.0, kernels=[], metrics={}))
st, body = S.post("/api/v1/runs", {"runs": RUNS})
assert st == 201, body

BASE = {"application": APP, "system": SYS, "executable": EXE}


def fit(extra, **kw):
    return S.post("/api/v1/fit", dict(BASE, **extra), token=kw.pop("token", False), **kw)


@test
def database_form_fits_the_selected_runs():
    st, body = fit({"x": "N", "fixed": {"nprocs": 4}, "graph": "quadratic",
                    "predict": [1000]})
    assert st == 200, body
    c = body["model"]["coefficients"]
    for got, want in zip(c, [0.5, 2e-3, 4e-6]):
        assert close(got, want, 1e-9), c
    assert body["selection"]["runs"] == 12 and body["selection"]["fixed"] == {"nprocs": 4}
    assert [p["x"] for p in body["points"]] == [100, 200, 300, 400, 500, 600]
    assert all(p["n"] == 2 for p in body["points"])
    assert close(body["predictions"][0]["y"], law(1000), 1e-9)
    assert body["vars"] == ["N"] and body["y"] == "runtime"


@test
def range_restricts_x():
    st, body = fit({"x": "N", "fixed": {"nprocs": 4}, "range": [200, 500], "graph": "linear"})
    assert st == 200, body
    assert [p["x"] for p in body["points"]] == [200, 300, 400, 500]
    assert body["selection"]["runs"] == 8


@test
def kernel_and_metric_as_y():
    st, body = fit({"x": "N", "fixed": {"nprocs": 4}, "y": "kernel:solve",
                    "graph": "quadratic"})
    assert st == 200, body
    for got, want in zip(body["model"]["coefficients"], [0.3, 1.2e-3, 2.4e-6]):
        assert close(got, want, 1e-9), body["model"]
    st, body = fit({"x": "N", "fixed": {"nprocs": 4}, "y": "metric:gflops",
                    "graph": "linear"})
    assert st == 200, body
    assert close(body["model"]["coefficients"][1], 0.01, 1e-9)
    assert abs(body["model"]["coefficients"][0]) < 1e-12


@test
def speedup_and_efficiency_over_nprocs():
    st, body = fit({"x": "nprocs", "fixed": {"N": 1000}, "y": "speedup", "graph": "linear"})
    assert st == 200, body
    ps = [2, 8, 16, 32, 64]
    assert [p["x"] for p in body["points"]] == ps
    for pt, p in zip(body["points"], ps):
        assert close(pt["y"], 2 * speed(2) / speed(p), 1e-12), (pt, p)
    st, body = fit({"x": "nprocs", "fixed": {"N": 1000}, "y": "efficiency", "graph": "linear"})
    assert st == 200, body
    for pt, p in zip(body["points"], ps):
        assert close(pt["y"], 2 * speed(2) / speed(p) / p, 1e-12), (pt, p)


@test
def selection_errors_are_clear():
    cases = [
        ({"x": "N"}, 422, "differ in nprocs"),
        ({"x": "nprocs", "graph": "linear"}, 422, "differ in N"),
        ({"x": "N", "fixed": {"nprocs": 128}}, 422, "no runs"),
        ({"x": "N", "fixed": {"nprocs": 4}, "y": "speedup"}, 422, "x = \"nprocs\""),
        ({"x": "N", "fixed": {"nprocs": 4}, "y": "wallclock"}, 422, "y must be"),
        ({"x": "N", "fixed": {"N": 4}}, 422, "cannot be fixed"),
        ({"x": "N", "fixed": {"nprocs": "4"}}, 422, "finite number"),
        ({"x": "N", "fixed": {"nprocs": 4}, "range": [500, 100]}, 422, "min <= max"),
        ({"x": "N", "fixed": {"nprocs": 4}, "runtme": 1}, 422, "unknown field runtme"),
        ({"x": "N", "fixed": {"nprocs": 4}, "y": "kernel:nope"}, 422, "no runs"),
    ]
    for extra, status, text in cases:
        st, body = fit(extra)
        assert st == status and text in body["error"]["message"], (extra, st, body)
    st, body = S.post("/api/v1/fit", {"application": "nope", "system": SYS, "x": "N"},
                      token=False)
    assert st == 404 and "application nope" in body["error"]["message"], body
    st, body = S.post("/api/v1/fit", {"application": APP, "system": "nope", "x": "N"},
                      token=False)
    assert st == 404 and "system nope" in body["error"]["message"], body
    st, body = S.post("/api/v1/fit", {"application": APP, "x": "N"}, token=False)
    assert st == 422 and body["error"]["field"] == "system", body


@test
def saving_needs_a_token_and_stores_nothing_without_one():
    before = S.content()
    st, body = fit({"x": "N", "fixed": {"nprocs": 4}, "graph": "quadratic", "save": True})
    assert st == 401, body
    st, body = fit({"x": "N", "fixed": {"nprocs": 4}, "save": "yes"}, token=True)
    assert st == 422 and body["error"]["field"] == "save", body
    st, body = fit({"x": "N", "fixed": {"nprocs": 4}, "graph": "poly9", "save": True},
                   token=True)
    assert st == 422, body
    assert S.content() == before


@test
def saved_model_predicts_what_the_fit_predicted():
    st, body = fit({"x": "N", "fixed": {"nprocs": 4}, "graph": "quadratic",
                    "predict": [1000, 1500], "save": True}, token=True)
    assert st == 201, body
    mid = body["id"]
    assert body["plot"] == f"/plots/model-{mid}.svg" and body["url"] == f"/models/{mid}"
    for want in body["predictions"]:
        st, p = S.get(f"/api/v1/models/{mid}/predict?N={int(want['x'])}&nprocs=4")
        assert st == 200, p
        # the stored state round-trips bit-exactly; 16 digits are printed
        assert close(p["y"], want["y"], 1e-15) and close(p["lo"], want["lo"], 1e-15), (p, want)
        assert close(p["hi"], want["hi"], 1e-15) and p["model"] == mid and p["method"] == "fit"
        assert p["x"] == {"N": want["x"]}
    st, got = S.get(f"/api/v1/models/{mid}")
    assert st == 200 and got["method"] == "fit" and got["application"] == APP, got
    assert got["request"]["graph"] == "quadratic" and "save" not in got["request"]
    assert got["formula"] == body["model"]["formula"]
    st, lst = S.get("/api/v1/models")
    assert any(m["id"] == mid for m in lst["models"])
    # New runs do not change a saved model.
    st, _ = S.post("/api/v1/runs", run_doc(application=APP, executable=EXE, system=SYS,
                                           nprocs=4, inputs={"N": 700}, runtime=500.0,
                                           kernels=[], metrics={}))
    assert st == 201
    st, p = S.get(f"/api/v1/models/{mid}/predict?N=1000")
    assert close(p["y"], law(1000), 1e-9), p


@test
def saved_model_prediction_errors():
    st, body = fit({"x": "N", "fixed": {"nprocs": 4}, "range": [100, 600],
                    "graph": "linear", "save": True}, token=True)
    mid = body["id"]
    st, p = S.get(f"/api/v1/models/{mid}/predict?nprocs=4")
    assert st == 422 and p["error"]["field"] == "N", p
    st, p = S.get(f"/api/v1/models/{mid}/predict?N=abc")
    assert st == 422 and "N must be a number" in p["error"]["message"], p
    st, p = S.get(f"/api/v1/models/{mid}/predict?N=1e999")
    assert st == 422, p
    for bad in ("999999", "0", "x", "-1"):
        st, p = S.get(f"/api/v1/models/{bad}/predict?N=1")
        assert st == 404, (bad, p)
    st, p = S.get("/api/v1/models/abc")
    assert st == 404


@test
def one_call_prediction_from_the_query_string():
    q = urllib.parse.urlencode({"application": APP, "system": SYS, "executable": EXE,
                                "x": "N", "nprocs": 4, "N": 800, "graph": "quadratic",
                                "range": "100,600"})
    st, p = S.get("/api/v1/predict?" + q)
    assert st == 200, p
    assert close(p["y"], law(800), 1e-9) and p["x"] == 800 and p["method"] == "fit"
    assert p["lo"] < p["y"] < p["hi"] and "N^2" in p["formula"]
    assert p["request"]["fixed"] == {"nprocs": 4} and p["request"]["range"] == [100, 600]
    st, p = S.get("/api/v1/predict?" + q.replace("100%2C600", "100"))
    assert st == 422 and p["error"]["field"] == "range", p
    q = urllib.parse.urlencode({"application": APP, "system": SYS, "x": "N", "nprocs": 4})
    st, p = S.get("/api/v1/predict?" + q)
    assert st == 422 and p["error"]["field"] == "N", p
    st, p = S.get("/api/v1/predict?method=magic&x=1")
    assert st == 422 and p["error"]["field"] == "method", p


def svg_ok(payload):
    root = ET.fromstring(payload)
    assert root.tag.endswith("svg"), root.tag
    assert root.find("{http://www.w3.org/2000/svg}title").text
    return root


@test
def plots_at_stable_urls():
    st, body = fit({"x": "N", "fixed": {"nprocs": 4}, "graph": "quadratic",
                    "predict": [900], "save": True}, token=True)
    url = body["plot"]
    st, a, resp = S.request("GET", url, raw=True, token=None)
    assert st == 200 and resp.getheader("Content-Type") == "image/svg+xml"
    assert "max-age" in resp.getheader("Cache-Control")
    root = svg_ok(a)
    assert "stencil on cluster-a" in root.find("{http://www.w3.org/2000/svg}title").text
    st, b, _ = S.request("GET", url, raw=True, token=None)
    assert a == b  # deterministic
    # An unsaved fit carries a plot URL that rebuilds the same model.
    st, unsaved = fit({"x": "N", "fixed": {"nprocs": 4}, "graph": "quadratic",
                       "predict": [900]})
    assert unsaved["plot"].startswith("/plots/fit.svg?request=")
    st, c, _ = S.request("GET", unsaved["plot"], raw=True, token=None)
    assert st == 200 and c == a
    # Two-variable models are drawn as a surface.
    data = [[n, p, 1e-3 * n / p + 0.01 * p] for n in (100, 200, 400, 800) for p in (1, 2, 4, 8)]
    st, two = S.post("/api/v1/fit", {"vars": ["N", "P"], "data": data, "graph": "auto"},
                     token=False)
    assert st == 200, two
    st, d, _ = S.request("GET", two["plot"], raw=True, token=None)
    assert st == 200, d
    svg_ok(d)
    assert d.count(b"<polygon") + d.count(b"<path") > 100, d[:300]  # a shaded surface
    for bad in ("/plots/model-999.svg", "/plots/nothing.svg", "/plots/fit.png",
                "/plots/fit.svg?request=%7B", "/plots/fit.svg"):
        st, e = S.get(bad)
        assert st in (404, 422), (bad, st, e)


S.close()
report()
