/* bench_cube: importing a CUBE4 profile (SPEC §16: 256 ranks x 1,000 call
 * paths in at most 1 s), next to the ceiling of merely reading the same
 * bytes, measured in the same run.
 *
 * The profile is written here the way Score-P writes one: a tar archive of
 * anchor.xml and, per metric with data (visits UINT64, time DOUBLE
 * INCLUSIVE, min_time MINDOUBLE, max_time MAXDOUBLE, bytes_sent UINT64),
 * ID.index and ID.data; the call tree is main with 1,000 - 1 nodes below it,
 * 9 children per node, region names like Score-P's. Two variants: plain, and
 * compressed (gzip anchor, ZCUBEX.DATA with one zlib stream per call path).
 *
 *   ceiling: the tar read, the anchor inflated (compressed variant) and run
 *            through expat without handlers, every data stream inflated and
 *            every value converted and summed: the least any reader does;
 *   import:  `prophecyd import FILE` (core/import into a fresh SQLite
 *            database, one transaction, synchronous = FULL), in a child
 *            process so that its peak RSS is its own.
 * Each is repeated and the median printed.
 * Usage: bench_cube [--reps R] [--ranks L] [--paths C] [--dir DIR] [--keep]
 * (--keep leaves the two .cubex files in DIR)
 */
#include "common/arena.h"
#include "common/buf.h"
#include "core/import.h"
#include "db/db.h"
#include "formats/formats.h"

#include <expat.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#define NMETRICS 5
static const struct {
    const char *name, *type, *dtype;
} metrics[NMETRICS] = {{"visits", "EXCLUSIVE", "UINT64"},
                       {"time", "INCLUSIVE", "DOUBLE"},
                       {"min_time", "EXCLUSIVE", "MINDOUBLE"},
                       {"max_time", "EXCLUSIVE", "MAXDOUBLE"},
                       {"bytes_sent", "EXCLUSIVE", "UINT64"}};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void tar_add(struct buf *t, const char *name, const void *data, size_t len)
{
    unsigned char h[512];
    unsigned sum = 0;
    memset(h, 0, sizeof h);
    snprintf((char *)h, 100, "%s", name);
    snprintf((char *)h + 100, 8, "%07o", 0644);
    snprintf((char *)h + 108, 8, "%07o", 0);
    snprintf((char *)h + 116, 8, "%07o", 0);
    snprintf((char *)h + 124, 12, "%011lo", (unsigned long)len);
    snprintf((char *)h + 136, 12, "%011o", 0);
    h[156] = '0';
    memcpy(h + 257, "ustar", 6);
    memcpy(h + 263, "00", 2);
    memset(h + 148, ' ', 8);
    for (int i = 0; i < 512; i++)
        sum += h[i];
    snprintf((char *)h + 148, 8, "%06o", sum);
    buf_append(t, h, 512);
    buf_append(t, data, len);
    for (size_t pad = (512 - len % 512) % 512; pad > 0; pad--)
        buf_putc(t, '\0');
}

static void gz(const void *in, size_t n, struct buf *out, int gzip)
{
    z_stream z;
    unsigned char tmp[1 << 16];
    int rc;
    memset(&z, 0, sizeof z);
    deflateInit2(&z, 6, Z_DEFLATED, gzip ? 16 + MAX_WBITS : MAX_WBITS, 8,
                 Z_DEFAULT_STRATEGY);
    z.next_in = (unsigned char *)in;
    z.avail_in = (uInt)n;
    do {
        z.next_out = tmp;
        z.avail_out = sizeof tmp;
        rc = deflate(&z, Z_FINISH);
        buf_append(out, tmp, sizeof tmp - z.avail_out);
    } while (rc != Z_STREAM_END);
    deflateEnd(&z);
}

