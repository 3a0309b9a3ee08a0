/* The forward convolution and pooling kernels of issue 26 for one element type, included by
 * _native.c once per type with T and NAME(f) defined (see layer_norm.h), after conv2d.h (whose
 * column_span they use).
 *
 * Each kernel writes one range [r0, r1) of independent rows of its output (channels, output
 * planes or output pixels), so that runtime/kernels/native.py can split a large call between
 * threads: the loops run without the GIL and two ranges never write the same element.
 *
 * im2col_folded: the column matrix of a channels-first batch with the batch folded into the
 * columns, cols[c, ky, kx, b, oy, ox] = x[b, c, iy, ix] (0 outside the input), so that one GEMM
 * per group, filter [M/groups, C/groups * kh * kw] by columns [C/groups * kh * kw, N * oh * ow],
 * covers the whole batch. Rows [r0, r1) are input channels.
 *
 * im2col_nhwc: the column matrix of a channels-last batch, cols[b, oy, ox, ky, kx, c], each
 * kernel tap one copy of C contiguous values. Rows [r0, r1) are output pixels b * oh * ow + p.
 *
 * depthwise: the convolution with groups == C (out channel m reads input channel m / mult),
 * one output plane at a time: each kernel tap adds weight * a shifted input row to an output row
 * that stays in cache, the taps in (ky, kx) order. Rows [r0, r1) are output planes b * M + m.
 *
 * pool2d: max or average pooling of channels-first planes over windows clipped to the input (as
 * PHI's CPU pooling: padding never wins a max, an all-padding window gives `low`), the average
 * divided by the clipped window's size (exclusive) or by the window counted from its unclamped
 * start up to the input's end plus the leading padding. A NaN in a window gives NaN, as numpy's
 * maximum does. Rows [r0, r1) are planes. */

