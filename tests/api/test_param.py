"""API tests of parameterization (SPEC §5.2) against the real prophecyd:
POST /api/v1/parameterize (inline and stored template/system, grids, alpha
coefficients, the measured overlay, errors) and
POST /api/v1/systems/{name}/parameters/fit. Every expected number is
computed here from the formulas, independently of the server."""
import math
import urllib.parse

from prophecy_test import Server, report, test

S = Server("--demo")

TPL = "ADDM*N^3/(P-1)+2*N*MPISR(L)/(P-1)+N*MPIBC(L)"
SP2 = "IBM SP2 (example)"
SGI = "SGI Origin2000 (example)"
SP2_PARAMS = {"ADDM": "4.83e-8", "MPISR(L)": "0.001*(15.94+0.0608*L)",
              "MPIBC(L)": "log2(P)*0.001*(15.94+0.0608*L)"}
PARSED = ("4.83e-08*N^3/(P-1)+2*N*0.001*(15.94+0.0608*L)/(P-1)"
          "+N*log2(P)*0.001*(15.94+0.0608*L)")


def sr(L):
    return 0.001 * (15.94 + 0.0608 * L)


def matmul(N, P, L):
    """The paper's model with the SP2 parameters, evaluated in Python."""
    return 4.83e-8 * N ** 3 / (P - 1) + 2 * N * sr(L) / (P - 1) + N * math.log2(P) * sr(L)


def close(a, b, rel=1e-12):
    return abs(a - b) <= rel * max(1.0, abs(b))


def param(body):
    return S.post("/api/v1/parameterize", body, token=False)


def stored(**vars_):
    return param({"template": "matmul master/slave", "system": SP2, "vars": vars_})


def err(status, body, code, field=None):
    assert status in (404, 422), (status, body)
    e = body["error"]
    assert e["code"] == code, e
    if field is not None:
        assert e.get("field") == field, e
    return e


# ---- values ---------------------------------------------------------------------------

@test
def worked_check_inline():
    st, body = param({"expression": TPL, "parameters": SP2_PARAMS,
                      "vars": {"N": 1000, "P": 8, "L": 1024}})
    assert st == 200, body
    # 6.9 + 22.3426 + 234.5976 = 263.8402 (SPEC §5.2, the paper's Figure 8)
    assert round(4.83e-8 * 1000 ** 3 / 7, 4) == 6.9
    assert round(2 * 1000 * sr(1024) / 7, 4) == 22.3426
    assert round(1000 * 3 * sr(1024), 4) == 234.5976
    assert round(body["value"], 4) == 263.8402, body["value"]
    assert close(body["value"], matmul(1000, 8, 1024))
    assert body["parsed"] == PARSED, body["parsed"]
    assert body["expression"] == TPL
    assert body["parameters"] == SP2_PARAMS
    assert body["vars"] == {"N": 1000, "P": 8, "L": 1024}
    assert body["template"] is None and body["system"] is None
    assert "measured" not in body and "grid" not in body  # nothing to compare with


@test
def worked_check_stored_template_and_system():
    st, body = stored(N=1000, P=8, L=1024)
    assert st == 200, body
    assert round(body["value"], 4) == 263.8402
    assert close(body["value"], matmul(1000, 8, 1024))
    assert body["template"] == "matmul master/slave"
    assert body["application"] == "matmul (example)" and body["system"] == SP2
    assert body["expression"] == TPL and body["parsed"] == PARSED
    assert body["parameters"] == SP2_PARAMS


@test
def inline_parameters_override_the_system():
    st, body = param({"template": "matmul master/slave", "system": SP2,
                      "parameters": {"ADDM": 0}, "vars": {"N": 1000, "P": 8, "L": 1024}})
    assert st == 200, body
    assert close(body["value"], matmul(1000, 8, 1024) - 4.83e-8 * 1000 ** 3 / 7)
    assert body["parameters"]["ADDM"] == "0"
    assert body["parameters"]["MPISR(L)"] == SP2_PARAMS["MPISR(L)"]


@test
def only_used_parameters_are_kept():
    st, body = param({"expression": "2*N*MPISR(L)", "system": SP2,
                      "vars": {"N": 10, "L": 0}})
    assert st == 200, body
    assert body["parameters"] == {"MPISR(L)": SP2_PARAMS["MPISR(L)"]}
    assert close(body["value"], 2 * 10 * 0.01594)
    assert body["parsed"] == "2*N*0.001*(15.94+0.0608*L)"


