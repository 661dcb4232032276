#!/usr/bin/env python3
"""corpus-w (20 one-variable cases from 6 repositories): builds cases/*.json from the copies of the source files in raw/,
with eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]

The cuts were fixed by one rule per kind before any case was written, never by the values beyond them:
  message-size sweeps: train n = 1 B .. 64 KiB (17 sizes), test 128, 256, 512 KiB (size 0 left out: not positive);
  rank / thread sweeps: train the first 4 or 5 measured counts (5 where 8 were measured, 4 where 6 or 7 were), test the rest;
  problem-size sweeps (one source, 5 sizes): train the first 4, test the largest.
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, src  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-w")
rp, one = CORPUS.rp, CORPUS.one

MSG_TRAIN = [2 ** k for k in range(17)]            # 1 B .. 64 KiB
MSG_TEST = [131072, 262144, 524288]                # 128, 256, 512 KiB
MSG_CUT = " Train n=1..65536 B (17 sizes), test n=131072, 262144, 524288 (up to 8x)."


def osu_table(path, into=None):
    """{size: [value]} from an OSU output (or a bare 'size value' table): every line of two numeric columns;
    with `into`, the values are appended to its lists (one row per run)."""
    d = into if into is not None else defaultdict(list)
    with open(path) as f:
        for line in f.read().splitlines():
            c = line.split()
            if len(c) == 2 and c[0].isdigit():
                try:
                    v = float(c[1])
                except ValueError:
                    continue
                if int(c[0]) > 0:
                    d[int(c[0])].append(v)
    return d


# ---------------------------------------------------------------------------------------------
# ChrisEngelhardt/parsys_19: University of Innsbruck Parallel Systems proseminar 2019, exercise 1 task 2 (OSU on LCC2)
CE = "ChrisEngelhardt/parsys_19"
CE_T = "proseminar/01/task2/"
CE_COMMON = ("OSU micro-benchmark at 2 MPI ranks, from a group of the University of Innsbruck Parallel Systems proseminar "
             "2019 (exercise 1, task 2; SGE queue std.q, 'module load openmpi/4.0.1' in the job scripts; the cluster is "
             "not named in the files read, the course used LCC2). The file is a bare 'size value' table without header "
             "(the OSU output's two columns); the OSU version is not stated. One run per size. ")


def build_ce():
    for tag, commit, what in (("2hosts", "b40dc9e88e0d54982854931cfc18eb9812a99c14",
                               "Placement: two hosts (the job script execLatencyHost.script asks '-pe openmpi-1perhost 2'). "
                               "3.5 us at 1 B, a network's latency; about doubling per doubling of n from 64 KiB on."),
                              ("2cores", "7b744c5f6387bd3e059eb076060093d071c9445c",
                               "Placement: two cores of one node (the file name; its job script was not read). A step "
                               "between 2 and 4 KiB (1.30 to 3.90 us, a protocol switch) inside the training range; "
                               "beyond the test range the latency jumps 7x from 1 to 2 MiB (not used)."),
                              ("2sockets", "ccefa2b96bd80bb213ca6196e8ded66de342777d",
                               "Placement: two sockets of one node (the file name; its job script was not read). A flat "
                               "step between 2 and 4 KiB (4.70, 4.80 us) inside the training range; beyond the test "
                               "range the latency jumps 7x from 2 to 4 MiB (not used).")):
        path = CE_T + "latency/" + tag
        one("ce-osu-latency-%s-n" % tag, src(CE, commit, path), "n", "us",
            CE_COMMON + "osu_latency (ping-pong), latency [us] over n = message size in bytes. " + what + MSG_CUT,
            osu_table(rp(CE, path)), MSG_TRAIN, MSG_TEST)
    path = CE_T + "bw/2hosts"
    one("ce-osu-bw-2hosts-n", src(CE, "7b744c5f6387bd3e059eb076060093d071c9445c", path), "n", "MB/s",
        CE_COMMON + "osu_bw, bandwidth [MB/s] over n = message size in bytes, placement two hosts (the file name). A RATE: "
        "it rises with n (0.62 MB/s at 1 B) and saturates near 1.5 GB/s from about 128 KiB on, as measured." + MSG_CUT,
        osu_table(rp(CE, path)), MSG_TRAIN, MSG_TEST)


# ---------------------------------------------------------------------------------------------
# maggo007/uibk_parsys_20: the Innsbruck proseminar 2020, exercise 1 (OSU 5.6.2, Open MPI 4.0.3; SGE job outputs)
MG = "maggo007/uibk_parsys_20", "feb9f8afd0e952c45f22d60b51b996b0acde644e"
MG_COMMON = ("OSU MPI micro-benchmark v5.6.2 at 2 MPI ranks (the job output's own header), Open MPI 4.0.3 ('Loading "
             "openmpi/4.0.3' in the output), from a student of the University of Innsbruck Parallel Systems proseminar "
             "2020, exercise 1; SGE jobs on the course cluster (node n002 in the mapping dumps; not named otherwise, the "
             "course used LCC2). One run per size (one SGE job output file per case). ")


def build_mg():
    for job, what in (("o66033", "Placement not recorded in this output (the job script of this series, exercise02, "
                                 "was not read); 0.67 us at 1 B and a flat step 2-4 KiB (4.42, 4.87 us) look like two "
                                 "sockets of one node, as in ce-osu-latency-2sockets-n (inferred, not stated)."),
                      ("o66039", "Placement not recorded in this output; 0.49 us at 1 B and a step 2-4 KiB (1.32 to "
                                 "3.83 us, a protocol switch) look like two cores of one socket (inferred, not stated).")):
        path = "proseminar/01/results/kopp_exercise02.%s" % job
        one("mg-osu-latency-%s-n" % job, src(MG[0], MG[1], path), "n", "us",
            MG_COMMON + "osu_latency, latency [us] over n = message size in bytes (file kopp_exercise02.%s). " % job
            + what + MSG_CUT, osu_table(rp(MG[0], path)), MSG_TRAIN, MSG_TEST)
    for job, tag, what in (("o66139", "bycore", "Placement from the output's mapping dump: mapping policy BYCORE, the two "
                                                "ranks bound to cores 0 and 1 of socket 0 of node n002. A drop at 4 KiB "
                                                "(4178 to 1533 MB/s, a protocol switch) inside the training range."),
                           ("o66140", "bysocket", "Placement from the output's mapping dump: mapping policy BYSOCKET "
                                                  "(exercise02d.script: --map-by socket), the ranks on core 0 of each "
                                                  "of the two sockets of node n002. A dip at 64-128 B inside the training "
                                                  "range (200, 192 MB/s).")):
        path = "proseminar/01/upload/graph_and_data/kopp_exercise02d.%s" % job
        one("mg-osu-bw-%s-n" % tag, src(MG[0], MG[1], path), "n", "MB/s",
            MG_COMMON + "osu_bw, bandwidth [MB/s] over n = message size in bytes (file kopp_exercise02d.%s). " % job + what
            + " A RATE: it saturates near 5.3-6 GB/s over the test sizes, and drops to about 1.6 GB/s at 4 MiB (not used)."
            + MSG_CUT, osu_table(rp(MG[0], path)), MSG_TRAIN, MSG_TEST)


# ---------------------------------------------------------------------------------------------
# MoritzPerschke/uibk_hpc_24: Innsbruck HPC proseminar 2024, exercise 1 task 3 (OSU 5.8 repeated, SLURM partition lva)
MP = "MoritzPerschke/uibk_hpc_24"
MP_T = "proseminar/01/task03/"
MP_A, MP_B = "35825a51ac3b9971e45f44db8cd2ec6ce5c09e0a", "0da5894b8edbed5b47ad4b9d2249e7276ebbe471"
MP_COMMON = ("OSU MPI Latency Test v5.8 (osu_latency, 2 ranks, ping-pong), latency [us] over n = message size in bytes, "
             "from a student of the University of Innsbruck HPC proseminar 2024 (exercise 1, task 3: 'how stable are the "
             "measurements'); SLURM partition lva, exclusive nodes, 'module load openmpi/3.1.6-gcc-12.2.0' (the cluster "
             "is not named in the files read; presumably LEO5). Each SLURM job output <jobid>.log is one run; 3 runs per "
             "case, each a training row; the test value is their median. ")


def build_mp():
    d = defaultdict(list)
    for job in ("124425", "124426", "124428"):
        osu_table(rp(MP, MP_T + "cores/latency/%s.log" % job), d)
    one("mp-osu-latency-cores-n", src(MP, MP_A, MP_T + "cores/latency/{124425,124426,124428}.log (124426 @" + MP_B + ")"),
        "n", "us",
        MP_COMMON + "Placement: two cores of one node (different_cores.sh: --nodes=1, --map-by core). 0.16 us at 1 B; "
        "the runs agree within a few per cent up to 512 KiB; beyond the test range 4 MiB jumps to about 770 us (not used)."
        + MSG_CUT, d, MSG_TRAIN, MSG_TEST)
    d = defaultdict(list)
    for job in ("124445", "124446", "124447"):
        osu_table(rp(MP, MP_T + "nodes/latency/%s.log" % job), d)
    one("mp-osu-latency-nodes-n", src(MP, MP_A, MP_T + "nodes/latency/{124445,124446,124447}.log"), "n", "us",
        MP_COMMON + "Placement: two nodes (different_nodes.sh: --nodes=2, --map-by node). 1.6-1.7 us at 1 B, about "
        "doubling per doubling of n from 64 KiB on; the three runs agree within 1 per cent." + MSG_CUT,
        d, MSG_TRAIN, MSG_TEST)


# ---------------------------------------------------------------------------------------------
# evcu/hpc2017: NYU High Performance Computing, spring 2017 homeworks (multigrid MPI on TACC Stampede; OpenMP Jacobi)
EV = "evcu/hpc2017", "f757a34b1437e147f035aaa96368456cbecad302"


def ev_mpi(path):
    """{p: [time]} from a (cut) Stampede log: p from each 'Rank 0/P running' line, the time from the next 'Time elapsed'"""
    d = defaultdict(list)
    p = None
    with open(rp(EV[0], path)) as f:
        for line in f.read().splitlines():
            if line.startswith("Rank 0/"):
                p = int(line.split()[1].split("/")[1])
            elif line.startswith("Time elapsed is "):
                d[p].append(float(line.split()[3]))
    return d


def ev_omp(path, n):
    """{threads: [time]} at grid size n from results.out: 'T N' lines, each followed by its 'Time elapsed' line"""
    d = defaultdict(list)
    key = None
    with open(rp(EV[0], path)) as f:
        for line in f.read().splitlines():
            c = line.split()
            if len(c) == 2 and c[0].isdigit() and c[1].isdigit():
                key = (int(c[0]), int(c[1]))
            elif line.startswith("Time elapsed is ") and key is not None:
                if key[1] == n:
                    d[key[0]].append(float(line.split()[3]))
                key = None
    return d


def build_ev():
    mg = ("1-D multigrid solver (V-cycles for -u'' = f, 10 iterations, multigrid_1d_mpi.c) of a student of NYU's High "
          "Performance Computing course, spring 2017 (homework 5), run with MVAPICH2 by ibrun on TACC Stampede (16 cores "
          "per node; the job script asks 16 nodes, 256 tasks; the log's host names are stampede.tacc.utexas.edu). "
          "'Time elapsed' [s] as printed by rank 0, one run per count. The raw log is CUT to the lines used. ")
    one("ev-multigrid-mpi-strong-p", src(EV[0], EV[1], "hw5/results/strong.8481975.out"), "p", "s",
        mg + "Strong scaling: 2^26 intervals in total (strongScaling.job: multigrid_1d_mpi $((2**26)) 10 5) over p = MPI "
        "ranks 4, 16, 32, 64, 128, 256 (rank 0 prints its own 2^26/p intervals). The time halves per doubling of p from "
        "16 on (24.2 s at 4, 2.49 s at 64). The residuals printed differ between the runs (the solver does not converge "
        "in 10 iterations), as measured. Train p=4, 16, 32, 64 (the first 4 of 6), test p=128, 256.",
        ev_mpi("hw5/results/strong.8481975.out"), [4, 16, 32, 64], [128, 256])
    one("ev-multigrid-mpi-weak-p", src(EV[0], EV[1], "hw5/results/weak.8469933.out"), "p", "s",
        mg + "Weak scaling: 2^22 intervals per rank (weakScaling.job: N=$((2**(22)*$i))) over p = MPI ranks 2, 4, 8, 16, "
        "32, 64 (one node up to 16, then 2 and 4 nodes). Not flat: 4.26 s at 2, 5.76 s at 4, then 10.2-10.3 s from 8 on, "
        "as measured. Train p=2, 4, 8, 16 (the first 4 of 6), test p=32, 64.",
        ev_mpi("hw5/results/weak.8469933.out"), [2, 4, 8, 16], [32, 64])
    jac = ("OpenMP 2-D Jacobi smoother (jacobi2D-omp, 5000 iterations per timingScript.sh) of the same student (homework "
           "2), 'Time elapsed' [s] over p = OMP_NUM_THREADS 1, 4, 8, 16, 24, 32, 64, one run per point (results.out, "
           "dated Thu Mar 23 2017; the machine is not named in the files read, an lscpu screenshot is not read). The "
           "timing script in the repository lists N = 100, 500, 1000, 2500, 5000, the results file holds N = 100, 1000, "
           "2000 (an earlier version of the script, presumably). ")
    one("ev-jacobi2d-omp-n1000-p", src(EV[0], EV[1], "hw2/report/results.out"), "p", "s",
        jac + "Here N = 1000 (grid side). ANOMALY inside the training range: 16 threads took 22.2 s against 0.18 s at 8 "
        "(all three N are 20-22 s at 16 threads: a disturbed run, kept as measured). Train p=1, 4, 8, 16 (the first 4 "
        "of 7), test p=24, 32, 64.",
        ev_omp("hw2/report/results.out", 1000), [1, 4, 8, 16], [24, 32, 64])
    one("ev-jacobi2d-omp-n2000-p", src(EV[0], EV[1], "hw2/report/results.out"), "p", "s",
        jac + "Here N = 2000. The same ANOMALY at 16 threads (19.9 s against 1.78 s at 8), kept as measured. Train p=1, 4, "
        "8, 16 (the first 4 of 7), test p=24, 32, 64.",
        ev_omp("hw2/report/results.out", 2000), [1, 4, 8, 16], [24, 32, 64])


# ---------------------------------------------------------------------------------------------
# marcoFroe/uibk_hpc_25: Innsbruck HPC proseminar 2025 (MPI 2-D heat stencil and Monte Carlo pi, 5 runs per point)
MF = "marcoFroe/uibk_hpc_25"
MF_ST = "f5d8b9d9394847927a71bc0ae8b8ed91aea9308d", "proseminar/04/ex02/results/2D_blocking_benchmark.csv"
MF_PI = "c3a808e48710cbe650e2096c95f7ef034d4aa482", "proseminar/02/monte_carlo_pi/mpi_benchmark_results.csv"


def mf_table(path, n):
    d = defaultdict(list)
    with open(rp(MF, path)) as f:
        for line in f.read().splitlines()[1:]:
            c = line.split(",")
            if int(c[0]) == n:
                d[int(c[1])].append(float(c[2]))
    return d


def build_mf():
    st = ("MPI 2-D heat stencil with blocking communication (exercise 4 of a student of the University of Innsbruck HPC "
          "proseminar 2025), time [s] over p = MPI ranks 2, 4, 8, 16, 32, 48, 64, 96, 5 runs per point (each a training "
          "row; the test value is their median). The machine is not named in the files read (the course's cluster, "
          "presumably LEO5; 96 ranks need more than one node there, not stated); the job script was not read. "
          "Strong scaling at a fixed problem size. ")
    for n, what in ((768, "Problem_Size 768: 34.9 s at 2 ranks to 5.0 s at 32; a bend at 16 ranks (8.9 s, only 1.25x "
                          "faster than 8), as measured."),
                    (576, "Problem_Size 576: 14.8 s at 2 to 2.6 s at 32; at the test points 64 ranks (median 2.38 s) "
                          "is slower than 48 (2.31 s), as measured."),
                    (384, "Problem_Size 384: 4.7 s at 2 to 1.6 s at 32, flattening from 16 ranks on (1.8 s), as "
                          "measured; one slow run at 48 ranks (1.84 s against 1.59-1.61 s).")):
        one("mf-heat2d-mpi-%d-p" % n, src(MF, *MF_ST), "p", "s",
            st + what + " Train p=2, 4, 8, 16, 32 (the first 5 of 8), test p=48, 64, 96 (up to 3x).",
            mf_table(MF_ST[1], n), [2, 4, 8, 16, 32], [48, 64, 96])
    one("mf-pi-mpi-1e9-p", src(MF, *MF_PI), "p", "s",
        "MPI Monte Carlo estimate of pi (exercise 2 of the same student), time [s] at Problem_Size 10^9 samples over p = "
        "MPI ranks 1, 2, 4, 8, 16, 32, 64, 96, 5 runs per point (each a training row; the test value is their median). "
        "Strong scaling: 32.8 s at 1 (one run 37.2 s), 23.0 s at 2 (only 1.4x), then about halving per doubling to "
        "3.6 s at 16; the smaller problem sizes of the file (10^5 to 10^7, 0.01-0.85 s, dominated by start-up) are not "
        "used. Machine as for mf-heat2d-mpi-*. Train p=1, 2, 4, 8, 16 (the first 5 of 8), test p=32, 64, 96 (up to 6x).",
        mf_table(MF_PI[1], 1000000000), [1, 2, 4, 8, 16], [32, 64, 96])


# ---------------------------------------------------------------------------------------------
# PillePalle667/uibk_ps_parsys: Innsbruck proseminar (year not stated), exercise 2: matrix product on a laptop i7-6500U
PP = "PillePalle667/uibk_ps_parsys", "433514ff1c90757dc28d25a42014f423211d3cca"
PP_PATH = "exercise02/i7-6500U_CPU_2.50GHz/mmul.txt"


def pp_table(prog):
    """{N: [mean real time]} of the multitime blocks of one program (./mmulNV, ./mmulMU or ./mmulIND)"""
    d = {}
    cur = None
    with open(rp(PP[0], PP_PATH)) as f:
        for line in f.read().splitlines():
            if line.startswith("1: ./mmul"):
                c = line.split()
                cur = (c[1], int(c[2]))
            elif line.startswith("real") and cur is not None:
                if cur[0] == prog:
                    d[cur[1]] = [float(line.split()[1])]
                cur = None
    return d


def build_pp():
    common = ("Sequential matrix product of two N x N matrices (mmul2.cpp) by a group of the University of Innsbruck "
              "Parallel Systems proseminar (exercise 2; the year is not stated in the file read), timed with multitime "
              "on a student's laptop (the directory: i7-6500U CPU @ 2.50GHz, 2 cores). n = N = 64, 128, 246 (sic, not "
              "256), 512, 1024. The value is multitime's MEAN 'real' time [s] of the whole program over its "
              "repetitions (7 runs, judging by the program's 7 'Timer' lines per block; the file gives the standard "
              "deviation, min, median and max too). The times have a 1 ms resolution and are dominated by process "
              "start-up up to N = 128 (5-9 ms). The raw file is CUT to the lines used. ")
    one("pp-mmul-nested-vector-n", src(PP[0], PP[1], PP_PATH), "n", "s",
        common + "Variant 'Nested Vector' (./mmulNV: a vector of vectors). Train n=64, 128, 246, 512 (4 values, the "
        "minimum), test n=1024 (2x).", pp_table("./mmulNV"), [64, 128, 246, 512], [1024])
    one("pp-mmul-multiplication-n", src(PP[0], PP[1], PP_PATH), "n", "s",
        common + "Variant 'Multiplication' (./mmulMU: one contiguous array indexed by multiplication, presumably, from the "
        "name). Train n=64, 128, 246, 512 (4 values, the minimum), test n=1024 (2x).",
        pp_table("./mmulMU"), [64, 128, 246, 512], [1024])


BUILDERS = [build_ce, build_mg, build_mp, build_ev, build_mf, build_pp]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=1, max_per_repo=4)
