#!/usr/bin/env python3
"""corpus-zi (two-variable grids only): builds cases/*.json from the copies of the source files in raw/, with
eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]

All sources are Oregon State CS 475/575 (Parallel Programming) student repositories, one repository per student,
kernels over problem size x threads (or OpenCL work-group size). README.md lists what was searched, what was used
and why each other candidate was left out.

The cut rule, one for all cases: the four smallest values of each variable form the training box; the test values
of each variable are the box's values plus the larger values of the sweep that are at most 8x the box's largest:
all of them where the sweep grows geometrically or irregularly, and on a linear ladder (AmanPandita's NUMNODES
100, 200, ..., 700) the largest not above 2x, 4x and 8x the box's largest, as corpus-zh did; two() then tests every
point of that product outside the box. A sweep value missing from one of the files of a case is left out of the product (said in the note).
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, src  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-zi")
rp, two = CORPUS.rp, CORPUS.two


def lines(path):
    with open(path, newline="") as f:
        return [l for l in f.read().splitlines() if l.strip()]


# ---------------------------------------------------------------------------------------------
# incredere/CS575parallellprogramming: CS 475/575 project 2 (numeric integration of a superquadric's volume, OpenMP
# reduction over NUMNODES^2 heights); P2/loop.py compiles p2.cpp for NUMNODES in [64, 128, 256, 512, 1024, 3072,
# 4096, 8196] x NUMT in [1, 2, 4, 8, 16, 32, 48] and runs it; p2.cpp prints NUMT, NUMNODES, volume, and the MEAN over
# NUMTRIES = 10 tries of MegaHeights/s
IN = "incredere/CS575parallellprogramming", "7d85a4ca4106319f30917e1bae3e7199db32457f"
IN_PATH = "P2/p2.csv"


def build_in():
    d = defaultdict(list)
    for line in lines(rp(IN[0], IN_PATH)):
        t, nodes, _vol, perf = [c.strip() for c in line.split(",")]
        d[(int(t), int(nodes))].append(float(perf))
    assert len(d) == 50 and all(len(v) == 1 for v in d.values())
    two("in-cs575-superquadric-omp-pn", src(IN[0], IN[1], IN_PATH), "MegaHeights/s",
        "Numeric integration (volume of a superquadric, Oregon State CS 475/575 project 2): performance in "
        "MegaHeights per second (NUMNODES^2 heights / time / 1e6; higher is better) over p = NUMT (OpenMP threads) x "
        "n = NUMNODES (grid side; the work grows as n^2). The value is the file's fourth column, which the "
        "repository's p2.cpp (same commit) prints as the MEAN over NUMTRIES = 10 timed tries of the reduction loop "
        "(not the course's usual peak); one printed value per point, so the run-to-run spread is unknown. "
        "P2/loop.py (same commit) compiles with g++ -fopenmp for NUMNODES in [64, 128, 256, 512, 1024, 3072, 4096, "
        "8196] x NUMT in [1, 2, 4, 8, 16, 32, 48]. Machine not stated (48 threads suggests a course server such as "
        "OSU's 'flip'; not confirmed). Verbatim copy. Train p in {1,2,4,8} x n in {64,128,256,512} (the four "
        "smallest of each); test every other point of p in {1,2,4,8,16,32,48} x n in {64,...,512,1024,3072,4096}: "
        "p = 16, 32, 48 (up to 6x) at every n, n = 1024, 3072, 4096 (up to 8x) at every p. The file's last row "
        "(NUMNODES = 8196, 1 thread, volume 4.000000 against ~7.76 elsewhere: a broken run) is 16x beyond the box "
        "and not used. The volumes near 7.76 confirm the runs computed the same integral (p2.cpp averages the "
        "volume over the tries). Seen while copying: at n = 64 and 128 the performance falls beyond 16 threads "
        "(n = 64: 19.0 at 16, 10.8 at 32, 8.6 at 48), i.e. overheads dominate the small grids at high thread "
        "counts; the repository's P2/proj2raw.csv holds another run of the same grid (n <= 1024 only) with "
        "different values (e.g. 1.51 against 1.89 at p = 1, n = 64), not used.",
        d, [1, 2, 4, 8], [64, 128, 256, 512], [1, 2, 4, 8, 16, 32, 48], [64, 128, 256, 512, 1024, 3072, 4096])


# ---------------------------------------------------------------------------------------------
# qinbatista/CS575ParallelProgramming: CS 475/575 project 6 (OpenCL array multiply, and multiply + reduction), one
# kernel launch timed per (NMB, LOCAL_SIZE); run_script*.py loop NMB in [1..128 doubling] x LOCAL_SIZE in [8..512]
QB = "qinbatista/CS575ParallelProgramming", "e9472330159ab350280721b4a69abce303a267ef"
QB_FILES = [
    ("qb-opencl-arraymult-pn", "project6/first.csv", "run_script.py", "first.cpp",
     "array multiply C[i] = A[i] * B[i] (kernel in project6/first.cl; the host program first.cpp is not stored in the "
     "index, so its timing is inferred from first_reduction.cpp, which prints the same line format)",
     "Seen while copying: the rate is not monotone in the work-group size (e.g. at 1M elements 2.758 at 64, 2.217 "
     "at 128, 2.657 at 256) and is highest around 128-512 at the large sizes."),
    ("qb-opencl-arraymultreduce-pn", "project6/first_reduction.csv", "run_script_reduction.py", "first_reduction.cpp",
     "array multiply with a work-group reduction (kernel ArrayMultReduce in first_reduction.cl, LOCAL_SIZE floats of "
     "local memory; the host sums the per-group partial sums after the timed region)",
     "Seen while copying: from 2M elements on the rate peaks at work-group size 128 and falls at 256 and 512 (e.g. "
     "64M elements: 9.538 at 128, 8.310 at 256, 7.698 at 512); at 1M it is highest at 512 (3.108)."),
]


def build_qb():
    for name, path, script, prog, what, odd in QB_FILES:
        d = defaultdict(list)
        for line in lines(rp(QB[0], path)):
            f = [c.strip() for c in line.split(",")]
            assert len(f) == 5 and f[4] == "GigaMultsPerSecond", line
            nmb, local, n = int(f[0]), int(f[1]), int(f[2])
            assert n == nmb * 1024 * 1024, line
            d[(local, n)].append(float(f[3]))
        assert len(d) == 56 and all(len(v) == 1 for v in d.values())
        M = 1024 * 1024
        two(name, src(QB[0], QB[1], path), "GigaMults/s",
            "OpenCL on a GPU (Oregon State CS 475/575 project 6): %s. Performance in GigaMults per second "
            "(NUM_ELEMENTS / kernel time / 1e9; higher is better) over p = LOCAL_SIZE, the OpenCL work-group size "
            "(work-items per group; NOT processes or threads of a CPU: a block-size axis, as the brief allows for "
            "this course's grids) x n = NUM_ELEMENTS = NMB * 1024 * 1024 (the third column; the builder checks it). "
            "project6/%s (same commit) compiles %s with g++ against /usr/local/apps/cuda/cuda-10.1's libOpenCL (the "
            "course's NVIDIA GPU servers; GPU model not stated) for NMB in [1, 2, 4, ..., 128] x LOCAL_SIZE in [8, "
            "16, ..., 512] and appends the program's stderr line to the CSV. Each value is ONE timed kernel launch "
            "(omp_get_wtime around clEnqueueNDRangeKernel and a wait; no repetitions), so the spread is unknown and "
            "small sizes may be dominated by launch overhead. Verbatim copy (tab-separated fields with commas). "
            "Train p = LOCAL_SIZE in {8,16,32,64} x n in {1,2,4,8}M (the four smallest of each); test p = 128, 256, "
            "512 (up to 8x) at every n and n = 16M, 32M, 64M (up to 8x) at every p; n = 128M (16x) is not used. %s"
            % (what, script, prog, odd),
            d, [8, 16, 32, 64], [M, 2 * M, 4 * M, 8 * M], [8, 16, 32, 64, 128, 256, 512],
            [M, 2 * M, 4 * M, 8 * M, 16 * M, 32 * M, 64 * M])


# ---------------------------------------------------------------------------------------------
# jdao913/CS575: CS 475/575 project 4 (SIMD), the multithreaded extension: project4/simd_multithread.c splits a
# dot product (SSE SimdMulSum per thread, and an OpenMP reduction loop) over NUMT threads and writes one file per
# thread count, simd_multi<NUMT>_data.csv, over array sizes; max and mean over 50 trials in MegaMults/s
JD = "jdao913/CS575", "7cee2bea802f71731397e1bf6a7fa6990f2c31cb"
JD_T = [1, 2, 4, 6, 8]
JD_N_TRAIN = [1024, 2048, 4096, 8192]
JD_N_TEST = JD_N_TRAIN + [16384, 24576, 49152, 65536]   # the sizes of every file up to 8x 8192 (35840 is not in all)
JD_COLS = [
    ("jd-simd-sse-dotprod-max-pn", "SSE Max Performance",
     "the SSE dot product (SimdMulSum with _mm_mul_ps/_mm_add_ps on each thread's contiguous slice, the partial "
     "sums added after the parallel region)"),
    ("jd-simd-loop-dotprod-max-pn", "Loop Max Performance",
     "the plain loop (#pragma omp parallel for reduction(+:loop_sum) over a[j] * b[j])"),
]


def build_jd():
    tables = {}
    for t in JD_T:
        rows = lines(rp(JD[0], "project4/simd_multi%d_data.csv" % t))
        head = [c.strip() for c in rows[0].split(",")]
        assert head[0] == "Array Size", head
        tables[t] = (head, [[c.strip() for c in r.split(",")] for r in rows[1:]])
    for name, col, what in JD_COLS:
        d = defaultdict(list)
        for t, (head, rows) in tables.items():
            i = head.index(col)
            for r in rows:
                d[(t, int(r[0]))].append(float(r[i]))
        assert all(len(v) == 1 for v in d.values())
        two(name, " ; ".join(src(JD[0], JD[1], "project4/simd_multi%d_data.csv" % t) for t in JD_T), "MegaMults/s",
            "SIMD + OpenMP dot product (Oregon State CS 475/575 project 4, the student's multithreaded extension): "
            "the column '%s' = the PEAK over 50 trials of MegaMults per second (array size / time / 1e6; higher is "
            "better) of %s, over p = NUMT (OpenMP threads; one file per thread count, simd_multi<NUMT>_data.csv) x "
            "n = array size (floats per array). project4/simd_multithread.c (same commit) writes these files with "
            "22 sizes (1K, 2K, 4K, 8K, 16K, 24K, 35K, 48K, 64K, 100K, ... 8M) and refuses more threads than the "
            "machine's processors; the files for 1, 2, 4 threads have those 22 sizes, but those for 6 and 8 threads "
            "have 16 (no 35840, 204800 .. 409600, 614400 .. 819200; 256000 instead), so they came from another "
            "version of the program (not stored): the two groups may differ in more than the size list. Machine not "
            "stated. One value per point (a best-of-50), spread unknown. Verbatim copies. Train p in {1,2,4,6} x n "
            "in {1024, 2048, 4096, 8192} (the four smallest of each); test p = 8 (1.33x) at every n and n = 16384, "
            "24576, 49152, 65536 (the sizes present in all five files up to 8x the box's 8192; 35840 is missing "
            "from the 6- and 8-thread files) at every p. Seen while copying: the 6-thread file is far below the "
            "4-thread one from n = 4096 to 102400 (SSE peak 496-856 against 2203-4807) and jumps above 2200 from 256000 "
            "on, so the 6-thread runs of the box and test sizes look disturbed (another load on the machine, or "
            "the other program version); at n = 1024 the 1-thread SSE peak (149) is far below 2048's (972)."
            % (col, what),
            d, JD_T[:4], JD_N_TRAIN, JD_T, JD_N_TEST)


# ---------------------------------------------------------------------------------------------
# Sumer16/CS575-Parallel_Programming: CS 475/575 project 4 (SIMD array multiply), threads 1-8 x array sizes; the
# first four columns of Project4/data.csv are the program's output lines (ArraySize in K = ARRAYSIZE/1024 truncated,
# NUMT, non-SIMD and SIMD peak MegaMults/s); the other columns are the student's side tables (not used)
SU = "Sumer16/CS575-Parallel_Programming", "39798c3e1d5e367bb137316c5dd8e15304c97586"
SU_PATH = "Project4/data.csv"
SU_SIZES = [1024, 4096, 16384, 30000, 65536, 100000, 262144, 1048576, 4194304, 8388608]  # Project4/myscript.sh
SU_COLS = [
    ("su-mult-nonsimd-omp-pn", 2, "NonSIMD_Thd",
     "the plain C loop c[i] = a[i] * b[i] (Mult) on each thread's slice"),
    ("su-mult-simd-omp-pn", 3, "SIMD_Thd",
     "the SSE multiply (SimdMul, inline assembly movups/mulps) on each thread's slice"),
]


def build_su():
    rows = [[c.strip() for c in l.split(",")] for l in lines(rp(SU[0], SU_PATH))]
    assert rows[0][:4] == ["ArraySize(K)", "NumThds", "NonSIMD_Thd", "SIMD_Thd"], rows[0]
    by_k = {s // 1024: s for s in SU_SIZES}
    assert len(by_k) == len(SU_SIZES)
    data = [r for r in rows[1:] if r[0]]
    assert len(data) == 40, len(data)
    for name, i, col, what in SU_COLS:
        d = defaultdict(list)
        for r in data:
            d[(int(r[1]), by_k[int(r[0])])].append(float(r[i]))
        assert len(d) == 40 and all(len(v) == 1 for v in d.values())
        two(name, src(SU[0], SU[1], SU_PATH), "MegaMults/s",
            "SIMD array multiply with OpenMP (Oregon State CS 475/575 project 4): the column %s = the PEAK over "
            "NUMTRIALS = 50 of MegaMults per second (ARRAYSIZE / time / 1e6; higher is better) of %s, over p = NUMT "
            "(OpenMP threads; each thread multiplies ARRAYSIZE/NUMT elements) x n = ARRAYSIZE (floats per array). "
            "Project4/main.c and myscript.sh (same commit, not copied) compile with g++ -fopenmp for ARRAYSIZE in "
            "[1024, 4096, 16384, 30000, 65536, 100000, 262144, 1048576, 4194304, 8388608] x NUMT in [1, 2, 4, 8]; "
            "the program prints the size in K (ARRAYSIZE/1024, truncated: 29 for 30000, 97 for 100000), and the "
            "builder maps each printed K back to the script's ARRAYSIZE (a one-to-one lookup, no arithmetic on the "
            "values). The arrays are malloc'ed and never initialised. Machine not stated. One value per point (a "
            "best-of-50), spread unknown. raw/ holds the file as returned (the source has CRLF line ends by its "
            "length, 61 characters more than the copy over 61 lines); only its first four columns of rows 2-41 are "
            "used (the rest are the student's side tables: speedups and re-ordered copies). Only four thread counts "
            "exist, so all are in the box and the test points extrapolate in n only: train p in {1,2,4,8} x n in "
            "{1024, 4096, 16384, 30000} (the four smallest); test n = 65536, 100000 (2.2x and 3.3x; 262144 is 8.7x "
            "and not used) at every p. Seen while copying: at 1 thread the rates barely change with n beyond 16K "
            "while at 8 threads they grow up to 256K; the SIMD rates drop by about half between 256K and 1M elements "
            "at 1 thread (cache to memory), a regime change beyond the test sizes." % (col, what),
            d, [1, 2, 4, 8], SU_SIZES[:4], [1, 2, 4, 8], SU_SIZES[:6])


# ---------------------------------------------------------------------------------------------
# AmanPandita/CS475-575_ParallelProgramming: CS 475/575 project 2 (numeric integration, OpenMP reduction with
# collapse(2) over NUMNODES^2 heights); Project2/proj2.csv holds NumThreads 1-16 x NumNodes 10, 100, 200, ..., 700,
# one timed pass each (project_2.cpp prints megaHeightsPerSecond of a single run)
AM = "AmanPandita/CS475-575_ParallelProgramming", "ece603d5b6bd0760d7d3482c374adf8ab8a2045f"
AM_PATH = "Project2/proj2.csv"


def build_am():
    rows = [[c.strip() for c in l.split(",")] for l in lines(rp(AM[0], AM_PATH))]
    assert rows[0] == ["NumThreads", "NumNodes", "MegaTrials/sec", "Volume"], rows[0]
    d = defaultdict(list)
    for t, nodes, perf, _vol in rows[1:]:
        d[(int(t), int(nodes))].append(float(perf))
    assert len(d) == 48 and all(len(v) == 1 for v in d.values())
    two("am-cs475-superquadric-omp-pn", src(AM[0], AM[1], AM_PATH), "MegaHeights/s",
        "Numeric integration (volume of a superquadric, Oregon State CS 475/575 project 2): performance in "
        "MegaHeights per second (NUMNODES^2 heights / time / 1e6; higher is better) over p = NumThreads (OpenMP "
        "threads) x n = NumNodes (grid side; the work grows as n^2). The column is headed 'MegaTrials/sec' in the "
        "file, a leftover of project 1: the repository's Project2/project_2.cpp (same commit) prints NUMT, NUMNODES, "
        "megaHeightsPerSecond (%6.2lf), Volume, and its volumes (7.64 at 10 nodes, 7.756-7.758 above) match the "
        "file's fourth column. Each value is ONE timed pass of the parallel loop (no tries, no peak, no mean), over "
        "grids of only 100 to 490000 heights (well under 0.1 s), so the values are noisy (e.g. p = 4: 10.0 at 100 "
        "nodes, 6.62 at 200; p = 1: 3.98 at 300, 2.38 at 400). The file was saved through a spreadsheet (values "
        "such as '10' and '20' lost the program's two decimals; its length implies CRLF line ends, 49 characters "
        "more than the LF copy in raw/ over 49 lines). Project2/loop2.csh (same commit, not copied) sweeps NUMT "
        "in 1 2 4 8 12 16 32 x NUMNODES in 10 100 200 ... 700 but compiles another file (Project_3new.cpp), so "
        "this script version did not produce the CSV as stored; the CSV has no 32-thread rows. Machine not stated. "
        "Train p in {1,2,4,8} x n in {10,100,200,300} (the four smallest of each; n = 10 is a degenerate grid, "
        "0.2-0.9 MegaHeights/s, kept as measured); test p = 12, 16 (1.5x, 2x) at every n and, on the 100-step "
        "ladder, n = 600 and 700 (the largest not above 2x and 4x/8x the box's 300) at every p.",
        d, [1, 2, 4, 8], [10, 100, 200, 300], [1, 2, 4, 8, 12, 16], [10, 100, 200, 300, 600, 700])


# ---------------------------------------------------------------------------------------------


BUILDERS = [build_in, build_am, build_qb, build_jd, build_su]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=2, max_per_repo=4)
