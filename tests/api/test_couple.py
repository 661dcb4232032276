"""API tests of POST /api/v1/couple (kernel coupling, SPEC §5.3) against the
real prophecyd. Coupling values, coefficients, kernel fits and predictions are
recomputed here independently (the paper's formulas, closed-form least
squares); the database form runs end to end on the --demo data."""
import math
import urllib.parse

from prophecy_test import Server, report, test

S = Server("--demo")
BT, SP2 = "NAS BT (example)", "IBM SP2 (example)"

SPEC = {
    "kernels": [
        {"name": "init", "loop": False, "data": [[4, 2.0], [9, 1.1], [16, 0.8]], "graph": "auto"},
        {"name": "A", "loop": True, "data": [[4, 10.0], [9, 4.6], [16, 2.7]], "graph": "inv1"},
        {"name": "B", "loop": True, "data": [[4, 6.0], [9, 2.9], [16, 1.8]], "graph": "auto"},
        {"name": "C", "loop": True, "data": [[4, 3.0], [9, 1.5], [16, 0.9]], "graph": "auto"}],
    "couplings": [
        {"kernels": ["A", "B"], "alone": [10.0, 6.0], "together": 14.9},
        {"kernels": ["B", "C"], "alone": [6.0, 3.0], "together": 9.4},
        {"kernels": ["C", "A"], "alone": [3.0, 10.0], "together": 12.1}],
    "predict": [81]}

T_975_DOF1 = 12.706204736174698  # t(0.975, 1), from tables


def couple(body):
    return S.post("/api/v1/couple", body, token=False)


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(1.0, abs(b))


def expect_422(body, *names, field=None, status=422):
    st, resp = couple(body)
    assert st == status, (st, resp)
    msg = resp["error"]["message"]
    for n in names:
        assert n in msg, (n, msg)
    if field is not None:
        assert resp["error"].get("field") == field, resp
    assert "nan" not in str(resp).lower()
    return msg


def inv1_fit(points):
    """Least squares y = a + b/x, with the 95 % prediction interval at x0."""
    n = len(points)
    us = [1 / x for x, _ in points]
    ys = [y for _, y in points]
    mu, my = sum(us) / n, sum(ys) / n
    suu = sum((u - mu) ** 2 for u in us)
    b = sum((u - mu) * (y - my) for u, y in zip(us, ys)) / suu
    a = my - b * mu
    rss = sum((y - a - b * u) ** 2 for u, y in zip(us, ys))

    def at(x0):
        u0 = 1 / x0
        half = T_975_DOF1 * math.sqrt(rss / (n - 2) * (1 + 1 / n + (u0 - mu) ** 2 / suu))
        return a + b * u0, half
    return a, b, at


def machine_eval(expr, x, var="nprocs"):
    """Evaluates a returned machine formula (numbers, x, + - * / ^, log2)."""
    py = expr.replace("^", "**").replace(var, "X")
    return eval(py, {"__builtins__": {}}, {"X": float(x), "log2": math.log2})


def paper_coefficients(pairs, loop):
    """pairs: {(a, b): (Pa, Pb, Pab)} for adjacent loop kernels, in loop order."""
    c = {k: v[2] / (v[0] + v[1]) for k, v in pairs.items()}
    coef = {}
    n = len(loop)
    for i, k in enumerate(loop):
        prev, nxt = (loop[i - 1], k), (k, loop[(i + 1) % n])
        pp, pn = pairs[prev][2], pairs[nxt][2]
        coef[k] = (c[prev] * pp + c[nxt] * pn) / (pp + pn)
    return c, coef


