"""API tests of uploads and reads (SPEC §4) against the real prophecyd."""
import json
import os
import signal
import subprocess
import threading
import time
import uuid

import prophecy_test as pt
from prophecy_test import PROPHECYD, Server, report, run_doc, test

S = Server("--max-body", "65536")


def expect_error(status, body, want_status, want_code, field=None):
    assert status == want_status, (status, body)
    assert body["error"]["code"] == want_code, body
    assert body["error"]["message"], body
    if field is not None:
        assert body["error"].get("field") == field, body


@test
def upload_single_and_read_back():
    st, body = S.post("/api/v1/runs", run_doc(id="single-1"))
    assert st == 201, body
    assert body["created"] == 1 and body["existing"] == 0
    rid = body["ids"][0]
    st, run = S.get(f"/api/v1/runs/{rid}")
    assert st == 200
    assert run["uid"] == "single-1" and run["nprocs"] == 8 and run["runtime"] == 12.5
    assert run["inputs"] == {"N": 1000} and run["metrics"] == {"mflops": 1596.0}
    assert run["kernels"] == [{"name": "multiply", "time": 11.2, "calls": 1}]
    assert run["submitter"] == "tester"
    assert run["started_at"] == "2026-11-21T10:00:00Z"


# Each configuration's summary (run_configs: runs, timed, sum, min, max, last
# run) equals what its runs say, and every run names its configuration.
CONFIG_MISMATCHES = (
    "SELECT count(*) FROM run_configs c WHERE "
    "c.runs <> (SELECT count(*) FROM runs r WHERE r.config_id = c.id) "
    "OR c.timed <> (SELECT count(r.runtime) FROM runs r WHERE r.config_id = c.id) "
    "OR abs(c.sum_runtime - (SELECT coalesce(sum(r.runtime), 0) FROM runs r "
    "WHERE r.config_id = c.id)) > 1e-9 * (1 + abs(c.sum_runtime)) "
    "OR coalesce(c.min_runtime, -1) <> coalesce((SELECT min(r.runtime) FROM runs r "
    "WHERE r.config_id = c.id), -1) "
    "OR coalesce(c.max_runtime, -1) <> coalesce((SELECT max(r.runtime) FROM runs r "
    "WHERE r.config_id = c.id), -1) "
    "OR c.last_run_id <> (SELECT max(r.id) FROM runs r WHERE r.config_id = c.id)")
APP_NAME_MISMATCHES = (
    "SELECT (SELECT count(*) FROM app_kernels ak WHERE ak.records <> (SELECT count(*) "
    "FROM kernels k JOIN runs r ON r.id = k.run_id WHERE r.app_id = ak.app_id AND "
    "k.name = ak.name) OR ak.first_seq <> (SELECT min(k.seq) FROM kernels k JOIN runs r "
    "ON r.id = k.run_id WHERE r.app_id = ak.app_id AND k.name = ak.name)) + "
    "(SELECT count(*) FROM (SELECT DISTINCT r.app_id, k.name FROM kernels k JOIN runs r "
    "ON r.id = k.run_id) x WHERE NOT EXISTS (SELECT 1 FROM app_kernels ak WHERE "
    "ak.app_id = x.app_id AND ak.name = x.name)) + "
    "(SELECT count(*) FROM (SELECT DISTINCT r.app_id, m.name FROM run_metrics m JOIN runs r "
    "ON r.id = m.run_id) x WHERE NOT EXISTS (SELECT 1 FROM app_metrics am WHERE "
    "am.app_id = x.app_id AND am.name = x.name))")


