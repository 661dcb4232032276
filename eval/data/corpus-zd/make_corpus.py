#!/usr/bin/env python3
"""corpus-zd (two-variable grids only): builds cases/*.json from the copies of the source files in raw/, with
eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]

Applications over problem size x ranks, not OSU grids: README.md says what was searched, what was used and why,
and what was left out. A later helper can add build_* functions here in the same style.
"""
import os
import re
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, src  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-zd")
rp, two = CORPUS.rp, CORPUS.two


# ---------------------------------------------------------------------------------------------
# leoposc/uibk-hpc: Innsbruck HPC course 2023 (the same student's repository as corpus-y's lp-lcc-heat1d-mpi-pn,
# another program), week 3, exercise 1: an MPI 2-D heat stencil, the N x N room split into p strips of N/p rows,
# halo rows exchanged every step, blocking (output-parallel-b.log) or non-blocking (output-parallel-nb.log).
# Each log holds one run per (N, p), N = 192, 288, ..., 768 (steps of 96) outer, p = 2, 4, 8, 16, 32, 96 inner (the
# program aborts unless p divides N, which rules out 64 for N = 288 etc.), each run an ASCII heat map every 10000
# steps and one line "$!N_<N>{<p>, <seconds>}" printed by rank 0 (MPI_Wtime after MPI_Init to before MPI_Finalize).
# raw/ keeps only timing lines (CUT, in the file's order): every run's was located by its predicted offset and read.
# The cut, applied mechanically like corpus-y's for this repository: train p in {2,4,8,16} x N in {192,288,384,480}
# (the four smallest of each); test p in {16,32,96} x N in {480,576,672,768} minus the box (11 points; the p = 16
# points extrapolate in N only, the N = 480 points in p only; 96 is 6x the box's 16, 768 is 1.6x its 480).
LP = "leoposc/uibk-hpc"
LP_DIR = "week03/ex1/"
LP_LINE = re.compile(r"^\$!N_(\d+)\{(\d+), ([0-9.]+)\}$")
LP_P_TRAIN, LP_N_TRAIN = [2, 4, 8, 16], [192, 288, 384, 480]
LP_P_TEST, LP_N_TEST = [16, 32, 96], [480, 576, 672, 768]

LP_FILES = [
    # (case name, file, commit, variant, copy, odd)
    ("lp-heat2d-mpi-blocking-pn", "output-parallel-b.log", "97a85f673d7c245eb4c2f52a682604a30456b7e8",
     "blocking halo exchange (the file name's 'b'; the program's source for this log was not identified: the stored "
     "heat_stencil_2D_parallel.c read, at 2c9ac217, is an earlier draft with T = 10 N, MPI_Send/MPI_Recv and "
     "another output format)",
     "raw/ keeps 33 of the log's 42 timing lines (CUT; the file has 594182 characters, 42 runs). Not read: the lines "
     "of N = 288 ... 768 at p = 32, 96 that no case uses were read where they fell on a page (288/32, 288/96, "
     "384/32, 384/96 are kept), and N = 576, 672, 768 at p = 2, 4, 8 were not read at all. Between the run "
     "672/96 and the line 768/16 the file holds about 700 characters more than 42 runs of heat maps explain "
     "(located by offsets, not read: it lies in the unread runs 768/2, 768/4, 768/8; something extra was printed "
     "there, e.g. an MPI warning).",
     "Inside the box the time falls with p at every N except N = 192, where p = 16 (0.3616 s) is above p = 8 (0.3223). "
     "Beyond the box (seen while copying): at p = 32 and 96 the time still falls with p at every N, but less than "
     "linearly (N = 768: 9.33, 5.71, 3.32 s at p = 16, 32, 96). The heat maps of a given N look the same for "
     "p = 2 .. 32 where compared, but at p = 96 the source is drawn one cell off (seen at N = 192, 288, 576), so the "
     "p = 96 runs may not compute exactly the same field."),
    ("lp-heat2d-mpi-nonblocking-pn", "output-parallel-nb.log", "e1e4b267bd0db4340afefa4ac8815fadf435fbd2",
     "non-blocking halo exchange (MPI_Isend/MPI_Irecv and MPI_Waitall, per heat_stencil_2D_parallel_nb.c as read at "
     "0178736e, which prints this log's format and runs T = 100 N steps; that version also lets a rank skip its "
     "update while its halo values near the source column are below 273.0001 K, so the work per rank is not "
     "N^2/p at early steps; whether the log came from exactly that version is not known)",
     "raw/ keeps 29 of the log's 42 timing lines (CUT; this version of the file has 593489 characters, 8 more than "
     "42 runs of heat maps with 4-decimal times predict, i.e. the times of 10 s or more). The file's other stored "
     "version (4397ed6f, 1330274 characters, 120-wide maps and another output format with a line "
     "'$!N_672{1, 111.5662}') was not used. Not read: N = 288, 384 at p = 32, 96 and N = 576, 672, 768 at "
     "p = 2, 4, 8.",
     "Inside the box the time falls with p at every N (N = 192: 0.9037, 0.4450, 0.3071, 0.2054 s). Beyond the box "
     "(seen while copying): at N = 480 the time halves from p = 16 to 32 (2.5625 -> 1.2598 s) and falls to 0.8137 at "
     "96; at N = 768 it is 9.52, 5.74, 2.15 s at p = 16, 32, 96. The heat maps differ slightly between rank counts "
     "at the same N (unlike the blocking log), consistent with the skipped updates."),
]