@test
def alpha_coefficients_of_matmul_in_N():
    a3 = 4.83e-8 / 7                           # ADDM/(P-1)
    a1 = 2 * sr(1024) / 7 + math.log2(8) * sr(1024)  # 2*MPISR(L)/(P-1) + MPIBC(L)
    for vars_ in ({"N": [100, 1000]}, {"N": 1000}):
        st, body = stored(P=8, L=1024, **vars_)
        assert st == 200, body
        al = body["alpha"]
        assert al["variable"] == "N" and al["degree"] == 3, al
        c = al["coefficients"]
        assert len(c) == 4 and c[0] == 0 and c[2] == 0, c
        assert close(c[3], a3) and close(c[1], a1), (c, a1, a3)
    assert close(a1, 0.2569402285714286)
    # In P the model divides by P-1 and takes log2(P): no alpha.
    st, body = stored(N=1000, P=[2, 64], L=1024)
    assert st == 200 and "alpha" not in body


# ---- grids ----------------------------------------------------------------------------

@test
def one_range_grid():
    st, body = stored(N=[100, 1000, 10], P=8, L=1024)
    assert st == 200, body
    g = body["grid"]
    assert g["x"] == "N" and "z" not in g and "value" not in body
    assert len(g["xs"]) == 10 and len(g["ys"]) == 10
    assert g["xs"][0] == 100 and g["xs"][-1] == 1000
    for i, (x, y) in enumerate(zip(g["xs"], g["ys"])):
        assert close(x, 100 + 900 * i / 9), (i, x)
        assert close(y, matmul(x, 8, 1024)), (x, y)
    assert body["vars"]["N"] == [100, 1000, 10]
    st, body = stored(N=[100, 1000], P=8, L=1024)
    assert st == 200 and len(body["grid"]["xs"]) == 50  # the default
    assert body["vars"]["N"] == [100, 1000, 50]


@test
def two_range_grid_200_by_200():
    st, body = stored(N=[100, 10000, 200], P=[2, 64, 200], L=1024)
    assert st == 200, body
    g = body["grid"]
    assert g["x"] == "N" and g["y"] == "P"
    assert len(g["xs"]) == 200 and len(g["ys"]) == 200
    assert len(g["z"]) == 200 and all(len(row) == 200 for row in g["z"])
    assert g["xs"][0] == 100 and g["xs"][-1] == 10000 and g["ys"][0] == 2 and g["ys"][-1] == 64
    for j in (0, 57, 199):
        for i in (0, 123, 199):
            assert close(g["z"][j][i], matmul(g["xs"][i], g["ys"][j], 1024)), (i, j)
    assert "alpha" not in body
    # Axis order follows vars: P first makes P the x axis.
    st, body = param({"template": "matmul master/slave", "system": SP2,
                      "vars": {"P": [2, 64], "N": [100, 1000], "L": 1024}})
    assert st == 200 and body["grid"]["x"] == "P" and body["grid"]["y"] == "N"
    assert len(body["grid"]["xs"]) == 30 and len(body["grid"]["z"]) == 30  # default 30x30


@test
def grid_limits():
    st, body = stored(N=[100, 10000, 200], P=[2, 64, 201], L=1024)
    e = err(st, body, "invalid", "vars.P")
    assert "200" in e["message"]
    st, body = stored(N=[100, 10000, 1], P=8, L=1024)
    err(st, body, "invalid", "vars.N")
    st, body = stored(N=[100, 10000, 2.5], P=8, L=1024)
    err(st, body, "invalid", "vars.N")
    st, body = stored(N=[1000, 100], P=8, L=1024)
    err(st, body, "invalid", "vars.N")
    st, body = stored(N=[100, 1000], P=[2, 8], L=[1, 1024])
    e = err(st, body, "invalid", "vars.L")
    assert "at most 2" in e["message"]


@test
def non_finite_points_are_null():
    # P from 1: the model divides by P-1 = 0 at the first point only.
    st, body = param({"expression": "N/(P-1)", "vars": {"N": 6, "P": [1, 4, 4]}})
    assert st == 200, body
    assert body["grid"]["ys"] == [None, 6.0, 3.0, 2.0]


