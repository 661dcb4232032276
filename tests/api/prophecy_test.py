"""Helpers for API tests: start the real prophecyd on a free port with a
temporary database, create a token, and speak HTTP to it (stdlib only).

With PROPHECY_TEST_PG set to the state file of a private PostgreSQL cluster
(tests/pg/cluster.py; ctest's api_pg.* tests), every Server without an
explicit db= gets a fresh PostgreSQL database of its own instead of an
SQLite file, so the same tests check the second backend. A test that is
about SQLite files is marked @sqlite_only(reason) and reported as skipped
there; without a running cluster the whole file exits 77 (skipped)."""
import atexit
import http.client
import io
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import urllib.parse
import uuid

BIN = os.environ.get("PROPHECY_BIN", os.path.join(os.path.dirname(__file__), "../../build/bin"))
PROPHECYD = os.path.join(BIN, "prophecyd")
# The programs under test are built with ASan+UBSan (tests/CMakeLists.txt
# sets PROPHECY_SANITIZED=1 then): a test may use a smaller input where the
# sanitizers only make a big one slow, with the same checks.
SANITIZED = os.environ.get("PROPHECY_SANITIZED") == "1"

passed = 0
failed = 0
skipped = 0

PG_STATE = os.environ.get("PROPHECY_TEST_PG")
PG = None  # the cluster's base URI when testing PostgreSQL
if PG_STATE:
    try:
        with open(PG_STATE) as _f:
            PG = json.load(_f)["uri"]
    except (OSError, ValueError, KeyError):
        print("SKIP: no PostgreSQL cluster (not installed or the pg fixture failed)")
        sys.exit(77)


class _Psql:
    """One psql session on a database of the test cluster, kept open: a test
    takes content snapshots often, and a psql process plus a new backend per
    statement cost ~0.25 s each (most of the api_pg tests' time). Statements
    go in on stdin; after them \\echo writes a marker line, so the rows are the
    lines before it. With ON_ERROR_STOP psql exits at an error, whose message
    (stderr, merged) is then what was read before the end of its output."""

    def __init__(self, dbname):
        self.p = subprocess.Popen(
            ["psql", "-X", "-q", "-At", "-F", "\x1f", "-v", "ON_ERROR_STOP=1", "-d", PG + dbname],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.run(["SET client_min_messages = warning"])

    def run(self, stmts):
        mark = "--end-" + uuid.uuid4().hex
        try:
            self.p.stdin.write("".join(s + "\n;\n" for s in stmts) +
                               "\\echo " + mark + "\n")
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # psql has ended: its output says why
        lines = []
        for line in self.p.stdout:
            if line.rstrip("\n") == mark:
                return lines
            lines.append(line.rstrip("\n"))
        self.close()
        raise RuntimeError("psql failed: " + "\n".join(lines))

    def close(self):
        for f in (self.p.stdin, self.p.stdout):
            try:
                f.close()
            except OSError:
                pass
        self.p.wait()


_psql = {}
_psql_lock = threading.Lock()


def pg_sql(dbname, sql):
    """Runs sql (a statement, or a list of them run in order) on database
    dbname of the test cluster, on a psql session kept open per database;
    returns psql's rows (unaligned, fields split on the unit separator)."""
    stmts = [sql] if isinstance(sql, str) else list(sql)
    with _psql_lock:
        s = _psql.get(dbname)
        if s is None or s.p.poll() is not None:
            s = _psql[dbname] = _Psql(dbname)
        try:
            lines = s.run(stmts)
        except RuntimeError:
            _psql.pop(dbname, None)
            raise
    return [line.split("\x1f") for line in lines]


def pg_close(dbname):
    """Ends the kept session on dbname (before the database is dropped)."""
    with _psql_lock:
        s = _psql.pop(dbname, None)
    if s is not None:
        s.close()


_pg_count = 0


def pg_new_database():
    """A new empty database on the test cluster; returns its URI."""
    global _pg_count
    _pg_count += 1
    name = f"t{os.getpid()}_{_pg_count}_{int(time.time() * 1000) % 100000}"
    pg_sql("postgres", f"CREATE DATABASE {name}")
    return PG + name


class Skip(Exception):
    pass


def sqlite_only(reason):
    """Marks a test as being about SQLite files: skipped on PostgreSQL with
    the reason printed."""
    def wrap(fn):
        def run():
            if PG:
                raise Skip(reason)
            return fn()
        run.__name__ = fn.__name__
        return run
    return wrap


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]



