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
