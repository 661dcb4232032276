#!/usr/bin/env python3
"""`prophecyd copy` (SPEC §15, issue 18): a whole database from SQLite to
PostgreSQL and back, checked by comparing exports.

An SQLite database gets the demo, runs with provenance (commit, branch, tags),
a statistical watch that judged runs and raised an alert (its state changed),
a saved model with a model watch, a deleted run and an OTF2 trace (imported
with its analyses); it is copied to a new PostgreSQL database and from there
to a new SQLite file. The three exports (JSON and CSV) are the same bytes, the
two SQLite files hold the same rows in every table, and servers on the copies
answer the reads of history, alerts, models and traces as the original does.
A copy into a database that holds anything is refused and changes nothing.
Needs the private PostgreSQL cluster of the test harness (skipped visibly
without it)."""
import os
import sqlite3
import subprocess
import sys

import pgtest as pt
import prophecy_test
from prophecy_test import PROPHECYD, Server, report, run_doc, test

SRC = os.environ.get("PROPHECY_SRC", os.path.join(os.path.dirname(__file__), "../.."))
OTF2 = os.path.join(SRC, "tests/data/import/otf2/trace")

pt.require_postgres()

S = Server("--demo", db=pt.sqlite_path())
A = S.db


def copy(src, dst):
    return subprocess.run([PROPHECYD, "copy", "--from", src, "--to", dst],
                          capture_output=True, text=True, timeout=300)


def export(db, fmt):
    r = subprocess.run([PROPHECYD, "export", "--db", db, "--format", fmt],
                       capture_output=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout


# SQLite's own (schema.sql migration 10): a cache of the series, and the mark
# up to which watch_counts has counted; compared as the counts they give.
OWN = ("series_chunks", "watch_counts", "watch_counts_upto")


def varint(p, o):
    v = shift = 0
    while p[o] & 0x80:
        v |= (p[o] & 0x7F) << shift
        shift += 7
        o += 1
    return v | p[o] << shift, o + 1


def judgements(con):
    """Every (run, watch, out) of SQLite's packed rows (schema.sql migration
    11), read by the format's description in db/codec.c."""
    out = []
    for run, p in con.execute("SELECT run_id, data FROM run_judgements ORDER BY run_id"):
        assert p[0] == 1
        k, o = varint(p, 1)
        flags = []
        for _ in range(k):
            flags.append(p[o])
            o += 1 + 8 * (6 if p[o] & 16 else 5)
        n, o = varint(p, o)
        watch = 0
        for _ in range(n):
            step, o = varint(p, o)
            r, o = varint(p, o)
            watch += step
            out.append((run, watch, bool(flags[r] & 2)))
        assert o == len(p)
    return out


def counts(con):
    """Each watch's judged and out, as watch_counts and the judgements after
    its mark give them."""
    upto = con.execute("SELECT run_id FROM watch_counts_upto").fetchone()[0]
    out = []
    for w, judged, bad in con.execute(
            "SELECT w.id, coalesce(n.judged, 0), coalesce(n.out, 0) FROM watches w "
            "LEFT JOIN watch_counts n ON n.watch_id = w.id ORDER BY w.id").fetchall():
        rest = [o for run, wid, o in judgements(con) if wid == w and run > upto]
        out.append((w, judged + len(rest), bad + sum(rest)))
    return out


def rows(path):
    """Every table's rows of an SQLite file, in full order, and the counts
    each watch has."""
    con = sqlite3.connect(path)
    out = {}
    for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                               "ORDER BY name"):
        if name not in OWN:
            out[name] = con.execute(f'SELECT * FROM "{name}" ORDER BY 1, 2').fetchall()
    out["counts"] = counts(con)
    out["judgements"] = judgements(con)
    con.close()
    return out


def server_on(db):
    """A server on a copy: the original's token was copied with it."""
    srv = Server.__new__(Server)
    srv.token = S.token
    srv.__init__(db=db)
    return srv


def day(i):
    return "2026-10-%02dT09:00:00Z" % (i + 1)


