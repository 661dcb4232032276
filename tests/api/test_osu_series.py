"""OSU logs of several tables that the log labels differently (SPEC §16): a
job script that runs osu_latency once per core placement and prints a line of
its own before each table ("Testing Same CCX", ...). Each table is a series
of its own, its line kept as written (the label) and the test named as OSU
names it, in the JSON API (/api/v1/systems/NAME, .../benchmarks) and on the
system page; tables the log does not tell apart stay one series. Importing
again stores nothing new, also over rows stored before the store kept labels
(migration 20)."""
import html
import os
import re
import sqlite3
import urllib.parse

import prophecy_test
from prophecy_test import Server, pg_new_database, pg_sql, report, test

SRC = os.environ.get("PROPHECY_SRC", os.path.join(os.path.dirname(__file__), "../.."))
CORPUS = os.path.join(SRC, "../shared/corpus/imports/osu")
S = Server()


def table(*values):
    return ("# OSU MPI Latency Test v7.4\n# Datatype: MPI_CHAR.\n"
            "# Size       Avg Latency(us)\n" +
            "".join(f"{1 << i:<8d} {v}\n" for i, v in enumerate(values)))


PLACEMENTS = ("Running osu_latency tests across different core configurations...\n"
              "Testing Same CCX\n\n" + table("0.16", "0.15", "0.15") +
              "Testing Same CCD, Different CCX\n\n" + table("0.32", "0.31", "0.31") +
              "Testing Different NODE\n\n" + table("1.80", "1.79", "1.79") +
              "All tests completed.\n")


def post(body, **query):
    return S.request("POST", "/api/v1/import?" + urllib.parse.urlencode(query),
                     body.encode() if isinstance(body, str) else body,
                     ctype="application/octet-stream")


def benchmarks(system, **query):
    q = ("?" + urllib.parse.urlencode(query)) if query else ""
    st, body = S.get(f"/api/v1/systems/{urllib.parse.quote(system)}/benchmarks{q}")
    assert st == 200, body
    return body["benchmarks"]


def system_page(system):
    """(latency figure, bandwidth figure, benchmark table rows) of the page."""
    st, body, _ = S.request("GET", "/systems/" + urllib.parse.quote(system), raw=True,
                            token=None)
    assert st == 200, body
    page = body.decode()
    figs = re.findall(r"<figure.*?</figure>", page, re.S)
    lat = "".join(f for f in figs if "Latency over message size" in f)
    bw = "".join(f for f in figs if "Bandwidth over message size" in f)
    rows = re.findall(r'<tr><td class="desc">(.*?)</td><td>([\w ]+)</td>'
                      r'<td class="num">(\d+)</td>', page)
    return lat, bw, [(html.unescape(re.sub(r"<[^>]+>", "", a)), m, int(n))
                     for a, m, n in rows]


def summary(system):
    st, body = S.get(f"/api/v1/systems/{urllib.parse.quote(system)}")
    assert st == 200, body
    return body["benchmarks"]


@test
def tables_the_log_labels_differently_are_series_of_their_own():
    st, ans = post(PLACEMENTS, format="osu", system="epyc")
    assert st == 201 and ans["benchmarks"]["created"] == 9, ans
    rows = benchmarks("epyc", name="MPISR")
    assert len(rows) == 9, rows
    assert all(r["test"] == "osu_latency" for r in rows), rows
    by = {}
    for r in rows:
        by.setdefault(r["label"], []).append((r["args"]["L"], r["time"]))
    assert sorted(by) == ["Testing Different NODE", "Testing Same CCD, Different CCX",
                          "Testing Same CCX"], sorted(by)
    assert by["Testing Same CCX"][0] == (1, 1.6e-07), by
    assert by["Testing Different NODE"][0] == (1, 1.8e-06), by
    # the system's summary: one entry a series, with its label and test, in
    # the order the log measured them
    got = [(b["name"], b["test"], b["label"], b["measurements"]) for b in summary("epyc")]
    assert got == [("MPISR", "osu_latency", "Testing Same CCX", 3),
                   ("MPISR", "osu_latency", "Testing Same CCD, Different CCX", 3),
                   ("MPISR", "osu_latency", "Testing Different NODE", 3)], got
    # the same log again stores nothing new
    st, again = post(PLACEMENTS, format="osu", system="epyc")
    assert st == 200 and again["created"] == 0, again


