#!/usr/bin/env python3
"""Every shell example of the README and docs/ runs as written.

Each ```sh block of README.md and docs/*.md is run, in document order, by one
bash per document (so a variable set in one block, like TOKEN, is there in the
next), in a fresh directory beside a fresh demo server (`prophecyd serve --demo`
on ./prophecy.db, as the README's first command makes it), with:

- the server's real port in place of 8080 (the only change to the text);
- build/bin on PATH and a `build` link to the build, so `prophecyd`,
  `prophecy-upload` and `build/bin/prophecyd` all work;
- TOKEN and PROPHECY_TOKEN exported (a write token of the server), and
  PROPHECY_URL pointing at it;
- Open MPI allowed to run as root and oversubscribe the two cores (through
  its environment variables);
- `curl` failing on any HTTP status >= 400 (--fail-with-body), and `set -e`,
  so an example that answers an error, or a command that fails, fails here.

A block that cannot run inside a test says why in an HTML comment on the line
just above its fence (invisible on the rendered page):
`<!-- not run by the docs test: REASON -->` (building the project itself, a
multi-minute benchmark, a program of the reader's own). They are listed in the
output, so a skip is never silent.
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import prophecy_test as pt  # noqa: E402

SRC = os.environ.get("PROPHECY_SRC", os.path.join(os.path.dirname(__file__), "../.."))
SKIP = re.compile(r"^<!-- not run by the docs test: (.*) -->\s*$")


def blocks(path):
    """The ```sh blocks of a Markdown file: (line, text, reason to skip or None)."""
    out, cur, start, prev, skip = [], None, 0, "", None
    for i, line in enumerate(open(path, encoding="utf-8"), 1):
        if cur is None and re.match(r"^```(sh|bash|shell)\s*$", line):
            m = SKIP.match(prev)
            cur, start, skip = [], i + 1, m.group(1) if m else None
        elif cur is not None and line.startswith("```"):
            out.append((start, "".join(cur), skip))
            cur = None
        elif cur is not None:
            cur.append(line)
        prev = line
    return out


def documents():
    docs = [os.path.join(SRC, "README.md")]
    d = os.path.join(SRC, "docs")
    docs += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".md"))
    return docs


PRELUDE = r"""
set -euo pipefail
curl() { command curl -sS --fail-with-body "$@"; echo; }
"""


def run_document(path):
    """Runs one document's blocks against a fresh demo server; returns a list
    of failures (empty when every block ran)."""
    rel = os.path.relpath(path, SRC)
    todo = blocks(path)
    if not todo:
        return []
    work = tempfile.mkdtemp(prefix="prophecy-docs-")
    os.symlink(os.path.abspath(os.path.join(pt.BIN, "..")), os.path.join(work, "build"))
    srv = pt.Server("--demo", db=os.path.join(work, "prophecy.db"), tmp=work)
    failures = []
    try:
        env = dict(os.environ)
        env["PATH"] = os.path.abspath(pt.BIN) + ":" + env["PATH"]
        env["TOKEN"] = env["PROPHECY_TOKEN"] = srv.token
        env["PROPHECY_URL"] = "http://127.0.0.1:%d" % srv.port
        env["PROPHECY_SPOOL"] = os.path.join(work, "spool")
        # Open MPI on this 2-core test machine, as root: environment only,
        # the examples' text stays as a user would type it.
        env["OMPI_ALLOW_RUN_AS_ROOT"] = env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
        env["OMPI_MCA_rmaps_base_oversubscribe"] = "1"
        script = [PRELUDE]
        ran = 0
        for line, text, skip in todo:
            if skip:
                print("  skip %s:%d (%s)" % (rel, line, skip))
                continue
            text = re.sub(r"(127\.0\.0\.1|localhost):8080", "127.0.0.1:%d" % srv.port, text)
            # Each block reports where it is, so a failure names its line.
            script.append("echo '>>> %s:%d'\n%s\n" % (rel, line, text))
            ran += 1
        r = subprocess.run(["bash", "-c", "".join(script)], cwd=work, env=env,
                           capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            where = [ln for ln in r.stdout.splitlines() if ln.startswith(">>> ")]
            failures.append("%s: block at %s failed (exit %d)\n--- stdout (tail)\n%s\n--- stderr\n%s"
                            % (rel, where[-1][4:] if where else "?", r.returncode,
                               "\n".join(r.stdout.splitlines()[-15:]), r.stderr[-3000:]))
        else:
            print("  ran %d blocks of %s" % (ran, rel))
    finally:
        srv.close()
    return failures


def make_test(path):
    def t():
        failures = run_document(path)
        assert not failures, "\n".join(failures)
    t.__name__ = "test_" + re.sub(r"\W", "_", os.path.relpath(path, SRC))
    return t


if __name__ == "__main__":
    for p in documents():
        pt.test(make_test(p))
    pt.report()
