"""Imports (SPEC §12): every format's fixture through POST /api/v1/import and
`prophecyd import`; idempotence (the same file twice stores nothing new);
all or nothing (a truncated file is a 422 naming the line, the database
unchanged); tar archives for directory formats; unknown formats; the token;
and docs/import.md's worked example, run as written."""
import gzip
import json
import os
import re
import shutil
import sqlite3
import subprocess
import tarfile
import time
import urllib.parse

from prophecy_test import BIN, PROPHECYD, Server, report, tar_of, test

SRC = os.environ.get("PROPHECY_SRC", os.path.join(os.path.dirname(__file__), "../.."))
DATA = os.path.join(SRC, "tests/data/import")
S = Server()

# format, fixture (a file or a directory), query, runs it holds
FIXTURES = [
    ("extrap-text", "extrap-text/lulesh.txt", {}, 6),
    ("extrap-json", "extrap-json/input.json", {}, 4),
    ("extrap-jsonl", "extrap-jsonl/input.jsonl", {}, 3),
    ("caliper-json", "caliper-json/query.json", {}, 1),
    ("caliper-json", "caliper-json/split.json", {}, 1),
    ("gbench", "gbench/out.json", {}, 3),
    ("lnt-json", "lnt-json/report.json", {}, 3),
    ("bmf", "bmf/results.json", {"system": "bmf box"}, 2),
    ("json", "json/runs.json", {}, 1),
    ("csv", "csv/runs.csv", {}, 1),
    ("tau", "tau/run", {"application": "tau app"}, 1),
    ("otf2", "otf2/trace", {"application": "otf2 app"}, 1),
]



def body_of(path):
    full = os.path.join(DATA, path)
    if os.path.isdir(full):
        return tar_of(full)
    with open(full, "rb") as f:
        return f.read()


def post_import(body, token=True, **query):
    q = urllib.parse.urlencode(query)
    return S.request("POST", "/api/v1/import" + ("?" + q if q else ""), body, token=token,
                     ctype="application/octet-stream")


def run_count():
    st, body = S.get("/api/v1/runs?limit=1000")
    assert st == 200, body
    return len(body["runs"])


@test
def every_format_through_the_api_then_again_nothing_new():
    for fmt, path, query, n in FIXTURES:
        for named in (True, False):
            q = dict(query, filename=os.path.basename(path))
            if named:
                q["format"] = fmt
            before = run_count()
            st, body = post_import(body_of(path), **q)
            if named:
                assert st == 201, (fmt, st, body)
                assert body["created"] == n and body["existing"] == 0, (fmt, body)
            else:  # auto, after the named import: recognised, nothing new
                assert st == 200, (fmt, st, body)
                assert body["created"] == 0 and body["existing"] == n, (fmt, body)
            assert body["format"] == fmt, (fmt, body)
            assert body["runs"] == n and len(body["ids"]) == n, body
            assert run_count() == before + (n if named else 0), fmt
            for i in body["ids"]:
                st, run = S.get(f"/api/v1/runs/{i}")
                assert st == 200 and run["id"] == i, run
                if "application" in query:
                    assert run["application"] == query["application"], run


@test
def imported_runs_carry_the_mapping():
    st, body = post_import(body_of("tau/run.tar"), format="tau", application="tau map",
                           system="tau box")
    assert st == 201, body
    st, run = S.get(f"/api/v1/runs/{body['ids'][0]}")
    assert run["nprocs"] == 2 and run["system"] == "tau box", run
    assert run["submitter"] == "tester", run
    assert run["kernels"], run
    st, body = post_import(body_of("extrap-text/lulesh.txt"), format="extrap-text",
                           application="lulesh map")
    st, run = S.get(f"/api/v1/runs/{body['ids'][0]}")
    assert run["nprocs"] == 8 and run["inputs"] == {"size": 10}, run
    assert {k["name"] for k in run["kernels"]} == {"main", "main/solve"}, run


@test
def osu_benchmarks_need_a_system_and_are_idempotent():
    before = S.content()
    st, body = post_import(body_of("osu/latency.txt"), format="osu")
    assert st == 422 and body["error"]["field"] == "system", body
    assert S.content() == before
    st, body = post_import(body_of("osu/latency.txt"), system="osu box")
    assert st == 201, body
    assert body["format"] == "osu" and body["runs"] == 0, body
    assert body["benchmarks"] == {"system": "osu box", "read": 2, "created": 2,
                                  "existing": 0}, body
    st, body = post_import(body_of("osu/latency.txt"), system="osu box")
    assert st == 200 and body["benchmarks"]["created"] == 0, body
    st, got = S.get("/api/v1/systems/osu%20box/benchmarks?name=MPISR")
    assert st == 200 and len(got["benchmarks"]) == 2, got
    assert abs(got["benchmarks"][0]["time"] - 1.5e-6) < 1e-12, got


