"""API tests of SPEC §18's whole-application scaling against the real
prophecyd: GET /api/v1/applications/{name}/scaling models every kernel, run
metric and the runtime of a selection over x with `auto`, with shares of the
modelled runtime (the sum of the kernels' laws) at the largest measured x and
at the target, the bottleneck and the kernels that scale worse than the
whole. Kernels with exact laws fix every number."""
import html
import math
import re
import urllib.parse

from prophecy_test import Server, report, test

S = Server()

PS = [2, 4, 8, 16, 32, 64]
LAWS = {"solve": lambda p: 100 / p + 1, "exchange": lambda p: 0.05 * p,
        "reduce": lambda p: math.log2(p)}


def runs(app, system="s", inputs=None, ps=PS, reps=2, extra=None):
    out = []
    for p in ps:
        for _ in range(reps):
            ks = [{"name": k, "time": f(p)} for k, f in LAWS.items()]
            if extra and p in extra[1]:
                ks.append({"name": extra[0], "time": 0.5})
            out.append({"application": app, "executable": "e", "system": system,
                        "nprocs": p, "inputs": inputs or {"N": 1000},
                        "runtime": sum(k["time"] for k in ks), "kernels": ks,
                        "metrics": {"flops": 1e6 * p}})
    return out


def upload(rs):
    st, b = S.post("/api/v1/runs", {"runs": rs})
    assert st == 201, b


# "laws": the three laws at 6 values of nprocs, and a kernel "setup" measured
# at two of them only.
upload(runs("laws", extra=("setup", (2, 4))))
# "mixed": two problem sizes and two systems.
upload(runs("mixed", inputs={"N": 1000}) + runs("mixed", inputs={"N": 2000}, ps=PS[:4])
       + runs("mixed", system="t", ps=PS[:3]))
# "few": two values of nprocs
upload(runs("few", ps=[4, 8]))
# "optional": the laws over 6 values of nprocs with N; at 2 of them also runs
# with a second input M (as Google Benchmark families of one and of two
# arguments), whose times are 100 times larger
upload(runs("optional") + [dict(r, inputs={"N": 1000, "M": 8}, runtime=100 * r["runtime"])
                           for r in runs("optional", ps=[2, 4])] + runs("plain"))
# "weak": a weak-scaling series, N = 100 nprocs; "blocks": two sizes, each
# over its own range of nprocs (not a series)
upload([r for p in PS for r in runs("weak", inputs={"N": 100 * p}, ps=[p])])
upload(runs("blocks", inputs={"N": 1000}, ps=PS[:3]) + runs("blocks", inputs={"N": 8000},
                                                             ps=PS[3:]))
# "families": Google Benchmark families as executables, BM_B over N at 4
# values, BM_A (100 times slower) over N at 2 of them; "files": one study
# imported file by file, each file its own executable at one process count
for exe, ns, k in (("BM_B", [64, 256, 1024, 4096], 1), ("BM_A", [256, 1024], 100)):
    upload([{"application": "families", "executable": exe, "system": "s", "nprocs": 1,
             "inputs": {"N": n}, "runtime": k * 1e-9 * n} for n in ns for _ in range(2)])
upload([dict(r, executable=f"study.p{r['nprocs']}") for r in runs("files")])
# "dust": the laws and a kernel of 1e-9 p s, which grows faster than the
# whole but stays about 1e-8 of it
upload([dict(r, kernels=r["kernels"] + [{"name": "dust", "time": 1e-9 * r["nprocs"]}])
        for r in runs("dust")])
# "one": one process count and one N (an LNT suite, a single profile)
upload(runs("one", ps=[4]))
# "counts": no time at all, a metric over nprocs (an Extra-P file of a
# metric, SPEC §16)
upload([{"application": "counts", "executable": "e", "system": "s", "nprocs": p,
         "inputs": {"N": 1000}, "metrics": {"flops": 1e6 * p}} for p in PS])


def scaling(app, want=200, **q):
    path = "/api/v1/applications/" + urllib.parse.quote(app) + "/scaling"
    if q:
        path += "?" + urllib.parse.urlencode(q)
    st, b = S.get(path)
    assert st == want, (st, b)
    return b


def close(a, b, tol=1e-9):
    return abs(a - b) <= tol * max(1.0, abs(b))


