"""The common part of eval/data/corpus-*/make_corpus.py: each builds its corpus's cases/*.json
from the copies of source files in its raw/, in the format and under the rules of
../shared/corpus/scaling (make_corpus.py there); standard library only, deterministic.

Every case is {"name", "source", "vars", "unit", "note", "train", "test"}:
  vars   ["p"] (processes, threads, GPUs or nodes), ["n"] (message or problem size only) or ["p", "n"]
  train  [[x..., y], ...]  the smaller scales; every repetition is its own row
  test   [[x..., y], ...]  the larger scales; y is the median of the repetitions at that point
Nothing is synthesized: rows are picked out of raw/; the only computed value is the median of the
repetitions at a test point (a unit conversion, where one is made, is said in the case's note).

A builder script makes one Corpus, binds its rp, add, one and two to module names, defines its
build_* functions and ends with Corpus.main(BUILDERS, ...).
"""
import csv
import glob
import json
import os
import statistics
import sys
from collections import defaultdict


def read_rows(path, skip_comments=True):
    """CSV rows as lists of stripped strings; lines starting with '#' and blank lines are skipped."""
    with open(path, newline="") as f:
        lines = [l for l in f.read().splitlines() if l.strip() and not (skip_comments and l.lstrip().startswith("#"))]
    return [[c.strip() for c in r] for r in csv.reader(lines)]


def read_dicts(path, skip=0):
    """CSV with a header line after `skip` leading lines, as dicts."""
    with open(path, newline="") as f:
        lines = f.read().splitlines()[skip:]
    return list(csv.DictReader([l for l in lines if l.strip()]))


def read_grid(path, p="Processes", n="Size", y="Latency"):
    """A CSV of one measurement per row over two variables (OSU grids as the course scripts write them:
    Processes,Size,Latency) -> {(p, n): [y, ...]}, every repetition kept."""
    d = defaultdict(list)
    for r in read_dicts(path):
        d[(int(r[p]), int(r[n]))].append(float(r[y]))
    return d


def upto(xs, lo=None, hi=None):
    return [x for x in sorted(xs) if (lo is None or x >= lo) and (hi is None or x <= hi)]


def src(repo, commit, path):
    return "github %s @%s %s" % (repo, commit, path)


def num(s):
    """int if the text is an integer, else float"""
    try:
        return int(s)
    except ValueError:
        return float(s)


def check(c):
    """The corpus rules: >=4 distinct training values per variable (5 or more preferred for one variable),
    1-4 test x for one variable, a full training box for two, test beyond the training range (at most 8x),
    positive values."""
    probs = []
    nv = len(c["vars"])
    for i, v in enumerate(c["vars"]):
        tr = sorted({row[i] for row in c["train"]})
        if len(tr) < 4:
            probs.append("%s: %d training values" % (v, len(tr)))
    if not c["test"]:
        probs.append("no test points")
    if nv == 1 and len({row[0] for row in c["test"]}) > 4:
        probs.append("more than 4 test x")
    if nv == 2:
        ps = {r[0] for r in c["train"]}
        ns = {r[1] for r in c["train"]}
        if {(r[0], r[1]) for r in c["train"]} != {(p, n) for p in ps for n in ns}:
            probs.append("training set is not a full box")
        tp = {r[0] for r in c["test"]}
        tn = {r[1] for r in c["test"]}
        want = {(p, n) for p in tp for n in tn} - {(p, n) for p in ps for n in ns}
        if {(r[0], r[1]) for r in c["test"]} != want:
            probs.append("test set is not the product of the test values minus the box")
    for row in c["train"] + c["test"]:
        if not all(x > 0 for x in row):
            probs.append("non-positive value in %r" % (row,))
    for row in c["test"]:
        beyond = [row[i] > max(r[i] for r in c["train"]) for i in range(nv)]
        ratio = max(row[i] / max(r[i] for r in c["train"]) for i in range(nv))
        if not any(beyond):
            probs.append("test point %r inside the training range" % (row[:-1],))
        if ratio > 8.0001:
            probs.append("test point %r is %.1fx beyond training" % (row[:-1], ratio))
    for k in ("name", "source", "vars", "unit", "note", "train", "test"):
        if k not in c:
            probs.append("missing " + k)
    if not c["source"].startswith("github "):
        probs.append("source is not 'github OWNER/REPO @COMMIT PATH'")
    return probs




