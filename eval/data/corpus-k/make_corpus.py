#!/usr/bin/env python3
"""corpus-k (one-variable cases, every training x with 3 or more separate runs): builds cases/*.json from the copies
of the source files in raw/, with eval/data/corpus_build.py (the format, the rules, --check).
Run: python3 make_corpus.py [--check]

Every case here has at least 3 repetitions (separate runs) at every training x; each run is its own training row,
exactly as the source lists it (nothing dropped, cleaned or averaged). A test value is the median of the runs at
that x. The only unit conversions are those of bash `time`'s "XmY.YYYs" (rb-*, ac-*) and of /usr/bin/time's
"m:ss.ss" / "h:mm:ss" elapsed time (st-*) into seconds, said in the notes.
"""
import os
import re
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, read_dicts, src  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-k")
rp, one_reps = CORPUS.rp, CORPUS.one_reps


# ---------------------------------------------------------------------------------------------
# eurus08/hpc-kernels: a set of HPC kernels (serial, OpenMP, MPI, CUDA) with a common benchmark harness
EU = "eurus08/hpc-kernels", "100b58203b3782b972222ba8d24b2aed1c47af3e"
EU_COMMON = ("eurus08/hpc-kernels, a personal set of HPC kernels with one benchmark harness (common/bench.c @5033f0ca9b7c): "
             "each run of a kernel binary does 2 warm-up calls and then -r timed calls of the kernel, and prints one "
             "CSV line (no header): kernel, paradigm, precision, n, p, the minimum and the MEDIAN of its timed calls [s], "
             "GFLOP/s, GB/s. y here is that per-run median (the 7th column), in s, over p; the file holds 3 such lines "
             "(3 separate runs of the binary) per p, each a training row; the test value is the median of the 3. The "
             "number of timed calls per run is not in the file (the script's example uses 5). So each training row is "
             "itself a median over a run's timed calls, not a single call, but the runs are separate and none is "
             "dropped or averaged. The machine is not named; results/run_openmp_scaling.sh @278cbaef8c3e says 'threads "
             "1, 2, 4, 6 (one thread per physical core), 8, 12 (all logical threads)', i.e. a 6-core, 12-thread CPU. ")


def eu_runs(path, kernel):
    d = defaultdict(list)
    with open(rp(EU[0], path)) as f:
        for line in f.read().splitlines():
            c = line.split(",")
            if c[0] == kernel:
                d[int(c[4])].append(float(c[6]))
    return dict(d)


def build_eu():
    f = "results/openmp_scaling.csv"
    s = src(EU[0], EU[1], f)
    one_reps("eu-matmul-omp-p", s, "p", "s",
             "OpenMP matrix multiplication, single precision, n = 1024 (fixed; strong scaling), p = OpenMP threads: "
             + EU_COMMON + "The time falls from 0.138-0.162 s at 1 thread to 0.046-0.055 s at 6 and is about the same "
             "at 8 (0.053-0.054 s), as measured; the runs at p = 2 spread widely (0.076-0.121 s). Train p=1,2,4,6,8, "
             "test p=12 (the logical threads beyond the physical cores).",
             eu_runs(f, "matmul"), [1, 2, 4, 6, 8], [12])
    one_reps("eu-reduction-omp-p", s, "p", "s",
             "OpenMP sum reduction of n = 16,777,216 single-precision values (fixed; strong scaling), p = OpenMP "
             "threads: " + EU_COMMON + "The time falls from 0.038-0.041 s at 1 thread to 0.0073-0.0077 s at 6 and "
             "stays there at 8 (0.0073-0.0079 s), as measured. Train p=1,2,4,6,8, test p=12.",
             eu_runs(f, "reduction"), [1, 2, 4, 6, 8], [12])
    f = "results/mpi_scaling.csv"
    s = src(EU[0], EU[1], f)
    one_reps("eu-matvec-mpi-p", s, "p", "s",
             "MPI matrix-vector product, single precision, n = 6144 (fixed; strong scaling), p = MPI ranks on one "
             "machine (presumably the same 6-core CPU; not stated): " + EU_COMMON + "The time falls from 0.036-0.039 s "
             "at 1 rank to 0.0083-0.0094 s at 6. Train p=1,2,4,6, test p=8 (more ranks than physical cores, if the "
             "machine is the one above).",
             eu_runs(f, "matvec"), [1, 2, 4, 6], [8])
    one_reps("eu-gaussian-mpi-p", s, "p", "s",
             "MPI Gaussian elimination, single precision, n = 1536 (fixed; strong scaling), p = MPI ranks: " + EU_COMMON
             + "The time falls from 0.225-0.242 s at 1 rank to about 0.08-0.09 s at 4 and stays there at 6 "
             "(0.080-0.084 s), as measured. Train p=1,2,4,6, test p=8.",
             eu_runs(f, "gaussian"), [1, 2, 4, 6], [8])


