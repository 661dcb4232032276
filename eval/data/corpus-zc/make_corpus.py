#!/usr/bin/env python3
"""corpus-zc (two-variable grids only): builds cases/*.json from the copies of the source files in raw/, with
eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]

The remaining node/socket-mapping OSU grids of two repositories that earlier corpora used for other files (corpus-zb's
README, "Candidates for a later corpus"): 8 cases, 4 from each repository. README.md says what was searched, what was
used and why, and what was left out.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)) + "/..")
from corpus_build import Corpus, read_grid, src, upto  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-zc")
rp, two = CORPUS.rp, CORPUS.two

N_TEST = [1024, 16384, 65536]


# ---------------------------------------------------------------------------------------------
# EdoardoZappia/HPC_final_exam: Trieste FHPC course, exercise 1, OSU 7.3 collectives with forced Open MPI tuned
# algorithms on 2 ORFEO THIN nodes; each grid file sweeps p = 2, 4, ..., 48 x n = 2 B .. 1 MiB, one run per point.
# corpus-y and corpus-za took the --map-by core files, corpus-zb bcast1/bcast2 _node_thin/_socket_thin. Here, chosen
# from the file list before any value was read: the two bcast algorithms no node/socket case used (bcast4_node_thin;
# bcast5 has no non-"_fix" node file, so bcast5_socket_thin) and two scatter algorithms, alternating the mapping
# (scatter1_node_thin, scatter2_socket_thin). Not the "_fix" fixed-size sweeps.
# The cut is corpus-za's rule for this repository, applied mechanically: train p in {2,4,6,8} (the sweep's four
# smallest) x n = 2 B .. 8 KiB; test p = the largest rank count with a complete row (every size the file has at p = 2)
# not above 2x, 4x, 8x the box's 8 (16, 32, 64) x n = 1, 16, 64 KiB. The copies in raw/ are CUT to the rows used, so
# those test rank counts are written here, from the full files as read: bcast4_node / bcast5_socket have complete rows
# up to 48 -> 16, 32, 48; scatter1_node's p = 46 row has no 1 MiB value and p = 48 has no values -> 16, 32, 44;
# scatter2_socket stops at p = 38, whose row has no 1 MiB line -> 16, 32, 36.
EZ = "EdoardoZappia/HPC_final_exam", "3052829c34d7df30f2cdcda953be2b8ce9c2f513"
EZ_DIR = "HPC_ex1/osu-micro-benchmarks-7.3/c/mpi/collective/blocking/"
EZ_P_TRAIN = [2, 4, 6, 8]
EZ_MAP = {
    "node": "--map-by node (ranks placed round-robin over the 2 nodes, so every p >= 2 crosses the network; "
            "presumed from Open MPI's mapping policy and the file name, not stated in the files read)",
    "socket": "--map-by socket (ranks placed round-robin over the sockets, 12 cores each; whether and when the second "
              "node is used depends on Open MPI's mapping and the allocation, not stated in the files read)"}

EZ_FILES = [
    # (case name, file, benchmark, Open MPI 4.1 tuned algorithm, mapping, test p, odd)
    ("ez-thin-bcast4-node-pn", "bcast4_node_thin.csv", "osu_bcast", "bcast algorithm 4 (split binary tree)", "node",
     [16, 32, 48],
     "The 2 B latency is 1.08, 1.05, 1.51, 2.04 us at p = 2, 4, 6, 8 (p = 4 at or below p = 2). Seen while copying, "
     "beyond the box: the 2 B latency steps from 2.41 us at p = 16 to 3.12 at p = 18 and from 2.80 at p = 32 to 3.38 "
     "at p = 34; no jump between 8 and 16 KiB (p = 8: 9.16 -> 13.29 us)."),
    ("ez-thin-bcast5-socket-pn", "bcast5_socket_thin.csv", "osu_bcast", "bcast algorithm 5 (binary tree)", "socket",
     [16, 32, 48],
     "Between 8 and 16 KiB the latency jumps about 1.9x at p = 8 (7.29 -> 13.62 us) and 2.1x at p = 16 (9.14 -> "
     "18.99), but only 1.09x at p = 2 (3.31 -> 3.61): a segmentation or protocol change just outside the box, so the "
     "16 and 64 KiB test points lie past it. Seen while copying: the 2 B latency jumps from 1.98 us at p = 32 to "
     "4.54 at p = 34 (a placement change between the test ranks 32 and 48); at 32 B the value is above the 64 B one "
     "at several p (p = 2: 0.54 against 0.45 us)."),
    ("ez-thin-scatter1-node-pn", "scatter1_node_thin.csv", "osu_scatter", "scatter algorithm 1 (basic linear)",
     "node", [16, 32, 44],
     "The latency is not monotone in p inside the box: at 2 B 1.02 us at p = 2, 0.34 at p = 4, 0.54 at p = 6, 1.91 "
     "at p = 8 (the same pattern as ez-thin-bcast1-node-pn of corpus-zb). The file's p = 46 row has no 1 MiB value "
     "and its p = 48 row no values at all (empty fields), so the largest test rank is 44 (5.5x the box's 8). "
     "osu_scatter's n is the size each rank receives, so the data at the root grow with p x n."),
    ("ez-thin-scatter2-socket-pn", "scatter2_socket_thin.csv", "osu_scatter", "scatter algorithm 2 (binomial)",
     "socket", [16, 32, 36],
     "The file stops at p = 38, and its p = 38 row has no 1 MiB line, so the largest test rank is 36 (4.5x the box's "
     "8). Seen while copying: the 2 B latency jumps from 1.62 us at p = 32 to 3.74 at p = 34 (between the test ranks "
     "32 and 36, so the p = 36 points lie past a placement change the box never shows); at p = 2 the 256 KiB value "
     "(25.76 us) is below the 128 KiB one (47.96; neither used). osu_scatter's n is the size each rank receives."),
]


def build_ez():
    for name, fn, bench, algo_text, mapping, ptest, odd in EZ_FILES:
        path = EZ_DIR + fn
        d = read_grid(rp(EZ[0], path))
        two(name, src(EZ[0], EZ[1], path), "us",
            "%s average latency [us] (OSU 7.3) over p = MPI ranks x n = message size [bytes], Open MPI 4.1.5 on 2 "
            "ORFEO THIN nodes (Trieste FHPC course exercise 1; 2x 12-core Intel Xeon Gold 6126 per node per the "
            "earlier corpora's notes, not this file), the tuned %s forced by coll_tuned_use_dynamic_rules (Open MPI "
            "4.1's numbering, not a word of the repository), %s. The file holds p = 2, 4, ..., 48 x n = 2 B .. 1 MiB, "
            "one run per point (OSU's average over its iterations; corpus-za keeps the same student's "
            "bcast4_node_thin.sh and scatter2_node_thin.sh, which run -x 10000 -i 10000; this file's own job script "
            "was not read). Two-decimal values: the smallest latencies (0.3-0.5 us) are near the print resolution. "
            "raw/ keeps the header and the 61 lines used, in the file's order (CUT). Train p in {2,4,6,8} (the "
            "sweep's four smallest) x n = 2 B .. 8 KiB (13 sizes); test p = %s (the largest rank count with a "
            "complete row not above 2x, 4x, 8x the box's 8) x n = 1 KiB, 16 KiB, 64 KiB (the points at 1 KiB "
            "extrapolate in p only); the rule is corpus-za's for this repository. "
            % (bench, algo_text, EZ_MAP[mapping], ", ".join(map(str, ptest))) + odd,
            d, EZ_P_TRAIN, upto({n for (_, n) in d}, hi=8192), ptest, N_TEST)


# ---------------------------------------------------------------------------------------------
# aleminutolo/HPC_Final_Exam: Trieste FHPC course, exercise 1, osu_bcast / osu_gather with forced algorithms on 2 ORFEO
# EPYC nodes. corpus-q and corpus-za took the *_core.csv files, corpus-zb bcast1_node and bcast1_socket. Here, chosen
# from the file list before any value was read: one file per algorithm not yet taken in a node/socket mapping,
# alternating the mapping: bcast3_node, gather1_socket, gather2_node, gather3_socket. The gather files hold p = 2, 4,
# 6, ..., 256 x n = 2 B .. 1 MiB; bcast3_node.csv holds p = 2, 4, 8, ..., 256 x n = 2 B .. 256 KiB. One run per point.
# The cut is corpus-q's rule for this repository: train p in {2,4,8,16} x n = 2 B .. 8 KiB; test p = 32, 64, 128 x
# n = 1, 16, 64 KiB.
AL = "aleminutolo/HPC_Final_Exam", "570ff9c8b487e8fc99e005a98cd40c697b035047"
AL_P_TRAIN, AL_P_TEST = [2, 4, 8, 16], [32, 64, 128]
AL_MAP = {
    "node": "--map-by node (by the file name; ranks round-robin over the 2 nodes, so every p >= 2 crosses the "
            "network, presumed from Open MPI's mapping policy)",
    "socket": "--map-by socket (by the file name; ranks round-robin over the sockets, EPYC 7H12 nodes have 2 sockets "
              "of 64 cores; how the 2 nodes are filled is not stated in the files read)"}

AL_FILES = [
    # (case name, file, benchmark, what n is, algorithm, mapping, copy, odd)
    ("al-epyc-bcast3-node-pn", "bcast3_node.csv", "osu_bcast", "message size [bytes]",
     "bcast algorithm 3 (pipeline)", "node",
     "raw/ keeps the file verbatim (1959 bytes, the source's length); it holds only p = 2, 4, 8, ..., 256 (the powers "
     "of 2 that the repository's Ex1/sbatches/bcast1.sh loops, kept in corpus-q's raw/) and n = 2 B .. 256 KiB.",
     "The latency grows steeply with p at every size (2 B: 1.74, 2.37, 7.64, 14.88 us at p = 2, 4, 8, 16). At p = 64 "
     "the 1 KiB value (144.60 us, a test point) is above the 2 KiB one (114.42), kept as measured. At 128 B the value "
     "is below the 64 B one at p = 2 (1.80 against 2.26 us) and at p = 8 and 16. Unlike corpus-q's "
     "al-epyc-bcast3-pn (--map-by core, with a 3-5x jump between 8 and 16 KiB), this file has no jump there (p = 16: "
     "38.73 -> 50.94 us)."),
    ("al-epyc-gather1-socket-pn", "gather1_socket.csv", "osu_gather", "message size per rank [bytes]",
     "gather algorithm 1 (basic linear)", "socket",
     "raw/ keeps the header and the 61 lines used, in the file's order (CUT; the file has about 2560 data lines and "
     "36041 characters; it was read at offsets 0 and 16000, up to p = 228).",
     "The 2 B latency is 0.59, 1.34, 1.13, 1.26 us at p = 2, 4, 8, 16 (not monotone in p). Seen while copying, beyond "
     "the box: the small-message latency rises to about 8-9 us near p = 120-128 and then falls to about 2 us by "
     "p = 190-228 (p = 128: 8.81 us at 2 B; p = 190: 2.08), isolated spikes at single sizes appear from about p = 140 "
     "(p = 200: 19.27 us at 32 B), and between 128 and 256 KiB the latency jumps 2.6x at p = 6 and 3-5x from p = 8 on "
     "(p = 16: 116.15 -> 451.74 us; not used). osu_gather reports the latency of the whole gather, whose data at the root grow with "
     "p x n."),
    ("al-epyc-gather2-node-pn", "gather2_node.csv", "osu_gather", "message size per rank [bytes]",
     "gather algorithm 2 (binomial)", "node",
     "raw/ keeps the header and the 61 lines used, in the file's order (CUT; the file has about 2560 data lines and "
     "36566 characters; it was read at offsets 0 and 16000, up to p = 226).",
     "The 2 B latency is 1.69, 1.98, 2.27, 2.5 us at p = 2, 4, 8, 16; at p = 2 the 2 KiB value (2.62 us) is below the "
     "1 KiB one (2.79). Seen while copying, beyond the box: from about p = 60 on (and a few before, p = 26: 73.71 us "
     "at 32 KiB between 23.66 and 87.27), isolated spikes at single sizes run through the rows (p = 128: 21.28 us at 64 B between 7.2 at 32 B and 8.6 at 128 B; p = 96: 21.47 us at "
     "256 B); none falls on a test point used here (p = 128 at 1 KiB: 10.51 us)."),
    ("al-epyc-gather3-socket-pn", "gather3_socket.csv", "osu_gather", "message size per rank [bytes]",
     "gather algorithm 3 (linear with synchronization)", "socket",
     "raw/ keeps the header and the 61 lines used, in the file's order (CUT; the file has 34142 characters and no "
     "rows for p = 192 .. 220; it was read at offsets 0 and 16000, up to p = 244).",
     "The latency grows steeply with p at every size (2 B: 1.24, 2.73, 6.32, 11.08 us at p = 2, 4, 8, 16). Seen while "
     "copying, beyond the box: the file jumps from p = 190 to 222, and from about "
     "p = 120 on its rows carry large isolated spikes (p = 128: 784.69 us at 8 B against 114.0 at 4 B; p = 140: "
     "1936.56 us at 4 B); the test row p = 128 lies in that range (its 1, 16, 64 KiB values 156.33, 673.4, 1823.81 us "
     "against 150.06, 510.87, 1540.86 at p = 126), so its test points are noisier than the box. The same algorithm "
     "with --map-by core is corpus-za's al-epyc-gather3-linearsync-pn: not independent."),
]


def build_al():
    for name, fn, bench, n_text, alg, mapping, copy, odd in AL_FILES:
        path = "Ex1/csv/" + fn
        d = read_grid(rp(AL[0], path))
        two(name, src(AL[0], AL[1], path), "us",
            "%s average latency [us] over p = MPI ranks x n = %s, Open MPI's tuned %s forced (Open MPI 4.1's "
            "numbering; the repository's Ex1/sbatches scripts, read by corpus-q and corpus-za and kept in their raw/, "
            "are EPYC jobs: --nodes=2 --ntasks-per-node=128, Open MPI 4.1.6, coll_tuned_use_dynamic_rules, -x 10000 "
            "-i 10000, the Avg Latency column), %s, on 2 ORFEO EPYC nodes (Trieste FHPC course; 2x 64-core AMD EPYC "
            "7H12 per node per the earlier corpora's notes). The job script of this exact file was not read. One run "
            "per point. %s Train p in {2,4,8,16} x n = 2 B .. 8 KiB (13 sizes); test p = 32, 64, 128 x n = 1 KiB, "
            "16 KiB, 64 KiB (the points at 1 KiB extrapolate in p only); the rule is corpus-q's for this "
            "repository. " % (bench, n_text, alg, AL_MAP[mapping], copy) + odd,
            d, AL_P_TRAIN, upto({n for (_, n) in d}, hi=8192), AL_P_TEST, N_TEST)

# ---------------------------------------------------------------------------------------------


BUILDERS = [build_ez, build_al]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=2, max_per_repo=4)