class Corpus:
    """One corpus: its raw/ and cases/ beside the builder script `here`, the cases built so far."""

    def __init__(self, here, name):
        self.name = name
        self.raw = os.path.join(here, "raw")
        self.out = os.path.join(here, "cases")
        self.cases = []

    def rp(self, repo, *parts):
        """The path of a copy in raw/: raw/OWNER__REPO/PATH for repo "OWNER/REPO" (or already
        "OWNER__REPO") and the parts of PATH."""
        return os.path.join(self.raw, repo.replace("/", "__"), *parts)

    def add(self, name, source, vars_, unit, note, data, train_keys, test_keys):
        """data: {key tuple: [y, ...]}; train_keys: keys whose every repetition goes to train;
        test_keys: keys whose median goes to test.  A missing training key is an error, a missing test key too."""
        train, test = [], []
        for k in sorted(train_keys):
            if k not in data or not data[k]:
                raise SystemExit("%s: no data for training point %r" % (name, k))
            for y in data[k]:
                train.append(list(k) + [y])
        for k in sorted(test_keys):
            if k not in data or not data[k]:
                raise SystemExit("%s: no data for test point %r" % (name, k))
            test.append(list(k) + [statistics.median(data[k])])
        self.cases.append({"name": name, "source": source, "vars": vars_, "unit": unit, "note": note,
                           "train": train, "test": test})

    def one(self, name, source, var, unit, note, data, train, test):
        """data {x: [y]} -> one-variable case; train/test are lists of x."""
        d = {(x,): v for x, v in data.items()}
        self.add(name, source, [var], unit, note, d, [(x,) for x in train], [(x,) for x in test])

    def one_reps(self, name, source, var, unit, note, data, train, test, min_reps=3):
        """one(), refusing the case unless every x used has at least min_reps runs (the corpora
        of repetitions, corpus-j and corpus-k)."""
        for x in list(train) + list(test):
            if len(data.get(x, [])) < min_reps:
                raise SystemExit("%s: only %d runs at x=%r" % (name, len(data.get(x, [])), x))
        self.one(name, source, var, unit, note, data, train, test)

    def two(self, name, source, unit, note, data, ptrain, ntrain, ptest, ntest):
        """data {(p, n): [y]} -> two-variable case.  Train: the full box ptrain x ntrain.
        Test: ptest x ntest minus the box."""
        box = {(p, n) for p in ptrain for n in ntrain}
        tk = [(p, n) for p in ptest for n in ntest if (p, n) not in box]
        self.add(name, source, ["p", "n"], unit, note, data, box, tk)

    def main(self, builders, nvars=None, max_per_repo=None):
        """Runs the builders, checks every case (check(), and when given: only cases of nvars
        variables, at most max_per_repo cases from one repository); with --check prints the
        summary and exits 1 on a problem, else writes cases/ afresh."""
        for b in builders:
            b()
        cases = self.cases
        names = [c["name"] for c in cases]
        assert len(names) == len(set(names)), "duplicate case names"
        bad = 0
        per_repo = defaultdict(int)
        for c in cases:
            probs = check(c)
            if nvars is not None and len(c["vars"]) != nvars:
                probs.append("%s holds %s-variable cases only" % (self.name, "one" if nvars == 1 else "two"))
            for p in probs:
                print("CHECK %s: %s" % (c["name"], p))
                bad += 1
            per_repo[c["source"].split()[1]] += 1
        for repo, k in sorted(per_repo.items()):
            if max_per_repo is not None and k > max_per_repo:
                print("CHECK %s: %d cases, more than %d from one repository" % (repo, k, max_per_repo))
                bad += 1
        one_v = sum(1 for c in cases if len(c["vars"]) == 1)
        msg = ("%d cases (%d one-variable, %d two-variable) from %d repositories, %d check problems"
               % (len(cases), one_v, len(cases) - one_v, len(per_repo), bad))
        if "--check" in sys.argv:
            print(msg)
            sys.exit(1 if bad else 0)
        os.makedirs(self.out, exist_ok=True)
        for old in glob.glob(os.path.join(self.out, "*.json")):
            os.remove(old)
        for c in sorted(cases, key=lambda c: c["name"]):
            with open(os.path.join(self.out, c["name"] + ".json"), "w") as f:
                json.dump(c, f, indent=1)
                f.write("\n")
        print(msg)