/* Writes the profile; returns its bytes in *out. */
static void write_cubex(struct buf *out, long ranks, long paths, int compress)
{
    struct buf x, d, z;
    long *first = calloc((size_t)paths, sizeof *first), *depth_order;
    long *wide = calloc((size_t)paths, sizeof *wide), nw = 0;
    char name[64];

    buf_init(&x, 1u << 30);
    buf_init(&d, 1u << 30);
    buf_init(&z, 1u << 30);
    depth_order = calloc((size_t)paths, sizeof *depth_order);
    buf_puts(&x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<cube version=\"4.4\">\n"
                 "<attr key=\"Creator\" value=\"Score-P 8.1\"/>\n<metrics>\n");
    for (int m = 0; m < NMETRICS; m++)
        buf_printf(&x,
                   "<metric id=\"%d\" type=\"%s\"><disp_name>%s</disp_name>"
                   "<uniq_name>%s</uniq_name><dtype>%s</dtype><uom>sec</uom><url></url>"
                   "<descr></descr></metric>\n",
                   m, metrics[m].type, metrics[m].name, metrics[m].name,
                   metrics[m].dtype);
    buf_puts(&x, "</metrics>\n<program>\n");
    for (long i = 0; i < paths; i++)
        buf_printf(
            &x,
            "<region id=\"%ld\" mod=\"/src/solver/module_%ld.cpp\" begin=\"%ld\" "
            "end=\"%ld\"><name>%s</name><mangled_name>_Z%ldsolver_step_%ldPd"
            "</mangled_name><paradigm>compiler</paradigm><role>function</role>"
            "<url></url><descr></descr></region>\n",
            i, i % 40, i * 10, i * 10 + 9,
            i == 0 ? "main"
                   : (snprintf(name, sizeof name, "solver_step_%ld(double*)", i), name),
            i, i);
    /* cnodes nested depth first; ids in document (depth-first) order */
    {
        long *stack = calloc((size_t)paths + 1, sizeof *stack), top = 0, id = 0;
        long *next_child = calloc((size_t)paths, sizeof *next_child);
        stack[top++] = 0;
        buf_printf(&x, "<cnode id=\"%ld\" calleeId=\"0\">\n", id);
        depth_order[id++] = 0;
        while (top > 0) {
            long n = stack[top - 1], c = n * 9 + 1 + next_child[n];
            if (next_child[n] < 9 && c < paths) {
                next_child[n]++;
                buf_printf(&x, "<cnode id=\"%ld\" calleeId=\"%ld\">\n", id, c);
                depth_order[id++] = c;
                stack[top++] = c;
            } else {
                buf_puts(&x, "</cnode>\n");
                top--;
            }
        }
        free(stack);
        free(next_child);
    }
    buf_puts(&x, "</program>\n<system>\n<systemtreenode Id=\"0\"><name>machine</name>"
                 "<class>machine</class>\n");
    for (long r = 0; r < ranks; r++)
        buf_printf(&x,
                   "<locationgroup Id=\"%ld\"><name>MPI Rank %ld</name><rank>%ld</rank>"
                   "<type>process</type><location Id=\"%ld\"><name>Master thread</name>"
                   "<rank>0</rank><type>thread</type></location></locationgroup>\n",
                   r, r, r, r);
    buf_puts(&x, "</systemtreenode>\n</system>\n</cube>\n");
    /* CubeLib's wide order over the depth-first positions */
    {
        long *pos_of = calloc((size_t)paths, sizeof *pos_of); /* node -> dfs position */
        long *stack = calloc((size_t)paths + 1, sizeof *stack), top = 0;
        for (long p = 0; p < paths; p++)
            pos_of[depth_order[p]] = p;
        wide[nw++] = 0;
        stack[top++] = 0;
        while (top > 0) {
            long n = stack[--top], lo = n * 9 + 1, hi = lo + 9 < paths ? lo + 9 : paths;
            for (long c = lo; c < hi; c++)
                wide[nw++] = pos_of[c];
            for (long c = hi; c-- > lo;)
                stack[top++] = c;
        }
        for (long p = 0; p < paths; p++) /* wide position -> dfs position */
            first[p] = wide[p];
        free(pos_of);
        free(stack);
    }
    buf_init(out, 1u << 30);
    if (compress) {
        gz(x.data, x.len, &z, 1);
        tar_add(out, "anchor.xml", z.data, z.len);
    } else {
        tar_add(out, "anchor.xml", x.data, x.len);
    }
    for (int m = 0; m < NMETRICS; m++) {
        struct buf idx, rows;
        int32_t one = 1, n = (int32_t)paths;
        int16_t ver = 0;
        uint8_t fmt = 1;
        buf_init(&idx, 1u << 30);
        buf_init(&rows, 1u << 30);
        buf_append(&idx, "CUBEX.INDEX", 11);
        buf_append(&idx, &one, 4);
        buf_append(&idx, &ver, 2);
        buf_append(&idx, &fmt, 1);
        buf_append(&idx, &n, 4);
        for (int32_t p = 0; p < n; p++)
            buf_append(&idx, &p, 4);
        buf_reset(&d);
        buf_reset(&z);
        for (long p = 0; p < paths; p++) {
            /* the node at position p in this metric's order */
            long node =
                depth_order[strcmp(metrics[m].type, "INCLUSIVE") == 0 ? first[p] : p];
            size_t row0 = rows.len;
            for (long r = 0; r < ranks; r++) {
                /* inclusive ~ exclusive x (1 + the children and grandchildren) */
                double excl = 1e-3 * (1 + (double)((node * 7 + r) % 13)), incl;
                long sub = 1;
                for (long c = node * 9 + 1; c < paths && c <= node * 9 + 9; c++)
                    sub += 1 + (c * 9 + 1 < paths ? 9 : 0);
                incl = excl * (double)sub;
                if (m == 0 || m == 4) {
                    uint64_t v =
                        m == 0 ? (uint64_t)(1 + node % 50) : (uint64_t)(node * 64);
                    buf_append(&rows, &v, 8);
                } else {
                    double v = m == 1 ? incl : m == 2 ? excl / 10 : excl * 2;
                    buf_append(&rows, &v, 8);
                }
            }
            if (compress) {
                struct buf one_row;
                int64_t hdr[3] = {(int64_t)row0, (int64_t)z.len, 0};
                buf_init(&one_row, 1u << 30);
                gz(rows.data + row0, rows.len - row0, &one_row, 0);
                hdr[2] = (int64_t)one_row.len;
                buf_append(&d, hdr, sizeof hdr);
                buf_append(&z, one_row.data, one_row.len);
                buf_free(&one_row);
            }
        }
        if (compress) {
            struct buf all;
            int64_t cnt = paths;
            buf_init(&all, 1u << 30);
            buf_append(&all, "ZCUBEX.DATA", 11);
            buf_append(&all, &cnt, 8);
            buf_append(&all, d.data, d.len);
            buf_append(&all, z.data, z.len);
            snprintf(name, sizeof name, "%d.data", m);
            tar_add(out, name, all.data, all.len);
            buf_free(&all);
        } else {
            struct buf all;
            buf_init(&all, 1u << 30);
            buf_append(&all, "CUBEX.DATA", 10);
            buf_append(&all, rows.data, rows.len);
            snprintf(name, sizeof name, "%d.data", m);
            tar_add(out, name, all.data, all.len);
            buf_free(&all);
        }
        snprintf(name, sizeof name, "%d.index", m);
        tar_add(out, name, idx.data, idx.len);
        buf_free(&idx);
        buf_free(&rows);
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 512; j++)
            buf_putc(out, '\0');
    buf_free(&x);
    buf_free(&d);
    buf_free(&z);
    free(first);
    free(wide);
    free(depth_order);
}