@test
def inline_spec_example():
    st, a = couple(SPEC)
    assert st == 200, a
    pairs = {("A", "B"): (10.0, 6.0, 14.9), ("B", "C"): (6.0, 3.0, 9.4),
             ("C", "A"): (3.0, 10.0, 12.1)}
    c, coef = paper_coefficients(pairs, ["A", "B", "C"])
    got = {tuple(x["kernels"]): x["value"] for x in a["couplings"]}
    for k, v in c.items():
        assert close(got[k], v, 1e-15), (k, got)
    # psi, zeta, kappa exactly as written in the paper
    psi = (c["A", "B"] * 14.9 + c["C", "A"] * 12.1) / (14.9 + 12.1)
    zeta = (c["A", "B"] * 14.9 + c["B", "C"] * 9.4) / (14.9 + 9.4)
    kappa = (c["B", "C"] * 9.4 + c["C", "A"] * 12.1) / (9.4 + 12.1)
    assert close(a["coefficients"]["A"], psi, 1e-15) and close(coef["A"], psi, 1e-15)
    assert close(a["coefficients"]["B"], zeta, 1e-15)
    assert close(a["coefficients"]["C"], kappa, 1e-15)
    assert a["coefficients"]["init"] == 1.0
    assert a["loop"] == ["A", "B", "C"]
    kernels = {k["name"]: k for k in a["kernels"]}
    assert [k["name"] for k in a["kernels"]] == ["init", "A", "B", "C"]
    assert kernels["A"]["coefficient"] == a["coefficients"]["A"]
    # kernel A (inv1) by independent least squares
    ka, kb, at = inv1_fit(SPEC["kernels"][1]["data"])
    ca = kernels["A"]["model"]["coefficients"]
    assert close(ca[0], ka, 1e-12) and close(ca[1], kb, 1e-12), ca
    # the prediction at 81 = sum coef_k * model_k(81)
    models = {"A": at(81)[0]}
    for name in ("init", "B", "C"):
        models[name] = machine_eval(kernels[name]["model"]["expression"], 81)
    p = a["predictions"][0]
    want = sum(a["coefficients"][k] * models[k] for k in models)
    assert p["x"] == 81 and close(p["y"], want, 1e-12), (p, want)
    assert close(p["summation"]["y"], sum(models.values()), 1e-12)
    assert close(p["kernels"]["A"], psi * models["A"], 1e-12)
    assert p["lo"] < p["y"] < p["hi"]
    # the composed formulas name every kernel's model
    assert a["formula"].startswith("T(nprocs) = ")
    assert close(machine_eval(a["expression"], 81), p["y"], 1e-12)
    assert a["composition"].startswith("T = init + ")
    assert a["configurations"][0]["configuration"] == {}


@test
def interval_combines_kernel_intervals():
    """One inv1 kernel alone: its 95 % interval by hand, in log space for a
    positive quantity (y exp(+-z), z = t sqrt(ln(1 + (half / (t y))^2)),
    SPEC §18), which a kernel alone keeps; then the same kernel twice in a
    loop: each side combines as sqrt(sum (coef * side)^2)."""
    data = [[4, 10.0], [9, 4.6], [16, 2.7]]
    _, _, at = inv1_fit(data)
    y, half = at(81)
    z = T_975_DOF1 * math.sqrt(math.log1p((half / (T_975_DOF1 * y)) ** 2))
    up, dn = y * math.expm1(z), -y * math.expm1(-z)
    st, a = couple({"kernels": [{"name": "A", "data": data, "graph": "inv1"}], "predict": [81]})
    assert st == 200, a
    p = a["predictions"][0]
    assert close(p["y"], y, 1e-12) and close(p["hi"] - p["y"], up, 1e-9), (p, y, up)
    assert close(p["y"] - p["lo"], dn, 1e-9), (p, y, dn)
    body = {"kernels": [{"name": "A", "loop": True, "data": data, "graph": "inv1"},
                        {"name": "B", "loop": True, "data": data, "graph": "inv1"}],
            "couplings": [{"kernels": ["A", "B"], "alone": [1, 1], "together": 1.8}],
            "predict": [81]}
    st, a = couple(body)
    assert st == 200, a
    p = a["predictions"][0]
    assert close(a["coefficients"]["A"], 0.9, 1e-15) and close(a["coefficients"]["B"], 0.9, 1e-15)
    assert close(p["y"], 2 * 0.9 * y, 1e-12)
    assert close(p["hi"] - p["y"], math.sqrt(2) * 0.9 * up, 1e-9), p
    assert close(p["y"] - p["lo"], math.sqrt(2) * 0.9 * dn, 1e-9), p
    assert close(p["summation"]["hi"] - p["summation"]["y"], math.sqrt(2) * up, 1e-9)
    assert close(p["summation"]["y"] - p["summation"]["lo"], math.sqrt(2) * dn, 1e-9)