@test
def truncated_or_malformed_files_store_nothing():
    # each refusal names the file and line (a tar archive: the member)
    cases = [("extrap-text", "extrap-text/truncated.txt", r"^truncated\.txt:5: "),
             ("extrap-jsonl", "extrap-jsonl/truncated.jsonl", r"^truncated\.jsonl:\d+: "),
             ("caliper-json", "caliper-json/truncated.json", r"^truncated\.json:3: "),
             ("osu", "osu/truncated.txt", r"^truncated\.txt:\d+: "),
             ("tau", "tau/truncated.tar", r"^tar: .*truncated")]
    for fmt, path, where in cases:
        before = S.content()
        st, body = post_import(body_of(path), format=fmt, system="x box",
                               filename=os.path.basename(path))
        assert st == 422, (fmt, st, body)
        assert re.search(where, body["error"]["message"]), (fmt, body)
        assert S.content() == before, fmt
    st, body = post_import(body_of("extrap-text/truncated.txt"),
                           filename="truncated.txt")
    assert st == 422 and "truncated.txt:5:" in body["error"]["message"], body
    assert body["error"]["field"] == "truncated.txt:5", body


@test
def a_file_that_fails_late_stores_none_of_its_earlier_batches():
    # 300 good points (more than one batch of 256 runs) then a bad line.
    lines = ['{"params": {"p": %d}, "callpath": "main", "metric": "time", "value": 1.5}' % (i + 1)
             for i in range(300)]
    lines.append('{"params": {"p": 4}, "callpath": "main", "metric": "time", "value": "x"}')
    before = S.content()
    st, body = post_import("\n".join(lines).encode(), format="extrap-jsonl",
                           application="late fail", filename="late.jsonl")
    assert st == 422, body
    assert "late.jsonl:301" in body["error"]["message"], body
    assert S.content() == before


@test
def unknown_format_names_the_known_ones():
    before = S.content()
    st, body = post_import(b"whatever", format="excel")
    assert st == 422 and body["error"]["code"] == "unknown_format", body
    for name in ("extrap-text", "tau", "osu", "otf2", "csv"):
        assert name in body["error"]["message"], body
    st, body = post_import(b"\x01\x02 not anything we know")
    assert st == 422 and body["error"]["code"] == "unknown_format", body
    assert "gbench" in body["error"]["message"], body
    st, body = post_import(b"")
    assert st == 422, body
    st, body = post_import(b"x", bogus="1")
    assert st == 400, body
    assert S.content() == before


@test
def no_token_is_401_and_nothing_is_stored():
    before = S.content()
    st, body = post_import(body_of("extrap-text/one.txt"), token=None, format="extrap-text")
    assert st == 401, body
    st, body = post_import(body_of("extrap-text/one.txt"), token="pt_wrong",
                           format="extrap-text")
    assert st == 401, body
    assert S.content() == before


def cli(db, *args):
    return subprocess.run([PROPHECYD, "import", *args, "--db", db], capture_output=True,
                          text=True)


@test
def commit_and_branch_go_to_runs_the_file_names_none_of():
    """A CI job imports its tool's file with the commit it measured: the runs
    carry it (and the branch), the same file for the same commit again stores
    nothing new, for another commit it stores new runs; a file with its own
    commit (LNT's revision) keeps it; a bad commit is refused and stores
    nothing; the CLI takes --commit and --branch alike."""
    body = body_of("bmf/results.json")
    st, b = post_import(body, system="ci box", application="bmf ci", commit="c0ffee1",
                        branch="main")
    assert st == 201 and b["created"] == 2, b
    st, run = S.get(f"/api/v1/runs/{b['ids'][0]}")
    assert run["commit"] == "c0ffee1" and run["branch"] == "main", run
    st, again = post_import(body, system="ci box", application="bmf ci", commit="c0ffee1",
                            branch="main")
    assert st == 200 and again["created"] == 0 and again["ids"] == b["ids"], again
    st, other = post_import(body, system="ci box", application="bmf ci", commit="c0ffee2",
                            branch="main")
    assert st == 201 and other["created"] == 2, other
    assert set(other["ids"]).isdisjoint(b["ids"]), (other, b)
    st, runs = S.get("/api/v1/runs?application=bmf%20ci&commit=c0ffee2")
    assert st == 200 and len(runs["runs"]) == 2, runs
    st, lnt = post_import(body_of("lnt-json/report.json"), application="lnt ci",
                          commit="given1", branch="main")
    assert st == 201, lnt
    st, run = S.get(f"/api/v1/runs/{lnt['ids'][0]}")
    assert run["commit"] != "given1" and run["branch"] == "main", run
    before = run_count()
    st, bad = post_import(body, system="ci box", application="bmf ci", commit="x" * 65)
    assert st == 422 and bad["error"]["field"] == "commit", bad
    assert "longer than 64 bytes" in bad["error"]["message"], bad
    assert run_count() == before
    db = os.path.join(S.tmp, "prov.db")
    path = os.path.join(DATA, "bmf/results.json")
    out = cli(db, "--system", "ci box", "--commit", "c1", "--branch", "dev", path)
    assert out.returncode == 0 and "imported 2 runs (0 already stored)" in out.stdout, out
    out = cli(db, "--system", "ci box", "--commit", "c2", "--branch", "dev", path)
    assert out.returncode == 0 and "imported 2 runs (0 already stored)" in out.stdout, out
    out = cli(db, "--system", "ci box", "--commit", "c2", "--branch", "dev", path)
    assert "imported 0 runs (2 already stored)" in out.stdout, out


