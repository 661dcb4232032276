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


def build_al_more():
    """The other two *_core.csv files of the same repository, taken in the listing order after the first two (bcast3, then
    the first gather file, gather1), chosen before any of their values was read."""
    bcast3_odd = (
        "Between 8 and 16 KiB the latency jumps about 3-5x at every p in the box (p = 2: 0.57 -> 2.34 us; p = 16: 9.11 "
        "-> 30.61 us), a protocol or segmentation switch just outside the box, so the 16 and 64 KiB test points lie "
        "past it. The 2 B latency is 0.17, 0.24, 1.23, 2.76 us at p = 2, 4, 8, 16. The job script of this file "
        "(Ex1/sbatches/bcast3.sh) was not read; the setup is taken to be that of bcast1.sh.")
    two("al-epyc-bcast3-pn", src(AL[0], AL[1], "Ex1/csv/bcast3_core.csv"), "us",
        "osu_bcast average latency [us] over p = MPI ranks x n = message size [bytes], Open MPI's bcast algorithm 3 "
        "(pipeline) forced (coll_tuned_bcast_algorithm 3), " + AL_GEN + bcast3_odd,
        read_al("bcast3_core.csv"), P_TRAIN, upto({n for (_, n) in read_al("bcast3_core.csv")}, hi=8192), P_TEST,
        N_TEST)
    gather_gen = AL_GEN.replace(
        "The repository's Ex1/sbatches/bcast1.sh (same commit, kept in raw/) is an EPYC job",
        "The repository's Ex1/sbatches/gather1.sh (same commit, kept in raw/) is an EPYC job").replace(
        "n = 2 B .. 256 KiB, but the CSV", "n = 2 B .. 256 KiB with ../../osu_gather and coll_tuned_gather_algorithm "
        "1, -x 10000 -i 10000 as well, but the CSV")
    assert gather_gen != AL_GEN
    gather_odd = (
        "The 2 B latency is 0.21, 0.18, 0.33, 0.94 us at p = 2, 4, 8, 16 (p = 4 below p = 2). Within the box the "
        "latency grows smoothly with n from about 2 KiB on (p = 16: 1.68 us at 2 KiB, 5.44 us at 8 KiB); osu_gather "
        "reports the latency of the whole gather, whose data at the root grow with p x n.")
    two("al-epyc-gather1-pn", src(AL[0], AL[1], "Ex1/csv/gather1_core.csv"), "us",
        "osu_gather average latency [us] over p = MPI ranks x n = message size per rank [bytes], Open MPI's gather "
        "algorithm 1 (basic linear) forced (coll_tuned_gather_algorithm 1), " + gather_gen + gather_odd,
        read_al("gather1_core.csv"), P_TRAIN, upto({n for (_, n) in read_al("gather1_core.csv")}, hi=8192), P_TEST,
        N_TEST)


# ---------------------------------------------------------------------------------------------
# Anankin12/HPC-Final: FHPC course (Trieste), exercise 1, on 2 ORFEO THIN nodes (Intel Xeon Gold 6126, 2x 12 cores per
# node per the job script), Open MPI 4.1.5 with UCX, OSU 7.3: osu_bcast with forced algorithms, p = 2 .. 48 in steps of
# 1 x n = 1 B .. 1 MiB, mappings core, socket, node; one run per point. One file per algorithm, many timestamped runs.
AN = "Anankin12/HPC-Final"
# (algorithm in the file, case suffix, what, the file with the latest timestamp for that algorithm, its commit)
AN_FILES = [
    ("default", "default", "Open MPI's default choice (coll_tuned_bcast_algorithm 0)",
     "bcast_default_18052024195447.csv", "955e096d144d0649817bea67ffc614b82dfe154a"),
    ("chain", "chain", "the chain algorithm", "bcast_chain_18052024201236.csv",
     "67bb904e073297dab4f0b7db195739d201a30c20"),
    ("binary_tree", "bintree", "the binary tree algorithm", "bcast_binary_tree_18052024195450.csv",
     "955e096d144d0649817bea67ffc614b82dfe154a"),
    ("linear", "linear", "the basic linear algorithm", "bcast_linear_20052024143351.csv",
     "dd71e935078778859652a3e774630e53ac2c1e2d"),
]
AN_P_TEST = [32]  # the files stop at p = 48, so 64 and 128 do not exist


def read_an(name):
    d = defaultdict(list)
    for r in read_dicts(rp(AN, "Ex1/bcast/results_bcast", name)):
        if r["Allocation"] == "core":
            d[(int(r["Processes"]), int(r["MessageSize"]))].append(float(r["Latency"]))
    return d


def build_an():
    for alg, tag, what, name, commit in AN_FILES:
        data = read_an(name)
        two("an-thin-bcast-%s-pn" % tag, src(AN, commit, "Ex1/bcast/results_bcast/" + name), "us",
            "osu_bcast average latency [us] over p = MPI ranks x n = message size [bytes], %s (the file's Algorithm "
            "column '%s'), --map-by core (the file's Allocation 'core' rows only), on 2 ORFEO THIN nodes (FHPC course, "
            "Trieste). The repository's Ex1/bcast/bcast_basic.sh (commit 02fa8065184165571ae195bb0a58f194c8a1f076, kept "
            "verbatim in raw/; it is the default-algorithm job, the chain, binary-tree and linear jobs were not read) "
            "runs on the THIN partition with --nodes=2 --ntasks-per-node=24 (Intel Xeon Gold 6126, 12 cores per "
            "socket, per its comments), Open MPI 4.1.5 with OMPI_MCA_pml=ucx, OSU micro-benchmarks 7.3 osu_bcast -x "
            "1000 -i 1000 over its default sizes (1 B .. 1 MiB), p = 2 .. 48 in steps of 1, mappings core, socket, "
            "node; the value is OSU's average latency over the iterations of one run: one value per point. Of the "
            "repository's several timestamped files per algorithm the one with the latest timestamp in its name was "
            "taken, at the commit the index returned for it. raw/ keeps the header and the core rows at p = 2, 4, 8, "
            "16 (n = 1 B .. 8 KiB) and p = 32 (n = 1, 16, 64 KiB) in the file's order (CUT). Train p in {2,4,8,16} x "
            "n = 1 B .. 8 KiB (14 sizes); test p = 32 (the files stop at p = 48) x n = 1 KiB, 16 KiB, 64 KiB (the "
            "point at 1 KiB extrapolates in p only). With --map-by core and 24 ranks per node the whole box (p <= "
            "16) runs on one node, across its two sockets from p = 13 on, while p = 32 puts 8 ranks on the second "
            "node: the test points cross a node boundary the box never shows. Between 8 and 16 KiB the latency at "
            "p = 2 rises 2-3x (UCX protocol change), so the 16 and 64 KiB test points lie past it."
            % (what, alg),
            data, P_TRAIN, upto({n for (_, n) in data}, hi=8192), AN_P_TEST, N_TEST)


# ---------------------------------------------------------------------------------------------


BUILDERS = [build_al, build_en, build_al_more, build_an]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=2, max_per_repo=4)