@test
def every_kernel_modelled_with_shares_and_bottleneck():
    b = scaling("laws", x="nprocs", target="256")
    assert b["x"] == "nprocs" and b["target"] == 256 and b["measured"] == 64
    assert b["selection"]["system"] == "s" and b["selection"]["fixed"] == {"N": 1000}
    assert b["selection"]["values"] == PS and b["selection"]["runs"] == 12
    ks = {k["name"]: k for k in b["kernels"]}
    assert set(ks) == {"solve", "exchange", "reduce"}, ks.keys()
    # the laws themselves
    assert "100/nprocs" in ks["solve"]["formula"], ks["solve"]["formula"]
    assert "0.05·nprocs" in ks["exchange"]["formula"], ks["exchange"]["formula"]
    assert "log2(nprocs)" in ks["reduce"]["formula"], ks["reduce"]["formula"]
    tm = sum(f(64) for f in LAWS.values())     # 11.7625
    tt = sum(f(256) for f in LAWS.values())    # 22.190625
    assert close(b["total"]["measured"], tm) and close(b["total"]["target"], tt), b["total"]
    for name, f in LAWS.items():
        k = ks[name]
        assert close(k["measured"], f(64)) and close(k["y"], f(256)), k
        assert close(k["share_measured"], f(64) / tm), k
        assert close(k["share_target"], f(256) / tt), k
        assert 0 < k["lo"] < k["y"] < k["hi"], k
        assert k["extrapolation"] == 2 and k["points"] == 6, k
    # 0.05 p: 27 % of the runtime at 64, 58 % at 256, the bottleneck
    assert b["bottleneck"] == "exchange"
    assert [k["name"] for k in b["kernels"]] == ["exchange", "reduce", "solve"]
    assert [k["worse_than_whole"] for k in b["kernels"]] == [True, False, False]
    # a kernel that grows faster than the whole to 1e-8 of it is no
    # scalability bug: its share stays below 0.1 %
    d = {k["name"]: k for k in scaling("dust")["kernels"]}
    assert d["dust"]["share_target"] > 1.1 * d["dust"]["share_measured"] > 0, d["dust"]
    assert not d["dust"]["worse_than_whole"] and d["exchange"]["worse_than_whole"], d
    # the runtime and the metric are modelled too
    assert b["runtime"]["points"] == 6 and close(b["runtime"]["measured"], tm, 1e-3)
    assert [m["name"] for m in b["metrics"]] == ["flops"]
    assert close(b["metrics"][0]["y"], 256e6, 1e-6), b["metrics"]
    # a kernel measured at two values is listed as skipped, with the reason
    assert [(s["kind"], s["name"]) for s in b["skipped"]] == [("kernel", "setup")], b
    reason = b["skipped"][0]["reason"]
    assert reason and "choose a graph type" not in reason, reason


@test
def each_row_is_the_fit_apis_answer():
    b = scaling("laws", target="1000")
    for k in b["kernels"] + [dict(b["runtime"], name=None)]:
        y = "runtime" if k["name"] is None else "kernel:" + k["name"]
        st, f = S.post("/api/v1/fit", {"application": "laws", "system": "s", "x": "nprocs",
                                       "fixed": {"N": 1000}, "y": y, "graph": "auto",
                                       "predict": [64, 1000]}, token=False)
        assert st == 200, f
        at = f["predictions"][1]
        assert k["formula"] == f["model"]["formula"], (k, f["model"])
        assert k["measured"] == f["predictions"][0]["y"]
        for key in ("y", "lo", "hi", "extrapolation"):
            assert k[key] == at[key], (key, k, at)
        assert k.get("warning") == at.get("warning"), (k, at)


@test
def target_defaults_to_four_times_the_largest_x():
    b = scaling("laws")
    assert b["target"] == 256 and b["x"] == "nprocs" and b["bottleneck"] == "exchange"


@test
def x_may_be_an_input_with_nprocs_fixed():
    rs = []
    for n in (100, 200, 400, 800):
        rs.append({"application": "sizes", "executable": "e", "system": "s", "nprocs": 4,
                   "inputs": {"N": n}, "runtime": 3e-6 * n ** 2 + 1,
                   "kernels": [{"name": "mult", "time": 3e-6 * n ** 2},
                               {"name": "io", "time": 1.0}]})
    upload(rs)
    b = scaling("sizes", x="N", target="1600")
    assert b["selection"]["fixed"] == {"nprocs": 4}, b["selection"]
    ks = {k["name"]: k for k in b["kernels"]}
    assert close(ks["mult"]["y"], 3e-6 * 1600 ** 2, 1e-6) and close(ks["io"]["y"], 1.0, 1e-6)
    assert b["bottleneck"] == "mult" and ks["mult"]["worse_than_whole"]


