"""HTTP tests of the web dashboard (SPEC §7) against the real prophecyd:
every page's status, type and headers, HTML escaping, sorting and paging of
the runs table, the upload forms (stored runs, errors next to the field, an
unchanged database after every rejection), cross-site protections, saved
model pages and --protect-reads with HTTP Basic."""
import base64
import html
import io
import json
import re
import sqlite3
import struct
import tarfile
import urllib.parse
import uuid

from prophecy_test import Server, report, run_doc, test

S = Server("--demo")

MATMUL = "/applications/" + urllib.parse.quote("matmul (example)")
BT = "/applications/" + urllib.parse.quote("NAS BT (example)")
SP2 = "/systems/" + urllib.parse.quote("IBM SP2 (example)")


def page(path, status=200, **kw):
    st, body, resp = S.request("GET", path, token=None, raw=True, **kw)
    assert st == status, (path, st, body[:300])
    return body.decode(), resp


def csrf():
    body, _ = page("/upload")
    return re.search(r'name="csrf" value="([^"]+)"', body).group(1)


def form_post(path, fields, headers=None):
    body = urllib.parse.urlencode(fields)
    st, payload, resp = S.request("POST", path, body, token=None,
                                  ctype="application/x-www-form-urlencoded",
                                  headers=headers, raw=True)
    return st, payload.decode(), resp


def multipart_post(path, fields, files, headers=None):
    boundary = "----prophecy" + uuid.uuid4().hex
    out = []
    for k, v in fields.items():
        out.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n')
    for k, (fname, data) in files.items():
        out.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"; '
                   f'filename="{fname}"\r\nContent-Type: text/csv\r\n\r\n{data}\r\n')
    out.append(f"--{boundary}--\r\n")
    st, payload, resp = S.request("POST", path, "".join(out).encode(), token=None,
                                  ctype="multipart/form-data; boundary=" + boundary,
                                  headers=headers, raw=True)
    return st, payload.decode(), resp


def field_error(body, form, field):
    m = re.search(rf'<p class="field-error" id="{form}-{field}-error">(.*?)</p>', body)
    return html.unescape(m.group(1)) if m else None


@test
def every_page_is_html_with_csp():
    for path in ["/", "/applications", "/systems", "/models", "/upload", MATMUL, BT, SP2,
                 "/systems/" + urllib.parse.quote("SGI Origin2000 (example)"), "/runs/1"]:
        body, resp = page(path)
        assert resp.getheader("Content-Type") == "text/html; charset=utf-8", path
        csp = resp.getheader("Content-Security-Policy")
        assert "default-src 'none'" in csp and "script-src 'self'" in csp, csp
        assert "unsafe-inline" not in csp
        assert resp.getheader("X-Content-Type-Options") == "nosniff"
        assert body.startswith("<!DOCTYPE html>"), path
        assert '<nav aria-label="Main">' in body and "</html>" in body
        # no inline script or style anywhere (the CSP would block them)
        assert "<style" not in body and not re.search(r"<script(?![^>]*\bsrc=)", body), path
        assert " style=" not in body and "onclick" not in body, path


@test
def static_assets_are_cached_and_typed():
    body, _ = page("/")
    css = re.search(r'href="(/static/style\.css\?v=[0-9a-f]{12})"', body).group(1)
    js = re.search(r'src="(/static/app\.js\?v=[0-9a-f]{12})"', body).group(1)
    text, resp = page(css)
    assert resp.getheader("Content-Type") == "text/css; charset=utf-8"
    assert "immutable" in resp.getheader("Cache-Control")
    assert ".table-wrap" in text
    _, resp = page(js)
    assert resp.getheader("Content-Type").startswith("text/javascript")
    _, resp = page("/static/style.css?v=old")
    assert resp.getheader("Cache-Control") == "public, max-age=3600"
    page("/static/nothing.css", 404)


@test
def errors_are_html_for_pages_and_json_for_the_api():
    body, resp = page("/no/such/page", 404)
    assert resp.getheader("Content-Type").startswith("text/html")
    assert "404 Not found" in body and "/no/such/page" in body
    page("/runs/999999", 404)
    page("/runs/abc", 404)
    page("/models/1", 404)
    page(MATMUL + "?sort=bogus", 400)
    page(MATMUL + "?page=0", 400)
    page(MATMUL + "?system=nowhere", 404)
    st, body = S.get("/api/v1/nothing")
    assert st == 404 and body["error"]["code"] == "not_found"
    st, body, resp = S.request("DELETE", "/upload", token=None, raw=True)
    assert st == 405 and resp.getheader("Content-Type").startswith("text/html")


