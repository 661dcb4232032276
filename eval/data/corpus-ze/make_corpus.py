#!/usr/bin/env python3
"""corpus-ze (two-variable grids only): builds cases/*.json from the copies of the source files in raw/, with
eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]

Applications over problem size x ranks, not OSU grids: README.md says what was searched, what was used and why,
and what was left out. A later helper can add build_* functions here in the same style.
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, src  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-ze")
rp, two = CORPUS.rp, CORPUS.two


# ---------------------------------------------------------------------------------------------
# yiluchen1066/HPC_Project6: a course project on CSCS's mini-stencil "pde-miniapp" (Ben Cumming's 2-D Fisher
# equation, implicit time stepping, Newton + CG, MPI domain decomposition), run by pde-miniapp/run.sh:
# for n in 128, 256, 512, 1024 (grid n x n) and p = 1, 2, ..., 32 MPI ranks, `mpirun -np p ./main n 100 0.005`
# (100 time steps up to t = 0.005), each run appending one tab-separated line
# size, np, Newton iterations, CG iterations, time [s], CG iterations per second. Two files, one run per point,
# each headed by lscpu's "Model name" line: nnode_mem1024.data (AMD EPYC 7H12) and 1node_mem1024.data (EPYC 7742).
# The cut, as corpus-u's for a sweep with only four sizes (ga-thin-life-static-mpi-pn): all four n are in the box,
# the ranks train at the four smallest (1, 2, 3, 4) and test at the largest of the sweep not above 2x, 4x, 8x the
# box's 4 (8, 16, 32), so the test points extrapolate in p only.
YL = "yiluchen1066/HPC_Project6", "d4598603d73fe7f8eab06c45bbe529175a0ca2cd"
YL_HEADER = ["size", "np", "Newton", "CG", "time", "iters_cg/timespent"]
YL_P_TRAIN, YL_P_TEST = [1, 2, 3, 4], [8, 16, 32]
YL_N = [128, 256, 512, 1024]

YL_FILES = [
    # (case name, file, cpu in the file's first line, odd)
    ("yl-epyc7h12-fisher-mpi-pn", "nnode_mem1024.data", "AMD EPYC 7H12 64-Core Processor",
     "The file name says 'nnode' (several nodes?) and the script's fname is 'nnode_mem1024', but the job script "
     "with the Slurm request was not found, so whether ranks were spread over nodes is not known. Seen while "
     "copying: at n = 1024 the time falls by 1.35x from p = 1 to 2 and hardly at all from 2 to 4 (64.86, 61.61, "
     "61.22 s), then falls superlinearly between p = 12 and 24 (29.10 -> 2.74 s; 47x below p = 1 at p = 32), "
     "presumably when each rank's part fits in cache; at n = 512 it falls 1.75x from 1 to 2 and 2.4x from 4 to 8. "
     "At n = 128 the times flatten near 0.024-0.03 s from p = 12 on. Isolated slow runs: p = 29 at n = 256 "
     "(0.128 s against 0.064 at 28 and 30) and at n = 512 (0.50 s), p = 19 at n = 512; none is a test rank."),
    ("yl-epyc7742-fisher-mpi-pn", "1node_mem1024.data", "AMD EPYC 7742 64-Core Processor",
     "The file name says '1node' (one node, presumed). Seen while copying: the same shape as the 7H12 file; at "
     "n = 1024 the time falls 1.36x from p = 1 to 2 and barely from 2 to 4 (64.27, 61.15, 60.25 s), then "
     "superlinearly between p = 12 and 24 (28.45 -> 2.56 s); isolated slow runs at p = 29 (n = 256, 512) and "
     "p = 19, 25, 31 (n = 512); none is a test rank."),
]


def read_yl(path, cpu):
    """the tab-separated run lines -> {(p, n): [seconds]}"""
    with open(path) as f:
        lines = f.read().splitlines()
    assert lines[0].startswith("Model name:") and lines[0].endswith(cpu), lines[0]
    assert lines[1].split("\t") == YL_HEADER, lines[1]
    d = defaultdict(list)
    for line in lines[2:]:
        r = line.split("\t")
        assert len(r) == 6, line
        d[(int(r[1]), int(r[0]))].append(float(r[4]))
    return d


def build_yl():
    for name, fn, cpu, odd in YL_FILES:
        path = "pde-miniapp/" + fn
        two(name, src(YL[0], YL[1], path), "s",
            "CSCS mini-stencil 'pde-miniapp' (2-D Fisher equation, implicit Euler, Newton iterations with a "
            "matrix-free CG, MPI domain decomposition), wall time [s] of the time loop (MPI_Wtime around it, per "
            "the repository's main.cpp as read at 08a563b4) over p = MPI ranks x n = grid side (an n x n grid, "
            "100 time steps to t = 0.005; the work per step grows as n^2 and the CG iterations per run grow about "
            "linearly in n, 1510 at n = 128 to 10482 at 1024, so the total work grows about as n^3). A course "
            "project (HPC course 'Project 6', a student's repository); the run script pde-miniapp/run.sh (kept "
            "in raw/, at 072189f5) runs mpirun -np p ./main n 100 0.005 for n = 128, 256, 512, 1024 and p = 1 .. 32 "
            "and writes lscpu's Model name line first: here '%s'. The main.cpp read prints its result as text, "
            "not as this file's tab line, so the runs came from another version of the program; the MPI library, "
            "compiler and node count are not in the files read. One run per point; the spread between runs is "
            "unknown. The Newton and CG iteration counts differ slightly between rank counts (e.g. 10482 .. 10714 "
            "CG iterations at n = 1024), so the work is not exactly the same at every p. raw/ keeps the file "
            "verbatim. Only four grid sides exist, so all four are in the box and the test points extrapolate in "
            "p only: train p in {1,2,3,4} (the sweep's four smallest) x n = 128, 256, 512, 1024; test p = 8, 16, "
            "32 (the largest of the sweep not above 2x, 4x, 8x the box's 4) x the same four n. " % cpu + odd,
            read_yl(rp(YL[0], path), cpu), YL_P_TRAIN, YL_N, YL_P_TEST, YL_N)


# ---------------------------------------------------------------------------------------------


BUILDERS = [build_yl]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=2, max_per_repo=4)