@test
def x_over_an_input_needs_one_nprocs():
    upload([{"application": "np", "executable": "e", "system": "s", "nprocs": p,
             "inputs": {"N": n}, "runtime": n / p,
             "kernels": [{"name": "k", "time": n / p}]}
            for n in (100, 200, 400) for p in (2, 4)] +
           [{"application": "np", "executable": "e", "system": "s", "nprocs": 8,
             "inputs": {"N": n}, "runtime": n / 8, "kernels": [{"name": "k", "time": n / 8}]}
            for n in (100, 200, 400, 800)])
    err = scaling("np", 422, x="N")["error"]
    assert err["field"] == "nprocs" and "nprocs=8" in err["message"], err
    b = scaling("np", x="N", nprocs="2", target="800")
    assert b["selection"]["fixed"] == {"nprocs": 2} and close(b["kernels"][0]["y"], 400, 1e-6)
    assert scaling("np", 422, x="N", nprocs="0")["error"]["field"] == "nprocs"


@test
def a_selection_that_is_not_one_curve_names_the_field_to_fix():
    b = scaling("mixed", 422)
    assert b["error"]["field"] == "system" and "system=" in b["error"]["message"], b
    b = scaling("mixed", 422, system="s")
    assert b["error"]["field"] == "input.N", b
    assert "input.N=1000" in b["error"]["message"], b  # measured at the most values
    b = scaling("mixed", system="s", **{"input.N": "2000"})
    assert b["selection"]["values"] == PS[:4] and b["measured"] == 16 and b["target"] == 64


@test
def bad_requests_are_refused_at_their_field():
    before = S.content()
    err = scaling("nope", 404)["error"]
    assert err["field"] == "application" and "nope" in err["message"], err
    assert scaling("laws", 404, system="zz")["error"]["field"] == "system"
    assert scaling("laws", 404, executable="zz")["error"]["field"] == "executable"
    err = scaling("laws", 422, x="bogus")["error"]
    assert err["field"] == "x" and "bogus" in err["message"], err
    for t in ("0", "-4", "abc", "1e999", "inf"):
        assert scaling("laws", 422, target=t)["error"]["field"] == "target", t
    assert scaling("laws", 422, **{"input.N": "x"})["error"]["field"] == "input.N"
    assert scaling("laws", 422, **{"input.nprocs": "4"})["error"]["field"] == "input.nprocs"
    assert scaling("laws", 422, nprocs="4")["error"]["field"] == "nprocs"
    # an unknown parameter is a 400 naming it (the route's list)
    st, b = S.get("/api/v1/applications/laws/scaling?graph=cubic")
    assert st == 400 and "graph" in str(b), b
    # fewer values of x than a law needs: a clear message
    err = scaling("few", 422)["error"]
    assert err["code"] == "degenerate" and err["field"] == "x", err
    assert "2 values of nprocs (4, 8)" in err["message"] and "at least 3" in err["message"]
    # no runs match the fixed input
    assert scaling("laws", 422, **{"input.N": "5"})["error"]["code"] == "degenerate"
    assert S.content() == before



# ---- the pages -------------------------------------------------------------


def page(path, status=200):
    st, body, _ = S.request("GET", path, token=None, raw=True)
    assert st == status, (path, st, body[:400])
    return body.decode()


def text_of(body, id_, tag="p"):
    m = re.search(r'id="%s"[^>]*>(.*?)</%s>' % (re.escape(id_), tag), body, re.S)
    assert m, "no #" + id_
    return html.unescape(re.sub(r"<[^>]+>", "", m.group(1))).replace("\xa0", " ")


