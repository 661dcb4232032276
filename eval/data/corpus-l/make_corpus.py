#!/usr/bin/env python3
"""corpus-l (4 two-variable grids of MPI ranks x problem size from 1 repository): builds cases/*.json from the copies
of the source files in raw/, with eval/data/corpus_build.py (the format, the rules, --check).
Run: python3 make_corpus.py [--check]
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import read_rows, src, Corpus  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-l")
rp, two = CORPUS.rp, CORPUS.two


# ---------------------------------------------------------------------------------------------
# TerminatorShri/22510025_HPCL: an HPC lab course's MPI assignments 7 and 8; each CSV is one run per point of
# p = 1, 2, 4, 5, 10 MPI ranks x 4 or 5 problem sizes (header Size,NumProcesses,TimeTaken)
TS = "TerminatorShri/22510025_HPCL"
TS_GEN = ("The assignment's README (same commit) gives the loop that wrote the file: for each size, for p in 1 2 4 5 10, "
          "`mpirun --oversubscribe -np p ./PS_X N`, Open MPI (its example output names mpiexec (OpenRTE) 4.1.2) on "
          "Ubuntu; the machine (cores, CPU) is not stated, and --oversubscribe suggests p = 10 may exceed its cores. "
          "One run per point, as written by the program (TimeTaken, seconds, no repetitions), so the value at a test "
          "point is that single run. Train p in {1,2,4,5} x every size in the file; test p = 10 (2x past the box) "
          "x every size: the test points extrapolate in p only. ")
TS_FILES = [
    ("Assignment_7/PS_1.csv", "1ec621b5c52364085600e80867053232c38c1fa8", "ts-a7-ps1-mpi-pn", "matrix size N",
     "Assignment 7 (MPI matrix computations; the folder also holds an empty results_matrix_matrix.csv; the "
     "program PS_1.c was not read, so which matrix kernel PS_1 is was not checked). Times are tiny (0.09 ms .. 29 ms) "
     "and irregular: at N = 100, p = 4 takes 6.4 ms against 0.09 ms at p = 1; at N = 2000, p = 5 and 10 are slower "
     "than p = 4 (16.9, 28.9 vs 10.3 ms)."),
    ("Assignment_7/PS_2.csv", "1ec621b5c52364085600e80867053232c38c1fa8", "ts-a7-ps2-mpi-pn", "matrix size N",
     "Assignment 7, second program (PS_2.c not read; its times grow about 8x per doubling of N at p = 1, 0.46 s at "
     "N = 500 to 3.9 s at N = 1000, as a matrix-matrix product would). The sizes are 100, 200, 500, 1000 (not those "
     "of the README's loop). The smallest sizes are sub-10 ms and irregular (N = 200: 29.4 ms at p = 1, 5.7 at p = 5, "
     "9.4 at p = 10)."),
    ("Assignment_8/PS_1.csv", "50513f305c4bb5ed9c913a37702c73309073b6b5", "ts-a8-ps1-conv2d-mpi-pn", "matrix size N",
     "Assignment 8, PS_1: a 2-D convolution per the folder's plot name PS_1_2D_Convolution_Analysis.png (PS_1.c not "
     "read). Almost no speedup anywhere (N = 2000: 0.189 s at p = 1, 0.175 s at p = 4, 0.203 s at p = 5, 0.272 s at "
     "p = 10): at p = 10 every size is the slowest of its row, 14.2 ms at N = 100 against 0.6-1.1 ms at p <= 5."),
    ("Assignment_8/PS_2.csv", "50513f305c4bb5ed9c913a37702c73309073b6b5", "ts-a8-ps2-dot-mpi-pn", "vector length N",
     "Assignment 8, PS_2: a dot product per the plot name PS_2_Dot_Product_Analysis.png (PS_2.c not read), over "
     "vector lengths 10^4 .. 10^6 (5 sizes). Times are 0.3 .. 15 ms and far from monotone in p or N (N = 50000, "
     "p = 4: 0.33 ms, below N = 10000's 0.64 ms; p = 10 at N = 10^4: 11.0 ms, at N = 5x10^5: 4.3 ms)."),
]


def build_ts():
    for path, commit, name, what, odd in TS_FILES:
        rows = read_rows(rp(TS, path))
        assert rows[0][1:] == ["NumProcesses", "TimeTaken"], rows[0]
        d = defaultdict(list)
        for n, p, t in rows[1:]:
            d[(int(p), int(n))].append(float(t))
        ns = sorted({n for (_, n) in d})
        two(name, src(TS, commit, path), "s",
            "Wall time [s] (column TimeTaken) over p = MPI ranks x n = %s (column %s), one run per point. "
            % (what, rows[0][0]) + TS_GEN + odd,
            d, [1, 2, 4, 5], ns, [10], ns)


# ---------------------------------------------------------------------------------------------


BUILDERS = [build_ts]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=2, max_per_repo=4)
