"""Runs without a runtime (SPEC §16): a file or document with metrics or
kernels but no time stores its runs with `runtime` absent (null in JSON, an
empty CSV cell, "—" on pages); fits, series and watches of `runtime` skip
them, while `metric:NAME` and `kernel:NAME` model them. Kernels likewise
(migration 14): a kernel without a time is stored as NULL, answers
`"time": null`, shows "—" with no share and no part in a chart, and fits,
series and watches of `kernel:NAME` skip the runs where it has none."""
import json
import os
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


# ---- kernels without a time (migration 14) ------------------------------------

SRC = os.environ.get("PROPHECY_SRC", os.path.join(os.path.dirname(__file__), "../.."))
CORPUS = os.path.join(SRC, "../shared/corpus/imports")


def kernel_rows(app):
    """(name, time or None) of the application's kernels as stored (psql
    prints NULL as an empty text, so NULL is asked for on its own)."""
    rows = S.sql("SELECT k.name, CASE WHEN k.time IS NULL THEN 1 ELSE 0 END, "
                 "coalesce(k.time, 0) FROM kernels k JOIN runs r ON r.id = k.run_id "
                 "JOIN applications a ON a.id = r.app_id WHERE a.name = ? "
                 "ORDER BY k.run_id, k.seq", (app,))
    return [(n, None if int(null) else float(t)) for n, null, t in rows]


def page(url):
    st, html, _ = S.request("GET", url, token=None, raw=True)
    assert st == 200, (url, st)
    return html.decode()


