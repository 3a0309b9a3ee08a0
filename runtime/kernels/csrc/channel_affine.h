/* A per-channel affine map for one element type (a test-mode batch_norm run as
 * y = x * scale + shift, runtime/static/passes/batch_norm_affine.py), with relu after it when
 * asked; included by _native.c once per type with T and NAME(f) defined.
 *
 * The product is rounded before the sum (two statements, and setup.py compiles with
 * -ffp-contract=off, so no FMA fuses them) and relu is `y > 0 ? y : 0` (NaN and -0.0 give +0.0,
 * as numpy's fmax(y, 0) + 0 does): the bits of the numpy path's multiply, add, fmax and add.
 * Each loop keeps its branch out of the element loop, so that it vectorises. */

/* One plane of n elements of one channel: y = x * scale + shift (then relu). */
static inline void NAME(affine_plane)(const T *restrict x, T scale, T shift, Py_ssize_t n,
                                      int relu, T *restrict out)
{
    if (relu)
        for (Py_ssize_t j = 0; j < n; j++) {
            T y = x[j] * scale;
            y = y + shift;
            out[j] = y > (T)0 ? y : (T)0;
        }
    else
        for (Py_ssize_t j = 0; j < n; j++) {
            T y = x[j] * scale;
            out[j] = y + shift;
        }
}

/* One row of n channels (channels last): y[j] = x[j] * scale[j] + shift[j] (then relu). */
static inline void NAME(affine_columns)(const T *restrict x, const T *restrict scale,
                                        const T *restrict shift, Py_ssize_t n, int relu,
                                        T *restrict out)
{
    if (relu)
        for (Py_ssize_t j = 0; j < n; j++) {
            T y = x[j] * scale[j];
            y = y + shift[j];
            out[j] = y > (T)0 ? y : (T)0;
        }
    else
        for (Py_ssize_t j = 0; j < n; j++) {
            T y = x[j] * scale[j];
            out[j] = y + shift[j];
        }
}

/* Rows [r0, r1) of x (rows of n elements) into out, which does not overlap x: with `columns`,
 * each row holds the n channels (n == channels); without, row r is one plane of channel
 * r % channels. */
static void NAME(channel_affine)(const T *x, const T *scale, const T *shift, Py_ssize_t n,
                                 Py_ssize_t channels, int columns, int relu, Py_ssize_t r0,
                                 Py_ssize_t r1, T *out)
{
    if (columns) {
        for (Py_ssize_t r = r0; r < r1; r++)
            NAME(affine_columns)(x + r * n, scale, shift, n, relu, out + r * n);
        return;
    }
    Py_ssize_t c = r0 % channels;
    for (Py_ssize_t r = r0; r < r1; r++) {
        NAME(affine_plane)(x + r * n, scale[c], shift[c], n, relu, out + r * n);
        if (++c == channels)
            c = 0;
    }
}

/* In place, rows [r0, r1) of y (rows of n elements): y = y + bias per channel (rows of n == channels
 * channels with `columns`, else row r one plane of channel r % channels), then act: 0 none,
 * 1 relu (`y > 0 ? y : 0`, numpy's fmax(y, 0) + 0: NaN and -0.0 give +0.0), 2 relu6 (numpy's
 * minimum(maximum(y, 0), 6): NaN stays NaN, -0.0 gives +0.0): a fused step's bias add and
 * activation in one pass, with the bits of the two (runtime/static/passes/fusion.py). */
static inline T NAME(act_value)(T y, int act)
{
    if (act == 1)
        return y > (T)0 ? y : (T)0;
    if (act == 2) {
        T v = y > (T)0 ? y : (T)0;
        v = v < (T)6 ? v : (T)6;
        return y != y ? y : v;
    }
    return y;
}

static void NAME(bias_act)(T *y, const T *bias, Py_ssize_t n, Py_ssize_t channels, int columns,
                           int act, Py_ssize_t r0, Py_ssize_t r1)
{
    if (columns) {
        for (Py_ssize_t r = r0; r < r1; r++) {
            T *restrict row = y + r * n;
            if (act == 1)
                for (Py_ssize_t j = 0; j < n; j++)
                    row[j] = NAME(act_value)(row[j] + bias[j], 1);
            else if (act == 2)
                for (Py_ssize_t j = 0; j < n; j++)
                    row[j] = NAME(act_value)(row[j] + bias[j], 2);
            else
                for (Py_ssize_t j = 0; j < n; j++)
                    row[j] = row[j] + bias[j];
        }
        return;
    }
    Py_ssize_t c = r0 % channels;
    for (Py_ssize_t r = r0; r < r1; r++) {
        T *restrict row = y + r * n;
        const T b = bias[c];
        if (act == 1)
            for (Py_ssize_t j = 0; j < n; j++)
                row[j] = NAME(act_value)(row[j] + b, 1);
        else if (act == 2)
            for (Py_ssize_t j = 0; j < n; j++)
                row[j] = NAME(act_value)(row[j] + b, 2);
        else
            for (Py_ssize_t j = 0; j < n; j++)
                row[j] = row[j] + b;
        if (++c == channels)
            c = 0;
    }
}
