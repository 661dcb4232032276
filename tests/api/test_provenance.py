#!/usr/bin/env python3
"""Provenance where users look (SPEC §17) over HTTP against the real server:
the run page's commit, branch and tags; the application page's commit and
branch columns with ?commit= and ?branch= filters; the CSV download's
columns; the upload form's commit, branch and tags fields (stored, and a bad
value refused next to its field with nothing stored)."""
import csv
import html
import io
import re
import urllib.parse
import uuid

from prophecy_test import Server, report, test

S = Server()
APP = "prov"


def post_run(nprocs, runtime, commit=None, branch=None, tags=None):
    doc = {"application": APP, "executable": "e", "system": "s", "nprocs": nprocs,
           "runtime": runtime, "inputs": {"N": 10}}
    if commit:
        doc["commit"] = commit
    if branch:
        doc["branch"] = branch
    if tags:
        doc["tags"] = tags
    st, b = S.post("/api/v1/runs", doc)
    assert st == 201, b
    return b["ids"][0]


def page(path, status=200):
    st, body, resp = S.request("GET", path, token=None, raw=True)
    assert st == status, (path, st, body[:300])
    return body.decode(), resp


def run_ids(body):
    """The run ids of the runs table, in the order shown."""
    table = body.split('id="runs-table"', 1)[1].split("</table>", 1)[0]
    return [int(x) for x in re.findall(r'<tr><td class="num"><a href="/runs/(\d+)"', table)]


LONG = "0123456789abcdef0123456789abcdef01234567"
R1 = post_run(1, 10.0, LONG, "main", {"compiler": "gcc-14", "opt": "O3"})
R2 = post_run(2, 6.0, "beef01", "main")
R3 = post_run(4, 4.0, "beef01", "feature/x")
R4 = post_run(8, 3.0)  # no provenance


@test
def run_page_shows_commit_branch_and_tags():
    body, _ = page("/runs/%d" % R1)
    assert re.search(r'<dt>Commit</dt><dd><a id="run-commit" href="/applications/prov'
                     r'\?commit=%s#runs"><code>%s</code></a>' % (LONG, LONG), body), body[:4000]
    assert re.search(r'<dt>Branch</dt><dd><a id="run-branch" href="/applications/prov'
                     r'\?branch=main#runs"><code>main</code></a>', body)
    tags = re.search(r'<dd id="run-tags">(.*?)</dd>', body).group(1)
    assert tags == "<code>compiler=gcc-14</code>, <code>opt=O3</code>", tags
    body, _ = page("/runs/%d" % R4)
    assert '<dt>Commit</dt><dd><span class="muted">not given</span>' in body
    assert '<dd id="run-tags"><span class="muted">none</span>' in body


@test
def runs_table_has_commit_and_branch_columns():
    body, _ = page("/applications/prov")
    assert "<th>Commit</th><th>Branch</th>" in body
    # the commit shortened to 12 characters, whole in the title, linked to its filter
    assert ('href="/applications/prov?commit=%s#runs"><code title="%s">0123456789ab</code>'
            % (LONG, LONG)) in body
    assert 'href="/applications/prov?branch=feature%2Fx#runs"' in body
    assert run_ids(body) == [R4, R3, R2, R1]


