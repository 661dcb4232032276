/* form_field: a step's fields (selects, text fields, groups), each with the
 * error shown next to it; see form.h. */
#include "web/form.h"

#include <stdio.h>
#include <string.h>

/* A readable element id for a field name ("fix.nprocs" -> "f-fix-nprocs");
 * names with other characters get a counter to stay unique. */
static const char *field_id(struct fctx *c, const char *name)
{
    struct buf b;
    const char *s, *id;
    int plain = 1, dot = 0;
    buf_init(&b, 256);
    buf_puts(&b, "f-");
    for (s = name; *s && s - name < 64; s++) {
        char ch = *s;
        if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
            (ch >= '0' && ch <= '9') || ch == '_') {
            buf_putc(&b, ch);
        } else if (ch == '.' && !dot) {
            buf_putc(&b, '-');
            dot = 1;
        } else {
            buf_putc(&b, '-');
            plain = 0;
        }
    }
    if (*s)
        plain = 0;
    if (!plain)
        buf_printf(&b, "-%d", ++c->nid);
    id = arena_strdup(c->arena, buf_str(&b));
    buf_free(&b);
    return id ? id : "f";
}

static int err_here(struct fctx *c, const char *name)
{
    return c->err.status && c->err_field && strcmp(c->err_field, name) == 0;
}

/* The characters a closed select shows in one column of .fields. */
#define SELECT_COLUMN_CHARS 24

/* The larger of n and the characters of UTF-8 text s. */
static size_t chars_max(size_t n, const char *s)
{
    size_t k = 0;
    for (; *s; s++)
        k += ((unsigned char)*s & 0xC0) != 0x80;
    return k > n ? k : n;
}

static void label_open(struct fctx *c, const char *id, const char *label,
                       const char *hint, int wide)
{
    page_printf(&c->p, "<div class=\"field%s\"><label for=\"%s\">", wide ? " wide" : "",
                id);
    page_text(&c->p, label);
    if (hint) {
        page_puts(&c->p, " <span class=\"hint\">");
        page_text(&c->p, hint);
        page_puts(&c->p, "</span>");
    }
    page_puts(&c->p, "</label>");
}

static void field_close(struct fctx *c, const char *id, int bad)
{
    if (bad) {
        page_printf(&c->p, "<p class=\"field-error\" id=\"%s-error\">", id);
        page_text(&c->p, c->err.message);
        page_puts(&c->p, "</p>");
        c->err_shown = 1;
    }
    page_puts(&c->p, "</div>\n");
}

void ff_select(struct fctx *c, const char *name, const char *label, const char *hint,
               const char *const *values, const char *const *labels, size_t n,
               const char *selected, int autosubmit)
{
    const char *id = field_id(c, name);
    int bad = err_here(c, name);
    size_t i, longest = 0;
    /* A select shows its choice closed: one whose longest choice would be
     * cut in a column of the grid (14rem holds about 24 characters beside
     * the arrow) takes the whole row, as "MPISR · Testing Same CCD, Different
     * Socket" and long kernel names need. */
    for (i = 0; i < n; i++)
        longest = chars_max(longest, labels && labels[i] ? labels[i] : values[i]);
    label_open(c, id, label, hint, longest > SELECT_COLUMN_CHARS);
    page_printf(&c->p, "<select id=\"%s\" name=\"", id);
    page_attr(&c->p, name);
    page_puts(&c->p, "\"");
    if (autosubmit)
        page_puts(&c->p, " data-autosubmit");
    if (bad)
        page_printf(&c->p, " aria-invalid=\"true\" aria-describedby=\"%s-error\"", id);
    page_puts(&c->p, ">");
    for (i = 0; i < n; i++) {
        page_puts(&c->p, "<option value=\"");
        page_attr(&c->p, values[i]);
        page_puts(&c->p, "\"");
        if (selected && strcmp(selected, values[i]) == 0)
            page_puts(&c->p, " selected");
        page_puts(&c->p, ">");
        page_text(&c->p, labels && labels[i] ? labels[i] : values[i]);
        page_puts(&c->p, "</option>");
    }
    page_puts(&c->p, "</select>");
    field_close(c, id, bad);
}

void ff_text(struct fctx *c, const char *name, const char *label, const char *hint,
             const char *value, const char *placeholder, const char *inputmode)
{
    const char *id = field_id(c, name);
    int bad = err_here(c, name);
    label_open(c, id, label, hint, 0);
    page_printf(&c->p, "<input type=\"text\" id=\"%s\" name=\"", id);
    page_attr(&c->p, name);
    page_puts(&c->p, "\" value=\"");
    page_attr(&c->p, value ? value : "");
    page_puts(&c->p, "\"");
    if (placeholder) {
        page_puts(&c->p, " placeholder=\"");
        page_attr(&c->p, placeholder);
        page_puts(&c->p, "\"");
    }
    if (inputmode)
        page_printf(&c->p, " inputmode=\"%s\"", inputmode);
    if (bad)
        page_printf(&c->p, " aria-invalid=\"true\" aria-describedby=\"%s-error\"", id);
    page_puts(&c->p, ">");
    field_close(c, id, bad);
}

void ff_group_open(struct fctx *c, const char *legend, const char *hint,
                   const char *field)
{
    page_puts(&c->p, "<fieldset class=\"group\"><legend>");
    page_text(&c->p, legend);
    page_puts(&c->p, "</legend>");
    if (hint) {
        page_puts(&c->p, "<p class=\"hint\">");
        page_text(&c->p, hint);
        page_puts(&c->p, "</p>");
    }
    /* An error that names the group as a whole. */
    if (field && err_here(c, field)) {
        page_puts(&c->p, "<p class=\"field-error\" role=\"alert\">");
        page_text(&c->p, c->err.message);
        page_puts(&c->p, "</p>");
        c->err_shown = 1;
    }
    page_puts(&c->p, "<div class=\"fields\">\n");
}

void ff_group_close(struct fctx *c)
{
    page_puts(&c->p, "</div></fieldset>\n");
}