@test
def repetitions_stay_one_series():
    # the same line before every table, or none: one series measured again
    for system, log in (("same-line", "Testing Same CCX\n" + table("0.16", "0.15") +
                         "Testing Same CCX\n" + table("0.17", "0.15")),
                        ("no-line", table("0.16", "0.15") + table("0.17", "0.15"))):
        st, ans = post(log, format="osu", system=system)
        assert st == 201 and ans["benchmarks"]["created"] == 4, ans
        got = [(b["name"], b["test"], b["label"], b["measurements"])
               for b in summary(system)]
        assert got == [("MPISR", "osu_latency", "", 4)], (system, got)


@test
def the_corpus_log_of_six_placements():
    path = os.path.join(CORPUS, "hpc2023_osu_latency_7.4_multiblock.out")
    if not os.path.isfile(path):
        print("  (no shared corpus beside the checkout: not checked)")
        return
    with open(path, "rb") as f:
        st, ans = post(f.read(), format="osu", system="HPC2023")
    assert st == 201 and ans["benchmarks"]["created"] == 138, ans
    got = [(b["label"], b["measurements"]) for b in summary("HPC2023")]
    assert sorted(got) == sorted((label, 23) for label in (
        "Testing Same CCX", "Testing Same CCD, Different CCX", "Testing Same NUMA",
        "Testing Same SOCKET", "Testing Different SOCKET", "Testing Different NODE")), got
    # each placement's own 1 B latency, no longer one bar over all of them
    lat, _, _ = system_page("HPC2023")
    assert lat.count("Testing ") == 12 and "\u2026 and" not in lat, lat[:3000]
    at1 = {r["label"]: r["time"] for r in benchmarks("HPC2023", name="MPISR")
           if r["args"]["L"] == 1}
    assert at1["Testing Same CCX"] == 1.6e-07 and at1["Testing Same CCD, Different CCX"] \
        == 3.2e-07, at1


SIX = ("Testing Same CCX", "Testing Same CCD, Different CCX", "Testing Same NUMA",
       "Testing Same SOCKET", "Testing Different SOCKET", "Testing Different NODE")


def close(a, b, rel=1e-6):
    return abs(a - b) <= rel * abs(b)


def series_refused(ask, prefix):
    """ask(series) posts a request naming the series of the corpus log's
    MPISR ({} for none): every refusal a request reading one series gets,
    its field (prefix + "label" / "test") and its words."""
    st, b = ask({})
    assert st == 422 and b["error"]["field"] == prefix + "label", b
    assert b["error"]["message"] == (
        'benchmark MPISR of system HPC2023 has 6 series; name one with "label": '
        + ", ".join(f'"{label}"' for label in SIX)), b
    for series, field, text in (
            ({"label": "Testing Same CORE"}, "label",
             'benchmark MPISR of system HPC2023 has no series labelled "Testing Same '
             'CORE"; its labels: "Testing Same CCX", "Testing Same CCD, Different CCX", '),
            ({"label": "Testing Same CCX", "test": "osu_bw"}, "test",
             'benchmark MPISR of system HPC2023 has no series of test "osu_bw"; its '
             'tests: "osu_latency"'),
            ({"label": 7}, "label", "label must be a string"),
            ({"label": ["Testing Same CCX"]}, "label", "label must be a string")):
        st, b = ask(series)
        assert st == 422 and b["error"]["field"] == prefix + field, (series, b)
        assert b["error"]["message"].startswith(text), (series, b)