@test
def application_page_shows_scaling_at_the_target():
    body = page("/applications/laws")
    assert '<h2 id="scaling-at">Scaling at nprocs&nbsp;=&nbsp;256</h2>' in body, body[:300]
    head = text_of(body, "scaling-headline")
    assert "the bottleneck is exchange: 57.7 % of the modelled runtime (27.2 % at " \
        "nprocs = 64)" in head, head
    assert "from 11.76 s to 22.19 s" in head, head  # web/units.h, as every page
    worse = text_of(body, "scaling-worse")
    assert "exchange (27.2 % → 57.7 %)" in worse and "solve" not in worse, worse
    # the table: one row per kernel, largest share at the target first
    rows = re.findall(r'<tr[^>]*><td class="name">([a-z]+)', body)
    assert rows[:3] == ["exchange", "reduce", "solve"], rows
    assert "Not modelled: setup" in html.unescape(body)
    # the picker: another target, the same numbers as the API's
    body = page("/applications/laws?target=1024")
    assert "Scaling at nprocs&nbsp;=&nbsp;1024" in body
    api = scaling("laws", target="1024")
    share = api["kernels"][0]["share_target"]
    assert ("%.1f" % (100 * share)) in text_of(body, "scaling-headline")
    assert api["bottleneck"] == "exchange"
    # the link to the JSON names the same selection
    assert "/api/v1/applications/laws/scaling?x=nprocs&amp;target=1024&amp;system=s" \
        "&amp;input.N=1000" in body


def chart_fills(body, title):
    """Kernel name -> the fills of its bar segments in the charts titled title."""
    fills = {}
    for svg in body.split("<svg")[1:]:
        if ">" + title + "<" not in svg:
            continue
        for fill, name in re.findall(r'fill="(#[0-9a-f]{6})"><title>[^<]*? \u2014 ([^:<]+):',
                                     html.unescape(svg)):
            fills.setdefault(name, set()).add(fill)
    return fills


@test
def application_page_colours_a_kernel_alike_in_both_charts():
    # the scaling chart orders kernels by their share at the target, the
    # breakdown by name and holds "setup", which the scaling chart does not
    body = page("/applications/laws")
    scal = chart_fills(body, "Modelled runtime by kernel")
    brk = chart_fills(body, "Kernel times, latest run per configuration")
    assert set(scal) == {"exchange", "reduce", "solve"}, scal
    assert set(brk) == {"exchange", "reduce", "setup", "solve"}, brk
    for k in scal:
        assert len(scal[k]) == 1 and scal[k] == brk[k], (k, scal[k], brk[k])
    assert len({f for v in brk.values() for f in v}) == 4, brk  # four kernels, four colours


@test
def runs_without_an_input_are_a_selection_of_their_own():
    # the API refuses the mix, naming both ways out
    err = scaling("optional", 422)["error"]
    assert err["field"] == "input.M", err
    assert err["message"] == (
        "some of the selected runs have an input M that those measured at the most "
        "values of nprocs have not; choose with input.M= (the runs without it) or "
        "input.M=VALUE"), err
    # input.M= (empty): the runs without M, the same answer as an application
    # of only those runs ("plain")
    b = scaling("optional", **{"input.M": ""})
    assert b["selection"]["fixed"] == {"N": 1000, "M": None}, b["selection"]
    assert b["selection"]["values"] == PS and b["selection"]["runs"] == 12, b["selection"]
    ref = scaling("plain")
    assert b["runtime"]["formula"] == ref["runtime"]["formula"], (b["runtime"], ref["runtime"])
    assert b["bottleneck"] == ref["bottleneck"] == "exchange"
    tt = sum(f(256) for f in LAWS.values())  # the kernels' exact laws at 4 x 64
    assert close(b["total"]["target"], tt) and close(ref["total"]["target"], tt), b["total"]
    # the fit takes "fixed": {"M": null} alike; without it the mix is refused
    req = {"application": "optional", "system": "s", "x": "nprocs", "y": "runtime",
           "graph": "poly1", "fixed": {"N": 1000}}
    st, out = S.post("/api/v1/fit", req)
    assert st == 422 and "differ in M" in out["error"]["message"], out
    st, out = S.post("/api/v1/fit", dict(req, fixed={"N": 1000, "M": None}))
    assert st == 200 and out["selection"]["fixed"] == {"N": 1000, "M": None}, out
    assert [p["x"] for p in out["points"]] == PS, out["points"]
    st, out = S.post("/api/v1/fit", dict(req, fixed={"N": 1000, "nprocs": None}))
    assert st == 422 and out["error"]["field"] == "fixed", out
    assert "nprocs must be a finite number" in out["error"]["message"], out
    # the application page takes the runs measured at the most values of x
    # (those without M), says so, and its JSON link answers the same
    body = page("/applications/optional")
    sel = text_of(body, "scaling-selection")
    assert "runs on s, N = 1000, nprocs" not in sel and ", without M, modelled over nprocs" in sel, sel
    link = html.unescape(re.search(r'href="(/api/v1/applications/optional/scaling[^"]*)"',
                                   body).group(1))
    assert link.endswith("&input.M="), link
    st, out = S.get(link)
    assert st == 200 and out["selection"] == b["selection"], (st, out)
    assert text_of(body, "bottleneck", "strong") == "exchange"


