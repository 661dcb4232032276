#!/usr/bin/env python3
"""Signing in to the dashboard (SPEC §17) over HTTP against the real server:
POST /login with a token sets an HttpOnly, SameSite=Strict session cookie;
the forms then show and need no token field (upload, triage, Save); CSRF
checks stay; /logout ends the session (the old cookie no longer works); a
revoked token ends its sessions; the API keeps Bearer tokens and ignores
the cookie."""
import html
import re
import urllib.parse
import uuid

from prophecy_test import Server, report, test

S = Server()


def page(path, cookie=None, status=200):
    h = {"Cookie": cookie} if cookie else None
    st, body, resp = S.request("GET", path, token=None, raw=True, headers=h)
    assert st == status, (path, st, body[:300])
    return body.decode()


def csrf(body):
    return re.search(r'name="csrf" value="([^"]+)"', body).group(1)


def form_post(path, fields, cookie=None):
    h = {"Origin": "http://127.0.0.1:%d" % S.port}
    if cookie:
        h["Cookie"] = cookie
    st, payload, resp = S.request("POST", path, urllib.parse.urlencode(fields), token=None,
                                  ctype="application/x-www-form-urlencoded", headers=h,
                                  raw=True)
    return st, payload.decode(), resp


def sign_in(token=None):
    st, body, resp = form_post("/login", {"csrf": csrf(page("/login")),
                                          "token": token or S.token, "next": "/upload"})
    assert st == 303, (st, body[:500])
    assert resp.getheader("Location") == "/upload"
    setc = resp.getheader("Set-Cookie")
    m = re.match(r"prophecy_session=([0-9a-f]{64}); Path=/; Max-Age=43200; HttpOnly; "
                 r"SameSite=Strict$", setc)
    assert m, setc
    return "prophecy_session=" + m.group(1)


def run_fields(body, **over):
    f = {"csrf": csrf(body), "id": "s-" + uuid.uuid4().hex, "application": "sess",
         "executable": "e", "system": "s", "nprocs": "4", "runtime": "1.5",
         "inputs": "N=1", "kernels": "", "metrics": "", "started_at": ""}
    f.update(over)
    return f


@test
def login_page_and_header():
    body = page("/login")
    assert 'id="login-form"' in body and 'name="token"' in body
    assert 'id="sign-in"' in body  # the header's link
    body = page("/")
    assert '<a href="/login" id="sign-in">Sign in</a>' in body


@test
def a_bad_token_or_csrf_starts_no_session():
    st, body, resp = form_post("/login", {"csrf": csrf(page("/login")), "token": "pt_wrong"})
    assert st == 401 and resp.getheader("Set-Cookie") is None
    err = re.search(r'id="login-token-error">(.*?)</p>', body).group(1)
    assert "unknown or revoked token" in html.unescape(err)
    st, body, resp = form_post("/login", {"csrf": csrf(page("/login")), "token": ""})
    assert st == 401 and resp.getheader("Set-Cookie") is None
    st, body, resp = form_post("/login", {"csrf": "1.abc", "token": S.token})
    assert st == 403 and resp.getheader("Set-Cookie") is None
    # a next that leaves the server is not followed
    st, body, resp = form_post("/login", {"csrf": csrf(page("/login")), "token": S.token,
                                          "next": "//evil.example/x"})
    assert st == 303 and resp.getheader("Location") == "/"


@test
def signed_in_forms_need_no_token():
    cookie = sign_in()
    body = page("/upload", cookie)
    assert 'name="token"' not in body, "no token field when signed in"
    assert 'id="sign-out"' in body and 'title="Signed in as tester"' in body
    before = S.content()
    st, out, resp = form_post("/upload/run", run_fields(body), cookie)
    assert st == 303, out[:1000]
    rid = int(re.match(r"/runs/(\d+)\?stored=1$", resp.getheader("Location")).group(1))
    st, run = S.get("/api/v1/runs/%d" % rid)
    assert run["submitter"] == "tester"
    # without the cookie the same form (no token) is refused, nothing stored
    after = S.content()
    st, out, _ = form_post("/upload/run", run_fields(body))
    assert st == 401 and "a write token is needed: sign in (/login)" in html.unescape(out)
    assert S.content() == after != before
    # CSRF checks stay for a signed-in user
    st, out, _ = form_post("/upload/run", run_fields(body, csrf="1.abcd"), cookie)
    assert st == 403 and S.content() == after
    # the login page says who is signed in (the alerts page's forms:
    # triage_with_a_session)
    assert 'id="signed-in"' in page("/login", cookie)


