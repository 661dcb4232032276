"""Red team, issue 34 item 7: one set of run rules for every way a run enters.

Imports once stored what POST /api/v1/runs refuses (a 200-byte commit,
100-byte tag names, dates such as 9999-99-99T99:99:99 from gbench and LNT),
and the export then could not be imported back ("nothing was imported").
Here every entry that carries the field (the JSON and CSV API, the upload
form, /upload/import and its commit field, the import's commit=, and each
importer that reads a commit, a tag or a date)
refuses each bad value with a 422 that names it and stores nothing; the
same entries given the longest values the rules allow store them, and the
export of all of it imports back, through the API and the CLI, into a new
database holding the same runs."""
import json
import os
import subprocess
import urllib.parse
import uuid

from prophecy_test import PROPHECYD, Server, report, run_doc, test

S = Server()

BAD_COMMIT = "c" * 200
BAD_TAG = "k" * 100
BAD_DATE = "9999-99-99T99:99:99"
OK_COMMIT = "e" * 64  # LIMIT_COMMIT
OK_TAG = "t" * 64  # LIMIT_IDENT


def gbench(commit=None, tag=None, date="2026-11-21T09:15:00+01:00", name="BM_A"):
    ctx = {"date": date, "host_name": "gb-host", "executable": "./gb/bench"}
    if commit:
        ctx["commit"] = commit
    if tag:
        ctx[tag] = "v"
    return json.dumps({"context": ctx, "benchmarks": [
        {"name": name, "run_type": "iteration", "iterations": 10, "real_time": 1.5,
         "cpu_time": 1.5, "time_unit": "ns"}]}).encode()


def lnt(commit=None, date="2026-11-20 10:00:00", name="t"):
    run = {"start_time": date}
    if commit:
        run["llvm_project_revision"] = commit
    return json.dumps({"format_version": "2", "machine": {"name": "lnt-box"}, "run": run,
                       "tests": [{"name": name, "execution_time": 1.25}]}).encode()


def doc(commit=None, tag=None, date="2026-11-21T10:00:00Z", app="rules"):
    d = run_doc(application=app, id="rr-" + uuid.uuid4().hex, started_at=date)
    if commit:
        d["commit"] = commit
    if tag:
        d["tags"] = {tag: "v"}
    return d


def csv(commit="", tag=None, date="2026-11-21T10:00:00Z", app="rules-csv"):
    head = "application,executable,system,nprocs,runtime,started_at,commit"
    row = f"{app},c.x,c-sys,4,2.5,{date},{commit}"
    if tag:
        head += ",tag." + tag
        row += ",v"
    return (head + "\n" + row + "\n").encode()


def api_import(fmt, body, srv=None, **query):
    q = urllib.parse.urlencode(dict(query, format=fmt, filename="x.json"))
    return (srv or S).request("POST", "/api/v1/import?" + q, body,
                              ctype="application/octet-stream")


def form_run(started_at):
    fields = {"csrf": S.form_csrf(), "token": S.token, "id": "web-" + uuid.uuid4().hex,
              "application": "rules-form", "executable": "wf.x", "system": "wf-sys",
              "nprocs": "16", "runtime": "3.25", "inputs": "N=2000", "kernels": "",
              "metrics": "", "started_at": started_at}
    st, body, _ = S.request("POST", "/upload/run", urllib.parse.urlencode(fields),
                            token=None, ctype="application/x-www-form-urlencoded",
                            raw=True)
    return st, body.decode()


def form_import(fmt, data, **extra):
    return S.form_import(fmt, data, **extra)


def refused(what, st, text, needle):
    assert st == 422, (what, st, text[:400])
    assert needle in text, (what, needle, text[:600])


