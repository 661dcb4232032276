"""API tests of POST /api/v1/fit (inline form) against the real prophecyd.
Expected numbers are computed here independently (closed-form least squares)."""
import math

from prophecy_test import Server, report, test

S = Server()


def fit(body):
    return S.post("/api/v1/fit", body, token=False)


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(1.0, abs(b))


@test
def linear_fit_matches_closed_form():
    xs = [100, 200, 300, 400, 500]
    ys = [1.02, 2.1, 2.9, 4.1, 5.0]
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    a = my - b * mx
    rss = sum((y - a - b * x) ** 2 for x, y in zip(xs, ys))
    tss = sum((y - my) ** 2 for y in ys)
    st, body = fit({"x": "N", "data": [[x, y] for x, y in zip(xs, ys)], "graph": "linear",
                    "predict": [1000]})
    assert st == 200, body
    m = body["model"]
    assert m["graph"] == "poly1" and m["chosen"] == "poly1"
    assert close(m["coefficients"][0], a) and close(m["coefficients"][1], b), m
    assert close(m["rss"], rss) and close(m["r2"], 1 - rss / tss), m
    assert close(m["rmse"], math.sqrt(rss / n))
    p = body["predictions"][0]
    assert close(p["y"], a + b * 1000)
    # 95 % prediction interval: t(0.975, 3) = 3.182446305284263, in log space
    # for a positive quantity (SPEC §18): y exp(+-z), the relative variance
    # n2 = s2 (1 + h) / y^2 read as the log variance ln(1 + n2)
    t = 3.182446305284263
    s2 = rss / (n - 2)
    y = a + b * 1000
    n2 = s2 * (1 + 1 / n + (1000 - mx) ** 2 / sxx) / (y * y)
    z = t * math.sqrt(math.log1p(n2))
    assert close(p["lo"], y * math.exp(-z), 1e-7), p
    assert close(p["hi"], y * math.exp(z), 1e-7), p
    assert "N" in m["formula"] and "*N" in m["expression"]
    assert body["vars"] == ["N"]


@test
def paper_matmul_cubic_recovers_and_predicts():
    law = lambda n: 2e-9 * n ** 3 + 1e-6 * n ** 2 + 1e-4 * n + 0.01
    data = [[n, law(n)] for n in range(100, 1001, 100)]
    st, body = fit({"x": "N", "data": data, "graph": "cubic", "predict": [1200]})
    assert st == 200, body
    c = body["model"]["coefficients"]
    for got, want in zip(c, [0.01, 1e-4, 1e-6, 2e-9]):
        assert close(got, want, 1e-6), c
    assert close(body["predictions"][0]["y"], law(1200), 1e-8)


@test
def repetitions_are_aggregated():
    data = [[1, 1.0], [1, 3.0], [2, 4.0], [3, 6.0], [3, 6.0], [3, 9.0]]
    st, body = fit({"data": data, "graph": "linear", "aggregate": "median"})
    assert st == 200, body
    pts = body["points"]
    assert [p["x"] for p in pts] == [1, 2, 3] and [p["n"] for p in pts] == [2, 1, 3]
    assert pts[0]["y"] == 2.0 and pts[2]["y"] == 6.0 and pts[2]["ymax"] == 9.0
    assert body["model"]["observations"] == 6


@test
def unknown_picks_least_residual_norm():
    data = [[p, 100 / p + 2 + 0.01 * ((p * 7919) % 13 - 6)] for p in [1, 2, 4, 8, 16, 32, 64]]
    rss = {}
    for g in [f"poly{k}" for k in range(1, 7)] + [f"inv{k}" for k in range(1, 7)]:
        st, body = fit({"data": data, "graph": g})
        assert st == 200, (g, body)
        rss[body["model"]["graph"]] = body["model"]["rss"]
    st, body = fit({"data": data, "graph": "unknown"})
    assert st == 200
    best = min(rss.values())
    assert close(body["model"]["rss"], best, 1e-9), (body["model"], rss)


