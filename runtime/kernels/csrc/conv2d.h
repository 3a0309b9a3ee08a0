/* im2col and col2im of a 2-D channels-first convolution for one element type, included by
 * _native.c once per type with T and NAME(f) defined (see layer_norm.h).
 *
 * cols[r, ky, kx, oy, ox] = x[r, iy, ix] (0 outside the input) with iy = oy * sy + ky * dy - py
 * and ix = ox * sx + kx * dx - px, for each of the `planes` rows r (N * C): the convolution's
 * column matrix, without a padded copy of the input.
 *
 * out[r, iy, ix] = sum of cols[r, ky, kx, oy, ox] over the kernel taps (ky, kx) and output
 * pixels (oy, ox) with iy = oy * sy + ky * dy - py and ix = ox * sx + kx * dx - px, for each
 * of the `planes` rows r (N * C), the adjoint of im2col. Each plane of out (h * w elements) stays in cache while all
 * its taps are added, so cols is read from memory once; the ox range that lands inside the
 * plane is computed up front, so the innermost loop has no branch. */
/* The output columns [lo, hi) whose kernel tap at input column offset x0 lands inside [0, w). */
static void NAME(column_span)(const struct conv2d *g, Py_ssize_t x0, Py_ssize_t *lo,
                              Py_ssize_t *hi)
{
    const Py_ssize_t end = g->w - 1 - x0 < 0 ? 0 : (g->w - 1 - x0) / g->sx + 1;
    *lo = x0 >= 0 ? 0 : (-x0 + g->sx - 1) / g->sx;
    *hi = end < g->ow ? end : g->ow;
    if (*lo > *hi)
        *lo = *hi;
}

static void NAME(im2col)(const T *restrict x, Py_ssize_t planes, const struct conv2d *g,
                         T *restrict cols)
{
    const Py_ssize_t plane = g->h * g->w, out_plane = g->oh * g->ow;
    for (Py_ssize_t r = 0; r < planes; r++) {
        const T *in = x + r * plane;
        for (Py_ssize_t ky = 0; ky < g->kh; ky++)
            for (Py_ssize_t kx = 0; kx < g->kw; kx++) {
                T *c = cols + ((r * g->kh + ky) * g->kw + kx) * out_plane;
                const Py_ssize_t x0 = kx * g->dx - g->px;
                Py_ssize_t lo, hi;
                NAME(column_span)(g, x0, &lo, &hi);
                for (Py_ssize_t oy = 0; oy < g->oh; oy++) {
                    const Py_ssize_t iy = oy * g->sy + ky * g->dy - g->py;
                    T *dst = c + oy * g->ow;
                    if (iy < 0 || iy >= g->h) {
                        for (Py_ssize_t ox = 0; ox < g->ow; ox++)
                            dst[ox] = 0;
                        continue;
                    }
                    const T *row = in + iy * g->w;
                    for (Py_ssize_t ox = 0; ox < lo; ox++)
                        dst[ox] = 0;
                    if (g->sx == 1)
                        for (Py_ssize_t ox = lo; ox < hi; ox++)
                            dst[ox] = row[x0 + ox];
                    else
                        for (Py_ssize_t ox = lo; ox < hi; ox++)
                            dst[ox] = row[x0 + ox * g->sx];
                    for (Py_ssize_t ox = hi; ox < g->ow; ox++)
                        dst[ox] = 0;
                }
            }
    }
}

static void NAME(col2im)(const T *restrict cols, Py_ssize_t planes, const struct conv2d *g,
                         T *restrict out)
{
    const Py_ssize_t plane = g->h * g->w, out_plane = g->oh * g->ow;
    for (Py_ssize_t r = 0; r < planes; r++) {
        T *o = out + r * plane;
        for (Py_ssize_t k = 0; k < plane; k++)
            o[k] = 0;
        for (Py_ssize_t ky = 0; ky < g->kh; ky++)
            for (Py_ssize_t kx = 0; kx < g->kw; kx++) {
                const T *c = cols + ((r * g->kh + ky) * g->kw + kx) * out_plane;
                const Py_ssize_t x0 = kx * g->dx - g->px;
                Py_ssize_t lo, hi;
                NAME(column_span)(g, x0, &lo, &hi);
                for (Py_ssize_t oy = 0; oy < g->oh; oy++) {
                    const Py_ssize_t iy = oy * g->sy + ky * g->dy - g->py;
                    if (iy < 0 || iy >= g->h)
                        continue;
                    T *row = o + iy * g->w;
                    const T *src = c + oy * g->ow;
                    if (g->sx == 1)
                        for (Py_ssize_t ox = lo; ox < hi; ox++)
                            row[x0 + ox] += src[ox];
                    else
                        for (Py_ssize_t ox = lo; ox < hi; ox++)
                            row[x0 + ox * g->sx] += src[ox];
                }
            }
    }
}