def tar_of(directory):
    """The files under directory as a tar archive (GNU format: any name
    length), named relative to it, in sorted order: a directory format's
    upload (POST /api/v1/import)."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.GNU_FORMAT) as t:
        for root, _, files in sorted(os.walk(directory)):
            for f in sorted(files):
                path = os.path.join(root, f)
                t.add(path, arcname=os.path.relpath(path, directory))
    return out.getvalue()


def tar_of_members(files):
    """A ustar archive of {name: bytes}, in sorted order (a trace's rank
    files for POST /api/v1/runs/{id}/trace, hand-made archives)."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for name, data in sorted(files.items()):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return out.getvalue()


def same16(want, got):
    """Whether the API gave want: it writes numbers with 16 significant digits
    (server/http.c)."""
    return got is not None and float(f"{want:.16g}") == got


class Server:
    def __init__(self, *extra, db=None, tmp=None):
        self.tmp = tmp or tempfile.mkdtemp(prefix="prophecy-test-")
        # a PostgreSQL database the server made is dropped when it closes; one
        # it was given (a copy's target, a second server's) is the caller's
        self.own_pg = db is None and bool(PG)
        if self.own_pg:
            db = pg_new_database()
        self.db = db or os.path.join(self.tmp, "test.db")
        self.extra = extra
        self.proc = None
        # a test that forgets close() must not leave its server running
        self.closed = False
        atexit.register(self.close)
        self.start()
        if not hasattr(self, "token"):
            self.token = self.cli("token", "create", "tester").strip()

    def start(self):
        self.port = free_port()
        self.log = open(os.path.join(self.tmp, "server.log"), "ab")
        self.proc = subprocess.Popen(
            [PROPHECYD, "serve", "--db", self.db, "--listen", f"127.0.0.1:{self.port}",
             "--quiet", *self.extra], stdout=self.log, stderr=self.log)
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError("prophecyd exited with %s" % self.proc.returncode)
                time.sleep(0.05)
        raise RuntimeError("prophecyd did not start")

    def cli(self, *args, check=True):
        r = subprocess.run([PROPHECYD, *args, "--db", self.db], capture_output=True, text=True)
        if check and r.returncode != 0:
            raise RuntimeError(f"prophecyd {args} failed: {r.stderr}")
        return r.stdout

    def request(self, method, path, body=None, token=True, ctype="application/json",
                headers=None, raw=False):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        h = dict(headers or {})
        if token is True:
            h["Authorization"] = "Bearer " + self.token
        elif token:
            h["Authorization"] = "Bearer " + token
        data = None
        if body is not None:
            data = body if isinstance(body, (bytes, str)) else json.dumps(body)
            if isinstance(data, str):
                data = data.encode()
            if ctype:
                h["Content-Type"] = ctype
        conn.request(method, path, body=data, headers=h)
        resp = conn.getresponse()
        payload = resp.read()
        conn.close()
        if raw:
            return resp.status, payload, resp
        try:
            return resp.status, json.loads(payload) if payload else None
        except ValueError:
            return resp.status, payload.decode(errors="replace")

    def get(self, path, **kw):
        return self.request("GET", path, token=kw.pop("token", None), **kw)

    def form_csrf(self):
        """The CSRF token the upload page's forms carry."""
        st, body, _ = self.request("GET", "/upload", token=None, raw=True)
        assert st == 200, st
        return re.search(r'name="csrf" value="([^"]+)"', body.decode()).group(1)

    def form_import(self, fmt, data, filename="x.json", **fields):
        """Posts the upload page's import form (multipart, the token as a field)
        with the file data and fields; answers (status, page text)."""
        boundary = "----prophecy" + uuid.uuid4().hex
        parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'
                 for k, v in dict({"csrf": self.form_csrf(), "token": self.token,
                                   "format": fmt}, **fields).items()]
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
                     f'filename="{filename}"\r\nContent-Type: application/octet-stream\r\n\r\n')
        body = "".join(parts).encode() + data + f"\r\n--{boundary}--\r\n".encode()
        st, payload, _ = self.request("POST", "/upload/import", body, token=None,
                                      ctype="multipart/form-data; boundary=" + boundary,
                                      raw=True)
        return st, payload.decode()

    def post(self, path, body, **kw):
        return self.request("POST", path, body, **kw)

    def import_data(self, body, **query):
        """POST /api/v1/import?QUERY with a file or tar archive as the body."""
        return self.request("POST", "/api/v1/import?" + urllib.parse.urlencode(query), body,
                            ctype="application/octet-stream")

    def runs_stored(self):
        return int(self.sql("SELECT count(*) FROM runs")[0][0])  # psql answers text

    def kill(self, sig=signal.SIGTERM):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(timeout=30)
        return self.proc.returncode

    def is_pg(self):
        return self.db.startswith("postgresql://")

    def sql(self, statement, params=()):
        """Runs one statement on the server's database behind its back (for
        setting up states the API cannot make); ? placeholders. Returns the
        rows, or for an INSERT ... RETURNING id the id."""
        if self.is_pg():
            def lit(v):
                if v is None:
                    return "NULL"
                if isinstance(v, (int, float)):
                    return repr(v)
                return "'" + str(v).replace("'", "''") + "'"
            parts = statement.split("?")
            text = parts[0] + "".join(lit(p) + s for p, s in zip(params, parts[1:]))
            return pg_sql(self.db[len(PG):], text)
        con = sqlite3.connect(self.db, timeout=10)
        rows = con.execute(statement, params).fetchall()
        con.commit()
        con.close()
        return rows

    def content(self):
        """Every user table's rows, for byte-for-byte content comparisons."""
        if self.is_pg():
            # two psql runs, not one per table (the tests take snapshots often)
            dbname = self.db[len(PG):]
            names = [n for (n,) in pg_sql(dbname, "SELECT tablename FROM pg_tables WHERE "
                                          "schemaname = 'public' ORDER BY tablename")]
            out = {}
            # one JSON line per table (JSON escapes the newlines values hold)
            for (line,) in pg_sql(dbname, [
                    f'SELECT json_build_array(\'{n}\', coalesce(json_agg(to_json(s)), '
                    f'\'[]\')) FROM (SELECT * FROM "{n}" x ORDER BY 1, x::text COLLATE '
                    '"C") s' for n in names]):
                name, rows = json.loads(line)
                out[name] = [tuple(r.values()) for r in rows]
            return out
        con = sqlite3.connect(self.db)
        out = {}
        for (name,) in con.execute(
                "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name"):
            out[name] = con.execute(f"SELECT * FROM \"{name}\" ORDER BY 1").fetchall()
        con.close()
        return out

    def close(self):
        if self.closed:
            return
        self.closed = True
        self.kill()
        self.log.close()
        shutil.rmtree(self.tmp, ignore_errors=True)
        if self.is_pg() and getattr(self, "own_pg", False):
            pg_close(self.db[len(PG):])
            try:
                pg_sql("postgres", f'DROP DATABASE IF EXISTS "{self.db[len(PG):]}" WITH (FORCE)')
            except RuntimeError:
                pass


def test(fn):
    global passed, failed
    global skipped
    try:
        fn()
        passed += 1
        print("ok  ", fn.__name__, flush=True)
    except Skip as e:
        skipped += 1
        print("skip", fn.__name__, "on PostgreSQL:", e, flush=True)
    except Exception as e:  # report every failing test, keep going
        failed += 1
        import traceback
        traceback.print_exc()
        print("FAIL", fn.__name__, e, flush=True)
    return fn


def report():
    print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    sys.exit(1 if failed else 0)


def run_doc(**over):
    d = {"application": "matmul", "executable": "matmul_sgi", "system": "SGI Origin2000",
         "nprocs": 8, "inputs": {"N": 1000}, "runtime": 12.5,
         "kernels": [{"name": "multiply", "time": 11.2, "calls": 1}],
         "metrics": {"mflops": 1596.0}, "started_at": "2026-11-21T10:00:00Z"}
    d.update(over)
    return d
