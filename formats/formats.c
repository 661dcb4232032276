/* formats: the one table of formats (see formats.h), the dispatch that every
 * caller goes through, and a small bounded ustar reader for the API's tar
 * bodies. Why one table: the CLI's --format, the API's ?format= and the
 * upload page's list are all read from it, so a format added here is
 * everywhere at once. */
#include "formats/formats.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/utf8.h"
#include "common/xalloc.h"

#include "formats/import.h"
#include "formats/limits.h"

/* Detection tries rows in this order: the most specific signatures first
 * (OTF2's anchor, TAU's profile names, fixed keywords, SQLite's and
 * HPCToolkit's magic), the loosest last. */
static const struct fmt_format table[] = {
    {"otf2", "application/x-tar", 1,
     "OTF2 trace (anchor file *.otf2 with its .def/.evt files)", sniff_otf2, import_otf2,
     root_otf2},
    {"tau", "application/x-tar", 1, "TAU profile directory (profile.N.0.0 per rank)",
     sniff_tau, import_tau, root_tau},
    {"extrap-text", "text/plain", 0,
     "Extra-P text input (PARAMETER, POINTS, REGION, DATA)", sniff_extrap_text,
     import_extrap_text, NULL},
    {"cube", "application/x-tar", 1,
     "Score-P CUBE4 profile (.cubex), or a directory of them (NAME.p16.r1/profile.cubex)",
     sniff_cube, import_cube, NULL},
    {"extrap-experiment", "application/zip", 0,
     "Extra-P saved experiment (.extra-p: a ZIP holding experiment.json)",
     sniff_extrap_experiment, import_extrap_experiment, NULL},
    {"nsys-sqlite", "application/vnd.sqlite3", 0,
     "Nsight Systems SQLite export (nsys export --type sqlite)", sniff_nsys_sqlite,
     import_nsys_sqlite, NULL},
    {"hpctoolkit", "application/x-tar", 1,
     "HPCToolkit database (experiment.xml with *.metric-db, or meta.db and profile.db)",
     sniff_hpctoolkit, import_hpctoolkit, root_hpctoolkit},
    {"osu", "text/plain", 0, "OSU micro-benchmark output", sniff_osu, import_osu, NULL},
    {"chrome-trace", "application/json", 0,
     "Trace Event JSON (chrome://tracing, Perfetto; traceEvents)", sniff_chrome_trace,
     import_chrome_trace, NULL},
    {"gbench", "application/json", 0, "Google Benchmark JSON (--benchmark_format=json)",
     sniff_gbench, import_gbench, NULL},
    {"lnt-json", "application/json", 0, "LLVM LNT report (format version 1 or 2)",
     sniff_lnt_json, import_lnt_json, NULL},
    {"caliper-json", "application/json", 0, "Caliper json or json-split output",
     sniff_caliper_json, import_caliper_json, NULL},
    {"extrap-json", "application/json", 0, "Extra-P JSON input", sniff_extrap_json,
     import_extrap_json, NULL},
    {"extrap-jsonl", "application/x-ndjson", 0, "Extra-P JSON-lines input",
     sniff_extrap_jsonl, import_extrap_jsonl, NULL},
    {"json", "application/json", 0, "Prophecy run documents ({\"runs\": [...]})",
     sniff_rundoc_json, import_rundoc_json, NULL},
    {"bmf", "application/json", 0, "Bencher Metric Format", sniff_bmf, import_bmf, NULL},
    {"csv", "text/csv", 0,
     "Prophecy CSV (application,executable,system,nprocs,runtime,...)", sniff_rundoc_csv,
     import_rundoc_csv, NULL},
};

const struct fmt_format *fmt_table(size_t *n)
{
    *n = sizeof table / sizeof table[0];
    return table;
}

const struct fmt_format *fmt_find(const char *name)
{
    if (name == NULL)
        return NULL;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    return NULL;
}

