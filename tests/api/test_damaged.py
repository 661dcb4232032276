"""A damaged database must never read as an empty success (issue 12).

A real database is filled through the server, one page of it is overwritten
with garbage, and then every read that crosses that page — the runs list,
the export (HTTP and CLI), an application read — must answer an error, and
`prophecyd check` must say the file is damaged and exit non-zero.
"""
import os
import shutil
import sqlite3
import subprocess
import tempfile

import prophecy_test as pt
from prophecy_test import PROPHECYD, Server, report, run_doc, test

S = Server()
APP = "damaged app"


def fill():
    runs = [run_doc(application=APP, id=f"d-{i}", nprocs=1 + i % 64,
                    inputs={"N": 1000 + i, "M": i}, runtime=1.0 + i)
            for i in range(1500)]
    st, body = S.post("/api/v1/runs", {"runs": runs})
    assert st == 201, body


def root_pages(path, *tables):
    con = sqlite3.connect(path)
    size = con.execute("PRAGMA page_size").fetchone()[0]
    roots = [con.execute("SELECT rootpage FROM sqlite_master WHERE name = ?",
                         (t,)).fetchone()[0] for t in tables]
    con.close()
    return size, roots


def corrupt(path, page, size):
    with open(path, "r+b") as f:
        f.seek((page - 1) * size)
        f.write(bytes([0xA5]) * size)


@test
def sound_database_checks_ok():
    r = subprocess.run([PROPHECYD, "check", "--db", S.db], capture_output=True, text=True)
    assert r.returncode == 0, (r.stdout, r.stderr)
    assert "sound" in r.stdout, r.stdout


@test
@pt.sqlite_only("damages the SQLite file's pages; a PostgreSQL server guards its own")
def damaged_database_answers_errors():
    fill()
    st, body = S.get("/api/v1/runs?limit=5")
    assert st == 200 and len(body["runs"]) == 5, body
    st, app = S.get("/api/v1/applications/" + APP.replace(" ", "%20"))
    assert st == 200, app
    S.kill()  # closes the database: the WAL is checkpointed into the file
    assert not os.path.exists(S.db + "-wal") or os.path.getsize(S.db + "-wal") == 0
    copy = os.path.join(S.tmp, "copy.db")
    shutil.copyfile(S.db, copy)
    size, (runs_root,) = root_pages(S.db, "runs")
    corrupt(S.db, runs_root, size)
    S.start()

    st, body = S.get("/api/v1/runs?limit=5")
    assert st == 500, (st, body)
    assert body["error"]["code"] == "database", body
    for fmt in ("csv", "json"):
        st, body = S.get("/api/v1/export?format=" + fmt)
        assert st == 500 and body["error"]["code"] == "database", (st, body)
    for fmt in ("csv", "json"):
        r = subprocess.run([PROPHECYD, "export", "--db", S.db, "--format", fmt],
                           capture_output=True, text=True)
        assert r.returncode != 0, (fmt, r.stdout[:200])
        assert "export failed" in r.stderr, r.stderr
    r = subprocess.run([PROPHECYD, "check", "--db", S.db], capture_output=True, text=True)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "DAMAGED" in r.stdout, r.stdout

    # The same data with the applications table's page damaged instead: an
    # application read (and the list) must not read as "no such application".
    size, (apps_root,) = root_pages(copy, "applications")
    corrupt(copy, apps_root, size)
    class Reader(Server):
        token = S.token  # the copy already holds the tester token

    B = Reader(db=copy, tmp=tempfile.mkdtemp(prefix="prophecy-test-"))
    try:
        st, body = B.get("/api/v1/applications/" + APP.replace(" ", "%20"))
        assert st == 500 and body["error"]["code"] == "database", (st, body)
        st, body = B.get("/api/v1/applications")
        assert st == 500, (st, body)
    finally:
        B.close()


S.close()
report()
