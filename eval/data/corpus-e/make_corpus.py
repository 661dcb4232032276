#!/usr/bin/env python3
"""corpus-e (8 two-variable OSU grids from 3 repositories): builds cases/*.json from the copies of the source files in raw/,
with eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, read_dicts, src, upto  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-e")
rp, two = CORPUS.rp, CORPUS.two


# ---------------------------------------------------------------------------------------------
# robonoff/HPC-project: FHPC course (Trieste), exercise 1, on 2 ORFEO GENOA nodes (64 cores each):
# osu_scatter with forced algorithms and osu_bcast over ranks x message size, one run per point
RB = "robonoff/HPC-project", "14e7e5f964352162779e9bcd562414d0421f597d"
OSU_P_TRAIN, OSU_P_TEST = [2, 4, 8, 16], [32, 64, 128]
OSU_N_TEST = [1024, 16384, 65536]


def read_pnl(path):
    """Processes,Size,Latency CSV -> {(p, n): [latency]}"""
    d = defaultdict(list)
    for r in read_dicts(path):
        d[(int(r["Processes"]), int(r["Size"]))].append(float(r["Latency"]))
    return d


def build_rb():
    gen = ("OSU 7.5.1, Open MPI 5.0.5, mpirun --map-by core, -x 10000 -i 10000, on 2 ORFEO GENOA nodes reserved exclusively "
           "(64 ranks per node in the job script; p=128 fills both nodes, p<=64 fits on the first node). One run per point "
           "(OSU's average over its 10000 iterations). p = 2,4,...,128 and n = 2 B ... 256 KiB in powers of 2. "
           "Train p in {2,4,8,16} x n = 2 B .. 8 KiB; test p = 32, 64, 128 x n = 1 KiB, 16 KiB, 64 KiB (n = 128 and 256 KiB "
           "not used), so the points at n = 1 KiB extrapolate in p only. ")
    base = "ex1/scripts/scatter/varied/csv/"
    for alg, alg_name, odd in [
            (1, "basic_linear", "At p=128 the 256 KiB point reads 12965 us against 1785 us at 128 KiB (not used)."),
            (2, "binomial", "Irregular outside the box: at p=4 and 8 the 128 and 256 KiB points jump by 4-30x (not used); "
                            "at p=16, 16 and 32 KiB take the same time (77.8, 77.4 us); at p=32, 16 KiB takes about as long "
                            "as 8 KiB (94.9 vs 92.6 us); at p=64, 8 KiB is faster than 4 KiB (127.0 vs 138.7 us)."),
            (3, "linear_nb", "Regime change inside the test: from p=16 the 16 KiB point is faster than the 8 KiB one "
                             "(9.9 vs 18.1 us at p=16, 17.4 vs 41.8 at p=32, 57.8 vs 75.7 at p=64), while at p=128 it is "
                             "7.7x slower (860 vs 112 us); at p<=8 16 KiB is slower than 8 KiB, as for the other algorithms.")]:
        path = base + "scatter%d_core_mapping.csv" % alg
        d = read_pnl(rp(RB[0], path))
        two("rb-genoa-scatter-alg%d-core-pn" % alg, src(RB[0], RB[1], path), "us",
            "osu_scatter average latency [us] over p = MPI ranks x n = message size [bytes], coll_tuned_use_dynamic_rules "
            "true, coll_tuned_scatter_algorithm=%d (%s in Open MPI 5.0's numbering); the repository's job script "
            "ex1/scripts/scatter/varied/scatter_varied.sh writes this file. " % (alg, alg_name) + gen + odd,
            d, OSU_P_TRAIN, upto({n for (_, n) in d}, hi=8192), OSU_P_TEST, OSU_N_TEST)
    path = "ex1/scripts/bcast/varied/csv/bcast1_core_mapping_genoa.csv"
    d = read_pnl(rp(RB[0], path))
    two("rb-genoa-bcast-default-core-pn", src(RB[0], RB[1], path), "us",
        "osu_bcast average latency [us] over p = MPI ranks x n = message size [bytes]. The file is named for algorithm 1 "
        "(basic linear), but its job script ex1/scripts/bcast/varied/bcast1_mappingbycore.sh passes "
        "coll_tuned_use_dynamic_rules false, under which Open MPI ignores the forced algorithm: read it as Open MPI's "
        "default (tuned decision) bcast. " + gen +
        "The time jumps between 8 and 16 KiB at every p (e.g. 0.58 -> 3.51 us at p=2, 8.4 -> 22.2 us at p=16): the test "
        "sizes 16 and 64 KiB lie past it. At p=128, 1 KiB reads 9.29 us against 4.83 us at 512 B.",
        d, OSU_P_TRAIN, upto({n for (_, n) in d}, hi=8192), OSU_P_TEST, OSU_N_TEST)


# ---------------------------------------------------------------------------------------------
# Nefasto1/HPC-Exam-Exercises: FHPC course (Trieste), exercise 1 on ORFEO EPYC nodes: osu_bcast / osu_scatter over
# ranks x message size with several algorithms; the file holds about ten sweeps one after another, raw/ keeps the first
NF = "Nefasto1/HPC-Exam-Exercises", "42d5c8e62f3799aff691a4122d96e37e7b4a87b0", "Exercise 1/results/results_epyc_merged.txt"


def build_nf():
    rows = read_dat_tab(rp(NF[0], NF[2]))
    for name, alg, what, odd in [
            ("nf-epyc-bcast-chain-pn", "broadcast_chain", "osu_bcast with the chain algorithm",
             "At p=128, 16 KiB reads 258 us and 32 KiB 244 us (16 KiB is 4x the 8 KiB value); at p=64, 16 B is slower "
             "than 8 B and 32 B (9.24 us against 7.0 and 8.04), as measured."),
            ("nf-epyc-bcast-bintree-pn", "broadcast_binary_tree", "osu_bcast with the binary-tree algorithm",
             "At p=32, 2 B reads 3.54 us against 2.62-2.68 us at 4-16 B, as measured."),
            ("nf-epyc-scatter-linear-pn", "scatter_basic_linear", "osu_scatter with the basic linear algorithm",
             "Between 8 and 16 KiB the time steps up 9x at p=2 but only 1.3x at p=8 and 16, so the size dependence "
             "changes with p around the training edge.")]:
        d = defaultdict(list)
        for r in rows:
            if r["Algorithm"] == alg:
                d[(int(r["np"]), int(r["Size"]))].append(float(r["Latency (us)"]))
        two(name, src(*NF), "us",
            "%s: average latency [us] over p = MPI ranks x n = message size [bytes] on ORFEO EPYC nodes (the file name "
            "and the repository's plots say EPYC; AMD EPYC 7H12, 128 cores per node, so p = 256 would span two nodes). "
            "The repository has no job script for these EPYC runs (only THIN ones at later commits), so the Open MPI "
            "version, mapping and OSU iteration counts are not known; the algorithm names are the author's. One run per "
            "point. The source file (294 KB) holds about ten sweeps of np = 2..256 x 6 algorithms one after another "
            "(np = 2 starts again at line 962); raw/ keeps only the first sweep's lines of np = 2..128 for the three "
            "algorithms used (CUT), so the other nine sweeps, which could serve as repetitions, are not used. "
            "n = 2 B ... 1 MiB in powers of 2. Train p in {2,4,8,16} x n = 2 B .. 8 KiB; test p = 32, 64, 128 x "
            "n = 1 KiB, 16 KiB, 64 KiB (the points at 1 KiB extrapolate in p only). At p=2 the time steps up about 9x "
            "between 8 and 16 KiB (likely the eager/rendezvous switch), less at larger p, just outside the training box. %s" % (what, odd),
            d, OSU_P_TRAIN, upto({n for (_, n) in d}, hi=8192), OSU_P_TEST, OSU_N_TEST)


def read_dat_tab(path):
    """tab-separated table with a header line"""
    with open(path) as f:
        lines = [l.split("\t") for l in f.read().splitlines() if l.strip()]
    return [dict(zip(lines[0], r)) for r in lines[1:]]


# ---------------------------------------------------------------------------------------------
# ValentinisAlessio/HPC_final_project: FHPC course (Trieste), exercise 1: osu_bcast binary tree on 2 ORFEO EPYC nodes,
# every rank count 1..256 x message sizes 1 B .. 2 KiB
VA = ("ValentinisAlessio/HPC_final_project", "543a9a800c6bc14059d520ac3937dd42863d8fa3",
      "exercise1/results_def/bcast_bintree_results_wu_core.csv")


def build_va():
    d = defaultdict(list)
    for r in read_dicts(rp(VA[0], VA[2])):
        assert r["Algorithm"] == "bin_tree" and r["Allocation"] == "core"
        d[(int(r["Processes"]), int(r["MessageSize"]))].append(float(r["Avg Latency(us)"]))
    two("va-epyc-bcast-bintree-core-pn", src(*VA), "us",
        "osu_bcast average latency [us] over p = MPI ranks x n = message size [bytes], binary tree "
        "(coll_tuned_use_dynamic_rules true, coll_tuned_bcast_algorithm=5), OSU 7.3, Open MPI 4.1.5, --map-by core, "
        "-x 100 -i 10000 (warm-up), on 2 ORFEO EPYC nodes (2x 64-core AMD EPYC 7H12 each) reserved exclusively; the "
        "repository's exercise1/bcast/OSU-bcast-bintree_core.sh writes this file. One run per point. The source file "
        "has every p = 1..256 and n = 1 B .. 2 KiB (12 sizes, 80 KB); raw/ keeps the header and the lines of p = 2, 4, 8, "
        "16, 32, 64, 96 (CUT). Train p in {2,4,8,16} x n = 1 .. 256 B; test p = 32, 64, 96 x n = 512 B, 1 KiB, 2 KiB "
        "(every test point extrapolates in both variables; p = 128, at a socket/node boundary of the mapping, is not used). "
        "Irregular in p as measured (in the source file, outside raw/): p=3 is slower than p=4 (0.28 vs 0.18 us at "
        "small n), and the time drops from p=64 to p=65 (2.39 -> 2.06 us at 1 B), so it does not grow smoothly with p.",
        d, OSU_P_TRAIN, upto({n for (_, n) in d}, hi=256), [32, 64, 96], [512, 1024, 2048])


# ---------------------------------------------------------------------------------------------


BUILDERS = [build_rb, build_nf, build_va]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=2)