/* The ceiling: read everything once, do nothing with it but sum. */
static double ceiling(const char *data, size_t len)
{
    arena *a = arena_new();
    struct fmt_file *mem;
    size_t n;
    struct err e = {0};
    double sum = 0;
    static unsigned char out[1 << 20];

    if (fmt_tar_read(data, len, a, &mem, &n, &e) != 0) {
        fprintf(stderr, "ceiling: %s\n", e.message);
        exit(1);
    }
    for (size_t i = 0; i < n; i++) {
        const unsigned char *p = (const unsigned char *)mem[i].data;
        if (strcmp(mem[i].name, "anchor.xml") == 0) {
            XML_Parser xp = XML_ParserCreate("UTF-8");
            if (p[0] == 0x1f) {
                z_stream z;
                int rc = Z_OK;
                memset(&z, 0, sizeof z);
                inflateInit2(&z, 16 + MAX_WBITS);
                z.next_in = (unsigned char *)p;
                z.avail_in = (uInt)mem[i].len;
                while (rc != Z_STREAM_END) {
                    z.next_out = out;
                    z.avail_out = sizeof out;
                    rc = inflate(&z, Z_NO_FLUSH);
                    if (rc != Z_OK && rc != Z_STREAM_END)
                        break;
                    XML_Parse(xp, (const char *)out, (int)(sizeof out - z.avail_out),
                              rc == Z_STREAM_END);
                }
                inflateEnd(&z);
            } else {
                XML_Parse(xp, mem[i].data, (int)mem[i].len, 1);
            }
            XML_ParserFree(xp);
        } else if (strstr(mem[i].name, ".data") && p[0] == 'Z') {
            int64_t cnt;
            size_t off;
            memcpy(&cnt, p + 11, 8);
            off = 19 + 24 * (size_t)cnt;
            for (int64_t s = 0; s < cnt; s++) {
                int64_t zs;
                uLongf dl = sizeof out;
                memcpy(&zs, p + 19 + 24 * s + 16, 8);
                uncompress(out, &dl, p + off, (uLong)zs);
                for (size_t k = 0; k + 8 <= dl; k += 8) {
                    double v;
                    memcpy(&v, out + k, 8);
                    sum += v;
                }
                off += (size_t)zs;
            }
        } else if (strstr(mem[i].name, ".data")) {
            for (size_t k = 10; k + 8 <= mem[i].len; k += 8) {
                double v;
                memcpy(&v, p + k, 8);
                sum += v;
            }
        }
    }
    arena_free(a);
    return sum;
}

