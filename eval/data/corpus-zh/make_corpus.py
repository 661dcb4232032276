#!/usr/bin/env python3
"""corpus-zh (two-variable grids only): builds cases/*.json from the copies of the source files in raw/, with
eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]

Kernels and benchmarks over problem size x threads (no OSU grids). README.md lists the sources, the cut rule, what
was searched and what was left out and why. A later helper can add build_* functions here in the same style.

The cut, one rule for every case, applied mechanically: the four smallest values of each variable form the training
box; the test values of each variable are the box's values plus the larger values of the sweep: all of them where
the sweep grows geometrically or irregularly and stops within 8x of the box (SiScLab, the STREAM sizes), and on a
linear ladder (threads 1..24 of STREAM, nodes 1000..10000 of CS 475) the largest not above 2x, 4x and 8x the box's
largest; two() then tests every point of that product outside the box (points beyond in p only, in n only, and in
both). The cut was fixed from each file's design (which values it sweeps), not from the values beyond the box.
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, src  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-zh")
rp, two = CORPUS.rp, CORPUS.two


def tsv_floats(path):
    """Rows of a whitespace-separated numeric file (numpy savetxt or STREAM output lines) as lists of floats."""
    with open(path) as f:
        return [[float(x) for x in line.split()] for line in f.read().splitlines() if line.strip()]


# ---------------------------------------------------------------------------------------------
# PhilippRue/SiScLab_23_24: RWTH simulation-sciences lab 2023-24, exercise 4 (batched LAPACK/BLAS calls), Fortran
# (nvfortran) with Intel MKL on the RWTH CLAIX cluster (the compile_claix.sh scripts); run_benchmark.py loops
# OMP_NUM_THREADS O = 1, 2, 4, 8, 16, 32 x matrix order N = 16, 32, 64, 128 x batch count M and saves one row per run
# with numpy.savetxt (tab-separated, no header). raw/ keeps the rows used (CUT, see README.md).
SL = "PhilippRue/SiScLab_23_24"
SL_LU = "exercise_4_batched_calls/LU/times.csv", "b07c0ac166303469967a481065caf5f97faf06ff"
SL_ZG = "exercise_4_batched_calls/ZGEMM/times.csv", "6d18dcc5e4fd135ffcc2644d32370c2a57418289"
SL_P = [1, 2, 4, 8, 16, 32]

SL_COMMON = (
    "OMP_NUM_THREADS (MKL threads) on one RWTH CLAIX node (the repository's compile_claix.sh: module NVHPC, "
    "nvfortran linked with imkl/2023.1.0 mkl_rt; the node type, CPU and whether threads were pinned are not stated; "
    "if it was a CLAIX-2018 node, that has 2 sockets x 24 cores, so 32 threads span both sockets). Times from Fortran "
    "system_clock around the timed region, one run per point (no repetitions), written by run_benchmark.py with "
    "numpy.savetxt. Complex double matrices. ")


def build_sl():
    path, commit = SL_LU
    rows = tsv_floats(rp(SL, path))
    assert len(rows) == 30 and all(len(r) == 7 and r[1] == 128.0 for r in rows), "LU rows"
    for col, name, what, odd in [
        (6, "sl-lu-zgemm-batch-strided-n128-pn",
         "timings(4): one MKL zgemm_batch_strided call multiplying M pairs of 128 x 128 complex matrices (the check "
         "after the batched LU; the work grows as M * 128^3)",
         "This column scales well with threads in the box (M = 10000: 7.70 s at 1 thread, 1.03 s at 8) and goes on "
         "falling to 32 threads (seen while copying)."),
        (5, "sl-lu-batched-solve-n128-pn",
         "timings(3): the repository's linearsolve_dc_batched (mod_lu, LU factorisation and solve of M complex "
         "128 x 128 systems with 2 right-hand sides in one batched routine; its source in this exercise was not read, "
         "so how it is parallelised is not known)",
         "This column gains little from threads: at M = 20000 it falls from 26.6 s (1 thread) to 15.6 s (8) and "
         "13.7 s (32), so most of the time does not scale (seen while copying)."),
    ]:
        d = defaultdict(list)
        for r in rows:
            d[(int(r[0]), int(r[2]))].append(r[col])
        two(name, src(SL, commit, path), "s",
            "Batched linear algebra with Intel MKL over p = OMP_NUM_THREADS x n = M, the batch count (number of "
            "matrices, 100 .. 20000), at matrix order N = 128 (the largest order of the sweep, chosen before the "
            "values were read because the work per matrix is largest there). The value is " + what + ". " + SL_COMMON
            + "The file's seven columns are O, N, M and timings(1:4) of batched_lu.f90 (1: a loop of single LU solves, "
            "2: a loop of zgemm checks with 2 right-hand sides, 3: the batched LU, 4: the batched zgemm); raw/ keeps "
            "the 30 rows with N = 128 of the 120 (CUT). Train p in {1,2,4,8} x M in {100, 1000, 5000, 10000} (the four "
            "smallest of each); test every other point of p in {1,2,4,8,16,32} x M in {100, ..., 20000}: p = 16 and "
            "32 at every M (2x, 4x beyond the box) and M = 20000 at every p (2x). " + odd,
            d, SL_P[:4], [100, 1000, 5000, 10000], SL_P, [100, 1000, 5000, 10000, 20000])

    path, commit = SL_ZG
    rows = tsv_floats(rp(SL, path))
    assert len(rows) == 24 and all(len(r) == 5 and r[2] == 5000.0 for r in rows), "ZGEMM rows"
    for col, name, what, odd in [
        (3, "sl-zgemm-loop-m5000-pn",
         "timing1: a loop of M = 5000 separate MKL zgemm calls on N x N complex matrices",
         "At N = 16 the loop does not speed up at all with threads (0.0156-0.0161 s at every p: MKL does not thread "
         "so small a product); at N = 128 it falls from 3.70 s (1 thread) to 0.78 s (8) and 0.57 s (32)."),
        (4, "sl-zgemm-batch-strided-m5000-pn",
         "timing2: one MKL zgemm_batch_strided call on the same M = 5000 pairs of N x N complex matrices",
         "At N = 16 the batched call is fastest at 4 threads and slower again at 16 and 32 (0.0072 s at 4, 0.0152 s "
         "at 32); at N = 128 it falls from 3.83 s to 0.63 s (8) and 0.45 s (32) (seen while copying)."),
    ]:
        d = defaultdict(list)
        for r in rows:
            d[(int(r[0]), int(r[1]))].append(r[col])
        two(name, src(SL, commit, path), "s",
            "Complex matrix products with Intel MKL over p = OMP_NUM_THREADS x n = N, the matrix order (16, 32, 64, "
            "128; the work per product grows as N^3), at batch count M = 5000 (the largest of the sweep's M = 100, "
            "1000, 5000, chosen before the values were read). The value is " + what + ". " + SL_COMMON
            + "The file (batched_zgemm.f90's 'timings batch strided' line: O, N, M, timing1, timing2) is the version "
            "at commit 6d18dcc5 (the path has other stored versions); raw/ keeps the 24 rows with M = 5000 of the 72 "
            "(CUT). Only four N exist, so all four are in the box and the test points extrapolate in p only: train "
            "p in {1,2,4,8} x N in {16,32,64,128}; test p = 16, 32 (2x, 4x) x the same four N. " + odd,
            d, SL_P[:4], [16, 32, 64, 128], SL_P[4:], [16, 32, 64, 128])


# ---------------------------------------------------------------------------------------------
# denocris/Introduction-to-Computer-Architectures-for-HPC: a student's hands-on of an HPC course (day 4, STREAM),
# on a 24-core cluster node (PBS ppn=24; 2 NUMA nodes x 12 cores per the report's numactl output; the report says
# the 'c3e cluster'); one file per array size, each the Triad line of stream.c for OMP_NUM_THREADS = 1 .. 24
DC = "denocris/Introduction-to-Computer-Architectures-for-HPC"
DC_FILES = [  # (file, commit, array size in elements)
    ("D4-hands-on/h3c_vfix_3.txt", "bf6b77bfbc1481bfea2d151960573a9776d2e1fd", 300000),
    ("D4-hands-on/h3c_vfix_5.txt", "bf6b77bfbc1481bfea2d151960573a9776d2e1fd", 500000),
    ("D4-hands-on/h3c_vfix_15.txt", "bf6b77bfbc1481bfea2d151960573a9776d2e1fd", 1500000),
    ("D4-hands-on/h3c_vfix_20.txt", "bf6b77bfbc1481bfea2d151960573a9776d2e1fd", 2000000),
    ("D4-hands-on/h3c_vfix_40.txt", "1f9599868bd15af6a6d1b59dc57a083b39b002d6", 4000000),
    ("D4-hands-on/h3c_vfix_100.txt", "1f9599868bd15af6a6d1b59dc57a083b39b002d6", 10000000),
]


def build_dc():
    d = defaultdict(list)
    for path, _, n in DC_FILES:
        rows = tsv_floats(rp(DC, path))
        assert [int(r[4]) for r in rows] == list(range(1, 25)), path
        for rate, avg, mn, mx, thr in rows:
            # the array size is not printed: STREAM's Triad rate is 24 bytes * n / min time (MB = 1e6 B); check the
            # size read from the file name (vfix_X = X * 10^5 elements) against it to within the printed precision
            assert abs(rate * 1e6 * mn / 24.0 / n - 1.0) < 0.03, (path, thr)
            d[(int(thr), n)].append(avg)
    sizes = [n for _, _, n in DC_FILES]
    two("dc-stream-triad-avgtime-pn",
        " ; ".join(src(DC, c, p) for p, c, _ in DC_FILES), "s",
        "STREAM (stream.c, OpenMP) Triad average time per iteration [s] (the 'Avg time' column of the Triad line) "
        "over p = OMP_NUM_THREADS x n = STREAM_ARRAY_SIZE (elements per array; three double arrays, so Triad moves "
        "24 n bytes per iteration), on one 24-core node of a course cluster (PBS nodes=1:ppn=24; the report "
        "(Report_D4.md) says the 'c3e cluster', shows 2 NUMA nodes x 12 cores and an L3 of about 30 MB; CPU model not "
        "stated). Each file is one compile-and-run per thread count, the Triad line cut after its label with the "
        "thread count appended by the script (columns: best rate MB/s, avg, min, max time, threads); stream.c "
        "repeats each kernel NTIMES times (not stated, default 10) and the average is over those iterations: one "
        "value per point. The array size is not in the files: the file name vfix_X means X * 10^5 elements, which "
        "the builder checks against every row (rate * min time / 24 bytes). Verbatim copies. Train p in {1,2,3,4} x "
        "n in {3e5, 5e5, 1.5e6, 2e6} (the four smallest of each); test every other point of p in {1,2,3,4,8,16,24} "
        "x n in {3e5, ..., 1e7}: p = 8, 16, 24 (the largest of the 1..24 ladder not above 2x, 4x and 8x the box's "
        "4) at every n, and n = 4e6, 1e7 (2x, 5x) at every p. Very noisy, kept as measured: at the small sizes the "
        "times are tens of microseconds and the best rate alternates between two levels from one thread count to "
        "the next (e.g. n = 3e5: 22.0, 43.1, 28.9 GB/s at 1, 2, 3 threads); the arrays of the box (7.2 .. 48 MB "
        "for three arrays) straddle the ~30 MB L3, the test sizes (96 and 240 MB) are in DRAM, where the time "
        "stops falling beyond about 8-10 threads (seen while copying): a regime change between box and test.",
        d, [1, 2, 3, 4], sizes[:4], [1, 2, 3, 4, 8, 16, 24], sizes)


# ---------------------------------------------------------------------------------------------
# brannere/cs475-parallel-programming: Oregon State CS 475 (Parallel Programming), project 2 (numeric integration of
# a superquadric's volume with an OpenMP reduction over NUMNODES x NUMNODES heights); one CSV of threads x nodes
BR = "brannere/cs475-parallel-programming"
BR_FILE = "project-2-numereic-integration/out-with-time.csv", "9aebdeaf53174142e3b5134781c8abbdbf619652"


def build_br():
    path, commit = BR_FILE
    rows = [[c.strip() for c in line.split(",")]
            for line in open(rp(BR, path)).read().splitlines()[1:] if line.strip()]
    d = defaultdict(list)
    for thr, nodes, _vol, mhs, secs in rows:
        p, n, mhs, secs = int(thr), int(nodes), float(mhs), float(secs)
        # the unlabeled fifth column is the time: NUMNODES^2 heights / (MegaHeights/s * 1e6), to the printed precision
        assert abs(n * n / (mhs * 1e6) / secs - 1.0) < 0.01, (p, n)
        d[(p, n)].append(secs)
    assert len(d) == 60 and all(len(v) == 1 for v in d.values())
    two("br-cs475-superquadric-omp-pn", src(BR, commit, path), "s",
        "Numeric integration (volume of a superquadric, Oregon State CS 475 project 2): the time of the OpenMP "
        "reduction loop over all NUMNODES^2 heights [s] over p = NUMT (OpenMP threads) x n = NUMNODES (grid side; "
        "the work grows as n^2). The value is the file's unlabeled fifth column, which equals NUMNODES^2 / "
        "(MegaHeights per second * 1e6) on every row (the builder checks it), so it is the time behind the printed "
        "performance; in the course's template that performance is the best of NUMTRIES tries (the student's "
        "main.cpp at the data's commit was not read; the stored version is an unfinished early one), so one value "
        "per point, a best-of-tries, not a mean. Machine not stated: the repository's make_report.csh (at another "
        "commit) compiles with Homebrew LLVM clang, i.e. presumably an Apple-silicon Mac, and sweeps threads 1, 2, "
        "4, 8, 12, 16 x nodes 1000 .. 16000 doubling, while this file holds nodes 1000 .. 10000 in steps of 1000, so "
        "another version of the script produced it. Verbatim copy. Train p in {1,2,4,8} x n in {1000, 2000, 3000, "
        "4000} (the four smallest of each); test every other point of p in {1,2,4,8,12,16} x n in {1000, 2000, "
        "3000, 4000, 8000, 10000}: p = 12, 16 (all larger thread counts, 2x) at every n, and n = 8000, 10000 (the "
        "largest of the 1000-step ladder not above 2x, 4x and 8x the box's 4000) at every p. Beyond 8 threads the "
        "performance stops rising (e.g. n = 10000: 122.3, 124.9, 124.7 MegaHeights/s at 8, 12, 16 threads) and at "
        "1 thread it rises with n up to about 4000 nodes (14.2 at 1000, 25.4 at 4000, 26.4 at 10000): overheads at "
        "the small n of the box (seen while copying). n = 7000 at 12 threads is slower than its neighbours "
        "(110.9 MegaHeights/s against 119.5 and 122.4; not a test point).",
        d, [1, 2, 4, 8], [1000, 2000, 3000, 4000], [1, 2, 4, 8, 12, 16], [1000, 2000, 3000, 4000, 8000, 10000])


# ---------------------------------------------------------------------------------------------


BUILDERS = [build_sl, build_dc, build_br]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=2, max_per_repo=4)