@test
def a_fit_on_the_corpus_log_follows_the_placement_it_names():
    """docs/api.md "On a machine curve": a stored basis names the series
    ("label"); the six placements of one MPISR are six curves, never one
    pooled over them. Each label's fit follows its own curve; without one
    the answer lists them and stores nothing."""
    if not os.path.isfile(os.path.join(CORPUS, "hpc2023_osu_latency_7.4_multiblock.out")):
        print("  (no shared corpus beside the checkout: not checked)")
        return
    curves = {}
    for r in benchmarks("HPC2023", name="MPISR"):
        curves.setdefault(r["label"], {})[r["args"]["L"]] = r["time"]
    assert sorted(curves) == sorted(SIX) and all(len(c) == 23 for c in curves.values())
    c0, c1, xs = 2e-6, 3.0, (64, 256, 1024, 4096, 16384)
    at_1m = {}
    for label in SIX:
        B = curves[label]
        data = [[x, (c0 + c1 * B[x]) * f] for x in xs for f in (0.99, 1.0, 1.01)]
        st, b = S.post("/api/v1/fit", {
            "x": "L", "data": data, "predict": [65536, 1048576],
            "basis": {"benchmark": "MPISR", "system": "HPC2023", "label": label}},
            token=False)
        assert st == 200, (label, b)
        m = b["model"]
        # that placement's 23 sizes, 1 B to 4 MiB, and the series named
        assert m["basis"] == {"name": "MPISR", "points": 23, "from": 1, "to": 4194304,
                              "scale": 1, "power": 1, "label": label,
                              "test": "osu_latency"}, m["basis"]
        assert close(m["coefficients"][0], c0) and close(m["coefficients"][1], c1), m
        for p in b["predictions"]:
            assert close(p["y"], c0 + c1 * B[p["x"]]), (label, p, B[p["x"]])
        at_1m[label] = b["predictions"][1]["y"]
    # six curves, six predictions: 1 MiB takes 81.47 us in one CCX, 176.5 us
    # between nodes
    assert close(at_1m["Testing Same CCX"], c0 + c1 * 81.47e-6), at_1m
    assert close(at_1m["Testing Different NODE"], c0 + c1 * curves[
        "Testing Different NODE"][1048576]), at_1m
    assert len(set(at_1m.values())) == 6, at_1m
    # the same measurements on two placements: each prediction is that
    # placement's curve through its own fitted law
    data = [[x, (c0 + c1 * curves["Testing Same NUMA"][x])] for x in xs]
    for label in ("Testing Same CCX", "Testing Different NODE"):
        st, b = S.post("/api/v1/fit", {
            "x": "L", "data": data, "predict": [1048576],
            "basis": {"benchmark": "MPISR", "system": "HPC2023", "label": label,
                      "test": "osu_latency"}}, token=False)
        assert st == 200 and b["model"]["basis"]["label"] == label, b
        k0, k1 = b["model"]["coefficients"]
        assert close(b["predictions"][0]["y"], k0 + k1 * curves[label][1048576]), b
        at_1m[label] = b["predictions"][0]["y"]
    assert not close(at_1m["Testing Same CCX"], at_1m["Testing Different NODE"], 0.05)
    # no label: not one curve of six, but the six to choose from; nothing
    # stored even when asked to save
    before = S.content()
    base = {"x": "L", "data": data, "save": True}
    series_refused(lambda series: S.post("/api/v1/fit", dict(base, basis=dict(
        {"benchmark": "MPISR", "system": "HPC2023"}, **series))), "basis.")
    assert S.content() == before