@test
def branch_and_commit_filters():
    body, _ = page("/applications/prov?branch=main")
    assert run_ids(body) == [R2, R1], run_ids(body)
    assert "2 runs; page 1 of 1" in body
    assert 'id="filter-branch" size="14" value="main"' in body
    assert 'id="filter-clear" href="/applications/prov#runs"' in body
    body, _ = page("/applications/prov?commit=beef01")
    assert run_ids(body) == [R3, R2]
    body, _ = page("/applications/prov?commit=beef01&branch=feature%2Fx")
    assert run_ids(body) == [R3]
    body, _ = page("/applications/prov?commit=beef01&dir=asc")
    assert run_ids(body) == [R2, R3]
    body, _ = page("/applications/prov?branch=nosuch")
    assert "No runs match." in body and run_ids(body) == [] if 'id="runs-table"' in body \
        else "No runs match." in body
    # with the executable filter kept
    body, _ = page("/applications/prov?executable=e&branch=main")
    assert run_ids(body) == [R2, R1]
    assert '<input type="hidden" name="executable" value="e">' in body
    # a bad filter value is a clear error naming it
    body, _ = page("/applications/prov?branch=" + urllib.parse.quote("a\x01b"), 400)
    assert "branch" in html.unescape(body)
    body, _ = page("/applications/prov?commit=" + "c" * 65, 400)
    assert "commit is longer than 64 bytes" in html.unescape(body)


@test
def csv_download_has_the_columns():
    body, _ = page("/applications/prov?format=csv")
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0] == ["run", "executable", "system", "nprocs", "N", "runtime", "kernels",
                       "stored", "commit", "branch"], rows[0]
    by_id = {int(r[0]): r for r in rows[1:]}
    assert by_id[R1][-2:] == [LONG, "main"]
    assert by_id[R3][-2:] == ["beef01", "feature/x"]
    assert by_id[R4][-2:] == ["", ""]
    # the download follows the filters, and the page's link carries them
    body, _ = page("/applications/prov?branch=main&format=csv")
    assert [int(r[0]) for r in list(csv.reader(io.StringIO(body)))[1:]] == [R2, R1]
    body, _ = page("/applications/prov?branch=main")
    assert 'href="/applications/prov?branch=main&amp;format=csv"' in body


def csrf():
    body, _ = page("/upload")
    return re.search(r'name="csrf" value="([^"]+)"', body).group(1)


def form_post(path, fields):
    body = urllib.parse.urlencode(fields)
    st, payload, resp = S.request("POST", path, body, token=None,
                                  ctype="application/x-www-form-urlencoded", raw=True)
    return st, payload.decode(), resp


def upload_fields(**over):
    f = {"csrf": csrf(), "token": S.token, "id": "web-" + uuid.uuid4().hex,
         "application": APP, "executable": "e", "system": "s", "nprocs": "16",
         "runtime": "2.5", "inputs": "N=10", "kernels": "", "metrics": "",
         "started_at": "", "commit": "f00d42", "branch": "release",
         "tags": "compiler = clang-18\r\n# a comment\r\n\r\nmpi=openmpi"}
    f.update(over)
    return f


@test
def upload_form_has_the_provenance_fields():
    body, _ = page("/upload")
    for name in ("commit", "branch"):
        assert re.search(r'<input [^>]*name="%s"' % name, body), name
    assert re.search(r'<textarea [^>]*name="tags"', body)
    st, body, resp = form_post("/upload/run", upload_fields())
    assert st == 303, body[:2000]
    rid = int(re.match(r"/runs/(\d+)\?stored=1$", resp.getheader("Location")).group(1))
    st, run = S.get("/api/v1/runs/%d" % rid)
    assert run["commit"] == "f00d42" and run["branch"] == "release", run
    assert run["tags"] == {"compiler": "clang-18", "mpi": "openmpi"}, run["tags"]