# ---- the measured overlay -------------------------------------------------------------

@test
def overlay_matmul_sp2_strong_scaling():
    """The demo's matmul_sp2 runs were generated from this very model with
    multiplicative noise uniform in [0.97, 1.03], two runs per P = 2..64. The
    mean of two runs is model*m with m in [0.97, 1.03], so the model's error
    against it, (model - mean)/mean = 1/m - 1, lies in [-2.92 %, +3.10 %]."""
    st, body = stored(N=1000, P=[2, 64], L=1024)
    assert st == 200, body
    m = body["measured"]
    assert [p["x"]["P"] for p in m] == [2, 4, 8, 16, 32, 64], m
    for p in m:
        assert p["runs"] == 2 and p["x"]["N"] == 1000 and p["x"]["L"] == 1024
        assert p["min"] <= p["runtime"] <= p["max"]
        assert close(p["model"], matmul(1000, p["x"]["P"], 1024))
        assert close(p["error_pct"], (p["model"] - p["runtime"]) / p["runtime"] * 100, 1e-9)
        assert abs(p["error_pct"]) <= 100 * (1 / 0.97 - 1) + 1e-9, p
    e = body["error"]
    assert e["points"] == 6 and e["runs"] == 12 and e["capped"] is False
    assert 0 < e["mean_abs_pct"] <= e["max_abs_pct"] <= 100 * (1 / 0.97 - 1) + 1e-9, e
    assert close(e["max_abs_pct"], max(abs(p["error_pct"]) for p in m))
    assert close(e["mean_abs_pct"], sum(abs(p["error_pct"]) for p in m) / 6)
    # A fixed P selects that configuration only.
    st, body = stored(N=1000, P=8, L=1024)
    assert st == 200 and len(body["measured"]) == 1 and body["measured"][0]["runs"] == 2
    # Nothing was run at N = 500: an empty overlay, no statistics.
    st, body = stored(N=500, P=[2, 64], L=1024)
    assert st == 200 and body["measured"] == [], body["measured"]
    assert body["error"] == {"points": 0, "runs": 0, "capped": False}


@test
def overlay_groups_runs_by_configuration():
    # On the Origin2000: N = 100..1000 step 100 at P = 8, three runs each, and
    # the strong-scaling series adds two more runs at N = 1000, P = 8.
    st, body = param({"template": "matmul master/slave", "system": SGI,
                      "vars": {"N": [100, 1000], "P": 8, "L": 1024}})
    assert st == 200, body
    m = body["measured"]
    assert [p["x"]["N"] for p in m] == [100 * k for k in range(1, 11)]
    assert [p["runs"] for p in m] == [3] * 9 + [5]
    # nprocs is also accepted as the name of the process count.
    st, body = param({"expression": "N^3*ADDM*8/nprocs", "system": SGI,
                      "application": "matmul (example)",
                      "vars": {"N": 1000, "nprocs": [2, 64], "L": 1024}})
    assert st == 200, body
    assert [p["x"]["nprocs"] for p in body["measured"]] == [2, 4, 8, 16, 32, 64]
    # An inline expression needs "application" for an overlay.
    st, body = param({"expression": "ADDM*N", "system": SP2, "vars": {"N": 1000}})
    assert st == 200 and "measured" not in body


@test
def overlay_of_a_kernel_template_uses_the_kernel_time():
    # The demo's BT runs: x_solve takes (90/P + 2) s times noise in [0.98, 1.02]
    # (two runs per P), inside a run whose total is far larger. A template of
    # that kernel is compared with the kernel's time, not the run's.
    st, body = S.post("/api/v1/templates", {"name": "bt x_solve", "application":
                                            "NAS BT (example)", "kernel": "x_solve",
                                            "expression": "90/P+2"})
    assert st == 201, body
    st, body = param({"template": "bt x_solve", "system": SP2, "vars": {"P": [4, 64]}})
    assert st == 200, body
    assert body["kernel"] == "x_solve"
    m = body["measured"]
    assert [p["x"]["P"] for p in m] == [4, 9, 16, 25, 36, 49, 64]
    assert all(p["runs"] == 2 for p in m)
    assert 0 < body["error"]["max_abs_pct"] <= 100 * (1 / 0.98 - 1) + 1e-9, body["error"]