@test
def auto_and_two_parameter_models():
    data = [[p, 100 / p + 2] for p in [2, 4, 8, 16, 32, 64] for _ in range(3)]
    st, body = fit({"x": "p", "data": data, "graph": "auto", "predict": [256]})
    assert st == 200, body
    assert close(body["predictions"][0]["y"], 100 / 256 + 2, 1e-6), body
    grid = [[n, p, 2e-9 * n ** 3 / p + 1e-4 * n * math.log2(p) + 0.1]
            for n in (200, 400, 600, 800, 1000) for p in (2, 4, 8, 16, 32)]
    st, body = fit({"vars": ["n", "p"], "data": grid, "predict": [[2000, 64]]})
    assert st == 200, body
    want = 2e-9 * 2000 ** 3 / 64 + 1e-4 * 2000 * 6 + 0.1
    assert close(body["predictions"][0]["y"], want, 1e-3), body
    assert body["vars"] == ["n", "p"]


@test
def degenerate_and_bad_requests_are_clear_errors():
    cases = [
        ({"data": [[1, 1], [2, 2], [3, 3]], "graph": "cubic"}, 422, "degenerate"),
        ({"data": [[0, 1], [1, 2], [2, 3]], "graph": "inv1"}, 422, "degenerate"),
        ({"data": [[5, 1], [5, 2], [5, 3]], "graph": "linear"}, 422, "degenerate"),
        ({"data": [[1, "a"], [2, 2]], "graph": "linear"}, 422, "invalid"),
        ({"data": [[1, 2], [2]], "graph": "linear"}, 422, "invalid"),
        ({"data": [[1, 1], [2, 2]], "graph": "septic"}, 422, "invalid"),
        ({"data": []}, 422, "invalid"),
        ({"data": [[1, 1], [2, 2]], "colour": 1}, 422, "invalid"),
        ({"data": [[1, 1], [2, 2], [3, 4]], "graph": "inv1", "predict": [-1]}, 422, "invalid"),
        ({"data": [[i + 1, i] for i in range(100001)]}, 413, "too_large"),
    ]
    for body, status, code in cases:
        st, resp = fit(body)
        assert st == status and resp["error"]["code"] == code, (str(body)[:80], st, resp)
        assert resp["error"]["message"]
        assert "nan" not in str(resp).lower()
    st, resp = S.post("/api/v1/fit", "{", token=False)
    assert st == 400


def near(want):
    """A dict equal to another with the same keys and values within close()."""
    class Near(dict):
        def __eq__(self, got):
            return set(got) == set(want) and all(close(got[k], want[k]) for k in want)
    return Near(want)


@test
def a_spike_makes_autos_point_the_median():
    # eval/RECORD.md §28: `auto` with the mean takes the median of a
    # configuration of >= 3 runs one of which is more than 2x (or below half)
    # their median; other graphs, and runs that agree within 2x, keep the mean.
    law = {1: 10.0, 2: 5.5, 4: 3.25, 8: 2.125, 16: 1.5625}
    runs = {x: [y, 1.02 * y, 0.98 * y] for x, y in law.items()}
    runs[4] = [3.25, 3.3, 9.9]      # a spike: 9.9 > 2 * 3.3
    runs[8] = [2.125, 2.2, 4.3]     # within 2x of the median 2.2: the mean
    data = [[x, y] for x, ys in runs.items() for y in ys]
    want = {x: sum(ys) / 3 for x, ys in runs.items()}
    want[4] = 3.3
    st, body = fit({"data": data})
    assert st == 200, body
    assert {p["x"]: p["y"] for p in body["points"]} == near(want), body["points"]
    st, body = fit({"data": data, "graph": "linear"})
    assert st == 200, body
    assert body["points"][2]["y"] == sum(runs[4]) / 3
    st, body = fit({"data": data, "aggregate": "median"})
    assert st == 200 and body["points"][3]["y"] == 2.2, body
    # the database form gives the same points
    st, b = S.post("/api/v1/runs", {"runs": [
        {"application": "spiky", "executable": "e", "system": "s", "nprocs": x,
         "runtime": y} for x, ys in runs.items() for y in ys]})
    assert st == 201, b
    st, body = fit({"application": "spiky", "executable": "e", "system": "s",
                    "x": "nprocs", "y": "runtime"})
    assert st == 200, body
    assert {p["x"]: p["y"] for p in body["points"]} == near(want), body["points"]
    st, body = fit({"application": "spiky", "executable": "e", "system": "s",
                    "x": "nprocs", "y": "runtime", "graph": "inverse linear"})
    assert st == 200 and close(body["points"][2]["y"], sum(runs[4]) / 3), body


S.close()
report()