def read_lp(path):
    """timing lines '$!N_<N>{<p>, <s>}' -> {(p, N): [seconds]}; any other line is an error"""
    d = defaultdict(list)
    with open(path) as f:
        for line in f.read().splitlines():
            m = LP_LINE.match(line)
            assert m, line
            d[(int(m.group(2)), int(m.group(1)))].append(float(m.group(3)))
    return d


def build_lp():
    for name, fn, commit, variant, copy, odd in LP_FILES:
        path = LP_DIR + fn
        two(name, src(LP, commit, path), "s",
            "MPI 2-D heat stencil, wall time [s] of the whole run as rank 0 prints it (MPI_Wtime from after MPI_Init to "
            "before MPI_Finalize) over p = MPI ranks x n = N, the side of the N x N room (split into p strips of N/p "
            "rows; T = 100 N time steps, so the work grows as N^3), %s. Included in the time: an MPI_Gather of the "
            "whole room to rank 0 and an ASCII heat map printed every 10000 steps (2 maps at N = 192, 8 at 768). "
            "Innsbruck HPC course 2023 (week 3), presumably on the course cluster LCC3 (week03/ex1/job.sh, a one-task "
            "test, asks --partition=lva; corpus-y's notes give 12 ranks per node there, so p = 96 would span 8 "
            "nodes); the job script of the sweep and the MPI version are not in the files read (the repository's "
            "week03/ex1/output.log, another run, shows Open MPI's >= 4.0 openib warning on host n011). One run per "
            "point; the spread between runs is unknown. The sweep is N = 192 .. 768 in steps of 96 x p = 2, 4, 8, 16, "
            "32, 96 (p must divide N). %s Train p in {2,4,8,16} x N in {192,288,384,480} (the four smallest of "
            "each); test p in {16,32,96} x N in {480,576,672,768} minus the box (11 points: p = 16 extrapolates in N "
            "only, N = 480 in p only; the largest test p is 6x the box's 16, the largest N 1.6x its 480). "
            % (variant, copy) + odd,
            read_lp(rp(LP, path)), LP_P_TRAIN, LP_N_TRAIN, LP_P_TEST, LP_N_TEST)