@test
def batches_keep_every_configuration_summary_exact():
    # Three configurations, runs with and without a runtime, a repeat of a
    # stored id inside a batch; then a second batch and a single run on the
    # same configurations (the PostgreSQL store adds a batch's runs to their
    # configuration once, a single run adds itself).
    def doc(i, nprocs, runtime):
        d = run_doc(id=f"cfgsum-{i}", application="cfgsum", nprocs=nprocs, runtime=runtime)
        d["kernels"] = [{"name": "multiply", "time": 0.1, "calls": 1},
                        {"name": f"k{i % 4}", "time": 0.1, "calls": 1},
                        {"name": "multiply", "time": 0.1, "calls": 1}]
        if runtime is None:
            d["metrics"] = {"bytes": float(i)}
        return d
    first = [doc(i, 2 ** (1 + i % 3), None if i % 5 == 0 else 1.0 + i) for i in range(30)]
    st, body = S.post("/api/v1/runs", {"runs": first})
    assert st == 201 and body["created"] == 30, body
    second = [doc(i, 2 ** (1 + i % 3), 0.5 * i) for i in range(30, 50)] + [first[3]]
    st, body = S.post("/api/v1/runs", {"runs": second})
    assert st == 201 and body["created"] == 20 and body["existing"] == 1, body
    st, body = S.post("/api/v1/runs", doc(50, 4, 0.25))
    assert st == 201, body
    assert int(S.sql(CONFIG_MISMATCHES)[0][0]) == 0
    assert int(S.sql("SELECT count(*) FROM runs WHERE config_id IS NULL")[0][0]) == 0
    # and each application's kernel and metric names (app_kernels: records
    # and first seq; app_metrics), kept by the store on PostgreSQL since
    # migration 16 and by triggers on SQLite
    assert int(S.sql(APP_NAME_MISMATCHES)[0][0]) == 0
    assert [list(map(str, r)) for r in S.sql(
        "SELECT m.name FROM app_metrics m JOIN applications a ON a.id = m.app_id "
        "WHERE a.name = 'cfgsum' ORDER BY m.name")] == [["bytes"], ["mflops"]]
    # nprocs 4 holds runs 1, 4, ..., 49 and run 50: 18 runs, of which 10 and
    # 25 have no runtime; runtimes from 0.25 (run 50) to 29 (run 28).
    rows = S.sql("SELECT c.runs, c.timed, c.min_runtime, c.max_runtime FROM run_configs c "
                 "JOIN applications a ON a.id = c.app_id WHERE a.name = 'cfgsum' "
                 "AND c.nprocs = 4")
    runs, timed, lo, hi = (float(v) for v in rows[0])
    assert (runs, timed, lo, hi) == (18, 16, 0.25, 29.0), rows


@test
def repeat_of_stored_id_stores_nothing():
    st, first = S.post("/api/v1/runs", run_doc(id="idem-1"))
    assert st == 201
    before = S.content()
    st, again = S.post("/api/v1/runs", run_doc(id="idem-1"))
    assert st == 200, again
    assert again["ids"] == first["ids"] and again["existing"] == 1 and again["created"] == 0
    assert S.content() == before


@test
def same_id_with_other_content_is_409():
    S.post("/api/v1/runs", run_doc(id="conflict-1"))
    before = S.content()
    st, body = S.post("/api/v1/runs", run_doc(id="conflict-1", runtime=99.0))
    expect_error(st, body, 409, "conflict", "id")
    assert S.content() == before


@test
def same_id_with_other_inputs_kernels_metrics_or_start_is_409():
    # Issue 12: only application, executable, system, nprocs and runtime used
    # to be compared, so these answered 200 "existing" and dropped the content.
    S.post("/api/v1/runs", run_doc(id="conflict-2"))
    before = S.content()
    for other in ({"inputs": {"N": 2000}}, {"inputs": {"N": 1000, "M": 1}},
                  {"kernels": [{"name": "multiply", "time": 11.3, "calls": 1}]},
                  {"kernels": []}, {"metrics": {"mflops": 1.0}},
                  {"started_at": "2026-11-21T11:00:00Z"}):
        st, body = S.post("/api/v1/runs", run_doc(id="conflict-2", **other))
        expect_error(st, body, 409, "conflict", "id")
        assert "conflict-2" in body["error"]["message"], body
        assert S.content() == before, other
    st, body = S.post("/api/v1/runs", run_doc(id="conflict-2"))
    assert st == 200 and body["runs"][0]["status"] == "existing", body


@test
def batch_is_all_or_nothing():
    good = [run_doc(id=f"batch-{i}", runtime=1.0 + i) for i in range(5)]
    bad = good[:3] + [run_doc(id="batch-bad", nprocs=0)] + good[3:]
    before = S.content()
    st, body = S.post("/api/v1/runs", {"runs": bad})
    assert st == 422, body
    assert body["error"]["field"] == "runs[3].nprocs", body
    assert S.content() == before
    st, body = S.post("/api/v1/runs", {"runs": good})
    assert st == 201 and body["created"] == 5 and len(body["ids"]) == 5, body
    assert body["ids"] == sorted(body["ids"])


