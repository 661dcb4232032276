"""Stored traces analysed again after an upgrade (core/trace_renew.h): a
trace's answers and charts are computed once, on arrival, so the traces an
older prophecyd stored kept its answers and charts. Each trace now records
the version of the analyses that computed it (traces.analysed, migration 21),
and `prophecyd serve` analyses again, from the stored rank files and before
it listens, every trace of an older version.

Traces are stored through the real server (a recorder-format trace with its
run, an OTF2 import); the server is stopped and the store made to look as an
older prophecyd left it (the column gone and the schema at 20, or a version
of 0) with answers and charts that are not this version's; started again,
the server gives back exactly what arrival stored, at this version. A trace
at this version is left byte for byte as it is, and one whose rank files
are damaged is named on stderr and kept while the server serves."""
import json
import os

import prophecy_test as pt
from prophecy_test import tar_of_members as tar_of, Server, report, run_doc, test

SRC = os.environ.get("PROPHECY_SRC", os.path.join(os.path.dirname(__file__), "../.."))
HALO = os.path.join(SRC, "tests/data/trace/v2-halo")
OTF2 = os.path.join(SRC, "tests/data/import/otf2/trace")

S = Server()
LOG = os.path.join(S.tmp, "server.log")



def halo_run(uid):
    """The 4-rank halo trace (tests/data/trace/v2-halo) with a run of its
    own through POST /api/v1/traces; the run id."""
    files = {f: open(os.path.join(HALO, f), "rb").read()
             for f in os.listdir(HALO) if f.startswith("trace.")}
    files["run.json"] = json.dumps(run_doc(id=uid, application="halo", nprocs=4)).encode()
    st, ans = S.post("/api/v1/traces", tar_of(files), ctype="application/x-tar")
    assert st == 201 and ans["trace"] == "created", ans
    return ans["run_id"]


def otf2_run():
    st, ans = S.request("POST", "/api/v1/import?format=otf2&application=renewotf2",
                        pt.tar_of(OTF2), ctype="application/octet-stream")
    assert st == 201, ans
    st, listing = S.get("/api/v1/runs?application=renewotf2")
    return listing["runs"][0]["id"]


def analyses(rid):
    """run rid's stored analyses: (name, answer, svg) in name order."""
    if S.is_pg():
        # one line of JSON: psql's rows end at the newlines the SVG holds
        (line,), = S.sql("SELECT jsonb_agg(jsonb_build_array(name, answer, svg) "
                         "ORDER BY name) FROM trace_analyses WHERE run_id = ?", (rid,))
        return [tuple(r) for r in json.loads(line)]
    return S.sql("SELECT name, answer, svg FROM trace_analyses WHERE run_id = ? "
                 "ORDER BY name", (rid,))


def version(rid):
    (v,), = S.sql("SELECT analysed FROM traces WHERE run_id = ?", (rid,))
    return int(v)


def make_old(rid, name):
    """run rid's analysis `name` as an older version drew it."""
    S.sql("UPDATE trace_analyses SET answer = '{\"old\":1}', svg = '<svg>old</svg>' "
          "WHERE run_id = ? AND name = ?", (rid, name))


def restart():
    """Starts the server again; what it wrote on stderr while starting."""
    at = os.path.getsize(LOG)
    S.start()
    with open(LOG, "rb") as f:
        f.seek(at)
        return f.read().decode(errors="replace")


HALO_RID = halo_run("renew-halo")
OTF2_RID = otf2_run()
DAMAGED_RID = halo_run("renew-damaged")
TRACED = (HALO_RID, OTF2_RID, DAMAGED_RID)
# what arrival stores, at the version a new trace gets
FRESH = {rid: analyses(rid) for rid in TRACED}
CURRENT = version(HALO_RID)


def served_as_fresh(rid):
    """The reads answer what arrival stored: the JSON and the chart."""
    for name, answer, svg in FRESH[rid]:
        st, body = S.get(f"/api/v1/runs/{rid}/trace/{name}")
        assert st == 200 and body == json.loads(answer), (rid, name, st)
        st, chart, _ = S.request("GET", f"/plots/run-{rid}-{name}.svg", raw=True,
                                 token=None)
        assert st == 200 and chart.decode() == svg, (rid, name, st)