@test
def upload_form_csv_section_names_the_provenance_columns():
    # the CSV form said "every other column is a numeric input" and named
    # only id, started_at and metric.NAME: commit, branch and tag.KEY columns
    # (which POST /api/v1/runs and this form store as provenance) were not said
    body, _ = page("/upload")
    csv_part = body.split('id="csv"', 1)[1].split("</p>", 1)[0]
    for col in ("commit", "branch", "tag.KEY"):
        assert "<code>%s</code>" % col in csv_part, csv_part
    boundary = "----hist" + uuid.uuid4().hex
    csv = ("application,executable,system,nprocs,runtime,commit,branch,tag.compiler\r\n"
           "provcsv,e,s,2,3.5,c5v0001,csv-branch,gcc-14\r\n")
    parts = []
    for name, value in (("csrf", csrf()), ("token", S.token)):
        parts.append('--%s\r\nContent-Disposition: form-data; name="%s"\r\n\r\n%s\r\n'
                     % (boundary, name, value))
    parts.append('--%s\r\nContent-Disposition: form-data; name="file"; '
                 'filename="runs.csv"\r\nContent-Type: text/csv\r\n\r\n%s\r\n--%s--\r\n'
                 % (boundary, csv, boundary))
    st, out, _ = S.request("POST", "/upload/csv", "".join(parts), token=None,
                           ctype="multipart/form-data; boundary=" + boundary, raw=True)
    assert st in (200, 303), (st, out[:1500])
    st, runs = S.get("/api/v1/runs?application=provcsv&commit=c5v0001")
    assert [(r["branch"], r["tags"]) for r in runs["runs"]] == \
        [("csv-branch", {"compiler": "gcc-14"})], runs


@test
def upload_form_refuses_bad_provenance_next_to_the_field():
    before = S.content()
    for over, field, text in [
            ({"tags": "compiler"}, "tags", "tags, line 1: write name=value"),
            ({"tags": "a=1\r\na=2"}, "tags", "tags, line 2: a is given twice"),
            ({"commit": "c" * 65}, "commit", "commit is longer than 64 bytes"),
            ({"branch": "bad\x01"}, "branch", "branch")]:
        st, body, _ = form_post("/upload/run", upload_fields(**over))
        assert st == 422, (over, st)
        err = re.search(r'<p class="field-error" id="run-%s-error">(.*?)</p>' % field, body)
        assert err and text in html.unescape(err.group(1)), (over, body[:3000])
        # the values are kept in the form
        if "commit" not in over:
            assert 'value="f00d42"' in body
    assert S.content() == before


# ---- /compare: navigation, links, the picker, labels, percent ----------------

def compare_runs():
    """Three configurations differing only in their last input (their labels
    would share one truncated text), each measured on main and on feature."""
    docs = []
    for br, rt in (("main", 10.0), ("feature", 12.0)):
        for rep in range(3):
            for z in (1, 2, 3):
                docs.append({"application": "cmp", "executable": "a-long-executable-name",
                             "system": "a-long-system-name", "nprocs": 64,
                             "inputs": {"alpha": 1000, "beta": 2000, "zeta": z},
                             "runtime": rt * z + 0.1 * rep, "branch": br,
                             "commit": br[0] * 6})
    st, b = S.post("/api/v1/runs", {"runs": docs})
    assert st == 201, b


compare_runs()


@test
def compare_is_in_the_navigation_and_linked():
    body, _ = page("/")
    assert '<li><a href="/compare">Compare</a></li>' in body
    body, _ = page("/applications/prov")
    assert 'id="app-compare" href="/compare?application=prov"' in body
    body, _ = page("/history?application=prov&executable=e&system=s&nprocs=1&input.N=10"
                   "&y=runtime")
    assert 'id="history-compare" href="/compare?application=prov"' in body


