"""HTTP tests of the modeling forms (SPEC §7, docs/web.md "Modeling forms")
against the real prophecyd with the example data: each step of curve fitting,
parameterization and kernel coupling offers the right choices, a result page
shows the prediction the JSON API gives for the same request (and, for the
fit and the template, the number computed here independently), the JSON link
answers what POST /api/v1/<method> answers, Save needs a token, a CSRF token
and the same origin and stores exactly one model, and bad input is shown next
to its field with nothing stored."""
import html
import json
import math
import re
import urllib.parse
from html.parser import HTMLParser

from prophecy_test import Server, report, test

S = Server("--demo")

MATMUL, BT = "matmul (example)", "NAS BT (example)"
SGI, SP2 = "SGI Origin2000 (example)", "IBM SP2 (example)"


class Form(HTMLParser):
    """Selects (options, selected), inputs and field errors of a page."""

    def __init__(self, text):
        super().__init__()
        self.selects, self.inputs, self.errors, self.ids = {}, {}, {}, {}
        self.invalid, self._sel, self._opt, self._err = {}, None, None, None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids[a["id"]] = a
        if tag == "select":
            self._sel = a["name"]
            self.selects[self._sel] = []
            if a.get("aria-invalid") == "true":
                self.invalid[a["name"]] = a["aria-describedby"]
        elif tag == "option" and self._sel is not None:
            self._opt = [a.get("value"), "", "selected" in a]
            self.selects[self._sel].append(self._opt)
        elif tag == "input":
            self.inputs.setdefault(a.get("name"), a.get("value"))
            if a.get("aria-invalid") == "true":
                self.invalid[a["name"]] = a["aria-describedby"]
        elif tag == "p" and "field-error" in (a.get("class") or ""):
            self._err = a.get("id", "")
            self.errors[self._err] = ""

    def handle_endtag(self, tag):
        if tag == "select":
            self._sel = None
        elif tag == "option":
            self._opt = None
        elif tag == "p":
            self._err = None

    def handle_data(self, data):
        if self._opt is not None:
            self._opt[1] += data
        if self._err is not None:
            self.errors[self._err] += data

    def values(self, name):
        return [o[0] for o in self.selects[name]]

    def selected(self, name):
        return [o[0] for o in self.selects[name] if o[2]]

    def error_at(self, name):
        """The message shown next to field `name` (its aria-describedby)."""
        return self.errors.get(self.invalid.get(name))


def get(path, status=200):
    st, body, resp = S.request("GET", path, token=None, raw=True)
    assert st == status, (path, st, body[:400])
    return body.decode(), resp


def url(path, **fields):
    return path + "?" + urllib.parse.urlencode(fields)


def predicted(body):
    """The headline prediction's exact value: its data-value (the text is in
    readable units, "13.61 ms"), else its text (a parameterized model's)."""
    m = re.search(r'<strong id="predicted" data-value="([^"]+)"', body) or \
        re.search(r'<strong id="predicted">([^<]+)</strong>', body)
    assert m, "no prediction on the page"
    return float(m.group(1))


def value_of(body, ident):
    m = re.search(r'<strong id="%s" data-value="([^"]+)"' % ident, body)
    assert m, "no %s on the page" % ident
    return float(m.group(1))


def plots(body):
    """The page's plots: each drawn for desktops and for phones (page_chart)."""
    wide = body.count('<svg class="wide" ')
    assert body.count("<svg") == 2 * wide == 2 * body.count('<svg class="narrow" ')
    return wide


def request_json(body):
    m = re.search(r'<details class="request" id="request">.*?<pre>(.*?)</pre>', body, re.S)
    return json.loads(html.unescape(m.group(1)))


def close10(shown, exact):
    """The page prints 10 significant digits."""
    return float("%.10g" % exact) == shown


FIT = dict(application=MATMUL, executable="matmul_sgi", system=SGI, graph="poly3",
           x="N", y="runtime")


@test
def model_index_and_navigation():
    body, resp = get("/model")
    assert resp.getheader("Content-Type") == "text/html; charset=utf-8"
    assert "default-src 'none'" in resp.getheader("Content-Security-Policy")
    for href in ("/model/fit", "/model/parameterize", "/model/couple"):
        assert f'href="{href}"' in body
    assert '<a href="/model" aria-current="page">Model</a>' in body
    body, _ = get("/applications/" + urllib.parse.quote(BT))
    assert 'href="/model/couple?application=NAS%20BT%20%28example%29"' in body
    assert "/model/parameterize?" not in body  # BT has no template
    body, _ = get("/applications/" + urllib.parse.quote(MATMUL))
    assert "/model/parameterize?application=matmul%20%28example%29" in body
    assert "/model/couple?" not in body  # matmul records no kernels


@test
def fit_step1_lists_follow_the_application():
    body, _ = get("/model/fit")
    f = Form(body)
    assert f.values("application") == [BT, MATMUL]
    assert 'data-autosubmit' in body and 'id="refresh"' in body
    body, _ = get(url("/model/fit", application=MATMUL))
    f = Form(body)
    assert f.selected("application") == [MATMUL]
    assert f.values("executable") == ["matmul_sgi", "matmul_sp2", ""]
    assert f.selected("executable") == ["matmul_sgi"]
    assert f.values("system") == [SGI]
    body, _ = get(url("/model/fit", application=MATMUL, executable="matmul_sp2"))
    assert Form(body).values("system") == [SP2]
    # all executables: both systems
    body, _ = get(url("/model/fit", application=MATMUL, executable=""))
    assert Form(body).values("system") == [SP2, SGI]
    # a stale executable of the application chosen before: the lists refresh...
    body, _ = get(url("/model/fit", application=MATMUL, executable="bt.A", system=SP2,
                      step=1))
    f = Form(body)
    assert f.selected("executable") == ["matmul_sgi"] and f.selected("system") == [SGI]
    assert not f.invalid
    # ...but "Next" with it shows the error at the field
    body, _ = get(url("/model/fit", application=MATMUL, executable="bt.A", system=SGI,
                      step=1, next=1), 422)
    f = Form(body)
    assert "has no runs of executable bt.A" in f.error_at("executable")
    assert "<h2>Step 1:" in body