def kernel_table_rows(html):
    """(name, time, share) of each row of the run page's kernels table."""
    t = html[html.index('<caption class="vh">Kernels</caption>'):]
    t = t[:t.index("</table>")]
    rows = []
    for tr in re.findall(r"<tr><td class=\"num\">\d+</td>(.*?)</tr>", t, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
        rows.append((cells[0], cells[1], cells[2]))
    return rows


@test
def a_kernel_without_a_time_is_null_and_not_a_zero():
    app = "ktnull"
    doc = run_doc(application=app, executable="x", inputs={"N": 1}, runtime=3.0, id="kt-1",
                  kernels=[{"name": "solve", "time": 2.0, "calls": 4},
                           {"name": "io", "time": None, "metrics": {"bytes": 4096.0}},
                           {"name": "halo", "calls": 2, "metrics": {"visits": 8.0}}],
                  metrics={})
    st, b = S.post("/api/v1/runs", doc)
    assert st == 201, b
    rid = b["ids"][0]
    st, run = S.get(f"/api/v1/runs/{rid}")
    assert st == 200, run
    ks = {k["name"]: k for k in run["kernels"]}
    assert ks["solve"]["time"] == 2.0 and ks["io"]["time"] is None, ks
    assert ks["halo"]["time"] is None and ks["halo"]["calls"] == 2, ks
    assert ks["io"]["metrics"] == {"bytes": 4096.0}, ks
    assert kernel_rows(app) == [("solve", 2.0), ("io", None), ("halo", None)], kernel_rows(app)
    # the same document is the same run; a time where there was none differs
    st, again = S.post("/api/v1/runs", doc)
    assert st == 200 and again["existing"] == 1, again
    before = S.content()
    changed = json.loads(json.dumps(doc))
    changed["kernels"][1]["time"] = 0.0
    st, c = S.post("/api/v1/runs", changed)
    expect_error(st, c, 409, "id")
    # a time is still a finite number >= 0 when given
    for bad in (-1.0, "slow"):
        d = run_doc(application=app, executable="x", kernels=[{"name": "k", "time": bad}])
        st, e = S.post("/api/v1/runs", d)
        expect_error(st, e, 422, "kernels[0].time")
    assert S.content() == before
    # the run page: "—" and no share for the kernels without a time; the
    # share and the breakdown are of the timed ones
    html = page(f"/runs/{rid}")
    rows = kernel_table_rows(html)
    assert [r[0] for r in rows] == ["solve", "io", "halo"], rows
    assert rows[0][1] == "2 s" and rows[0][2] == "100.0 %", rows
    assert rows[1][1:] == ("\u2014", "\u2014") and rows[2][1:] == ("\u2014", "\u2014"), rows
    svg = html[html.index("<svg"):html.index("</svg>")]
    assert ">solve<" in svg and ">io<" not in svg and ">halo<" not in svg, svg[:2000]
    # the application page's breakdown has the timed kernel only
    html = page(f"/applications/{app}")
    i = html.index('id="kernels"')
    svg = html[html.index("<svg", i):html.index("</svg>", i)]
    assert ">solve<" in svg and ">io<" not in svg, svg[:2000]


@test
def the_call_tree_shows_a_dash_where_a_subtree_has_no_time():
    doc = run_doc(application="kttree", executable="x", runtime=4.0, id="kttree-1",
                  kernels=[{"name": "main", "time": 1.0, "metrics": {"inclusive": 3.0}},
                           {"name": "main/solve", "time": 2.0},
                           {"name": "main/io", "time": None, "metrics": {"bytes": 8.0}},
                           {"name": "aux/x", "time": None, "metrics": {"visits": 2.0}}],
                  metrics={})
    st, b = S.post("/api/v1/runs", doc)
    assert st == 201, b
    html = page(f"/runs/{b['ids'][0]}")
    rows = re.findall(r'<span class="ct-name" title="([^"]*)">[^<]*</span><span '
                      r'class="ct-incl num">([^<]*)</span><span class="ct-excl num">'
                      r'([^<]*)</span><span class="ct-share num">([^<]*)</span>', html)
    got = {r[0]: r[1:] for r in rows}
    dash = "\u2014"
    assert got == {"main": ("3 s", "1 s", "75.0 %"), "main/solve": ("2 s", "2 s", "50.0 %"),
                   "main/io": (dash, dash, dash), "aux": (dash, dash, dash),
                   "aux/x": (dash, dash, dash)}, got


@test
def fits_series_and_watches_of_a_kernel_skip_runs_where_it_has_no_time():
    app = "ktfit"
    runs = []
    for i, n in enumerate((10, 20, 40, 80)):
        t = 0.003 * n + 0.005 if n != 80 else None  # 80: no time (as 0 it would bend)
        runs.append(run_doc(application=app, executable="x", inputs={"N": n}, runtime=1.0,
                            id=f"ktfit-{n}", started_at=f"2026-02-0{i + 1}T00:00:00Z",
                            kernels=[{"name": "k", "time": t, "metrics": {"visits": n}}],
                            metrics={}))
    st, b = S.post("/api/v1/runs", {"runs": runs})
    assert st == 201, b
    base = {"application": app, "system": SYS, "x": "N", "graph": "linear"}
    st, k = S.post("/api/v1/fit", dict(base, y="kernel:k"), token=False)
    assert st == 200, k
    c = k["model"]["coefficients"]
    assert abs(c[0] - 0.005) < 1e-12 and abs(c[1] - 0.003) < 1e-12, c
    q = "/api/v1/series?" + urllib.parse.urlencode(
        {"application": app, "system": SYS, "y": "kernel:k", "input.N": 80})
    st, s = S.get(q)
    assert st == 200 and s["points"] == [], s
    q = "/api/v1/series?" + urllib.parse.urlencode(
        {"application": app, "system": SYS, "y": "kernel:k", "input.N": 10})
    st, s = S.get(q)
    assert st == 200 and [p["value"] for p in s["points"]] == [0.035], s
    # a watch of kernel:k does not judge a run whose k has no time
    timed = [run_doc(application=app, executable="x", inputs={"N": 5}, runtime=1.0,
                     id=f"ktw-{i}", started_at=f"2026-03-0{i + 1}T00:00:00Z",
                     kernels=[{"name": "k", "time": t}], metrics={})
             for i, t in enumerate((1.0, 1.02, 0.98, 1.01, 0.99))]
    st, b = S.post("/api/v1/runs", {"runs": timed})
    assert st == 201, b
    st, w = S.post("/api/v1/watches", {"application": app, "system": SYS, "y": "kernel:k",
                                       "detector": {"test": "zscore", "threshold": 3,
                                                    "window": 5}})
    assert st == 201, w
    st, b = S.post("/api/v1/runs", dict(timed[0], id="ktw-none", started_at="2026-03-07T00:00:00Z",
                                        kernels=[{"name": "k", "time": None}]))
    assert st == 201 and b["alerts"] == [], b
    st, ws = S.get("/api/v1/watches")
    mine = [x for x in ws["watches"] if x["id"] == w["id"]][0]
    assert mine["judged"] == 0, mine
    st, b = S.post("/api/v1/runs", dict(timed[0], id="ktw-late", started_at="2026-03-08T00:00:00Z",
                                        kernels=[{"name": "k", "time": 3.0}]))
    assert st == 201 and len(b["alerts"]) == 1, b
    assert abs(b["alerts"][0]["expected"] - 1.0) < 1e-9, b


@test
def compare_sides_leave_out_a_kernel_without_a_time():
    app = "ktcmp"
    docs = [run_doc(application=app, executable="x", inputs={"N": 1}, runtime=2.0,
                    id=f"ktcmp-{c}", commit=c, started_at=f"2026-04-0{i + 1}T00:00:00Z",
                    kernels=[{"name": "k", "time": t, "metrics": {"visits": 4.0}}],
                    metrics={})
            for i, (c, t) in enumerate((("ca", 1.5), ("cb", None)))]
    st, b = S.post("/api/v1/runs", {"runs": docs})
    assert st == 201, b
    st, c = S.get("/api/v1/compare?" + urllib.parse.urlencode(
        {"application": app, "a": "commit:ca", "b": "commit:cb"}))
    assert st == 200, c
    rows = {r["y"]: r["sides"] for r in c["rows"]}
    assert rows["kernel:k"][0]["n"] == 1 and rows["kernel:k"][0]["mean"] == 1.5, rows
    # side b measured no time of k: no value, never a mean of 0
    assert rows["kernel:k"][1]["mean"] is None and rows["kernel:k"][1]["ratio"] is None, rows
    assert rows["runtime"][1]["mean"] == 2.0, rows


@test
def an_extrap_file_without_a_time_metric_imports_kernels_without_a_time():
    path = os.path.join(CORPUS, "extrap-jsonl/extended1.jsonl")
    if not os.path.isfile(path):
        print(f"SKIP: no import corpus at {os.path.normpath(CORPUS)}")
        return
    with open(path, "rb") as f:
        data = f.read()
    app = "ktime-xp"
    q = "/api/v1/import?" + urllib.parse.urlencode(
        {"filename": "extended1.jsonl", "format": "extrap-jsonl", "application": app})
    st, ans = S.request("POST", q, data, ctype="application/octet-stream")
    assert st == 201 and ans["created"] == 125, ans
    rows = kernel_rows(app)
    assert len(rows) == 125 and all(r == ("test", None) for r in rows), rows[:3]
    st, run = S.get(f"/api/v1/runs/{ans['ids'][0]}")
    assert run["runtime"] is None and run["kernels"][0]["time"] is None, run
    # the metric stays as measured: the MANIFEST's 2.0 at (x, y) = (1, 1)
    st, lst = S.get("/api/v1/runs?" + urllib.parse.urlencode({"application": app,
                                                              "limit": 1000}))
    at11 = [r for r in lst["runs"] if r["inputs"] == {"x": 1.0, "y": 1.0}]
    assert len(at11) == 5, len(at11)
    assert all(r["kernels"][0]["metrics"]["metr"] == 2.0 and r["metrics"]["metr"] == 2.0
               for r in at11), at11
    # again: nothing new
    before = S.content()
    st, again = S.request("POST", q, data, ctype="application/octet-stream")
    assert st == 200 and again["created"] == 0, again
    assert S.content() == before
    # kernel:test has no timed run to fit; metric:metr fits
    base = {"application": app, "system": "unknown", "x": "x", "fixed": {"y": 1},
            "graph": "auto"}
    st, e = S.post("/api/v1/fit", dict(base, y="kernel:test"), token=False)
    assert st == 422 and e["error"]["code"] == "degenerate", e
    assert "only where the kernel has a time" in e["error"]["message"], e
    st, m = S.post("/api/v1/fit", dict(base, y="metric:metr"), token=False)
    assert st == 200, m
    # the JSON export imports back with the times still absent
    st, raw, _ = S.request("GET", "/api/v1/export?format=json", token=None, raw=True)
    assert st == 200
    mine = [r for r in json.loads(raw)["runs"] if r["application"] == app]
    assert len(mine) == 125 and all(r["kernels"][0]["time"] is None for r in mine)
    for r in mine:
        r["application"] = app + "-again"
        del r["id"]
    st, b = S.post("/api/v1/runs", {"runs": mine})
    assert st == 201 and len(b["ids"]) == 125, b
    assert kernel_rows(app + "-again") == rows
    # pages: "—" for the time and the share, no breakdown drawn as zeros
    html = page(f"/runs/{ans['ids'][0]}")
    assert kernel_table_rows(html) == [("test", "\u2014", "\u2014")], kernel_table_rows(html)
    assert "No kernel of this run has a time" in html
    assert "<svg" not in html[html.index("<h2>Kernels</h2>"):html.index('<caption class="vh">Kernels</caption>')]
    html = page(f"/applications/{app}")
    assert 'id="kernels"' not in html
    assert "/model/couple?application=" not in html  # nothing to couple


report()