@test
def a_system_parameter_is_fitted_to_the_placement_it_names():
    """docs/api.md "Fitting a system parameter": the six placements of one
    MPISR are six series; a parameter fitted to one names it ("label") and
    reads only its rows, and without one the answer lists them and stores
    nothing."""
    if not os.path.isfile(os.path.join(CORPUS, "hpc2023_osu_latency_7.4_multiblock.out")):
        print("  (no shared corpus beside the checkout: not checked)")
        return
    url = "/api/v1/systems/HPC2023/parameters/fit"
    before = S.content()
    series_refused(lambda series: S.post(url, dict(
        {"parameter": "MPISR", "form": "hockney"}, **series)), "")
    assert S.content() == before
    # the fit of one placement is the relative least-squares line through
    # its own 23 sizes (the Hockney fit of docs/api.md), not through 138 rows
    rows = {}
    for r in benchmarks("HPC2023", name="MPISR"):
        rows.setdefault(r["label"], []).append((r["args"]["L"], r["time"]))
    for label in ("Testing Same CCX", "Testing Different NODE"):
        st, b = S.post(url, {"parameter": "MPISR", "form": "hockney", "label": label,
                             "store": False})
        assert st == 200, b
        assert b["points"] == 23 and b["label"] == label and b["test"] == "osu_latency", b
        L = [x for x, _ in rows[label]]
        t = [y for _, y in rows[label]]
        # min sum ((t - a - b L) / t)^2: the normal equations of weights 1/t^2
        w = [1 / y ** 2 for y in t]
        sw, sl, sll = sum(w), sum(wi * x for wi, x in zip(w, L)), \
            sum(wi * x * x for wi, x in zip(w, L))
        st_, slt = sum(wi * y for wi, y in zip(w, t)), \
            sum(wi * x * y for wi, x, y in zip(w, L, t))
        det = sw * sll - sl * sl
        a, bb = (sll * st_ - sl * slt) / det, (sw * slt - sl * st_) / det
        assert close(b["coefficients"][0], a, 1e-6) and \
            close(b["coefficients"][1], bb, 1e-6), (label, b["coefficients"], a, bb)
    st, b = S.post(url, {"parameter": "MPISR", "form": "hockney",
                         "label": "Testing Different NODE"})
    assert st == 201 and b["stored"], b
    st, sysj = S.get("/api/v1/systems/HPC2023")
    src = [p["source"] for p in sysj["parameters"] if p["name"] == "MPISR"]
    assert src == ['fit: hockney (relative weighting) to 23 MPISR benchmarks of '
                   'osu_latency labelled "Testing Different NODE", stat mean'], src
    # the system page draws the parameter against each placement's points,
    # not against their means over the six
    st, body, _ = S.request("GET", "/systems/HPC2023", raw=True, token=None)
    page = body.decode()
    plot = page[page.index('id="parameters"'):page.index('id="benchmarks"')]
    for label in SIX:
        assert f">measured \u00b7 {label}<" in plot, (label, plot[:3000])
    assert plot.count(">parameter<") >= 1 and ">measured<" not in plot, plot[:3000]