@test
def interval_of_a_runtime_stays_above_zero():
    """SPEC §18: an interval of a positive quantity never reaches 0. The
    kernels' intervals are multiplicative; the composed one was their mean
    half-width either side, so 6 doublings out (x = 1024 from 4..16) the
    SPEC example answered lo = -5.76 s for a runtime, the summation -5.87 s,
    and the demo BT at P = 4096 from 4..49 lo = -31.6 s."""
    st, a = couple(dict(SPEC, predict=[81, 1024, 65536]))
    assert st == 200, a
    for p in a["predictions"]:
        for side in (p, p["summation"]):
            assert 0 < side["lo"] < side["y"] < side["hi"], (p["x"], side)
    st, a = couple({"application": BT, "system": SP2, "x": "nprocs",
                    "fixed": {"class_size": 64}, "range": [4, 49], "predict": [4096]})
    assert st == 200, a
    p = a["predictions"][0]
    assert 0 < p["lo"] < p["y"] < p["hi"] and 0 < p["nearest"]["lo"], p
    assert "doublings" in p["warning"], p


@test
def parameterized_kernel_and_measured_runs():
    body = {"kernels": [
        {"name": "A", "loop": True, "expression": "a/P+b", "parameters": {"a": "120", "b": "1.2"}},
        {"name": "B", "loop": True, "data": [[4, 6.0], [9, 2.9], [16, 1.8], [25, 1.3]],
         "graph": "inv1"}],
        "couplings": [{"kernels": ["B", "A"], "alone": [6, 31.2], "together": 35}],
        "measured": [[4, 37.0], [16, 9.3], [16, 9.5]], "predict": [16, 64]}
    st, a = couple(body)
    assert st == 200, a
    c = 35 / 37.2
    assert close(a["coefficients"]["A"], c, 1e-15)
    km = {k["name"]: k["model"] for k in a["kernels"]}
    assert km["A"]["type"] == "expression" and km["A"]["expression"] == "120/P+1.2", km["A"]
    p16 = a["predictions"][0]
    assert close(p16["kernels"]["A"], c * (120 / 16 + 1.2), 1e-14)
    assert close(p16["actual"], 9.4, 1e-15) and p16["runs"] == 2
    assert close(p16["error_pct"], 100 * (p16["y"] - 9.4) / 9.4, 1e-9)
    assert close(p16["summation_error_pct"], 100 * (p16["summation"]["y"] - 9.4) / 9.4, 1e-9)
    assert "actual" not in a["predictions"][1]
    assert [pt["x"] for pt in a["points"]] == [4, 16]


@test
def inline_range_limits_the_fitted_data():
    body = {"kernels": [{"name": "A", "data": [[4, 10.0], [9, 4.6], [16, 2.7], [25, 9.9]],
                         "graph": "inv1"}],
            "measured": [[4, 10.1], [25, 2.0]], "range": [4, 16], "predict": [25]}
    st, a = couple(body)
    assert st == 200, a
    ka, kb, _ = inv1_fit(body["kernels"][0]["data"][:3])
    c = a["kernels"][0]["model"]["coefficients"]
    assert close(c[0], ka, 1e-12) and close(c[1], kb, 1e-12), c
    assert a["kernels"][0]["model"]["x_range"] == [4, 16]
    assert [(p["x"], p["in_range"]) for p in a["points"]] == [(4, True), (25, False)]
    p = a["predictions"][0]
    assert close(p["y"], ka + kb / 25, 1e-12) and p["actual"] == 2.0


def stored_couplings():
    q = urllib.parse.urlencode({"application": BT, "system": SP2})
    st, body = S.get("/api/v1/couplings?" + q)
    assert st == 200, body
    return body["couplings"]


def measured_runtime(p):
    q = urllib.parse.urlencode({"application": BT, "system": SP2, "nprocs": p})
    st, body = S.get("/api/v1/runs?" + q)
    assert st == 200 and body["runs"], body
    return sum(r["runtime"] for r in body["runs"]) / len(body["runs"])


