"""Catalog writes never create the application or system they name (issue 12):
templates, couplings, benchmarks and parameters naming an unknown one answer
404 naming it and store nothing; runs still create on first use (SPEC §4)."""
from prophecy_test import Server, report, run_doc, test

S = Server()


def expect_404(st, body, name):
    assert st == 404, (st, body)
    assert body["error"]["code"] == "not_found", body
    assert name in body["error"]["message"], body


@test
def unknown_system_or_application_is_404_and_nothing_is_created():
    before = S.content()
    st, body = S.post("/api/v1/systems/ghost%20box/benchmarks",
                      {"benchmarks": [{"name": "MPISR", "args": {"L": 8}, "time": 1e-5}]})
    expect_404(st, body, "ghost box")
    st, body = S.post("/api/v1/systems/ghost%20box/parameters",
                      {"parameters": {"ADDM": "4.83e-8"}})
    expect_404(st, body, "ghost box")
    st, body = S.post("/api/v1/templates", {"name": "t1", "application": "ghost app",
                                            "expression": "N/P"})
    expect_404(st, body, "ghost app")
    assert body["error"].get("field") == "application", body
    st, body = S.post("/api/v1/couplings", {
        "application": "ghost app", "system": "ghost box", "nprocs": 4,
        "inputs": {"N": 1}, "kernels": ["a", "b"], "alone": [1.0, 2.0], "together": 2.5})
    expect_404(st, body, "ghost app")
    assert S.content() == before
    st, body = S.get("/api/v1/systems/ghost%20box")
    assert st == 404, body


@test
def known_names_work_and_runs_create_on_first_use():
    st, body = S.post("/api/v1/runs", run_doc(application="real app", system="real box"))
    assert st == 201, body
    st, body = S.post("/api/v1/systems/real%20box/parameters",
                      {"parameters": {"ADDM": "4.83e-8"}})
    assert st in (200, 201), body
    st, body = S.post("/api/v1/templates", {"name": "t2", "application": "real app",
                                            "expression": "N/P"})
    assert st in (200, 201), body
    st, body = S.post("/api/v1/couplings", {
        "application": "real app", "system": "real box", "nprocs": 4,
        "inputs": {"N": 1}, "kernels": ["a", "b"], "alone": [1.0, 2.0], "together": 2.5})
    assert st in (200, 201), body
    st, body = S.post("/api/v1/couplings", {
        "application": "real app", "system": "ghost box", "nprocs": 4,
        "inputs": {"N": 1}, "kernels": ["a", "b"], "alone": [1.0, 2.0], "together": 2.5})
    expect_404(st, body, "ghost box")
    assert body["error"].get("field") == "system", body


S.close()
report()