@test
def triage_with_a_session():
    for day in range(1, 8):
        st, _ = S.post("/api/v1/runs", {"application": "sess2", "executable": "e",
                                        "system": "s", "nprocs": 1, "runtime": 10 + day % 2,
                                        "commit": "c%d" % day})
        assert st == 201
    st, w = S.post("/api/v1/watches", {"application": "sess2", "system": "s",
                                       "y": "runtime",
                                       "detector": {"test": "zscore", "threshold": 3,
                                                    "window": 5}})
    assert st == 201, w
    st, b = S.post("/api/v1/runs", {"application": "sess2", "executable": "e", "system": "s",
                                    "nprocs": 1, "runtime": 50, "commit": "slow"})
    alert = b["alerts"][0]["id"]
    cookie = sign_in()
    body = page("/alerts", cookie)
    row = body.split('id="alert-%d"' % alert, 1)[1].split("</tr>", 1)[0]
    assert 'name="state"' in row and 'name="token"' not in row, row
    # nor the group's form above them (it asked for a token though signed in),
    # nor any other form of the page; the group is triaged with the session
    group = b["alerts"][0]["group"]
    grow = body.split('id="group-%d"' % group, 1)[1].split("</tr>", 1)[0]
    assert 'action="/alert-groups/%d"' % group in grow and 'name="token"' not in grow, grow
    assert 'name="token"' not in body
    st, out, _ = form_post("/alert-groups/%d" % group,
                           {"csrf": csrf(body), "state": "acknowledged"}, cookie)
    assert st == 303, out[:800]
    st, al = S.get("/api/v1/alerts?state=acknowledged")
    assert alert in [a["id"] for a in al["alerts"]]
    st, out, _ = form_post("/alerts/%d" % alert, {"csrf": csrf(body), "state": "resolved"},
                           cookie)
    assert st == 303, out[:800]
    st, al = S.get("/api/v1/alerts?state=resolved")
    assert alert in [a["id"] for a in al["alerts"]]


@test
def logout_ends_the_session():
    cookie = sign_in()
    body = page("/upload", cookie)
    st, out, resp = form_post("/logout", {"csrf": csrf(body)}, cookie)
    assert st == 303 and resp.getheader("Location") == "/"
    assert resp.getheader("Set-Cookie").startswith("prophecy_session=; Path=/; Max-Age=0")
    # the old cookie is worth nothing now
    body = page("/upload", cookie)
    assert 'name="token"' in body and 'id="sign-in"' in body
    before = S.content()
    st, out, _ = form_post("/upload/run", run_fields(body), cookie)
    assert st == 401 and S.content() == before
    # logout needs the CSRF token too
    cookie = sign_in()
    st, _, _ = form_post("/logout", {"csrf": "1.abc"}, cookie)
    assert st == 403
    assert 'id="sign-out"' in page("/upload", cookie)


@test
def a_revoked_token_ends_its_sessions():
    tok = S.cli("token", "create", "temp").strip()
    cookie = sign_in(tok)
    assert 'title="Signed in as temp"' in page("/upload", cookie)
    S.cli("token", "revoke", "temp")
    body = page("/upload", cookie)
    assert 'id="sign-in"' in body and 'name="token"' in body


@test
def the_api_keeps_bearer_tokens_and_ignores_the_cookie():
    cookie = sign_in()
    before = S.content()
    st, b, _ = S.request("POST", "/api/v1/runs",
                         '{"application":"x","executable":"e","system":"s","nprocs":1,'
                         '"runtime":1}', token=None, headers={"Cookie": cookie}, raw=True)
    assert st == 401, st
    assert S.content() == before
    st, b = S.post("/api/v1/runs", {"application": "x", "executable": "e", "system": "s",
                                    "nprocs": 1, "runtime": 1})
    assert st == 201


# ---- watches on the history page, deletes with a confirmation ---------------

HIST = "/history?application=wapp&executable=e&system=s&nprocs=2&input.N=5&y=runtime"


def wrun(rt):
    st, b = S.post("/api/v1/runs", {"application": "wapp", "executable": "e", "system": "s",
                                    "nprocs": 2, "inputs": {"N": 5}, "runtime": rt})
    assert st == 201, b
    return b["ids"][0]


def post_from(path, fields, referer, cookie=None):
    h = {"Origin": "http://127.0.0.1:%d" % S.port,
         "Referer": "http://127.0.0.1:%d%s" % (S.port, referer)}
    if cookie:
        h["Cookie"] = cookie
    st, payload, resp = S.request("POST", path, urllib.parse.urlencode(fields), token=None,
                                  ctype="application/x-www-form-urlencoded", headers=h,
                                  raw=True)
    return st, payload.decode(), resp


