/* roi_align's forward over C-contiguous NCHW T arrays (runtime/kernels/impl/detect_kernel.py
 * roi_align_kernel): for each box, its geometry and each axis's [pooled, size] bilinear weights
 * as the numpy path computes them (roi_align_geometry, roi_align_axis: the sample points'
 * positions in T, each weight summed in double in the same order, then rounded to T), then the
 * separable product out[c, p, q] = sum_h wy[p, h] (sum_w image[c, h, w] wx[q, w]) over the rows
 * and columns with a nonzero weight, in T, times T(1 / sample points). The numpy path's two
 * GEMMs sum in BLAS's order: the results agree to T's rounding. Scratch: `sums` holds
 * max(pooled_h * height, pooled_w * width) doubles, `scratch` (pooled_h + pooled_w) * (height +
 * width) T, `used` height + width indices. Included once per T (float, double) with NAME(f). */

/* The [pooled, size] weights of one axis (roi_align_axis, forward form) into `weights` (T),
 * accumulated in `sums` (double). */
static void NAME(roi_align_axis)(T start, T bin, Py_ssize_t pooled, long long grid,
                                 Py_ssize_t size, double *sums, T *weights)
{
    memset(sums, 0, (size_t)(pooled * size) * sizeof(double));
    for (Py_ssize_t p = 0; p < pooled && size > 0; p++) {
        double *row = sums + p * size;
        /* every point's lower pixel first, then every point's upper one: the numpy path's
         * bincount adds them in that order */
        for (int pass = 0; pass < 2; pass++) {
            for (long long i = 0; i < grid; i++) {
                T fraction = (T)((double)i + 0.5) / (T)grid;
                T position = start + bin * ((T)p + fraction);
                if (!(position >= (T)-1.0 && position <= (T)size))
                    continue;
                if (position <= 0)
                    position = 0;
                long long low = (long long)position; /* position >= 0: truncation */
                long long high;
                if (low >= size - 1) {
                    low = high = size - 1;
                    position = (T)low;
                } else {
                    high = low + 1;
                }
                double upper = (double)position - (double)low;
                if (pass == 0)
                    row[low] += 1 - upper;
                else
                    row[high] += upper;
            }
        }
    }
    for (Py_ssize_t k = 0; k < pooled * size; k++)
        weights[k] = (T)sums[k];
}

static void NAME(roi_align)(const T *x, const T *boxes, const long long *images,
                            Py_ssize_t rois, Py_ssize_t channels, Py_ssize_t height,
                            Py_ssize_t width, Py_ssize_t pooled_h, Py_ssize_t pooled_w,
                            double spatial_scale, long long sampling_ratio, int aligned, T *out,
                            double *sums, T *scratch, Py_ssize_t *used)
{
    T scale = (T)(float)spatial_scale;
    T offset = aligned ? (T)0.5 : (T)0;
    T *wy = scratch, *wx = wy + pooled_h * height, *partial = wx + pooled_w * width;
    Py_ssize_t *rows = used, *cols = used + height;
    for (Py_ssize_t r = 0; r < rois; r++) {
        const T *box = boxes + 4 * r;
        T xmin = box[0] * scale - offset, ymin = box[1] * scale - offset;
        T xmax = box[2] * scale - offset, ymax = box[3] * scale - offset;
        T roi_w = xmax - xmin, roi_h = ymax - ymin;
        if (!aligned) {
            roi_w = roi_w > (T)1 ? roi_w : (T)1;
            roi_h = roi_h > (T)1 ? roi_h : (T)1;
        }
        T bin_h = roi_h / (T)pooled_h, bin_w = roi_w / (T)pooled_w;
        long long grid_h = sampling_ratio > 0 ? sampling_ratio : (long long)ceil((double)bin_h);
        long long grid_w = sampling_ratio > 0 ? sampling_ratio : (long long)ceil((double)bin_w);
        T count = (T)(1.0 / (double)(grid_h * grid_w));
        NAME(roi_align_axis)(ymin, bin_h, pooled_h, grid_h, height, sums, wy);
        NAME(roi_align_axis)(xmin, bin_w, pooled_w, grid_w, width, sums, wx);
        Py_ssize_t n_rows = 0, n_cols = 0;
        for (Py_ssize_t h = 0; h < height; h++) {
            int used = 0;
            for (Py_ssize_t p = 0; p < pooled_h; p++)
                used |= wy[p * height + h] != 0;
            if (used)
                rows[n_rows++] = h;
        }
        for (Py_ssize_t w = 0; w < width; w++) {
            int used = 0;
            for (Py_ssize_t q = 0; q < pooled_w; q++)
                used |= wx[q * width + w] != 0;
            if (used)
                cols[n_cols++] = w;
        }
        T *target = out + r * channels * pooled_h * pooled_w;
        const T *image = x + images[r] * channels * height * width;
        for (Py_ssize_t c = 0; c < channels; c++) {
            const T *plane = image + c * height * width;
            for (Py_ssize_t p = 0; p < pooled_h; p++) {
                T *line = partial + p * width;
                for (Py_ssize_t j = 0; j < n_cols; j++)
                    line[cols[j]] = 0;
                for (Py_ssize_t k = 0; k < n_rows; k++) {
                    T weight = wy[p * height + rows[k]];
                    const T *pixels = plane + rows[k] * width;
                    for (Py_ssize_t j = 0; j < n_cols; j++)
                        line[cols[j]] += weight * pixels[cols[j]];
                }
                for (Py_ssize_t q = 0; q < pooled_w; q++) {
                    T sum = 0;
                    for (Py_ssize_t j = 0; j < n_cols; j++)
                        sum += line[cols[j]] * wx[q * width + cols[j]];
                    target[(c * pooled_h + p) * pooled_w + q] = sum * count;
                }
            }
        }
    }
}
