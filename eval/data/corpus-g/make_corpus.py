#!/usr/bin/env python3
"""corpus-g (8 two-variable OSU bcast grids from 3 repositories): builds cases/*.json from the copies of the source files
in raw/, with eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, read_dicts, src, upto  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-g")
rp, two = CORPUS.rp, CORPUS.two

N_TEST = [1024, 16384, 65536]


def raw(repo, path):
    return rp(repo, path)


# ---------------------------------------------------------------------------------------------
# 3sara/HPC_Final: FHPC course (Trieste), exercise 1: osu_bcast with forced algorithms on 2 ORFEO EPYC nodes,
# p = 2..256 (powers of 2) x n = 2 B .. 1 MiB (powers of 2), one run per point
SA = "3sara/HPC_Final", "9a57c69e162f4ccba6cf24cdd873c2f4f07b26e1"
SA_GEN = ("on 2 ORFEO EPYC nodes (2x 64-core AMD EPYC 7H12 each, 128 cores per node; p = 256 fills both), --map-by "
          "core. The repository's only bcast job script kept (exercise1/sbatch/example_bcast_sbatch.sh, same commit) "
          "shows the loop that wrote these files: 2 EPYC nodes, 128 tasks per node, --exclusive, Open MPI 4.1.5, "
          "coll_tuned_use_dynamic_rules true, -x 10000 -i 10000, p = 2^1..2^8, n = 2^1..2^20, the second column of "
          "the OSU output's last line; as kept it runs osu_scatter algorithm 0 into another file, so it is an example, "
          "not the exact script of these files (the file names b1/b5/b6 name the forced bcast algorithm). One run per "
          "point (OSU's average over its iterations). Train p in {2,4,8,16} x n = 2 B .. 8 KiB (13 sizes); test p = 32, "
          "64, 128 x n = 1 KiB, 16 KiB, 64 KiB (p = 256 not used: 16x past the box), so the points at n = 1 KiB "
          "extrapolate in p only. The time jumps between 8 and 16 KiB at p = 2 and 4 (0.56 -> 3.71 us for b1 at p=2), "
          "just outside the box, and between p = 4 and 8 at small n (0.13 -> 1.01 us for b1). ")


def build_sa():
    for alg, name, odd in [
            (1, "basic_linear", "At p = 128, 16 KiB reads 115.4 us against 141.6 us at 8 KiB; at p = 16 and 32 too "
                                "the 16 KiB point is below the 8 KiB one (10.20 vs 10.97, 22.08 vs 24.10 us)."),
            (5, "binary_tree", "At p = 64 the 32 B point jumps (2.33 -> 2.86 us) while p = 128 holds ~3.7-4.2 us "
                               "up to 64 B."),
            (6, "binomial", "At small n, p = 64 is faster than p = 32 (1.71 vs 2.10 us at 2 B); at p = 256, 32 and "
                            "64 KiB read the same (475.9, 475.5 us; not used).")]:
        path = "exercise1/bcast_data/b%d_epyc_map_by_core.csv" % alg
        d = defaultdict(list)
        for r in read_dicts(raw(SA[0], path)):
            d[(int(r["Processes"]), int(r["Size"]))].append(float(r["Latency"]))
        two("sa-epyc-bcast-alg%d-core-pn" % alg, src(SA[0], SA[1], path), "us",
            "osu_bcast average latency [us] over p = MPI ranks x n = message size [bytes], coll_tuned_bcast_algorithm=%d "
            "(%s in Open MPI 4.1's numbering), " % (alg, name) + SA_GEN + odd,
            d, [2, 4, 8, 16], upto({n for (_, n) in d}, hi=8192), [32, 64, 128], N_TEST)


# ---------------------------------------------------------------------------------------------
# giuliofantuzzi/HPC_FinalProject: FHPC course (Trieste), exercise 1: osu_bcast with forced algorithms on ORFEO THIN
# nodes, p = 2..48 (not powers of 2) x n = 1 B .. 1 MiB, for core, socket and node mapping; raw/ keeps the core rows
GF = "giuliofantuzzi/HPC_FinalProject"
GF_FILES = [("Linear", "linear", "30a3db4c71a51556f71799ddb29414ec3bfded70", [24, 36, 48],
             "At p >= 28 the 16 KiB point is below the 8 KiB one (23.70 vs 24.04 us at p=28, 28.95 vs 39.65 at p=48), "
             "while at p <= 24 it is above: the size dependence changes with p right at the box edge."),
            ("BinaryTree", "binarytree", "30a3db4c71a51556f71799ddb29414ec3bfded70", [24, 36, 48],
             "At small n the time drops from p = 24 to 26-28 (2.02 -> 1.70-1.80 us) and from p = 36 to 44-48 "
             "(3.78 -> 3.18-3.34 us), so it does not grow monotonically with p; between 8 and 16 KiB the time "
             "steps up about 2-3x at every p."),
            ("Chain", "chain", "b5fc8d99d31cc3247d40b109af935f71d0a163ff", [16, 20, 24],
             "The file at this commit has p = 2, 4, 8, 12, 14, 16, 20, 24 only (core rows). The first point at p = 12 "
             "reads 1.57 us at 1 B against 0.89 us at 8-16 B (likely a warm-up effect, kept as measured); p = 4 is "
             "faster than p = 2 at small n (0.18-0.19 vs 0.22-0.24 us); at p = 20, 1 B .. 8 B take 2.88 us against "
             "1.35 us at p = 16.")]


def build_gf():
    for alg, stem, commit, ptest, odd in GF_FILES:
        path = "exercise1/bcast_THIN/bcast_results/bcast_%s_complete.csv" % stem
        d = defaultdict(list)
        for r in read_dicts(raw(GF, path)):
            assert r["Algorithm"] == alg and r["Allocation"] == "core"
            d[(int(r["Processes"]), int(r["MessageSize"]))].append(float(r["Latency"]))
        two("gf-thin-bcast-%s-core-pn" % stem, src(GF, commit, path), "us",
            "osu_bcast average latency [us] over p = MPI ranks x n = message size [bytes], algorithm '%s' as the "
            "author names it (Open MPI tuned bcast), rows with Allocation = core, on ORFEO THIN nodes per the "
            "directory name (2x 12-core Intel Xeon Gold 6126, 24 cores per node, so p > 24 spans two nodes). The "
            "builder did not find the job script that wrote this file, so the Open MPI and OSU versions and the "
            "iteration counts are unknown. One run per point. The source file also has socket and node mapping rows "
            "(not used); raw/ keeps the header and the core rows (CUT). Train p in {2,4,8,12} x n = 1 B .. 8 KiB "
            "(14 sizes); test p = %s x n = 1 KiB, 16 KiB, 64 KiB (the points at 1 KiB extrapolate in p only). "
            % (alg, ", ".join(str(p) for p in ptest)) + odd,
            d, [2, 4, 8, 12], upto({n for (_, n) in d}, hi=8192), ptest, N_TEST)


# ---------------------------------------------------------------------------------------------
# Gabrynho/HPC_Final: FHPC course (Trieste), exercise 1: osu_bcast with forced algorithms 1, 2, 3, 5 on 2 ORFEO EPYC
# nodes, p = 2, 6, 10, ... x n = 1 B .. 1 MiB, avg/min/max per point; raw/ keeps algorithms 2 and 3 at 8 rank counts
GB = "Gabrynho/HPC_Final", "96b279f003597f34190198e1f7bebb408b39c176", "Exercise_1/results/epyc_core_result.csv"


def build_gb():
    rows = read_dicts(raw(GB[0], GB[2]))
    for alg, name, odd in [
            (2, "chain", "At p = 2, 16 KiB reads 5.82 us against 4.98 us at 32 KiB; at small n, p = 14 is faster than "
                         "p = 10 (1.13 vs 1.20 us at 1 B)."),
            (3, "pipeline", "Max latency is 1.5-2x the average at p >= 10 (e.g. 6.90 vs 3.85 us at p=22, 1 B), "
                            "min about 0.2 us: the ranks finish far apart. Between 8 and 16 KiB the time steps up "
                            "3-10x (10x at p=2, about 3x from p=10).")]:
        d = defaultdict(list)
        for r in rows:
            if r["Type"] == "Broadcast" and int(r["Algorithm"]) == alg:
                d[(int(r["NP"]), int(r["Size"]))].append(float(r["Avg_Latency"]))
        two("gb-epyc-bcast-%s-core-pn" % name, src(*GB), "us",
            "osu_bcast average latency [us] (column Avg_Latency) over p = MPI ranks x n = message size [bytes], "
            "coll_tuned_bcast_algorithm=%d (%s), on 2 ORFEO EPYC nodes (2x 64-core AMD EPYC 7H12 each). The "
            "repository's Exercise_1/epyc_benchmark_core.sh (at commit 04c836dc960e) writes this file with Open MPI "
            "4.1.6, OSU 7.5, --map-by core, dynamic rules true, -i 1000 -x 100 -f, but for p = 2..256 in steps of 2, "
            "while the file has p = 2, 6, 10, ... (steps of 4): it was written by another version of that script. "
            "One run per point. The source file (635 KB) holds broadcast algorithms 1, 2, 3, 5 and reduce rows; raw/ "
            "keeps the header and the lines of algorithms 2 and 3 at p = 2, 6, 10, 14, 22, 26, 30, 34 in the file's "
            "order (CUT). Train p in {2,6,10,14} x n = 1 B .. 8 KiB (14 sizes); test p = 22, 26, 30, 34 x n = 1 KiB, "
            "16 KiB, 64 KiB (the points at 1 KiB extrapolate in p only). " % (alg, name) + odd,
            d, [2, 6, 10, 14], upto({n for (_, n) in d}, hi=8192), [22, 26, 30, 34], N_TEST)


# ---------------------------------------------------------------------------------------------


BUILDERS = [build_sa, build_gf, build_gb]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=2, max_per_repo=4)
