"""PostgreSQL for the API tests that need it (test_pg_*.py): the private
cluster the test harness started (tests/pg/cluster.py writes its base URI to
a state file; PROPHECY_TEST_PG names it, as ctest's api_pg.* tests set it,
or PROPHECY_PG_URI gives the base URI directly), a fresh database per call, and a visible skip (exit 77, which
ctest reports as skipped) when there is no cluster."""
import json
import os
import subprocess
import sys
import tempfile
import uuid

SKIP = 77


def base_uri():
    uri = os.environ.get("PROPHECY_PG_URI")
    state = os.environ.get("PROPHECY_TEST_PG")
    if not uri and state and os.path.exists(state):
        with open(state) as f:
            uri = json.load(f)["uri"]
    return uri


def require_postgres():
    if not base_uri():
        print("SKIP: no PostgreSQL cluster (PostgreSQL server binaries not installed, "
              "or not run as api_pg.*: PROPHECY_TEST_PG / PROPHECY_PG_URI not set)", flush=True)
        sys.exit(SKIP)


def postgres_database():
    """A new, empty database on the cluster; its URI."""
    base = base_uri()
    name = "prophecy_" + uuid.uuid4().hex[:12]
    subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", base + "postgres", "-c",
                    f"CREATE DATABASE {name} TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C'"],
                   check=True)
    return base + name


def sqlite_path():
    """A new SQLite file's path in a new temporary directory."""
    return os.path.join(tempfile.mkdtemp(prefix="prophecy-test-"), "test.db")
