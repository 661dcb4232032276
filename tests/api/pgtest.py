"""PostgreSQL for the API tests that are about it (test_pg_*.py: copy, two
servers): the private cluster of the test harness (prophecy_test.PG, set
when ctest runs them as api_pg.*), a fresh database per call, and a visible
skip (exit 77, which ctest reports as skipped) when run without a cluster
(as api.*)."""
import atexit
import os
import shutil
import sys
import tempfile

import prophecy_test as pt


def require_postgres():
    if not pt.PG:
        print("SKIP: no PostgreSQL cluster (this test runs as api_pg.*, with the "
              "harness's private cluster)", flush=True)
        sys.exit(77)


def postgres_database():
    """A new, empty database on the cluster; its URI."""
    return pt.pg_new_database()


def sqlite_path():
    """A new SQLite file's path in a new temporary directory (removed when the
    test ends)."""
    d = tempfile.mkdtemp(prefix="prophecy-test-")
    atexit.register(shutil.rmtree, d, True)
    return os.path.join(d, "test.db")


def stop(server):
    """Stops a server and removes its directory, leaving its database (a
    PostgreSQL database that other servers or later steps still use)."""
    server.kill()
    server.log.close()
    shutil.rmtree(server.tmp, ignore_errors=True)
