/* layer_norm's row kernels for one element type, included by _native.c once per type with T
 * (the element type), ACC (the type of the partial sums along a row: T itself, see _native.c)
 * and NAME(f) (f with the type's suffix) defined.
 *
 * Row sums keep LANES independent partial sums, which the compiler turns into vector
 * instructions without reordering any one sum: the code stays exact under the default
 * floating-point rules and still vectorises. Sums over rows (scale_grad, bias_grad) run over
 * many more terms and accumulate in double. */

static double NAME(sum_lanes)(const ACC *lanes)
{
    double sum = 0;
    for (int k = 0; k < LANES; k++)
        sum += lanes[k];
    return sum;
}

/* Mean and biased variance of one row, the second pass reading the row from L1. */
static void NAME(row_moments)(const T *x, Py_ssize_t n, double *mean, double *variance)
{
    ACC lanes[LANES] = {0};
    double sum = 0;
    Py_ssize_t j = 0;
    for (; j + LANES <= n; j += LANES)
        for (int k = 0; k < LANES; k++)
            lanes[k] += x[j + k];
    for (; j < n; j++)
        sum += x[j];
    const double m = (sum + NAME(sum_lanes)(lanes)) / n;
    const ACC center = (ACC)m;

    ACC squares[LANES] = {0};
    double tail = 0;
    for (j = 0; j + LANES <= n; j += LANES)
        for (int k = 0; k < LANES; k++)
            squares[k] += (x[j + k] - center) * (x[j + k] - center);
    for (; j < n; j++)
        tail += (x[j] - m) * (x[j] - m);
    *mean = m;
    *variance = (tail + NAME(sum_lanes)(squares)) / n;
}

/* out = (x - mean) / sqrt(variance + epsilon) * scale + bias, row by row; scale and bias may
 * be NULL. One loop per case keeps each loop free of branches, so that it vectorises. */
static void NAME(forward)(const T *x, const T *scale, const T *bias, double epsilon,
                          Py_ssize_t rows, Py_ssize_t n, T *out, T *mean, T *variance)
{
    for (Py_ssize_t i = 0; i < rows; i++) {
        const T *xi = x + i * n;
        T *yi = out + i * n;
        double m, v;
        NAME(row_moments)(xi, n, &m, &v);
        mean[i] = (T)m;
        variance[i] = (T)v;
        const T c = (T)m, r = (T)(1.0 / sqrt(v + epsilon));
        if (scale && bias)
            for (Py_ssize_t j = 0; j < n; j++)
                yi[j] = (xi[j] - c) * r * scale[j] + bias[j];
        else if (scale)
            for (Py_ssize_t j = 0; j < n; j++)
                yi[j] = (xi[j] - c) * r * scale[j];
        else if (bias)
            for (Py_ssize_t j = 0; j < n; j++)
                yi[j] = (xi[j] - c) * r + bias[j];
        else
            for (Py_ssize_t j = 0; j < n; j++)
                yi[j] = (xi[j] - c) * r;
    }
}

/* With x_hat = (x - mean) * inv_std and g = out_grad * scale (out_grad where scale is NULL),
 * row by row: x_grad = inv_std * (g - mean(g) - x_hat * mean(g * x_hat)); over the rows:
 * scale_grad = sum(out_grad * x_hat), bias_grad = sum(out_grad). A NULL output is not
 * computed. `columns` is scratch for 2 * n doubles. */
static void NAME(backward)(const T *x, const T *scale, const T *mean, const T *variance,
                           const T *dy, double epsilon, Py_ssize_t rows, Py_ssize_t n,
                           T *x_grad, T *scale_grad, T *bias_grad, double *columns)
{
    double *scale_sums = columns, *bias_sums = columns + n;
    for (Py_ssize_t j = 0; j < 2 * n; j++)
        columns[j] = 0;
    for (Py_ssize_t i = 0; i < rows; i++) {
        const T *xi = x + i * n, *dyi = dy + i * n;
        const T c = mean[i], r = (T)(1.0 / sqrt((double)variance[i] + epsilon));
        if (scale_grad)
            for (Py_ssize_t j = 0; j < n; j++)
                scale_sums[j] += dyi[j] * ((xi[j] - c) * r);
        if (bias_grad)
            for (Py_ssize_t j = 0; j < n; j++)
                bias_sums[j] += dyi[j];
        if (!x_grad)
            continue;
        ACC g_lanes[LANES] = {0}, gx_lanes[LANES] = {0};
        double g_tail = 0, gx_tail = 0;
        Py_ssize_t j = 0;
        for (; j + LANES <= n; j += LANES)
            for (int k = 0; k < LANES; k++) {
                const ACC g = scale ? dyi[j + k] * scale[j + k] : dyi[j + k];
                g_lanes[k] += g;
                gx_lanes[k] += g * ((xi[j + k] - c) * r);
            }
        for (; j < n; j++) {
            const double g = scale ? dyi[j] * scale[j] : dyi[j];
            g_tail += g;
            gx_tail += g * ((xi[j] - c) * r);
        }
        const T g_mean = (T)((g_tail + NAME(sum_lanes)(g_lanes)) / n);
        const T gx_mean = (T)((gx_tail + NAME(sum_lanes)(gx_lanes)) / n);
        T *dxi = x_grad + i * n;
        for (j = 0; j < n; j++) {
            const T g = scale ? dyi[j] * scale[j] : dyi[j];
            dxi[j] = r * (g - g_mean - (xi[j] - c) * r * gx_mean);
        }
    }
    for (Py_ssize_t j = 0; j < n; j++) {
        if (scale_grad)
            scale_grad[j] = (T)scale_sums[j];
        if (bias_grad)
            bias_grad[j] = (T)bias_sums[j];
    }
}
