#!/usr/bin/env python3
"""Records the answers of a fixed set of requests, to check that a change
behind the store (db/) leaves every answer byte-identical on both engines.

    seam_record.py OUT.json            SQLite file
    PROPHECY_TEST_PG=STATE seam_record.py OUT.json   PostgreSQL (cluster.py)
    seam_record.py --diff A.json B.json

The server loads the example data set (--demo), then takes a fixed sequence
of writes (runs, a watch, a model, a catalog change) and reads (JSON API,
export, pages). Only what changes from one recording to the next on the same
code is masked: times of today and form tokens. Not a ctest test: a tool
for before/after comparisons of store refactors."""
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "api"))


def mask(text):
    today = time.strftime("%Y-%m-%d", time.gmtime())
    text = re.sub(today + r"[T ]\d\d:\d\d:\d\d(\.\d+)?(Z|\+00(:00)?)?", "<now>", text)
    text = re.sub(r'name="csrf" value="[^"]*"', 'name="csrf" value="<csrf>"', text)
    text = re.sub(r"\d+(\.\d+)? ms\b", "<ms> ms", text)
    text = re.sub(r"value=\"web-[0-9a-f]+\"", "value=\"web-<id>\"", text)
    return text


def record(out):
    import prophecy_test as pt
    s = pt.Server("--demo")
    answers = []

    def ask(method, path, body=None):
        st, data, _ = s.request(method, path, body, raw=True)
        if isinstance(data, (bytes, bytearray)):
            data = data.decode("utf-8", "replace")
        if not isinstance(data, str):
            data = json.dumps(data, sort_keys=False)
        answers.append({"req": f"{method} {path}", "body": body, "status": st,
                        "answer": mask(data)})
        return st, data

    ask("GET", "/api/v1/applications")
    _, apps = ask("GET", "/api/v1/applications")
    apps = [a["name"] for a in json.loads(apps)["applications"]]
    ask("GET", "/api/v1/systems")
    _, systems = ask("GET", "/api/v1/systems")
    systems = [x["name"] for x in json.loads(systems)["systems"]]
    from urllib.parse import quote
    # writes: runs in new and existing configurations, tags, provenance
    for i, n in enumerate([1, 2, 4, 8, 16, 8, 4]):
        ask("POST", "/api/v1/runs", pt.run_doc(
            application="seam", nprocs=n, inputs={"N": 1000 * (i % 3 + 1), "eps": 1e-05,
                                                   "L": 1024.0, "k": 3},
            runtime=100.0 / n + i * 0.25, commit=f"c{i % 2}", branch="main",
            tags={"host": f"h{i % 2}"},
            kernels=[{"name": "a", "time": 10.0 / n, "calls": 2},
                     {"name": "b", "time": 3.5 + i, "calls": 1}],
            metrics={"mflops": 1000.0 + i}, started_at=f"2026-11-2{i}T10:00:00Z"))
    ask("POST", "/api/v1/runs", {"runs": [pt.run_doc(application="seam", nprocs=32, inputs={"N": 500},
                                            runtime=r, started_at="2026-10-01T00:00:00Z")
                                 for r in (1.0, 2.0, 3.0)]})
    ask("POST", "/api/v1/runs", pt.run_doc(application="seam", nprocs=-1))
    ask("POST", "/api/v1/systems/SGI%20Origin2000/benchmarks",
        {"benchmarks": [{"name": "MPISR", "args": {"L": 8}, "time": 1.5e-06}]})
    ask("POST", "/api/v1/systems/SGI%20Origin2000/parameters",
        {"parameters": {"alpha": "1.5e-6", "beta": "2e-9"}})
    ask("POST", "/api/v1/templates", {"name": "seamt", "application": "seam",
                                      "expression": "a*N + b", "description": "x"})
    ask("POST", "/api/v1/fit", {"application": "seam", "system": "SGI Origin2000",
                                "executable": "matmul_sgi", "x": "nprocs", "save": True,
                                "fixed": {"N": 1000}})
    ask("POST", "/api/v1/watches", {"application": "seam", "system": "SGI Origin2000", "y": "runtime",
                               "detector": {"test": "zscore", "threshold": 3, "window": 5}})
    for i in range(5):
        ask("POST", "/api/v1/runs", pt.run_doc(application="seam", nprocs=8,
                                               inputs={"N": 1000}, runtime=12.5 + (i == 4) * 40,
                                               started_at=f"2026-11-28T1{i}:00:00Z"))
    for a in apps + ["seam"]:
        ask("GET", f"/api/v1/applications/{quote(a)}")
        ask("GET", f"/api/v1/runs?application={quote(a)}&limit=1000")
        ask("GET", f"/api/v1/templates?application={quote(a)}")
        ask("GET", f"/applications/{quote(a)}")
        ask("GET", f"/applications/{quote(a)}?sort=runtime&dir=desc")
    for x in systems:
        ask("GET", f"/api/v1/systems/{quote(x)}")
        ask("GET", f"/api/v1/systems/{quote(x)}/benchmarks")
        ask("GET", f"/api/v1/systems/{quote(x)}/parameters")
        ask("GET", f"/systems/{quote(x)}")
    ask("GET", "/api/v1/runs?limit=1000")
    ask("GET", "/api/v1/runs?limit=5&tag.host=h1")
    ask("GET", "/api/v1/runs?application=seam&commit=c1&branch=main")
    _, runs = ask("GET", "/api/v1/runs?limit=50")
    for r in json.loads(runs)["runs"][:20]:
        ask("GET", f"/api/v1/runs/{r['id']}")
        ask("GET", f"/runs/{r['id']}")
    ask("GET", "/api/v1/runs/999999")
    ask("GET", "/api/v1/models")
    _, models = ask("GET", "/api/v1/models")
    for m in json.loads(models)["models"]:
        ask("GET", f"/api/v1/models/{m['id']}")
        ask("GET", f"/api/v1/models/{m['id']}/ledger")
        ask("GET", f"/models/{m['id']}")
    ask("GET", "/api/v1/templates")
    ask("GET", "/api/v1/couplings")
    ask("GET", "/api/v1/watches")
    ask("GET", "/api/v1/alerts")
    ask("GET", "/api/v1/alerts?state=open")
    for y in ("runtime", "kernel:a", "metric:mflops"):
        ask("GET", f"/api/v1/series?application=seam&system=SGI%20Origin2000&nprocs=8&"
                   f"input.N=1000&input.eps=1e-05&input.L=1024&input.k=3&y={quote(y)}")
        ask("GET", f"/history?application=seam&system=SGI%20Origin2000&nprocs=32&input.N=500&y={quote(y)}")
    ask("GET", "/api/v1/compare?application=seam&a=commit:c0&b=commit:c1")
    ask("GET", "/api/v1/compare?application=seam&a=branch:main&b=commit:c1")
    for f in ("json", "csv"):
        ask("GET", f"/api/v1/export?format={f}")
    for p in ("/", "/applications", "/systems", "/models", "/alerts", "/history",
              "/model", "/model/fit", "/model/fit?application=seam",
              "/model/parameterize", "/model/couple", "/upload"):
        ask("GET", p)
    _, runs = ask("GET", "/api/v1/runs?application=seam&limit=2")
    rid = json.loads(runs)["runs"][0]["id"]
    ask("DELETE", f"/api/v1/runs/{rid}")
    ask("GET", "/api/v1/applications/seam")
    ask("GET", "/api/v1/watches")
    s.close()
    with open(out, "w") as f:
        json.dump(answers, f, indent=1)
    print(f"{len(answers)} answers recorded in {out}")


def diff(a, b):
    A, B = json.load(open(a)), json.load(open(b))
    bad = 0
    if len(A) != len(B):
        print(f"{len(A)} vs {len(B)} answers")
        bad += 1
    for x, y in zip(A, B):
        if x != y:
            bad += 1
            print("DIFF", x["req"], x["status"], y["status"])
            if x["req"] != y["req"]:
                print("  requests differ:", y["req"])
                continue
            xa, ya = x["answer"], y["answer"]
            i = next((k for k in range(min(len(xa), len(ya))) if xa[k] != ya[k]),
                     min(len(xa), len(ya)))
            print("  A:", xa[max(0, i - 80):i + 120])
            print("  B:", ya[max(0, i - 80):i + 120])
    print(f"{len(A)} answers, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1] == "--diff":
        sys.exit(diff(sys.argv[2], sys.argv[3]))
    record(sys.argv[1])