# ---------------------------------------------------------------------------------------------
# sdmccabe/zi-docker-mabs: the zero-intelligence traders agent-based model in many languages, benchmarked in Docker
ZI = "sdmccabe/zi-docker-mabs", "7f82a63c29f6ed58e21c97987fedbdde5f820329"
ZI_COMMON = ("Zero-intelligence traders, an agent-based market model, in the repository's %s implementation; experiment 3 "
             "(scripts/%s-benchmark-3.sh @7f82a63c29f6): '/models/%s/zi-traders -n 100000000 -a 1000000 -t p' (a fixed "
             "problem: strong scaling over p = the '-t' thread count), each run timed with /usr/bin/time -f "
             "'threads,%%e,%%U,%%S,%%M'. y = 'real' [s], the elapsed time of the whole process (0.01 s resolution); 9 "
             "runs per p (the script's 'for ((i=1; i<10; i++))'), each a training row, the test value their median. "
             "The script runs all 9 runs of one p before the next p. The machine is not named (the runs were made "
             "inside the repository's Docker setup). ")


def zi_runs(path):
    d = defaultdict(list)
    for r in read_dicts(rp(ZI[0], path)):
        d[int(r["threads"])].append(float(r["real"]))
    return dict(d)


def build_zi():
    f = "results/experiment-3/c-openmp-benchmark.csv"
    one_reps("zi-c-openmp-p", src(ZI[0], ZI[1], f), "p", "s",
             ZI_COMMON % ("C with OpenMP", "c-openmp", "c-openmp") + "The time falls from 8.3-8.9 s at 1 thread to "
             "about 4.5-5.3 s at 4-10 threads (flat there), then falls again at 16 (3.4-3.7 s) and 20-32 (2.7-3.1 s), "
             "as measured; the user time at 10 threads is 41-44 s against 8.3-8.9 s at 1, so the threads spin or "
             "contend. Train p=1,2,4,5,8,10,16,20,25,32, test p=40,50,80,100.",
             zi_runs(f), [1, 2, 4, 5, 8, 10, 16, 20, 25, 32], [40, 50, 80, 100])
    f = "results/experiment-3/cpp-benchmark.csv"
    one_reps("zi-cpp-p", src(ZI[0], ZI[1], f), "p", "s",
             ZI_COMMON % ("C++ (threads)", "cpp", "cpp") + "The time falls from 34.5-35.2 s at 1 thread nearly as 1/p "
             "to 2.9-3.1 s at 16, rises a little at 20 (3.0-3.5 s) and stays at about 2.9-3.2 s to 32, as measured "
             "(the user time stays at 34-41 s throughout). Train p=1,2,4,5,8,10,16,20,25,32, test p=40,50,80,100.",
             zi_runs(f), [1, 2, 4, 5, 8, 10, 16, 20, 25, 32], [40, 50, 80, 100])
    f = "results/experiment-3/go-benchmark.csv"
    one_reps("zi-go-p", src(ZI[0], ZI[1], f), "p", "s",
             ZI_COMMON % ("Go", "go", "go") + "Unlike the C and C++ versions, the Go version does not run in parallel "
             "here: the user time equals the real time at every p, and the time falls only slowly from 16.5-17.0 s at "
             "1 to 10.3-10.5 s at 32 (so '-t' changes how the work is split, not how many cores run it; not checked "
             "in the code). Train p=1,2,4,5,8,10,16,20,25,32, test p=40,50,80,100.",
             zi_runs(f), [1, 2, 4, 5, 8, 10, 16, 20, 25, 32], [40, 50, 80, 100])


