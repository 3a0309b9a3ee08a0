/* The channels-last (NHWC) pooling and depthwise convolution kernels for one element type,
 * included by _native.c once per type with T and NAME(f) defined (see layer_norm.h).
 *
 * Both take a batch [n, h, w, c] and write the output [n, oh, ow, c'] one output pixel at a
 * time: its c' channels are one accumulator row in the output itself, and each kernel tap
 * combines one contiguous row of c input values with it, a loop the compiler vectorises, with
 * no transposing copy of the input or the output. Rows [r0, r1) are output rows b * oh + oy, so
 * that runtime/kernels/native.py can split a large call between threads (the loops run without
 * the GIL and two ranges never write the same element).
 *
 * Each output element sees its taps in the order conv_fast.h's channels-first kernels take them,
 * so the results are those kernels' bit for bit: (ky, kx) order, the taps outside the input
 * skipped, from the same start (low or 0), the products rounded before they are added
 * (setup.py's -ffp-contract=off), an average divided (not multiplied by a reciprocal) by the
 * same window size.
 *
 * pool2d_nhwc: max or average pooling over windows clipped to the input, as pool2d: a max starts
 * at `low` and keeps the first of equal values (-0.0 before +0.0), a NaN in a window gives NaN;
 * the average is divided by the clipped window's size (exclusive) or by the window from its
 * unclamped start up to the input's end plus the leading padding.
 *
 * depthwise_nhwc: the convolution with groups == c, channel multiplier `mult` (output channel
 * m reads input channel m / mult), the filter packed tap-major: weights[ky * kw + kx][m]. */

static void NAME(pool2d_nhwc)(const T *restrict x, Py_ssize_t c, int is_max, int exclusive,
                              T low, Py_ssize_t r0, Py_ssize_t r1, const struct conv2d *g,
                              T *restrict out)
{
    const T start = is_max ? low : (T)0;
    for (Py_ssize_t r = r0; r < r1; r++) {
        const Py_ssize_t oy = r % g->oh;
        const T *image = x + (r / g->oh) * g->h * g->w * c;
        const Py_ssize_t ys = oy * g->sy - g->py;
        const Py_ssize_t y0 = ys < 0 ? 0 : ys, y1 = ys + g->kh < g->h ? ys + g->kh : g->h;
        Py_ssize_t rows;
        if (exclusive)
            rows = y1 > y0 ? y1 - y0 : 0;
        else
            rows = (ys + g->kh < g->h + g->py ? ys + g->kh : g->h + g->py) - ys;
        for (Py_ssize_t ox = 0; ox < g->ow; ox++) {
            T *o = out + (r * g->ow + ox) * c;
            const Py_ssize_t xs = ox * g->sx - g->px;
            const Py_ssize_t x0 = xs < 0 ? 0 : xs, x1 = xs + g->kw < g->w ? xs + g->kw : g->w;
            for (Py_ssize_t ch = 0; ch < c; ch++)
                o[ch] = start;
            for (Py_ssize_t iy = y0; iy < y1; iy++)
                for (Py_ssize_t ix = x0; ix < x1; ix++) {
                    const T *restrict v = image + (iy * g->w + ix) * c;
                    if (is_max)
                        for (Py_ssize_t ch = 0; ch < c; ch++) {
                            const T a = v[ch], d = o[ch];
                            o[ch] = (d != d || d >= a) ? d : a;
                        }
                    else
                        for (Py_ssize_t ch = 0; ch < c; ch++)
                            o[ch] += v[ch];
                }
            if (is_max)
                continue;
            Py_ssize_t cols;
            if (exclusive)
                cols = x1 > x0 ? x1 - x0 : 0;
            else
                cols = (xs + g->kw < g->w + g->px ? xs + g->kw : g->w + g->px) - xs;
            const T size = (T)(rows * cols);
            for (Py_ssize_t ch = 0; ch < c; ch++)
                o[ch] = o[ch] / size;
        }
    }
}

static void NAME(depthwise_nhwc)(const T *restrict x, const T *restrict weights, Py_ssize_t c,
                                 Py_ssize_t mult, Py_ssize_t r0, Py_ssize_t r1,
                                 const struct conv2d *g, T *restrict out)
{
    const Py_ssize_t m = c * mult;
    for (Py_ssize_t r = r0; r < r1; r++) {
        const Py_ssize_t oy = r % g->oh;
        const T *image = x + (r / g->oh) * g->h * g->w * c;
        for (Py_ssize_t ox = 0; ox < g->ow; ox++) {
            T *o = out + (r * g->ow + ox) * m;
            for (Py_ssize_t j = 0; j < m; j++)
                o[j] = 0;
            for (Py_ssize_t ky = 0; ky < g->kh; ky++) {
                const Py_ssize_t iy = oy * g->sy + ky * g->dy - g->py;
                if (iy < 0 || iy >= g->h)
                    continue;
                for (Py_ssize_t kx = 0; kx < g->kw; kx++) {
                    const Py_ssize_t ix = ox * g->sx + kx * g->dx - g->px;
                    if (ix < 0 || ix >= g->w)
                        continue;
                    const T *restrict v = image + (iy * g->w + ix) * c;
                    const T *restrict k = weights + (ky * g->kw + kx) * m;
                    if (mult == 1)
                        for (Py_ssize_t ch = 0; ch < c; ch++)
                            o[ch] += k[ch] * v[ch];
                    else
                        for (Py_ssize_t ch = 0; ch < c; ch++)
                            for (Py_ssize_t j = 0; j < mult; j++)
                                o[ch * mult + j] += k[ch * mult + j] * v[ch];
                }
            }
        }
    }
}