@test
def a_size_that_grows_with_x_is_one_curve():
    # N = 100 nprocs: one N at each nprocs, no mix; the same laws as "plain"
    b = scaling("weak")
    assert b["selection"]["fixed"] == {} and b["selection"]["varies_with_x"] == ["N"], b
    assert b["selection"]["values"] == PS and b["selection"]["runs"] == 12
    ref = scaling("plain")
    assert [(k["name"], k["formula"]) for k in b["kernels"]] == \
        [(k["name"], k["formula"]) for k in ref["kernels"]], (b["kernels"], ref["kernels"])
    # the fit alike: the runtime's exact line with "graph": "poly1" over the
    # kernel "exchange" (0.05 p), N varying with x named in the selection
    st, out = S.post("/api/v1/fit", {"application": "weak", "system": "s", "x": "nprocs",
                                     "y": "kernel:exchange", "graph": "poly1"})
    assert st == 200 and out["selection"]["varies_with_x"] == ["N"], out
    c = out["model"]["coefficients"]
    assert abs(c[0]) < 1e-9 and abs(c[1] - 0.05) < 1e-12, c
    # two sizes at one nprocs are still a mix, refused at fixed (the API), and
    # so are two sizes each over its own range (a step, not a series)
    for app in ("mixed", "blocks"):
        st, out = S.post("/api/v1/fit", {"application": app, "system": "s", "x": "nprocs"})
        assert st == 422 and "differ in N" in out["error"]["message"], (app, out)
    assert scaling("blocks", 422)["error"]["field"] == "input.N"
    # the page names it
    sel = text_of(page("/applications/weak"), "scaling-selection")
    assert "runs on s, N changing with nprocs, modelled over nprocs" in sel, sel
    # kernel coupling takes the series too (its kernels' laws are exact, so
    # the prediction is their sum at the coupling 1 of no stored coupling),
    # and refuses the mixes at "fixed" as the fit does
    st, out = S.post("/api/v1/couple", {"application": "weak", "system": "s",
                                        "x": "nprocs", "predict": [128]}, token=False)
    assert st == 200 and out["varies_with_x"] == ["N"] and out["fixed"] == {}, out
    want = sum(f(128) for f in LAWS.values())
    assert close(out["predictions"][0]["summation"]["y"], want, 1e-6), (out, want)
    # saved, its page says what it was made of, as a saved fit's does
    st, saved = S.post("/api/v1/couple", {"application": "weak", "system": "s",
                                          "x": "nprocs", "save": True})
    assert st in (200, 201) and saved["varies_with_x"] == ["N"], saved
    body = page(f"/models/{saved['id']}")
    assert text_of(body, "selection", "dd") == \
        "the kernel records of the runs, N changing with nprocs"
    # its kernels as the coupling form shows them, not the stored JSON
    assert "<h3>Kernels and coefficients</h3>" in body and "&quot;state&quot;" not in body
    assert "No couplings: the model is the plain sum of the kernels." in body
    assert "Measured at" not in body
    for app in ("mixed", "blocks"):
        st, out = S.post("/api/v1/couple", {"application": app, "system": "s",
                                            "x": "nprocs"}, token=False)
        assert st == 422 and out["error"]["field"] == "fixed" and \
            "differ in N" in out["error"]["message"], (app, out)
    # the coupling form leaves N unfixed by default (fixing it would leave one
    # point) and says why at the result
    q = urllib.parse.urlencode({"application": "weak", "system": "s", "step": 3})
    body = page("/model/couple?" + q)
    assert re.search(r'<select[^>]*name="fix.N"[^>]*><option value="" selected>', body), body
    q = urllib.parse.urlencode({"application": "weak", "system": "s", "x": "nprocs",
                                "fix.N": "", "predict": "128", "step": "result"})
    body = page("/model/couple?" + q)
    assert "Fitted to the selected runs' kernel records; N changes with the x axis (one value at each point: " \
        "a weak-scaling series)." in html.unescape(re.sub(r"<[^>]+>", "", body)), body


