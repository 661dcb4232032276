/* form_state: a modeling form's state, its fields by name, and the
 * method's own data; see form.h. */
#include "web/form.h"
#include "common/utf8.h"

#include <string.h>

const char *fs_get(struct fctx *c, const char *name)
{
    return form_get(&c->st, name);
}

const char *fs_val(struct fctx *c, const char *name)
{
    const char *s = form_get(&c->st, name);
    return s && *s ? s : NULL;
}

void fs_set(struct fctx *c, const char *name, const char *value)
{
    struct form_field *f;
    size_t i;
    value = arena_strdup(c->arena, value ? value : "");
    if (value == NULL)
        return;
    for (i = 0; i < c->st.n; i++)
        if (strcmp(c->st.fields[i].name, name) == 0) {
            c->st.fields[i].value = value;
            c->st.fields[i].len = strlen(value);
            return;
        }
    f = arena_alloc(c->arena, (c->st.n + 1) * sizeof *f);
    name = arena_strdup(c->arena, name);
    if (f == NULL || name == NULL)
        return;
    if (c->st.n)
        memcpy(f, c->st.fields, c->st.n * sizeof *f);
    memset(&f[c->st.n], 0, sizeof *f);
    f[c->st.n].name = name;
    f[c->st.n].value = value;
    f[c->st.n].len = strlen(value);
    c->st.fields = f;
    c->st.n++;
}

const char *fs_name(struct fctx *c, const char *prefix, const char *rest)
{
    return arena_printf(c->arena, "%s%s", prefix, rest);
}

/* Rejects a state that is not text: every name and value valid UTF-8 of
 * bounded length. */
int forms_state_ok(const struct form *f, struct err *err)
{
    size_t i;
    for (i = 0; i < f->n; i++) {
        const struct form_field *x = &f->fields[i];
        if (!utf8_valid(x->name, strlen(x->name)) || x->len != strlen(x->value) ||
            !utf8_valid(x->value, x->len))
            return err_set(err, 400, "bad_form", NULL,
                           "the form holds text that is not UTF-8");
        if (x->len > FORMS_MAX_VALUE)
            return err_set(err, 413, "too_large", NULL,
                           "a field of the form is longer than %d bytes",
                           FORMS_MAX_VALUE);
    }
    return 0;
}

void *forms_data(struct fctx *c, size_t size)
{
    if (c->data == NULL && (c->data = arena_alloc(c->arena, size)) != NULL)
        memset(c->data, 0, size);
    return c->data;
}