@test
def every_rejection_stores_nothing():
    long_name = "x" * 257
    cases = [
        # (body, content type, status, code, field)
        ("{not json", "application/json", 400, "malformed_json", None),
        (json.dumps(run_doc()), "text/plain", 400, "content_type", None),
        ('{"a":1,"a":2}', "application/json", 400, "malformed_json", None),
        ("[1,2]", "application/json", 422, "invalid", None),
        (run_doc(application=None), None, 422, "invalid", "application"),
        (run_doc(application=""), None, 422, "invalid", "application"),
        (run_doc(application=long_name), None, 422, "invalid", "application"),
        (run_doc(executable=5), None, 422, "invalid", "executable"),
        (run_doc(nprocs=0), None, 422, "invalid", "nprocs"),
        (run_doc(nprocs=-3), None, 422, "invalid", "nprocs"),
        (run_doc(nprocs=2.5), None, 422, "invalid", "nprocs"),
        (run_doc(nprocs="8"), None, 422, "invalid", "nprocs"),
        (run_doc(runtime=-1.0), None, 422, "invalid", "runtime"),
        (run_doc(runtime="fast"), None, 422, "invalid", "runtime"),
        (run_doc(inputs={"N": "big"}), None, 422, "invalid", "inputs.N"),
        (run_doc(inputs=[1]), None, 422, "invalid", "inputs"),
        (run_doc(metrics={"": 1}), None, 422, "invalid", "metrics."),
        (run_doc(kernels=[{"name": "k", "time": -0.5}]), None, 422, "invalid",
         "kernels[0].time"),
        (run_doc(kernels=[{"name": "", "time": 1}]), None, 422, "invalid", "kernels[0].name"),
        (run_doc(kernels=[{"name": "k", "time": 1, "calls": -1}]), None, 422, "invalid",
         "kernels[0].calls"),
        (run_doc(kernels=[{"name": "k", "time": 1, "colour": 1}]), None, 422, "invalid",
         "kernels[0].colour"),
        (run_doc(runtme=3), None, 422, "invalid", "runtme"),
        (run_doc(started_at="yesterday"), None, 422, "invalid", "started_at"),
        (run_doc(started_at="2026-11-21T10:00:00+99:99"), None, 422, "invalid", "started_at"),
        (run_doc(started_at="2026-11-21T10:00:00+ab:cd"), None, 422, "invalid", "started_at"),
        (run_doc(started_at="2026-11-21T10:00:00+24:00"), None, 422, "invalid", "started_at"),
        (run_doc(started_at="+026-11-21T10:00:00Z"), None, 422, "invalid", "started_at"),
        ({"runs": []}, None, 422, "invalid", "runs"),
        ({"runs": [run_doc()], "extra": 1}, None, 422, "invalid", None),
        ('{"runtime": 1e999}', "application/json", 400, "malformed_json", None),
    ]
    for body, ctype, status, code, field in cases:
        if isinstance(body, dict):
            body = {k: v for k, v in body.items() if v is not None}
        before = S.content()
        st, resp = S.post("/api/v1/runs", body, ctype=ctype or "application/json")
        assert st == status, (body, st, resp)
        assert resp["error"]["code"] == code, (body, resp)
        if field is not None:
            assert resp["error"].get("field") == field, (body, resp)
        assert S.content() == before, body


@test
def too_many_kernels_is_422():
    big = Server("--max-body", str(4 << 20))
    try:
        doc = run_doc(kernels=[{"name": f"k{i}", "time": 0.001} for i in range(10001)])
        before = big.content()
        st, body = big.post("/api/v1/runs", doc)
        assert st == 422 and body["error"]["field"] == "kernels", body
        assert big.content() == before
        doc["kernels"] = doc["kernels"][:10000]
        st, body = big.post("/api/v1/runs", doc)
        assert st == 201, body
    finally:
        big.close()


@test
def body_over_limit_is_413():
    before = S.content()
    st, body = S.post("/api/v1/runs", run_doc(kernels=[{"name": "k" * 200, "time": 1}] * 400))
    assert st == 413 and body["error"]["code"] == "too_large", body
    assert S.content() == before


