#!/usr/bin/env python3
"""corpus-zf (two-variable grids only): builds cases/*.json from the copies of the source files in raw/, with
eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]

Applications over problem size x threads, not OSU grids: README.md says what was searched, what was used and why,
and what was left out. A later helper can add build_* functions here in the same style.
"""
import os
import re
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, src  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-zf")
rp, two = CORPUS.rp, CORPUS.two


# ---------------------------------------------------------------------------------------------
# cwru-pat/cosmograph: CosmoGRaPH, a numerical-relativity code (BSSN, RK4 time stepping, OpenMP) of the CWRU
# Particle Astrophysics and Theory group. docs/benchmarks/*.txt are the outputs of scripts/benchmark.sh (kept in
# raw/, the version at 86e0696b that prints this line format): for N = 8, 16, 32, 64, 128 (doubling; an N^3 grid,
# recompiled with cmake -DCOSMO_N=N) and threads = 1, 2, 4, ... up to -T (doubling, omp_num_threads in
# config/stability_test.txt), one run of ./cosmo whose "RK_steps" timer line is echoed. One run per point.
# Nine such files exist; soliton.case.txt has only 3 thread counts (no test value). Of the eight others, the four
# with the most thread counts are used (at most 4 per repository): xl001.bridges (10 counts), l005.bridges,
# ann.kenyon, gabrielle.kenyon (7 each); r729.bridges, comp171.cwru (6) and comp146.cwru, comp146.icpc.cwru (5)
# are left out by that rule.
# The cut, as corpus-y's for a threads/ranks x size grid (lp-lcc-heat1d-mpi-pn), applied mechanically: the four
# smallest values of each variable train (threads 1, 2, 4, 8 x N = 8, 16, 32, 64); the test values are the box's
# largest and the larger values of the sweep up to 8x beyond (threads 8, 16, 32, 64; N = 64, 128), test = their
# product minus the box (7 points).
CG = "cwru-pat/cosmograph"
CG_P_TRAIN, CG_N_TRAIN = [1, 2, 4, 8], [8, 16, 32, 64]
CG_P_TEST, CG_N_TEST = [8, 16, 32, 64], [64, 128]
CG_LINE = re.compile(r"^RK_steps for (\d+) threads, N = (\d+):\s+RK_steps: ([0-9.]+)s$")