@test
def overview_counts_and_example_badge():
    body, _ = page("/")
    assert "example data" in body
    st, runs = S.get("/api/v1/runs?limit=1000")
    n = len(runs["runs"])
    assert re.search(rf'<span class="n">{n}</span><span class="label">runs</span>', body), n
    assert 'href="/applications/matmul%20%28example%29"' in body
    assert "Recent runs" in body
    # the example's applications and systems are described: their columns show
    assert "<th>Description</th>" in body and "<th>Processor</th>" in body


@test
def hostile_names_are_text():
    name = "<script>alert(1)</script>"
    st, _ = S.post("/api/v1/runs", run_doc(application=name, system='sys "<b>&',
                                           executable="e'x", inputs={"<i>": 1}))
    assert st == 201
    for path in ["/", "/applications", "/applications/" + urllib.parse.quote(name, safe="")]:
        body, _ = page(path)
        assert "<script>alert(1)" not in body and "<b>&" not in body, path
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body, path
    body, _ = page("/applications/" + urllib.parse.quote(name, safe=""))
    assert "&lt;i&gt;=1" in body and "e&#39;x" in body
    body, _ = page("/systems/" + urllib.parse.quote('sys "<b>&', safe=""))
    assert "sys &quot;&lt;b&gt;&amp;" in body


@test
def runs_table_sorts_and_pages():
    app = "paging-" + uuid.uuid4().hex[:6]
    runs = [run_doc(application=app, nprocs=1 + (i % 7), runtime=float((i * 37) % 120),
                    inputs={"N": 100 * (1 + i % 3)}) for i in range(120)]
    st, out = S.post("/api/v1/runs", {"runs": runs})
    assert st == 201
    ids = out["ids"]
    base = "/applications/" + app

    def rows(path):
        body, _ = page(path)
        table = body[body.index('id="runs"'):]
        return [(int(a), float(b)) for a, b in re.findall(
            r'<tr><td class="num"><a href="/runs/(\d+)">\d+</a></td>.*?'
            r'<td class="num">([0-9.e+-]+) s</td><td class="num">\d+</td>', table)], body

    r, body = rows(base)
    assert [x[0] for x in r] == sorted(ids, reverse=True)[:50]
    assert "120 runs; page 1 of 3" in body
    r, body = rows(base + "?page=3")
    assert [x[0] for x in r] == sorted(ids, reverse=True)[100:]
    assert 'rel="prev"' in body and 'rel="next"' not in body
    r, _ = rows(base + "?sort=runtime&dir=asc")
    want = sorted(zip([d["runtime"] for d in runs], ids))[:50]
    assert [x[1] for x in r] == [w[0] for w in want]
    assert [x[0] for x in r] == [w[1] for w in want]   # ties broken by id
    r, body = rows(base + "?sort=runtime&dir=desc&page=2")
    want = sorted(zip([d["runtime"] for d in runs], ids), reverse=True)[50:100]
    assert [x[0] for x in r] == [w[1] for w in want]
    assert 'aria-sort="descending"' in body
    # the sort links keep the order and reset the page; paging keeps the sort
    # and reads the next page from this page's last run (a keyset cursor)
    assert (f'href="{base}?sort=runtime&amp;dir=desc&amp;page=3&amp;after={want[-1][1]}'
            '#runs" rel="next"') in body
    alld = sorted(zip([d["runtime"] for d in runs], ids), reverse=True)
    r, body = rows(f"{base}?sort=runtime&dir=desc&page=3&after={want[-1][1]}")
    assert [x[0] for x in r] == [w[1] for w in alld[100:]]
    assert "120 runs; page 3 of 3" in body
    # Previous from page 3 carries this page's first run; from page 2, page 1
    assert (f'href="{base}?sort=runtime&amp;dir=desc&amp;page=2&amp;before={alld[100][1]}'
            '#runs" rel="prev"') in body
    r, body = rows(f"{base}?sort=runtime&dir=desc&page=2&before={alld[100][1]}")
    assert [x[0] for x in r] == [w[1] for w in alld[50:100]]
    assert f'href="{base}?sort=runtime&amp;dir=desc#runs" rel="prev"' in body
    body, _ = page(base + "?sort=nprocs")
    assert f'href="{base}?sort=nprocs&amp;dir=desc#runs" data-sort="nprocs"' in body
    # a page past the end shows the last page
    r, _ = rows(base + "?page=99")
    assert len(r) == 20
    # plots: runtime over processors and over N, from the configuration summaries
    body, _ = page(base)
    assert "Runtime over processors" in body and "Runtime over input N" in body
    assert body.count("<svg") >= 2