@test
def a_family_of_benchmarks_is_one_curve_on_the_page():
    """Executables that are each a curve (Google Benchmark families over the
    same argument) were one mixed curve on the page; it now takes the one
    measured at the most values of x and says so, while executables of one
    point each (a study imported file by file) stay one curve."""
    body = page("/applications/families")
    sel = text_of(body, "scaling-selection")
    assert "runs on s (BM_B, of 2 executables the one measured at the most values of N; " \
        "the Executable filter above shows another)" in sel and "at 4 values" in sel, sel
    link = html.unescape(re.search(
        r'href="(/api/v1/applications/families/scaling[^"]*)"', body).group(1))
    assert "executable=BM_B" in link, link
    st, out = S.get(link)
    # BM_B's exact line, none of BM_A's hundredfold times in it
    assert st == 200 and out["selection"]["executable"] == "BM_B", out
    assert close(out["runtime"]["y"], 1e-9 * out["target"], 1e-6), out["runtime"]
    assert "executables" not in out["selection"], out["selection"]
    # the API mixes nothing on its own either: without executable= it takes
    # every executable, as the fit's database form does
    assert scaling("families", x="N")["selection"]["runs"] == 12
    # one point per executable: one curve of all six
    sel = text_of(page("/applications/files"), "scaling-selection")
    assert "at 6 values" in sel and "executables the one" not in sel, sel
    assert sorted(scaling("files")["kernels"], key=lambda k: k["name"])[0]["name"] == \
        "exchange"
    # the fit form's default executable alike: the family that is a curve
    # (not the first by name, BM_A, whose two points would be refused), and
    # all of them for the file-by-file study
    def default_exe(app):
        body = page("/model/fit?" + urllib.parse.urlencode({"application": app}))
        sel = re.search(r'<select[^>]*name="executable"[^>]*>(.*?)</select>', body, re.S)
        return re.search(r'<option value="([^"]*)" selected>', sel.group(1)).group(1)
    assert default_exe("families") == "BM_B" and default_exe("files") == ""


@test
def application_page_picks_one_curve_and_says_which():
    body = page("/applications/mixed")
    sel = text_of(body, "scaling-selection")
    assert "runs on s, N = 1000, modelled over nprocs" in sel and "6 values" in sel, sel
    # too few values of x: the reason, with the picker
    body = page("/applications/few")
    assert "at least 3" in text_of(body, "scaling-error")
    assert 'name="target"' in body and 'name="x"' in body
    # a bad target is shown, never a server error
    body = page("/applications/laws?target=-1")
    assert "target must be" in text_of(body, "scaling-error")
    # the picker's x: an input
    body = page("/applications/sizes?x=N")
    assert "Scaling at N&nbsp;=&nbsp;3200" in body and text_of(body, "bottleneck", "strong") == "mult"
    # unasked, runs at one process count scale over the input that varies
    # (a problem-size series), the picker showing it; nprocs stays the
    # default where it varies, and the reason is said where nothing does
    assert page("/applications/sizes") == body
    assert '<option value="N" selected>' in body, body
    assert "Scaling at nprocs" in page("/applications/laws")
    assert "at least 3" in text_of(page("/applications/few"), "scaling-error")
    # where nothing varies at all, no x of the picker can give a law: the
    # section says so in a line, without the picker (it asked for nprocs and
    # a target that could only answer the same)
    body = page("/applications/one")
    assert text_of(body, "scaling-error") == (
        "Nothing to scale: the runs shown were all measured at 4 processes and no input "
        "of theirs varies; a scaling law needs one variable measured at 3 values or more.")
    section = body[body.index('id="scaling-at"'):]
    section = section[:section.index("</section>")]
    assert 'name="target"' not in section and 'class="notice' not in section, section
    # no kernel and no runtime, only a metric: the headline says what is below
    body = page("/applications/counts")
    assert text_of(body, "scaling-headline") == (
        "Neither a kernel nor the runtime could be modelled (below, why), so there are no "
        "shares; the metrics' laws are below."), text_of(body, "scaling-headline")
    assert "the runtime's own law" not in body and "flops" in body
    # asked for an x, the reason and the picker as before
    body = page("/applications/one?x=N")
    assert "at least 3" in text_of(body, "scaling-error") and 'name="target"' in body


