/* view_app_csv: the runs table of an application's page as CSV (see
 * view.h), written with the program's one CSV writer (formats/export.h), so
 * the page's download and GET /api/v1/export quote alike. */
#include "formats/export.h"
#include "web/view.h"

#include <stdlib.h>
#include <string.h>

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int view_app_csv(struct buf *out, arena *a, const struct view_run_row *rows, size_t n)
{
    const char **names = NULL;
    size_t nn = 0, cap = 0, i, k, j;

    /* the input names of the rows, sorted, each once */
    for (i = 0; i < n; i++)
        for (k = 0; k < rows[i].ninputs; k++) {
            const char *nm = rows[i].inputs[k].name;
            for (j = 0; j < nn && strcmp(names[j], nm) != 0; j++)
                ;
            if (j < nn)
                continue;
            if (nn == cap) {
                const char **grown;
                cap = cap ? 2 * cap : 16;
                grown = arena_alloc(a, cap * sizeof *grown);
                if (grown == NULL)
                    return -1;
                if (nn)
                    memcpy(grown, names, nn * sizeof *names);
                names = grown;
            }
            names[nn++] = nm;
        }
    if (nn)
        qsort(names, nn, sizeof *names, cmp_str);
    buf_puts(out, "run,executable,system,nprocs");
    for (j = 0; j < nn; j++) {
        buf_putc(out, ',');
        export_csv_cell(out, names[j]);
    }
    buf_puts(out, ",runtime,kernels,stored,commit,branch\r\n");
    for (i = 0; i < n; i++) {
        const struct view_run_row *r = &rows[i];
        buf_printf(out, "%lld,", r->id);
        export_csv_cell(out, r->executable);
        buf_putc(out, ',');
        export_csv_cell(out, r->system);
        buf_printf(out, ",%lld", r->nprocs);
        for (j = 0; j < nn; j++) {
            buf_putc(out, ',');
            for (k = 0; k < r->ninputs; k++)
                if (strcmp(r->inputs[k].name, names[j]) == 0) {
                    export_csv_num(out, r->inputs[k].value);
                    break;
                }
        }
        buf_putc(out, ',');
        export_csv_num(out, r->runtime);
        buf_printf(out, ",%lld,", r->nkernels);
        export_csv_cell(out, r->created_at);
        buf_putc(out, ',');
        export_csv_cell(out, r->commit);
        buf_putc(out, ',');
        export_csv_cell(out, r->branch);
        buf_puts(out, "\r\n");
    }
    return 0;
}
