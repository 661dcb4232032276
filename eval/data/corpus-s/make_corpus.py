#!/usr/bin/env python3
"""corpus-s (two-variable grids of published measurements): builds cases/*.json from the copies of the source
files in raw/, with eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, read_dicts, src  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-s")
rp, two = CORPUS.rp, CORPUS.two


# ---------------------------------------------------------------------------------------------
# paolodr98/Final-assigments-FHPC-course-2022-2023: Trieste FHPC course 2022/23, exercise 1 (Conway's game of life,
# MPI + OpenMP) on ORFEO THIN nodes. exercise1/data/open_mp/{static,ordered}/THIN_<evolution>_<MPI tasks>.csv hold
# 'ksize,threads,time': the time [s] the program prints for 100 evolution steps on a ksize x ksize grid, over
# OMP_NUM_THREADS = 1, 2, 4, ..., 12 x ksize = 100, 500, 1000, 5000, 10000, 5 runs per point (the job script's
# 'for j in {1..5..1}'). The number after the evolution in the file name is the number of MPI tasks (the job script
# writes THIN_static_$mpi_task.csv).
PD = "paolodr98/Final-assigments-FHPC-course-2022-2023"
PD_SCRIPT = ("exercise1/bash_file/open_mp_static_THIN.sh", "80752dd4635c023df78c5486e0c310796a0b7e08")

P_TRAIN = [1, 2, 4, 6]              # threads
N_TRAIN = [100, 500, 1000, 5000]    # grid side
P_TEST = [1, 2, 4, 6, 8, 10, 12]    # test: every (p, n) of the file outside the box (12 = 2x 6; 10000 = 2x 5000)
N_TEST = [100, 500, 1000, 5000, 10000]

PD_MACHINE = ("ORFEO THIN partition (FHPC course, Trieste; the static job script asks --nodes=2 "
              "--ntasks-per-node=2 --cpus-per-task=12 --exclusive, module openMPI/4.1.6/gnu/14.2.1, mpirun --map-by "
              "node --bind-to socket, OMP_PLACES=cores, OMP_PROC_BIND=close; the earlier corpora give THIN nodes as "
              "2x 12-core Intel Xeon Gold 6126, not this repository). ")

PD_CASES = [
    # (case name, path, commit, evolution, MPI tasks, odd)
    ("pd-thin-life-ordered-1task-pn", "exercise1/data/open_mp/ordered/THIN_ordered_1.csv",
     "c8a5e1a787b0d4af221e2a4656da15f6c65caa68", "ordered", 1,
     "The ordered evolution updates cells one after another, so it does not speed up with threads: the time is flat "
     "over p at every size (e.g. about 2.47 s at ksize 1000 for every thread count). The job script of the ordered "
     "runs (open_mp_ordered_THIN.sh) was not read; the setting is taken to be the static script's. "),
    ("pd-thin-life-static-1task-pn", "exercise1/data/open_mp/static/THIN_static_1.csv",
     "80752dd4635c023df78c5486e0c310796a0b7e08", "static", 1,
     "Outliers kept as measured, all at small grids: 0.285 s against about 0.025 s at ksize 100, p = 4; 0.84 s "
     "against 0.62 s at ksize 500, p = 1; 0.30 s against 0.15 s at ksize 500, p = 6. At ksize 100 the p = 2 runs "
     "are slower than p = 1. "),
    ("pd-thin-life-static-2tasks-pn", "exercise1/data/open_mp/static/THIN_static_2.csv",
     "80752dd4635c023df78c5486e0c310796a0b7e08", "static", 2,
     "Two MPI tasks (--map-by node: one per THIN node), each with p threads, so 2p cores in all. ksize 100 is flat "
     "and noisy (0.026-0.092 s). "),
    ("pd-thin-life-static-3tasks-pn", "exercise1/data/open_mp/static/THIN_static_3.csv",
     "80752dd4635c023df78c5486e0c310796a0b7e08", "static", 3,
     "Three MPI tasks over two nodes, each with p threads, so 3p cores in all. ksize 100 is flat and noisy "
     "(0.023-0.066 s); one outlier at ksize 500, p = 6 (0.215 s against about 0.10 s). "),
]


def read_pd(path):
    """{(threads, ksize): [time s, ...]} from a 'ksize,threads,time' CSV, every run kept."""
    d = defaultdict(list)
    for r in read_dicts(path):
        d[(int(r["threads"]), int(r["ksize"]))].append(float(r["time"]))
    return d


def build_pd():
    for name, path, commit, evol, tasks, odd in PD_CASES:
        d = read_pd(rp(PD, path))
        two(name, src(PD, commit, path) + " ; job script %s @%s %s" % (PD, PD_SCRIPT[1], PD_SCRIPT[0]), "s",
            "Game of life (FHPC 2022/23 exercise 1), %s evolution, hybrid MPI + OpenMP with %d MPI task(s): time [s] "
            "the program reports for 100 evolution steps, over p = OpenMP threads per MPI task x n = grid side "
            "(ksize; the grid has n^2 cells). " % (evol, tasks) + PD_MACHINE
            + "5 runs per point, all kept as training rows; the test value is their median. The file holds "
            "p = 1, 2, 4, 6, 8, 10, 12 x n = 100, 500, 1000, 5000, 10000. Train p in {1,2,4,6} x n in "
            "{100,500,1000,5000}; test: every other point of the file (p = 8, 10, 12 at every n, and n = 10000 at "
            "every p), at most 2x past the box in each variable. " + odd,
            d, P_TRAIN, N_TRAIN, P_TEST, N_TEST)


# ---------------------------------------------------------------------------------------------


BUILDERS = [build_pd]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=2, max_per_repo=4)