@test
def fit_step2_axes_from_the_runs():
    body, _ = get(url("/model/fit", application=MATMUL, executable="matmul_sgi",
                      system=SGI, step=1, next=1))
    f = Form(body)
    assert "<h2>Step 2:" in body
    assert len(f.values("graph")) == 14 and f.selected("graph") == ["auto"]  # SPEC §18
    assert {"poly1", "poly6", "inv1", "inv6", "unknown", "auto"} <= set(f.values("graph"))
    assert f.values("x") == ["nprocs", "L", "N"]
    assert f.values("y") == ["runtime", "speedup", "efficiency"]
    # earlier choices travel as hidden fields
    assert f.inputs["application"] == MATMUL and f.inputs["step"] == "2"
    # kernels of the application's runs are y axes
    body, _ = get(url("/model/fit", application=BT, step=2))
    ys = Form(body).values("y")
    assert ys[:3] == ["runtime", "speedup", "efficiency"]
    assert ys[3:] == ["kernel:" + k for k in ("initialize", "compute_rhs", "x_solve",
                                               "y_solve", "z_solve", "add", "verify")]
    assert Form(body).values("x") == ["nprocs", "class_size"]


@test
def fit_step2_axis_of_one_value_is_refused_at_its_field():
    """The axis selects say at how many values the runs were measured, and an
    axis of one value is refused at step 2 (it used to reach step 3 and fail
    there as "all x values are equal"); nothing moves on to step 3."""
    body, _ = get(url("/model/fit", application=MATMUL, executable="matmul_sgi",
                      system=SGI, step=1, next=1))
    f = Form(body)
    labels = {o[0]: o[1] for o in f.selects["x"]}
    assert labels == {"nprocs": "nprocs (processors, 6 values)",
                      "L": "L (input, 1 value)", "N": "N (input, 10 values)"}, labels
    assert {o[0]: o[1] for o in f.selects["x2"]}["L"] == "L (input, 1 value)"
    for field, fields in (("x", {"x": "L"}), ("x2", {"x": "N", "x2": "L"})):
        body, _ = get(url("/model/fit", application=MATMUL, executable="matmul_sgi",
                          system=SGI, graph="auto", y="runtime", step=2, next=1,
                          **fields), 422)
        f = Form(body)
        assert "<h2>Step 2:" in body and "<h2>Step 3:" not in body
        assert f.error_at(field) == ("these runs were measured at one value of L only; "
                                     "an axis needs two or more: choose a variable "
                                     "they vary"), (field, f.errors)


@test
def fit_step3_fixed_values_prefilled_from_the_runs():
    body, _ = get(url("/model/fit", **FIT, step=2, next=1))
    f = Form(body)
    assert "<h2>Step 3:" in body
    assert f.values("fix.nprocs") == ["", "2", "4", "8", "16", "32", "64"]
    assert f.selected("fix.nprocs") == ["8"]  # the value with the most runs (32)
    assert f.values("fix.L") == ["", "1024"] and f.selected("fix.L") == ["1024"]
    assert "fix.N" not in f.selects  # x is not fixed
    assert 'placeholder="100"' in body and 'placeholder="1000"' in body
    assert f.selected("aggregate") == ["mean"]
    # the summary of steps 1 and 2 with links back
    assert "matmul_sgi on SGI Origin2000 (example)" in body
    assert "runtime over N, graph cubic" in body



@test
def fit_plot_of_values_over_decades_is_log_log():
    """A strong-scaling time from 100 s to 0.1 s lay flat on the zero line of a
    linear y axis, its prediction with it: values spanning more than a factor
    100, all positive, are drawn on a log y axis (and x over a factor 16 on a
    log x axis, as before); within a factor 100 the y axis stays linear."""
    F = Server()
    try:
        def fget(path):
            st, body, _ = F.request("GET", path, token=None, raw=True)
            assert st == 200, (path, st, body[:400])
            return body.decode()
        st, b = F.post("/api/v1/runs", {"runs": [
            {"application": app, "executable": "e", "system": "box", "nprocs": p,
             "runtime": 100.0 / p if app == "decades" else 10.0 + 1.0 / p}
            for app in ("decades", "flat") for p in (1, 4, 16, 64, 256, 1024)]})
        assert st == 201, b
        for app, want in (("decades", "x axis log10, y axis log10"),
                          ("flat", "x axis log10, y axis linear")):
            body = fget(url("/model/fit", application=app, executable="e", system="box",
                            graph="auto", x="nprocs", y="runtime", step="result",
                            predict="4096"))
            assert want in body, (app, re.findall(r"x axis [a-z0-9]+, y axis [a-z0-9]+",
                                                  body))
    finally:
        F.close()


