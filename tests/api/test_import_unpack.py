"""Compressed and archived imports (core/import.h import_unpack): a TAU
directory as .tar, .tar.gz and .tgz and an Extra-P text file as .gz store,
through `prophecyd import`, POST /api/v1/import and the upload form, exactly
what the directory or the plain file stores (the plain form imported after
says everything is already stored); an inflated size over the request body
limit is a 413 that stores nothing, as is a truncated gzip stream (a 422); a
chrome-trace .json.gz is still read by its format, whatever it inflates to."""
import gzip
import io
import os
import subprocess
import tarfile

from prophecy_test import PROPHECYD, Server, report, tar_of, test

SRC = os.environ.get("PROPHECY_SRC", os.path.join(os.path.dirname(__file__), "../.."))
DATA = os.path.join(SRC, "tests/data/import")
TAU = os.path.join(DATA, "tau/run")
ONE = os.path.join(DATA, "extrap-text/one.txt")
S = Server()


def cli(db, *args):
    return subprocess.run([PROPHECYD, "import", *args, "--db", db], capture_output=True,
                          text=True)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(name, data):
    path = os.path.join(S.tmp, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def tgz_of(directory, top=None):
    """The directory as a gzip-compressed tar (as `tar -czf` makes it; under
    top/ when given)."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as t:
        t.add(directory, arcname=top or ".")
    return out.getvalue()


def post(body, **query):
    return S.import_data(body, **query)


def stored_ids():
    st, b = S.get("/api/v1/runs?limit=1000")
    assert st == 200, b
    return sorted(r["id"] for r in b["runs"])


@test
def cli_reads_tar_tar_gz_tgz_and_gz_as_the_plain_forms():
    cases = [("run.tar", tar_of(TAU), TAU, 1),
             ("run.tar.gz", gzip.compress(tar_of(TAU)), TAU, 1),
             ("run.tgz", tgz_of(TAU), TAU, 1),
             ("one.txt.gz", gzip.compress(read(ONE)), ONE, 3)]
    for name, data, plain, n in cases:
        db = os.path.join(S.tmp, "cli-" + name + ".db")
        path = write(name, data)
        r = cli(db, path)
        assert r.returncode == 0, (name, r.stderr)
        assert f"imported {n} run{'' if n == 1 else 's'} (0 already stored)" in r.stdout, \
            (name, r.stdout)
        r = cli(db, plain)  # the same runs: same uids and values
        assert r.returncode == 0, (name, r.stderr)
        assert f"imported 0 runs ({n} already stored)" in r.stdout, (name, r.stdout)
        r = cli(db, path)
        assert f"imported 0 runs ({n} already stored)" in r.stdout, (name, r.stdout)


@test
def cli_names_an_archive_set_as_its_directory_beside_other_paths():
    """Two paths: an archive's members go under its base name without
    .tar.gz, so the archive and another TAU directory are two runs, each the
    run it is alone."""
    other = os.path.join(DATA, "public/tau/tau2_opencl_fft")
    arch = write("run.tar.gz", tgz_of(TAU))
    db = os.path.join(S.tmp, "two.db")
    r = cli(db, arch, other)
    assert r.returncode == 0 and "imported 2 runs (0 already stored)" in r.stdout, \
        (r.stdout, r.stderr)
    for p in (TAU, other, arch):
        r = cli(db, p)
        assert "imported 0 runs (1 already stored)" in r.stdout, (p, r.stdout, r.stderr)
    # the archive's members under a top directory of its own read the same
    db = os.path.join(S.tmp, "top.db")
    r = cli(db, write("top.tar.gz", tgz_of(TAU, top="run")))
    assert r.returncode == 0 and "imported 1 run (0 already stored)" in r.stdout, r.stdout


@test
def cli_refuses_a_truncated_gzip_and_stores_nothing():
    db = os.path.join(S.tmp, "cut.db")
    assert cli(db, ONE).returncode == 0
    snapshot = read(db)
    data = gzip.compress(tar_of(TAU))
    r = cli(db, write("cut.tar.gz", data[:len(data) // 2]))
    assert r.returncode == 1, r.stdout
    assert "cut.tar.gz: the gzip-compressed data is truncated" in r.stderr, r.stderr
    assert "nothing was imported" in r.stderr
    assert read(db) == snapshot


@test
def api_reads_tar_gz_and_gz_bodies_as_the_plain_ones():
    for name, data, plain, fmt, n in [
            ("run.tar.gz", gzip.compress(tar_of(TAU)), tar_of(TAU), "tau", 1),
            ("one.txt.gz", gzip.compress(read(ONE)), read(ONE), "extrap-text", 3)]:
        before = stored_ids()
        st, b = post(data, filename=name)
        assert st == 201 and b["format"] == fmt, (name, st, b)
        assert b["created"] == n and b["existing"] == 0, (name, b)
        plain_name = name[:-3] if name.endswith(".gz") else name
        st, again = post(plain, filename=plain_name)
        assert st == 200 and again["existing"] == n, (name, st, again)
        assert again["ids"] == b["ids"], (name, b, again)
        assert stored_ids() == sorted(before + b["ids"]), name
    # a named directory format takes a .tgz too, named by the archive
    st, b = post(tgz_of(TAU), filename="run.tgz", format="tau")
    assert st == 200 and b["existing"] == 1, b


@test
def upload_form_reads_tar_gz_and_gz_as_the_api_does():
    srv = Server()
    try:
        for name, data, plain, n in [
                ("run.tar.gz", gzip.compress(tar_of(TAU)), tar_of(TAU), 1),
                ("one.txt.gz", gzip.compress(read(ONE)), read(ONE), 3)]:
            st, page = srv.form_import("", data, filename=name)
            assert st == 200 and f"Imported {n} new run" in page, (name, st, page[-1500:])
            st, b = srv.import_data(plain, filename=name[:-3])
            assert st == 200 and b["existing"] == n and b["created"] == 0, (name, st, b)
    finally:
        srv.close()


@test
def an_inflated_size_over_the_body_limit_is_413_and_stores_nothing():
    limit = 65536
    srv = Server("--max-body", str(limit))
    try:
        assert srv.import_data(read(ONE), filename="one.txt")[0] == 201
        before = srv.content()
        # a few hundred bytes that inflate past the limit
        bomb = gzip.compress(b"x" * (limit + 1))
        assert len(bomb) < 1000
        st, b = srv.import_data(bomb, filename="big.txt.gz")
        assert st == 413 and b["error"]["code"] == "too_large", (st, b)
        assert f"inflates to more than {limit} bytes" in b["error"]["message"], b
        # exactly the limit is read (and refused for what it holds, not its size)
        st, b = srv.import_data(gzip.compress(b"x" * limit), filename="big.txt.gz")
        assert st == 422, (st, b)
        # a tar inside
        big = os.path.join(srv.tmp, "big")
        os.mkdir(big)
        with open(os.path.join(big, "profile.0.0.0"), "wb") as f:
            f.write(b"0" * (2 * limit))
        st, b = srv.import_data(tgz_of(big), filename="big.tgz", format="tau")
        assert st == 413 and b["error"]["code"] == "too_large", (st, b)
        # the upload form alike
        st, page = srv.form_import("", bomb, filename="big.txt.gz")
        assert st == 413 and "inflates to more than" in page, (st, page[-1500:])
        assert srv.content() == before
        # a chrome-trace .json.gz is its format's to read (at most 1 GiB of
        # text), beyond the body limit too
        trace = read(os.path.join(DATA, "public/chrome-trace/clang14_time_trace.json"))
        assert len(trace) > limit
        st, b = srv.import_data(gzip.compress(trace), filename="trace.json.gz")
        assert st == 201 and b["format"] == "chrome-trace", (st, b)
    finally:
        srv.close()


@test
def a_truncated_or_damaged_gzip_body_is_a_clear_422_and_stores_nothing():
    before = S.content()
    data = gzip.compress(tar_of(TAU))
    st, b = post(data[:len(data) // 2], filename="cut.tar.gz")
    assert st == 422 and b["error"]["code"] == "invalid_import", (st, b)
    assert b["error"]["message"].startswith(
        "cut.tar.gz: the gzip-compressed data is truncated"), b
    bad = bytearray(gzip.compress(read(ONE)))
    bad[-6] ^= 0x55  # the CRC
    st, b = post(bytes(bad), filename="one.txt.gz")
    assert st == 422 and "damaged" in b["error"]["message"], (st, b)
    st, page = S.form_import("", data[:len(data) // 2], filename="cut.tar.gz")
    assert st == 422 and "the gzip-compressed data is truncated" in page, (st, page[-1500:])
    assert S.content() == before


report()