@test
def compare_without_sides_is_a_picker():
    body, _ = page("/compare")
    assert 'aria-current="page">Compare</a>' in body
    assert 'id="compare-pick"' in body and '<option value="prov">prov</option>' in body
    assert 'name="a"' not in body  # no application chosen yet
    body, _ = page("/compare?application=prov")
    a = body.split('id="pick-a"', 1)[1].split("</select>", 1)[0]
    # branches newest first, then commits newest first with their branch and runs
    assert re.findall(r'<option value="([^"]+)"', a) == [
        "branch:release", "branch:feature/x", "branch:main", "commit:f00d42",
        "commit:beef01",
        "commit:" + LONG], a
    assert "commit:beef01 on feature/x (2 runs)" in a, a
    assert "branch:main (2 runs)" in a and "commit:f00d42 on release (1 run)" in a
    body, _ = page("/compare?application=prov&b=commit:beef01")
    b = body.split('id="pick-b"', 1)[1].split("</select>", 1)[0]
    assert '<option value="commit:beef01" selected>' in b
    body, _ = page("/compare?application=nosuch", 404)
    assert "nosuch" in html.unescape(body)
    # commits without any branch (LNT reports name a revision only): no
    # empty "Branches" group over nothing
    st, _ = S.post("/api/v1/runs", {"runs": [
        {"application": "nobranch", "executable": "e", "system": "s", "nprocs": 1,
         "runtime": 1.0 + i, "commit": c} for i, c in enumerate(("152294", "154331"))]})
    assert st == 201
    body, _ = page("/compare?application=nobranch")
    a = body.split('id="pick-a"', 1)[1].split("</select>", 1)[0]
    assert "Branches" not in a and a.count("<optgroup") == a.count("</optgroup>") == 1, a
    assert re.findall(r'<option value="([^"]+)"', a) == ["commit:154331",
                                                        "commit:152294"], a


@test
def compare_labels_tell_rows_apart_and_changes_are_percent():
    body, _ = page("/compare?application=cmp&a=branch:main&b=branch:feature")
    svg = body.split("<svg", 1)[1].split("</svg>", 1)[0]
    labels = re.findall(r'<text[^>]*text-anchor="end"[^>]*>([^<]*)</text>', svg)
    assert sorted(labels) == ["zeta=1 · runtime", "zeta=2 · runtime",
                              "zeta=3 · runtime"], labels
    # feature is 20 % slower in every configuration (means 12z+0.1 vs 10z+0.1)
    cells = re.findall(r'<td class="num[^"]*">([+-][0-9.]+ %)', body)
    want = ["%+.3g %%" % (100 * ((12.0 * z + 0.1) / (10.0 * z + 0.1) - 1)) for z in (1, 2, 3)]
    assert sorted(cells) == sorted(want), (cells, want)
    assert "<th class=\"num\">b vs a</th>" in body


@test
def alerts_link_their_commit_to_compare():
    st, w = S.post("/api/v1/watches", {"application": "cmp", "system": "a-long-system-name",
                                       "y": "runtime",
                                       "detector": {"test": "zscore", "threshold": 3,
                                                    "window": 3}})
    assert st == 201, w
    st, b = S.post("/api/v1/runs", {"application": "cmp", "executable": "a-long-executable-name",
                                    "system": "a-long-system-name", "nprocs": 64,
                                    "inputs": {"alpha": 1000, "beta": 2000, "zeta": 1},
                                    "runtime": 99.0, "branch": "feature", "commit": "badbad"})
    assert st == 201 and b["alerts"], b
    body, _ = page("/alerts")
    assert 'href="/compare?application=cmp&amp;b=commit:badbad"><code>badbad</code></a>' in body



@test
def picker_orders_commits_by_run_time():
    """The picker's "newest first" is by the runs' time (started_at), not by
    upload: commits of March, January and February uploaded in that order
    were listed March, January, February."""
    st, _ = S.post("/api/v1/runs", {"runs": [
        {"application": "pickorder", "executable": "e", "system": "s", "nprocs": 1,
         "runtime": 1.0, "commit": c, "branch": b, "started_at": t}
        for c, b, t in (("mar", "b3", "2026-03-01T00:00:00Z"),
                        ("jan", "b1", "2026-01-01T00:00:00Z"),
                        ("feb", "b2", "2026-02-01T00:00:00Z"))]})
    assert st == 201
    body, _ = page("/compare?application=pickorder")
    a = body.split('id="pick-a"', 1)[1].split("</select>", 1)[0]
    assert re.findall(r'<option value="([^"]+)"', a) == [
        "branch:b3", "branch:b2", "branch:b1", "commit:mar", "commit:feb", "commit:jan"], a

report()