@test
def every_entry_refuses_what_the_run_rules_refuse():
    before = S.content()
    long_commit = "commit is longer than 64 bytes"
    long_tag = "tag name is longer than 64 bytes"
    bad_date = "not a valid ISO 8601 time"
    for what, send, needle in [
        ("api commit", lambda: S.post("/api/v1/runs", doc(commit=BAD_COMMIT)), long_commit),
        ("api tag", lambda: S.post("/api/v1/runs", doc(tag=BAD_TAG)), long_tag),
        ("api date", lambda: S.post("/api/v1/runs", doc(date=BAD_DATE)), "ISO 8601"),
        ("csv commit", lambda: S.post("/api/v1/runs", csv(commit=BAD_COMMIT),
                                      ctype="text/csv"), long_commit),
        ("csv tag", lambda: S.post("/api/v1/runs", csv(tag=BAD_TAG), ctype="text/csv"),
         "longer than 64 bytes"),
        ("csv date", lambda: S.post("/api/v1/runs", csv(date=BAD_DATE), ctype="text/csv"),
         "ISO 8601"),
        ("json commit", lambda: api_import("json", json.dumps(
            {"runs": [doc(commit=BAD_COMMIT)]}).encode()), long_commit),
        ("json tag", lambda: api_import("json", json.dumps(
            {"runs": [doc(tag=BAD_TAG)]}).encode()), long_tag),
        ("json date", lambda: api_import("json", json.dumps(
            {"runs": [doc(date=BAD_DATE)]}).encode()), "ISO 8601"),
        ("gbench commit", lambda: api_import("gbench", gbench(commit=BAD_COMMIT)),
         long_commit),
        ("gbench tag", lambda: api_import("gbench", gbench(tag=BAD_TAG)), long_tag),
        ("gbench date", lambda: api_import("gbench", gbench(date=BAD_DATE)), bad_date),
        ("lnt commit", lambda: api_import("lnt-json", lnt(commit=BAD_COMMIT)), long_commit),
        ("lnt 65-byte revision", lambda: api_import("lnt-json", lnt(commit="r" * 65)),
         long_commit),
        ("lnt date", lambda: api_import("lnt-json", lnt(date=BAD_DATE)), bad_date),
        ("import commit=", lambda: api_import("gbench", gbench(), commit=BAD_COMMIT),
         long_commit),
    ]:
        st, body = send()
        text = json.dumps(body) if isinstance(body, dict) else str(body)
        refused(what, st, text, needle)
        assert S.content() == before, what
    for what, send, needle in [
        ("form date", lambda: form_run(BAD_DATE), "ISO 8601"),
        ("form import gbench commit", lambda: form_import("gbench", gbench(commit=BAD_COMMIT)),
         long_commit),
        ("form import gbench tag", lambda: form_import("gbench", gbench(tag=BAD_TAG)),
         long_tag),
        ("form import lnt date", lambda: form_import("lnt-json", lnt(date=BAD_DATE)),
         bad_date),
        ("form import commit field", lambda: form_import("gbench", gbench(),
                                                         commit=BAD_COMMIT), long_commit),
    ]:
        st, body = send()
        refused(what, st, body, needle)
        assert S.content() == before, what


@test
def the_import_forms_commit_and_branch_are_stored():
    st, page = form_import("gbench", gbench(name="BM_FORM"), commit="f00d1", branch="dev")
    assert st == 200, page[:400]
    st, runs = S.get("/api/v1/runs?commit=f00d1")
    assert st == 200 and len(runs["runs"]) == 1, runs
    assert runs["runs"][0]["branch"] == "dev", runs
    # a refused commit is shown at its field, not at the file's
    st, page = form_import("gbench", gbench(name="BM_FORM2"), commit=BAD_COMMIT)
    assert st == 422 and 'id="import-commit-error"' in page, page[-2000:]
    assert 'id="import-file-error"' not in page, page[-2000:]


def export_runs(srv):
    st, raw, _ = srv.request("GET", "/api/v1/export?format=json", token=None, raw=True)
    assert st == 200
    return json.loads(raw)


def facts(runs):
    """What must survive a round trip, independent of ids."""
    return sorted(json.dumps([r["application"], r["executable"], r["system"], r["nprocs"],
                              r["runtime"], r.get("started_at"), r.get("commit"),
                              r.get("tags") or {}], sort_keys=True) for r in runs)


@test
def the_longest_allowed_values_export_and_import_back():
    stored = 0
    for what, send in [
        ("api", lambda: S.post("/api/v1/runs", doc(commit=OK_COMMIT, tag=OK_TAG))),
        ("csv", lambda: S.post("/api/v1/runs", csv(commit=OK_COMMIT, tag=OK_TAG),
                               ctype="text/csv")),
        ("json", lambda: api_import("json", json.dumps(
            {"runs": [doc(commit=OK_COMMIT, tag=OK_TAG, app="rules-json")]}).encode())),
        ("gbench", lambda: api_import("gbench", gbench(commit=OK_COMMIT, tag=OK_TAG))),
        ("lnt", lambda: api_import("lnt-json", lnt(commit=OK_COMMIT))),
    ]:
        st, body = send()
        assert st == 201, (what, st, body)
        stored += 1
    st, _ = form_run("2026-11-21T10:00:00Z")
    assert st == 303, st
    st, _ = form_import("gbench", gbench(commit=OK_COMMIT, tag=OK_TAG, name="BM_form"))
    assert st == 200, st
    exported = export_runs(S)
    runs = [r for r in exported["runs"] if r["application"].startswith("rules")
            or r["system"] in ("gb-host", "lnt-box")]
    assert len(runs) >= stored + 2, [r["application"] for r in exported["runs"]]
    assert any(r.get("commit") == OK_COMMIT and OK_TAG in (r.get("tags") or {})
               for r in runs), runs
    body = json.dumps(exported).encode()
    # back through the API into a new database: every run, nothing refused
    other = Server()
    st, ans = api_import("json", body, srv=other)
    assert st == 201, ans
    assert facts(export_runs(other)["runs"]) == facts(exported["runs"])
    other.close()
    # and through the CLI
    path = os.path.join(S.tmp, "rules-export.json")
    with open(path, "wb") as f:
        f.write(body)
    db = os.path.join(S.tmp, "rules-other.db")
    out = subprocess.run([PROPHECYD, "import", path, "--db", db], capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    assert f"imported {len(exported['runs'])} runs" in out.stdout, out.stdout


report()