# ---------------------------------------------------------------------------------------------
# rica01/BU-fall2020-cs525: Bilkent CS525 project 1 (Oct 2020), MPI range (max - min) of an integer file
RB = "rica01/BU-fall2020-cs525", "ddb9381e45c27d4cf6cdec610efe908af2d76948", "p1/batch-range-mpi-ppv1.out"
RB2 = "p1/batch-range-mpi-ppv2.out"
RB_SIZES = {"1K": 1000, "100K": 100000, "1M": 1000000, "5M": 5000000, "10M": 10000000}
TIME_RE = re.compile(r"^(\d+)m(\d+\.\d+)s$")


def rb_runs(path=RB[2]):
    """{np: {n: [real seconds, ...]}} from the captured output of bash `time mpirun -n NP ./range-mpi-ppvX r_SIZE`"""
    d = defaultdict(lambda: defaultdict(list))
    np_, n = None, None
    with open(rp(RB[0], path)) as f:
        for line in f.read().splitlines():
            m = re.match(r"^(\d+) thread$", line)
            if m:
                np_ = int(m.group(1))
            elif line in RB_SIZES:
                n = RB_SIZES[line]
            elif line.startswith("real\t"):
                t = TIME_RE.match(line.split("\t")[1])
                d[np_][n].append(round(int(t.group(1)) * 60 + float(t.group(2)), 3))
    return d


def build_rb():
    d = rb_runs()
    common = ("Bilkent University CS525 project 1 (Oct 2020), part A: the range (max - min) of the integers in a file, "
              "MPI version 1 (p1/range-mpi-ppv1.c): rank 0 reads the whole file, sends equal chunks to the other "
              "ranks with MPI_Isend, each finds its min and max, rank 0 collects them. The program is built with "
              "DEBUG 1, so every rank also writes every element it holds to its own log file with fprintf: much of "
              "the time is file I/O. y = the 'real' time of bash `time mpirun -n %d ./range-mpi-ppv1 r_SIZE` [s], "
              "converted from the file's 'XmY.YYYs' to seconds (the only conversion), so it includes mpirun's start "
              "(about 0.55 s at the smallest size); 5 runs per size (p1/batch-range-mpi-ppv1.sh), each a training "
              "row, the test value their median. n = the number of integers in the input file r_SIZE, read as the "
              "file label (1K = 1000, 100K, 1M, 5M, 10M = 10,000,000; inferred from the labels, the input files "
              "were not read). The machine is not named. ")
    for p in (1, 2, 4):
        one_reps("rb-range-mpi-%drank-n" % p, src(*RB), "n", "s",
                 common % p + "Here %d MPI rank%s.%s Train n=1K,100K,1M,5M, test n=10M." % (
                     p, "" if p == 1 else "s", "" if p == 1 else " From 1M on the runs take longer than with 1 rank "
                     "(6.3-7.9 s at 1M against 4.6-4.8 s), as measured."),
                 dict(d[p]), [1000, 100000, 1000000, 5000000], [10000000])
    d2 = rb_runs(RB2)
    one_reps("rb-range-mpi-v2-4rank-n", src(RB[0], RB[1], RB2), "n", "s",
             common.replace("MPI version 1 (p1/range-mpi-ppv1.c): rank 0 reads the whole file, sends equal chunks to "
                            "the other ranks with MPI_Isend, each finds its min and max, rank 0 collects them. The "
                            "program is built with DEBUG 1, so every rank also writes every element it holds to its own "
                            "log file with fprintf: much of the time is file I/O.",
                            "MPI version 2 (p1/range-mpi-ppv2.c, not read; the same task as rb-range-mpi-*rank-n, "
                            "version 1, whose program rank 0 reads the whole file and writes debug logs).")
             .replace("./range-mpi-ppv1", "./range-mpi-ppv2").replace("p1/batch-range-mpi-ppv1.sh",
                                                                      "p1/batch-range-mpi-ppv2.sh, not read")
             % 4 + "Here 4 MPI ranks. The 4-rank runs are slower than the 1-rank runs of the same file at every size "
             "from 100K on (10.9-11.3 s against 9.9-10.1 s at 1M), as measured. Train n=1K,100K,1M,5M, test n=10M.",
             dict(d2[4]), [1000, 100000, 1000000, 5000000], [10000000])


