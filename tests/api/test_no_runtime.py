"""Runs without a runtime (SPEC §16): a file or document with metrics or
kernels but no time stores its runs with `runtime` absent (null in JSON, an
empty CSV cell, "—" on pages); fits, series and watches of `runtime` skip
them, while `metric:NAME` and `kernel:NAME` model them."""
import re
import urllib.parse

from prophecy_test import Server, report, run_doc, test

S = Server()
SYS = "SGI Origin2000"


def untimed(app, n, flops, **over):
    d = run_doc(application=app, executable="x", inputs={"N": n},
                kernels=[{"name": "k", "time": flops / 1000, "calls": 1}],
                metrics={"flops": flops}, id=f"{app}-{n}")
    del d["runtime"]
    d.update(over)
    return d


def expect_error(st, body, status, field):
    assert st == status, (st, body)
    assert body["error"]["field"] == field, body
    assert body["error"]["message"], body


@test
def absent_and_null_runtime_store_as_null():
    st, b = S.post("/api/v1/runs", {"runs": [untimed("nort", 10, 100.0),
                                             untimed("nort", 20, 200.0, runtime=None)]})
    assert st == 201, b
    for rid in b["ids"]:
        st, run = S.get(f"/api/v1/runs/{rid}")
        assert st == 200 and run["runtime"] is None, run
        assert run["metrics"]["flops"] in (100.0, 200.0) and run["kernels"][0]["name"] == "k"
    rows = S.sql("SELECT count(*) FROM runs WHERE runtime IS NULL")
    assert int(rows[0][0]) == 2, rows
    # the same document again is the same run (an absent runtime equals itself)
    st, again = S.post("/api/v1/runs", untimed("nort", 10, 100.0))
    assert st == 200 and again["existing"] == 1, again
    # a runtime now differs from none: a conflict
    st, c = S.post("/api/v1/runs", untimed("nort", 10, 100.0, runtime=1.0))
    expect_error(st, c, 409, "id")


@test
def a_run_with_nothing_measured_is_refused():
    before = S.content()
    for doc in (untimed("bare", 1, 1.0, kernels=[], metrics={}),
                untimed("bare", 1, 1.0, kernels=[], metrics={}, runtime=None)):
        st, b = S.post("/api/v1/runs", doc)
        expect_error(st, b, 422, "runtime")
        assert "kernel or a metric" in b["error"]["message"], b
    st, b = S.post("/api/v1/runs", untimed("bare", 1, 1.0, runtime="fast"))
    expect_error(st, b, 422, "runtime")
    assert S.content() == before


@test
def csv_export_writes_an_empty_cell_and_reads_it_back():
    S.post("/api/v1/runs", untimed("csvnort", 5, 50.0))
    st, out, _ = S.request("GET", "/api/v1/export?format=csv",
                           token=None, raw=True)
    assert st == 200
    lines = [l for l in out.decode().split("\r\n") if l]
    head = lines[0].split(",")
    row = [l for l in lines[1:] if ",csvnort," in l][0].split(",")
    assert row[head.index("runtime")] == "", row
    # the file imports again into another application: still no runtime
    row[head.index("id")] = ""
    row[head.index("application")] = "csvnort2"
    text = lines[0] + "\r\n" + ",".join(row) + "\r\n"
    st, b = S.request("POST", "/api/v1/runs", text, ctype="text/csv")
    assert st == 201, b
    st, run = S.get(f"/api/v1/runs/{b['ids'][0]}")
    assert run["runtime"] is None and run["metrics"] == {"flops": 50.0}, run
    # an empty runtime with no metric is refused, naming the line
    before = S.content()
    bad = "application,executable,system,nprocs,runtime\r\ncsvbad,x,s,1,\r\n"
    st, b = S.request("POST", "/api/v1/runs", bad, ctype="text/csv")
    assert st == 422 and b["error"]["field"] == "line 2: runtime", b
    assert S.content() == before


@test
def fits_of_metric_and_kernel_work_runtime_is_a_clear_422():
    runs = [untimed("fitnort", n, 3.0 * n + 5.0) for n in (10, 20, 40, 80)]
    st, b = S.post("/api/v1/runs", {"runs": runs})
    assert st == 201, b
    base = {"application": "fitnort", "system": SYS, "x": "N", "graph": "linear"}
    st, m = S.post("/api/v1/fit", dict(base, y="metric:flops"), token=False)
    assert st == 200, m
    c = m["model"]["coefficients"]
    assert abs(c[0] - 5.0) < 1e-9 and abs(c[1] - 3.0) < 1e-9, c
    st, k = S.post("/api/v1/fit", dict(base, y="kernel:k"), token=False)
    assert st == 200, k
    c = k["model"]["coefficients"]
    assert abs(c[0] - 0.005) < 1e-12 and abs(c[1] - 0.003) < 1e-12, c
    before = S.content()
    st, e = S.post("/api/v1/fit", dict(base, y="runtime"), token=False)
    expect_error(st, e, 422, "y")
    msg = e["error"]["message"]
    assert "runtime" in msg and "metric:NAME" in msg and "kernel:NAME" in msg, msg
    assert "4 matching runs" in msg, msg
    assert S.content() == before