static void list_names(char *out, size_t n)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < sizeof table / sizeof table[0] && used < n; i++) {
        int w = snprintf(out + used, n - used, "%s%s", i ? ", " : "", table[i].name);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* Files of the tools Prophecy reads in another of their forms: what to do
 * with them, told instead of "not recognised". */
static const struct {
    const char *suffix, *say;
} other_forms[] = {
    {".cali", "Caliper's own .cali format is not read: import Caliper's JSON "
              "(json or json-split, as CALI_CONFIG=hatchet-region-profile writes it), "
              "or convert the file with cali-query (... FORMAT json-split)"},
    {".nsys-rep", "an Nsight Systems report is read as its SQLite export: nsys export "
                  "--type sqlite FILE.nsys-rep, then import the .sqlite file"},
    {".qdrep", "an Nsight Systems report is read as its SQLite export: nsys export "
               "--type sqlite FILE.qdrep, then import the .sqlite file"},
    {".hpcrun", "HPCToolkit measurements are not a database: run hpcprof on the "
                "measurements directory and import the database it writes"},
};

/* What other_forms says of a file's name, or NULL. */
static const char *other_form(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    for (size_t i = 0; i < sizeof other_forms / sizeof other_forms[0]; i++) {
        size_t k = strlen(other_forms[i].suffix);
        if (n > k && strcmp(name + n - k, other_forms[i].suffix) == 0)
            return other_forms[i].say;
    }
    return NULL;
}

const struct fmt_format *fmt_detect(const struct fmt_file *files, size_t nfiles,
                                    struct err *err)
{
    char names[256];
    const char *say;

    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].sniff(files, nfiles))
            return &table[i];
    for (size_t i = 0; i < nfiles; i++)
        if ((say = other_form(files[i].name)) != NULL) {
            err_set(err, ERR_INVALID, "unknown_format", "format", "%s: %s", files[i].name,
                    say);
            return NULL;
        }
    list_names(names, sizeof names);
    err_set(err, ERR_INVALID, "unknown_format", "format",
            "%s: the format is not recognised; name it with format= (one of %s)",
            nfiles > 0 && files[0].name ? files[0].name : "input", names);
    return NULL;
}

void fmt_note(const struct fmt_sink *sink, const char *fmt, ...)
{
    char text[LIMIT_IMPORT_NOTE_LEN];
    va_list ap;

    if (sink == NULL || sink->note == NULL)
        return;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    sink->note(sink->ctx, text);
}

/* ---- a directory format's set, one run's directory at a time ---------------- */

struct root {
    const char *name; /* the directory: name[0..len), not NUL-terminated */
    size_t len;
};

