"""API tests of SPEC §14 against the real prophecyd: every fit prediction says
how far it reaches ("extrapolation", "warning"), a saved extrapolating model
predicts exactly what the fresh one did, coupling predictions carry the
kernels' reach, and POST /api/v1/suggest ranks where to measure next."""
import math
import urllib.parse

from prophecy_test import Server, report, run_doc, test

S = Server()


def law(p):
    return 200.0 / p + 0.5 * math.log2(p) + 1


PS = [2, 4, 8, 16, 32, 64]
# Deterministic +-2 % noise, one run per point (as real data often is).
DATA = [[p, law(p) * (1 + 0.02 * math.sin(3.0 * i))] for i, p in enumerate(PS)]
# The same with one wild point: the robust step leaves it out.
WILD = [list(r) for r in DATA] + [[128, law(128) * 1.01], [256, law(256) * 0.99]]
WILD[3][1] *= 2


def fit(body, **kw):
    return S.post("/api/v1/fit", body, token=kw.pop("token", False), **kw)


def suggest(body):
    return S.post("/api/v1/suggest", body, token=False)


@test
def predictions_carry_extrapolation_and_warning():
    st, b = fit({"x": "p", "data": DATA, "graph": "auto", "predict": [16, 2, 128, 64, 4096]})
    assert st == 200, b
    reach = [p["extrapolation"] for p in b["predictions"]]
    # 0 inside [2, 64]; log2 of the ratio to the nearest measured end beyond it
    assert reach == [0, 0, 1, 0, 6], reach
    for p in b["predictions"][:4]:
        assert "warning" not in p, p
        assert p["lo"] <= p["y"] <= p["hi"] and p["interval"] is True
    far = b["predictions"][4]
    assert "6 doublings beyond the measured range" in far["warning"], far
    # the interval widens with the reach (the law's own uncertainty)
    w128 = b["predictions"][2]["hi"] - b["predictions"][2]["lo"]
    assert far["hi"] - far["lo"] > w128 > 0
    # below the measured range, too
    st, b = fit({"x": "p", "data": DATA, "graph": "poly1", "predict": [0.5]})
    assert st == 200 and b["predictions"][0]["extrapolation"] == 2, b


@test
def exact_fit_warns_that_there_is_no_interval():
    st, b = fit({"data": [[1, 2], [2, 4]], "graph": "poly1", "predict": [1.5]})
    assert st == 200, b
    p = b["predictions"][0]
    assert p["interval"] is False and p["lo"] == p["y"] == p["hi"]
    assert p["extrapolation"] == 0 and "no interval" in p["warning"], p


@test
def saved_model_predicts_exactly_what_the_fresh_one_did():
    xs = [64, 1000, 4096]
    st, fresh = fit({"x": "p", "data": WILD, "graph": "auto", "predict": xs})
    assert st == 200, fresh
    state = fresh["model"]["state"]
    assert state["outliers"] == 1 and state["xunc"] > 0, state
    st, saved = fit({"x": "p", "data": WILD, "graph": "auto", "predict": xs,
                     "save": True}, token=True)
    assert st == 201, saved
    for want in fresh["predictions"]:
        st, got = S.get(f"/api/v1/models/{saved['id']}/predict?p={want['x']:g}")
        assert st == 200, got
        for k in ("y", "lo", "hi", "extrapolation", "interval"):
            assert got[k] == want[k], (k, got, want)
        assert got.get("warning") == want.get("warning")
    # the stored answer keeps the fields that make it so
    st, m = S.get(f"/api/v1/models/{saved['id']}")
    assert st == 200 and m["result"]["model"]["state"]["xunc"] == state["xunc"], m


@test
def one_call_predict_carries_the_reach():
    S.post("/api/v1/runs", {"runs": [
        run_doc(application="halo", executable="halo.x", system="box", nprocs=p,
                inputs={"N": 512}, runtime=law(p), kernels=[], metrics={})
        for p in PS]})
    q = urllib.parse.urlencode({"application": "halo", "system": "box", "x": "nprocs",
                                "N": 512, "nprocs": 1024, "graph": "auto"})
    st, p = S.get("/api/v1/predict?" + q)
    assert st == 200, p
    assert p["extrapolation"] == 4 and "4 doublings" in p["warning"], p
    q = urllib.parse.urlencode({"application": "halo", "system": "box", "x": "nprocs",
                                "N": 512, "nprocs": 16, "graph": "auto"})
    st, p = S.get("/api/v1/predict?" + q)
    assert st == 200 and p["extrapolation"] == 0 and "warning" not in p, p