static void NAME(tap_row)(const T *restrict in, const struct conv2d *g, Py_ssize_t ky,
                          Py_ssize_t kx, T *restrict c)
{
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

/* im2col_folded for small output planes: where each input pixel of each tap comes from is
 * worked out once per call (-1: padding), then every channel is one gather through that table,
 * instead of a tap_row call (two divisions and three loops) per channel, tap and image for a
 * few pixels each (Inception's 3x3 planes under 1x7 kernels). 0 when the table cannot be had. */
static int NAME(im2col_folded_table)(const T *restrict x, Py_ssize_t n, Py_ssize_t c,
                                     Py_ssize_t r0, Py_ssize_t r1, const struct conv2d *g,
                                     T *restrict cols)
{
    const Py_ssize_t plane = g->h * g->w, out_plane = g->oh * g->ow, row = n * out_plane;
    const Py_ssize_t taps = g->kh * g->kw;
    Py_ssize_t *table = malloc((size_t)(taps * out_plane) * sizeof(Py_ssize_t));
    if (!table)
        return 0;
    for (Py_ssize_t ky = 0; ky < g->kh; ky++)
        for (Py_ssize_t kx = 0; kx < g->kw; kx++)
            for (Py_ssize_t oy = 0; oy < g->oh; oy++)
                for (Py_ssize_t ox = 0; ox < g->ow; ox++) {
                    const Py_ssize_t iy = oy * g->sy + ky * g->dy - g->py;
                    const Py_ssize_t ix = ox * g->sx + kx * g->dx - g->px;
                    table[(ky * g->kw + kx) * out_plane + oy * g->ow + ox] =
                        iy >= 0 && iy < g->h && ix >= 0 && ix < g->w ? iy * g->w + ix : -1;
                }
    for (Py_ssize_t ch = r0; ch < r1; ch++)
        for (Py_ssize_t b = 0; b < n; b++) {
            const T *in = x + (b * c + ch) * plane;
            for (Py_ssize_t t = 0; t < taps; t++) {
                const Py_ssize_t *from = table + t * out_plane;
                T *dst = cols + (ch * taps + t) * row + b * out_plane;
                for (Py_ssize_t e = 0; e < out_plane; e++)
                    dst[e] = from[e] >= 0 ? in[from[e]] : (T)0;
            }
        }
    free(table);
    return 1;
}

static void NAME(im2col_folded)(const T *restrict x, Py_ssize_t n, Py_ssize_t c, Py_ssize_t r0,
                                Py_ssize_t r1, const struct conv2d *g, T *restrict cols)
{
    const Py_ssize_t plane = g->h * g->w, out_plane = g->oh * g->ow, row = n * out_plane;
    if (out_plane <= IM2COL_TABLE_PIXELS && NAME(im2col_folded_table)(x, n, c, r0, r1, g, cols))
        return;
    for (Py_ssize_t ch = r0; ch < r1; ch++)
        for (Py_ssize_t ky = 0; ky < g->kh; ky++)
            for (Py_ssize_t kx = 0; kx < g->kw; kx++) {
                T *tap = cols + ((ch * g->kh + ky) * g->kw + kx) * row;
                for (Py_ssize_t b = 0; b < n; b++)
                    NAME(tap_row)(x + (b * c + ch) * plane, g, ky, kx, tap + b * out_plane);
            }
}

static void NAME(im2col_nhwc)(const T *restrict x, Py_ssize_t c, Py_ssize_t r0, Py_ssize_t r1,
                              const struct conv2d *g, T *restrict cols)
{
    const Py_ssize_t out_plane = g->oh * g->ow, width = g->kh * g->kw * c;
    for (Py_ssize_t r = r0; r < r1; r++) {
        const Py_ssize_t b = r / out_plane, oy = (r % out_plane) / g->ow, ox = r % g->ow;
        const T *image = x + b * g->h * g->w * c;
        T *dst = cols + r * width;
        for (Py_ssize_t ky = 0; ky < g->kh; ky++) {
            const Py_ssize_t iy = oy * g->sy + ky * g->dy - g->py;
            for (Py_ssize_t kx = 0; kx < g->kw; kx++, dst += c) {
                const Py_ssize_t ix = ox * g->sx + kx * g->dx - g->px;
                if (iy < 0 || iy >= g->h || ix < 0 || ix >= g->w)
                    memset(dst, 0, (size_t)c * sizeof(T));
                else
                    memcpy(dst, image + (iy * g->w + ix) * c, (size_t)c * sizeof(T));
            }
        }
    }
}

/* The depthwise convolution of rows [r0, r1) with the planes' pixels outermost: the rows'
 * input planes and filters are first transposed into scratch (pixel-major, the rows
 * contiguous), so that every output pixel sums its taps, in (ky, kx) order and skipping the taps
 * outside the input as `depthwise` does (the same sums, the same bits), one vectorised pass over
 * the rows per tap, at any stride. For small planes or strides above 1, where `depthwise`'s
 * rows are too short (or strided) to vectorise: MobileNets' later layers. 0 when the scratch
 * cannot be had (the caller then runs `depthwise`). */
static int NAME(depthwise_pixels)(const T *restrict x, const T *restrict filter, Py_ssize_t c,
                                  Py_ssize_t mult, Py_ssize_t r0, Py_ssize_t r1,
                                  const struct conv2d *g, T *restrict out)
{
    const Py_ssize_t plane = g->h * g->w, out_plane = g->oh * g->ow, m = c * mult;
    const Py_ssize_t taps = g->kh * g->kw, rows = r1 - r0;
    T *xt = malloc((size_t)(plane * rows) * sizeof(T));
    T *wt = malloc((size_t)(taps * rows) * sizeof(T));
    T *acc = malloc((size_t)rows * sizeof(T));
    if (!xt || !wt || !acc) {
        free(xt);
        free(wt);
        free(acc);
        return 0;
    }
    /* (image, output channel) of row r0, then counted on: no division per row */
    Py_ssize_t b = r0 / m, om = r0 % m;
    for (Py_ssize_t j = 0; j < rows; j++) {
        const T *in = x + (b * c + om / mult) * plane, *k = filter + om * taps;
        for (Py_ssize_t e = 0; e < plane; e++)
            xt[e * rows + j] = in[e];
        for (Py_ssize_t t = 0; t < taps; t++)
            wt[t * rows + j] = k[t];
        if (++om == m) {
            om = 0;
            b++;
        }
    }
    for (Py_ssize_t oy = 0; oy < g->oh; oy++)
        for (Py_ssize_t ox = 0; ox < g->ow; ox++) {
            for (Py_ssize_t j = 0; j < rows; j++)
                acc[j] = 0;
            for (Py_ssize_t ky = 0; ky < g->kh; ky++) {
                const Py_ssize_t iy = oy * g->sy + ky * g->dy - g->py;
                if (iy < 0 || iy >= g->h)
                    continue;
                for (Py_ssize_t kx = 0; kx < g->kw; kx++) {
                    const Py_ssize_t ix = ox * g->sx + kx * g->dx - g->px;
                    if (ix < 0 || ix >= g->w)
                        continue;
                    const T *restrict xs = xt + (iy * g->w + ix) * rows;
                    const T *restrict ws = wt + (ky * g->kw + kx) * rows;
                    for (Py_ssize_t j = 0; j < rows; j++)
                        acc[j] += ws[j] * xs[j];
                }
            }
            T *o = out + r0 * out_plane + oy * g->ow + ox;
            for (Py_ssize_t j = 0; j < rows; j++)
                o[j * out_plane] = acc[j];
        }
    free(xt);
    free(wt);
    free(acc);
    return 1;
}

static void NAME(depthwise)(const T *restrict x, const T *restrict filter, Py_ssize_t c,
                            Py_ssize_t mult, Py_ssize_t r0, Py_ssize_t r1,
                            const struct conv2d *g, T *restrict out)
{
    const Py_ssize_t plane = g->h * g->w, out_plane = g->oh * g->ow, m = c * mult;
    if ((g->ow < DEPTHWISE_PIXELS_WIDTH || g->sx > 1) &&
        NAME(depthwise_pixels)(x, filter, c, mult, r0, r1, g, out))
        return;
    /* each kernel column's span of output columns, worked out once for all planes (two
     * divisions per tap and plane cost more than a small plane's products) */
    Py_ssize_t spans[2 * DEPTHWISE_SPANS];
    const int hoisted = g->kw <= DEPTHWISE_SPANS;
    for (Py_ssize_t kx = 0; hoisted && kx < g->kw; kx++)
        NAME(column_span)(g, kx * g->dx - g->px, &spans[2 * kx], &spans[2 * kx + 1]);
    for (Py_ssize_t r = r0; r < r1; r++) {
        const Py_ssize_t b = r / m, ch = (r % m) / mult;
        const T *in = x + (b * c + ch) * plane;
        const T *k = filter + (r % m) * g->kh * g->kw;
        T *o = out + r * out_plane;
        for (Py_ssize_t e = 0; e < out_plane; e++)
            o[e] = 0;
        for (Py_ssize_t ky = 0; ky < g->kh; ky++)
            for (Py_ssize_t kx = 0; kx < g->kw; kx++) {
                const T weight = k[ky * g->kw + kx];
                const Py_ssize_t x0 = kx * g->dx - g->px;
                Py_ssize_t lo, hi;
                if (hoisted) {
                    lo = spans[2 * kx];
                    hi = spans[2 * kx + 1];
                } else {
                    NAME(column_span)(g, x0, &lo, &hi);
                }
                for (Py_ssize_t oy = 0; oy < g->oh; oy++) {
                    const Py_ssize_t iy = oy * g->sy + ky * g->dy - g->py;
                    if (iy < 0 || iy >= g->h)
                        continue;
                    const T *row = in + iy * g->w + x0;
                    T *dst = o + oy * g->ow;
                    if (g->sx == 1)
                        for (Py_ssize_t ox = lo; ox < hi; ox++)
                            dst[ox] += weight * row[ox];
                    else
                        for (Py_ssize_t ox = lo; ox < hi; ox++)
                            dst[ox] += weight * row[ox * g->sx];
                }
            }
    }
}

/* An average pooling's sums in o (one plane) divided by each window's size: the clipped window
 * (exclusive) or the window from its unclamped start up to the input's end plus the leading
 * padding. The divisor is separable: rows of the window times its columns. */
static void NAME(pool_divide)(const struct conv2d *g, int exclusive, T *restrict o)
{
    for (Py_ssize_t oy = 0; oy < g->oh; oy++) {
        const Py_ssize_t ys = oy * g->sy - g->py;
        Py_ssize_t rows;
        if (exclusive) {
            const Py_ssize_t y0 = ys < 0 ? 0 : ys, y1 = ys + g->kh < g->h ? ys + g->kh : g->h;
            rows = y1 > y0 ? y1 - y0 : 0;
        } else {
            rows = (ys + g->kh < g->h + g->py ? ys + g->kh : g->h + g->py) - ys;
        }
        T *dst = o + oy * g->ow;
        for (Py_ssize_t ox = 0; ox < g->ow; ox++) {
            const Py_ssize_t xs = ox * g->sx - g->px;
            Py_ssize_t cols;
            if (exclusive) {
                const Py_ssize_t x0 = xs < 0 ? 0 : xs;
                const Py_ssize_t x1 = xs + g->kw < g->w ? xs + g->kw : g->w;
                cols = x1 > x0 ? x1 - x0 : 0;
            } else {
                cols = (xs + g->kw < g->w + g->px ? xs + g->kw : g->w + g->px) - xs;
            }
            dst[ox] = dst[ox] / (T)(rows * cols);
        }
    }
}

/* The window sums or maxima of one plane for unit strides, tap by tap over the whole plane at
 * once: the plane copied into `pad` ((oh + kh - 1) x wp, wp = ow + kw - 1) with the pooling's
 * start value (low, or 0) outside the input, then each tap one flat pass over `acc` ((oh - 1) *
 * wp + ow elements, the output rows at the padded width), then the ow columns of each row into
 * o. The taps in (ky, kx) order as pool2d's loops take them, and a padding cell never changes
 * what it meets (max: low keeps the first, as a clipped window would; sum: + 0 changes nothing,
 * the sums starting from +0.0 are never -0.0), so the same bits; kh * kw long loops instead of
 * kh * kw * oh short ones. */
static void NAME(pool_plane_flat)(const T *restrict in, int is_max, T low, const struct conv2d *g,
                                  T *restrict pad, T *restrict acc, T *restrict o)
{
    const Py_ssize_t wp = g->ow + g->kw - 1, rows = g->oh + g->kh - 1;
    const Py_ssize_t n = (g->oh - 1) * wp + g->ow;
    const T start = is_max ? low : (T)0;
    for (Py_ssize_t p = 0; p < rows; p++) {
        const Py_ssize_t iy = p - g->py;
        T *dst = pad + p * wp;
        for (Py_ssize_t q = 0; q < wp; q++) {
            const Py_ssize_t ix = q - g->px;
            dst[q] = iy >= 0 && iy < g->h && ix >= 0 && ix < g->w ? in[iy * g->w + ix] : start;
        }
    }
    for (Py_ssize_t e = 0; e < n; e++)
        acc[e] = start;
    for (Py_ssize_t ky = 0; ky < g->kh; ky++)
        for (Py_ssize_t kx = 0; kx < g->kw; kx++) {
            const T *restrict src = pad + ky * wp + kx;
            if (is_max)
                for (Py_ssize_t e = 0; e < n; e++) {
                    const T v = src[e], d = acc[e];
                    acc[e] = (d != d || d >= v) ? d : v;
                }
            else
                for (Py_ssize_t e = 0; e < n; e++)
                    acc[e] += src[e];
        }
    for (Py_ssize_t oy = 0; oy < g->oh; oy++)
        memcpy(o + oy * g->ow, acc + oy * wp, (size_t)g->ow * sizeof(T));
}

static void NAME(pool2d)(const T *restrict x, int is_max, int exclusive, T low, Py_ssize_t r0,
                         Py_ssize_t r1, const struct conv2d *g, T *restrict out)
{
    const Py_ssize_t plane = g->h * g->w, out_plane = g->oh * g->ow;
    const int whole = g->oh == 1 && g->ow == 1 && g->kh == g->h && g->kw == g->w && g->py == 0 &&
                      g->px == 0;
    /* unit strides over planes small enough: whole-plane passes (pool_plane_flat) */
    T *pad = NULL, *acc = NULL;
    if (!whole && g->sy == 1 && g->sx == 1 && g->oh > 0 && g->ow > 0 &&
        (g->oh + g->kh - 1) * (g->ow + g->kw - 1) <= POOL_FLAT_PIXELS) {
        pad = malloc((size_t)((g->oh + g->kh - 1) * (g->ow + g->kw - 1)) * sizeof(T));
        acc = malloc((size_t)(g->oh * (g->ow + g->kw - 1)) * sizeof(T));
        if (!pad || !acc) {
            free(pad);
            free(acc);
            pad = acc = NULL;
        }
    }
    for (Py_ssize_t r = r0; r < r1; r++) {
        const T *in = x + r * plane;
        T *o = out + r * out_plane;
        if (pad) {
            NAME(pool_plane_flat)(in, is_max, low, g, pad, acc, o);
            if (!is_max)
                NAME(pool_divide)(g, exclusive, o);
            continue;
        }
        if (whole) { /* one window, the whole plane: a plain pass over it */
            T acc = is_max ? low : 0;
            for (Py_ssize_t e = 0; e < plane; e++) {
                const T v = in[e];
                if (!is_max)
                    acc += v;
                else if (!(acc != acc || acc >= v))
                    acc = v;
            }
            o[0] = is_max ? acc : acc / (T)plane;
            continue;
        }
        for (Py_ssize_t e = 0; e < out_plane; e++)
            o[e] = is_max ? low : 0;
        /* tap by tap, as depthwise: each tap's column span once, the plane in cache */
        for (Py_ssize_t ky = 0; ky < g->kh; ky++)
            for (Py_ssize_t kx = 0; kx < g->kw; kx++) {
                const Py_ssize_t x0 = kx - g->px;
                Py_ssize_t lo, hi;
                NAME(column_span)(g, x0, &lo, &hi);
                for (Py_ssize_t oy = 0; oy < g->oh; oy++) {
                    const Py_ssize_t iy = oy * g->sy + ky - g->py;
                    if (iy < 0 || iy >= g->h)
                        continue;
                    const T *row = in + iy * g->w + x0;
                    T *dst = o + oy * g->ow;
                    /* a unit stride spelled out, so that the loops vectorise */
                    if (is_max && g->sx == 1)
                        for (Py_ssize_t ox = lo; ox < hi; ox++) {
                            const T v = row[ox], d = dst[ox];
                            dst[ox] = (d != d || d >= v) ? d : v;
                        }
                    else if (is_max)
                        for (Py_ssize_t ox = lo; ox < hi; ox++) {
                            const T v = row[ox * g->sx], d = dst[ox];
                            dst[ox] = (d != d || d >= v) ? d : v;
                        }
                    else if (g->sx == 1)
                        for (Py_ssize_t ox = lo; ox < hi; ox++)
                            dst[ox] += row[ox];
                    else
                        for (Py_ssize_t ox = lo; ox < hi; ox++)
                            dst[ox] += row[ox * g->sx];
                }
            }
        if (is_max)
            continue;
        NAME(pool_divide)(g, exclusive, o);
    }
    free(pad);
    free(acc);
}