@test
def fit_form_defaults_follow_the_runs():
    # Google Benchmark families of one argument and of two in one executable:
    # runtime = 0.001 arg1 at arg1 = 64..4096, and two runs with arg2 as well
    F = Server()
    try:
        def fget(path, status=200):
            st, body, _ = F.request("GET", path, token=None, raw=True)
            assert st == status, (path, st, body[:400])
            return body.decode()
        rs = [{"application": "fam", "executable": "e", "system": "box", "nprocs": 1,
               "inputs": {"arg1": a}, "runtime": 0.001 * a} for a in (64, 256, 1024, 4096)]
        rs += [{"application": "fam", "executable": "e", "system": "box", "nprocs": 1,
                "inputs": {"arg1": 8, "arg2": 16}, "runtime": 5.0}] * 2
        st, b = F.post("/api/v1/runs", {"runs": rs})
        assert st == 201, b
        base = {"application": "fam", "executable": "e", "system": "box", "graph": "poly1",
                "x": "arg1", "x2": "", "y": "runtime"}
        f = Form(fget(url("/model/fit", **base, step=3)))
        # more runs lack arg2 than have any one value of it: "none" is the default
        assert f.values("fix.arg2") == ["", "16", "none"], f.selects["fix.arg2"]
        assert f.selects["fix.arg2"][2][1] == "none: the runs without arg2 (4 runs)"
        assert f.selected("fix.arg2") == ["none"]
        body = fget(url("/model/fit", **base, step="result", **{"fix.arg2": "none"}))
        assert "arg1: every measured value, nprocs = 1, without arg2" in html.unescape(body)
        req = request_json(body)
        assert req["fixed"] == {"nprocs": 1, "arg2": None}, req
        st, out = F.post("/api/v1/fit", req)
        assert st == 200 and len(out["points"]) == 4, out
        c = out["model"]["coefficients"]
        assert abs(c[0]) < 1e-12 and abs(c[1] - 0.001) < 1e-12, c
        # a value of arg2 is the other family: one value of x, refused
        fget(url("/model/fit", **base, step="result", **{"fix.arg2": "16"}), 422)
        # a size that grows with x (weak scaling, N = 100 p): not fixed by
        # default, the result says so
        rs = [{"application": "weak", "executable": "e", "system": "box", "nprocs": p,
               "inputs": {"N": 100 * p}, "runtime": 2 + 0.5 * p} for p in (1, 2, 4, 8)]
        st, b = F.post("/api/v1/runs", {"runs": rs})
        assert st == 201, b
        base = {"application": "weak", "executable": "e", "system": "box",
                "graph": "poly1", "x": "nprocs", "x2": "", "y": "runtime"}
        f = Form(fget(url("/model/fit", **base, step=3)))
        assert f.selected("fix.N") == [""], f.selects["fix.N"]
        body = fget(url("/model/fit", **base, step="result", **{"fix.N": ""}))
        assert ("Fitted to 4 runs; N changes with the x axis (one value at each point: a "
                "weak-scaling series).") in body, body
        c = json.loads(fget(url("/model/fit", **base, step="result", **{"fix.N": ""},
                               format="json")))["model"]["coefficients"]
        assert abs(c[0] - 2) < 1e-12 and abs(c[1] - 0.5) < 1e-12, c
        # runs without a runtime (an Extra-P file of a metric): y defaults to
        # the metric, and runtime says it has no values
        rs = [{"application": "counts", "executable": "e", "system": "box", "nprocs": p,
               "metrics": {"flops": 1e6 * p}} for p in (1, 2, 4, 8)]
        st, b = F.post("/api/v1/runs", {"runs": rs})
        assert st == 201, b
        f = Form(fget(url("/model/fit", application="counts", step=2)))
        assert f.selected("y") == ["metric:flops"], f.selects["y"]
        assert f.selects["y"][0][:2] == ["runtime", "runtime (s; no run has one)"]
        c = json.loads(fget(url("/model/fit", application="counts", graph="poly1",
                                step="result", format="json")))["model"]["coefficients"]
        assert abs(c[0]) < 1e-6 and abs(c[1] - 1e6) < 1e-6, c
        f = Form(fget(url("/model/fit", application="weak", step=2)))
        assert f.selected("y") == ["runtime"] and f.selects["y"][0][1] == "runtime (s)"
    finally:
        F.close()

def least_squares_cubic(points):
    """Weighted least squares y = a0 + a1 x + a2 x^2 + a3 x^3 (weights = counts),
    on columns scaled by their largest value, by Gaussian elimination."""
    scale = [max(abs(x) ** k for x, _, _ in points) for k in range(4)]
    a = [[0.0] * 5 for _ in range(4)]
    for x, y, w in points:
        row = [x ** k / scale[k] for k in range(4)]
        for i in range(4):
            for j in range(4):
                a[i][j] += w * row[i] * row[j]
            a[i][4] += w * row[i] * y
    for i in range(4):
        p = max(range(i, 4), key=lambda r: abs(a[r][i]))
        a[i], a[p] = a[p], a[i]
        for r in range(4):
            if r != i:
                f = a[r][i] / a[i][i]
                a[r] = [u - f * v for u, v in zip(a[r], a[i])]
    return [a[i][4] / a[i][i] / scale[i] for i in range(4)]


@test
def fit_result_matches_the_api_and_an_independent_fit():
    fields = dict(FIT, **{"fix.nprocs": "8", "fix.L": "1024"}, predict="1200",
                  step=3, next=1)
    body, _ = get(url("/model/fit", **fields))
    assert "<title>Curve fitting: result" in body
    req = request_json(body)
    assert req == {"application": MATMUL, "executable": "matmul_sgi", "system": SGI,
                   "x": "N", "y": "runtime", "graph": "poly3",
                   "fixed": {"nprocs": 8, "L": 1024}, "predict": [1200],
                   "aggregate": "mean"}, req
    st, api = S.post("/api/v1/fit", {"application": MATMUL, "executable": "matmul_sgi",
                                     "system": SGI, "x": "N", "fixed": {"nprocs": 8},
                                     "graph": "cubic", "predict": [1200]}, token=None)
    assert st == 200, api
    y = api["predictions"][0]["y"]
    assert close10(predicted(body), y), (predicted(body), y)
    # a runtime is seconds, shown in readable units: the value and its interval
    # say which ("26.89 s", "540.2 ms"), the exact value is in data-value
    assert re.search(r'<strong id="predicted" data-value="[^"]+" title="[^"]+ s">'
                     r'[0-9.]+ (s|ms|µs|ns)</strong> <span class="interval">'
                     r'\(95 % prediction interval [0-9.]+ (s|ms|µs|ns) to '
                     r'[0-9.]+ (s|ms|µs|ns)\)</span>', body), body
    assert api["model"]["formula"] in html.unescape(body)
    assert plots(body) == 1 and "</svg>" in body
    # independently: the runs of matmul_sgi on SGI at nprocs 8, mean per N
    st, runs = S.get("/api/v1/runs?limit=1000&application=" + urllib.parse.quote(MATMUL))
    by_n = {}
    for r in runs["runs"]:
        if r["executable"] == "matmul_sgi" and r["nprocs"] == 8:
            by_n.setdefault(r["inputs"]["N"], []).append(r["runtime"])
    assert len(by_n) == 10 and sum(map(len, by_n.values())) == 32
    pts = [(n, sum(v) / len(v), len(v)) for n, v in by_n.items()]
    a = least_squares_cubic(pts)
    mine = sum(a[k] * 1200.0 ** k for k in range(4))
    assert math.isclose(mine, y, rel_tol=1e-7), (mine, y)
    # the permanent link is the same page, the JSON link the API's answer
    perm = html.unescape(re.search(r'id="permalink" href="([^"]+)"', body).group(1))
    again, _ = get(perm)
    assert predicted(again) == predicted(body)
    jl = html.unescape(re.search(r'id="json-link" href="([^"]+)"', body).group(1))
    st, ans = S.get(jl)
    assert st == 200 and ans["predictions"] == api["predictions"]
    assert ans["model"]["coefficients"] == api["model"]["coefficients"]
    assert ans["plot"].startswith("/plots/fit.svg?request=")