@test
def runs_table_cursors():
    # ?after= / ?before= are keyset cursors: the page that follows (precedes)
    # that run in the table's order, with or without ?page= (then worked out)
    app = "cursor-" + uuid.uuid4().hex[:6]
    runs = [run_doc(application=app, nprocs=1 + (i % 3), runtime=float(i % 5),
                    system="sys-a" if i % 2 else "sys-b") for i in range(130)]
    st, out = S.post("/api/v1/runs", {"runs": runs})
    assert st == 201
    ids = out["ids"]
    base = "/applications/" + app

    def ids_of(path):
        body, _ = page(path)
        table = body[body.index('id="runs"'):]
        return [int(x) for x in re.findall(r'<tr><td class="num"><a href="/runs/(\d+)">',
                                           table)], body

    newest = sorted(ids, reverse=True)
    got, body = ids_of(f"{base}?after={newest[59]}")
    assert got == newest[60:110]
    assert "130 runs; page 2 of 3" in body   # 60 runs before: the second page
    got, body = ids_of(f"{base}?before={newest[20]}")
    assert got == newest[:20]
    # nprocs ascending, ties by executable, system, then id: Next walks
    # every run once
    path, seen = f"{base}?sort=nprocs&dir=asc", []
    for _ in range(3):
        got, body = ids_of(path)
        seen += got
        m = re.search(r'href="([^"]*)" rel="next"', body)
        if not m:
            break
        path = m.group(1).replace("&amp;", "&").split("#")[0]
    assert len(seen) == 130 and sorted(seen) == sorted(ids)
    # filtered by system: the cursor's key places it; pages never overlap
    path, seen = f"{base}?system=sys-a&sort=runtime", []
    while True:
        got, body = ids_of(path)
        seen += got
        m = re.search(r'href="([^"]*)" rel="next"', body)
        if not m:
            break
        path = m.group(1).replace("&amp;", "&").split("#")[0]
    assert sorted(seen) == sorted(i for i, d in zip(ids, runs) if d["system"] == "sys-a")
    # the axes links keep the cursor
    body, _ = page(f"{base}?page=2&after={newest[49]}")
    assert f'?page=2&amp;after={newest[49]}&amp;axes=log#scaling' in body
    # a cursor run that is gone: the page number applies
    got, _ = ids_of(f"{base}?page=2&after=999999999")
    assert got == newest[50:100]
    page(f"{base}?after=1&before=2", 400)
    page(f"{base}?after=0", 400)
    page(f"{base}?before=x", 400)


@test
def app_page_filters():
    body, _ = page(MATMUL + "?system=" + urllib.parse.quote("IBM SP2 (example)"))
    assert "12 runs; page 1 of 1" in body
    table = body[body.index('id="runs"'):body.index('id="executables"')]
    assert table.count("matmul_sp2</td>") == 12 and "matmul_sgi</td>" not in table