# ---------------------------------------------------------------------------------------------
# stivalaa/traffic_assignment: Frank-Wolfe traffic assignment with POSIX threads (A. Stivala, 2011), timing runs
ST = "stivalaa/traffic_assignment", "06af2ed1e1441d31f60e1bfa57a1215aacc9bae9"
ST_COMMON = ("Traffic assignment on the Chicago Regional road network by the Frank-Wolfe algorithm, 1000 iterations, "
             "with the shortest-path computations (d'Esopo-Pape) run in parallel by POSIX threads "
             "(trunk/tap/tap_frankwolfe_pthread.c, research code of A. Stivala, 2011): trunk/tap/fw_timing_8thread_script.sh "
             "runs './tap_frankwolfe_pthread -i 1000 -n p ...' 10 times for each p = 1..8 under /usr/bin/time and the "
             "captured stderr is this file. y = the elapsed time of each run [s], converted from /usr/bin/time's "
             "'m:ss.ss' or 'h:mm:ss' to seconds (the only conversion); 10 runs per p, each a training row, the test "
             "value their median. A fixed problem: strong scaling. The copy is CUT to the lines used (see README). ")
ELAPSED_RE = re.compile(r" (\d+(?::\d+)+(?:\.\d+)?)elapsed ")


def st_runs(path):
    d = defaultdict(list)
    p = None
    with open(rp(ST[0], path)) as f:
        for line in f.read().splitlines():
            m = re.match(r"^threads = (\d+)$", line)
            if m:
                p = int(m.group(1))
                continue
            m = ELAPSED_RE.search(line)
            if m:
                secs = 0.0
                for part in m.group(1).split(":"):
                    secs = secs * 60 + float(part)
                d[p].append(round(secs, 2))
    return dict(d)


def build_st():
    f = "trunk/tap/timings/carlton_10runs.out"
    one_reps("st-frankwolfe-pthread-carlton-p", src(ST[0], ST[1], f), "p", "s",
             ST_COMMON + "Machine 'carlton' (Linux 2.6.35 Ubuntu, x86_64, June 2011; the CPU is not named). The "
             "time falls from 2270-2277 s at 1 thread to 1223-1233 s at 2, 948-957 s at 3 and 742-750 s at 4, is a "
             "little LONGER at 5 (764-768 s), then falls again (652-655 s at 6), as measured; /usr/bin/time's %CPU is about "
             "99, 192, 281, 361, 392, 498 % for p = 1..6, so p = 5 gets less than 4 cores' worth. Train p=1..6, test "
             "p=7, 8.",
             st_runs(f), [1, 2, 3, 4, 5, 6], [7, 8])
    f = "trunk/tap/timings/tango_10run.out"
    one_reps("st-frankwolfe-pthread-tango-p", src(ST[0], ST[1], f), "p", "s",
             ST_COMMON + "Machine 'tango078.vpac.org', a node of VPAC's Tango cluster (Linux 2.6.32, x86_64, June "
             "2011; the CPU is not named). The time falls from 3905-3926 s at 1 thread to about 1047-1053 s at 6; "
             "the 1-thread time in h:mm:ss has 1 s resolution. Train p=1..6, test p=7, 8.",
             st_runs(f), [1, 2, 3, 4, 5, 6], [7, 8])


