#!/usr/bin/env python3
"""Two prophecyd on one PostgreSQL database (SPEC §15, issue 18).

Both serve the same database on different ports: a write through either is
read through the other at once (runs, watches, alerts, tokens). Then one is
killed with SIGKILL in the middle of a stream of uploads from several
clients; the clients retry every upload they made, acknowledged or not, at
the surviving server, with the same client ids: every acknowledged run is
there, each uid is stored exactly once, and the survivor keeps serving.
Needs the private PostgreSQL cluster of the test harness (skipped visibly
without it)."""
import signal
import threading
import time

import pgtest as pt
from prophecy_test import Server, report, run_doc, test

pt.require_postgres()

URI = pt.postgres_database()
A = Server(db=URI)
B = Server.__new__(Server)
B.token = A.token  # one database, one set of tokens
B.__init__(db=URI)


def uids(server, app):
    """Every run's uid of app, through the runs listing's cursor."""
    out, after = [], None
    while True:
        q = f"/api/v1/runs?application={app}&limit=1000" + (f"&after={after}" if after else "")
        st, b = server.get(q)
        assert st == 200, b
        out += [r["uid"] for r in b["runs"]]
        after = b.get("next_after")
        if not after:
            return out


def count(server, app):
    st, b = server.get(f"/api/v1/applications/{app.replace(' ', '%20')}")
    assert st == 200, b
    return b["runs"]


@test
def writes_through_one_are_read_through_the_other():
    st, b = A.post("/api/v1/runs", run_doc(application="both", id="via-a"))
    assert st == 201, b
    rid = b["ids"][0]
    st, run = B.get(f"/api/v1/runs/{rid}")
    assert st == 200 and run["uid"] == "via-a", run
    st, b = B.post("/api/v1/runs", run_doc(application="both", id="via-b", runtime=13.0))
    assert st == 201, b
    st, run = A.get(f"/api/v1/runs/{b['ids'][0]}")
    assert st == 200 and run["runtime"] == 13.0, run
    # the same uid through the other server is the same run, not a second one
    st, again = B.post("/api/v1/runs", run_doc(application="both", id="via-a"))
    assert st == 200 and again["ids"] == [rid], again
    assert count(A, "both") == count(B, "both") == 2
    # a watch made through one judges uploads through the other
    for i, rt in enumerate((10.0, 10.2, 9.8, 10.1, 9.9)):
        A.post("/api/v1/runs", run_doc(application="judged", runtime=rt,
                                       started_at="2026-11-%02dT10:00:00Z" % (i + 1)))
    st, w = A.post("/api/v1/watches", {"application": "judged", "system": "SGI Origin2000",
                                       "detector": {"test": "zscore", "threshold": 3,
                                                    "window": 5}})
    assert st == 201, w
    st, b = B.post("/api/v1/runs", run_doc(application="judged", runtime=30.0,
                                           started_at="2026-11-07T10:00:00Z"))
    assert st == 201 and len(b["alerts"]) == 1 and b["alerts"][0]["watch"] == w["id"], b
    st, l = A.get("/api/v1/alerts?state=open")
    assert b["alerts"][0]["id"] in [a["id"] for a in l["alerts"]], l
    # B keeps the watches in memory: a watch deleted through A no longer
    # judges B's uploads, and one created through A does at once
    assert A.request("DELETE", f"/api/v1/watches/{w['id']}")[0] == 200
    st, b = B.post("/api/v1/runs", run_doc(application="judged", runtime=60.0,
                                           started_at="2026-11-08T10:00:00Z"))
    assert st == 201 and b["alerts"] == [], b
    st, w2 = A.post("/api/v1/watches", {"application": "judged", "system": "SGI Origin2000",
                                        "detector": {"test": "percent", "threshold": 10,
                                                     "window": 2}})
    assert st == 201, w2
    st, b = B.post("/api/v1/runs", run_doc(application="judged", runtime=600.0,
                                           started_at="2026-11-09T10:00:00Z"))
    assert st == 201 and [a["watch"] for a in b["alerts"]] == [w2["id"]], b
    # a token revoked through one server's database is refused by the other
    tok = A.cli("token", "create", "shortlived").strip()
    assert B.post("/api/v1/runs", run_doc(application="both"), token=tok)[0] == 201
    A.cli("token", "revoke", "shortlived")
    st, b = B.post("/api/v1/runs", run_doc(application="both"), token=tok)
    assert st == 401, b


@test
def kill_9_of_one_server_loses_no_acknowledged_run_and_stores_none_twice():
    acked, sent, stop = [], [], threading.Event()
    lock = threading.Lock()

    def client(w):
        i = 0
        while not stop.is_set():
            uid = f"k9-{w}-{i}"
            with lock:
                sent.append(uid)
            try:
                st, _ = A.post("/api/v1/runs", run_doc(application="streamed", id=uid,
                                                       runtime=1.0 + i))
            except Exception:
                return  # the server is gone
            if st == 201:
                with lock:
                    acked.append(uid)
            i += 1

    threads = [threading.Thread(target=client, args=(w,)) for w in range(6)]
    [t.start() for t in threads]
    time.sleep(1.5)
    A.kill(signal.SIGKILL)
    stop.set()
    [t.join() for t in threads]
    assert len(acked) > 20, len(acked)
    print(f"  {len(acked)} uploads acknowledged of {len(set(sent))} sent before the kill",
          flush=True)
    # The survivor has every acknowledged run already ...
    have = set(uids(B, "streamed"))
    assert not [u for u in acked if u not in have], [u for u in acked if u not in have][:5]
    # ... and retrying everything there stores each uid once.
    for uid in sent:
        i = int(uid.rsplit("-", 1)[1])
        st, b = B.post("/api/v1/runs", run_doc(application="streamed", id=uid,
                                               runtime=1.0 + i))
        assert st in (200, 201), (uid, st, b)
        if uid in acked:
            assert st == 200 and b["runs"][0]["status"] == "existing", (uid, b)
    stored = uids(B, "streamed")
    assert len(stored) == len(set(stored)) == len(set(sent)), (len(stored), len(set(sent)))
    assert count(B, "streamed") == len(set(sent))
    # the survivor keeps serving: reads and writes
    assert B.get("/api/v1/health")[0] == 200
    st, b = B.post("/api/v1/runs", run_doc(application="streamed", id="after-kill"))
    assert st == 201, b


pt.stop(A)
B.close()  # drops the database
report()
