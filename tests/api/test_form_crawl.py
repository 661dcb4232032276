"""A fuzzed crawl of every modeling form step (issue 12): each form's steps are
walked over HTTP with the fields the pages offer, set to the offered values,
random ones and hostile ones (unknown names, empty, huge, control bytes, bad
percent-encoding, numbers out of range). Every answer must be a page (no 5xx),
the server must stay up, and nothing is stored by a GET. Seeded, so a failure
repeats. Also the regression of the kernel-coupling form's NULL strcmp on an x
axis it does not know."""
import random
import urllib.parse
from html.parser import HTMLParser

from prophecy_test import Server, report, test

S = Server("--demo")
BT, SP2 = "NAS BT (example)", "IBM SP2 (example)"
MATMUL, SGI = "matmul (example)", "SGI Origin2000 (example)"
FORMS = {
    "/model/fit": dict(application=MATMUL, system=SGI),
    "/model/parameterize": dict(application=MATMUL),
    "/model/couple": dict(application=BT, system=SP2),
}
STEPS = ["1", "2", "3", "result", "", "0", "4", "-1", "99999999999999999999", "x"]
HOSTILE = ["", "foo", "nprocs", "class_size", "N+1", "1e308", "-1e308", "nan", "inf",
           "0", "-0", "1,2,3", ",,,", "x" * 5000, "\u00e9\u00e8", "\x01\x7f", "<b>&'\"",
           "auto", "inv1", "log", "exp", "median", "max", "1;2", "%zz", "%", "%00",
           "0x10", " 8 ", "9" * 400]


class Fields(HTMLParser):
    """Names and offered values of a page's selects and inputs."""

    def __init__(self, text):
        super().__init__()
        self.fields, self._sel = {}, None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "select" and a.get("name"):
            self._sel = a["name"]
            self.fields.setdefault(self._sel, [])
        elif tag == "option" and self._sel is not None:
            self.fields[self._sel].append(a.get("value") or "")
        elif tag == "input" and a.get("name") and a.get("type") != "hidden":
            self.fields.setdefault(a["name"], []).append(a.get("value") or "")
        elif tag == "input" and a.get("name"):
            self.fields.setdefault(a["name"], []).append(a.get("value") or "")

    def handle_endtag(self, tag):
        if tag == "select":
            self._sel = None


def raw_query(fields):
    """A query string; a value starting with % is sent undecoded (bad escapes)."""
    parts = []
    for k, v in fields.items():
        val = v if v.startswith("%") else urllib.parse.quote(v, safe="")
        parts.append(urllib.parse.quote(k, safe="") + "=" + val)
    return "&".join(parts)


def fetch(path, fields):
    st, body, _ = S.request("GET", path + "?" + raw_query(fields), token=None, raw=True)
    assert st < 500, (path, fields, st, body[:300])
    return st, body.decode(errors="replace")


def alive():
    st, _ = S.get("/api/v1/health")
    assert st == 200, st


@test
def couple_unknown_x_axis_is_a_field_error():
    for x in ("foo", "", "class_size_", "nprocs\x00", "predict"):
        for step in ("3", "result"):
            st, body = fetch("/model/couple", dict(application=BT, system=SP2, step=step,
                                                   x=x, next="1", predict="64"))
            assert st in (200, 400, 422), (x, step, st)
        alive()
    st, body = fetch("/model/couple", dict(application=BT, system=SP2, step="3", x="foo",
                                           next="1"))
    assert st == 422 and "the runs have no variable foo" in body, body[:2000]


@test
def crawl_every_step_with_hostile_values():
    rng = random.Random(12)
    before = S.content()
    for path, start in FORMS.items():
        known = {}
        fields = dict(start)
        # walk the steps with offered values, learning every field name
        for step in ("1", "2", "3", "result"):
            st, body = fetch(path, dict(fields, step=step, next="1"))
            for name, vals in Fields(body).fields.items():
                known.setdefault(name, set()).update(vals)
                if vals and name not in fields and name not in ("csrf", "token"):
                    fields[name] = vals[0]
        names = sorted(known) + ["application", "system", "executable", "x", "y",
                                 "graph", "predict", "xmin", "xmax", "fix.", "pos.",
                                 "graph.", "expr", "nope"]
        for _ in range(300):
            q = dict(fields)
            for name in rng.sample(names, rng.randint(1, 4)):
                pool = HOSTILE + sorted(known.get(name, []))
                q[name] = rng.choice(pool)
            if rng.random() < 0.3:
                q.pop(rng.choice(sorted(q)), None)
            q["step"] = rng.choice(STEPS)
            if rng.random() < 0.5:
                q["next"] = "1"
            fetch(path, q)
        alive()
    assert S.content() == before  # GETs store nothing


@test
def save_posts_with_hostile_values_are_refused_cleanly():
    rng = random.Random(7)
    before = S.content()
    for path, start in FORMS.items():
        for _ in range(20):
            q = dict(start, step="result", predict=rng.choice(HOSTILE),
                     csrf=rng.choice(HOSTILE), token=rng.choice(HOSTILE),
                     name=rng.choice(HOSTILE))
            body = raw_query(q)
            st, page, _ = S.request("POST", path, body, token=None, raw=True,
                                    ctype="application/x-www-form-urlencoded")
            assert st < 500 and st >= 400, (path, q, st, page[:300])
        alive()
    assert S.content() == before


S.close()
report()