@test
def kernel_breakdown_and_run_page():
    body, _ = page(BT)
    assert "Kernel breakdown" in body and "compute_rhs" in body
    st, runs = S.get("/api/v1/runs?application=" + urllib.parse.quote("NAS BT (example)"))
    rid = runs["runs"][0]["id"]
    body, _ = page(f"/runs/{rid}")
    for k in ["initialize", "compute_rhs", "x_solve", "verify"]:
        assert f'<td class="path">{k}</td>' in body, k  # a path cell: long ones wrap
    assert f'href="/api/v1/runs/{rid}"' in body and "class_size" in body
    assert 'id="kernels-overlap"' not in body  # BT's kernels fit in its runtime
    # kernels that overlap (a trace's nested events) add up to more than the
    # run: the page says so, since the shares are of their sum
    st, b = S.post("/api/v1/runs", {"application": "nested", "executable": "e",
                                    "system": "s", "nprocs": 1, "runtime": 2.0,
                                    "kernels": [{"name": "outer", "time": 2.0},
                                                {"name": "inner", "time": 1.5}]})
    assert st == 201, b
    body, _ = page(f"/runs/{b['ids'][0] if 'ids' in b else b['id']}")
    assert re.search(r'id="kernels-overlap">These kernels\' times add up to 3\.5 s, 1\.75 '
                     r'× the run\'s 2 s: they overlap', html.unescape(body)), body
    assert "<td class=\"num\">57.1 %</td>" in body  # outer: 2 of 3.5
    # the table lists the longest kernel first, as profilers do (it was the
    # file's order: a 70-kernel PyTorch trace hid its 1 ms aten::mm at row
    # 17 under 100 µs rows); kernels without a time after, in their order
    st, b = S.post("/api/v1/runs", {"application": "order", "executable": "e",
                                    "system": "s", "nprocs": 1, "runtime": 9.0,
                                    "kernels": [{"name": "small", "time": 0.5},
                                                {"name": "counted", "metrics": {"n": 3}},
                                                {"name": "big", "time": 6.0},
                                                {"name": "mid", "time": 2.0},
                                                {"name": "counted2", "metrics": {"n": 1}}]})
    assert st == 201, b
    body, _ = page(f"/runs/{b['ids'][0] if 'ids' in b else b['id']}")
    table = body[body.index('<caption class="vh">Kernels</caption>'):]
    rows = re.findall(r'<tr><td class="num">(\d+)</td><td class="path">([^<]+)</td>', table)
    assert rows == [("1", "big"), ("2", "mid"), ("3", "small"), ("4", "counted"),
                    ("5", "counted2")], rows


@test
def system_page_plots_parameters():
    body, _ = page(SP2)
    assert "MPISR(L): benchmark points and the fitted parameter" in body
    assert "MPIBC(L): benchmark points and the fitted parameter" in body
    assert "0.001*(15.94+0.0608*L)" in body and "4.83e-8" in body
    assert "not drawn on the logarithmic axis" not in body
    # an OSU latency curve from 0 B to 1 MiB: its fitted parameter is drawn
    # over a log axis of L (on a linear one every point below 64 KiB sat on
    # the axis), the row of L = 0 left out and said
    st, b = S.request("PUT", "/api/v1/systems/osu-like", {"description": "OSU"})
    assert st in (200, 201), b
    sizes = [0] + [4 ** k for k in range(11)]
    st, b = S.post("/api/v1/systems/osu-like/benchmarks", {"benchmarks": [
        {"name": "MPISR", "args": {"L": n, "P": 2}, "time": 1e-6 + 1e-10 * n, "stat": "min"}
        for n in sizes]})
    assert st == 201, b
    st, b = S.post("/api/v1/systems/osu-like/parameters/fit",
                   {"parameter": "MPISR", "form": "hockney"})
    assert st == 201, b
    body, _ = page("/systems/osu-like")
    assert "1 measurement at L = 0 not drawn on the logarithmic axis." in body, body


def upload_fields(**over):
    f = {"csrf": csrf(), "token": S.token, "id": "web-" + uuid.uuid4().hex,
         "application": "web form app", "executable": "wf.x", "system": "wf-sys",
         "nprocs": "16", "runtime": "3.25", "inputs": "N=2000\r\nL=64",
         "kernels": "setup=0.25\r\nsolve=2.5", "metrics": "mflops=900", "started_at": ""}
    f.update(over)
    return f


@test
def upload_form_stores_a_run():
    st, body, resp = form_post("/upload/run", upload_fields())
    assert st == 303, body
    loc = resp.getheader("Location")
    rid = int(re.match(r"/runs/(\d+)\?stored=1$", loc).group(1))
    st, run = S.get(f"/api/v1/runs/{rid}")
    assert run["application"] == "web form app" and run["nprocs"] == 16
    assert run["runtime"] == 3.25 and run["inputs"] == {"N": 2000, "L": 64}
    assert run["kernels"] == [{"name": "setup", "time": 0.25, "calls": 1},
                              {"name": "solve", "time": 2.5, "calls": 1}]
    assert run["metrics"] == {"mflops": 900} and run["submitter"] == "tester"
    body, _ = page(loc)
    assert "The run was stored." in body
    # the same rendered form sent twice stores the run once
    f = upload_fields()
    st1, _, r1 = form_post("/upload/run", f)
    before = S.content()
    st2, _, r2 = form_post("/upload/run", f)
    assert st1 == st2 == 303 and r1.getheader("Location") == r2.getheader("Location")
    assert S.content() == before