@test
def overlay_considers_at_most_10000_runs():
    runs = [{"application": "cap app", "executable": "cap", "system": "cap sys",
             "nprocs": 1 + i % 4, "inputs": {"N": 1}, "runtime": 2.0} for i in range(10001)]
    for k in (0, 5000):
        st, body = S.post("/api/v1/runs", {"runs": runs[k:k + 5000]})
        assert st == 201, body
    st, body = S.post("/api/v1/runs", runs[10000])
    assert st == 201, body
    st, body = param({"expression": "N+P", "application": "cap app", "system": "cap sys",
                      "vars": {"N": 1, "P": [1, 4]}})
    assert st == 200, body
    e = body["error"]
    assert e["runs"] == 10000 and e["capped"] is True and e["points"] == 4, e
    assert [p["runs"] for p in body["measured"]] == [2500] * 4
    assert e["max_abs_pct"] == 150.0  # model N+P = 2..5 against 2 s: (5-2)/2


# ---- errors ---------------------------------------------------------------------------

@test
def syntax_error_names_the_column():
    st, body = param({"expression": "2*(N+1", "vars": {"N": 1}})
    e = err(st, body, "expression", "expression")
    assert e["message"].startswith("column 7:"), e
    st, body = param({"expression": "N**2", "vars": {"N": 1}})
    e = err(st, body, "expression", "expression")
    assert e["message"].startswith("column 3:"), e
    st, body = param({"expression": "ADDM*N", "parameters": {"ADDM": "4.8e-8*"},
                      "vars": {"N": 1}})
    e = err(st, body, "expression", "parameters.ADDM")
    assert e["message"].startswith("column 8 of parameter 'ADDM'"), e


@test
def unknown_variable_is_named():
    st, body = param({"expression": "N*Q", "vars": {"N": 1}})
    e = err(st, body, "invalid", "vars.Q")
    assert "Q" in e["message"]
    # P is needed through MPIBC's body although the template never writes it.
    st, body = param({"expression": "MPIBC(L)", "parameters": SP2_PARAMS, "vars": {"L": 1}})
    err(st, body, "invalid", "vars.P")
    # A range over a variable the expression does not use.
    st, body = param({"expression": "N", "vars": {"N": 1, "M": [1, 2]}})
    err(st, body, "invalid", "vars.M")
    # An unknown function.
    st, body = param({"expression": "foo(N)", "vars": {"N": 1}})
    e = err(st, body, "expression", "expression")
    assert "foo" in e["message"]


@test
def unknown_template_system_application():
    st, body = param({"template": "nope", "vars": {}})
    assert st == 404 and "nope" in body["error"]["message"], body
    st, body = param({"expression": "ADDM", "system": "nope", "vars": {}})
    assert st == 404 and "nope" in body["error"]["message"], body
    st, body = param({"expression": "2", "application": "nope", "system": SP2})
    assert st == 404 and "nope" in body["error"]["message"], body


@test
def bad_fields():
    st, body = param({"expression": "N", "vars": {"N": 1}, "varz": {}})
    err(st, body, "invalid", "varz")
    st, body = param({"expression": "N", "vars": {"N": "big"}})
    err(st, body, "invalid", "vars.N")
    st, body = param({"expression": "N", "vars": {"N": [1, "x"]}})
    err(st, body, "invalid", "vars.N")
    st, body = param({"expression": "N", "vars": [1]})
    err(st, body, "invalid", "vars")
    st, body = param({"expression": "N", "template": "matmul master/slave", "vars": {"N": 1}})
    err(st, body, "invalid", "expression")
    st, body = param({"vars": {"N": 1}})
    err(st, body, "invalid", "expression")
    st, body = param({"expression": 5})
    err(st, body, "invalid", "expression")
    st, body = param({"expression": "N", "parameters": {"A": [1]}, "vars": {"N": 1}})
    err(st, body, "invalid", "parameters.A")
    st, body = param({"expression": "P", "vars": {"P": 1, "nprocs": 2}})
    err(st, body, "invalid", "vars.nprocs")
    # Templates are scoped to an application (SPEC §11): naming another
    # application looks the template up there, where there is none.
    st, body = param({"template": "matmul master/slave", "application": "NAS BT (example)",
                      "vars": {}})
    assert st == 404, (st, body)
    e = err(st, body, "not_found", "template")
    assert e["message"] == "application NAS BT (example) has no template matmul master/slave", e
    st, body = param({"expression": "N/(P-1)", "vars": {"N": 1, "P": 1}})
    e = err(st, body, "expression")
    assert "non-finite" in e["message"]
    st, body = param({"expression": "x" * 5000, "vars": {}})
    err(st, body, "invalid", "expression")
    # Saving needs a token and stores nothing without one.
    before = S.content()
    st, body = param({"expression": "2+3", "save": True})
    assert st == 401, body
    assert S.content() == before