@test
def series_and_watches_of_runtime_skip_runs_without_one():
    app = "sernort"
    timed = [run_doc(application=app, executable="x", inputs={"N": 1}, runtime=rt,
                     kernels=[], metrics={"flops": 1.0}, id=f"{app}-t{i}",
                     started_at=f"2026-01-0{i + 1}T00:00:00Z")
             for i, rt in enumerate((10.0, 10.2, 9.8, 10.1, 9.9))]
    st, b = S.post("/api/v1/runs", {"runs": timed})
    assert st == 201, b
    st, w = S.post("/api/v1/watches", {"application": app, "system": SYS, "y": "runtime",
                                       "detector": {"test": "zscore", "threshold": 3,
                                                    "window": 5}})
    assert st == 201, w
    st, b = S.post("/api/v1/runs", untimed(app, 1, 2.0, started_at="2026-01-07T00:00:00Z"))
    assert st == 201 and b["alerts"] == [], b
    st, ws = S.get("/api/v1/watches")
    mine = [x for x in ws["watches"] if x["id"] == w["id"]][0]
    assert mine["judged"] == 0, mine
    # a timed run after it is judged against the five timed runs before it
    st, b = S.post("/api/v1/runs", dict(timed[0], id=f"{app}-late", runtime=30.0,
                                        started_at="2026-01-08T00:00:00Z"))
    assert st == 201 and len(b["alerts"]) == 1, b
    assert abs(b["alerts"][0]["expected"] - 10.0) < 1e-9, b
    q = "/api/v1/series?" + urllib.parse.urlencode(
        {"application": app, "system": SYS, "y": "runtime"})
    st, s = S.get(q)
    assert st == 200 and [p["value"] for p in s["points"]] == \
        [10.0, 10.2, 9.8, 10.1, 9.9, 30.0], s
    st, s = S.get(q.replace("y=runtime", "y=metric%3Aflops"))
    assert st == 200 and len(s["points"]) == 7, s


def walk(url, rel):
    pages = []
    while url:
        st, html, _ = S.request("GET", url, token=None, raw=True)
        assert st == 200, (url, st)
        t = html.decode()
        pages.append(re.findall(r'<a href="/runs/(\d+)">', t))
        m = re.search(r'<a href="([^"#]*)[^"]*" rel="%s"' % rel, t)
        url = m.group(1).replace("&amp;", "&") if m else None
    return pages


@test
def runtime_sorted_pages_list_runs_without_one_once():
    # 130 runs, 86 without a runtime, over two executables: the cursor of a
    # page falls both on runs with and without one, in both directions
    runs = []
    for i in range(130):
        d = run_doc(application="pagesort", executable="x" if i % 2 else "y",
                    inputs={"N": i}, kernels=[], metrics={"f": 1.0}, id=f"ps-{i}")
        if i % 3:
            del d["runtime"]
        else:
            d["runtime"] = float(i % 7)
        runs.append(d)
    st, b = S.post("/api/v1/runs", {"runs": runs})
    assert st == 201, b
    rt = {str(i): r.get("runtime") for i, r in zip(b["ids"], runs)}
    for dirn in ("", "&dir=desc"):
        fw = walk("/applications/pagesort?sort=runtime" + dirn, "next")
        flat = [i for p in fw for i in p]
        assert [len(p) for p in fw] == [50, 50, 30], [len(p) for p in fw]
        assert sorted(flat) == sorted(rt), "every run once"
        timed = [rt[i] for i in flat if rt[i] is not None]
        assert timed == sorted(timed, reverse=bool(dirn)), timed
        # the runs without one form one block (first or last, by engine)
        nulls = [k for k, i in enumerate(flat) if rt[i] is None]
        assert nulls == list(range(nulls[0], nulls[0] + 86)), nulls
        assert walk(f"/applications/pagesort?sort=runtime{dirn}&page=3", "prev")[::-1] == fw


@test
def pages_show_a_dash():
    st, b = S.post("/api/v1/runs", untimed("pagenort", 3, 30.0))
    rid = b["ids"][0]
    st, html, _ = S.request("GET", f"/runs/{rid}", token=None, raw=True)
    assert st == 200
    text = html.decode()
    i = text.index("<dt>Runtime</dt>")
    assert text[i:i + 40].startswith("<dt>Runtime</dt><dd>\u2014</dd>"), text[i:i + 60]
    st, html, _ = S.request("GET", "/applications/pagenort", token=None, raw=True)
    assert st == 200 and "\u2014" in html.decode()


report()