@test
def one_run_is_counted_as_one_run():
    """Counts of runs agree with their number where a page says how many
    (an application with a single run read "1 runs" in four places)."""
    st, _ = S.post("/api/v1/runs", {"application": "lone app", "executable": "lone.x",
                                    "system": "lone-sys", "nprocs": 4, "runtime": 2.0})
    assert st == 201
    body, _ = page("/applications/lone%20app")
    assert "1 run; page 1 of 1" in body and "Download the run as CSV" in body, body
    body, _ = page("/model/fit?application=lone%20app")
    assert "lone app (1 run)</option>" in body and "lone.x (1 run)</option>" in body
    assert "lone-sys (1 run)</option>" in body and " runs)</option>" in body
    assert "(1 runs)" not in body


@test
def runs_table_as_csv_is_the_whole_filtered_table_in_order():
    app = "csv-" + uuid.uuid4().hex[:6]
    runs = [run_doc(application=app, nprocs=1 + (i % 7), runtime=float(1 + (i * 37) % 120),
                    system="sys-a" if i % 2 else "sys-b",
                    inputs={"N": 100 * (1 + i % 3)}) for i in range(1200)]
    st, out = S.post("/api/v1/runs", {"runs": runs})
    assert st == 201
    ids = out["ids"]
    base = "/applications/" + app
    st, body, resp = S.request("GET", base + "?system=sys-a&sort=runtime&dir=desc&format=csv",
                               token=None, raw=True)
    assert st == 200 and resp.getheader("Content-Type") == "text/csv; charset=utf-8", st
    lines = body.decode().split("\r\n")
    assert lines[0] == "run,executable,system,nprocs,N,runtime,kernels,stored,commit,branch", lines[0]
    assert lines[-1] == "", lines[-1]  # CRLF after every line
    rows = [ln.split(",") for ln in lines[1:-1]]
    # every run of the filter (more than one page of 1000 reads), the table's order
    want = sorted(((d["runtime"], i) for i, (d, i) in enumerate(zip(runs, ids))
                   if d["system"] == "sys-a"), key=lambda t: (-t[0], -t[1]))
    assert len(rows) == 600, len(rows)
    assert [float(r[5]) for r in rows] == [w[0] for w in want]
    assert all(r[2] == "sys-a" and r[6] == "1" for r in rows)
    # the page links the same CSV, and a bad format or axes is a 400
    page_body, _ = page(base + "?system=sys-a&sort=runtime&dir=desc")
    assert ('id="runs-csv" href="/applications/%s?system=sys-a&amp;sort=runtime&amp;'
            'dir=desc&amp;format=csv"' % app) in page_body
    assert "Speedup over processors" in page_body and "Parallel efficiency" in page_body
    for q in ["?format=xml", "?axes=loglog"]:
        st, body, _ = S.request("GET", base + q, token=None, raw=True)
        assert st == 400, (q, st)
    body, _ = page(base + "?axes=log")
    assert 'data-axes="log" aria-current="true"' in body


@test
def upload_form_errors_next_to_the_field_store_nothing():
    cases = [
        ({"nprocs": "0"}, 422, "nprocs", "nprocs must be at least 1"),
        ({"nprocs": "eight"}, 422, "nprocs", "whole number"),
        ({"runtime": "-1"}, 422, "runtime", "must not be negative"),
        ({"runtime": "nan"}, 422, "runtime", "number of seconds"),
        ({"application": ""}, 422, "application", "application is required"),
        ({"system": "x" * 300}, 422, "system", "longer than 256 bytes"),
        ({"inputs": "N=1000\r\nL"}, 422, "inputs", "line 2: write name=value"),
        ({"inputs": "N=1\r\nN=2"}, 422, "inputs", "N is given twice"),
        ({"kernels": "solve=-2"}, 422, "kernels", "must not be negative"),
        ({"metrics": "m=1e999"}, 422, "metrics", "not a finite number"),
        ({"started_at": "yesterday"}, 422, "started_at", "ISO 8601"),
        ({"token": "pt_wrong"}, 401, "token", "unknown or revoked token"),
        ({"token": ""}, 401, "token", "write token is needed"),
    ]
    for over, status, field, text in cases:
        before = S.content()
        st, body, _ = form_post("/upload/run", upload_fields(**over))
        assert st == status, (over, st)
        msg = field_error(body, "run", field)
        assert msg and text in msg, (over, msg)
        assert 'id="upload-error"' in body
        assert f'id="run-{field}" ' in body and 'aria-invalid="true"' in body
        # the values typed are kept (except the token)
        if field != "application":
            assert 'value="web form app"' in body, over
        assert "pt_" + "wrong" not in body
        assert S.content() == before, over