# ---------------------------------------------------------------------------------------------
# MarcoADP/ACO-Sequencial: ant colony optimization on DIMACS clique graphs with POSIX threads (a student
# project with a paper draft in Artigos/artLatex), times of repeated runs over the thread count
AC = "MarcoADP/ACO-Sequencial"
AC_COMMON = ("Ant colony optimization (ACO) on DIMACS clique benchmark graphs (the repository holds papers on ACO for the "
             "maximum clique and the maximum independent set problem; which one acoP solves was not checked), "
             "parallelized with POSIX threads (acoParalelo.c, "
             "binary acoP; a student project, written in Portuguese, with a paper draft in Artigos/artLatex): a "
             "version of the repository's script.sh (seen as a search excerpt, commit not checked) runs 'time ./acoP -i GRAPH -a 2 -b 1 -f 100 -c 100 -t p' 11 times "
             "for each p = 1..5 and the output was saved to Dados/GRAPH.txt. y = the 'real' time of bash `time` [s], "
             "converted from 'XmY.YYYs' to seconds (the only conversion); 11 runs per p, each a training row, the test "
             "value their median. The ACO is randomized; each run prints 'Nº Vertices => k' (k is the same in every "
             "run of these two files), and the work per run is fixed by "
             "the parameters (strong scaling, presumably; not checked in the code). The machine is not named. ")


def ac_runs(path):
    d = defaultdict(list)
    p = None
    with open(rp(AC, path), encoding="utf-8") as f:
        for line in f.read().splitlines():
            m = re.match(r"^thread (\d+)$", line)
            if m:
                p = int(m.group(1))
            elif line.startswith("real\t") and p is not None:
                t = TIME_RE.match(line.split("\t")[1])
                d[p].append(round(int(t.group(1)) * 60 + float(t.group(2)), 3))
    return dict(d)


def build_ac():
    f = "Dados/p_hat1500-3.txt"
    one_reps("ac-aco-clique-phat1500-3-p", src(AC, "a2236404a62f593b5eac72ebed3419340da5df97", f), "p", "s",
             AC_COMMON + "Graph p_hat1500-3 (DIMACS clique benchmark, 1500 vertices). The time falls from 69.4-70.8 s "
             "at 1 thread to 40.3-41.0 s at 2, 35.8-36.3 s at 3 and 28.5-28.8 s at 4, as measured (p = 3 gains "
             "little over 2). Train p=1..4, test p=5.",
             ac_runs(f), [1, 2, 3, 4], [5])
    f = "Dados/kepler6.txt"
    one_reps("ac-aco-clique-keller6-p", src(AC, "a00fca7c8e0daa4651dfde32ec6001dd16d1c7f6", f), "p", "s",
             AC_COMMON + "File kepler6.txt, by its name perhaps the DIMACS graph keller6 (the file does not name its "
             "graph; not checked). The time falls from 514.9-525.1 s at 1 thread to 293.7-296.2 s at 2, changes little at "
             "3 (283.4-287.5 s) and falls to 240.7-242.2 s at 4, with one run of 254.9 s at 4, as measured. Train "
             "p=1..4, test p=5.",
             ac_runs(f), [1, 2, 3, 4], [5])


BUILDERS = [build_eu, build_zi, build_rb, build_st, build_ac]

if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=1, max_per_repo=4)
