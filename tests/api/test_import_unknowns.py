"""What a file does not hold stays unknown (SPEC §16, after issue 31):

- Call counts: a file that counts no calls (Extra-P input files and
  experiments, Caliper, HPCToolkit, a CUBE profile without visits) stores
  its kernels' calls as NULL, answers `"calls": null` and shows "—" on the
  run page, never a made-up 0 (or 1); files that count calls keep them, 0
  included; an API document may say `"calls": null`, so an answer posted
  back keeps it; importing a file again stores nothing new.
- Caliper: cali-query's json of counts alone (no time column) is recognised
  by its shape under format auto.
- TAU: with a TIME metric, a function that only a counter metric measured is
  a kernel without a time, with its counter and its calls.
- Migration 18 takes the counts importers made up out of an older store, on
  both engines."""
import io
import json
import os
import re
import sqlite3
import tarfile
import urllib.parse

import prophecy_test
from prophecy_test import Server, pg_new_database, pg_sql, report, run_doc, test

SRC = os.environ.get("PROPHECY_SRC", os.path.join(os.path.dirname(__file__), "../.."))
DATA = os.path.join(SRC, "tests/data/import")
CORPUS = os.path.join(SRC, "../shared/corpus/imports")
S = Server()
DASH = "\u2014"


def tar_of(directory=None, members=None):
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as t:
        if directory is not None:
            for root, _, files in sorted(os.walk(directory)):
                for f in sorted(files):
                    path = os.path.join(root, f)
                    t.add(path, arcname=os.path.relpath(path, directory))
        for name, data in (members or {}).items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return out.getvalue()


def body_of(path):
    if os.path.isdir(path):
        return tar_of(path)
    with open(path, "rb") as f:
        return f.read()


def post_import(body, **query):
    q = urllib.parse.urlencode(query)
    return S.request("POST", "/api/v1/import?" + q, body, ctype="application/octet-stream")


def calls_rows(app):
    """(name, calls or None) of the application's kernels as stored (psql
    prints NULL as an empty text, so NULL is asked for on its own)."""
    rows = S.sql("SELECT k.name, CASE WHEN k.calls IS NULL THEN 1 ELSE 0 END, "
                 "coalesce(k.calls, 0) FROM kernels k JOIN runs r ON r.id = k.run_id "
                 "JOIN applications a ON a.id = r.app_id WHERE a.name = ? "
                 "ORDER BY k.run_id, k.seq", (app,))
    return [(n, None if int(null) else int(c)) for n, null, c in rows]


def page(url):
    st, html, _ = S.request("GET", url, token=None, raw=True)
    assert st == 200, (url, st)
    return html.decode()