@test
def csv_upload_stores_and_rejects():
    good = "application,executable,system,nprocs,runtime,N\r\ncsv-app,c.x,c-sys,4,2.5,100\r\n" \
           "csv-app,c.x,c-sys,8,1.5,100\r\n"
    st, body, _ = multipart_post("/upload/csv", {"csrf": csrf(), "token": S.token},
                                 {"file": ("runs.csv", good)})
    assert st == 200, body
    assert "Stored 2 new runs from the file (0 already stored)." in body
    st, runs = S.get("/api/v1/runs?application=csv-app")
    assert [r["nprocs"] for r in runs["runs"]] == [4, 8]
    assert runs["runs"][0]["submitter"] == "tester"
    bad = good + "csv-app,c.x,c-sys,x,1.5,100\r\n"
    for fields, files, status, field, text in [
        ({"token": S.token}, {"file": ("runs.csv", bad)}, 422, "file", "line 4: nprocs"),
        ({"token": S.token}, {"file": ("e.csv", "")}, 422, "file", "choose a CSV file"),
        ({"token": S.token}, {}, 422, "file", "choose a CSV file"),
        ({"token": "nope"}, {"file": ("runs.csv", good)}, 401, "token", "unknown"),
    ]:
        before = S.content()
        fields = dict(fields, csrf=csrf())
        st, body, _ = multipart_post("/upload/csv", fields, files)
        assert st == status, (st, field)
        msg = field_error(body, "csv", field)
        assert msg and text in msg, (field, msg)
        assert S.content() == before


@test
def cross_site_posts_are_refused():
    good = upload_fields()
    attempts = [
        (dict(good, csrf=""), None),
        (dict(good, csrf="1700000000." + "0" * 64), None),
        ({k: v for k, v in good.items() if k != "csrf"}, None),
        (good, {"Sec-Fetch-Site": "cross-site"}),
        (good, {"Sec-Fetch-Site": "same-site"}),
        (good, {"Origin": "http://evil.example"}),
        (good, {"Origin": "null"}),
    ]
    for fields, headers in attempts:
        before = S.content()
        st, body, _ = form_post("/upload/run", fields, headers=headers)
        assert st == 403, (headers, st)
        assert S.content() == before
    # a browser's own same-origin request passes
    st, _, _ = form_post("/upload/run", upload_fields(),
                         headers={"Sec-Fetch-Site": "same-origin",
                                  "Origin": f"http://127.0.0.1:{S.port}"})
    assert st == 303
    # JSON is not a form
    st, body, _ = S.request("POST", "/upload/run", "{}", token=None, raw=True)
    assert st == 400


@test
def saved_model_pages():
    answer = {"model": {"graph": "cubic", "formula": "y = 1 + 2*<x>", "coefficients": [1, 2],
                        "r2": 0.99, "rmse": 0.5},
              "predictions": [{"x": 1200, "y": 2401, "lo": 2300, "hi": 2500}],
              "vars": ["N"]}
    ((mid,),) = S.sql("INSERT INTO models (method, app_id, formula, request, result) VALUES "
                      "('fit', (SELECT id FROM applications WHERE name = 'matmul (example)'), "
                      "?, ?, ?) RETURNING id", ("y = 1 + 2*<x>", json.dumps({"graph": "cubic"}),
                                                json.dumps(answer)))
    mid = int(mid)
    body, _ = page("/models")
    # the law term by term (web/page.h page_law), escaped
    assert f'<a href="/models/{mid}">{mid}</a>' in body and \
        "<span>y</span> <span>=</span> <span>1</span> <span>+</span> <span>2*&lt;x&gt;</span>" in body
    body, _ = page(f"/models/{mid}")
    assert "y = 1 + 2*&lt;x&gt;" in body and "<x>" not in body
    assert f'href="/api/v1/models/{mid}"' in body and f'href="/models/{mid}"' in body
    assert "a0 = 1, a1 = 2" in body and "2401" in body and "Predictions" in body
    # a model saved with a name is shown by it, with its system, on both pages
    name = "<b>N</b> scaling ✓"
    st, b = S.post("/api/v1/fit", {"application": "matmul (example)",
                                   "system": "SGI Origin2000 (example)", "x": "N",
                                   "y": "runtime", "fixed": {"nprocs": 8, "L": 1024},
                                   "save": True, "name": name})
    assert st in (200, 201), b
    nid = b["id"]
    body, _ = page(f"/models/{nid}")
    esc = "&lt;b&gt;N&lt;/b&gt; scaling ✓"
    assert f'<h1>{esc} <span class="muted">(model {nid}, fit)</span></h1>' in body, body
    assert f"<title>{esc} (model {nid})" in body
    assert '<dt>System</dt><dd><a href="/systems/SGI%20Origin2000%20%28example%29">' in body
    body, _ = page("/models")
    assert f'<td><a href="/models/{nid}">{esc}</a></td><td>fit</td>' in body
    assert f'<a href="/models/{mid}">{mid}</a></td><td></td><td>fit</td>' in body