@test
def fit_bad_input_is_shown_next_to_its_field():
    before = S.content()
    cases = [
        (dict(predict="abc"), "predict", "predict takes numbers", 3),
        # decimal as the API reads numbers: strtod took 0x10 for 16
        (dict(predict="1200, 0x10"), "predict", "predict takes numbers", 3),
        (dict(xmin="0x10", xmax="1000"), "xmin", "must be a number", 3),
        (dict(y="speedup", predict="1200"), "y", "speedup needs x", 2),
        (dict(xmin="1000", xmax="100"), "xmin", "min <= max", 3),
        (dict(xmin="100"), "xmax", "give both ends", 3),
        ({"fix.nprocs": ""}, "fix.nprocs", "differ in nprocs", 3),
        ({"fix.nprocs": "eight"}, "fix.nprocs", "must be a number", 3),
        (dict(graph="poly9"), "graph", "graph type", 2),
    ]
    for over, field, text, step in cases:
        fields = dict(FIT, **{"fix.nprocs": "8"}, step="result")
        fields.update(over)
        body, _ = get(url("/model/fit", **fields), 422)
        f = Form(body)
        msg = f.error_at(field)
        assert msg and text in msg, (over, f.errors, f.invalid)
        assert f'<h2>Step {step}:' in body, over
        assert 'id="form-error"' in body
        # the values typed are kept
        if field in f.inputs and field in fields:
            assert f.inputs[field] == fields[field]
    # spaces around a number are not part of it (a value pasted with one)
    body, _ = get(url("/model/fit", **dict(FIT, **{"fix.nprocs": "8 "}, xmin=" 100",
                                            xmax="1000\t", predict="1200 ",
                                            step="result")))
    assert 'id="form-error"' not in body
    # an unknown application is a 404 shown at its field, with the list to choose from
    body, _ = get(url("/model/fit", application="no such app"), 404)
    f = Form(body)
    assert "no application named no such app" in f.error_at("application")
    assert f.values("application") == [BT, MATMUL]
    # an error naming no field is shown above the form
    body, _ = get(url("/model/fit", **FIT, **{"fix.nprocs": "7"}, step="result"), 422)
    assert "Not computed: no runs of matmul (example) / matmul_sgi" in body
    assert S.content() == before


@test
def json_link_of_a_bad_request_is_a_json_error():
    st, body = S.get(url("/model/fit", **FIT, predict="x", format="json"))
    assert st == 422 and body["error"]["field"] == "predict", body
    st, body = S.get(url("/model/fit", application="nothing", format="json"))
    assert st == 404 and body["error"]["field"] == "application", body


PARAM = dict(application=MATMUL, template="matmul master/slave", system=SP2)


@test
def param_steps_offer_templates_systems_and_variables():
    body, _ = get("/model/parameterize")
    f = Form(body)
    assert f.values("application") == [MATMUL]
    assert f.values("template") == ["matmul master/slave"]
    assert f.values("system") == [SP2, SGI] and f.selected("system") == [SP2]
    assert "ADDM*N^3/(P-1)+2*N*MPISR(L)/(P-1)+N*MPIBC(L)" in body
    body, _ = get(url("/model/parameterize", **PARAM, step=1, next=1))
    f = Form(body)
    assert "<h2>Step 2:" in body
    # the variables of the template with the SP2's parameters, in order
    assert [n[5:] for n in f.selects if n.startswith("mode.")] == ["N", "P", "L"]
    assert f.inputs["v.N"] == "1000" and f.inputs["v.L"] == "1024"
    assert f.inputs["min.P"] == "2" and f.inputs["max.P"] == "64"
    assert f.selected("mode.P") == ["fixed"]
    # an application without templates is refused at its field
    body, _ = get(url("/model/parameterize", application=BT), 422)
    assert "has no model templates" in Form(body).error_at("application")


def param_fields(**vals):
    out = dict(PARAM)
    for v, x in vals.items():
        if isinstance(x, tuple):
            out.update({f"mode.{v}": "range", f"min.{v}": str(x[0]), f"max.{v}": str(x[1])})
            if len(x) == 3:
                out[f"steps.{v}"] = str(x[2])
        else:
            out.update({f"mode.{v}": "fixed", f"v.{v}": str(x)})
    return out


@test
def param_result_value_alpha_overlay_and_plot():
    body, _ = get(url("/model/parameterize", **param_fields(N=1000, P=8, L=1024),
                      **{"min.P": "2", "max.P": "64"}, step=2, next=1))
    # the paper's worked check, computed here
    n, p, l = 1000.0, 8.0, 1024.0
    want = (4.83e-8 * n ** 3 / (p - 1) + 2 * n * 0.001 * (15.94 + 0.0608 * l) / (p - 1)
            + n * math.log2(p) * 0.001 * (15.94 + 0.0608 * l))
    assert close10(predicted(body), want), (predicted(body), want)
    assert predicted(body) == 263.8402286
    assert "4.83e-08*N^3/(P-1)" in body  # parsed
    assert re.search(r'id="alpha">.*polynomial in N \(degree 3\)', body)
    assert re.search(r'id="overlay">Mean \|error\| 1\.20686 %', body)
    # the runs measured at the point: times in seconds, the error in percent
    measured = re.search(r"<h3>measured</h3>.*?<tbody>(.*?)</tbody>", body, re.S).group(1)
    cells = re.findall(r'<td class="num">([^<]*)</td>', measured)
    assert cells == ["267.1 s", "266.8 s", "267.4 s", "2", "263.8 s", "-1.207 %"], cells
    assert plots(body) == 1 and "through the point" in body
    assert request_json(body) == {"template": "matmul master/slave", "system": SP2,
                                  "vars": {"N": 1000, "P": 8, "L": 1024}}
    st, api = S.post("/api/v1/parameterize", request_json(body), token=None)
    assert st == 200 and close10(predicted(body), api["value"])
    # a range gives a curve, two a surface
    body, _ = get(url("/model/parameterize", **param_fields(N=1000, P=(2, 64, 32), L=1024),
                      step="result"))
    assert 'id="predicted"' not in body and plots(body) == 1
    assert "Prophecy 2-D plot" in body
    body, _ = get(url("/model/parameterize",
                      **param_fields(N=(100, 1000, 10), P=(2, 64, 10), L=1024),
                      step="result"))
    assert plots(body) == 1 and "Prophecy 3-D surface: 10x10 grid" in body