def calls_cells(html):
    """{kernel name: its Calls cell} of the run page's kernels table."""
    t = html[html.index('<caption class="vh">Kernels</caption>'):]
    t = t[:t.index("</table>")]
    head = re.findall(r"<th[^>]*>(.*?)</th>", t[:t.index("</thead>")])
    col = head.index("Calls") - 1  # the row's first cell is its number
    out = {}
    for tr in re.findall(r"<tr><td class=\"num\">\d+</td>(.*?)</tr>", t, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
        out[re.sub(r"<[^>]*>", "", cells[0])] = cells[col]
    return out


# file, format, what the runs hold: (runs, kernels) over all of them
UNCOUNTED = [
    (os.path.join(DATA, "extrap-jsonl/input.jsonl"), "extrap-jsonl", 3, 5),
    (os.path.join(DATA, "extrap-text/lulesh.txt"), "extrap-text", 6, 12),
    (os.path.join(DATA, "caliper-json/query.json"), "caliper-json", 1, 3),
    (os.path.join(DATA, "caliper-json/split.json"), "caliper-json", 1, 3),
    (os.path.join(DATA, "extrap-experiment/solver.extra-p"), "extrap-experiment", 6, 12),
    (os.path.join(CORPUS, "extrap-jsonl/extended1.jsonl"), "extrap-jsonl", 125, 125),
    (os.path.join(CORPUS, "hpctoolkit"), "hpctoolkit", None, None),
]


@test
def a_file_without_call_counts_stores_none_and_shows_a_dash():
    for i, (path, fmt, nruns, nkernels) in enumerate(UNCOUNTED):
        if not os.path.exists(path):
            print(f"SKIP: {path} is not here")
            continue
        if os.path.isdir(path):  # a directory of databases: the first one
            sub = sorted(os.listdir(path))[0]
            path = os.path.join(path, sub)
        app = f"uncounted{i}"
        body = body_of(path)
        st, ans = post_import(body, filename=os.path.basename(path), format=fmt,
                              application=app)
        assert st == 201, (path, st, ans)
        if nruns is not None:
            assert ans["created"] == nruns, (path, ans)
        rows = calls_rows(app)
        assert rows and all(c is None for _, c in rows), (path, rows[:5])
        if nkernels is not None:
            assert len(rows) == nkernels, (path, len(rows))
        st, run = S.get(f"/api/v1/runs/{ans['ids'][0]}")
        assert st == 200 and run["kernels"], run
        assert all(k["calls"] is None for k in run["kernels"]), (path, run["kernels"][:3])
        cells = calls_cells(page(f"/runs/{ans['ids'][0]}"))
        assert cells and set(cells.values()) == {DASH}, (path, cells)
        # again: the same runs, nothing new
        before = S.content()
        st, again = post_import(body, filename=os.path.basename(path), format=fmt,
                                application=app)
        assert st == 200 and again["created"] == 0, (path, again)
        assert S.content() == before


@test
def counted_calls_stay_as_counted():
    # TAU counts calls: MPI_Allreduce 10 and 12 times on the two ranks
    st, ans = post_import(tar_of(os.path.join(DATA, "tau/run")), format="tau",
                          application="counted")
    assert st == 201, ans
    assert dict(calls_rows("counted")) == {".TAU application": 1,
                                           "int main(int, char **) C": 1,
                                           "MPI_Allreduce()": 12}, calls_rows("counted")
    cells = calls_cells(page(f"/runs/{ans['ids'][0]}"))
    assert cells["MPI_Allreduce()"] == "12" and cells[".TAU application"] == "1", cells


@test
def a_document_may_say_calls_null_and_reads_back_as_sent():
    doc = run_doc(application="docnull", executable="x", runtime=3.0, id="docnull-1",
                  kernels=[{"name": "solve", "time": 2.0, "calls": None},
                           {"name": "halo", "time": 0.5, "calls": 0},
                           {"name": "io", "time": 0.25}],
                  metrics={})
    st, b = S.post("/api/v1/runs", doc)
    assert st == 201, b
    rid = b["ids"][0]
    st, run = S.get(f"/api/v1/runs/{rid}")
    # null stays unknown; 0 is a count; absent is the documented default, 1
    assert [(k["name"], k["calls"]) for k in run["kernels"]] == [
        ("solve", None), ("halo", 0), ("io", 1)], run["kernels"]
    assert calls_rows("docnull") == [("solve", None), ("halo", 0), ("io", 1)]
    cells = calls_cells(page(f"/runs/{rid}"))
    assert cells == {"solve": DASH, "halo": "0", "io": "1"}, cells
    # the answer's kernels posted back as another run keep their unknown count
    again = run_doc(application="docnull", executable="x", runtime=3.0, id="docnull-2",
                    kernels=run["kernels"], metrics={})
    st, b2 = S.post("/api/v1/runs", again)
    assert st == 201, b2
    st, run2 = S.get(f"/api/v1/runs/{b2['ids'][0]}")
    assert run2["kernels"] == run["kernels"], (run2["kernels"], run["kernels"])
    # the same document again is the same run; a count where there was none
    # is another
    st, same = S.post("/api/v1/runs", doc)
    assert st == 200 and same["existing"] == 1, same
    before = S.content()
    changed = json.loads(json.dumps(doc))
    changed["kernels"][0]["calls"] = 0
    st, c = S.post("/api/v1/runs", changed)
    assert st == 409 and c["error"]["field"] == "id", (st, c)
    for bad in (-1, 1.5, "many"):
        d = run_doc(application="docnull", executable="x", id="docnull-bad",
                    kernels=[{"name": "k", "time": 1.0, "calls": bad}])
        st, e = S.post("/api/v1/runs", d)
        assert st == 422 and e["error"]["field"] == "kernels[0].calls", (bad, st, e)
    assert S.content() == before


CALI_COUNTS = (b'[\n{"count":1},\n{"mpi.rank":0,"path":"main","count":3,"alloc.total_size":64},\n'
               b'{"mpi.rank":0,"path":"main/solve","count":20,"alloc.total_size":4096},\n'
               b'{"mpi.rank":1,"path":"main","count":3,"alloc.total_size":32},\n'
               b'{"mpi.rank":1,"path":"main/solve","count":22,"alloc.total_size":2048}\n]\n')


@test
def caliper_records_without_a_time_column_are_recognised():
    for name, body in (("counts.json", CALI_COUNTS),
                       ("counts-object.json",
                        b'{"records": ' + CALI_COUNTS + b', "globals": '
                        b'{"cali.caliper.version": "2.10.0"}}')):
        app = "cali-" + name.split(".")[0]
        st, ans = post_import(body, filename=name, application=app)  # format: auto
        assert st == 201 and ans["format"] == "caliper-json", (name, st, ans)
        st, run = S.get(f"/api/v1/runs/{ans['ids'][0]}")
        assert run["runtime"] is None and run["nprocs"] == 2, run
        ks = {k["name"]: k for k in run["kernels"]}
        assert set(ks) == {"main", "main/solve"}, ks
        assert all(k["time"] is None and k["calls"] is None for k in ks.values()), ks
        # per rank summed, the largest over the ranks
        assert ks["main/solve"]["metrics"]["count"] == 22, ks
        assert ks["main/solve"]["metrics"]["alloc.total_size"] == 4096, ks
    # a list of another shape is still not guessed
    before = S.content()
    st, ans = post_import(b'[{"a": 1}, {"b": 2}]', filename="other.json")
    assert st == 422 and ans["error"]["code"] == "unknown_format", (st, ans)
    assert S.content() == before


TAU_TIME = (b'2 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls #\n'
            b'".TAU application" 1 1 1000000 3000000 0 GROUP="TAU_DEFAULT"\n'
            b'"solve()" 2 0 2000000 2000000 0 GROUP="TAU_DEFAULT"\n'
            b'0 aggregates\n0 userevents\n')
TAU_OPS = (b'3 templated_functions_MULTI_PAPI_FP_OPS\n# Name Calls Subrs Excl Incl '
           b'ProfileCalls #\n".TAU application" 1 2 10 1000 0 GROUP="TAU_DEFAULT"\n'
           b'"solve()" 2 0 900 900 0 GROUP="TAU_DEFAULT"\n'
           b'"hw_only()" 7 0 90 90 0 GROUP="TAU_DEFAULT"\n0 aggregates\n0 userevents\n')


@test
def tau_keeps_a_function_that_only_counters_measured():
    body = tar_of(members={"MULTI__TIME/profile.0.0.0": TAU_TIME,
                           "MULTI__PAPI_FP_OPS/profile.0.0.0": TAU_OPS})
    st, ans = post_import(body, application="tauctr")  # format: auto
    assert st == 201 and ans["format"] == "tau", (st, ans)
    rid = ans["ids"][0]
    st, run = S.get(f"/api/v1/runs/{rid}")
    assert run["runtime"] == 3.0, run
    ks = {k["name"]: k for k in run["kernels"]}
    assert set(ks) == {".TAU application", "solve()", "hw_only()"}, ks
    hw = ks["hw_only()"]
    assert hw["time"] is None and hw["calls"] == 7, hw
    assert hw["metrics"] == {"PAPI_FP_OPS": 90, "PAPI_FP_OPS_inclusive": 90,
                             "PAPI_FP_OPS_inclusive_mean": 90,
                             "PAPI_FP_OPS_inclusive_min": 90}, hw
    assert ks["solve()"]["time"] == 2.0 and ks["solve()"]["calls"] == 2, ks
    html = page(f"/runs/{rid}")
    assert calls_cells(html) == {".TAU application": "1", "solve()": "2", "hw_only()": "7"}
    # the breakdown is of the timed kernels only
    svg = html[html.index("<svg"):html.index("</svg>")]
    assert ">solve()<" in svg and ">hw_only()<" not in svg, svg[:1500]


LEGACY = """
INSERT INTO applications (id, name) VALUES (1, 'legacy');
INSERT INTO executables (id, app_id, name) VALUES (1, 1, 'x');
INSERT INTO systems (id, name) VALUES (1, 's');
INSERT INTO runs (id, uid, app_id, exe_id, system_id, nprocs, runtime, created_at, at_ms)
VALUES (1, 'extrap-jsonl:aa', 1, 1, 1, 1, 2.0, '2026-01-01T00:00:00Z', 0),
       (2, 'extrap-experiment:bb', 1, 1, 1, 1, 2.0, '2026-01-01T00:00:00Z', 0),
       (3, 'cube:cc', 1, 1, 1, 1, 2.0, '2026-01-01T00:00:00Z', 0),
       (4, 'job-1', 1, 1, 1, 1, 2.0, '2026-01-01T00:00:00Z', 0),
       (5, 'caliper-json:dd', 1, 1, 1, 1, 2.0, '2026-01-01T00:00:00Z', 0),
       (6, 'hpctoolkit:ee', 1, 1, 1, 1, 2.0, '2026-01-01T00:00:00Z', 0),
       (7, 'otf2:ff', 1, 1, 1, 1, 2.0, '2026-01-01T00:00:00Z', 0);
INSERT INTO kernels (run_id, seq, name, time, calls, metrics)
VALUES (1, 0, 'k', 1, 0, NULL), (1, 1, 'm', 1, 0, '{"visits": 4}'), (2, 0, 'k', 1, 1, NULL),
       (3, 0, 'k', 1, 0, NULL), (3, 1, 'm', 1, 0, '{"visits": 0}'),
       (3, 2, 'n', 1, 5, '{"visits": 5}'), (4, 0, 'k', 1, 0, NULL),
       (5, 0, 'k', 1, 0, NULL), (6, 0, 'k', 1, 0, NULL), (7, 0, 'k', 1, 0, NULL);
"""


@test
def an_older_store_loses_only_the_counts_importers_made_up():
    """Migration 18 on a store written before it, on this engine: the counts
    importers made up (0 from Extra-P input files, Caliper, HPCToolkit and a
    CUBE profile without visits; 1 from an Extra-P experiment) become NULL;
    measured ones (CUBE visits, OTF2, a run sent with its own id) stay, 0
    included."""
    name = "schema_pg.sql" if S.is_pg() else "schema.sql"
    with open(os.path.join(SRC, name)) as f:
        schema = f.read()
    before18 = schema[:schema.index("-- migration 18")]
    if S.is_pg():
        db = pg_new_database()
        pg_sql(db[len(prophecy_test.PG):],
               [before18, LEGACY, "UPDATE prophecy_schema SET version = 17"])
    else:
        db = os.path.join(S.tmp, "legacy.db")
        con = sqlite3.connect(db)
        con.executescript(before18)
        con.close()
        con = sqlite3.connect(db)  # a new connection reads the tables as they are
        con.executescript(LEGACY + "PRAGMA user_version = 17;")
        con.close()
    old = Server(db=db)
    try:
        got = [tuple(int(x) for x in r) for r in old.sql(
            "SELECT run_id, seq, coalesce(calls, -1) FROM kernels ORDER BY run_id, seq")]
        assert got == [(1, 0, -1), (1, 1, -1), (2, 0, -1), (3, 0, -1), (3, 1, 0),
                       (3, 2, 5), (4, 0, 0), (5, 0, -1), (6, 0, -1), (7, 0, 0)], got
        st, run = old.get("/api/v1/runs/3")
        assert [k["calls"] for k in run["kernels"]] == [None, 0, 5], run["kernels"]
    finally:
        old.close()


report()
