"""API regression tests for the modeling methods (issue 11 item 6, issue 12):
anything storable is modelable (long input and kernel names), and the
requests that used to slip through or crash are clear 422s."""
import urllib.parse

from prophecy_test import Server, report, run_doc, test

S = Server("--demo")
SP2 = "IBM SP2 (example)"


def err(status, body, code="invalid", field=None):
    assert status == 422, (status, body)
    assert body["error"]["code"] == code, body
    if field is not None:
        assert body["error"].get("field") == field, body
    return body["error"]


@test
def long_input_name_works_as_x_and_long_kernel_name_as_y():
    x = "n" * 100
    kernel = "k" * 250
    for i, n in enumerate([100, 200, 300, 400]):
        st, body = S.post("/api/v1/runs", run_doc(
            id=f"long-{i}", application="long names", system="long box",
            inputs={x: n}, runtime=0.5 + 0.01 * n,
            kernels=[{"name": kernel, "time": 0.001 * n, "calls": 1}]))
        assert st == 201, body
    st, body = S.post("/api/v1/fit", {"application": "long names", "system": "long box",
                                      "x": x, "fixed": {"nprocs": 8}, "graph": "linear",
                                      "predict": [500]}, token=False)
    assert st == 200, body
    assert body["vars"] == [x] and abs(body["predictions"][0]["y"] - 5.5) < 1e-9, body
    st, body = S.post("/api/v1/fit", {"application": "long names", "system": "long box",
                                      "x": x, "fixed": {"nprocs": 8}, "graph": "linear",
                                      "y": "kernel:" + kernel, "predict": [500]},
                      token=False)
    assert st == 200, body
    assert body["y"] == "kernel:" + kernel and abs(body["predictions"][0]["y"] - 0.5) < 1e-9
    # One byte more than any name may have is still refused, naming the field.
    st, body = S.post("/api/v1/fit", {"application": "long names", "system": "long box",
                                      "x": "n" * 257}, token=False)
    err(st, body, field="x")


@test
def overflowing_residuals_are_a_clear_422():
    st, body = S.post("/api/v1/fit", {"data": [[1, 1e154], [2, -1e154], [3, 1e154],
                                               [4, -1e154]], "graph": "linear"},
                      token=False)
    e = err(st, body, "degenerate")
    assert "overflow" in e["message"], e


@test
def inline_x_must_be_a_name_not_an_expression():
    data = [[1, 2], [2, 4], [3, 6.5]]
    for bad in ["N+1", "2*N", "N P", "x)"]:
        st, body = S.post("/api/v1/fit", {"x": bad, "data": data, "graph": "linear"},
                          token=False)
        err(st, body, field="x")
        st, body = S.post("/api/v1/fit", {"vars": ["N", bad], "data": [[1, 1, 2]]},
                          token=False)
        err(st, body, field="vars")
    st, body = S.post("/api/v1/fit", {"x": "N_1", "data": data, "graph": "linear"},
                      token=False)
    assert st == 200 and body["vars"] == ["N_1"], body


@test
def predictions_take_decimal_numbers_only():
    st, body = S.post("/api/v1/fit", {"x": "N", "data": [[1, 2], [2, 4], [3, 6.5]],
                                      "graph": "linear", "save": True})
    assert st == 201, body
    mid = body["id"]
    st, p = S.get(f"/api/v1/models/{mid}/predict?N=16")
    assert st == 200, p
    for bad in ["0x10", "0X10", "inf", "nan", "1e", "+", ".", "1,5", " 16", "16 ", "0x1p4"]:
        st, p = S.get(f"/api/v1/models/{mid}/predict?N=" + urllib.parse.quote(bad))
        err(st, p, field="N")
    for good, want in [("16.0", 16.0), ("1.6e1", 16.0), ("-2", -2.0), ("+16", 16.0),
                       (".5", 0.5), ("5.", 5.0)]:
        st, p = S.get(f"/api/v1/models/{mid}/predict?N=" + urllib.parse.quote(good))
        assert st == 200 and p["x"]["N"] == want, (good, p)


@test
def one_call_predictions_take_decimal_numbers_only():
    base = {"application": "matmul (example)", "system": "SGI Origin2000 (example)",
            "executable": "matmul_sgi", "x": "N", "nprocs": 8, "graph": "cubic"}
    st, p = S.get("/api/v1/predict?" + urllib.parse.urlencode(
        dict(base, N=1200, range="100,1000")))
    assert st == 200, p
    for bad in [{"N": "0x4b0"}, {"N": "1200", "range": "0x64,1000"},
                {"N": "1200", "range": "100,inf"}, {"nprocs": "0x8", "N": "1200"}]:
        st, p = S.get("/api/v1/predict?" + urllib.parse.urlencode(dict(base, **bad)))
        assert st == 422, (bad, p)


@test
def saved_parameterization_takes_nprocs_for_p():
    st, body = S.post("/api/v1/parameterize",
                      {"template": "matmul master/slave", "system": SP2,
                       "vars": {"N": [100, 2000], "P": 8, "L": 1024}, "save": True})
    assert st == 201, body
    mid = body["id"]
    st, p8 = S.get(f"/api/v1/models/{mid}/predict?N=1000")
    assert st == 200, p8
    st, p16 = S.get(f"/api/v1/models/{mid}/predict?N=1000&P=16")
    assert st == 200 and p16["y"] != p8["y"], p16
    st, n16 = S.get(f"/api/v1/models/{mid}/predict?N=1000&nprocs=16")
    assert st == 200 and n16["y"] == p16["y"] and n16["x"]["P"] == 16, n16
    st, p = S.get(f"/api/v1/models/{mid}/predict?N=1000&nprocs=16&P=8")
    err(st, p, field="nprocs")
    st, p = S.get(f"/api/v1/models/{mid}/predict?P=16")
    err(st, p, field="N")


report()