# ---- the original: everything a database can hold ---------------------------
for i, rt in enumerate((10.0, 10.2, 9.8, 10.1, 9.9)):
    st, b = S.post("/api/v1/runs", run_doc(
        application="copied", runtime=rt, started_at=day(i), commit="c%d" % i,
        branch="main" if i % 2 else "dev", tags={"compiler": "gcc-12", "k": str(i)},
        kernels=[{"name": "solve", "time": rt * 0.7}, {"name": "halo", "time": rt * 0.2,
                                                          "calls": 3}],
        metrics={"gflops": 1.5 + i}, inputs={"N": 1000, "L": 64.5}))
    assert st == 201, b
st, b = S.post("/api/v1/watches", {"application": "copied", "system": "SGI Origin2000",
                                   "y": "runtime",
                                   "detector": {"test": "zscore", "threshold": 3,
                                                "window": 5}})
assert st == 201, b
WATCH = b["id"]
st, b = S.post("/api/v1/runs", run_doc(application="copied", runtime=20.0,
                                       started_at=day(6), commit="slow",
                                       inputs={"N": 1000, "L": 64.5}))
assert st == 201 and len(b["alerts"]) == 1, b
ALERT = b["alerts"][0]["id"]
st, b = S.request("PATCH", f"/api/v1/alerts/{ALERT}", {"state": "acknowledged"})
assert st == 200, b
# a saved model, watched
FIT = {"application": "copied", "system": "SGI Origin2000", "executable": "matmul_sgi",
       "x": "N", "graph": "linear", "save": True}
for n in (100, 200, 300):
    S.post("/api/v1/runs", run_doc(application="copied", inputs={"N": n, "L": 64.5},
                                   runtime=5.0 + n / 1000, started_at=day(7)))
st, b = S.post("/api/v1/fit", dict(FIT, fixed={"nprocs": 8, "L": 64.5}))
assert st == 201, b
MODEL = b["id"]
st, b = S.post("/api/v1/watches", {"detector": {"model": MODEL}})
assert st == 201, b
S.post("/api/v1/runs", run_doc(application="copied", inputs={"N": 400, "L": 64.5},
                               runtime=5.4, started_at=day(8)))
# a run without a runtime (SPEC §16) stays without one through both copies,
# as does its kernel without a time (migration 14)
NORT = run_doc(application="copied", inputs={"N": 400, "L": 64.5}, started_at=day(8),
               metrics={"flops": 7.0},
               kernels=[{"name": "multiply", "time": None, "metrics": {"visits": 3.0}}])
del NORT["runtime"]
st, b = S.post("/api/v1/runs", NORT)
assert st == 201, b
# a deleted run leaves ids with a gap and kernel counters as they are
st, b = S.post("/api/v1/runs", run_doc(application="copied", runtime=3.0,
                                       kernels=[{"name": "gone", "time": 1.0}],
                                       started_at=day(9)))
st, _ = S.request("DELETE", f"/api/v1/runs/{b['ids'][0]}")
assert st in (200, 204), st
out = subprocess.run([PROPHECYD, "import", OTF2, "--db", A], capture_output=True,
                     text=True, timeout=120)
assert out.returncode == 0, out.stderr
st, l = S.get("/api/v1/runs?application=otf2%20app")
TRACED = [r["id"] for r in l["runs"]]
S.kill()

PG = pt.postgres_database()
B = os.path.join(S.tmp, "back.db")


@test
def sqlite_to_postgresql_to_sqlite():
    r = copy(A, PG)
    assert r.returncode == 0, r.stderr
    assert "copied" in r.stdout and "of 27 tables" in r.stdout, r.stdout
    r = copy(PG, B)
    assert r.returncode == 0, r.stderr
    a = rows(A)
    assert rows(B) == a
    for path in (A, B):
        con = sqlite3.connect(path)
        assert con.execute("SELECT count(*) FROM runs WHERE runtime IS NULL").fetchone() \
            == (1,)
        assert con.execute("SELECT count(*) FROM kernels WHERE time IS NULL").fetchone() \
            == (1,)
        con.close()
    assert a["counts"] == [(1, 5, 1), (2, 1, 0)], a["counts"]
    # each trace's analysis version (migration 21) travels with it: a copy
    # that left it behind would have the target analyse every trace again
    versions = [(rid, v) for rid, *_, v in a["traces"]]
    assert versions and all(v > 0 for _, v in versions), a["traces"]
    got = prophecy_test.pg_sql(PG[len(prophecy_test.PG):],
                               "SELECT run_id, analysed FROM traces ORDER BY run_id")
    assert [(int(r), int(v)) for r, v in got] == versions, got