@test
def new_traces_are_stored_at_the_current_version():
    assert CURRENT > 0, CURRENT
    assert [version(rid) for rid in TRACED] == [CURRENT] * 3
    assert len(FRESH[HALO_RID]) == 7 and len(FRESH[OTF2_RID]) == 7, FRESH[HALO_RID]
    # the OTF2 trace's region "compute" is a state, told from the class
    assert any("compute (state)" in svg for _, _, svg in FRESH[OTF2_RID])


@test
def traces_stored_before_migration_21_are_analysed_again():
    S.kill()
    make_old(HALO_RID, "wait")
    make_old(HALO_RID, "profile")
    make_old(OTF2_RID, "occupancy")
    # as a prophecyd of schema 20 left the store: no column, every trace older
    S.sql("ALTER TABLE traces DROP COLUMN analysed")
    if S.is_pg():
        S.sql("UPDATE prophecy_schema SET version = 20")
    else:
        S.sql("PRAGMA user_version = 20")
    said = restart()
    assert "prophecyd: re-analysed 3 stored traces drawn by an older version" in said, said
    for rid in TRACED:
        assert analyses(rid) == FRESH[rid], rid
        assert version(rid) == CURRENT, rid
    served_as_fresh(HALO_RID)
    served_as_fresh(OTF2_RID)


@test
def only_older_traces_are_analysed_again_and_once():
    S.kill()
    S.sql("UPDATE traces SET analysed = 0 WHERE run_id = ?", (HALO_RID,))
    make_old(HALO_RID, "timeline")
    # one at this version with a chart it did not draw: reads never
    # recompute, and a current trace is not analysed again
    make_old(OTF2_RID, "clusters")
    kept = analyses(OTF2_RID)
    said = restart()
    assert "re-analysed 1 stored trace drawn by an older version" in said, said
    assert analyses(HALO_RID) == FRESH[HALO_RID] and version(HALO_RID) == CURRENT
    assert analyses(OTF2_RID) == kept and version(OTF2_RID) == CURRENT
    st, body = S.get(f"/api/v1/runs/{OTF2_RID}/trace/clusters")
    assert st == 200 and body == {"old": 1}, body
    # started again with nothing older: nothing is done, nothing said
    S.kill()
    said = restart()
    assert "re-analysed" not in said, said
    assert analyses(OTF2_RID) == kept
    # the OTF2 trace made older is analysed again too
    S.kill()
    S.sql("UPDATE traces SET analysed = 0 WHERE run_id = ?", (OTF2_RID,))
    said = restart()
    assert "re-analysed 1 stored trace drawn by" in said, said
    assert analyses(OTF2_RID) == FRESH[OTF2_RID] and version(OTF2_RID) == CURRENT


@test
def a_trace_that_cannot_be_analysed_is_kept_and_the_server_serves():
    S.kill()
    S.sql("UPDATE traces SET analysed = 0 WHERE run_id IN (?, ?)", (DAMAGED_RID, HALO_RID))
    make_old(DAMAGED_RID, "wait")
    make_old(HALO_RID, "load")
    old = analyses(DAMAGED_RID)
    S.sql("UPDATE trace_ranks SET data = " +
          ("decode('00', 'hex')" if S.is_pg() else "x'00'") +
          " WHERE run_id = ? AND rank = 1", (DAMAGED_RID,))
    said = restart()
    assert f"prophecyd: run {DAMAGED_RID}'s trace was not re-analysed (kept as it was)" \
        in said, said
    assert "re-analysed 1 stored trace drawn by an older version" in said, said
    assert "1 stored trace kept as it was" in said, said
    assert analyses(DAMAGED_RID) == old and version(DAMAGED_RID) == 0
    assert analyses(HALO_RID) == FRESH[HALO_RID] and version(HALO_RID) == CURRENT
    st, body = S.get(f"/api/v1/runs/{DAMAGED_RID}/trace/wait")
    assert st == 200 and body == {"old": 1}, body
    st, runs = S.get("/api/v1/runs?application=halo")
    assert st == 200 and len(runs["runs"]) == 2, runs


try:
    report()
finally:
    S.close()