@test
def saved_parameterization_predicts_and_plots():
    st, body = S.post("/api/v1/parameterize",
                      {"template": "matmul master/slave", "system": "IBM SP2 (example)",
                       "vars": {"N": [100, 2000], "P": 8, "L": 1024}, "save": True})
    assert st == 201, body
    mid = body["id"]
    st, p = S.get(f"/api/v1/models/{mid}/predict?N=1000")
    assert st == 200 and p["method"] == "parameterize", p
    assert close(p["y"], matmul(1000, 8, 1024), 1e-12), p
    st, p = S.get(f"/api/v1/models/{mid}/predict?N=1000&P=16")
    assert close(p["y"], matmul(1000, 16, 1024), 1e-12), p
    st, p = S.get(f"/api/v1/models/{mid}/predict?P=16")
    assert st == 422 and "N" in p["error"]["field"], p
    st, svg, resp = S.request("GET", body["plot"], raw=True, token=None)
    assert st == 200 and svg.startswith(b"<?xml") and b"<title>" in svg
    # The one-call form: every number is a variable.
    st, p = S.get("/api/v1/predict?method=parameterize&template=matmul%20master%2Fslave"
                  "&system=IBM%20SP2%20(example)&N=1000&P=8&L=1024")
    assert st == 200 and close(p["y"], 263.8402, 1e-6) and p["method"] == "parameterize", p


# ---- fitting system parameters from benchmarks ---------------------------------------

BOX = "fit box"
BOXP = "/api/v1/systems/" + urllib.parse.quote(BOX)
A, B = 1.5e-5, 2.5e-9  # latency 15 us, 2.5 ns per byte
LS = [4 ** k for k in range(9)]


def fit(body, **kw):
    return S.post(BOXP + "/parameters/fit", body, **kw)


def box_params():
    st, body = S.get(BOXP + "/parameters")
    assert st == 200, body
    return {p["signature"]: p for p in body["parameters"]}


@test
def upload_benchmarks():
    # Benchmarks never create their system (issue 12): it is registered first.
    st, body = S.request("PUT", BOXP, {"description": "a box to fit on"})
    assert st in (200, 201), body
    rows = [{"name": "MPISR", "args": {"L": L, "P": 2}, "time": A + B * L, "stat": "min"}
            for L in LS]
    rows += [{"name": "MPISR", "args": {"L": L, "P": 2}, "time": 1.3 * (A + B * L),
              "stat": "median"} for L in LS]
    rows += [{"name": "MPIBC", "args": {"L": L, "P": P},
              "time": math.log2(P) * (2 * A + 3 * B * L)} for L in LS for P in (4, 16)]
    rows += [{"name": "ADDM", "time": t} for t in (4.9e-8, 4.83e-8, 4.8e-8)]
    rows += [{"name": "ODD", "args": {"L": 1}, "time": 1, "stat": "x"},
             {"name": "ODD", "args": {"L": 2}, "time": 2, "stat": "y"},
             {"name": "NOL", "args": {"P": 2}, "time": 1}]
    st, body = S.post(BOXP + "/benchmarks", {"benchmarks": rows})
    assert st == 201, body