@test
def database_form_beats_summation_on_demo_bt():
    st, a = couple({"application": BT, "system": SP2, "x": "nprocs", "range": [1, 49],
                    "predict": [64]})
    assert st == 200, a
    loop = ["compute_rhs", "x_solve", "y_solve", "z_solve", "add"]
    assert a["loop"] == loop, a["loop"]
    assert [k["name"] for k in a["kernels"]] == ["initialize"] + loop + ["verify"]
    assert a["fixed"] == {"class_size": 64}  # every selected run shares it
    p = a["predictions"][0]
    # P = 64 is nearer (in log P) to the couplings measured at 36 than at 16
    assert p["configuration"] == {"class_size": 64, "nprocs": 36}, p["configuration"]
    # the coefficients used are the paper's, from the stored measurements at P = 36
    pairs = {tuple(c["kernels"]): (c["alone"][0], c["alone"][1], c["together"])
             for c in stored_couplings() if c["nprocs"] == 36}
    _, coef = paper_coefficients(pairs, loop)
    conf36 = a["configurations"][p["configuration_index"]]
    for k in loop:
        assert close(conf36["coefficients"][k], coef[k], 1e-13), (k, conf36["coefficients"])
    assert conf36["coefficients"]["initialize"] == conf36["coefficients"]["verify"] == 1.0
    assert close(p["y"], sum(p["kernels"].values()), 1e-12)
    # the kernel fits used P <= 49 only; P = 64 is the measured check
    for k in a["kernels"]:
        assert k["model"]["x_range"] == [4, 49], k["model"]
    actual = measured_runtime(64)
    assert close(p["actual"], actual, 1e-12), (p, actual)
    coupled_err, sum_err = abs(p["error_pct"]), abs(p["summation_error_pct"])
    print(f"     demo BT at P=64 from P<=49: actual {actual:.4f} s, coupled {p['y']:.4f} s "
          f"({p['error_pct']:+.2f} %), summation {p['summation']['y']:.4f} s "
          f"({p['summation_error_pct']:+.2f} %), nearest configuration "
          f"{p['nearest']['y']:.4f} s ({100 * (p['nearest']['y'] - actual) / actual:+.2f} %)")
    assert coupled_err < sum_err, (coupled_err, sum_err)
    assert coupled_err < 1.5 and sum_err > 3, (coupled_err, sum_err)
    assert p["lo"] < p["y"] < p["hi"]
    outside = [pt for pt in a["points"] if not pt["in_range"]]
    assert [pt["x"] for pt in outside] == [64]


def modeled_coefficient(points, x):
    """A coefficient modeled over x (docs/models.md, kernel coupling): the
    least-squares line in log2 x through the configurations' values, held at
    the value of the nearest measured end beyond them."""
    us = [math.log2(px) for px, _ in points]
    cs = [c for _, c in points]
    mu, mc = sum(us) / len(us), sum(cs) / len(cs)
    suu = sum((u - mu) ** 2 for u in us)
    b = sum((u - mu) * (c - mc) for u, c in zip(us, cs)) / suu if suu > 0 else 0
    u = min(max(math.log2(x), min(us)), max(us))
    return mc + b * (u - mu)