@test
def param_bad_input_next_to_the_field():
    before = S.content()
    for vals, field, text in [
        (dict(N=1000, P="", L=1024), "v.P", "give a value for P"),
        (dict(N=1000, P=(64, 2), L=1024), "min.P", "needs min < max"),
        (dict(N=1000, P=(2, 64, 500), L=1024), "steps.P", "steps must be"),
        (dict(N=1000, P="x", L=1024), "v.P", "must be a number"),
    ]:
        body, _ = get(url("/model/parameterize", **param_fields(**vals), step="result"),
                      422)
        msg = Form(body).error_at(field)
        assert msg and text in msg, (vals, Form(body).errors)
    # P = 1 divides by zero: said above the variables
    body, _ = get(url("/model/parameterize", **param_fields(N=1000, P=1, L=1024),
                      step="result"), 422)
    assert "<h2>Step 2:" in body and "evaluates to a non-finite value" in body
    assert S.content() == before


COUPLE = dict(application=BT, system=SP2)
LOOP = ["compute_rhs", "x_solve", "y_solve", "z_solve", "add"]
KERNELS = ["initialize"] + LOOP + ["verify"]


@test
def couple_steps_offer_kernels_loop_and_axes():
    body, _ = get("/model/couple")
    f = Form(body)
    assert f.values("application") == [BT]  # the only one whose runs record kernels
    assert f.values("system") == [SP2]
    assert "executable" not in f.selects  # one executable
    body, _ = get(url("/model/couple", **COUPLE, step=1, next=1))
    f = Form(body)
    assert [n[6:] for n in f.selects if n.startswith("graph.")] == KERNELS
    assert all(f.selected("graph." + k) == ["auto"] for k in KERNELS)
    # the loop from the stored couplings' chains
    for i, k in enumerate(LOOP):
        assert f.selected("pos." + k) == [str(i + 1)], k
    assert f.selected("pos.initialize") == [""] and f.selected("pos.verify") == [""]
    assert "10 stored measurements" in body
    body, _ = get(url("/model/couple", **COUPLE, step=2, next=1))
    f = Form(body)
    assert f.values("x") == ["nprocs", "class_size"]
    assert [o[1] for o in f.selects["x"]] == ["nprocs (processors, 7 values)",
                                              "class_size (input, 1 value)"]
    assert 'name="x" data-autosubmit' in body and 'id="refresh"' in body
    assert f.selected("fix.class_size") == ["64"]
    # with x = class_size, nprocs becomes a fixed value
    body, _ = get(url("/model/couple", **COUPLE, x="class_size", step=3))
    f = Form(body)
    assert "fix.nprocs" in f.selects and "fix.class_size" not in f.selects


@test
def couple_result_matches_the_api():
    body, _ = get(url("/model/couple", **COUPLE, predict="64", step="result"))
    st, api = S.post("/api/v1/couple", {"application": BT, "system": SP2, "x": "nprocs",
                                        "predict": [64]}, token=None)
    assert st == 200, api
    p = api["predictions"][0]
    assert close10(predicted(body), p["y"]), (predicted(body), p["y"])
    text = html.unescape(re.sub(r"<[^>]+>", "", body))
    # every figure in readable units, its exact value in data-value
    assert close10(value_of(body, "summed"), p["summation"]["y"])
    assert close10(value_of(body, "actual"), p["actual"])
    assert re.search(r"The plain sum of the kernel models: [0-9.]+ (s|ms|µs) \(95 % interval "
                     r"[0-9.]+ (s|ms|µs) to [0-9.]+ (s|ms|µs)\)", text), text
    assert re.search(r"Measured: [0-9.]+ (s|ms|µs) \(2 runs\)", text), text
    assert re.search(r'</strong> <span class="interval">\(95 % interval [0-9.]+ (s|ms|µs) to '
                     r'[0-9.]+ (s|ms|µs)\)</span>', body), body
    assert plots(body) == 2 and "per-kernel breakdown" in body
    assert api["formula"] in text and api["composition"] in text
    req = request_json(body)
    assert req["loop"] == LOOP and "kernels" not in req
    # a kernel's model type reaches the request and the answer
    body, _ = get(url("/model/couple", **COUPLE, **{"graph.x_solve": "inv1"},
                      predict="64", step="result"))
    req = request_json(body)
    assert req["kernels"] == {"x_solve": {"graph": "inv1"}}
    st, api2 = S.post("/api/v1/couple", req, token=None)
    assert close10(predicted(body), api2["predictions"][0]["y"])


@test
def couple_bad_arrangement_next_to_the_kernel():
    before = S.content()
    pos = {f"pos.{k}": str(i + 1) for i, k in enumerate(LOOP)}
    body, _ = get(url("/model/couple", **COUPLE, **dict(pos, **{"pos.add": "4"}),
                      predict="64", step="result"), 422)
    assert "also given to z_solve" in Form(body).error_at("pos.add")
    body, _ = get(url("/model/couple", **COUPLE, **dict(pos, **{"pos.add": ""}),
                      predict="64", step="result"), 422)
    msg = Form(body).error_at("pos.add")
    assert msg and "add is outside the loop" in msg, Form(body).errors
    body, _ = get(url("/model/couple", **COUPLE, predict="0", step="result"), 422)
    assert "must be > 0" in Form(body).error_at("predict")
    assert S.content() == before


def save_post(path, fields, headers=None):
    st, payload, resp = S.request("POST", path, urllib.parse.urlencode(fields),
                                  token=None, ctype="application/x-www-form-urlencoded",
                                  headers=headers, raw=True)
    return st, payload.decode(), resp


