"""Red team, issue 34 items 9, 13 and 15 (check): the store's commands under
unlucky input.

- Passwords never printed: libpq's message for an unparsable URI quotes the
  URI, and serve, token, export and copy printed it unmasked; a keyword
  connection string (host=... password=...) was taken for an SQLite path,
  printed, and created as an empty database file named after it.
- `prophecyd backup` copied a database whose tail was cut off, or whose page
  2 was damaged, with exit 0: the copy is now checked and a damaged one is
  refused (non-zero exit, nothing kept).
- `prophecyd check` on an empty PostgreSQL database said "DAMAGED"."""
import os
import subprocess
import tempfile

import prophecy_test as pt
from prophecy_test import PROPHECYD, Server, report, run_doc, sqlite_only, test

SECRET = "s3cr3t-Pw"
BAD = [f"postgresql://bob:{SECRET}@[::1",                    # unparsable: quoted by libpq
       f"postgresql://bob:{SECRET}@127.0.0.1:1/db?x=%zz",
       f"postgres://bob@127.0.0.1:1/db?password={SECRET}&sslmode=%",
       f"host=127.0.0.1 port=1 user=bob password={SECRET} dbname=x",
       f"host=127.0.0.1 port=1 user=bob password='{SECRET} x' dbname=x"]


def run(args, cwd):
    return subprocess.run([PROPHECYD, *args], capture_output=True, text=True, cwd=cwd,
                          timeout=60)


@test
def passwords_never_printed():
    work = tempfile.mkdtemp(prefix="prophecy-secret-")
    for uri in BAD:
        for args in (["token", "list", "--db", uri], ["export", "--db", uri],
                     ["backup", os.path.join(work, "b.db"), "--db", uri],
                     ["copy", "--from", uri, "--to", os.path.join(work, "c.db")],
                     ["copy", "--from", os.path.join(work, "none.db"), "--to", uri],
                     ["serve", "--db", uri, "--listen", "127.0.0.1:0"], ["check", "--db", uri]):
            r = run(args, work)
            assert r.returncode != 0, (args, r)
            assert SECRET not in r.stdout + r.stderr, (args, r.stdout, r.stderr)
    # nothing was created in the working directory (no file named after it)
    left = [n for n in os.listdir(work)]
    assert left == [], left


def damaged_copy(how):
    """A sound database of the server's, stopped, then damaged as asked."""
    s = Server()
    for i in range(300):
        st, b = s.post("/api/v1/runs", run_doc(id=f"r{i}", runtime=1.0 + i,
                                               metrics={f"m{j}": j for j in range(20)}))
        assert st == 201, b
    path = s.db
    s.kill()
    data = open(path, "rb").read()
    assert len(data) > 40 * 4096, len(data)
    if how == "tail":
        data = data[:len(data) - 1000]  # part of the last page
    else:  # page 2 (bytes 4096..8191 with the default page size)
        data = data[:4096] + bytes((i * 37) % 251 for i in range(4096)) + data[8192:]
    with open(path, "wb") as f:
        f.write(data)
    return s, path


@test
@sqlite_only("backup copies SQLite files (PostgreSQL: pg_dump)")
def backup_refuses_a_damaged_database():
    for how in ("tail", "page2"):
        s, path = damaged_copy(how)
        dest = os.path.join(s.tmp, "backup.db")
        r = subprocess.run([PROPHECYD, "backup", dest, "--db", path], capture_output=True,
                           text=True, timeout=120)
        assert r.returncode != 0, (how, r.stdout, r.stderr)
        assert "the database is damaged" in r.stderr, (how, r.stderr)
        assert not os.path.exists(dest), how
        s.close()


@test
@sqlite_only("backup copies SQLite files")
def backup_of_a_sound_database_still_works():
    s = Server()
    st, b = s.post("/api/v1/runs", run_doc(id="sound"))
    assert st == 201
    dest = os.path.join(s.tmp, "backup.db")
    out = s.cli("backup", dest)
    assert out.startswith("backed up ") and os.path.exists(dest), out
    r = subprocess.run([PROPHECYD, "check", "--db", dest], capture_output=True, text=True)
    assert r.returncode == 0 and "is sound" in r.stdout, r
    s.close()


@test
def check_of_an_empty_postgresql_database_is_not_damaged():
    if not pt.PG:
        raise pt.Skip("needs the PostgreSQL cluster (api_pg.*)")
    uri = pt.pg_new_database()
    r = subprocess.run([PROPHECYD, "check", "--db", uri], capture_output=True, text=True)
    assert r.returncode == 1, r
    assert "DAMAGED" not in r.stdout + r.stderr, r
    assert "holds no Prophecy schema yet" in r.stderr, r


report()