@test
def isocoupling_picks_the_nearest_configuration():
    st, a = couple({"application": BT, "system": SP2, "predict": [4, 20, 25, 30, 81]})
    assert st == 200, a
    # |ln P - ln 16| against |ln P - ln 36|: the switch is at sqrt(16 * 36) = 24
    want = [16, 16, 36, 36, 36]
    got = [p["configuration"]["nprocs"] for p in a["predictions"]]
    assert got == want, got
    for p in a["predictions"]:
        conf = a["configurations"][p["configuration_index"]]
        assert conf["configuration"] == p["configuration"]
        # beside the default, the value with the nearest configuration's coefficients
        near = sum(conf["coefficients"][k] *
                   machine_eval(next(x for x in a["kernels"] if x["name"] == k)["model"]
                                ["expression"], p["x"]) for k in p["kernels"])
        assert close(p["nearest"]["y"], near, 1e-9), (p["nearest"], near)
        # the default: every coefficient modeled over nprocs from the configurations
        # measured at class_size 64 (couplings across configurations)
        same = [c for c in a["configurations"] if c["configuration"]["class_size"] == 64]
        assert p["coupling"] == "modeled" and p["nearest"]["configurations"] == len(same), p
        for k, v in p["kernels"].items():
            model = next(x for x in a["kernels"] if x["name"] == k)["model"]
            coef = modeled_coefficient([(c["configuration"]["nprocs"], c["coefficients"][k])
                                        for c in same], p["x"])
            assert close(v, coef * machine_eval(model["expression"], p["x"]), 1e-9), (k, v)
        assert close(p["y"], sum(p["kernels"].values()), 1e-12)
    # the top-level couplings/coefficients are those of the first prediction's
    assert a["configuration"]["nprocs"] == 16
    # couplings stored for another class size are not used for class_size 64
    st, body = S.post("/api/v1/couplings", {"couplings": [
        {"application": BT, "system": SP2, "nprocs": 64, "inputs": {"class_size": 102},
         "kernels": pair, "alone": [1.0, 1.0], "together": 1.0}
        for pair in (["compute_rhs", "x_solve"], ["x_solve", "y_solve"], ["y_solve", "z_solve"],
                     ["z_solve", "add"], ["add", "compute_rhs"])]})
    assert st == 201, body
    st, a = couple({"application": BT, "system": SP2, "predict": [64]})
    assert st == 200, a
    assert a["predictions"][0]["configuration"] == {"class_size": 64, "nprocs": 36}
    assert len(a["configurations"]) == 3
    # no runs were measured at class_size 102, so no model for it
    expect_422({"application": BT, "system": SP2, "fixed": {"class_size": 102}}, "no runs")


@test
def database_kernel_settings_and_explicit_loop():
    st, a = couple({"application": BT, "system": SP2, "kernels": {"x_solve": {"graph": "inv1"},
                    "verify": {"expression": "4/nprocs+0.4"}}, "predict": [64]})
    assert st == 200, a
    km = {k["name"]: k["model"] for k in a["kernels"]}
    assert km["x_solve"]["graph"] == "inv1" and km["compute_rhs"]["graph"] == "auto"
    assert km["verify"]["type"] == "expression"
    assert close(a["predictions"][0]["kernels"]["verify"], 4 / 64 + 0.4, 1e-14)
    # x over an input with nprocs fixed: one class size only, so nothing to fit
    msg = expect_422({"application": BT, "system": SP2, "x": "class_size",
                      "fixed": {"nprocs": 16}}, "kernel initialize")
    assert "distinct" in msg, msg
    # an explicit loop order that the stored pairs do not follow
    expect_422({"application": BT, "system": SP2,
                "loop": ["compute_rhs", "y_solve", "x_solve", "z_solve", "add"]},
               "compute_rhs", "x_solve", "not adjacent", field="couplings")
    expect_422({"application": BT, "system": SP2, "loop": ["compute_rhs", "nosuch"]},
               "loop kernel nosuch", field="loop")
    # a kernel list that leaves a loop kernel out
    expect_422({"application": BT, "system": SP2, "kernels": ["x_solve", "y_solve"]},
               "loop kernel z_solve is not a kernel of the model", field="loop")
    expect_422({"application": "nope", "system": SP2}, "nope", status=404)
    expect_422({"application": BT, "system": SP2, "executable": "bt.B"}, "no runs")