static int cmp_root(const void *a, const void *b)
{
    const struct root *x = a, *y = b;
    int c = memcmp(x->name, y->name, x->len < y->len ? x->len : y->len);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* The index of the directory of the deepest root that holds `name`, or -1. */
static long owner_root(const struct root *r, size_t n, const char *name)
{
    size_t len = (size_t)imp_dir_len(name);
    for (;;) {
        struct root key = {name, len};
        const struct root *hit = bsearch(&key, r, n, sizeof *r, cmp_root);
        if (hit != NULL)
            return (long)(hit - r);
        if (len == 0)
            return -1;
        while (len > 0 && name[len - 1] != '/')
            len--;
        if (len > 0)
            len--;
    }
}

/* f reads the set; when it holds several runs' directories (f->root), each
 * directory in turn, with the files it holds, as if given alone. Files of no
 * run's directory are left out, as the format leaves out files it does not
 * read. */
static int parse_set(const struct fmt_format *f, const struct fmt_file *files,
                     size_t nfiles, const struct fmt_options *opt,
                     const struct fmt_sink *sink, struct err *err)
{
    struct root *roots = NULL;
    struct fmt_file *sub = NULL;
    long *owner = NULL;
    size_t nroots = 0, i, k;
    int rc = -1;

    if (f->root == NULL || nfiles < 2)
        return f->parse(files, nfiles, opt, sink, err);
    if ((roots = xmalloc(nfiles * sizeof *roots)) == NULL)
        return err_nomem(err);
    for (i = 0; i < nfiles; i++) {
        long d = f->root(files[i].name);
        if (d >= 0)
            roots[nroots++] = (struct root){files[i].name, (size_t)d};
    }
    qsort(roots, nroots, sizeof *roots, cmp_root);
    for (i = k = 0; i < nroots; i++)
        if (k == 0 || cmp_root(&roots[k - 1], &roots[i]) != 0)
            roots[k++] = roots[i];
    nroots = k;
    if (nroots <= 1) {
        xfree(roots);
        return f->parse(files, nfiles, opt, sink, err);
    }
    if ((owner = xmalloc(nfiles * sizeof *owner)) == NULL ||
        (sub = xmalloc(nfiles * sizeof *sub)) == NULL) {
        err_nomem(err);
        goto out;
    }
    for (i = 0; i < nfiles; i++)
        owner[i] = owner_root(roots, nroots, files[i].name);
    for (k = 0; k < nroots; k++) {
        struct fmt_options o = {0};
        char source[LIMIT_NAME + 1];
        const char *base = roots[k].name + roots[k].len;
        size_t m = 0, bl;
        for (i = 0; i < nfiles; i++)
            if (owner[i] == (long)k)
                sub[m++] = files[i];
        if (opt != NULL)
            o = *opt;
        /* the run is named by its own directory, as when given alone */
        while (base > roots[k].name && base[-1] != '/')
            base--;
        bl = (size_t)(roots[k].name + roots[k].len - base);
        if (bl > 0 && bl <= LIMIT_NAME && utf8_valid(base, bl)) {
            memcpy(source, base, bl);
            source[bl] = '\0';
            o.source = source;
        }
        if (f->parse(sub, m, &o, sink, err) != 0)
            goto out;
    }
    rc = 0;
out:
    xfree(roots);
    xfree(owner);
    xfree(sub);
    return rc;
}

/* The first format that recognises one file, or NULL (fmt_detect without
 * the error). */
static const struct fmt_format *sniff_one(const struct fmt_file *file)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].sniff(file, 1))
            return &table[i];
    return NULL;
}

/* A directory format took the set and read its own files: the files of it
 * that another format reads are told (a directory of every tool's output
 * imported only its OTF2 archives, without a word about the rest). */
static void note_others(const struct fmt_format *set, const struct fmt_file *files,
                        size_t nfiles, const struct fmt_sink *sink)
{
    const struct fmt_format *own, *first_fmt = NULL;
    const char *first = NULL;
    size_t n = 0;

    if (sink == NULL || sink->note == NULL)
        return;
    for (size_t i = 0; i < nfiles; i++) {
        if (set->sniff(&files[i], 1) || (own = sniff_one(&files[i])) == NULL ||
            own == set)
            continue;
        if (n++ == 0) {
            first = files[i].name;
            first_fmt = own;
        }
    }
    if (n > 0)
        fmt_note(sink,
                 "%zu file%s of other formats left out, read as %s data (%.100s is %s "
                 "data): import %s on %s own",
                 n, n == 1 ? "" : "s", set->name, first, first_fmt->name,
                 n == 1 ? "it" : "them", n == 1 ? "its" : "their");
}

/* Each file of a set that no directory format takes by its own format. A
 * file no format reads (a README, a job script beside the results) is left
 * out and told in a note; when none is read, the first one's error. */
static int parse_each(const struct fmt_file *files, size_t nfiles,
                      const struct fmt_options *opt, const struct fmt_sink *sink,
                      struct err *err)
{
    const struct fmt_format *f;
    size_t read = 0, skipped = 0, first = 0;

