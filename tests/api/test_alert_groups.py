#!/usr/bin/env python3
"""Confirmation and alert groups (SPEC §17) over HTTP against the real server,
on both engines: a watch with "confirm": K raises its alert as suspected,
opens it when K more runs of the configuration are out and resolves it as
"not confirmed" when the next run is inside; the alerts one commit raises
form one group, listed by GET /api/v1/alert-groups and triaged together by
PATCH /api/v1/alert-groups/{id}; rejected requests change nothing."""
import re
import urllib.parse

from prophecy_test import Server, report, test

S = Server()


def run(app, runtime, day, commit, nprocs=4, system="s"):
    st, b = S.post("/api/v1/runs", {
        "application": app, "executable": "e", "system": system, "nprocs": nprocs,
        "inputs": {"N": 1}, "runtime": runtime, "commit": commit, "branch": "main",
        "started_at": "2026-11-%02dT10:%02d:00Z" % (1 + day // 60, day % 60)})
    assert st == 201, b
    return b.get("alerts", [])


def alert(i):
    st, b = S.get("/api/v1/alerts?limit=1&before=%d" % (i + 1))
    assert st == 200 and b["alerts"][0]["id"] == i, b
    return b["alerts"][0]


def watch(app, **over):
    body = {"application": app, "system": "s", "y": "runtime",
            "detector": {"test": "percent", "threshold": 10, "window": 3}}
    body.update(over)
    st, w = S.post("/api/v1/watches", body)
    assert st == 201, w
    return w["id"]


@test
def confirm_opens_after_k_runs_out():
    wid = watch("cf", confirm=2, detector={"test": "percent", "threshold": 10,
                                           "window": 8})
    st, l = S.get("/api/v1/watches")
    w = [x for x in l["watches"] if x["id"] == wid][0]
    assert w["confirm"] == 2, w
    for i in range(8):
        assert run("cf", 10.0, i, "q%d" % i) == []
    raised = run("cf", 15.0, 10, "bad")          # out: suspected
    assert len(raised) == 1 and raised[0]["state"] == "suspected", raised
    aid = raised[0]["id"]
    assert run("cf", 15.2, 11, "bad2") == []     # out, confirms once: still suspected
    assert alert(aid)["state"] == "suspected"
    # against the window's mean (11.275 s) 20 s is out again
    assert run("cf", 20.0, 12, "bad3") == []     # the second confirmation opens it
    a = alert(aid)
    assert a["state"] == "open" and a["reason"] is None, a
    st, b = S.get("/api/v1/alerts?state=suspected&application=cf")
    assert st == 200 and b["alerts"] == [], b


@test
def confirm_resolves_when_the_next_run_is_inside():
    watch("cn", confirm=3, detector={"test": "percent", "threshold": 10, "window": 8})
    for i in range(8):
        run("cn", 10.0, i, "q%d" % i)
    raised = run("cn", 15.0, 10, "blip")
    assert [a["state"] for a in raised] == ["suspected"], raised
    assert run("cn", 10.1, 11, "fine") == []     # inside [9.56, 11.69]
    a = alert(raised[0]["id"])
    assert a["state"] == "resolved" and a["reason"] == "not confirmed", a
    # the next one out raises a new suspected alert
    again = run("cn", 16.0, 12, "blip2")
    assert [a["state"] for a in again] == ["suspected"], again


@test
def confirm_is_checked():
    before = S.content()
    for bad in (0, 101, "2", 1.5):
        st, b = S.post("/api/v1/watches", {
            "application": "cx", "system": "s", "confirm": bad,
            "detector": {"test": "zscore"}})
        assert st == 422 and b["error"]["field"] == "confirm", b
        assert b["error"]["message"] == "confirm must be an integer from 1 to 100", b
    st, b = S.get("/api/v1/alerts?state=sleeping")
    assert st == 400 and b["error"]["message"] == (
        "state must be suspected, open, acknowledged, false_positive or resolved"), b
    st, b = S.request("PATCH", "/api/v1/alerts/1", {"state": "suspected"})
    assert st == 422 and b["error"]["field"] == "state", b
    assert S.content() == before


@test
def groups_per_commit_triaged_together():
    # one watch over every configuration of "grp"; commit "g1" makes three
    # configurations slower (1.5x, 2x, 1.2x) on two systems, commit "g2" one
    watch("grp")
    watch("grp", system="t")
    cfgs = [(2, "s"), (4, "s"), (8, "t")]
    for i in range(4):
        for p, sy in cfgs:
            run("grp", 10.0 * p, i, "base%d" % i, nprocs=p, system=sy)
    ids = []
    for (p, sy), f in zip(cfgs, (1.5, 2.0, 1.2)):
        ids += [a["id"] for a in run("grp", 10.0 * p * f, 20, "g1", nprocs=p, system=sy)]
    assert len(ids) == 3, ids
    g2 = [a["id"] for a in run("grp", 10.0 * 2 * 3, 21, "g2", nprocs=2)]
    assert len(g2) == 1, g2
    st, b = S.get("/api/v1/alert-groups")
    assert st == 200, b
    mine = [g for g in b["groups"] if g["commit"] in ("g1", "g2")]
    assert [g["commit"] for g in mine] == ["g2", "g1"], mine   # newest first
    g1 = mine[1]
    assert g1["alerts"] == sorted(ids) and g1["configurations"] == 3, g1
    assert abs(g1["worst_ratio"] - 2.0) < 1e-9, g1
    assert mine[0]["alerts"] == g2 and mine[0]["configurations"] == 1
    # each alert names its group
    assert alert(ids[0])["group"] == g1["id"]
    # rejected triage: nothing changes
    before = S.content()
    st, e = S.request("PATCH", "/api/v1/alert-groups/%d" % g1["id"], {"state": "gone"})
    assert st == 422 and e["error"]["field"] == "state", e
    st, e = S.request("PATCH", "/api/v1/alert-groups/%d" % g1["id"],
                      {"state": "resolved"}, token=False)
    assert st == 401, e
    st, e = S.request("PATCH", "/api/v1/alert-groups/999999", {"state": "resolved"})
    assert st == 404 and e["error"]["message"] == "no alert group 999999", e
    st, e = S.get("/api/v1/alert-groups?state=closed")
    assert st == 400 and e["error"]["field"] == "state", e
    assert S.content() == before
    # one PATCH triages the three
    st, out = S.request("PATCH", "/api/v1/alert-groups/%d" % g1["id"],
                        {"state": "acknowledged"})
    assert st == 200 and out["state"] == "acknowledged" and out["alerts"] == sorted(ids), out
    for i in ids:
        assert alert(i)["state"] == "acknowledged"
    assert alert(g2[0])["state"] == "open"
    st, b = S.get("/api/v1/alert-groups?state=open")
    assert g1["id"] not in [g["id"] for g in b["groups"]], b
    assert mine[0]["id"] in [g["id"] for g in b["groups"]], b
    st, b = S.get("/api/v1/alert-groups?state=acknowledged")
    assert [g["id"] for g in b["groups"]] == [g1["id"]], b



def page(path):
    st, body, _ = S.request("GET", path, token=None, raw=True)
    assert st == 200, (path, st)
    return body.decode()


def post_form(path, fields):
    st, body, resp = S.request("POST", path, urllib.parse.urlencode(fields), token=None,
                               ctype="application/x-www-form-urlencoded",
                               headers={"Origin": "http://127.0.0.1:%d" % S.port},
                               raw=True)
    return st, body.decode(), resp


@test
def alerts_page_shows_groups_first_and_triages_a_group():
    for i in range(4):
        run("pg", 10.0, i, "pq%d" % i, nprocs=2)
        run("pg", 20.0, i, "pq%d" % i, nprocs=4)
    watch("pg")
    ids = [a["id"] for a in run("pg", 30.0, 20, "pgbad", nprocs=2)]
    ids += [a["id"] for a in run("pg", 60.0, 21, "pgbad", nprocs=4)]
    assert len(ids) == 2, ids
    st, b = S.get("/api/v1/alert-groups?state=open")
    gid = [g["id"] for g in b["groups"] if g["commit"] == "pgbad"][0]
    body = page("/alerts")
    assert body.index('id="groups"') < body.index('id="each-alert"'), body[:3000]
    row = re.search(r'<tr id="group-%d">.*?</tr>' % gid, body, re.S).group(0)
    assert "<code>pgbad</code>" in row and "+200.0 %" in row, row
    assert '<a href="#alert-%d">' % ids[0] in row and '<td class="num">2</td>' in row, row
    assert 'action="/alert-groups/%d"' % gid in row, row
    csrf = re.search(r'name="csrf" value="([^"]+)"', body).group(1)
    before = S.content()
    st, _, _ = post_form("/alert-groups/%d" % gid,
                         {"csrf": csrf, "state": "resolved", "token": "wrong"})
    assert st == 401, st
    st, _, _ = post_form("/alert-groups/%d" % gid,
                         {"csrf": csrf, "state": "suspected", "token": S.token})
    assert st == 422, st
    st, _, _ = post_form("/alert-groups/999999",
                         {"csrf": csrf, "state": "resolved", "token": S.token})
    assert st == 404, st
    assert S.content() == before
    st, _, resp = post_form("/alert-groups/%d" % gid,
                            {"csrf": csrf, "state": "false_positive", "token": S.token})
    assert st == 303 and resp.getheader("Location") == "/alerts", st
    for i in ids:
        assert alert(i)["state"] == "false_positive"
    # the state filter applies to the groups too
    assert 'id="group-%d"' % gid not in page("/alerts?state=open")
    assert 'id="group-%d"' % gid in page("/alerts?state=false_positive")


report()