@test
def application_page_picks_the_slice_the_user_asks_for():
    """An application measured at several values of another variable (two
    problem sizes) showed only the slice measured at the most values of x;
    the page now takes ?input.NAME= and ?nprocs= as the API does, and its
    picker offers each variable that varies, the slice shown selected."""
    body = page("/applications/mixed")
    assert re.search(r'<select id="s-fix-\d+" name="input.N"><option value="">the most '
                     r'measured</option><option value="1000" selected>1000</option>'
                     r'<option value="2000">2000</option></select>', body), body
    body = page("/applications/mixed?system=s&input.N=2000")
    sel = text_of(body, "scaling-selection")
    assert "runs on s, N = 2000, modelled over nprocs" in sel and "4 values" in sel, sel
    assert '<option value="2000" selected>' in body
    api = scaling("mixed", system="s", **{"input.N": "2000"})
    assert text_of(body, "bottleneck", "strong") == api["bottleneck"]
    assert "&amp;input.N=2000" in body  # the JSON link names the slice
    # a value the picker kept for the variable now chosen as x is not fixed
    body = page("/applications/mixed?system=s&x=N&input.N=2000&nprocs=2")
    assert "Scaling at N" in body and "is the x variable" not in body, body
    assert "at least 3" in text_of(body, "scaling-error")
    # a bad value or a slice without runs: the reason in the section
    assert "input.N must be input.NAME=NUMBER" in \
        text_of(page("/applications/mixed?input.N=abc"), "scaling-error")
    assert text_of(page("/applications/mixed?system=s&input.N=3000"), "scaling-error")
    page("/applications/mixed?inputN=3", 400)  # still no parameter it does not know


@test
def application_page_says_how_far_a_target_below_the_data_reaches():
    """SPEC §18: every page that shows a prediction shows its extrapolation.
    The page worked the reach out from the largest measured x only, so a
    target below the data (nprocs = 1 from 2..64: the API's extrapolation 1)
    said nothing."""
    api = scaling("laws", target="1")
    assert max(k["extrapolation"] for k in api["kernels"]) == 1, api
    body = page("/applications/laws?target=1")
    assert text_of(body, "scaling-extrapolation") == \
        "The target lies 1 doubling below the smallest measured value.", body
    assert 'id="scaling-extrapolation"' not in page("/applications/laws?target=16")
    assert text_of(page("/applications/laws?target=1024"), "scaling-extrapolation") == \
        "The target lies 4 doublings beyond the largest measured value."


@test
def every_kernel_of_the_repetitions_is_modelled():
    """Extra-P's gpr_test_data_1.txt (the import corpus) measures region
    compute in 6 repetitions per point and scatter in 5: the sixth run of
    each configuration, the latest, has no scatter. The names came from the
    latest run only, so scatter was neither modelled nor skipped, and
    compute was the bottleneck with 100 %; scatter (~x^2.3) is the one that
    dominates at the target."""
    xs, rs = [20, 30, 40, 50], []
    for x in xs:
        for rep in range(6):
            ks = [{"name": "compute", "time": 0.2 * x * x * (1 + 0.01 * rep)}]
            if rep < 5:
                ks.append({"name": "scatter", "time": 0.02 * x ** 2.3 * (1 + 0.01 * rep)})
            rs.append({"application": "uneven", "executable": "e", "system": "s",
                       "nprocs": 1, "inputs": {"x": x}, "kernels": ks,
                       "runtime": sum(k["time"] for k in ks)})
    upload(rs)
    a = scaling("uneven", x="x", target="2000")
    assert sorted(k["name"] for k in a["kernels"]) == ["compute", "scatter"], a
    assert a["bottleneck"] == "scatter" and a["skipped"] == [], a
    sc = next(k for k in a["kernels"] if k["name"] == "scatter")
    assert sc["points"] == 4 and 0.5 < sc["share_target"] < 1, sc
    body = page("/applications/uneven?x=x&target=2000")
    assert text_of(body, "bottleneck", "strong") == "scatter"


@test
def application_page_writes_far_values_with_an_exponent():
    """Far beyond the data the intervals span hundreds of decades: the page
    wrote them as whole seconds, 130 digits wide ("674000000000000009264714
    858...s"); it now formats times as every page does (web/units.h)."""
    body = page("/applications/laws?target=1e300")
    sec = body[body.index('id="scaling-at"'):body.index("</section>", body.index('id="scaling-at"'))]
    text = html.unescape(re.sub(r"<svg.*?</svg>|<[^>]+>", " ", sec, flags=re.S))
    assert not re.search(r"\d{16}", text), re.search(r"\d{16,}", text).group(0)
    api = scaling("laws", target="1e300")
    hi = max(k["hi"] for k in api["kernels"])
    exp = "e+%d" % math.floor(math.log10(hi))  # "6.74e+128 s"
    assert hi > 1e15 and exp in text, (hi, text[:2000])