@test
def protect_reads_asks_the_browser_for_the_token():
    P = Server("--protect-reads")
    try:
        st, body, resp = P.request("GET", "/", token=None, raw=True)
        assert st == 401 and resp.getheader("WWW-Authenticate").startswith("Basic")
        assert resp.getheader("Content-Type").startswith("text/html")
        basic = "Basic " + base64.b64encode(("me:" + P.token).encode()).decode()
        st, body, _ = P.request("GET", "/", token=None, raw=True,
                                headers={"Authorization": basic})
        assert st == 200
        bad = "Basic " + base64.b64encode(b"me:pt_nope").decode()
        st, _, _ = P.request("GET", "/", token=None, raw=True,
                             headers={"Authorization": bad})
        assert st == 401
        st, _, _ = P.request("GET", "/static/style.css", token=None, raw=True)
        assert st == 200
        st, body = P.get("/api/v1/runs")
        assert st == 401 and body["error"]["code"] == "unauthorized"
    finally:
        P.close()


def ring_trace(p, nnames):
    """A tar of p recorder files (docs/traces.md, version 3): rank r in user
    state r % nnames for 0.5 ms, then a message to rank r+1 and one from r-1
    (ring), ending at 2 ms."""
    names = [f"region{k}".encode() for k in range(nnames)]
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for r in range(p):
            evs = [(0, 500_000, 0, -1, -1, 0, 0, 0, 0, r % nnames),
                   (1_000_000, 1_100_000, 64, (r + 1) % p, -1, 7, 0, p, 1, 0),
                   (1_200_000, 1_500_000, 64, (r - 1) % p, -1, 7, 0, p, 6, 0)]
            b = bytearray(b"PRPHTRC\0")
            b += struct.pack("<IIIIQQQIIQ", 3, r, p, nnames, len(evs), 2_000_000, 0, 48, 0, 0)
            for n in names:
                b += struct.pack("<H", len(n)) + n
            for e in evs:
                b += struct.pack("<QQqiiiiIHH", *e)
            info = tarfile.TarInfo(f"trace.{r}")
            info.size = len(b)
            t.addfile(info, io.BytesIO(bytes(b)))
    return bio.getvalue()