    for (size_t i = 0; i < nfiles; i++) {
        if ((f = sniff_one(&files[i])) == NULL) {
            if (skipped++ == 0)
                first = i;
            continue;
        }
        if (f->parse(&files[i], 1, opt, sink, err) != 0)
            return -1;
        read++;
    }
    if (read == 0)
        return fmt_detect(&files[first], 1, err) == NULL ? -1 : 0;
    if (skipped > 0)
        fmt_note(sink, "%zu file%s no format reads left out (%.100s%s)", skipped,
                 skipped == 1 ? "" : "s", files[first].name, skipped == 1 ? "" : ", ...");
    return 0;
}

int fmt_parse(const char *name, const struct fmt_file *files, size_t nfiles,
              const struct fmt_options *opt, const struct fmt_sink *sink, struct err *err)
{
    const struct fmt_format *f;
    char names[256];

    if (nfiles == 0)
        return err_set(err, ERR_INVALID, "invalid_import", "files", "no file to import");
    if (nfiles > LIMIT_IMPORT_FILES)
        return err_set(err, ERR_INVALID, "invalid_import", "files", "more than %d files",
                       LIMIT_IMPORT_FILES);
    for (size_t i = 0; i < nfiles; i++)
        if (files[i].len > LIMIT_IMPORT_FILE)
            return imp_fail_field(err, files[i].name, "file", "larger than %llu bytes",
                                  (unsigned long long)LIMIT_IMPORT_FILE);
    if ((name == NULL || strcmp(name, "auto") == 0) && nfiles > 1) {
        /* a directory format takes the set; otherwise each file is itself */
        for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
            if (table[i].directory && table[i].sniff(files, nfiles)) {
                if (parse_set(&table[i], files, nfiles, opt, sink, err) != 0)
                    return -1;
                note_others(&table[i], files, nfiles, sink);
                return 0;
            }
        return parse_each(files, nfiles, opt, sink, err);
    }
    if (name == NULL || strcmp(name, "auto") == 0)
        f = fmt_detect(files, nfiles, err);
    else if ((f = fmt_find(name)) == NULL) {
        list_names(names, sizeof names);
        err_set(err, ERR_INVALID, "unknown_format", "format",
                "unknown format %.64s (one of %s)", name, names);
    }
    if (f == NULL)
        return -1;
    if (f->directory)
        return parse_set(f, files, nfiles, opt, sink, err);
    if (nfiles == 1)
        return f->parse(files, nfiles, opt, sink, err);
    for (size_t i = 0; i < nfiles; i++)
        if (f->parse(&files[i], 1, opt, sink, err) != 0)
            return -1;
    return 0;
}

/* ---- tar -------------------------------------------------------------------- */

/* Reads an octal field (NUL or space terminated). Returns 0 or -1. */
static int octal(const unsigned char *p, size_t n, unsigned long long *out)
{
    size_t i = 0;
    unsigned long long v = 0;

    while (i < n && p[i] == ' ')
        i++;
    if (i == n || p[i] < '0' || p[i] > '7')
        return -1;
    for (; i < n && p[i] >= '0' && p[i] <= '7'; i++) {
        if (v > (~0ull >> 3))
            return -1;
        v = v * 8 + (unsigned)(p[i] - '0');
    }
    for (; i < n; i++)
        if (p[i] != ' ' && p[i] != '\0')
            return -1;
    *out = v;
    return 0;
}

static int zero_block(const unsigned char *p)
{
    for (int i = 0; i < 512; i++)
        if (p[i])
            return 0;
    return 1;
}

/* Takes "path=" from a pax extended header's records ("LEN key=value\n"). */
static char *pax_path(arena *a, const char *p, size_t n)
{
    char *path = NULL;
    size_t i = 0;

    while (i < n) {
        size_t len = 0, j = i;
        while (j < n && p[j] >= '0' && p[j] <= '9' && len < n)
            len = len * 10 + (size_t)(p[j++] - '0');
        if (j == i || j >= n || p[j] != ' ' || len == 0 || len > n - i)
            return NULL;
        if (len - (j + 1 - i) > 5 && memcmp(p + j + 1, "path=", 5) == 0)
            path = arena_strndup(a, p + j + 6, len - (j + 1 - i) - 6);
        i += len;
    }
    return path;
}