@test
def application_page_models_many_runs_when_asked():
    # more runs than the page models unasked (SCALING_PAGE_RUNS = 2000)
    upload(runs("big", reps=340))  # 6 x 340 = 2040 runs
    body = page("/applications/big")
    assert "2040 runs" in text_of(body, "scaling-ask")
    assert 'id="scaling-headline"' not in body and 'name="target"' in body
    body = page("/applications/big?target=256")
    assert text_of(body, "bottleneck", "strong") == "exchange"


@test
def hostile_names_are_text():
    bad = '<script>alert(1)</script>'
    upload([{"application": "x<b>", "executable": "e", "system": 's"><img src=x>',
             "nprocs": p, "inputs": {"N<i>": 1}, "runtime": 2.0 / p + 1,
             "kernels": [{"name": bad, "time": 1.0 / p}, {"name": "k&", "time": 1.0}]}
            for p in (1, 2, 4, 8)])
    body = page("/applications/" + urllib.parse.quote("x<b>", safe=""))
    assert "<script>alert" not in body and "<img src=x>" not in body and "<b>" not in body
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body and "k&amp;" in body
    assert text_of(body, "bottleneck", "strong") == "k&"
    assert "input.N%3Ci%3E=1" in body  # the JSON link's query, percent-encoded


@test
def saved_model_page_shows_reach_and_warning_as_the_api():
    st, m = S.post("/api/v1/fit", {"application": "laws", "system": "s", "x": "nprocs",
                                   "fixed": {"N": 1000}, "y": "kernel:exchange",
                                   "graph": "auto", "save": True})
    assert st == 201, m
    for at in (32, 4096):
        st, api = S.get("/api/v1/models/%d/predict?nprocs=%d" % (m["id"], at))
        assert st == 200, api
        body = page("/models/%d?nprocs=%d" % (m["id"], at))
        if api["extrapolation"] > 0:
            reach = text_of(body, "prediction-extrapolation")
            assert reach == "Extrapolated %.3g doublings outside the measured range." \
                % api["extrapolation"], reach
        else:
            assert 'id="prediction-extrapolation"' not in body
        if "warning" in api:
            assert text_of(body, "prediction-warning") == "Warning: " + api["warning"]
            assert 'class="notice" id="prediction"' in body  # not green
        else:
            assert 'id="prediction-warning"' not in body
    assert api["extrapolation"] == 6 and "warning" in api, api  # 4096 = 64 * 2^6
    # a prediction that cannot be made: the API's message and status (the
    # page answered 200 with the error in it)
    for q in ("nprocs=abc", "nprocs=1e999", "nprocs=0x10"):
        st, api = S.get("/api/v1/models/%d/predict?%s" % (m["id"], q))
        pst, body, _ = S.request("GET", "/models/%d?%s" % (m["id"], q), token=None, raw=True)
        body = html.unescape(body.decode())
        assert st == 422 and pst == 422, (q, st, pst)
        assert api["error"]["message"] in body, (q, api)
        assert 'id="prediction"' not in body and "Predict" in body, q
    st, body, _ = S.request("GET", "/models/%d?nprocs=" % m["id"], token=None, raw=True)
    assert st == 200, st  # nothing asked


@test
def coupling_result_page_shows_reach_and_warning_as_the_api():
    st, b = S.post("/api/v1/runs", {"runs": [
        {"application": "cpl", "executable": "e", "system": "s", "nprocs": p,
         "runtime": 3 + 200 / p, "kernels": [{"name": "a", "time": 1 + 100 / p},
                                             {"name": "b", "time": 2 + 100 / p}]}
        for p in (2, 4, 8, 16)]})
    assert st == 201, b
    fields = {"application": "cpl", "system": "s", "predict": "4096", "step": "result"}
    body = page("/model/couple?" + urllib.parse.urlencode(fields))
    st, api = S.post("/api/v1/couple", {"application": "cpl", "system": "s",
                                        "x": "nprocs", "predict": [4096]}, token=False)
    assert st == 200, api
    p = api["predictions"][0]
    assert p["extrapolation"] == 8, p
    assert text_of(body, "prediction-extrapolation") == \
        "Extrapolated 8 doublings outside the measured range."
    assert text_of(body, "prediction-warning") == "Warning: " + p["warning"]
    assert "8 doublings</td><td>" in body  # the predictions table's column


report()
