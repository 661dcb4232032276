#!/usr/bin/env python3
"""corpus-q (two-variable grids of published measurements): builds cases/*.json from the copies of the source files
in raw/, with eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, read_dicts, read_rows, src, upto  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-q")
rp, two = CORPUS.rp, CORPUS.two

# The OSU cut, fixed before any value beyond it was looked at, as in corpus-m: train p in {2,4,8,16} x n = 2 B .. 8 KiB;
# test p = 32, 64, 128 x n = 1 KiB, 16 KiB, 64 KiB (64 KiB is 8x past the box, 128 ranks 8x past 16).
P_TRAIN, P_TEST, N_TEST = [2, 4, 8, 16], [32, 64, 128], [1024, 16384, 65536]


# ---------------------------------------------------------------------------------------------
# aleminutolo/HPC_Final_Exam: FHPC course (Trieste), exercise 1: osu_bcast with forced algorithms on 2 ORFEO EPYC nodes,
# map-by core; each CSV holds p = 2, 4, 6, ..., 256 (steps of 2) x n = 2 B .. 1 MiB, one run per point
AL = "aleminutolo/HPC_Final_Exam", "570ff9c8b487e8fc99e005a98cd40c697b035047"

AL_GEN = ("on 2 ORFEO EPYC nodes (FHPC course, Trieste; 2x 64-core AMD EPYC 7H12 per node per the earlier corpora's "
          "notes, not this repository; so p <= 128 fits on one node). The repository's Ex1/sbatches/bcast1.sh (same "
          "commit, kept in raw/) is an EPYC job (--nodes=2 --ntasks-per-node=128, Open MPI 4.1.6, mpirun --map-by core, "
          "coll_tuned_use_dynamic_rules true, -x 10000 -i 10000, the Avg Latency column); it loops p = 2, 4, ..., 256 x "
          "n = 2 B .. 256 KiB, but the CSV holds p = 2, 4, 6, ..., 256 in steps of 2 and n up to 1 MiB, so the job that "
          "wrote it was a later variant of that script (not in the files read). One run per point. raw/ keeps the header "
          "and the lines at p = 2, 4, 8, 16 (n = 2 B .. 8 KiB) and p = 32, 64, 128 (n = 1, 16, 64 KiB) in the file's "
          "order (CUT; 61 of the file's about 2560 data lines). Train p in {2,4,8,16} x n = 2 B .. 8 KiB (13 sizes); test "
          "p = 32, 64, 128 x n = 1 KiB, 16 KiB, 64 KiB (the points at 1 KiB extrapolate in p only). ")


def read_al(name):
    d = defaultdict(list)
    for r in read_dicts(rp(AL[0], "Ex1/csv", name)):
        d[(int(r["Processes"]), int(r["Size"]))].append(float(r["Latency"]))
    return d


def build_al():
    for alg, what, odd in [
            (1, "algorithm 1 (basic linear)",
             "Between 8 and 16 KiB the latency jumps at p = 2 and 4 (0.54 -> 2.25 us, 1.09 -> 2.79 us) but barely moves "
             "or falls at larger p (p = 16: 10.97 -> 11.08; p = 64: 55.73 -> 48.71), a protocol switch at the box's "
             "edge. The 2 B latency steps from 0.13 us at p = 4 to 0.96 at p = 8 and 1.57 at p = 16."),
            (2, "algorithm 2 (chain)",
             "Between 8 and 16 KiB the latency jumps 2-4x at every p (p = 16: 5.91 -> 13.05 us; p = 64: 14.0 -> 38.77), "
             "a protocol or segmentation switch just outside the box, so the 16 and 64 KiB test points lie past it. "
             "The 2 B latency is 0.16, 0.15, 0.81, 1.08 us at p = 2, 4, 8, 16; in the file p = 32 (1.78 us) lies below "
             "p = 30 and 34 (1.89, 2.67).")]:
        name = "bcast%d_core.csv" % alg
        two("al-epyc-bcast%d-pn" % alg, src(AL[0], AL[1], "Ex1/csv/" + name), "us",
            "osu_bcast average latency [us] over p = MPI ranks x n = message size [bytes], Open MPI's bcast %s forced "
            "(coll_tuned_bcast_algorithm %d), " % (what, alg) + AL_GEN + odd,
            read_al(name), P_TRAIN, upto({n for (_, n) in read_al(name)}, hi=8192), P_TEST, N_TEST)


# ---------------------------------------------------------------------------------------------
# eno-sim/HPC_final_project: FHPC course (Trieste), the game-of-life exercise: Conway's game of life with OpenMP on one
# ORFEO THIN node, one file per grid size (10000 .. 40000 per side), columns the mean times of the ordered and static
# evolutions over threads_per_socket = 1 .. 12
EN = "eno-sim/HPC_final_project", "2b756c044676dc857c60ddc224d55833c6ac54cd"
EN_SIZES = [10000, 20000, 30000, 40000]


def build_en():
    for col, what, odd in [
            ("ordered_mean", "the 'ordered' evolution (cells updated in sequence, inherently serial)",
             "The ordered evolution does not speed up with threads: at every size the time is flat or grows slowly "
             "with p (10000: 4.64 s at 1 thread, 5.38 s at 12; 40000: 50.2 s at 1, 49.1 at 4, 49.9 at 12)."),
            ("static_mean", "the 'static' evolution (all cells updated from the previous state, parallel)",
             "The static evolution speeds up with threads with diminishing returns (10000: 2.89 s at 1 thread, 1.41 s "
             "at 6; 40000: 26.4 s at 1, 6.88 s at 6).")]:
        d = defaultdict(list)
        for n in EN_SIZES:
            rows = read_rows(rp(EN[0], "exercise1/Thin/OMP_scalability", "omp_%d.csv" % n))
            head, body = rows[0], rows[1:]
            k = head.index(col)
            for r in body:
                d[(int(r[0]), n)].append(float(r[k]))
        two("en-thin-life-%s-tn" % col.split("_")[0], " ; ".join(
                src(EN[0], EN[1], "exercise1/Thin/OMP_scalability/omp_%d.csv" % n) for n in EN_SIZES), "s",
            "Conway's game of life (FHPC course, Trieste, the game-of-life exercise) with OpenMP, %s: the column %s [s] "
            "over p = the files' threads_per_socket x n = grid side (an n x n grid; the four files omp_10000 .. "
            "omp_40000.csv, same commit, copied verbatim), on ORFEO THIN nodes (2x 12-core Intel Xeon Gold 6126 per "
            "the earlier corpora's notes, not this repository; whether the total thread count is p or 2p was not "
            "checked in the job scripts). The value is a mean over an unstated number of runs and steps (the file's "
            "name says mean; the runs are not in the file): one value per point. Only four sizes exist, so the box "
            "holds all of them and the test points extrapolate in p only: train p = 1 .. 6 (the first half of the "
            "sweep) x n = 10000, 20000, 30000, 40000; test p = 8, 10, 12 at the same four sizes. The file "
            "omp_30000.csv begins with a space before its header. " % (what, col) + odd,
            d, [1, 2, 3, 4, 5, 6], EN_SIZES, [8, 10, 12], EN_SIZES)


# ---------------------------------------------------------------------------------------------


BUILDERS = [build_al, build_en]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=2, max_per_repo=4)