static int tar_read(const char *data, size_t len, arena *a, struct fmt_file **files,
                    size_t *nfiles, int lax, struct err *err);

int fmt_tar_read(const char *data, size_t len, arena *a, struct fmt_file **files,
                 size_t *nfiles, struct err *err)
{
    return tar_read(data, len, a, files, nfiles, 0, err);
}

int fmt_tar_read_lax(const char *data, size_t len, arena *a, struct fmt_file **files,
                     size_t *nfiles, struct err *err)
{
    return tar_read(data, len, a, files, nfiles, 1, err);
}

static int tar_read(const char *data, size_t len, arena *a, struct fmt_file **files,
                    size_t *nfiles, int lax, struct err *err)
{
    const unsigned char *u = (const unsigned char *)data;
    size_t off = 0, n = 0, cap = 0;
    char *next_name = NULL;
    struct fmt_file *out = NULL;

    *files = NULL;
    *nfiles = 0;
    for (;;) {
        const unsigned char *h = u + off;
        unsigned long long size, sum, want = 0;
        char name[256 + 2];
        size_t member = n + 1;
        char type;

        if (len - off < 512)
            return err_set(err, ERR_INVALID, "invalid_import", "tar",
                           "tar: the archive is truncated at byte %zu (member %zu)", off,
                           member);
        if (zero_block(h))
            break;
        for (int i = 0; i < 512; i++)
            want += (i >= 148 && i < 156) ? ' ' : h[i];
        if ((octal(h + 148, 8, &sum) != 0 || sum != want) &&
            !(lax && memcmp(h + 257, "ustar", 5) == 0))
            return err_set(
                err, ERR_INVALID, "invalid_import", "tar",
                "tar: member %zu has a bad header checksum (not a tar archive?)", member);
        if (octal(h + 124, 12, &size) != 0)
            return err_set(err, ERR_INVALID, "invalid_import", "tar",
                           "tar: member %zu has a bad size", member);
        if (size > len - off - 512)
            return err_set(err, ERR_INVALID, "invalid_import", "tar",
                           "tar: member %zu is truncated (%llu bytes announced)", member,
                           size);
        type = (char)h[156];
        if (h[345] && memcmp(h + 257, "ustar", 5) == 0)
            snprintf(name, sizeof name, "%.155s/%.100s", (const char *)h + 345,
                     (const char *)h);
        else
            snprintf(name, sizeof name, "%.100s", (const char *)h);
        if (type == 'x' || type == 'L') {
            next_name = type == 'x'
                            ? pax_path(a, data + off + 512, (size_t)size)
                            : arena_strndup(a, data + off + 512,
                                            strnlen(data + off + 512, (size_t)size));
        } else if (type == '0' || type == '\0' || type == '7') {
            const char *nm = next_name ? next_name : name;
            if (n >= LIMIT_IMPORT_FILES)
                return err_set(err, ERR_INVALID, "invalid_import", "tar",
                               "tar: more than %d files", LIMIT_IMPORT_FILES);
            if (n == cap) {
                size_t nc = cap ? cap * 2 : 16;
                struct fmt_file *nf = arena_alloc(a, nc * sizeof *nf);
                if (nf == NULL)
                    return err_nomem(err);
                if (n)
                    memcpy(nf, out, n * sizeof *nf);
                out = nf;
                cap = nc;
            }
            out[n].name = arena_strdup(a, nm);
            out[n].data = data + off + 512;
            out[n].len = (size_t)size;
            if (out[n].name == NULL)
                return err_nomem(err);
            n++;
            next_name = NULL;
        } else if (type == '5' || type == 'g') {
            next_name = NULL;
        } else {
            return err_set(
                err, ERR_INVALID, "invalid_import", "tar",
                "tar: member %.100s is not a regular file or directory (type %c)", name,
                type >= ' ' && type < 127 ? type : '?');
        }
        off += 512 + (size_t)((size + 511) / 512 * 512);
        if (off > len)
            return err_set(err, ERR_INVALID, "invalid_import", "tar",
                           "tar: member %zu is truncated", member);
    }
    *files = out;
    *nfiles = n;
    return 0;
}

