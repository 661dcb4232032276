#!/usr/bin/env python3
"""corpus-t (24 one-variable cases from 8 repositories): builds cases/*.json from the copies of the source files in raw/,
with eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]

Half the cases are problem-size sweeps of kernels (matrix order, image side, host-device copies), half are strong or
weak scaling over threads, cores or MPI ranks. Nothing is fitted here: rows are picked out of raw/ as they are.
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, read_dicts, src  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-t")
rp, one = CORPUS.rp, CORPUS.one


def column(path, xcol, ycol, where=None):
    """{x: [y, ...]} from a CSV with a header; every row its own repetition; where: {column: value} to keep"""
    d = defaultdict(list)
    for r in read_dicts(path):
        r = {k.strip(): v.strip() for k, v in r.items()}
        if where and any(r[k] != v for k, v in where.items()):
            continue
        d[int(r[xcol])].append(float(r[ycol]))
    return d


# ---------------------------------------------------------------------------------------------
# simonepri/sudoku-solver: a Java fork/join sudoku solution counter, benchmarked on Google Cloud VMs of 2..64 cores
SU = "simonepri/sudoku-solver", "91a87732afdc2947d04e7ddaffff80c196c8041d", "data/benchmark/raw/all.csv"


def build_su():
    common = ("Parallel (Java fork/join) enumeration of all solutions of a 9x9 sudoku board, the 'parallel time' column "
              "[us] (the readme at commit 0259c58f16b3: 'all the times are in us') over p = cores of the VM, "
              "2, 4, 8, 12, 16, 24, 32, 40, 48, 56, 64, each a separate Google Cloud VM ('Intel(R) Xeon(R) CPU @ "
              "2.30GHz'). Strong scaling: the board is fixed. Each value is the MEAN of 3 iterations computed by the "
              "authors' benchmark (the file gives 'parallel iterations' 3, stdev, min and max; the single runs are "
              "not in the file). The raw copy is CUT to the rows of the four boards used. ")
    cut = " Train p=2,4,8,12,16, test p=24, 32, 48, 64 (up to 4x; 40 and 56 not used)."
    boards = (("1f", "board 1f (64 empty cells, about 1.6e7 solutions)"),
              ("1e", "board 1e (63 empty cells, about 3.2e6 solutions)"),
              ("2f", "board 2f (66 empty cells, about 4.9e7 solutions)"),
              ("2e", "board 2e (65 empty cells, about 7.4e6 solutions)"))
    for b, what in boards:
        one("su-sudoku-forkjoin-%s-p" % b, src(*SU), "p", "us",
            common + "Here the " + what + ", the largest boards of the two test series (the readme's table)." + cut,
            column(rp(SU[0], SU[2]), "core", "parallel time", {"test name": b}),
            [2, 4, 8, 12, 16], [24, 32, 48, 64])


# ---------------------------------------------------------------------------------------------
# bengo501/T1-CompPar-...: an OpenMP smallpt path tracer (a Brazilian course assignment), Ryzen 5 3600 under WSL2
BG = "bengo501/T1-CompPar-ParalelizacaoDeUmaAplicacaoComOpenMP-", "01f8f88277a87eb897a13528702ca4dbc7727e30"


def build_bg():
    common = ("OpenMP port of the smallpt path tracer (C11, rows of the image in parallel, schedule dynamic,4), image "
              "800x600, 'time_s' [s] (the whole computational phase, the column the authors' speed-ups use) over p = "
              "OMP_NUM_THREADS 1..12 on an AMD Ryzen 5 3600 (6 cores, 12 hardware threads) under WSL2 on Windows 10, "
              "gcc 11.4 -O3 -march=native -ffast-math (README.md). 10 runs per point, each a training row; the test "
              "value is their median. The p=1 rows are the sequential binary (label 'seq', built without -fopenmp), "
              "not the OpenMP binary on one thread. p > 6 uses SMT siblings. ")
    one("bg-smallpt-omp-strong-p", src(BG[0], BG[1], "results/strong.csv"), "p", "s",
        common + "Strong scaling: 32 samples per subpixel at every p. Train p=1,2,4,6,8, test p=10, 12.",
        column(rp(BG[0], "results/strong.csv"), "threads", "time_s"), [1, 2, 4, 6, 8], [10, 12])
    one("bg-smallpt-omp-weak-p", src(BG[0], BG[1], "results/weak.csv"), "p", "s",
        common + "Weak scaling: samples per subpixel = 32 p (spp 32..384), so the work grows with p. The runs at p=6 "
        "and p=8 spread widely (61-73 s and 76-103 s), as measured. Train p=1,2,4,6,8, test p=10, 12.",
        column(rp(BG[0], "results/weak.csv"), "threads", "time_s"), [1, 2, 4, 6, 8], [10, 12])


# ---------------------------------------------------------------------------------------------
# Hagoo21/CUDAing: a CUDA course's machine problems: matrix multiplication and host-device copies over matrix order
HG = "Hagoo21/CUDAing"
HG_MM = "e29852a0eae6c7f58666e8dd7ee46fd7f89bc7ef", "matrix_multiplication_results.csv"
HG_TR = "41e31814768a34416f290c6a26241298f3310c57", "transfer_times.csv"


def build_hg():
    mm = ("CUDA matrix multiplication kernel, 'GPU Execution Time (ms)' over n = matrix order 100, 250, 500, 1000, 1500 "
          "(square matrices), one value per point (whether one run or a mean is not stated in the file). The GPU is "
          "not named in the files read (DeviceProperties.cu was not read). The file has CRLF line ends. ")
    for bw in (2, 5):
        one("hg-cuda-matmul-bw%d-n" % bw, src(HG, *HG_MM), "n", "ms",
            mm + "Here block width %d (the first two block widths in the file's order; 10, 25 and 32 are not used, the "
            "repository's limit of 4 cases). Only 4 training sizes. Train n=100,250,500,1000, test n=1500." % bw,
            column(rp(HG, HG_MM[1]), "Matrix Size", "GPU Execution Time (ms)", {"Block Width": str(bw)}),
            [100, 250, 500, 1000], [1500])
    tr = ("Host-device copies of the same course (transfer_times.csv at its own commit): time [ms] of one copy of an "
          "n x n matrix over n = matrix order 100, 250, 500, 1000, 1500 (the element type, and so the bytes, is not "
          "stated in the file), 100 runs per size, each a training row; the test value is their median. Values are "
          "printed with 0.01 ms resolution, so at n=100 most runs read 0.03-0.05 ms. Same unnamed GPU. ")
    one("hg-cuda-copy-d2h-n", src(HG, *HG_TR), "n", "ms",
        tr + "Here 'Device to Host (ms)'. At n=250 the first 28 runs read 0.08-0.11 ms and the rest 0.13-0.16 ms (a "
        "level shift within the series); single outliers (0.61 and 0.27 ms at n=100). Train n=100,250,500,1000, test "
        "n=1500.",
        column(rp(HG, HG_TR[1]), "Matrix Size", "Device to Host (ms)"), [100, 250, 500, 1000], [1500])
    one("hg-cuda-copy-h2d-n", src(HG, *HG_TR), "n", "ms",
        tr + "Here 'Host to Device (ms)'. The same level shift at n=250 (0.08-0.11 ms in the first 28 runs, then mostly "
        "0.11-0.13 ms with single 0.15, 0.18 and 0.31 ms). Train "
        "n=100,250,500,1000, test n=1500.",
        column(rp(HG, HG_TR[1]), "Matrix Size", "Host to Device (ms)"), [100, 250, 500, 1000], [1500])


# ---------------------------------------------------------------------------------------------
# ShaheenMCW/Matrix_Multiply: sequential matrix multiplication in five loop orders over the matrix order
SH = "ShaheenMCW/Matrix_Multiply", "085734f957dbaacb2861c0dfcb0531cbd14dea4c", "matrix_multiplication_results.csv"


def build_sh():
    common = ("Sequential dense matrix multiplication, 'Time Taken (Seconds)' over n = matrix order 100..500 in steps "
              "of 20, one run per point, written with millisecond resolution (so the smallest sizes, a few ms, are "
              "coarse and not monotone, e.g. ikj 0.013 s at 120 and 0.002 s at 140). The machine, compiler and "
              "language are not stated in the file read. The file has CRLF line ends. The loop order ijk is left out: "
              "its value at n=120 is 0.000000, and the format requires positive values. ")
    for order in ("ikj", "jik", "kij", "kji"):
        one("sh-matmul-%s-n" % order, src(*SH), "n", "s",
            common + "Here loop order %s. Train n=100..300 (11 sizes), test n=400, 500." % order,
            column(rp(SH[0], SH[2]), "Matrix Size", "Time Taken (Seconds)", {"Method": order}),
            list(range(100, 301, 20)), [400, 500])


# ---------------------------------------------------------------------------------------------
# ayagnych/HPC-course-project: classical and Strassen matrix multiplication over the matrix order
AY = "ayagnych/HPC-course-project", "49507f1069693f8494679fe9afc100c078e2865f", "matrix_multiplication_results.csv"


def build_ay():
    common = ("Matrix multiplication over n = matrix order 64, 128, 256, 512, 1024, one value per point, time [ms] "
              "(the header says Ms). The machine and the implementation (CPU or GPU) are not stated in the file read. "
              "Only 4 training sizes. Train n=64..512, test n=1024. ")
    one("ay-matmul-strassen-n", src(*AY), "n", "ms",
        common + "Here 'StrassenTimeMs' (Strassen's algorithm).",
        column(rp(AY[0], AY[2]), "MatrixSize", "StrassenTimeMs"), [64, 128, 256, 512], [1024])
    one("ay-matmul-classical-n", src(*AY), "n", "ms",
        common + "Here 'ClassicalTimeMs' (the classical algorithm). Anomaly kept as measured: n=64 takes 32.4 ms, "
        "3000x the 0.010 ms of n=128 (presumably a first-call or warm-up cost); from 128 on the time grows with n. "
        "The values (2 ms at 1024) are far below a naive CPU triple loop, so this is probably a GPU or library call.",
        column(rp(AY[0], AY[2]), "MatrixSize", "ClassicalTimeMs"), [64, 128, 256, 512], [1024])


# ---------------------------------------------------------------------------------------------
# ArbriHamzallari/parallel-sort-openmp: OpenMP bitonic, sample (PSRS) and LSD radix sorts of 4M ints over threads
AR = "ArbriHamzallari/parallel-sort-openmp", "2b1dbc8f8103330a097852e5e3b53fa935f063b6", "results/scaling.csv"


def build_ar():
    common = ("OpenMP sort of n = 4194304 random 32-bit ints (C++17), 'seconds' over p = threads 1, 2, 4, 8, 10, strong "
              "scaling. Each value is the MEDIAN of 5 repetitions computed by the program (reps=5; the README's "
              "example prints 'median='); the single runs are not in the file. The machine is not named: the README "
              "says a 1-core build machine made time_vs_size.png, but these times fall with threads, so they come "
              "from a multi-core machine (10 threads or more). Only 4 training values and the test point is only "
              "1.25x beyond them. Train p=1,2,4,8, test p=10. ")
    for algo, what in (("bitonic", "bitonic sort (a sorting network, O(n log^2 n))"),
                       ("sample", "sample sort (PSRS). Not monotone: 2 threads (0.088 s) are slower than 1 (0.064 s)"),
                       ("radix", "LSD radix sort (8-bit digits, per-thread histograms)")):
        one("ar-sort-%s-omp-p" % algo, src(*AR), "p", "s", common + "Here " + what + ".",
            column(rp(AR[0], AR[2]), "threads", "seconds", {"algo": algo}), [1, 2, 4, 8], [10])


# ---------------------------------------------------------------------------------------------
# lewisndambiri/romberg-hpc4ds: MPI Romberg integration, University of Trento HPC cluster (HPC4DS 2025/26)
LW = "lewisndambiri/romberg-hpc4ds", "99ab74879e8eb42f30f376f6510304aa6e5524e6"


def build_lw():
    common = ("MPI Romberg integration of sin(x) exp(-x^2) on [0, pi], each function evaluation repeated 10^6 times "
              "to make it expensive, 'Time(s)' over p = MPI ranks (MPICH 3.2, PBS 'pack' placement, 48 cores per "
              "node: run_experiments.sh at commit 9c89b513f7b7), on the University of Trento HPC cluster (README.md). "
              "One run per point. The files have CRLF line ends. ")
    one("lw-romberg-L20-strong-p", src(LW[0], LW[1], "results/strong_scaling_L20.csv"), "p", "s",
        common + "Strong scaling at Romberg level 20 (2^20 intervals); p=1 is the serial program (romberg_serial), the "
        "others romberg_mpi. p=64 spans 2 nodes and is slower than 32 (306.9 s against 114.4 s), as measured. "
        "Train p=1,2,4,8,16, test p=32, 64.",
        column(rp(LW[0], "results/strong_scaling_L20.csv"), "Cores", "Time(s)"), [1, 2, 4, 8, 16], [32, 64])
    one("lw-romberg-L16-strong-p", src(LW[0], LW[1], "results/strong_scaling_L16.csv"), "p", "s",
        common + "Strong scaling at Romberg level 16 (2^16 intervals); p=1 is the serial program. Speed-ups above p "
        "(2.38 at 2, 18.1 at 16) in the training range, as measured. Train p=1,2,4,8,16, test p=32.",
        column(rp(LW[0], "results/strong_scaling_L16.csv"), "Cores", "Time(s)"), [1, 2, 4, 8, 16], [32])
    one("lw-romberg-weak-p", src(LW[0], LW[1], "results/weak_scaling.csv"), "p", "s",
        common + "Weak scaling: level 12 + log2 p (4096 p intervals; 12..18 for p=1..64), all romberg_mpi. Irregular, "
        "as measured: 10.0, 11.5, 15.9, 10.6 s at p=1..8, then 104.3 s at p=16 (an outlier inside the training "
        "range) and about 24-25 s at the test points. Train p=1,2,4,8,16, test p=32, 64.",
        column(rp(LW[0], "results/weak_scaling.csv"), "Cores", "Time(s)"), [1, 2, 4, 8, 16], [32, 64])


# ---------------------------------------------------------------------------------------------
# OttoVintola/Mandelbrot-generator: a Mandelbrot image generator in CUDA and C++, GTX 1060 and i7-4770K
OT = "OttoVintola/Mandelbrot-generator"
OT_GPU = "da08c49a14cf7682bbeb6f8f4640cd82428f8969", "results/timings.csv"
OT_CPU = "7f8dfb3b7a2527358604b917e4ced7459c55db7a", "results/cpu-timings.csv"


def build_ot():
    common = ("Mandelbrot image generation, time [ms] over n = image side (an n x n image, so the pixel count is "
              "n^2), one value per side. Hardware (README.md): NVIDIA GeForce GTX 1060 6 GB and Intel Core i7-4770K "
              "@ 3.50GHz. ")
    one("ot-mandelbrot-cuda-n", src(OT, *OT_GPU), "n", "ms",
        common + "CUDA version: bash/benchmark.sh runs '../build/bench --x=N --y=N --runs=20' for N = 512..32768, so "
        "each value is presumably a mean over 20 runs (benchmark.cu was not read). Train n=512..8192 (5 sides), test "
        "n=16384, 32768 (up to 4x).",
        column(rp(OT, OT_GPU[1]), "x", "time (ms)"), [512, 1024, 2048, 4096, 8192], [16384, 32768])
    one("ot-mandelbrot-cpu-n", src(OT, *OT_CPU), "n", "ms",
        common + "The naive C++ CPU version (cpu-timings.csv at its own commit; how it was run, cpu-benchmark.sh, was "
        "not read), integer milliseconds. Only 4 training sides. Train n=512..4096, test n=8192.",
        column(rp(OT, OT_CPU[1]), "x", "time (ms)"), [512, 1024, 2048, 4096], [8192])


BUILDERS = [build_su, build_bg, build_hg, build_sh, build_ay, build_ar, build_lw, build_ot]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=1, max_per_repo=4)