@test
def the_fit_form_offers_each_placement_and_the_saved_model_names_it():
    """The fit form's machine curves are the system's series (MPISR ·
    label); the one chosen goes to the request as "label", and the saved
    model's page names it."""
    if not os.path.isfile(os.path.join(CORPUS, "hpc2023_osu_latency_7.4_multiblock.out")):
        print("  (no shared corpus beside the checkout: not checked)")
        return
    numa = {r["args"]["L"]: r["time"] for r in benchmarks("HPC2023", name="MPISR")
            if r["label"] == "Testing Same NUMA"}
    runs = [{"application": "halo", "executable": "halo1", "system": "HPC2023",
             "nprocs": 2, "inputs": {"L": x}, "runtime": (2e-6 + 3 * numa[x]) * f}
            for x in (64, 256, 1024, 4096, 16384) for f in (0.99, 1.0, 1.01)]
    st, b = S.post("/api/v1/runs", {"runs": runs})
    assert st == 201, b
    sel = {"application": "halo", "executable": "halo1", "system": "HPC2023"}
    st, page, _ = S.request("GET", "/model/fit?" + urllib.parse.urlencode(
        dict(sel, step=2)), raw=True, token=None)
    assert st == 200, page
    select = re.search(r'<select id="f-basis" name="basis">(.*?)</select>',
                       page.decode(), re.S).group(1)
    assert re.findall(r'<option value="([^"]*)"', select) == [""] + [
        html.escape("MPISR · " + label) for label in SIX], select
    st, page, _ = S.request("GET", "/model/fit?" + urllib.parse.urlencode(dict(
        sel, x="L", y="runtime", graph="auto", basis="MPISR · Testing Same NUMA",
        predict="65536", step="result", **{"fix.nprocs": "2"})), raw=True, token=None)
    page = html.unescape(page.decode())
    assert st == 200 and "on the machine curve MPISR · Testing Same NUMA" in page, \
        page[-3000:]
    want = 2e-6 + 3 * numa[65536]
    assert '"label": "Testing Same NUMA"' in page, page[-3000:]
    shown = float(re.search(r'<strong id="predicted" data-value="([^"]+)"', page).group(1))
    assert close(shown, want, 1e-4), (shown, want)
    # a bare name (a link from before the placements were told apart): the
    # labels to choose from, at the field
    st, page, _ = S.request("GET", "/model/fit?" + urllib.parse.urlencode(dict(
        sel, x="L", y="runtime", graph="auto", basis="MPISR", predict="65536",
        step="result", **{"fix.nprocs": "2"})), raw=True, token=None)
    said = re.search(r'<p class="field-error" id="f-basis-error">(.*?)</p>', page.decode())
    assert st == 422 and html.unescape(said.group(1)).startswith(
        'benchmark MPISR of system HPC2023 has 6 series; name one with "label": '
        '"Testing Same CCX", '), page[-3000:]
    # the API's answer to the form's request, saved: its page names the placement
    st, saved = S.post("/api/v1/fit", {
        "application": "halo", "system": "HPC2023", "x": "L", "fixed": {"nprocs": 2},
        "basis": {"benchmark": "MPISR", "label": "Testing Same NUMA"},
        "predict": [65536], "save": True})
    assert st == 201 and close(saved["predictions"][0]["y"], want, 1e-4), saved
    st, m = S.get(f"/api/v1/models/{saved['id']}")
    assert m["result"]["model"]["basis"]["label"] == "Testing Same NUMA", m
    st, page, _ = S.request("GET", f"/models/{saved['id']}", raw=True, token=None)
    fact = re.search(r'<dd id="basis">(.*?)</dd>', page.decode()).group(1)
    assert html.unescape(fact) == ("MPISR (osu_latency · Testing Same NUMA), 23 "
                                   "points from 1 to 4194304"), fact


@test
def the_system_page_names_each_placement_by_its_test_and_label():
    """The latency plot draws a curve a placement, its legend (under the plot,
    every entry shown) naming the test and the label as written; the table
    names each series the same way, with the name fits use after it."""
    lat, _, rows = system_page("epyc")
    for label in ("Testing Same CCX", "Testing Same CCD, Different CCX",
                  "Testing Different NODE"):
        # the wide drawing and the narrow one
        assert lat.count(">osu_latency \u00b7 " + html.escape(label, quote=False) + "<") \
            == 2, (label, lat[:2000])
    assert "\u2026 and" not in lat and ", P=2" not in lat, lat[:2000]
    assert "P = 2 processes for every series" in lat, lat[-600:]
    assert rows == [
        ("osu_latency \u00b7 Testing Same CCX stored as MPISR", "time", 3),
        ("osu_latency \u00b7 Testing Same CCD, Different CCX stored as MPISR", "time", 3),
        ("osu_latency \u00b7 Testing Different NODE stored as MPISR", "time", 3)], rows


@test
def bandwidth_as_measured_is_its_tests_row_not_a_benchmark_of_its_own():
    log = ("# OSU MPI Multiple Bandwidth / Message Rate Test v7.4\n"
           "# [ pairs: 4 ] [ window size: 64 ]\n"
           "# Size                  MB/s        Messages/s\n"
           "1                       8.00        8000000.00\n"
           "1024                 4096.00        4000000.00\n")
    st, ans = post(log, format="osu", system="mbw")
    assert st == 201, ans
    _, bw, rows = system_page("mbw")
    assert rows == [("osu_mbw_mr stored as MPIMBW_MBS and MPIMBW", "bandwidth", 2),
                    ("osu_mbw_mr stored as MPIMBW_MSGS", "message rate", 2)], rows
    assert bw.count(">osu_mbw_mr<") == 2 and "MPIMBW" not in bw, bw[:2000]


