/* PHI's NMSFast greedy walk (multiclass_nms3, runtime/kernels/impl/detect_kernel.py nms_fast)
 * over candidates already in score order: candidate j is kept unless its JaccardOverlap with a
 * kept box exceeds the threshold (a NaN overlap counts as exceeding it), the threshold shrinking
 * by eta after each kept box while it is above 0.5. The overlap is computed as the numpy path
 * computes it, in the element type T and in the same order of operations, so that both paths
 * keep the same boxes: inter = (min(x2) - max(x1) + norm) * (min(y2) - max(y1) + norm),
 * iou = inter / (area_kept + area_j - inter), 0 for disjoint boxes. Writes the kept positions
 * into `kept` and returns how many. Included once per T (float, double) with NAME(f). */

static Py_ssize_t NAME(nms_greedy)(const T *x1, const T *y1, const T *x2, const T *y2,
                                   const T *area, Py_ssize_t n, T norm, T threshold, T eta,
                                   long long *kept)
{
    Py_ssize_t count = 0;
    T adaptive = threshold;
    for (Py_ssize_t j = 0; j < n; j++) {
        int keep = 1;
        for (Py_ssize_t q = 0; q < count && keep; q++) {
            Py_ssize_t r = (Py_ssize_t)kept[q];
            if (x1[j] > x2[r] || x2[j] < x1[r] || y1[j] > y2[r] || y2[j] < y1[r])
                continue; /* disjoint: overlap 0, which never exceeds the threshold */
            T iw = (x2[r] < x2[j] ? x2[r] : x2[j]) - (x1[r] > x1[j] ? x1[r] : x1[j]);
            T ih = (y2[r] < y2[j] ? y2[r] : y2[j]) - (y1[r] > y1[j] ? y1[r] : y1[j]);
            T inter = (iw + norm) * (ih + norm);
            T iou = inter / (area[r] + area[j] - inter);
            if (!(iou <= adaptive)) /* above it, or NaN */
                keep = 0;
        }
        if (!keep)
            continue;
        kept[count++] = (long long)j;
        if (eta < 1 && adaptive > 0.5)
            adaptive = adaptive * eta;
    }
    return count;
}