@test
def fit_hockney_recovers_a_and_b_and_stores():
    st, body = fit({"parameter": "MPISR", "form": "hockney"})
    assert st == 201, body
    assert body["parameter"] == "MPISR(L)" and body["stored"] is True
    assert body["stat"] == "min" and body["weighting"] == "relative"  # the defaults
    a, b = body["coefficients"]
    assert close(a, A, 1e-9) and close(b / B, 1, 1e-9), (a, b)
    assert body["points"] == 9
    assert body["error"]["max_rel_pct"] < 1e-6 and body["error"]["rmse"] < 1e-15
    p = box_params()["MPISR(L)"]
    assert p["expression"] == body["expression"] == "1.5e-05+2.5e-09*L", p
    assert p["source"].startswith("fit: hockney")
    # The stored parameter is used by parameterize.
    st, v = param({"expression": "MPISR(L)", "system": BOX, "vars": {"L": 1024}})
    assert st == 200 and close(v["value"], A + B * 1024), v


@test
def fit_plain_weighting_and_median_rows():
    st, body = fit({"parameter": "MPISR", "form": "hockney", "weighting": "plain",
                    "stat": "median", "store": False})
    assert st == 200, body
    a, b = body["coefficients"]
    assert close(a, 1.3 * A, 1e-9) and close(b, 1.3 * B, 1e-9), (a, b)
    assert body["stored"] is False and body["weighting"] == "plain"
    assert box_params()["MPISR(L)"]["expression"] == "1.5e-05+2.5e-09*L"  # unchanged


@test
def fit_broadcast_and_constant():
    st, body = fit({"parameter": "MPIBC", "form": "broadcast"})
    assert st == 201, body
    a, b = body["coefficients"]
    assert close(a, 2 * A, 1e-9) and close(b, 3 * B, 1e-9), (a, b)
    assert body["points"] == 18 and body["stat"] is None
    assert body["expression"] == "log2(P)*(3e-05+7.5e-09*L)"
    st, body = fit({"parameter": "ADDM", "form": "constant"})
    assert st == 201, body
    assert body["coefficients"] == [4.83e-8] and body["aggregate"] == "median"
    # mean relative error of the median against the three times
    want = ((4.9e-8 - 4.83e-8) / 4.9e-8 + (4.83e-8 - 4.8e-8) / 4.8e-8) / 3 * 100
    assert close(body["error"]["mean_rel_pct"], want, 1e-9), body["error"]
    st, body = fit({"parameter": "ADDM2", "benchmark": "ADDM", "form": "constant",
                    "aggregate": "min", "store": False})
    assert st == 200 and body["coefficients"] == [4.8e-8], body
    got = box_params()
    assert "MPIBC(L)" in got and "ADDM" in got and "ADDM2" not in got
    assert got["MPIBC(L)"]["expression"] == "log2(P)*(3e-05+7.5e-09*L)"


@test
def fit_needs_a_token_and_stores_nothing_on_error():
    before = S.content()["system_parameters"]
    st, body = fit({"parameter": "Z", "benchmark": "MPISR", "form": "hockney"}, token=False)
    assert st == 401, body
    cases = [
        ({"parameter": "Z", "form": "hockney"}, "benchmark"),            # no such benchmark
        ({"parameter": "Z", "benchmark": "NOL", "form": "hockney"}, "benchmark"),  # no L
        ({"parameter": "Z", "benchmark": "ODD", "form": "hockney"}, "stat"),  # x or y?
        ({"parameter": "Z", "benchmark": "ADDM", "form": "constant", "weighting": "plain"},
         "weighting"),
        ({"parameter": "Z", "benchmark": "MPISR", "form": "hockney", "aggregate": "mean"},
         "aggregate"),
        ({"parameter": "Z", "benchmark": "MPISR", "form": "line"}, "form"),
        ({"parameter": "Z", "benchmark": "MPISR"}, "form"),
        ({"parameter": "log", "benchmark": "MPISR", "form": "hockney"}, "parameter"),
        ({"parameter": "Z", "benchmark": "MPISR", "form": "hockney", "store": "yes"},
         "store"),
        ({"parameter": "Z", "benchmark": "MPISR", "form": "hockney", "extra": 1}, "extra"),
        ({"benchmark": "MPISR", "form": "hockney"}, "parameter"),
    ]
    for req, field in cases:
        st, body = fit(req)
        assert st == 422 and body["error"]["field"] == field, (req, st, body)
    st, body = S.post("/api/v1/systems/nope/parameters/fit",
                      {"parameter": "Z", "form": "constant"})
    assert st == 404, body
    assert S.content()["system_parameters"] == before


S.close()
report()