@test
def posted_benchmarks_may_carry_a_label_and_a_test():
    st, _ = S.request("PUT", "/api/v1/systems/posted", {"description": "by hand"})
    assert st in (200, 201), st
    st, ans = S.post("/api/v1/systems/posted/benchmarks", {"benchmarks": [
        {"name": "MPISR", "args": {"L": 8, "P": 2}, "time": 1e-6, "label": "node 1–2",
         "test": "pingpong"},
        {"name": "MPISR", "args": {"L": 8, "P": 2}, "time": 2e-6}]})
    assert st == 201, ans
    got = sorted((r["label"], r["test"], r["time"]) for r in benchmarks("posted"))
    assert got == [("", "", 2e-6), ("node 1–2", "pingpong", 1e-6)], got
    # a benchmark posted without a test reads as before: its name first, the
    # OSU test the name stands for only as a hint (prophecy-bench's MPISR is
    # a ping-pong of its own)
    _, _, rows = system_page("posted")
    assert rows == [("MPISR (osu_latency)", "time", 1),
                    ("pingpong \u00b7 node 1\u20132 stored as MPISR", "time", 1)], rows
    # minima alone (prophecy-bench's, the demo's) draw no curve over message
    # size: no section of empty plots for them
    st, _ = S.request("PUT", "/api/v1/systems/minima", {"description": "by hand"})
    st, ans = S.post("/api/v1/systems/minima/benchmarks", {"benchmarks": [
        {"name": "MPISR", "args": {"L": L, "P": 2}, "time": 1e-6 * L, "stat": "min"}
        for L in (1, 1024)]})
    assert st == 201, ans
    st, body, _ = S.request("GET", "/systems/minima", raw=True, token=None)
    assert st == 200 and b'id="messages"' not in body, body[:3000]
    for bad in ({"label": "two\nlines"}, {"label": "x" * 257}, {"test": 7}):
        st, err = S.post("/api/v1/systems/posted/benchmarks", {"benchmarks": [
            dict({"name": "MPISR", "time": 1e-6}, **bad)]})
        assert st == 422 and err["error"]["field"].startswith("benchmarks[0]."), (bad, err)


@test
def rows_stored_before_migration_20_are_not_stored_again():
    """A database from before labels and tests: its rows read with none, and
    importing the output they came from again stores nothing new."""
    name = "schema_pg.sql" if S.is_pg() else "schema.sql"
    with open(os.path.join(SRC, name)) as f:
        schema = f.read()
    before = schema[:schema.index("-- migration 20")]
    old_rows = ("INSERT INTO systems (id, name) VALUES (1, 'old');\n"
                "INSERT INTO system_benchmarks (system_id, name, args, time, stat) VALUES "
                "(1, 'MPISR', '{\"L\":1,\"P\":2}', 1.6e-07, 'mean'), "
                "(1, 'MPISR', '{\"L\":2,\"P\":2}', 1.5e-07, 'mean');\n")
    if S.is_pg():
        db = pg_new_database()
        pg_sql(db[len(prophecy_test.PG):],
               [before, old_rows, "UPDATE prophecy_schema SET version = 19"])
    else:
        db = os.path.join(S.tmp, "before20.db")
        con = sqlite3.connect(db)
        con.executescript(before + old_rows + "PRAGMA user_version = 19;")
        con.close()
    old = Server(db=db)
    try:
        st, body = old.get("/api/v1/systems/old/benchmarks")
        assert st == 200, body
        assert [(r["label"], r["test"]) for r in body["benchmarks"]] == [("", "")] * 2, body
        st, ans = old.request("POST", "/api/v1/import?format=osu&system=old",
                              table("0.16", "0.15").encode(),
                              ctype="application/octet-stream")
        assert st == 200 and ans["created"] == 0, ans
    finally:
        old.close()


report()