@test
def traces_of_512_ranks_and_189_regions_are_stored_and_drawn():
    """Issue 34 item 8 and issue 31 class 3: the charts drawn when a trace is
    stored refused over 256 ranks ("a heat map must be 1x1 to 256x256") and
    over 100 states ("a stacked chart needs 1..100 components, not 189"), so
    the trace was lost. Now every chart draws (ranks grouped, the 20 largest
    states and "other") and the trace page lists the cluster membership and
    links the Perfetto export."""
    st, out = S.post("/api/v1/runs", run_doc(application="ring-512", nprocs=512))
    assert st == 201, out
    rid = out["ids"][0]
    st, ans = S.post(f"/api/v1/runs/{rid}/trace", ring_trace(512, 189),
                     ctype="application/x-tar")
    assert st == 201 and ans["nranks"] == 512, ans
    for name in ("profile", "wait", "traffic", "load", "timeline", "occupancy", "clusters"):
        st, svg, _ = S.request("GET", f"/plots/run-{rid}-{name}.svg", token=None, raw=True)
        assert st == 200 and svg.startswith(b"<?xml") and b"</svg>" in svg, (name, st)
    _, svg, _ = S.request("GET", f"/plots/run-{rid}-traffic.svg", token=None, raw=True)
    assert b"512 x 512 values drawn in blocks of up to 2 x 2" in svg
    _, svg, _ = S.request("GET", f"/plots/run-{rid}-occupancy.svg", token=None, raw=True)
    # the 189 regions and the 2 state classes some rank was in (states no rank was in are
    # left out of the occupancy chart): the largest 9 in colours of their own, the
    # rest one grey "other" (docs/traces.md)
    assert b">other (182 more)<" in svg, svg[:2000]
    _, svg, _ = S.request("GET", f"/plots/run-{rid}-profile.svg", token=None, raw=True)
    assert b"512 categories in 256 bars" in svg
    body, _ = page(f"/runs/{rid}/trace")
    assert f'<a id="trace-json" href="/runs/{rid}/trace.json"' in body
    st, c = S.get(f"/api/v1/runs/{rid}/trace/clusters")
    assert st == 200 and len(c["ranks"]) == 512, c
    # every rank in the membership table exactly once, in its cluster's row
    rows = re.findall(r'<tr class="cluster"><td><svg[^>]*>.*?</svg> (\d+)</td>'
                      r'<td class="num">(\d+)</td><td class="members">([^<]*)</td>', body)
    assert len(rows) == c["k"], rows[:3]
    for k, n, members in rows:
        want = sorted(x["rank"] for x in c["ranks"] if x["cluster"] == int(k))
        got = []
        for part in html.unescape(members).split(", "):
            a, _, b = part.partition("\u2013")
            got += list(range(int(a), int(b or a) + 1))
        assert got == want and int(n) == len(want), (k, members[:80])


@test
def osu_output_on_the_system_page():
    """OSU data shows latency and bandwidth over message size on log-log
    axes without a fit, and the table names bandwidth with its unit (issue
    31 class 12: bandwidth was shown as "Min time (s)")."""
    bw = ("# OSU MPI Bandwidth Test v5.6.2\n# Size      Bandwidth (MB/s)\n"
          "1 2.50\n1024 1500.00\n1048576 12000.00\n")
    lat = ("# OSU MPI Latency Test v5.6.2\n# Size          Latency (us)\n"
           "0 1.50\n8 1.60\n65536 20.00\n")
    for text in (bw, lat):
        st, out = S.post("/api/v1/import?format=osu&system=osu-page", text.encode(),
                         ctype="text/plain")
        assert st == 201, out
    body, _ = page("/systems/osu-page")
    assert "Min time (s)" not in body
    # named by the OSU test, the names the fits use after; the bandwidth as
    # measured (MPIBW_MBS) and the time per message derived from it (MPIBW)
    # are one row, not two benchmarks (docs/import.md)
    rows = {m[0]: m[1:] for m in re.findall(
        r'<tr><td class="desc">(osu_\w+) <span class="muted">stored as ([\w ]+)</span></td>'
        r'<td>([\w ]+)</td><td class="num">(\d+)</td><td class="num">([^<]+)</td>'
        r'<td class="num">([^<]+)</td>', body)}
    assert rows == {
        "osu_bw": ("MPIBW_MBS and MPIBW", "bandwidth", "3", "2.5 MB/s", "12 GB/s"),
        "osu_latency": ("MPISR", "time", "3", "1.5 \u00b5s", "20 \u00b5s")}, rows
    sec = body[body.index('<h2 id="messages">'):body.index('<h2 id="parameters">')]
    assert sec.count('<figure class="plot">') == 2, sec[:400]
    assert sec.count("x axis log10, y axis log10") == 4  # wide and narrow drawings
    assert ">Latency over message size<" in sec and ">Bandwidth over message size<" in sec
    # ticks in units: message sizes in powers of two (KiB, MiB: SPEC §16),
    # bandwidth in OSU's decimal MB/s and GB/s
    for tick in (">1 B<", ">256 B<", ">4 KiB<", ">1 MiB<", ">10 MB/s<", ">1 GB/s<",
                 ">10 \u00b5s<"):
        assert tick in sec, tick
    assert ">1 kB<" not in sec and ">1 MB<" not in sec
    assert "parameter" not in sec  # measured points only, no fit


try:
    report()
finally:
    S.close()