@test
def inputs_the_files_do_not_say_go_to_every_run():
    """A series of profiles whose files do not say what varied (Caliper's
    hatchet-region-profile has no problem size): input.NAME=NUMBER gives
    every run of the import that input, and enters its identity like a
    commit: the same file at N = 1000 again stores nothing new, at N = 2000
    it is another run; an input the file gives too must agree; bad names,
    values and OSU's benchmarks are refused, storing nothing; the CLI's
    --input and the upload page's field take "N=1000, p=4"."""
    body = body_of("public/caliper-json/hatchet_demo_out_5.json")  # hatchet's tutorial
    st, a = post_import(body, application="cal series", **{"input.N": "1000"})
    assert st == 201 and a["created"] == 1, a
    st, run = S.get(f"/api/v1/runs/{a['ids'][0]}")
    assert run["inputs"] == {"N": 1000}, run
    st, again = post_import(body, application="cal series", **{"input.N": "1e3"})
    assert st == 200 and again["ids"] == a["ids"], again
    st, b = post_import(body, application="cal series", **{"input.N": "2000", "input.p": "4"})
    assert st == 201 and b["ids"] != a["ids"], b
    st, run = S.get(f"/api/v1/runs/{b['ids'][0]}")
    assert run["inputs"] == {"N": 2000, "p": 4}, run
    st, runs = S.get("/api/v1/runs?application=cal%20series")
    assert st == 200 and len(runs["runs"]) == 2, runs
    # lulesh.txt's points are p = 8, 16 and size = 10, 20
    lulesh = body_of("extrap-text/lulesh.txt")
    st, same = post_import(lulesh, application="cal given", **{"input.size": "10"})
    assert st == 422 and same["error"]["field"] == "input.size", same
    assert "the file gives 20, the import 10" in same["error"]["message"], same
    before = run_count()
    for query, status, field, words in [
            ({"input.N": "x"}, 422, "input.N", "input.N=x: the value must be a number"),
            ({"input.N": ""}, 422, "input.N", "no input, tag or metadata named N"),
            ({"input.N": "nan"}, 422, "input.N", "the value must be a number"),
            ({"input.": "1"}, 400, "input.", "unknown query parameter input.")]:
        st, bad = post_import(body, application="cal bad", **query)
        assert st == status and bad["error"]["field"] == field, (query, bad)
        assert words in bad["error"]["message"], (query, bad)
    st, bad = post_import(body_of("osu/latency.txt"), system="osu box",
                          **{"input.N": "1"})
    assert st == 422 and bad["error"]["field"] == "inputs", bad
    assert "system benchmarks" in bad["error"]["message"], bad
    assert run_count() == before
    db = os.path.join(S.tmp, "inputs.db")
    path = os.path.join(DATA, "public/caliper-json/hatchet_demo_out_5.json")
    out = cli(db, "--application", "c", "--input", "N=1000, p=4", path)
    assert out.returncode == 0 and "imported 1 run (0 already stored)" in out.stdout, out
    out = cli(db, "--application", "c", "--input", "p=4", "--input", "N=1000", path)
    assert "imported 0 runs (1 already stored)" in out.stdout, out
    with open(db, "rb") as f:
        snapshot = f.read()
    for args, words in [(["--input", "N=1", "--input", "N=2"], "input.N is given twice"),
                        (["--input", "N"], "no input, tag or metadata named N"),
                        (["--input", "N="], '"N=": a value after \'=\', or the name alone'),
                        (["--input", "N=1e999"], "input.N=1e999: the value must be a"),
                        (["--input", "N=0x10"], "input.N=0x10: the value must be a"),
                        (["--input", ",".join(f"x{i}=1" for i in range(65))],
                         "more than 64 inputs")]:
        out = cli(db, "--application", "c", *args, path)
        assert out.returncode == 1 and words in out.stderr, (args, out.stderr)
        assert "nothing was imported" in out.stderr, out.stderr
    with open(db, "rb") as f:
        assert f.read() == snapshot
    st, page = S.form_import("caliper-json", body, filename="out_5.json",
                             application="cal form", inputs="N=4000, p=8")
    assert st == 200 and "Imported 1 new run" in page, page[-1500:]
    st, runs = S.get("/api/v1/runs?application=cal%20form")
    st, run = S.get(f"/api/v1/runs/{runs['runs'][0]['id']}")
    assert run["inputs"] == {"N": 4000, "p": 8}, run
    st, page = S.form_import("caliper-json", body, filename="out_5.json",
                             application="cal form", inputs="N=many")
    assert st == 422 and 'id="import-inputs-error"' in page, page[-3000:]
    assert "input.N=many: the value must be a number" in page