@test
def errors_name_the_kernels():
    def spec(**over):
        body = {"kernels": [dict(k) for k in SPEC["kernels"]],
                "couplings": [dict(c) for c in SPEC["couplings"]], "predict": [81]}
        body.update(over)
        return body
    # pair not adjacent in the loop (A -> B -> C -> D)
    four = spec()
    four["kernels"].append({"name": "D", "loop": True, "data": [[4, 1], [9, 0.6], [16, 0.4]]})
    four["couplings"] = [{"kernels": ["A", "C"], "alone": [1, 1], "together": 2}]
    expect_422(four, "[A, C]", "A and C are not adjacent", field="couplings[0]")
    # a loop kernel without a measured pair on one side
    b = spec()
    del b["couplings"][2]
    expect_422(b, "loop kernel C", "next loop kernel A", "[C, A]", field="couplings")
    # zero, negative alone and together times
    b = spec()
    b["couplings"][1]["alone"] = [0, 3.0]
    expect_422(b, "[B, C]", "alone time of B", field="couplings[1]")
    b = spec()
    b["couplings"][1]["alone"] = [6.0, -3.0]
    expect_422(b, "alone time of C", field="couplings[1]")
    b = spec()
    b["couplings"][0]["together"] = 0
    expect_422(b, "[A, B]", "together time", field="couplings[0]")
    # outside the loop, unknown kernel, too long a chain
    b = spec()
    b["couplings"].append({"kernels": ["init", "A"], "alone": [1, 1], "together": 2})
    expect_422(b, "init is outside the loop", field="couplings[3]")
    b = spec()
    b["couplings"].append({"kernels": ["A", "Z"], "alone": [1, 1], "together": 2})
    expect_422(b, "no kernel named Z")
    b = spec()
    b["couplings"].append({"kernels": ["A", "B", "C", "A"], "alone": [1, 1, 1, 1],
                           "together": 4})
    expect_422(b, "longer than the loop")
    # a kernel without enough points for its model
    b = spec()
    b["kernels"][2] = {"name": "B", "loop": True, "data": [[4, 6.0], [9, 2.9]], "graph": "inv2"}
    expect_422(b, "kernel B", field="kernels[2]")
    b = spec()
    b["kernels"][1]["graph"] = "septic"
    expect_422(b, "kernel A", field="kernels[1].graph")
    b = spec()
    b["kernels"][1] = {"name": "A", "loop": True, "expression": "120/Q"}
    expect_422(b, "kernel A", "Q", field="kernels[1].expression")
    b = spec(predict=[0])
    expect_422(b, "kernel init", "x = 0", field="predict[0]")
    # request shape
    expect_422(spec(colour=1), "colour")
    expect_422({"kernels": []}, "kernels")
    b = spec()
    b["kernels"][3]["name"] = "A"
    expect_422(b, "listed twice")
    b = spec()
    b["couplings"][0]["alone"] = [1]
    expect_422(b, "couplings[0].alone")
    st, resp = S.post("/api/v1/couple", "[1]", token=False)
    assert st == 422, resp
    st, resp = S.post("/api/v1/couple", "{", token=False)
    assert st == 400, resp


@test
def duplicates_are_averaged():
    b = {"kernels": [dict(k) for k in SPEC["kernels"]],
         "couplings": [dict(c) for c in SPEC["couplings"]] +
         [{"kernels": ["B", "A"], "alone": [8.0, 12.0], "together": 17.1}],
         "predict": [81]}
    st, a = couple(b)
    assert st == 200, a
    ab = next(c for c in a["couplings"] if c["kernels"] == ["A", "B"])
    assert ab["measurements"] == 2
    assert close(ab["alone"][0], 11.0, 1e-15) and close(ab["alone"][1], 7.0, 1e-15)
    assert close(ab["value"], 16.0 / 18.0, 1e-15)
    assert "id" not in a


@test
def saved_coupled_model_predicts_and_plots():
    before = S.content()
    body = dict(SPEC, save=True)
    st, a = couple(body)
    assert st == 401, a
    assert S.content() == before
    st, a = S.post("/api/v1/couple", body)
    assert st == 201, a
    mid = a["id"]
    want = a["predictions"][0]
    st, p = S.get(f"/api/v1/models/{mid}/predict?nprocs=81")
    assert st == 200 and p["method"] == "couple", p
    assert close(p["y"], want["y"], 1e-15) and close(p["lo"], want["lo"], 1e-15), (p, want)
    assert close(p["summation"]["y"] if isinstance(p["summation"], dict) else p["summation"],
                 want["summation"]["y"] if isinstance(want["summation"], dict)
                 else want["summation"], 1e-15)
    st, svg, _ = S.request("GET", a["plot"], raw=True, token=None)
    assert st == 200 and b"<title>" in svg
    st, p = S.get(f"/api/v1/models/{mid}/predict?N=3")
    assert st == 422 and p["error"]["field"] == "nprocs", p


S.close()
report()