@test
def the_three_exports_are_the_same_bytes():
    for fmt in ("json", "csv"):
        a, p, b = export(A, fmt), export(PG, fmt), export(B, fmt)
        assert len(a) > 1000, a[:200]
        assert a == p, f"{fmt}: sqlite and postgresql exports differ"
        assert a == b, f"{fmt}: the round trip's export differs"


READS = [
    "/api/v1/applications", "/api/v1/applications/copied", "/api/v1/systems",
    "/api/v1/watches", "/api/v1/alerts", "/api/v1/alerts?state=acknowledged",
    "/api/v1/alert-groups",
    "/api/v1/series?application=copied&system=SGI%20Origin2000&y=runtime&input.N=1000",
    "/api/v1/series?application=copied&system=SGI%20Origin2000&y=kernel:solve&input.N=1000",
    "/api/v1/series?application=copied&system=SGI%20Origin2000&y=runtime&input.N=400",
    "/api/v1/compare?application=copied&a=commit:c0&b=branch:main&c=tag:k=3",
    f"/api/v1/models/{MODEL}", f"/api/v1/models/{MODEL}/ledger", "/api/v1/models",
    "/api/v1/runs?application=copied&limit=100", "/api/v1/runs?tag.compiler=gcc-12",
]


@test
def servers_on_the_copies_answer_as_the_original():
    reads = list(READS)
    for rid in TRACED:
        reads += [f"/api/v1/runs/{rid}", f"/api/v1/runs/{rid}/trace",
                  f"/api/v1/runs/{rid}/trace/wait", f"/api/v1/runs/{rid}/trace/profile"]
    S.start()
    P = server_on(PG)
    try:
        for path in reads:
            want = S.get(path)
            assert want[0] == 200, (path, want)
            assert P.get(path) == want, path
    finally:
        pt.stop(P)
        S.kill()


@test
def new_ids_follow_the_copied_ones():
    P = server_on(PG)
    try:
        st, b = P.post("/api/v1/runs", run_doc(application="copied", id="after-copy",
                                               kernels=[{"name": "fresh", "time": 1.0}]))
        assert st == 201, b
        # the kernel-name triggers, off while the copy loaded, work again
        st, app = P.get("/api/v1/applications/copied")
        assert {"name": "fresh", "records": 1} in app["kernels"], app["kernels"]
        con = sqlite3.connect(A)
        (top,) = con.execute("SELECT max(id) FROM runs").fetchone()
        con.close()
        assert b["ids"][0] > top, (b, top)
        st, b = P.post("/api/v1/watches", {"application": "copied", "system":
                                           "SGI Origin2000", "detector": {"test": "zscore"}})
        assert st == 201 and b["id"] > WATCH, b
    finally:
        pt.stop(P)


@test
def a_non_empty_target_is_refused_and_unchanged():
    before = export(PG, "json")
    r = copy(A, PG)
    assert r.returncode == 1, r
    assert "not empty" in r.stderr and "nothing was copied" in r.stderr, r.stderr
    assert export(PG, "json") == before
    before = rows(B)
    r = copy(A, B)
    assert r.returncode == 1 and "not empty" in r.stderr, r.stderr
    assert rows(B) == before


@test
def a_missing_source_is_an_error():
    r = copy(os.path.join(S.tmp, "nope.db"), os.path.join(S.tmp, "new.db"))
    assert r.returncode == 1 and "no database at" in r.stderr, r.stderr
    assert not os.path.exists(os.path.join(S.tmp, "new.db"))
    r = subprocess.run([PROPHECYD, "copy", "--from", A], capture_output=True, text=True)
    assert r.returncode == 64 and "usage" in r.stderr, r.stderr


S.close()
report()