@test
def inputs_the_files_say_in_their_metadata_are_read():
    """A Caliper profile's Adiak metadata says what varied (problem_size =
    "30" in hatchet's LULESH profile) but not as an input: input.NAME
    without a value (--input NAME, the field's "NAME") reads each run's
    value from its own file, the same run as the value given; a name the
    file does not say, or says in words, is refused, storing nothing."""
    name = "public/caliper-json/hatchet_caliper-region-node-order_2.10.json"
    body = body_of(name)
    st, a = post_import(body, application="adiak", **{"input.problem_size": "",
                                                       "input.iterations": ""})
    assert st == 201 and a["created"] == 1, a
    st, run = S.get(f"/api/v1/runs/{a['ids'][0]}")
    assert run["inputs"] == {"problem_size": 30, "iterations": 10}, run
    st, same = post_import(body, application="adiak",
                           **{"input.problem_size": "30", "input.iterations": "10"})
    assert st == 200 and same["ids"] == a["ids"], same
    st, other = post_import(body, application="adiak", **{"input.problem_size": "31"})
    assert st == 201 and other["ids"] != a["ids"], other
    before = run_count()
    for query, words in [
            ({"input.mesh": ""}, "hatchet_caliper-region-node-order_2.10.json: file: no "
             "input, tag or metadata named mesh to take the input from"),
            ({"input.user": ""}, 'user is "yokelson", not a number'),
            ({"input.problem_size": "", "input.nodes": ""}, "metadata named nodes")]:
        st, bad = post_import(body, application="adiak bad",
                              filename="hatchet_caliper-region-node-order_2.10.json", **query)
        assert st == 422 and bad["error"]["field"].startswith("input."), (query, bad)
        assert words in bad["error"]["message"], (query, bad)
    assert run_count() == before
    # the command line, several files at once: each its own value
    db = os.path.join(S.tmp, "adiak.db")
    series = os.path.join(S.tmp, "adiak-series")
    os.makedirs(series, exist_ok=True)
    with open(os.path.join(DATA, name)) as f:
        doc = json.load(f)
    paths = []
    for size in (30, 45):
        doc["problem_size"] = str(size)
        paths.append(os.path.join(series, f"lulesh-{size}.json"))
        with open(paths[-1], "w") as f:
            json.dump(doc, f)
    out = cli(db, "--application", "lulesh", "--input", "problem_size", *paths)
    assert out.returncode == 0 and "imported 2 runs (0 already stored)" in out.stdout, out
    out = cli(db, "--application", "lulesh", "--input", "problem_size=45", paths[1])
    assert "imported 0 runs (1 already stored)" in out.stdout, out
    # the upload page's field takes the name alone
    st, page = S.form_import("caliper-json", body, filename="lulesh.json",
                             application="adiak form", inputs="problem_size")
    assert st == 200 and "Imported 1 new run" in page, page[-1500:]
    st, runs = S.get("/api/v1/runs?application=adiak%20form")
    st, run = S.get(f"/api/v1/runs/{runs['runs'][0]['id']}")
    assert run["inputs"] == {"problem_size": 30}, run
    # a name with blanks in double quotes: TAU's metadata "CPU Cores" (2 in
    # this real profile), on the command line and in the upload page's field
    tau = os.path.join(DATA, "public/tau/tau2_wrap_param_2ranks")
    out = cli(db, "--application", "cores", "--input", '"CPU Cores"', tau)
    assert out.returncode == 0 and "imported 1 run (0 already stored)" in out.stdout, out
    out = cli(db, "--application", "cores", "--input", '"CPU Cores"=2', tau)
    assert "imported 0 runs (1 already stored)" in out.stdout, out
    st, page = S.form_import("caliper-json", body, filename="lulesh.json",
                             application="adiak form", inputs='"problem size"')
    assert st == 422 and "no input, tag or metadata named problem size" in page, page[-1500:]