@test
def auth_is_required_for_writes_only():
    before = S.content()
    st, body = S.post("/api/v1/runs", run_doc(), token=False)
    expect_error(st, body, 401, "unauthorized")
    st, body = S.post("/api/v1/runs", run_doc(), token="pt_0000")
    assert st == 401, body
    assert S.content() == before
    st, _ = S.get("/api/v1/applications")
    assert st == 200
    # A revoked token stops working at once.
    tok = S.cli("token", "create", "short-lived").strip()
    assert S.post("/api/v1/runs", run_doc(id="rev-1"), token=tok)[0] == 201
    S.cli("token", "revoke", "short-lived")
    assert S.post("/api/v1/runs", run_doc(id="rev-2"), token=tok)[0] == 401
    listing = S.cli("token", "list")
    assert "short-lived" in listing and "revoked" in listing and "tester" in listing
    assert tok not in listing
    # Only the hash is stored.
    assert all(tok not in str(row) for row in S.content()["tokens"])


@test
def unknown_resources_and_methods():
    st, body = S.get("/api/v1/nothing")
    assert st == 404 and body["error"]["code"] == "not_found"
    st, body = S.get("/api/v1/applications/no-such-app")
    assert st == 404 and "application" in body["error"]["message"]
    st, body = S.get("/api/v1/runs/999999")
    assert st == 404
    st, body = S.request("DELETE", "/api/v1/runs")
    assert st == 405 and body["error"]["code"] == "method_not_allowed"


@test
def names_are_created_on_first_use_and_listed():
    S.post("/api/v1/runs", run_doc(application="NAS BT", executable="bt.A", system="IBM SP2",
                                   id="bt-1", inputs={"class": 64}))
    st, apps = S.get("/api/v1/applications")
    names = [a["name"] for a in apps["applications"]]
    assert "NAS BT" in names and "matmul" in names
    st, app = S.get("/api/v1/applications/NAS%20BT")
    assert st == 200 and app["executables"][0]["name"] == "bt.A"
    assert app["systems"][0]["name"] == "IBM SP2"
    st, systems = S.get("/api/v1/systems")
    assert "IBM SP2" in [s["name"] for s in systems["systems"]]


@test
def pagination_is_stable():
    S.post("/api/v1/runs", {"runs": [run_doc(application="pages", runtime=float(i),
                                             id=f"page-{i}") for i in range(25)]})
    seen, after = [], 0
    while True:
        st, body = S.get(f"/api/v1/runs?application=pages&limit=10&after={after}")
        assert st == 200
        seen += [r["runtime"] for r in body["runs"]]
        # A run added mid-way must not shift what the cursor returns.
        if after == 0:
            S.post("/api/v1/runs", run_doc(application="pages", runtime=100.0, id="page-late"))
        if body["next_after"] is None:
            break
        after = body["next_after"]
    assert seen == [float(i) for i in range(25)] + [100.0], seen
    st, body = S.get("/api/v1/runs?application=pages&nprocs=8&limit=1000")
    assert len(body["runs"]) == 26
    st, body = S.get("/api/v1/runs?limit=0")
    assert st == 400 and body["error"]["field"] == "limit"
    st, body = S.get("/api/v1/runs?system=SGI%20Origin2000&executable=matmul_sgi&limit=1000")
    assert st == 200 and all(r["system"] == "SGI Origin2000" for r in body["runs"])


