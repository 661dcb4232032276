/* memcrc: filling and checksumming a buffer over its size in bytes on one
 * rank, pinned (held-out data, never used to choose the selection; the sizes
 * run from 32 B to 512 MiB, through L1, L2, L3 and DRAM). Usage:
 *   memcrc CASE BYTES...   prints "CASE BYTES seconds" for each BYTES
 *                          (1 ... 512 MiB), CASE one of
 *   memset_size   memset of BYTES bytes of one buffer to a byte value (the C
 *                 library's, stores only: no case of the corpus before it
 *                 only writes)
 *   crc32_size    the CRC-32 of BYTES bytes (IEEE 802.3, reflected
 *                 polynomial 0xEDB88320), one byte at a time through a table
 *                 of 256 words (Sarwate's method), written here: a chain of
 *                 dependent table look-ups
 * The buffer (512 MiB, pseudo-random bytes) is allocated and written (first
 * touch) before anything is timed; a size uses its first BYTES bytes. One
 * pass is one call over BYTES bytes; a sample times r back-to-back passes (r
 * doubled from 1 until r passes take at least 50 us, so the clock's own cost
 * and resolution stay small beside it) and counts as the time of one pass,
 * the sample's time over r. The samples (enough for about 0.2 s, at least
 * 10, or 5 once BYTES is 256 MiB or more, at most 20000) follow a pass that
 * is not timed; the answer is the least of them (timing.h): on a machine
 * shared with other programs, other work only adds time. The CRC table is
 * checked on the standard string "123456789" (0xCBF43926) at the start. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define MAXBYTES (512L << 20)
#define MAXSAMPLES 20000

static volatile uint32_t sink;
static unsigned char *buf;
static uint32_t table[256];

static void make_table(void)
{
    uint32_t c;
    int n, k;

    for (n = 0; n < 256; n++) {
        c = (uint32_t)n;
        for (k = 0; k < 8; k++)
            c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[n] = c;
    }
}

static uint32_t crc32(const unsigned char *p, long n)
{
    uint32_t c = 0xFFFFFFFFu;
    long i;

    for (i = 0; i < n; i++)
        c = table[(c ^ p[i]) & 0xFFu] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

static void memset_pass(long n)
{
    memset(buf, 0x5A, (size_t)n);
}

static void crc32_pass(long n)
{
    sink = crc32(buf, n);
}

static const struct kernel {
    const char *name;
    void (*pass)(long);
} kernels[] = {
    {"memset_size", memset_pass},
    {"crc32_size", crc32_pass},
};

static double timed(const struct kernel *kn, long n)
{
    double *ti = malloc(MAXSAMPLES * sizeof *ti), t0, t;
    long r = 1, k, target;
    int samples, s;

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    kn->pass(n); /* not timed */
    for (;;) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            kn->pass(n);
        t = MPI_Wtime() - t0;
        if (t >= 50e-6 || r >= (1L << 20))
            break;
        r *= 2;
    }
    target = (long)(0.2 / (t > 1e-9 ? t : 1e-9)) + 1;
    k = n >= (256L << 20) ? 5 : 10;
    samples = (int)(target < k ? k : target > MAXSAMPLES ? MAXSAMPLES : target);
    for (s = 0; s < samples; s++) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            kn->pass(n);
        ti[s] = (MPI_Wtime() - t0) / (double)r;
    }
    t = least(ti, samples);
    sink = buf[n / 2];
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    const struct kernel *kn = NULL;
    uint64_t x = 88172645463325252ULL; /* xorshift64, fixed seed */
    int rank, k;
    size_t j;
    long i;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (j = 0; argc > 1 && j < sizeof kernels / sizeof kernels[0]; j++)
        if (strcmp(argv[1], kernels[j].name) == 0)
            kn = &kernels[j];
    if (kn == NULL) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: memcrc CASE BYTES... (CASE: memset_size crc32_size)\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    make_table();
    if (crc32((const unsigned char *)"123456789", 9) != 0xCBF43926u) {
        fprintf(stderr, "memcrc: the CRC-32 table is wrong\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    buf = malloc(MAXBYTES);
    if (buf == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < MAXBYTES; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        buf[i] = (unsigned char)(x >> 56);
    }
    for (k = 2; k < argc; k++) {
        long n = strtol(argv[k], NULL, 10);
        double t;
        if (n < 1 || n > MAXBYTES)
            MPI_Abort(MPI_COMM_WORLD, 1);
        t = timed(kn, n);
        if (rank == 0)
            printf("%s %ld %.6e\n", kn->name, n, t);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
