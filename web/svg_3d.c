/* svg_3d: the 3-D surface plot (svg_plot3d in svg.h).
 *
 * The grid is mapped into a box [-1, 1] x [-1, 1] x [-0.75, 0.75] and
 * projected orthographically from azimuth -60 degrees, elevation 30 degrees
 * (matplotlib's default view). The three back panes of the box are drawn with
 * grid lines, then the surface as quadrilaterals in painter's order (far to
 * near by the horizontal depth of their centres, which is exact for a height
 * field seen from above), then the axes on the front edges, the colour bar
 * and the measured points. Grids with more than 61 values along a side are
 * resampled to at most 60 x 60 quads: quad corners are grid values at evenly
 * spaced indices (so the surface passes through real data), and each quad's
 * colour is the mean of all grid values it covers (so peaks between the
 * sampled indices still show). No I/O, no state.
 */
#include "web/svg.h"
#include "web/svg_priv.h"
#include "common/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_W 760
#define DEFAULT_H 560
#define BOX_Z 0.75
#define AZIMUTH_DEG (-60.0)
#define ELEVATION_DEG 30.0
#define MAX_MAGNITUDE 1e150
#define PI 3.14159265358979323846

struct vec3 {
    double x, y, z;
};

struct quad {
    double depth;
    size_t idx; /* k + l * (mx - 1); also the tie-breaker, for determinism */
};

struct view {
    struct vec3 r, u, d; /* screen right, screen up, towards the viewer */
    double scale, ox, oy;
};

struct surf {
    const struct svg_plot3d *p;
    double xmin, xmax, ymin, ymax; /* grid ranges */
    double zmin, zmax;             /* finite data range (colours) */
    double zlo, zhi;               /* box range: loose nice ticks */
    struct view v;
};

static int finite_z(double z)
{
    return isfinite(z) && fabs(z) <= MAX_MAGNITUDE;
}