@test
def csv_upload_same_rules():
    csv = ("application,executable,system,nprocs,runtime,N\r\n"
           "csvapp,e1,sysA,4,1.5,100\r\n"
           "\"csv,app\",e1,sysA,8,0.9,200\n")
    st, body = S.post("/api/v1/runs", csv, ctype="text/csv")
    assert st == 201 and body["created"] == 2, body
    st, app = S.get("/api/v1/applications/csv%2Capp")
    assert st == 200, app
    before = S.content()
    for bad, needle in [
        ("application,executable,system,nprocs\nx,y,z,1\n", "runtime"),
        ("application,executable,system,nprocs,runtime\nx,y,z,0,1\n", "nprocs"),
        ("application,executable,system,nprocs,runtime\nx,y,z,1,nan\n", "runtime"),
        ("application,executable,system,nprocs,runtime\nx,y,z,1,inf\n", "runtime"),
        ("application,executable,system,nprocs,runtime\nx,y,z,1,-2\n", "negative"),
        ("application,executable,system,nprocs,runtime\nx,y,z,1\n", "fields"),
        ("application,executable,system,nprocs,runtime\n\"x,y,z,1,2\n", "unterminated"),
        (b"application,executable,system,nprocs,runtime\n\xff\xfe,y,z,1,2\n", "UTF-8"),
        # Issue 12: a NUL byte used to cut the field short silently.
        (b"application,executable,system,nprocs,runtime\nx,y\x00tail,z,1,2\n",
         "line 2, column 2: a NUL byte"),
        (b"application,executable,system,nprocs,runtime\nx,\"y\x00\",z,1,2\n",
         "line 2, column 2: a NUL byte"),
        ("application,executable,system,nprocs,runtime,started_at\n"
         "x,y,z,1,2,2026-11-21T10:00:00+99:99\n", "ISO 8601"),
    ]:
        st, body = S.post("/api/v1/runs", bad, ctype="text/csv")
        assert st == 422, (bad, body)
        assert needle in body["error"]["message"], (bad, body)
    assert S.content() == before