CG_FILES = [
    # (case name, file, commit, host in the header, machine text, odd)
    ("cg-bridges-xl001-rk-omp-pn", "xl001.bridges.txt", "43bc5bec9b7f7a37ab8148b8b7d8466dd52ecc18",
     "xl001.pvt.bridges.psc.edu",
     "PSC Bridges node xl001 (by its name presumably one of Bridges' extreme-shared-memory nodes with some hundreds "
     "of cores; the CPU and core count are not in the file)",
     "The sweep goes to 512 threads; 128, 256 and 512 are more than 8x beyond the box's 8 and are not used. The file "
     "also holds two later partial runs, N = 256 at threads 16-512 and N = 512 at 64-512; they are not used (no "
     "runs at threads <= 8, so no full product of test values). Seen while copying: at N = 8 the time hardly "
     "changes from 1 to 16 threads (0.030-0.034 s) and grows beyond; at N = 16 it falls to 16 threads, then grows; "
     "at N = 64 and 128 it keeps falling to 128 threads (N = 64: 28.4 s at 1 thread, 0.77 s at 64, 0.74 s at 128)."),
    ("cg-bridges-l005-rk-omp-pn", "l005.bridges.txt", "43bc5bec9b7f7a37ab8148b8b7d8466dd52ecc18",
     "l005.pvt.bridges.psc.edu",
     "PSC Bridges node l005 (by its name presumably one of Bridges' large-shared-memory nodes; the CPU and core "
     "count are not in the file; the sweep to 64 threads suggests at least 64 cores)",
     "Odd: the header says MAX_RES = 64, yet the file holds the N = 128 rows (in the same format, after the N = 64 "
     "rows), so the header and the rows may come from two runs of the script pasted together; the N = 128 rows "
     "are used as printed. Seen while copying: inside the box the N = 64 time falls unevenly (26.97, 12.60, 8.06, "
     "5.76 s at 1, 2, 4, 8 threads), and at N = 8 and 16 the time grows again beyond 16 threads."),
    ("cg-kenyon-ann-rk-omp-pn", "ann.kenyon.txt", "43bc5bec9b7f7a37ab8148b8b7d8466dd52ecc18", "ann",
     "host 'ann' (the file is named ann.kenyon; the CPU and core count are not in the file)",
     "Seen while copying: at 64 threads the time rises again at small N (N = 8: 0.016 s at 32 threads, 0.092 s at "
     "64; N = 16: 0.049 -> 0.167 s) and is flat from 16 to 64 threads at N = 64 (2.64, 2.77, 2.42 s); at N = 32 "
     "the 16-thread run (0.44 s) is slower than the 8-thread one (0.42 s). 64 threads may exceed the host's cores "
     "(not known)."),
    ("cg-kenyon-gabrielle-rk-omp-pn", "gabrielle.kenyon.txt", "fc83ffb5c34dc1f752110bacf46c6512e445fb7c",
     "gabrielle",
     "host 'gabrielle' (the file is named gabrielle.kenyon; the CPU and core count are not in the file)",
     "Seen while copying: the times at 1 thread are about twice those of the other hosts at N >= 32 (N = 128: "
     "592 s), and at 64 threads the time jumps up at N = 32 and 64 (N = 64: 2.42 s at 32 threads, 7.39 s at 64), "
     "so 64 threads may exceed the host's cores (not known)."),
]


def read_cg(path, host):
    """the RK_steps lines -> {(threads, N): [seconds]}"""
    with open(path) as f:
        lines = f.read().splitlines()
    assert lines[0].startswith("Running ../../scripts/benchmark.sh ") and lines[0].endswith(" on " + host), lines[0]
    d = defaultdict(list)
    for line in lines:
        m = CG_LINE.match(line)
        if m:
            d[(int(m.group(1)), int(m.group(2)))].append(float(m.group(3)))
        else:
            assert not line.startswith("RK_steps"), line
    assert all(len(v) == 1 for v in d.values()), "one run per point expected"
    return d


def build_cg():
    for name, fn, commit, host, machine, odd in CG_FILES:
        path = "docs/benchmarks/" + fn
        two(name, src(CG, commit, path), "s",
            "CosmoGRaPH (cwru-pat/cosmograph: numerical relativity, BSSN equations on an N^3 periodic grid, RK4 time "
            "stepping, OpenMP), the 'RK_steps' timer [s] the program prints for its Runge-Kutta loop, over p = "
            "OpenMP threads x n = N, the grid side (N^3 points; the work per step grows as N^3). Output of "
            "scripts/benchmark.sh (the version at 86e0696b, kept in raw/, not read by the builder), which recompiles "
            "with cmake -DCOSMO_N=N for N = 8, 16, ..., 128, sets omp_num_threads = 1, 2, 4, ... in "
            "config/stability_test.txt and sets 'steps = 5' there before the sweep (so presumably 5 time steps per "
            "run; that the runs used this script version is inferred from the matching output format). Machine: "
            "%s; header line 'Running ... on %s'. Compiler, flags and thread pinning are not in the file. One run "
            "per point; the spread between runs is unknown. raw/ keeps the file verbatim. Train p in {1,2,4,8} x "
            "n in {8,16,32,64} (the four smallest of each); test p in {8,16,32,64} x n in {64,128} minus the box "
            "(7 points: up to 8x beyond in p, 2x in n). " % (machine, host) + odd,
            read_cg(rp(CG, path), host), CG_P_TRAIN, CG_N_TRAIN, CG_P_TEST, CG_N_TEST)


# ---------------------------------------------------------------------------------------------


BUILDERS = [build_cg]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=2, max_per_repo=4)