@test
def history_page_creates_and_deletes_watches():
    wrun(10.0)
    wrun(10.5)
    body = page(HIST)
    assert 'id="watch-none"' in body and 'id="watch-form"' in body
    assert 'name="token"' in body.split('id="watch-form"', 1)[1].split("</form>", 1)[0]
    before = S.content()
    # bad input: a clear error, nothing stored
    st, out, _ = post_from("/watches", {"csrf": csrf(body), "token": S.token,
                                        "application": "wapp", "system": "s",
                                        "y": "runtime", "test": "zscore",
                                        "threshold": "lots"}, HIST)
    assert st == 422 and "threshold must be a number" in html.unescape(out)
    st, out, _ = post_from("/watches", {"csrf": csrf(body), "token": S.token,
                                        "application": "wapp", "system": "s",
                                        "y": "runtime", "test": "nosuch"}, HIST)
    assert st == 422, st
    st, out, _ = post_from("/watches", {"csrf": csrf(body), "token": S.token,
                                        "application": "wapp", "system": "s",
                                        "y": "runtime", "test": "scaling",
                                        "target": "far", "baseline": "branch:main"}, HIST)
    assert st == 422 and "target must be a number" in html.unescape(out), (st, out[:300])
    st, out, _ = post_from("/watches", {"csrf": csrf(body), "token": "pt_bad",
                                        "application": "wapp", "system": "s",
                                        "y": "runtime", "test": "zscore"}, HIST)
    assert st == 401
    assert S.content() == before
    # signed in: no token field; the watch is stored and the page lists it
    cookie = sign_in()
    body = page(HIST, cookie)
    assert 'name="token"' not in body.split('id="watch-form"', 1)[1].split("</form>", 1)[0]
    st, out, resp = post_from("/watches", {"csrf": csrf(body), "application": "wapp",
                                           "system": "s", "y": "runtime", "test": "percent",
                                           "threshold": "15", "window": "5"}, HIST, cookie)
    assert st == 303 and resp.getheader("Location") == HIST, (st, out[:500])
    st, ws = S.get("/api/v1/watches")
    w = [x for x in ws["watches"] if x["application"] == "wapp"]
    assert len(w) == 1 and w[0]["detector"]["test"] == "percent", w
    assert w[0]["detector"]["threshold"] == 15 and w[0]["detector"]["window"] == 5
    wid = w[0]["id"]
    body = page(HIST, cookie)
    assert 'id="watch-%d"' % wid in body
    # the watch judges runs: a 50 % slower run raises an alert
    st, b = S.post("/api/v1/runs", {"application": "wapp", "executable": "e", "system": "s",
                                    "nprocs": 2, "inputs": {"N": 5}, "runtime": 15.5})
    assert b["alerts"], b
    # delete: a confirmation first, then the POST; the alert goes with it
    conf = page("/watches/%d/delete" % wid, cookie)
    assert 'id="confirm-form"' in conf and "judgements and alerts" in conf
    st, out, resp = post_from("/watches/%d/delete" % wid, {"csrf": csrf(conf)}, HIST,
                              cookie)
    assert st == 303, (st, out[:500])
    st, ws = S.get("/api/v1/watches")
    assert wid not in [x["id"] for x in ws["watches"]]
    st, al = S.get("/api/v1/alerts")
    assert all(a.get("watch") != wid for a in al["alerts"])


@test
def run_and_application_deletes_need_a_confirmation():
    rid = wrun(11.0)
    body = page("/runs/%d" % rid)
    assert 'id="run-delete" href="/runs/%d/delete"' % rid in body
    conf = page("/runs/%d/delete" % rid)
    assert "Delete run %d?" % rid in conf and 'name="token"' in conf
    assert 'id="confirm-cancel"' in conf
    before = S.content()
    st, _, _ = form_post("/runs/%d/delete" % rid, {"csrf": "1.abcd", "token": S.token})
    assert st == 403
    st, _, _ = form_post("/runs/%d/delete" % rid, {"csrf": csrf(conf), "token": "pt_no"})
    assert st == 401
    st, _, _ = form_post("/runs/%d/delete" % rid, {"csrf": csrf(conf)})
    assert st == 401
    assert S.content() == before
    st, out, resp = form_post("/runs/%d/delete" % rid, {"csrf": csrf(conf), "token": S.token})
    assert st == 303 and resp.getheader("Location") == "/applications/wapp", (st, out[:300])
    st, _ = S.get("/api/v1/runs/%d" % rid)
    assert st == 404
    page("/runs/%d/delete" % rid, status=404)
    # the application
    body = page("/applications/wapp")
    assert 'id="app-delete" href="/applications/wapp/delete"' in body
    conf = page("/applications/wapp/delete")
    assert "wapp goes with its" in html.unescape(conf)
    cookie = sign_in()
    conf = page("/applications/wapp/delete", cookie)
    assert 'name="token"' not in conf.split('id="confirm-form"', 1)[1]
    st, out, resp = form_post("/applications/wapp/delete", {"csrf": csrf(conf)}, cookie)
    assert st == 303 and resp.getheader("Location") == "/applications"
    st, _ = S.get("/api/v1/applications/wapp")
    assert st == 404
    page("/applications/wapp/delete", status=404)


report()