@test
def export_round_trips_through_import():
    st, raw, resp = S.request("GET", "/api/v1/export?format=json", token=None, raw=True)
    assert st == 200
    doc = json.loads(raw)
    n = len(doc["runs"])
    assert n > 30
    st, raw, _ = S.request("GET", "/api/v1/export?format=csv", token=None, raw=True)
    lines = raw.decode().strip().split("\r\n")
    assert lines[0].startswith("id,application,executable,system,nprocs,runtime,started_at")
    assert len(lines) == n + 1
    path = os.path.join(S.tmp, "export.json")
    with open(path, "wb") as f:
        f.write(json.dumps(doc).encode())
    other = os.path.join(S.tmp, "other.db")
    out = subprocess.run([PROPHECYD, "import", path, "--db", other], capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    assert f"imported {n} runs" in out.stdout, out.stdout
    # Importing the same file again stores nothing new: runs with a client id
    # keep it, the others get a uid derived from their content (SPEC §12).
    out = subprocess.run([PROPHECYD, "import", path, "--db", other], capture_output=True,
                         text=True)
    assert f"imported 0 runs ({n} already stored)" in out.stdout, out.stdout


@test
def catalog_writes_and_errors():
    st, body = S.post("/api/v1/systems/IBM%20SP2/benchmarks",
                      {"benchmarks": [{"name": "MPISR", "args": {"L": 1024, "P": 2},
                                       "time": 7.8e-5, "stat": "min"},
                                      {"name": "ADDM", "time": 4.83e-8}]})
    assert st == 201 and body["stored"] == 2, body
    for what in ("benchmarks", "parameters"):
        st, body = S.get(f"/api/v1/systems/no-such-system/{what}")
        assert st == 404 and "no-such-system" in body["error"]["message"], body
    st, body = S.get("/api/v1/systems/IBM%20SP2/benchmarks?name=MPISR")
    assert st == 200 and body["benchmarks"][0]["args"] == {"L": 1024, "P": 2}
    before = S.content()
    for bad, field in [({"benchmarks": [{"name": "MPISR", "time": -1}]}, "benchmarks[0].time"),
                       ({"benchmarks": [{"name": "9bad", "time": 1}]}, "benchmarks[0].name"),
                       ({"benchmarks": [{"name": "X", "time": 1, "args": {"L": "a"}}]},
                        "benchmarks[0].args")]:
        st, body = S.post("/api/v1/systems/IBM%20SP2/benchmarks", bad)
        assert st == 422 and body["error"]["field"] == field, body
    assert S.content() == before
    st, body = S.post("/api/v1/systems/IBM%20SP2/parameters",
                      {"parameters": {"ADDM": "4.83e-8", "MPISR(L)": "0.001*(15.94+0.0608*L)",
                                      "MPIBC(L)": "log2(P)*0.001*(15.94+0.0608*L)"},
                       "source": "test"})
    assert st == 201, body
    st, body = S.get("/api/v1/systems/IBM%20SP2/parameters")
    sigs = {p["signature"]: p["expression"] for p in body["parameters"]}
    assert sigs["MPISR(L)"] == "0.001*(15.94+0.0608*L)" and sigs["ADDM"] == "4.83e-8"
    before = S.content()
    st, body = S.post("/api/v1/systems/IBM%20SP2/parameters",
                      {"parameters": {"MPISR(L)": "0.001*(15.94+"}})
    assert st == 422 and "column" in body["error"]["message"], body
    st, body = S.post("/api/v1/systems/IBM%20SP2/parameters", {"parameters": {"M(": "1"}})
    assert st == 422, body
    assert S.content() == before
    st, body = S.post("/api/v1/templates",
                      {"name": "mm", "application": "matmul",
                       "expression": "ADDM*N^3/(P-1)+2*N*MPISR(L)/(P-1)+N*MPIBC(L)"})
    assert st == 201, body
    st, body = S.get("/api/v1/templates?application=matmul")
    assert [t["name"] for t in body["templates"]] == ["mm"]
    st, body = S.post("/api/v1/templates", {"name": "bad", "application": "matmul",
                                            "expression": "2*(3+4"})
    assert st == 422 and body["error"]["message"].startswith("column 7"), body
    st, body = S.post("/api/v1/couplings",
                      {"application": "NAS BT", "system": "IBM SP2", "nprocs": 16,
                       "kernels": ["x_solve", "y_solve"], "alone": [10.0, 6.0],
                       "together": 14.9})
    assert st == 201 and body["stored"] == 1, body
    st, body = S.post("/api/v1/couplings",
                      {"application": "NAS BT", "system": "IBM SP2", "nprocs": 16,
                       "kernels": ["x_solve", "y_solve"], "alone": [10.0, 0],
                       "together": 14.9})
    assert st == 422 and body["error"]["field"] == "alone", body
    st, body = S.get("/api/v1/couplings?application=NAS%20BT")
    assert body["couplings"][0]["kernels"] == ["x_solve", "y_solve"]
    st, body = S.request("PUT", "/api/v1/systems/IBM%20SP2",
                         {"processor": "POWER2", "cores": 128, "metadata": {"site": "ANL"}})
    assert st == 200, body
    st, body = S.get("/api/v1/systems/IBM%20SP2")
    assert body["processor"] == "POWER2" and body["cores"] == 128
    assert body["metadata"] == {"site": "ANL"}


@test
def concurrent_uploaders_all_succeed():
    errors, per = [], 40
    def worker(w):
        for i in range(per):
            st, body = S.post("/api/v1/runs", run_doc(application="concurrent",
                                                        id=f"conc-{w}-{i}", runtime=float(i)))
            if st != 201:
                errors.append((st, body))
    threads = [threading.Thread(target=worker, args=(w,)) for w in range(24)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert not errors, errors[:3]
    st, app = S.get("/api/v1/applications/concurrent")
    assert app["runs"] == 24 * per


@test
def concurrent_repeats_and_conflicts_answer_as_one_by_one():
    """Uploads that queue together are stored together (one insert for the
    runs of several uploads; on PostgreSQL two writers at once): each still
    gets the answer it would get alone. 16 clients each post 12 runs of their
    own, the same run "shared-K" (identical: one is created, the others find
    it), and a run "clash-K" of their own runtime (one wins, the others
    are 409 and store nothing)."""
    lock, answers = threading.Lock(), []

    def worker(w):
        for i in range(12):
            k = i % 3
            for doc in (run_doc(application="groups", id=f"own-{w}-{i}", runtime=1.0 + w),
                        run_doc(application="groups", id=f"shared-{k}", runtime=50.0 + k),
                        run_doc(application="groups", id=f"clash-{i}", runtime=100.0 + w)):
                st, body = S.post("/api/v1/runs", doc)
                with lock:
                    answers.append((doc["id"], doc["runtime"], st, body))
    threads = [threading.Thread(target=worker, args=(w,)) for w in range(16)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    created, ids = {}, set()
    for uid, runtime, st, body in answers:
        if uid.startswith("clash-") and st == 409:
            assert body["error"]["code"] == "conflict" and uid in body["error"]["message"], body
            continue
        assert st in (200, 201), (uid, st, body)
        run = body["runs"][0]
        assert run["uid"] == uid and body["created"] == (st == 201), body
        assert run["status"] == ("created" if st == 201 else "existing"), body
        if st == 201:
            assert uid not in created, f"{uid} created twice"
            assert run["id"] not in ids
            created[uid] = (run["id"], runtime)
            ids.add(run["id"])
    # every run stored once: 16 x 12 own, 3 shared, 12 clashes (one winner each)
    assert len(created) == 16 * 12 + 3 + 12, len(created)
    st, app = S.get("/api/v1/applications/groups")
    assert app["runs"] == len(created), app["runs"]
    # a repeat's answer names the id that was created; what is stored is the
    # content of the upload that got 201
    for uid, runtime, st, body in answers:
        if st == 200:
            assert body["runs"][0]["id"] == created[uid][0], (uid, body)
    for uid in ("shared-0", "clash-0", "clash-11", "own-15-11"):
        st, run = S.get(f"/api/v1/runs/{created[uid][0]}")
        assert st == 200 and run["runtime"] == created[uid][1], (uid, run)


@test
@pt.sqlite_only("one server per SQLite file; servers share a PostgreSQL database by design")
def second_server_on_same_db_refuses():
    out = subprocess.run([PROPHECYD, "serve", "--db", S.db,
                          "--listen", "127.0.0.1:0"], capture_output=True, text=True, timeout=10)
    assert out.returncode != 0
    assert "already serving" in out.stderr, out.stderr


@test
def acknowledged_uploads_survive_kill_9():
    k = Server()
    acked, stop = [], threading.Event()
    def worker(w):
        i = 0
        while not stop.is_set():
            uid = f"k9-{w}-{i}"
            try:
                st, _ = k.post("/api/v1/runs", run_doc(id=uid, runtime=float(i)))
            except Exception:
                return
            if st == 201:
                acked.append(uid)
            i += 1
    threads = [threading.Thread(target=worker, args=(w,)) for w in range(8)]
    [t.start() for t in threads]
    time.sleep(1.5)
    k.kill(signal.SIGKILL)
    stop.set()
    [t.join() for t in threads]
    assert len(acked) > 50, len(acked)
    k.start()
    stored = {row[1] for row in k.content()["runs"]}
    missing = [u for u in acked if u not in stored]
    assert not missing, missing[:5]
    k.close()


@test
def sigterm_shuts_down_cleanly():
    k = Server()
    assert k.post("/api/v1/runs", run_doc(id="term-1"))[0] == 201
    assert k.kill(signal.SIGTERM) == 0
    assert k.is_pg() or os.path.exists(k.db)
    k.start()
    assert k.get("/api/v1/runs?limit=5")[1]["runs"][0]["uid"] == "term-1"
    k.close()


@test
def sigterm_with_uploads_waiting_for_the_writer_finishes_them():
    # Eight clients keep batches of 300 runs queued for the writer; SIGTERM
    # with no grace used to stop libmicrohttpd with connections suspended,
    # which aborts the process. Every upload waiting for the writer must
    # finish and be answered, requests arriving meanwhile get 503, the exit
    # status is 0 and every acknowledged run is stored.
    k = Server("--stop-grace", "0")
    acked, answers, stop = [], [], threading.Event()

    def worker(w):
        i = 0
        while not stop.is_set():
            batch = [run_doc(id=f"grace-{w}-{i}-{j}", runtime=1.0 + j) for j in range(300)]
            try:
                st, body = k.post("/api/v1/runs", {"runs": batch})
            except Exception:
                return
            answers.append(st)
            if st == 201:
                acked.extend(r["id"] for r in batch)
            elif st == 503:
                assert body["error"]["code"] == "shutting_down", body
            i += 1
    threads = [threading.Thread(target=worker, args=(w,)) for w in range(8)]
    [t.start() for t in threads]
    time.sleep(2.0)
    assert k.kill(signal.SIGTERM) == 0
    stop.set()
    [t.join() for t in threads]
    assert set(answers) <= {201, 503}, set(answers)
    assert len(acked) >= 300, len(acked)
    k.start()
    stored = {row[1] for row in k.content()["runs"]}
    missing = [u for u in acked if u not in stored]
    assert not missing, missing[:5]
    k.close()


@test
def protect_reads_needs_a_token():
    k = Server("--protect-reads")
    try:
        st, body = k.get("/api/v1/applications")
        assert st == 401 and body["error"]["code"] == "unauthorized", body
        st, body = k.get("/api/v1/applications", token=k.token)
        assert st == 200, body
    finally:
        k.close()


S.close()
report()