@test
def suggest_ranks_candidates_largest_narrowing_first():
    cands = [3, 64, 128, 256, 512]
    st, b = suggest({"x": "p", "data": DATA, "graph": "auto", "target": 1024,
                     "candidates": cands})
    assert st == 200, b
    s = b["suggestions"]
    assert sorted(x["x"] for x in s) == cands
    gains = [x["narrowing"] for x in s]
    assert gains == sorted(gains, reverse=True) and 0 <= gains[-1] and gains[0] < 1, s
    # measuring closest to the target narrows the interval most
    assert s[0]["x"] == 512 and s[0]["narrowing"] > 0.3, s
    t = b["target"]
    assert t["x"] == 1024 and t["extrapolation"] == 4 and t["lo"] < t["y"] < t["hi"], t
    # the target's prediction is the fit's own
    st, f = fit({"x": "p", "data": DATA, "graph": "auto", "predict": [1024]})
    assert f["predictions"][0] == t, (f["predictions"][0], t)
    assert b["model"]["formula"] == f["model"]["formula"]


@test
def suggest_over_stored_runs_and_two_variables():
    st, b = suggest({"application": "halo", "system": "box", "x": "nprocs",
                     "fixed": {"N": 512}, "graph": "auto", "target": 1024,
                     "candidates": [128, 256]})
    assert st == 200, b
    assert [x["x"] for x in b["suggestions"]] == [256, 128], b
    rows = [[n, p, 1e-6 * n * n / p + 0.01 * p] for n in (100, 200, 400, 800)
            for p in (1, 2, 4, 8)]
    st, b = suggest({"vars": ["N", "P"], "data": rows, "target": [3200, 32],
                     "candidates": [[1600, 16], [200, 2]]})
    assert st == 200, b
    assert b["suggestions"][0]["x"] == [1600, 16], b
    assert b["target"]["x"] == [3200, 32] and b["target"]["extrapolation"] == 2, b


@test
def suggest_rejects_bad_requests_clearly():
    base = {"x": "p", "data": DATA, "graph": "auto"}
    cases = [
        ({"target": 1024}, "candidates", "non-empty"),
        ({"target": 1024, "candidates": []}, "candidates", "non-empty"),
        ({"target": 1024, "candidates": list(range(1, 258))}, "candidates",
         "at most 256 candidates"),
        ({"candidates": [128]}, "target", "target"),
        ({"target": "far", "candidates": [128]}, "target", "finite number"),
        ({"target": None, "candidates": [128]}, "target", "finite number"),
        ({"target": 1024, "candidates": [128, "x"]}, "candidates[1]", "finite number"),
        ({"target": -4, "candidates": [128]}, "target", "must be > 0"),
        ({"target": 1024, "candidates": [128], "predict": [3]}, "predict", "unknown field"),
    ]
    for extra, field, words in cases:
        st, b = suggest(dict(base, **extra))
        assert st == 422, (extra, b)
        assert b["error"]["field"] == field and words in b["error"]["message"], (extra, b)
    st, b = suggest({"data": [[1, 2], [2, 4]], "graph": "poly1", "target": 4,
                     "candidates": [3]})
    assert st == 422 and "no interval to narrow" in b["error"]["message"], b
    st, b = S.get("/api/v1/suggest")
    assert st == 405, b


@test
def coupling_predictions_carry_the_reach():
    body = {"kernels": [
        {"name": "A", "loop": True, "data": [[4, 10.0], [9, 4.6], [16, 2.7], [25, 1.7]],
         "graph": "inv1"},
        {"name": "B", "loop": True, "data": [[4, 6.0], [9, 2.9], [16, 1.8], [25, 1.2]],
         "graph": "inv1"}],
        "couplings": [{"kernels": ["A", "B"], "alone": [10.0, 6.0], "together": 14.9},
                      {"kernels": ["B", "A"], "alone": [6.0, 10.0], "together": 15.1}],
        "predict": [9, 100, 1600]}
    st, b = S.post("/api/v1/couple", body, token=False)
    assert st == 200, b
    reach = [p["extrapolation"] for p in b["predictions"]]
    assert reach[0] == 0 and reach[1] == 2 and reach[2] == 6, reach
    assert "warning" not in b["predictions"][0]
    assert b["predictions"][2]["warning"].startswith("kernel A: "), b["predictions"][2]


report()