/* ---- gzip ------------------------------------------------------------------- */

int fmt_is_gzip(const char *data, size_t len)
{
    return len >= 2 && (unsigned char)data[0] == 0x1f && (unsigned char)data[1] == 0x8b;
}

/* One pass over the gzip stream: counts the bytes it inflates to (at most
 * max) into *total, and copies them into dst when given (of max bytes). */
static int gunzip_pass(const char *name, const char *data, size_t len, size_t max,
                       char *dst, size_t *total, struct err *err)
{
    unsigned char chunk[16384];
    z_stream z;
    size_t in = 0, out = 0;
    int rc = -1;

    imp_zstream(&z);
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
        return err_nomem(err);
    for (;;) {
        size_t got;
        int zr;
        if (z.avail_in == 0 && in < len) {
            size_t n = len - in > UINT_MAX ? UINT_MAX : len - in;
            z.next_in = (Bytef *)(data + in);
            z.avail_in = (uInt)n;
            in += n;
        }
        z.next_out = chunk;
        z.avail_out = sizeof chunk;
        zr = inflate(&z, Z_NO_FLUSH);
        got = sizeof chunk - z.avail_out;
        if (got > max - out) {
            err_set(err, ERR_TOO_LARGE, "too_large", "file",
                    "%s: the gzip-compressed data inflates to more than %zu bytes", name,
                    max);
            goto out;
        }
        if (dst && got)
            memcpy(dst + out, chunk, got);
        out += got;
        if (zr == Z_OK)
            continue;
        if (zr == Z_STREAM_END) {
            size_t at = in - z.avail_in; /* the first byte not read */
            if (at == len)
                break;
            if (fmt_is_gzip(data + at, len - at)) { /* the next member */
                if (inflateReset(&z) != Z_OK) {
                    err_nomem(err);
                    goto out;
                }
                continue;
            }
            while (at < len && data[at] == '\0')
                at++;
            if (at == len)
                break; /* padding */
            err_set(err, ERR_INVALID, "invalid_import", "file",
                    "%s: bytes that are not gzip data follow the gzip stream (at byte "
                    "%zu)",
                    name, at);
            goto out;
        }
        if (zr == Z_MEM_ERROR) {
            err_nomem(err);
            goto out;
        }
        if (zr == Z_BUF_ERROR && z.avail_in == 0 && in == len)
            err_set(err, ERR_INVALID, "invalid_import", "file",
                    "%s: the gzip-compressed data is truncated (it ends after %zu bytes "
                    "inflated)",
                    name, out);
        else
            err_set(err, ERR_INVALID, "invalid_import", "file",
                    "%s: the gzip-compressed data is damaged (%s)", name,
                    z.msg ? z.msg : "not a gzip stream");
        goto out;
    }
    *total = out;
    rc = 0;
out:
    inflateEnd(&z);
    return rc;
}

int fmt_gunzip(const char *name, const char *data, size_t len, size_t max, arena *a,
               char **out, size_t *outlen, struct err *err)
{
    size_t total = 0, again = 0;
    char *buf;

    *out = NULL;
    *outlen = 0;
    if (max == SIZE_MAX)
        max--; /* room for the NUL */
    if (gunzip_pass(name, data, len, max, NULL, &total, err) != 0)
        return -1;
    buf = a ? arena_alloc(a, total + 1) : xmalloc(total + 1);
    if (buf == NULL)
        return err_nomem(err);
    if (gunzip_pass(name, data, len, total, buf, &again, err) != 0 || again != total) {
        if (again != total && err->status == ERR_NONE)
            err_set(err, ERR_INTERNAL, "internal", "file",
                    "%s: the gzip data inflated differently twice", name);
        if (!a)
            xfree(buf);
        return -1;
    }
    buf[total] = '\0';
    *out = buf;
    *outlen = total;
    return 0;
}