static double dot(struct vec3 a, struct vec3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

static double nx_of(const struct surf *s, double x)
{
    return -1 + 2 * (x - s->xmin) / (s->xmax - s->xmin);
}

static double ny_of(const struct surf *s, double y)
{
    return -1 + 2 * (y - s->ymin) / (s->ymax - s->ymin);
}

static double nz_of(const struct surf *s, double z)
{
    return -BOX_Z + 2 * BOX_Z * (z - s->zlo) / (s->zhi - s->zlo);
}

static void project(const struct view *v, struct vec3 w, double *px, double *py)
{
    *px = v->ox + v->scale * dot(w, v->r);
    *py = v->oy - v->scale * dot(w, v->u);
}

static void put_pt(struct buf *b, const struct view *v, struct vec3 w)
{
    double px, py;
    project(v, w, &px, &py);
    svg_num(b, px);
    buf_putc(b, ' ');
    svg_num(b, py);
}

static struct vec3 v3(double x, double y, double z)
{
    struct vec3 w;
    w.x = x;
    w.y = y;
    w.z = z;
    return w;
}

static int monotonic(const double *a, size_t n)
{
    size_t i;
    int dir;

    for (i = 0; i < n; i++)
        if (!isfinite(a[i]) || fabs(a[i]) > MAX_MAGNITUDE)
            return 0;
    dir = a[1] > a[0] ? 1 : -1;
    for (i = 1; i < n; i++)
        if (!(dir > 0 ? a[i] > a[i - 1] : a[i] < a[i - 1]))
            return 0;
    return 1;
}

static int validate(const struct svg_plot3d *p, struct err *err)
{
    if (p == NULL)
        return err_invalid(err, NULL, "no plot given");
    if (svg_check_text(p->title, "title", err) ||
        svg_check_text(p->xlabel, "xlabel", err) ||
        svg_check_text(p->ylabel, "ylabel", err) ||
        svg_check_text(p->zlabel, "zlabel", err) ||
        svg_check_text(p->points_label, "points_label", err) ||
        svg_check_size(p->width, p->height, err))
        return -1;
    if (p->nx < SVG_MIN_GRID || p->ny < SVG_MIN_GRID || p->nx > SVG_MAX_GRID ||
        p->ny > SVG_MAX_GRID)
        return err_invalid(
            err, "grid", "the 3-D grid must be %dx%d to %dx%d values, not %zux%zu",
            SVG_MIN_GRID, SVG_MIN_GRID, SVG_MAX_GRID, SVG_MAX_GRID, p->nx, p->ny);
    if (p->x == NULL || p->y == NULL || p->z == NULL)
        return err_invalid(err, "grid", "grid arrays missing");
    if (!monotonic(p->x, p->nx))
        return err_invalid(err, "x", "x values must be finite and strictly monotonic");
    if (!monotonic(p->y, p->ny))
        return err_invalid(err, "y", "y values must be finite and strictly monotonic");
    if (p->npoints > SVG_MAX_3D_POINTS)
        return err_invalid(err, "points", "more than %d points over a 3-D plot (%zu)",
                           SVG_MAX_3D_POINTS, p->npoints);
    if (p->npoints > 0 && p->points == NULL)
        return err_invalid(err, "points", "points missing");
    return 0;
}

/* Evenly spaced source indices 0 = idx[0] < ... < idx[m-1] = n-1. */
static size_t sample_indices(size_t n, size_t *idx)
{
    size_t m = n > SVG_MAX_QUADS_SIDE + 1 ? SVG_MAX_QUADS_SIDE + 1 : n, k;
    for (k = 0; k < m; k++)
        idx[k] = (k * (n - 1) + (m - 1) / 2) / (m - 1);
    return m;
}

static int cmp_quad(const void *a, const void *b)
{
    const struct quad *qa = a, *qb = b;
    if (qa->depth != qb->depth)
        return qa->depth < qb->depth ? -1 : 1;
    return qa->idx < qb->idx ? -1 : qa->idx > qb->idx;
}

/* Ticks inside [lo, hi] (either order) with their step; the two ends when
 * nice ticks would leave fewer than two. */
static int inner_ticks(double a, double b, int max, double *t, double *step)
{
    double lo = fmin(a, b), hi = fmax(a, b), all[SVG_MAX_TICKS], eps = (hi - lo) * 1e-9;
    int n = 0, m, i;

    if (svg_nice_ticks(lo, hi, max, all, &m, step) == 0)
        for (i = 0; i < m; i++)
            if (all[i] >= lo - eps && all[i] <= hi + eps)
                t[n++] = all[i];
    if (n < 2) {
        t[0] = lo;
        t[1] = hi;
        n = 2;
        *step = (hi - lo) / 100;
    }
    return n;
}

static const char *anchor_for(double dx, double dy)
{
    double len = hypot(dx, dy);
    if (len > 0 && dx < -0.35 * len)
        return "end";
    if (len > 0 && dx > 0.35 * len)
        return "start";
    return "middle";
}

/* Ticks and labels along one box edge from a to b; values v[i] lie at
 * parameter f[i] in [0, 1]; out is the outward direction in box space. */
static void edge_axis(struct buf *b, const struct view *v, struct vec3 a, struct vec3 e,
                      struct vec3 out, const double *vals, const double *f, int n,
                      double step, const char *label)
{
    double ax, ay, bx, by, dx, dy, mx, my;
    const char *anchor;
    char s[48];
    int i;

    project(v, a, &ax, &ay);
    project(v, v3(a.x + out.x * 0.08, a.y + out.y * 0.08, a.z + out.z * 0.08), &bx, &by);
    dx = bx - ax;
    dy = by - ay;
    anchor = anchor_for(dx, dy);
    buf_puts(b, "<path stroke=\"#444444\" fill=\"none\" d=\"M");
    put_pt(b, v, a);
    buf_putc(b, ' ');
    put_pt(b, v, v3(a.x + e.x, a.y + e.y, a.z + e.z));
    for (i = 0; i < n; i++) {
        struct vec3 p = v3(a.x + e.x * f[i], a.y + e.y * f[i], a.z + e.z * f[i]);
        buf_putc(b, 'M');
        put_pt(b, v, p);
        buf_putc(b, 'l');
        svg_num(b, dx * 0.6);
        buf_putc(b, ' ');
        svg_num(b, dy * 0.6);
    }
    buf_printf(b, "\"/>\n<g font-size=\"%d\" fill=\"#333333\">\n", SVG_FS_SMALL);
    for (i = 0; i < n; i++) {
        struct vec3 p = v3(a.x + e.x * f[i], a.y + e.y * f[i], a.z + e.z * f[i]);
        project(v, p, &mx, &my);
        svg_fmt_tick(s, sizeof s, vals[i], step);
        svg_label(b, mx + dx * 1.3, my + dy * 1.3 + 4, anchor, NULL, s, 24);
    }
    buf_puts(b, "</g>\n");
    if (label != NULL && *label) {
        struct vec3 m = v3(a.x + e.x / 2, a.y + e.y / 2, a.z + e.z / 2);
        project(v, m, &mx, &my);
        svg_label(b, mx + dx * 4.2, my + dy * 4.2 + 4, anchor_for(dx, dy), NULL, label,
                  40);
    }
}

/* The three panes at the back of the box with grid lines at the ticks. */
static void back_panes(struct buf *b, const struct surf *s, double xb, double yb,
                       const double *xt, int nxt, const double *yt, int nyt,
                       const double *zt, int nzt)
{
    const struct view *v = &s->v;
    int i;

    buf_puts(b, "<path fill=\"#f5f5f5\" stroke=\"#bbbbbb\" d=\"M");
    /* floor */
    put_pt(b, v, v3(-1, -1, -BOX_Z));
    buf_putc(b, ' ');
    put_pt(b, v, v3(1, -1, -BOX_Z));
    buf_putc(b, ' ');
    put_pt(b, v, v3(1, 1, -BOX_Z));
    buf_putc(b, ' ');
    put_pt(b, v, v3(-1, 1, -BOX_Z));
    buf_puts(b, "zM");
    /* wall at x = xb */
    put_pt(b, v, v3(xb, -1, -BOX_Z));
    buf_putc(b, ' ');
    put_pt(b, v, v3(xb, 1, -BOX_Z));
    buf_putc(b, ' ');
    put_pt(b, v, v3(xb, 1, BOX_Z));
    buf_putc(b, ' ');
    put_pt(b, v, v3(xb, -1, BOX_Z));
    buf_puts(b, "zM");
    /* wall at y = yb */
    put_pt(b, v, v3(-1, yb, -BOX_Z));
    buf_putc(b, ' ');
    put_pt(b, v, v3(1, yb, -BOX_Z));
    buf_putc(b, ' ');
    put_pt(b, v, v3(1, yb, BOX_Z));
    buf_putc(b, ' ');
    put_pt(b, v, v3(-1, yb, BOX_Z));
    buf_puts(b, "z\"/>\n<path stroke=\"#dddddd\" fill=\"none\" d=\"");
    for (i = 0; i < nxt; i++) {
        double x = nx_of(s, xt[i]);
        buf_putc(b, 'M');
        put_pt(b, v, v3(x, -yb, -BOX_Z));
        buf_putc(b, ' ');
        put_pt(b, v, v3(x, yb, -BOX_Z));
        buf_putc(b, ' ');
        put_pt(b, v, v3(x, yb, BOX_Z));
    }
    for (i = 0; i < nyt; i++) {
        double y = ny_of(s, yt[i]);
        buf_putc(b, 'M');
        put_pt(b, v, v3(-xb, y, -BOX_Z));
        buf_putc(b, ' ');
        put_pt(b, v, v3(xb, y, -BOX_Z));
        buf_putc(b, ' ');
        put_pt(b, v, v3(xb, y, BOX_Z));
    }
    for (i = 0; i < nzt; i++) {
        double z = nz_of(s, zt[i]);
        buf_putc(b, 'M');
        put_pt(b, v, v3(-xb, yb, z));
        buf_putc(b, ' ');
        put_pt(b, v, v3(xb, yb, z));
        buf_putc(b, ' ');
        put_pt(b, v, v3(xb, -yb, z));
    }
    buf_puts(b, "\"/>\n");
}

int svg_plot3d(struct buf *out, const struct svg_plot3d *pin, struct err *err)
{
    struct svg_plot3d p;
    struct surf s;
    size_t start = out->len, nx, ny, mx, my, i, j, k, l, nq = 0, skipped_pts = 0;
    size_t ix[SVG_MAX_QUADS_SIDE + 1], iy[SVG_MAX_QUADS_SIDE + 1];
    double *sum = NULL, *cnt = NULL;
    struct quad *quads = NULL;
    double xt[SVG_MAX_TICKS], yt[SVG_MAX_TICKS], zt[SVG_MAX_TICKS], f[SVG_MAX_TICKS];
    double xstep = 1, ystep = 1, zstep = 1, xb, yb, xf, yf;
    int nxt, nyt, nzt, have = 0, rc = -1, c;
    struct vec3 light;
    char desc[400];

    if (buf_failed(out))
        return err_set(err, ERR_INTERNAL, "internal", NULL,
                       "output buffer already failed");
    if (validate(pin, err) != 0)
        return -1;
    p = *pin;
    if (p.width == 0)
        p.width = DEFAULT_W;
    if (p.height == 0)
        p.height = DEFAULT_H;
    memset(&s, 0, sizeof s);
    s.p = &p;
    nx = p.nx;
    ny = p.ny;

    for (i = 0; i < nx * ny; i++) {
        double z = p.z[i];
        if (!finite_z(z))
            continue;
        if (!have || z < s.zmin)
            s.zmin = z;
        if (!have || z > s.zmax)
            s.zmax = z;
        have = 1;
    }
    if (!have) {
        err_invalid(err, "z", "no finite z value to plot");
        goto out;
    }
    s.xmin = fmin(p.x[0], p.x[nx - 1]);
    s.xmax = fmax(p.x[0], p.x[nx - 1]);
    s.ymin = fmin(p.y[0], p.y[ny - 1]);
    s.ymax = fmax(p.y[0], p.y[ny - 1]);
    if (svg_nice_ticks(s.zmin, s.zmax, 6, zt, &nzt, &zstep) != 0 || nzt < 2) {
        err_invalid(err, "z", "z range cannot be shown");
        goto out;
    }
    s.zlo = zt[0];
    s.zhi = zt[nzt - 1];
    nxt = inner_ticks(s.xmin, s.xmax, 6, xt, &xstep);
    nyt = inner_ticks(s.ymin, s.ymax, 6, yt, &ystep);

    /* Prefix sums of the finite values, for the block means. */
    sum = xcalloc((nx + 1) * (ny + 1), sizeof *sum);
    cnt = xcalloc((nx + 1) * (ny + 1), sizeof *cnt);
    quads = xmalloc(SVG_MAX_QUADS_SIDE * SVG_MAX_QUADS_SIDE * sizeof *quads);
    if (sum == NULL || cnt == NULL || quads == NULL) {
        err_nomem(err);
        goto out;
    }
    for (j = 0; j < ny; j++)
        for (i = 0; i < nx; i++) {
            double z = p.z[j * nx + i];
            int ok = finite_z(z);
            size_t at = (j + 1) * (nx + 1) + (i + 1);
            sum[at] = (ok ? z : 0) + sum[at - 1] + sum[at - nx - 1] - sum[at - nx - 2];
            cnt[at] = ok + cnt[at - 1] + cnt[at - nx - 1] - cnt[at - nx - 2];
        }
    mx = sample_indices(nx, ix);
    my = sample_indices(ny, iy);

    /* The view. */
    {
        double az = AZIMUTH_DEG * PI / 180, el = ELEVATION_DEG * PI / 180;
        double bx0 = 1e9, bx1 = -1e9, by0 = 1e9, by1 = -1e9, aw, ah, top, cx, cy;
        int corner;
        s.v.r = v3(-sin(az), cos(az), 0);
        s.v.u = v3(-sin(el) * cos(az), -sin(el) * sin(az), cos(el));
        s.v.d = v3(cos(el) * cos(az), cos(el) * sin(az), sin(el));
        for (corner = 0; corner < 8; corner++) {
            struct vec3 w =
                v3(corner & 1 ? 1 : -1, corner & 2 ? 1 : -1, corner & 4 ? BOX_Z : -BOX_Z);
            double sx = dot(w, s.v.r), sy = dot(w, s.v.u);
            bx0 = fmin(bx0, sx);
            bx1 = fmax(bx1, sx);
            by0 = fmin(by0, sy);
            by1 = fmax(by1, sy);
        }
        /* Room for tick labels and axis labels around the box, and for the
         * colour bar on the right. */
        top = (p.title != NULL && *p.title) ? 44 : 20;
        aw = p.width - 110 - 150;
        ah = p.height - top - 20 - 70;
        s.v.scale = fmin(aw / (bx1 - bx0), ah / (by1 - by0));
        cx = 110 + aw / 2;
        cy = top + 20 + ah / 2;
        s.v.ox = cx - s.v.scale * (bx0 + bx1) / 2;
        s.v.oy = cy + s.v.scale * (by0 + by1) / 2;
        light = v3(-0.35, -0.55, 0.76);
    }
    /* Back panes face away from the viewer; axes go on the front edges. */
    xb = s.v.d.x > 0 ? -1 : 1;
    yb = s.v.d.y > 0 ? -1 : 1;
    xf = -xb;
    yf = -yb;

    for (l = 0; l + 1 < my; l++)
        for (k = 0; k + 1 < mx; k++) {
            size_t i0 = ix[k], i1 = ix[k + 1], j0 = iy[l], j1 = iy[l + 1];
            double cxn, cyn;
            if (!finite_z(p.z[j0 * nx + i0]) || !finite_z(p.z[j0 * nx + i1]) ||
                !finite_z(p.z[j1 * nx + i0]) || !finite_z(p.z[j1 * nx + i1]))
                continue;
            cxn = (nx_of(&s, p.x[i0]) + nx_of(&s, p.x[i1])) / 2;
            cyn = (ny_of(&s, p.y[j0]) + ny_of(&s, p.y[j1])) / 2;
            quads[nq].depth = cxn * s.v.d.x + cyn * s.v.d.y;
            quads[nq++].idx = k + l * (mx - 1);
        }
    qsort(quads, nq, sizeof *quads, cmp_quad);

    snprintf(desc, sizeof desc,
             "Prophecy 3-D surface: %zux%zu grid drawn as %zu quads%s; z from %.6g to "
             "%.6g; view azimuth -60, elevation 30",
             nx, ny, nq, (mx < nx || my < ny) ? " (resampled)" : "", s.zmin, s.zmax);
    svg_begin(out, p.width, p.height, p.title, desc);
    svg_title(out, p.width, p.title);
    back_panes(out, &s, xb, yb, xt, nxt, yt, nyt, zt, nzt);

    buf_puts(out, "<g stroke-width=\"0.6\" stroke-linejoin=\"round\">\n");
    for (i = 0; i < nq; i++) {
        size_t q = quads[i].idx;
        size_t qk = q % (mx - 1), ql = q / (mx - 1);
        size_t i0 = ix[qk], i1 = ix[qk + 1], j0 = iy[ql], j1 = iy[ql + 1];
        struct vec3 c0 =
            v3(nx_of(&s, p.x[i0]), ny_of(&s, p.y[j0]), nz_of(&s, p.z[j0 * nx + i0]));
        struct vec3 c1 =
            v3(nx_of(&s, p.x[i1]), ny_of(&s, p.y[j0]), nz_of(&s, p.z[j0 * nx + i1]));
        struct vec3 c2 =
            v3(nx_of(&s, p.x[i1]), ny_of(&s, p.y[j1]), nz_of(&s, p.z[j1 * nx + i1]));
        struct vec3 c3 =
            v3(nx_of(&s, p.x[i0]), ny_of(&s, p.y[j1]), nz_of(&s, p.z[j1 * nx + i0]));
        struct vec3 da = v3(c2.x - c0.x, c2.y - c0.y, c2.z - c0.z);
        struct vec3 db = v3(c3.x - c1.x, c3.y - c1.y, c3.z - c1.z);
        struct vec3 n = v3(da.y * db.z - da.z * db.y, da.z * db.x - da.x * db.z,
                           da.x * db.y - da.y * db.x);
        double nl = sqrt(dot(n, n)), shade, mean, t;
        size_t a1 = (j1 + 1) * (nx + 1) + (i1 + 1), a0 = j0 * (nx + 1) + i0;
        size_t ab = j0 * (nx + 1) + (i1 + 1), ac = (j1 + 1) * (nx + 1) + i0;
        unsigned char rgb[3];

        /* Mean of every finite grid value the quad covers (inclusive). */
        mean = (sum[a1] - sum[ab] - sum[ac] + sum[a0]) /
               (cnt[a1] - cnt[ab] - cnt[ac] + cnt[a0]);
        t = s.zmax > s.zmin ? (mean - s.zmin) / (s.zmax - s.zmin) : s.zmax == 0 ? 0 : 0.5;
        shade = nl > 0 ? 0.6 + 0.4 * fabs(dot(n, light)) / nl : 1;
        svg_cmap(t, rgb);
        for (c = 0; c < 3; c++)
            rgb[c] = (unsigned char)lround(rgb[c] * shade);
        buf_puts(out, "<path d=\"M");
        put_pt(out, &s.v, c0);
        buf_putc(out, ' ');
        put_pt(out, &s.v, c1);
        buf_putc(out, ' ');
        put_pt(out, &s.v, c2);
        buf_putc(out, ' ');
        put_pt(out, &s.v, c3);
        buf_puts(out, "z\" fill=\"");
        svg_rgb(out, rgb);
        buf_puts(out, "\" stroke=\"");
        svg_rgb(out, rgb);
        buf_puts(out, "\"/>\n");
    }
    buf_puts(out, "</g>\n");

    /* Axes: x along the front y edge, y along the front x edge, z on the
     * vertical edge that is leftmost on screen. */
    for (i = 0; i < (size_t)nxt; i++)
        f[i] = (nx_of(&s, xt[i]) + 1) / 2;
    edge_axis(out, &s.v, v3(-1, yf, -BOX_Z), v3(2, 0, 0), v3(0, yf, 0), xt, f, nxt, xstep,
              p.xlabel);
    for (i = 0; i < (size_t)nyt; i++)
        f[i] = (ny_of(&s, yt[i]) + 1) / 2;
    edge_axis(out, &s.v, v3(xf, -1, -BOX_Z), v3(0, 2, 0), v3(xf, 0, 0), yt, f, nyt, ystep,
              p.ylabel);
    {
        double best = 1e300, zx = -1, zy = -1, px, py;
        int corner;
        for (corner = 0; corner < 4; corner++) {
            double cxw = corner & 1 ? 1 : -1, cyw = corner & 2 ? 1 : -1;
            project(&s.v, v3(cxw, cyw, 0), &px, &py);
            if (px < best) {
                best = px;
                zx = cxw;
                zy = cyw;
            }
        }
        for (i = 0; i < (size_t)nzt; i++)
            f[i] = (nz_of(&s, zt[i]) + BOX_Z) / (2 * BOX_Z);
        /* Outward is the corner's own horizontal direction. */
        edge_axis(out, &s.v, v3(zx, zy, -BOX_Z), v3(0, 0, 2 * BOX_Z),
                  v3(zx * 0.7, zy * 0.7, 0), zt, f, nzt, zstep, p.zlabel);
    }

    svg_colorbar(out, p.width - 120, (p.title != NULL && *p.title) ? 60 : 36, 16,
                 p.height - ((p.title != NULL && *p.title) ? 60 : 36) - 90, s.zmin,
                 s.zmax, p.zlabel, 0);

    if (p.npoints > 0) {
        size_t drawn = 0;
        buf_puts(out, "<g class=\"points\" fill=\"#d62728\" stroke=\"#ffffff\" "
                      "stroke-width=\"0.8\">\n");
        for (i = 0; i < p.npoints; i++) {
            const struct svg_point3 *pt = &p.points[i];
            double px, py;
            if (!finite_z(pt->x) || !finite_z(pt->y) || !finite_z(pt->z) ||
                pt->x < s.xmin || pt->x > s.xmax || pt->y < s.ymin || pt->y > s.ymax ||
                pt->z < s.zlo || pt->z > s.zhi) {
                skipped_pts++;
                continue;
            }
            project(&s.v, v3(nx_of(&s, pt->x), ny_of(&s, pt->y), nz_of(&s, pt->z)), &px,
                    &py);
            buf_puts(out, "<circle cx=\"");
            svg_num(out, px);
            buf_puts(out, "\" cy=\"");
            svg_num(out, py);
            buf_puts(out, "\" r=\"3.5\"/>");
            drawn++;
        }
        buf_printf(out,
                   "</g>\n<g class=\"legend\" font-size=\"%d\">"
                   "<circle fill=\"#d62728\" r=\"3.5\" cx=\"20\" cy=\"",
                   SVG_FS_SMALL);
        svg_num(out, p.height - 16);
        buf_puts(out, "\"/>");
        {
            char lab[SVG_MAX_TEXT + 64];
            snprintf(lab, sizeof lab, "%s (%zu of %zu inside the box)",
                     p.points_label != NULL && *p.points_label ? p.points_label
                                                               : "measured",
                     drawn, p.npoints);
            svg_label(out, 30, p.height - 12, "start", NULL, lab,
                      svg_fit_chars(p.width - 40, SVG_FS_SMALL));
        }
        buf_puts(out, "</g>\n");
    }
    svg_end(out);
    rc = 0;
out:
    xfree(sum);
    xfree(cnt);
    xfree(quads);
    return svg_finish(out, start, rc, err);
}