def save_form(body):
    f = Form(body)
    return {"csrf": f.inputs["csrf"], "q": f.inputs["q"]}


def models_count():
    return len(S.get("/api/v1/models")[1]["models"])


@test
def save_needs_token_csrf_and_same_origin_and_stores_one_model():
    for path, fields in [
        ("/model/fit", dict(FIT, **{"fix.nprocs": "8"}, predict="1200")),
        ("/model/parameterize", param_fields(N=1000, P=8, L=1024)),
        ("/model/couple", dict(COUPLE, predict="64")),
    ]:
        body, _ = get(url(path, **fields, step="result"))
        form = save_form(body)
        before = S.content()
        n = models_count()
        for over, headers, status in [
            ({}, None, 401),  # no token
            ({"token": "pt_wrong"}, None, 401),
            ({"token": S.token, "csrf": ""}, None, 403),
            ({"token": S.token, "csrf": "1.abcd"}, None, 403),
            ({"token": S.token}, {"Origin": "http://evil.example"}, 403),
            ({"token": S.token}, {"Sec-Fetch-Site": "cross-site"}, 403),
        ]:
            st, page, _ = save_post(path, dict(form, **over), headers)
            assert st == status, (path, over, st, page[:300])
            assert S.content() == before, (path, over)
        # a token error is shown at the token field, the result stays
        st, page, _ = save_post(path, form)
        assert st == 401 and "save-token-error" in page, (path, st, page[:300])
        assert 'id="predicted"' in page, (path, page[:300])
        st, page, resp = save_post(path, dict(form, token=S.token),
                                   {"Origin": f"http://127.0.0.1:{S.port}",
                                    "Sec-Fetch-Site": "same-origin"})
        assert st == 303, (st, page[:300])
        loc = resp.getheader("Location")
        assert re.fullmatch(r"/models/\d+", loc), loc
        assert models_count() == n + 1
        mid = int(loc.rsplit("/", 1)[1])
        st, model = S.get(f"/api/v1/models/{mid}")
        assert model["request"] == request_json(body), (model["request"], request_json(body))
        assert model["method"] == {"/model/fit": "fit", "/model/parameterize": "parameterize",
                                   "/model/couple": "couple"}[path]
        page, _ = get(loc)
        assert f"Model {mid}" in page
        if path == "/model/parameterize":
            # one value has no plot: the page says so instead of a broken image
            assert f'/plots/model-{mid}.svg' not in page and "No plot:" in page
        else:
            # drawn inline for desktops and phones, and its SVG file linked
            assert f'href="/plots/model-{mid}.svg"' in page
            assert '<svg class="wide" ' in page and '<svg class="narrow" ' in page
            get(f"/plots/model-{mid}.svg")


@test
def save_with_bad_input_stores_nothing():
    body, _ = get(url("/model/fit", **FIT, **{"fix.nprocs": "8"}, predict="1200",
                      step="result"))
    form = save_form(body)
    before = S.content()
    bad = form["q"].replace("predict=1200", "predict=abc")
    st, page, _ = save_post("/model/fit", dict(form, q=bad, token=S.token))
    assert st == 422 and "predict takes numbers" in Form(page).error_at("predict")
    st, page, _ = save_post("/model/fit", {"csrf": form["csrf"], "token": S.token})
    assert st == 400
    # a name of more than 256 bytes is refused, shown with the result, the
    # typed name kept in its field
    st, page, _ = save_post("/model/fit", dict(form, token=S.token, name="n" * 257))
    assert st == 422 and "Not saved: name must be a string of 1 to 256 bytes" in page, \
        (st, page[-3000:])
    assert 'id="predicted"' in page and 'value="' + "n" * 257 + '"' in page
    assert S.content() == before


@test
def save_with_a_name_lists_the_model_by_it():
    """The Save form's optional name is the API's "name" beside "save": the
    saved model's page and the list show it; an empty one is no name."""
    body, _ = get(url("/model/fit", **FIT, **{"fix.nprocs": "8"}, predict="1200",
                      step="result"))
    assert 'id="save-name" name="name" maxlength="256"' in body
    form = save_form(body)
    origin = {"Origin": f"http://127.0.0.1:{S.port}", "Sec-Fetch-Site": "same-origin"}
    for name, want in (("matmul on 8 procs <over N>", "matmul on 8 procs <over N>"),
                       ("", None)):
        st, page, resp = save_post("/model/fit", dict(form, token=S.token, name=name),
                                   origin)
        assert st == 303, (st, page[:300])
        mid = int(resp.getheader("Location").rsplit("/", 1)[1])
        st, model = S.get(f"/api/v1/models/{mid}")
        assert model.get("name") == want, model.get("name")
        page, _ = get(f"/models/{mid}")
        if want:
            assert "<h1>matmul on 8 procs &lt;over N&gt; <span" in page
        else:
            assert f"<h1>Model {mid} <span" in page


@test
def hostile_names_are_escaped_in_the_forms():
    name = "<script>alert(1)</script>"
    runs = [{"application": name, "executable": '"><img src=x>', "system": "sys&<b>",
             "nprocs": p, "runtime": 10.0 / p, "inputs": {"N<i>": 5},
             "kernels": [{"name": "k<svg onload=x>", "time": 5.0 / p},
                         {"name": "K" * 250, "time": 1.0 + 1.0 / p}]} for p in (1, 2, 4)]
    st, _ = S.post("/api/v1/runs", {"runs": runs})
    assert st in (200, 201)
    for path in (url("/model/fit", application=name, step=2),
                 url("/model/fit", application=name, step=3),
                 url("/model/couple", application=name, step=2)):
        body, _ = get(path)
        assert "<script>alert" not in body and "<img src=x>" not in body
        assert "<svg onload" not in body and "<b>" not in body
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    body, _ = get(url("/model/fit", application=name, predict="8", step="result"))
    assert "<script>alert" not in body and 'id="predicted"' in body
    # a kernel name of 250 bytes travels through every step and Save
    body, _ = get(url("/model/couple", application=name, step=2, next=1))
    f = Form(body)
    assert f.inputs["graph." + "K" * 250] == "auto" and "<h2>Step 3:" in body
    body, _ = get(url("/model/couple", application=name, **{"graph." + "K" * 250: "inv1"},
                      predict="8", step="result"))
    assert 'id="predicted"' in body and "<svg onload" not in body
    n = models_count()
    st, page, _ = save_post("/model/couple", dict(save_form(body), token=S.token))
    assert st == 303 and models_count() == n + 1, (st, page[:300])


