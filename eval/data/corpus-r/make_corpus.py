#!/usr/bin/env python3
"""corpus-r (4 two-variable grids from 1 repository): builds cases/*.json from the copies of the source files in
raw/, with eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, read_dicts, src, upto  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-r")
rp, two = CORPUS.rp, CORPUS.two


# ---------------------------------------------------------------------------------------------
# EdoardoCortolezzis/HPC-Project-2023: Trieste FHPC course (2023/24), exercise 1 on ORFEO, 2 EPYC nodes. The job
# scripts ex1/src/{bcast,gather}_var_size.sh loop p = 2^1 .. 2^8 MPI ranks x n = 2^1 .. 2^10 bytes and write one
# CSV per forced Open MPI algorithm, 'Processes,Size,Latency' (the osu_* average latency in us, one run per point).
EC = "EdoardoCortolezzis/HPC-Project-2023"
EC_RES = "fa12d292da1f98d76304321d7ba170981341ef88"   # commit of the result CSVs
EC_SRC = "877e6b60a9f3cd2a92d3239283b4f7ae8ede5f4a"   # commit of the job scripts

P_TRAIN = [2, 4, 8, 16]
P_TEST = [32, 64, 128]          # 8x the largest training p at most; p = 256 (16x) is left out by the rule
N_TRAIN_HI = 128                # training sizes 2 .. 128 B (7 sizes)
N_TEST = [128, 512, 1024]       # the points at 128 B extrapolate in p only; 1024 B is 8x past the box

EC_MACHINE = ("on 2 ORFEO EPYC nodes (FHPC course, Trieste; the job script asks --nodes=2 --ntasks-per-node=128, "
              "so p <= 128 fits on one node and p = 256 would span both; the node CPU is not named in the files "
              "read, the earlier corpora give ORFEO EPYC nodes as 2x 64-core AMD EPYC 7H12), Open MPI 4.1.6 "
              "('module load openMPI/4.1.6'), mpirun --map-by core, coll_tuned_use_dynamic_rules true, "
              "-x 5000 -i 5000 (5000 warm-up and 5000 timed iterations per point); the OSU version is not named "
              "in the files read. ")

EC_CASES = [
    # (case name, csv, collective, algorithm number, algorithm name as Open MPI 4.1 numbers it, script, odd)
    ("ec-epyc-bcast-alg1-linear-pn", "bcast1_var_core.csv", "osu_bcast", 1, "basic linear",
     "ex1/src/bcast_var_size.sh",
     "The 16-rank row holds one outlier: 14.57 us at 512 B against 3.23 at 256 B and 3.91 at 1 KiB (outside the "
     "box, not a test point). Within every p the latency steps up between 64 and 128 B (p=16: 1.87 -> 3.19 us), "
     "so the box's top size already lies past that step. p = 2 and 4 sit near 0.13-0.25 us, p = 8 near 1 us: "
     "the jump from 4 to 8 ranks is large."),
    ("ec-epyc-bcast-alg3-pipeline-pn", "bcast3_var_core.csv", "osu_bcast", 3, "pipeline",
     "ex1/src/bcast_var_size.sh",
     "p = 256 (not used) is only slightly above p = 128 (28.8 against 23.1 us at 2 B). Small steps between "
     "16 and 32 B and between 64 and 128 B at most p."),
    ("ec-epyc-gather-alg1-linear-pn", "gather1_var_core.csv", "osu_gather", 1, "basic linear",
     "ex1/src/gather_var_size.sh",
     "At p = 128 the latency is flat over n (6.08-6.55 us) and higher than at p = 256 (3.28-3.96 us, not used), "
     "so p does not grow monotonically at the top. A step between 64 and 128 B at p <= 32."),
    ("ec-epyc-gather-alg2-binomial-pn", "gather2_var_core.csv", "osu_gather", 2, "binomial",
     "ex1/src/gather_var_size.sh",
     "Small values (0.13-2.6 us) with a rough p = 64 row (1.31 us at 64 B against 1.03 at 128 B and 0.96 at "
     "32 B); p = 256 (not used) is below p = 128."),
]


def read_ec(path):
    """{(p, n): [latency us]} from a 'Processes,Size,Latency' CSV; a row with an empty latency is skipped."""
    d = defaultdict(list)
    for r in read_dicts(path):
        if r["Latency"].strip():
            d[(int(r["Processes"]), int(r["Size"]))].append(float(r["Latency"]))
    return d


def build_ec():
    for name, csv, bench, alg, algname, script, odd in EC_CASES:
        path = "ex1/results/" + csv
        d = read_ec(rp(EC, path))
        two(name, src(EC, EC_RES, path) + " ; job script %s @%s %s" % (EC, EC_SRC, script), "us",
            "%s average latency [us, OSU's 'Avg Latency(us)' column as the script's awk takes it] over p = MPI "
            "ranks x n = message size [bytes], with Open MPI's tuned %s algorithm %d (%s) forced "
            "(--mca coll_tuned_%s_algorithm %d), " % (bench, bench[4:], alg, algname, bench[4:], alg) + EC_MACHINE
            + "One run per point (OSU's average over its 5000 iterations); the file holds p = 2, 4, ..., 256 x "
            "n = 2, 4, ..., 1024 B. Train p in {2,4,8,16} x n = 2 .. 128 B (7 sizes); test p = 32, 64, 128 x "
            "n = 128, 512, 1024 B (the points at 128 B extrapolate in p only; p = 256 is 16x past the box and "
            "left out). " + odd,
            d, P_TRAIN, upto({n for (_, n) in d}, hi=N_TRAIN_HI), P_TEST, N_TEST)


# ---------------------------------------------------------------------------------------------


BUILDERS = [build_ec]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=2, max_per_repo=4)
