#!/usr/bin/env python3
"""prophecy-upload's CI side against the real prophecyd (SPEC §11).

Without arguments: the usage of `report` and `--fail-on-alert` (needs no
history API). With --history: end to end against the history API — a
statistical watch on a configuration, ten quiet runs on branch main, then a
run of commit pr1 twice as slow: `--fail-on-alert` exits 3 and names the
alert, a quiet run exits 0, and `report --commit pr1` prints the comparison
with the alert as markdown and JSON (and exits 3, with or without
--fail-on-alert); a
scaling watch's alert is reported as a law change with its ratio at the target.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serverlib  # noqa: E402

HISTORY = "--history" in sys.argv[1:]
srv = serverlib.Server()
upload = os.path.join(serverlib.bin_dir(), "prophecy-upload")
if not os.access(upload, os.X_OK):
    print("SKIP: %s not built" % upload)
    sys.exit(serverlib.SKIP)
work = tempfile.mkdtemp(prefix="prophecy-upl-hist-")
spool = os.path.join(work, "spool")
APP = "ci_app"


def run_doc(runtime, commit, branch, i):
    return {"id": "ci-%s-%d" % (commit, i), "application": APP, "executable": "ci_gcc",
            "system": "testbox", "nprocs": 4, "inputs": {"N": 100}, "runtime": runtime,
            "commit": commit, "branch": branch,
            "started_at": "2026-01-01T00:%02d:00Z" % i}


def write(name, content):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        f.write(json.dumps(content))
    return path


def up(*args):
    env = dict(os.environ)
    env.pop("PROPHECY_URL", None)
    env.pop("PROPHECY_TOKEN", None)
    env["PROPHECY_SPOOL"] = spool
    base = [upload, "--server", srv.url, "--token", srv.token, "--timeout", "10"]
    return subprocess.run(base + list(args), capture_output=True, text=True, env=env,
                          timeout=120)


def test_report_usage():
    for args, want in [
            (["report"], "report needs --commit"),
            (["report", "--commit", "commit:x"], "report needs --commit"),
            (["report", "--commit", "x"], "report needs --application A"),
            (["report", "--commit", "x", "--application", "a", "--format", "xml"],
             "--format is markdown or json"),
            (["report", "--commit", "x", "--application", "a", "file.json"],
             "report takes only"),
            (["--commit", "x", write("one.json", run_doc(1.0, "u", "main", 0))],
             "belong to report")]:
        r = up(*args)
        assert r.returncode == 64, (args, r.returncode, r.stderr)
        assert want in r.stderr, (args, r.stderr)
    r = up("--help")
    assert "--fail-on-alert" in r.stdout, r.stdout
    assert "report --commit C --application A [--against B]" in r.stdout, r.stdout


def test_report_server_refuses():
    # A side the server cannot take ("tag:" with no key; before the history
    # API: no such route at all): its refusal is shown and the exit status is
    # 2, never an empty "PASS" on stdout.
    r = up("report", "--commit", "abc", "--against", "tag:", "--application", "a")
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "GET /api/v1/compare?a=tag%3A&b=commit%3Aabc&application=a: 4" in r.stderr, \
        r.stderr
    assert r.stdout == "", r.stdout
    # Unreachable server: exit 1.
    r = subprocess.run([upload, "--server", "http://127.0.0.1:1", "report", "--commit",
                        "abc", "--application", "a"], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 1 and "no answer" in r.stderr, (r.returncode, r.stderr)


def test_fail_on_alert_end_to_end():
    # SPEC §17: the watch first, before the application has any run (a CI
    # setup declares what to watch before it uploads)
    st, ans = srv.post("/api/v1/watches", {
        "application": APP, "executable": "ci_gcc", "system": "testbox", "nprocs": 4,
        "inputs": {"N": 100}, "y": "runtime",
        "detector": {"test": "zscore", "threshold": 3, "window": 10}})
    assert st == 201, (st, ans)
    quiet = [run_doc(1.0 + 0.01 * (i % 3), "base%d" % i, "main", i) for i in range(10)]
    r = up("--fail-on-alert", write("base.json", {"runs": quiet}))
    assert r.returncode == 0, (r.returncode, r.stderr)
    r = up("--fail-on-alert", write("slow.json", run_doc(2.0, "pr1", "feature", 20)))
    assert r.returncode == 3, (r.returncode, r.stderr)
    assert "alert" in r.stderr and "1 alert" in r.stderr, r.stderr
    # the failed job run again: its run is stored already and raises nothing
    # new, but its alert still stands, so it fails again (it passed: exit 0)
    r = up("--fail-on-alert", os.path.join(work, "slow.json"))
    assert r.returncode == 3, (r.returncode, r.stderr)
    assert "was stored before; its alert" in r.stderr and "still stands" in r.stderr, \
        r.stderr
    # runs stored before without an alert still pass
    r = up("--fail-on-alert", os.path.join(work, "base.json"))
    assert r.returncode == 0, (r.returncode, r.stderr)
    # the same without the flag: delivered, exit 0
    r = up(write("slow2.json", run_doc(2.01, "pr1", "feature", 21)))
    assert r.returncode == 0, (r.returncode, r.stderr)
    r = up("--fail-on-alert", write("fine.json", run_doc(1.01, "pr2", "feature", 22)))
    assert r.returncode == 0, (r.returncode, r.stderr)


def test_report_end_to_end():
    # a FAIL exits 3 with or without --fail-on-alert: 0 only for a commit
    # that has runs and no alert (SPEC §17)
    r = up("report", "--commit", "pr1", "--against", "main", "--application", APP)
    assert r.returncode == 3, (r.returncode, r.stderr)
    md = r.stdout
    assert md.startswith("### Prophecy: commit pr1 against branch:main\n"), md
    assert "**FAIL**" in md and "| **alert** |" in md, md
    assert "ci\\_app/ci\\_gcc on testbox, 4 procs, N=100 | runtime |" in md, md
    r = up("report", "--commit", "pr1", "--format", "json", "--application", APP)
    assert r.returncode == 3, (r.returncode, r.stderr)
    doc = json.loads(r.stdout)
    assert doc["verdict"] == "fail" and doc["commit"] == "pr1", doc
    row = [c for c in doc["configurations"] if c["metric"] == "runtime"][0]
    assert row["verdict"] == "alert" and abs(row["change"] - 0.99) < 0.05, row
    assert len(doc["alerts"]) >= 1, doc
    r = up("report", "--commit", "pr1", "--fail-on-alert", "--application", APP)
    assert r.returncode == 3, (r.returncode, r.stderr)
    r = up("report", "--commit", "pr2", "--fail-on-alert", "--application", APP)
    assert r.returncode == 0 and "**PASS**" in r.stdout, (r.returncode, r.stdout)
    # pr2 has one run: its 1 % change is "not tested", never "unchanged"
    assert "| 1.009 s (n=10) | 1.01 s (n=1) | +0.1 % | not tested |" in r.stdout, r.stdout


def test_report_not_measured_and_bad_baseline():
    # a commit with no runs: exit 4, "not measured", never PASS
    for extra in ([], ["--fail-on-alert"]):
        r = up("report", "--commit", "deadbeef", "--against", "main", "--application",
               APP, *extra)
        assert r.returncode == 4, (r.returncode, r.stdout, r.stderr)
        assert "**NOT MEASURED**: this commit has no runs in the selection." in r.stdout
        assert "PASS" not in r.stdout, r.stdout
    r = up("report", "--commit", "deadbeef", "--application", APP, "--format", "json")
    assert r.returncode == 4 and json.loads(r.stdout)["verdict"] == "not measured", r
    # an application nobody knows: the server's 404 names it, exit 2
    r = up("report", "--commit", "pr1", "--application", "other_app")
    assert r.returncode == 2 and "404 not_found: no application named other_app" \
        in r.stderr, (r.returncode, r.stdout, r.stderr)
    # a misspelt baseline: exit 2 with a message naming it, nothing on stdout
    r = up("report", "--commit", "pr1", "--against", "mian", "--application", APP,
           "--fail-on-alert")
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert r.stderr == ("prophecy-upload: report: the baseline branch:mian has no runs "
                        "of %s: check --against\n" % APP), r.stderr
    assert r.stdout == "", r.stdout
    # a selection that holds nothing is said as such, not blamed on --against
    # (it said "the baseline branch:main has no runs of ci_app: check --against")
    r = up("report", "--commit", "pr1", "--application", APP, "--executable", "nosuch")
    assert r.returncode == 2 and r.stdout == "", (r.returncode, r.stdout, r.stderr)
    assert r.stderr == ("prophecy-upload: report: no run of %s matches --executable, "
                        "--system, --nprocs and --input as given: check them\n" % APP), \
        r.stderr
    # the commit's runs in the selection, the baseline's not: both named
    r = up("report", "--commit", "pr1", "--against", "mian", "--application", APP,
           "--nprocs", "4")
    assert r.returncode == 2 and r.stderr == (
        "prophecy-upload: report: the baseline branch:mian has no runs of %s in the "
        "selection: check --against and the selection\n" % APP), r.stderr


def test_report_first_commit_of_a_branch():
    # the branch side leaves the commit's own runs out, so the first measured
    # commit of a branch has nothing before it: every value is new and the
    # report passes (a misspelt --against, with no runs at all, still exits 2);
    # the next commit is compared with it
    def runs(commit, rt, at):
        return {"runs": [dict(run_doc(rt + 0.01 * i, commit, "solo", at + i),
                              application="ci_first", id="%s-%d" % (commit, i))
                         for i in range(3)]}
    r = up(write("first.json", runs("first1", 1.0, 40)))
    assert r.returncode == 0, (r.returncode, r.stderr)
    r = up("report", "--commit", "first1", "--against", "solo", "--application", "ci_first")
    assert r.returncode == 0, (r.returncode, r.stdout, r.stderr)
    assert "**PASS**" in r.stdout and "| new |" in r.stdout, r.stdout
    assert r.stderr == ("prophecy-upload: report: branch:solo has no runs of ci_first "
                        "other than commit first1's: every value is new\n"), r.stderr
    r = up(write("second.json", runs("second2", 2.0, 50)))
    assert r.returncode == 0, (r.returncode, r.stderr)
    r = up("report", "--commit", "second2", "--against", "solo", "--application",
           "ci_first", "--format", "json")
    assert r.returncode == 0 and r.stderr == "", (r.returncode, r.stderr)
    row = [c for c in json.loads(r.stdout)["configurations"] if c["metric"] == "runtime"][0]
    assert row["verdict"] == "slower" and abs(row["change"] - 0.99) < 0.01, row


def test_report_scaling_end_to_end():
    # SPEC §17: a scaling watch; commit b2's law over nprocs adds 0.05·p to
    # main's 100/p + 1: the report names the law change and fails
    st, ans = srv.post("/api/v1/watches", {
        "application": "ci_scale", "system": "testbox", "y": "runtime",
        "detector": {"scaling": {"x": "nprocs", "target": 256,
                                 "baseline": "branch:main"}}})
    assert st == 201, (st, ans)
    runs = [{"id": "sc-%s-%d" % (c, p), "application": "ci_scale", "executable": "s",
             "system": "testbox", "nprocs": p, "runtime": 100.0 / p + 1 + slope * p,
             "commit": c, "branch": b}
            for c, b, slope in (("a1", "main", 0), ("b2", "fast", 0.05))
            for p in (2, 4, 8, 16, 32, 64)]
    r = up(write("scale.json", {"runs": runs}))
    assert r.returncode == 0, (r.returncode, r.stderr)
    r = up("report", "--commit", "b2", "--against", "main", "--application", "ci_scale",
           "--fail-on-alert")
    assert r.returncode == 3, (r.returncode, r.stdout, r.stderr)
    assert ("runtime: scaling law over nprocs changed; at nprocs = 256 it predicts 14.19 s "
            "against 1.391 s (ratio 10.2); law y = 1 + 0.05·nprocs + 100/nprocs, baseline "
            "y = 1 + 100/nprocs\n") in r.stdout, r.stdout
    r = up("report", "--commit", "b2", "--format", "json", "--application", "ci_scale")
    doc = json.loads(r.stdout)
    assert [a["kind"] for a in doc["alerts"]] == ["scaling"], doc
    assert abs(doc["alerts"][0]["ratio_at_target"] - 10.2045) < 1e-3, doc["alerts"]


checks = serverlib.Checks()
tests = [test_report_usage, test_report_server_refuses]
if HISTORY:
    tests += [test_fail_on_alert_end_to_end, test_report_end_to_end,
              test_report_not_measured_and_bad_baseline, test_report_first_commit_of_a_branch,
              test_report_scaling_end_to_end]
for t in tests:
    checks.run(t)
rc = checks.report()
srv.close(rc == 0)
if rc == 0:
    shutil.rmtree(work, ignore_errors=True)
sys.exit(rc)