@test
def form_pages_are_clean_html():
    for path in ["/model", "/model/fit", url("/model/fit", **FIT, step=2),
                 url("/model/fit", **FIT, step=3),
                 url("/model/parameterize", step=2), url("/model/couple", step=2),
                 url("/model/couple", predict="64", step="result")]:
        body, resp = get(path)
        assert body.startswith("<!DOCTYPE html>") and body.rstrip().endswith("</html>")
        assert "<style" not in body and not re.search(r"<script(?![^>]*\bsrc=)", body)
        assert " style=" not in body and "onclick" not in body
        assert "unsafe-inline" not in resp.getheader("Content-Security-Policy")
        # no Markdown left in what a page says (step 2 hinted "the `auto` normal form")
        prose = re.sub(r"<(code|pre|script|textarea)\b.*?</\1>|<[^>]+>", " ", body, flags=re.S)
        assert "`" not in html.unescape(prose), (path, prose[prose.index("`") - 80:][:160])
    st, _, _ = S.request("DELETE", "/model/fit", token=None, raw=True)
    assert st == 405
    get(url("/model/fit", step="9"))  # an unknown step starts over
    get("/model/fit?" + "&".join(f"a{i}=1" for i in range(600)), 400)
    get("/model/fit?" + "n" * 321 + "=1", 400)


# last: it adds an application, which the lists above do not expect
@test
def fit_on_a_machine_curve():
    # runs of a halo exchange over the message size L on the SP2, whose
    # demo benchmarks (MPIBC, MPISR over L) are the machine curves offered
    runs = [{"application": "halo (form)", "executable": "h", "system": SP2,
             "nprocs": 2, "inputs": {"L": L}, "runtime": 0.05 + 2e-4 * L ** 0.95 * f}
            for L in (64, 256, 1024, 4096, 16384) for f in (0.98, 1.0, 1.02)]
    st, b = S.post("/api/v1/runs", {"runs": runs})
    assert st == 201, b
    base = {"application": "halo (form)", "executable": "h", "system": SP2}
    body, _ = get(url("/model/fit", **base, step=1, next=1))
    f = Form(body)
    assert f.values("basis") == ["", "MPIBC", "MPISR"] and f.selected("basis") == [""]
    # the demo's ADDM is a constant, not a curve; labels are the names
    assert [o[1] for o in f.selects["basis"]] == ["none", "MPIBC", "MPISR"]
    fields = dict(base, x="L", y="runtime", graph="poly3", basis="MPISR",
                  **{"fix.nprocs": "2"}, predict="65536", step=3, next=1)
    body, _ = get(url("/model/fit", **fields))
    assert "<title>Curve fitting: result" in body
    req = request_json(body)
    # a cubic cannot follow a curve: the graph became auto
    assert req["basis"] == {"benchmark": "MPISR", "scale": 1, "power": 1}, req
    assert req["graph"] == "auto", req
    assert "on the machine curve MPISR" in body
    st, api = S.post("/api/v1/fit", req, token=None)
    assert st == 200 and api["model"]["chosen"] == "basis", api
    assert close10(predicted(body), api["predictions"][0]["y"])
    assert "MPISR(L)" in html.unescape(body)
    # read at 2*L^1.5: the request carries it, the page says it, and the
    # answer is the API's for that request
    body, _ = get(url("/model/fit", **dict(fields, basis_scale="2", basis_power="1.5")))
    req = request_json(body)
    assert req["basis"] == {"benchmark": "MPISR", "scale": 2, "power": 1.5}, req
    assert "on the machine curve MPISR read at 2\u00b7x^1.5" in html.unescape(body)
    st, api = S.post("/api/v1/fit", req, token=None)
    assert st == 200 and "MPISR(2*L^1.5)" in api["model"]["formula"], api
    assert close10(predicted(body), api["predictions"][0]["y"])
    # out of range or not a number: the error is at its field, step 2
    body, _ = get(url("/model/fit", **dict(fields, basis_power="5")), 422)
    assert "power must be a number > 0 and <= 4" in Form(body).error_at("basis_power")
    body, _ = get(url("/model/fit", **dict(fields, basis_scale="wide")), 422)
    assert "the scale must be a number" in Form(body).error_at("basis_scale")
    # a benchmark the system does not have, at its field
    body, _ = get(url("/model/fit", **dict(fields, basis="NOPE", step=2)), 422)
    assert "has no benchmark NOPE" in Form(body).error_at("basis")
    # with a second axis no curve is offered
    body, _ = get(url("/model/fit", **base, x="L", x2="nprocs", step=2))
    assert "basis" not in Form(body).selects



@test
def signed_in_save_needs_no_token():
    """SPEC §17: after POST /login the result page's Save form has no token
    field and the session's token stores the model (CSRF still checked)."""
    st, page, _ = S.request("GET", "/login", token=None, raw=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.decode()).group(1)
    origin = {"Origin": f"http://127.0.0.1:{S.port}"}
    st, _, resp = save_post("/login", {"csrf": csrf, "token": S.token}, origin)
    assert st == 303, st
    cookie = resp.getheader("Set-Cookie").split(";", 1)[0]
    path = "/model/fit"
    st, body, _ = S.request("GET", url(path, **FIT, **{"fix.nprocs": "8"}, predict="1200",
                                       step="result"), token=None, raw=True,
                            headers={"Cookie": cookie})
    body = body.decode()
    assert 'id="save-as"' in body and 'name="token"' not in body, body[-3000:]
    form = save_form(body)
    n = models_count()
    st, page, _ = save_post(path, dict(form, csrf="1.abcd"), dict(origin, Cookie=cookie))
    assert st == 403 and models_count() == n
    st, page, resp = save_post(path, form, dict(origin, Cookie=cookie))
    assert st == 303 and models_count() == n + 1, (st, page[:300])