# ---------------------------------------------------------------------------------------------
# leoposc/uibk-hpc, week03/exercise01: another 2-D heat stencil program of the same course week (a teammate's
# folder: heat_stencil_2D_mpi.c, 120-wide maps, MPI_Send/MPI_Recv halo rows, T = 100 N), one Slurm output per run,
# 47 files at five commits. Their last lines (read at offsets near each file's end) give N and p: jobs 10749-10759
# are the sequential program (p = 1, not used); 10763-10810 the MPI program at p = 1, 2, 4, 8 x N = 192 .. 768
# (28 runs, complete); 10797-10799 are 'not enough slots' failures for 16, 32, 96 ranks; 10815-10826 the MPI program
# at p = 16, 32, 96 x N = 192, 288, 384 only (9 runs, not used: no product with the larger N exists, and 96 is 12x
# the box's 8). The cut: train p in {1,2,4,8} x N in {192,288,384,480} (the four smallest of each); the larger N
# (576, 672, 768) test at every rank count whose row is complete there (1, 2, 4, 8): 12 points that extrapolate in
# N only (1.6x the box's 480). y is the '$!N' wall time (MPI_Wtime around the time loop), not the 'Time:' line
# (clock(), rank 0's CPU time over the same loop); both are kept in raw/.
EX = "week03/exercise01/results/"


def build_ex01():
    d, srcs = defaultdict(list), []
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "raw", "MANIFEST.tsv")) as f:
        rows = [l.split("\t") for l in f.read().splitlines()[1:]]
    for r in rows:
        if not r[2].startswith(EX):
            continue
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), r[3])) as f:
            lines = f.read().splitlines()
        assert lines[0] == "Verification: OK" and lines[1].startswith("Time: "), lines
        m = LP_LINE.match(lines[2])
        assert m, lines
        d[(int(m.group(2)), int(m.group(1)))].append(float(m.group(3)))
        srcs.append(src(LP, r[1], r[2]))
    two("lp-heat2d-mpi-ex01-pn", " ; ".join(srcs), "s",
        "MPI 2-D heat stencil (the repository's week03/exercise01/heat_stencil_2D_mpi.c, read at 463090c7: the N x N "
        "room split into p strips of N/p rows, halo rows exchanged with MPI_Send/MPI_Recv every step, T = 100 N time "
        "steps, an MPI_Gather and a 120 x 120 ASCII map on rank 0 every 10000 steps), wall time [s] of the time loop "
        "(MPI_Wtime, the program's '$!N_<N>{<p>, <s>}' line; its 'Time:' line, rank 0's clock() CPU time over the same "
        "loop, is 0.2-1.5 %% lower and not used) over p = MPI ranks x n = N (work grows as N^3). Innsbruck HPC course 2023, "
        "LCC3 (the outputs' host names n011/n001.intern.lcc3...); benchmark.sh (read at 5ee66bad, another size list) "
        "loads openmpi/3.1.6-gcc-12.2.0; the job script of these runs was not read. One Slurm output per run, one run "
        "per point (28 files at five commits, each file's commit in source). Every run prints 'Verification: OK'. "
        "raw/ keeps each file's last three program lines (CUT). Train p in {1,2,4,8} x N in {192,288,384,480} (the "
        "four smallest of each); test p in {1,2,4,8} x N in {576,672,768}: 12 points that extrapolate in N only "
        "(1.6x the box's 480); the test ranks are every rank count whose row is complete at the larger N. Left out: "
        "runs at p = 16, 32, 96 exist only for N = 192, 288, 384 (on another node, n001, after 'not enough slots' "
        "failures of the first attempt); seen while copying, they are 4-12x slower than p = 8 at the same N (N = 192: "
        "0.38 s at p = 8, 4.70 s at p = 16), a placement or network change the box does not show; not in this case. "
        "Inside the box (seen while copying): N = 192: 2.05, 1.24, 0.55, 0.38 s at p = 1, 2, 4, 8 (1 -> 2 ranks 1.7x, "
        "2 -> 4 ranks 2.3x); N = 480: 32.13, 16.55, 8.30, 5.72 s (4 -> 8 ranks only 1.45x). "
        "This program differs from the ex1 logs' programs (lp-heat2d-mpi-*blocking-pn), but it is the same week, "
        "student group, cluster and problem: not independent of them.",
        d, [1, 2, 4, 8], [192, 288, 384, 480], [1, 2, 4, 8], [576, 672, 768])


# ---------------------------------------------------------------------------------------------


BUILDERS = [build_lp, build_ex01]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=2, max_per_repo=4)