static long import_file(const char *dbpath, const char *path)
{
    struct err e = {0};
    struct import_files files;
    struct import im;
    struct db_options dopt = {DB_SYNC_FULL, 0, 10000};
    db *d;
    long runs;
    char aux[700];

    unlink(dbpath);
    snprintf(aux, sizeof aux, "%s-wal", dbpath);
    unlink(aux);
    snprintf(aux, sizeof aux, "%s-shm", dbpath);
    unlink(aux);
    if (db_open(&d, dbpath, &dopt, &e) != 0 ||
        import_load_paths(&path, 1, &files, &e) != 0)
        goto fail;
    import_init(&im, "auto", files.files, files.n, NULL, "bench");
    if (import_commit(d, &im, &e) != 0)
        goto fail;
    runs = (long)im.created;
    import_free(&im);
    import_files_free(&files);
    db_close(d);
    return runs;
fail:
    fprintf(stderr, "import %s: %s\n", path, e.message);
    exit(1);
}

struct result {
    double seconds;
    long runs;
    long rss_kb;
};

static struct result import_child(const char *dbpath, const char *path)
{
    int fds[2];
    pid_t pid;
    struct result r = {0};
    struct rusage ru;
    int status;

    if (pipe(fds) != 0)
        exit(1);
    if ((pid = fork()) == 0) {
        double t0 = now();
        r.runs = import_file(dbpath, path);
        r.seconds = now() - t0;
        if (write(fds[1], &r, sizeof r) != (ssize_t)sizeof r)
            _exit(1);
        _exit(0);
    }
    close(fds[1]);
    if (read(fds[0], &r, sizeof r) != (ssize_t)sizeof r ||
        wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
        fprintf(stderr, "import failed\n");
        exit(1);
    }
    close(fds[0]);
    r.rss_kb = ru.ru_maxrss;
    return r;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int reps = 5, keep = 0;
    long ranks = 256, paths = 1000;
    char dir[512] = "/tmp";

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = (int)strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--ranks") == 0 && i + 1 < argc)
            ranks = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--paths") == 0 && i + 1 < argc)
            paths = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
            snprintf(dir, sizeof dir, "%s", argv[++i]);
        else if (strcmp(argv[i], "--keep") == 0)
            keep = 1;
        else {
            fprintf(stderr, "usage: bench_cube [--reps R] [--ranks L] [--paths C] [--dir "
                            "DIR] [--keep]\n");
            return 2;
        }
    }
    if (reps < 1 || reps > 99 || ranks < 1 || paths < 2 || ranks * paths > (1L << 23)) {
        fprintf(stderr, "bench_cube: reps 1..99, ranks >= 1, paths >= 2, ranks x paths "
                        "at most 8388608\n");
        return 2;
    }
    printf("CUBE4 profile: %ld ranks x %ld call paths, %d metrics with data; medians of "
           "%d\n",
           ranks, paths, NMETRICS, reps);
    printf("%-12s %10s %12s %12s %10s\n", "variant", "MB", "ceiling s", "import s",
           "peak RSS");
    for (int compress = 0; compress < 2; compress++) {
        struct buf file;
        char path[600], dbpath[600];
        double tc[99], ti[99];
        long rss = 0;
        FILE *f;
        write_cubex(&file, ranks, paths, compress);
        snprintf(path, sizeof path, "%s/bench_cube_%d.cubex", dir, compress);
        snprintf(dbpath, sizeof dbpath, "%s/bench_cube_%d.db", dir, compress);
        if ((f = fopen(path, "wb")) == NULL ||
            fwrite(file.data, 1, file.len, f) != file.len) {
            perror(path);
            return 1;
        }
        fclose(f);
        for (int r = 0; r < reps; r++) {
            double t0 = now(), s = ceiling(file.data, file.len);
            struct result res;
            tc[r] = now() - t0;
            if (s < 0)
                printf("?");
            res = import_child(dbpath, path);
            if (res.runs != 1) {
                fprintf(stderr, "the import stored %ld runs\n", res.runs);
                return 1;
            }
            ti[r] = res.seconds;
            rss = res.rss_kb > rss ? res.rss_kb : rss;
        }
        qsort(tc, (size_t)reps, sizeof *tc, cmp_double);
        qsort(ti, (size_t)reps, sizeof *ti, cmp_double);
        printf("%-12s %10.2f %12.4f %12.4f %7.1f MB\n", compress ? "compressed" : "plain",
               (double)file.len / 1e6, tc[reps / 2], ti[reps / 2], (double)rss / 1024);
        if (!keep)
            unlink(path);
        unlink(dbpath);
        buf_free(&file);
    }
    return 0;
}