@test
def the_forms_offer_first_the_variable_that_varies():
    """A problem-size series of one process count (profiles imported with
    their problem size): the fit and coupling forms offer N as x, where
    nprocs would give one point; the demo's matmul, measured at many process
    counts, keeps nprocs."""
    runs = [{"application": "series", "executable": "e", "system": "s", "nprocs": 4,
             "runtime": 1e-9 * n ** 3, "inputs": {"N": n, "mode": 1},
             "kernels": [{"name": "a", "time": 5e-10 * n ** 3},
                         {"name": "b", "time": 5e-10 * n ** 3}]}
            for n in (1000, 2000, 4000)]
    st, _ = S.post("/api/v1/runs", {"runs": runs})
    assert st == 201, st
    body, _ = get(url("/model/fit", application="series", step=2))
    assert Form(body).values("x") == ["nprocs", "N", "mode"]
    assert Form(body).selected("x") == ["N"], Form(body).selected("x")
    body, _ = get(url("/model/couple", application="series", step=2, next=1))
    assert Form(body).selected("x") == ["N"], Form(body).selected("x")
    body, _ = get(url("/model/fit", application=MATMUL, executable="matmul_sgi",
                      system=SGI, step=2))
    assert Form(body).selected("x") == ["nprocs"]


@test
def an_empty_database_says_what_each_form_needs_without_an_error():
    # nothing to choose from is not the user's doing: a note in place of the
    # form, 200; the JSON of the same step still refuses (422, the field)
    E = Server()
    try:
        pages = {"/model/fit": "There are no applications yet: upload runs first.",
                 "/model/parameterize": "No application has a model template yet "
                                        "(POST /api/v1/templates adds one).",
                 "/model/couple": "No application&#39;s runs record kernel times yet: "
                                  "kernel coupling models an application by its kernels."}
        for path, note in pages.items():
            st, body, _ = E.request("GET", path, token=None, raw=True)
            body = body.decode()
            assert st == 200, (path, st)
            assert f'<div class="notice" id="form-empty">{note}</div>' in body, body
            assert 'id="step-form"' not in body and 'role="alert"' not in body, body
            st, out, _ = E.request("GET", path + "?format=json", token=None, raw=True)
            out = json.loads(out)
            assert st == 422 and out["error"]["field"] == "application", (path, out)
        # a run without kernels: curve fitting offers it, coupling still has nothing
        st, _ = E.request("POST", "/api/v1/runs", {
            "application": "solo", "executable": "solo", "system": "box", "nprocs": 2,
            "runtime": 1.5})
        assert st == 201
        st, body, _ = E.request("GET", "/model/fit", token=None, raw=True)
        assert st == 200 and 'id="form-empty"' not in body.decode()
        assert Form(body.decode()).selects["application"][0][:1] == ["solo"]
        st, body, _ = E.request("GET", "/model/couple", token=None, raw=True)
        assert st == 200 and 'id="form-empty"' in body.decode()
        # templates are checked before system parameters: the note names them
        st, body, _ = E.request("GET", "/model/parameterize", token=None, raw=True)
        assert st == 200 and "No application has a model template yet" in body.decode()
    finally:
        E.close()



@test
def couple_with_many_long_kernel_names_stays_within_a_link():
    # a call-path profile: 120 kernels of 150-byte names at 3 process counts;
    # every step's link stays within the query limit (32 KB), the kernels past
    # the byte budget get no fields, and the model takes the first 100
    F = Server()
    try:
        names = [f"int solve_{i:03d}(double *, int) C [{{solver.c}} {{{i},1}}-{{{i + 9},1}}]"
                 + "/x" * 40 for i in range(120)]
        rs = [{"application": "deep", "executable": "e", "system": "box", "nprocs": p,
               "runtime": 130.0, "kernels": [{"name": n, "time": 1.0 + i / p}
                                             for i, n in enumerate(names)]}
              for p in (2, 4, 8)]
        st, b = F.post("/api/v1/runs", {"runs": rs})
        assert st == 201, b

        def submit(query):
            path = "/model/couple?" + urllib.parse.urlencode(query)
            assert len(path) < 32768, len(path)
            st, body, _ = F.request("GET", path, token=None, raw=True)
            assert st == 200, (st, body[:300])
            return body.decode()

        def fields(body):
            f = Form(body)
            out = [(k, v) for k, v in f.inputs.items() if k]
            out += [(k, next((o[0] for o in opts if o[2]), opts[0][0]))
                    for k, opts in f.selects.items()]
            return out

        body = submit({"application": "deep", "step": 2})
        more = re.search(r'<p class="notice" id="kernels-more">(.*?)</p>', body).group(1)
        shown = len(re.findall(r'name="graph\.', body))
        assert 0 < shown < 100, shown
        assert more == ("The runs record 120 kernels; a coupling model takes at most 100, "
                        "the first 100 as the runs record them. The other %d kernels are "
                        "modelled with auto and are not in the loop: a field for each "
                        "would make this page's link longer than browsers and proxies "
                        "carry (POST /api/v1/couple sets any of them)." % (100 - shown)), more
        body = submit(fields(body) + [("next", "1")])
        assert "<h2>Step 3:" in body, body[:400]
        query = fields(body) + [("next", "1")]
        req = request_json(submit(query))
        assert [k if isinstance(k, str) else k["name"] for k in req["kernels"]] == names[:100]
        ans = json.loads(submit(query + [("format", "json")]))
        assert [k["name"] for k in ans["kernels"]] == names[:100], ans.get("error")
        # runs at one process count: the x axis is refused at its field (step 3)
        st, b = F.post("/api/v1/runs", {"application": "single", "executable": "e",
                                        "system": "box", "nprocs": 4, "runtime": 2.0,
                                        "kernels": [{"name": "k", "time": 1.0}]})
        assert st == 201, b
        st, body, _ = F.request("GET", url("/model/couple", application="single",
                                           x="nprocs", step=3, next=1), token=None, raw=True)
        assert st == 422 and Form(body.decode()).error_at("x") == (
            "these runs were measured at one value of nprocs only; an axis needs two or "
            "more: choose a variable they vary"), body[:300]
    finally:
        F.close()

try:
    report()
finally:
    S.close()