@test
def what_an_import_leaves_out_is_said():
    """An OSU log's tables of a test Prophecy does not read (OMB 7.5's NCCL
    tests beside MPI ones) are named in the answer's notes and by the CLI; a
    file that leaves nothing out has no notes."""
    log = (b"# OSU MPI-CUDA Latency Test v7.5\n# Size          Latency (us)\n"
           b"1                       2.5\n"
           b"# OSU NCCL-CUDA Allreduce Latency Test v7.5\n# Size       Avg Latency(us)\n"
           b"8                    8955.18\n")
    st, body = post_import(log, system="gpu box", filename="gpu.out")
    assert st == 201 and body["benchmarks"]["created"] == 1, body
    assert body["notes"] == ["gpu.out: 1 table left out, of tests Prophecy does not read "
                             "(the first: \"NCCL-CUDA Allreduce Latency\")"], body
    st, body = post_import(body_of("osu/latency.txt"), system="gpu box")
    assert st == 201 and "notes" not in body, body
    path = os.path.join(S.tmp, "gpu.out")
    with open(path, "wb") as f:
        f.write(log)
    out = cli(os.path.join(S.tmp, "notes.db"), "--system", "gpu box", path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == (
        f"note: {path}: 1 table left out, of tests Prophecy does not read (the first: "
        "\"NCCL-CUDA Allreduce Latency\")"), out.stdout


@test
def every_format_through_the_cli():
    db = os.path.join(S.tmp, "cli.db")
    for fmt, path, query, n in FIXTURES:
        opts = []
        for k in ("application", "system"):
            if k in query:
                opts += ["--" + k, query[k]]
        out = cli(db, "--format", fmt, *opts, os.path.join(DATA, path))
        assert out.returncode == 0, (fmt, out.stderr)
        assert f"imported {n} run{'' if n == 1 else 's'} (0 already stored)" in out.stdout, (
            fmt, out.stdout)
        out = cli(db, *opts, os.path.join(DATA, path))  # auto, again
        assert out.returncode == 0, (fmt, out.stderr)
        assert f"imported 0 runs ({n} already stored)" in out.stdout, (fmt, out.stdout)
        assert f"({fmt})" in out.stdout, out.stdout
    out = cli(db, "--system", "cli box", os.path.join(DATA, "osu/latency.txt"),
              os.path.join(DATA, "osu/bw.txt"))
    assert out.returncode == 0, out.stderr
    # 2 latencies, 2 bandwidths each as measured (MB/s) and as a time per message
    assert "imported 6 system benchmarks of cli box (0 already stored)" in out.stdout, out.stdout


@test
def cli_refusals_store_nothing():
    db = os.path.join(S.tmp, "cli2.db")
    out = cli(db, os.path.join(DATA, "extrap-text/one.txt"))
    assert out.returncode == 0, out.stderr
    with open(db, "rb") as f:
        snapshot = f.read()
    out = cli(db, os.path.join(DATA, "extrap-text/truncated.txt"))
    assert out.returncode == 1 and "truncated.txt:5:" in out.stderr, out.stderr
    assert "nothing was imported" in out.stderr
    out = cli(db, "--format", "excel", os.path.join(DATA, "extrap-text/one.txt"))
    assert out.returncode == 1 and "one of auto, otf2, tau" in out.stderr, out.stderr
    out = cli(db, os.path.join(DATA, "osu/latency.txt"))
    assert out.returncode == 1 and "--system" in out.stderr, out.stderr
    out = cli(db, os.path.join(DATA, "no/such/file"))
    assert out.returncode == 1 and "cannot read" in out.stderr, out.stderr
    out = subprocess.run([PROPHECYD, "import", "--db", db], capture_output=True, text=True)
    assert out.returncode == 64 and "usage" in out.stderr, out.stderr
    with open(db, "rb") as f:
        assert f.read() == snapshot
    out = subprocess.run([PROPHECYD, "import", "--format", "list"], capture_output=True,
                         text=True)
    assert out.returncode == 0 and out.stdout.count("\n") == 17, out.stdout


@test
def the_worked_example_of_docs_import_md_runs_as_written():
    with open(os.path.join(SRC, "docs/import.md")) as f:
        doc = f.read()
    section = doc[doc.index("## Worked example"):]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    answers = re.findall(r"```json\n(.*?)```", section, re.S)
    texts = re.findall(r"```text\n(.*?)```", section, re.S)
    assert len(blocks) == 2 and len(answers) == 2 and len(texts) == 1, section
    env = dict(os.environ, PATH=BIN + ":" + os.environ["PATH"])
    outputs = []
    work = os.path.join(S.tmp, "worked-example")  # the reader's own directory
    os.mkdir(work)
    for block in blocks:
        script = block.replace("localhost:8080", f"127.0.0.1:{S.port}").replace(
            "prophecy.db", S.db)
        out = subprocess.run(["bash", "-eo", "pipefail", "-c", script], cwd=work, env=env,
                             capture_output=True, text=True)
        assert out.returncode == 0, (script, out.stderr)
        outputs.append(out.stdout)
    # first block: the import's answer, then the fit's
    dec = json.JSONDecoder()
    text = outputs[0].strip()
    imported, end = dec.raw_decode(text)
    fitted, _ = dec.raw_decode(text[end:].strip())
    shown = json.loads(answers[0])
    assert imported["created"] == shown["created"] == 15, imported
    assert imported["format"] == shown["format"], imported
    shown = json.loads(answers[1])
    assert fitted["model"]["formula"] == shown["model"]["formula"], fitted["model"]
    p, q = fitted["predictions"][0], shown["predictions"][0]
    assert p["x"] == q["x"] and abs(p["y"] - q["y"]) < 1e-9, (p, q)
    assert round(p["lo"], 4) == q["lo"] and round(p["hi"], 4) == q["hi"], (p, q)
    assert fitted["selection"]["runs"] == shown["selection"]["runs"], fitted
    # second block: the CLI on the same file stores nothing new
    assert outputs[1].strip() == texts[0].strip(), (outputs[1], texts[0])


@test
def cli_refuses_a_file_a_directory_set_would_drop():
    """Several paths with format auto: a directory format (TAU) takes the set
    it recognises and reads only its own files; a Caliper file beside it was
    dropped with "imported 1 run". It is refused, naming it, and nothing is
    stored; a file no format reads still rides along with the set."""
    before = S.content()
    tau = os.path.join(DATA, "tau/run")
    cali = os.path.join(DATA, "caliper-json/object.json")
    r = subprocess.run([PROPHECYD, "import", tau, cali, "--db", S.db],
                       capture_output=True, text=True)
    assert r.returncode == 1, (r.returncode, r.stdout, r.stderr)
    assert (cali + " is caliper-json data, not part of the tau data beside it (read as "
            "one set): import it on its own") in r.stderr, r.stderr
    assert "nothing was imported" in r.stderr and r.stdout == "", r.stdout
    assert S.content() == before
    script = os.path.join(DATA, "otf2/make_trace.c.txt")
    r = subprocess.run([PROPHECYD, "import", tau, script, "--db", S.db],
                       capture_output=True, text=True)
    assert r.returncode == 0 and "(tau)" in r.stdout, (r.stdout, r.stderr)
    # one directory holding both (every tool's output under results/): the
    # TAU run is read and the Caliper file is told, not dropped in silence
    mixed = os.path.join(S.tmp, "mixed")
    shutil.copytree(tau, os.path.join(mixed, "run"))
    shutil.copy(cali, mixed)
    shutil.copy(os.path.join(DATA, "extrap-text/one.txt"), mixed)
    r = cli(S.db, mixed)
    assert r.returncode == 0 and "(tau)" in r.stdout, (r.stdout, r.stderr)
    told = ("2 files of other formats left out, read as tau data (object.json is "
            "caliper-json data): import them on their own")
    assert told in r.stdout + r.stderr, (r.stdout, r.stderr)
    st, ans = S.request("POST", "/api/v1/import?filename=mixed.tar", tar_of(mixed),
                        ctype="application/x-tar")
    assert st == 200 and ans["format"] == "tau" and ans["notes"] == [told], ans
    # results of a single-file format beside a README and a job script: the
    # results are read and the two left out, told (it refused the directory)
    notes = os.path.join(S.tmp, "with-notes")
    os.makedirs(notes)
    shutil.copy(os.path.join(DATA, "extrap-text/one.txt"), notes)
    for name, text in (("README.md", "# runs of May\n"), ("job.sh", "#!/bin/sh\nsrun ./a\n")):
        with open(os.path.join(notes, name), "w") as f:
            f.write(text)
    db = os.path.join(S.tmp, "with-notes.db")
    r = cli(db, notes)
    assert r.returncode == 0 and "imported 3 runs (0 already stored)" in r.stdout, \
        (r.stdout, r.stderr)
    assert "2 files no format reads left out (README.md, ...)" in r.stdout + r.stderr, \
        (r.stdout, r.stderr)
    # nothing any format reads: refused, naming the first file
    os.remove(os.path.join(notes, "one.txt"))
    r = cli(db, notes)
    assert r.returncode == 1 and "README.md: the format is not recognised" in r.stderr, \
        (r.stdout, r.stderr)


@test
def tau_without_a_program_name_is_named_by_its_directory():
    """SPEC §16: the application from the content where the profiles carry
    one (TAU's Executable metadata), else from the directory's name (it was
    "tau" for every such profile): the CLI's directory, an archive's name."""
    d = os.path.join(DATA, "tau/run")
    r = subprocess.run([PROPHECYD, "import", d + "/", "--db", S.db],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    st, runs = S.get("/api/v1/runs?application=run&limit=5")
    assert st == 200 and len(runs["runs"]) == 1, runs
    st, ans = S.request("POST", "/api/v1/import?filename=mpi-ring.tar", tar_of(d),
                        ctype="application/x-tar")
    assert st == 201 and ans["format"] == "tau", ans
    st, run = S.get(f"/api/v1/runs/{ans['ids'][0]}")
    assert run["application"] == "mpi-ring" and run["executable"] == "mpi-ring", run


@test
def a_trace_or_database_is_imported_by_its_anchor_file():
    """SPEC §16: an anchor file is accepted, as the tools take it
    (otf2-print traces.otf2, hpcviewer's experiment.xml): the CLI reads the
    archive or database beside it, the same content as its directory (so the
    directory adds nothing new), and a lone anchor is still refused."""
    db = os.path.join(S.tmp, "anchor.db")
    trace = os.path.join(DATA, "otf2/trace")
    r = cli(db, os.path.join(trace, "traces.otf2"))
    assert r.returncode == 0 and "imported 1 run (0 already stored)" in r.stdout \
        and "(otf2)" in r.stdout, (r.stdout, r.stderr)
    r = cli(db, trace)
    assert r.returncode == 0 and "imported 0 runs (1 already stored)" in r.stdout, r.stdout
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(*) FROM runs").fetchone() == (1,)
    con.close()
    # the anchor without its definitions beside it: refused, with what is missing
    lone = os.path.join(S.tmp, "lone")
    os.makedirs(lone, exist_ok=True)
    shutil.copy(os.path.join(trace, "traces.otf2"), lone)
    r = cli(db, os.path.join(lone, "traces.otf2"))
    assert r.returncode != 0 and "traces.def (the global definitions) and traces/ " \
        "(the event files) are missing" in r.stderr, r.stderr
    hpc = os.path.join(SRC, "../shared/corpus/imports/hpctoolkit")
    if not os.path.isdir(hpc):
        print("  (no shared corpus beside the checkout: HPCToolkit not checked)")
        return
    for d, anchor in (("hatchet_hpctoolkit-cpi-database", "experiment.xml"),
                      ("pipit_ping-pong-hpctoolkit_v4", "meta.db")):
        r = cli(db, os.path.join(hpc, d, anchor))
        assert r.returncode == 0 and "imported 1 run (0 already stored)" in r.stdout \
            and "(hpctoolkit)" in r.stdout, (d, r.stdout, r.stderr)
        r = cli(db, os.path.join(hpc, d))
        assert "imported 0 runs (1 already stored)" in r.stdout, (d, r.stdout)



@test
def a_directory_of_several_runs_directories_is_several_runs():
    """A directory format's set holding several runs' directories (TAU
    profile directories, OTF2 archives, HPCToolkit databases side by side,
    as a job writes one per run) is one run per directory, each as if
    imported alone: the same uid, named by its own directory. Before, the
    TAU profiles of all of them were merged into one run (rank 0 of two
    programs read as one rank), an HPCToolkit parent kept only its first
    database without a word, OTF2 refused the set, and two directories given
    as two paths collided ("traces/0.def: two files share this name")."""
    pub = os.path.join(DATA, "public/tau")
    kinds = [("tau", [os.path.join(DATA, "tau/multi"), os.path.join(pub, "tau2_opencl_fft"),
                      os.path.join(pub, "amintos_mpi-factoring_ranks0-1")]),
             ("otf2", [os.path.join(DATA, "otf2/trace"),
                       os.path.join(DATA, "otf2-split/trace")])]
    hpc = os.path.join(SRC, "../shared/corpus/imports/hpctoolkit")
    if os.path.isdir(hpc):
        kinds.append(("hpctoolkit", [os.path.join(hpc, d) for d in sorted(os.listdir(hpc))]))
    else:
        print("  (no shared corpus beside the checkout: HPCToolkit not checked)")

    def stored(db):
        con = sqlite3.connect(db)
        rows = con.execute("SELECT r.uid, a.name, r.nprocs, r.runtime FROM runs r "
                           "JOIN applications a ON a.id = r.app_id ORDER BY r.uid").fetchall()
        con.close()
        return rows

    for fmt, dirs in kinds:
        # each alone, into its own database: what the set must store
        alone = []
        for i, d in enumerate(dirs):
            db = os.path.join(S.tmp, f"alone-{fmt}-{i}.db")
            r = cli(db, d)
            assert r.returncode == 0 and "imported 1 run (0 already stored)" in r.stdout, \
                (d, r.stdout, r.stderr)
            alone += stored(db)
        alone.sort()
        assert len({row[0] for row in alone}) == len(dirs), alone
        # the directories under one parent, each in a directory of its own
        # and keeping its name (both traces are called "trace"), the top
        # level's too
        parent = os.path.join(S.tmp, f"parent-{fmt}")
        copies = [os.path.join(parent, str(i) if i else "", os.path.basename(d))
                  for i, d in enumerate(dirs)]
        for d, c in zip(dirs, copies):
            shutil.copytree(d, c)
        db = os.path.join(S.tmp, f"parent-{fmt}.db")
        r = cli(db, parent)
        assert r.returncode == 0 and \
            f"imported {len(dirs)} runs (0 already stored)" in r.stdout, (r.stdout, r.stderr)
        assert stored(db) == alone, (fmt, stored(db), alone)
        for c in copies:
            r = cli(db, c)
            assert r.returncode == 0 and "imported 0 runs (1 already stored)" in r.stdout, \
                (c, r.stdout, r.stderr)
        # the directories as several paths: the same runs
        db = os.path.join(S.tmp, f"paths-{fmt}.db")
        r = cli(db, *dirs)
        assert r.returncode == 0 and \
            f"imported {len(dirs)} runs (0 already stored)" in r.stdout, (r.stdout, r.stderr)
        assert stored(db) == alone, (fmt, stored(db), alone)
    # two paths of one base name: two runs, each named as when alone
    a, b = os.path.join(S.tmp, "x/run"), os.path.join(S.tmp, "y/run")
    shutil.copytree(os.path.join(pub, "tau2_opencl_fft"), a)
    shutil.copytree(os.path.join(DATA, "tau/run"), b)
    db = os.path.join(S.tmp, "same-name.db")
    r = cli(db, a, b)
    assert r.returncode == 0 and "imported 2 runs (0 already stored)" in r.stdout, \
        (r.stdout, r.stderr)
    for d in (a, b):
        r = cli(db, d)
        assert "imported 0 runs (1 already stored)" in r.stdout, (d, r.stdout, r.stderr)
    assert sorted(row[1] for row in stored(db)) == ["FFT", "run"], stored(db)
    # over the API: one tar archive of two TAU directories
    st, ans = S.request("POST", "/api/v1/import?filename=two.tar",
                        tar_of(os.path.join(S.tmp, "parent-tau")),
                        ctype="application/x-tar")
    assert st == 201 and ans["format"] == "tau" and ans["runs"] == 3, ans


@test
def archived_and_compressed_files_in_a_directory_are_read_as_given_alone():
    """A results directory as users keep it: one run's TAU directory as it
    was written, another packed as run.tgz, an Extra-P file gzipped. Each
    file under the directory is unwrapped as a path is: the archive's files
    are that run's directory, the .gz file is read inflated; the runs are
    the ones each stores imported alone (before, the archive and the .gz
    file were read as they are and not recognised)."""
    pub = os.path.join(DATA, "public/tau")
    d = os.path.join(S.tmp, "archived")
    shutil.copytree(os.path.join(pub, "amintos_mpi-factoring_ranks0-1"),
                    os.path.join(d, "amintos_mpi-factoring_ranks0-1"))
    with tarfile.open(os.path.join(d, "fft.tgz"), "w:gz") as t:
        t.add(os.path.join(pub, "tau2_opencl_fft"), arcname="tau2_opencl_fft")
    e = os.path.join(S.tmp, "gzipped")
    os.makedirs(e)
    with open(os.path.join(DATA, "extrap-text/one.txt"), "rb") as f, \
            gzip.open(os.path.join(e, "one.txt.gz"), "wb") as g:
        g.write(f.read())
    db = os.path.join(S.tmp, "archived.db")
    r = cli(db, d)
    assert r.returncode == 0 and "imported 2 runs (0 already stored)" in r.stdout, \
        (r.stdout, r.stderr)
    for alone in (os.path.join(pub, "amintos_mpi-factoring_ranks0-1"),
                  os.path.join(pub, "tau2_opencl_fft")):
        r = cli(db, alone)
        assert "imported 0 runs (1 already stored)" in r.stdout, (alone, r.stdout, r.stderr)
    r = cli(db, e)
    assert r.returncode == 0 and "imported 3 runs (0 already stored)" in r.stdout, \
        (r.stdout, r.stderr)
    r = cli(db, os.path.join(DATA, "extrap-text/one.txt"))
    assert "imported 0 runs (3 already stored)" in r.stdout, (r.stdout, r.stderr)

S.close()


def vm(srv, field):
    with open(f"/proc/{srv.proc.pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise AssertionError(field)


@test
def a_caliper_chain_costs_bounded_memory():
    """Issue 34: a 1.4 MB json-split chain of 50,000 nested nodes once held
    the writer 4.6 s and left the server at 2.5 GB (every node's full path
    built before any length check). Its kernel is named by its root, a hash
    mark and its end; the server's peak stays within 300 MB of before."""
    n = 50000
    nodes = [{"label": "main"}] + [{"label": f"f{i}", "parent": i - 1} for i in range(1, n)]
    doc = {"columns": ["time", "path"], "nodes": nodes, "data": [[1.5, n - 1], [0.5, 0]]}
    body = json.dumps(doc).encode()
    assert len(body) > 1_000_000
    srv = Server()
    before = vm(srv, "VmRSS")
    t0 = time.time()
    st, ans = srv.request("POST", "/api/v1/import?format=caliper-json&filename=chain.json",
                          body, ctype="application/octet-stream")
    took = time.time() - t0
    assert st == 201, ans
    peak = vm(srv, "VmHWM")
    assert peak - before < 300 << 20, (before, peak)
    assert took < 10, took
    run = srv.get(f"/api/v1/runs/{ans['ids'][0]}")[1]
    srv.close()
    names = sorted(k["name"] for k in run["kernels"])
    assert names[0] == "main" and names[1].startswith("main/\u2026"), names
    assert names[1].endswith("/f49999") and len(names[1].encode()) <= 256, names
    print(f"     chain: {len(body) / 1e6:.1f} MB in {took:.2f} s, server "
          f"{before / 2**20:.0f} -> peak {peak / 2**20:.0f} MB", flush=True)


report()
