/* A direct 2-D convolution of a channels-first float32 batch (issue 26), included once by
 * _native.c after conv2d.h: out[b, m, oy, ox] = sum over c, ky, kx of
 * filter[m, c, ky, kx] * x[b, c, oy * sy + ky * dy - py, ox * sx + kx * dx - px] (0 outside).
 *
 * The im2col + GEMM path writes and reads a column matrix kh * kw times the input's size and
 * leaves OpenBLAS a skinny product when the output has few channels (U-Net's 8 and 16: 9 GFLOP/s
 * there). This kernel keeps the accumulators in registers instead: 4 output channels times 16
 * (or 8) output pixels of one row, the sum taken over c, ky, kx with one fused multiply-add per
 * tap and pixel, the input row of a tap loaded as contiguous vectors and each filter value
 * broadcast. For that the input is first copied, per image, into a zero-padded buffer whose
 * columns are split into sx phases (column j of phase q is padded column j * sx + q), so that a
 * tap's pixels ox, ox + 1, ... read consecutive floats at any stride and dilation; the filter is
 * repacked into blocks of 4 output channels [m / 4][c][ky][kx][4] (zeros past M).
 *
 * It needs AVX2 and FMA, compiled for them alone (a function attribute, not the build's flags)
 * and used only where the CPU has them (`conv_direct_available`); elsewhere the caller keeps
 * im2col + GEMM. Rows [r0, r1) of the call are (image, block of 4 output channels) pairs
 * b * ceil(M / 4) + mb, so that runtime/kernels/native.py can split a call between threads;
 * each call pads the images of its rows itself (a copy of the input's size, small against
 * the multiply-adds: M * kh * kw per input element). The sums are the GEMM's up to rounding:
 * another order, and fused multiply-adds. */

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define CONV_DIRECT 1
#include <immintrin.h>

#define CD_MB 4 /* output channels per block */

struct conv_direct {
    const struct conv2d *g;
    Py_ssize_t c, m;     /* input and output channels */
    Py_ssize_t rows;     /* padded rows per channel */
    Py_ssize_t width;    /* floats per phase row */
    Py_ssize_t owr;      /* ow rounded up to 8 */
    Py_ssize_t *xoff;    /* per kx: where its pixels start in a padded row (phase, column) */
};

/* the padded, phase-split copy of image `in` (c x h x w) into buf (c x rows x sx x width) */
static void conv_direct_pad(const float *restrict in, const struct conv_direct *d,
                            float *restrict buf)
{
    const struct conv2d *g = d->g;
    const Py_ssize_t sx = g->sx, phase_row = d->width, row = sx * phase_row;
    for (Py_ssize_t ch = 0; ch < d->c; ch++) {
        const float *plane = in + ch * g->h * g->w;
        float *dst = buf + ch * d->rows * row;
        for (Py_ssize_t p = 0; p < d->rows; p++, dst += row) {
            const Py_ssize_t iy = p - g->py;
            if (iy < 0 || iy >= g->h) {
                memset(dst, 0, (size_t)row * sizeof(float));
                continue;
            }
            const float *src = plane + iy * g->w;
            for (Py_ssize_t q = 0; q < sx; q++) {
                float *out = dst + q * phase_row;
                for (Py_ssize_t j = 0; j < phase_row; j++) {
                    const Py_ssize_t ix = j * sx + q - g->px;
                    out[j] = ix >= 0 && ix < g->w ? src[ix] : 0.0f;
                }
            }
        }
    }
}

/* filter (m x c x kh x kw) as blocks [mb][c][ky][kx][4], zero past m */
static void conv_direct_pack(const float *restrict filter, const struct conv_direct *d,
                             float *restrict packed)
{
    const Py_ssize_t taps = d->g->kh * d->g->kw, blocks = (d->m + CD_MB - 1) / CD_MB;
    for (Py_ssize_t mb = 0; mb < blocks; mb++)
        for (Py_ssize_t ch = 0; ch < d->c; ch++)
            for (Py_ssize_t t = 0; t < taps; t++)
                for (Py_ssize_t i = 0; i < CD_MB; i++) {
                    const Py_ssize_t m = mb * CD_MB + i;
                    packed[((mb * d->c + ch) * taps + t) * CD_MB + i] =
                        m < d->m ? filter[(m * d->c + ch) * taps + t] : 0.0f;
                }
}

static inline __attribute__((always_inline, target("avx2,fma"))) void
conv_direct_store(const __m256 acc[CD_MB][3], int nv, const struct conv_direct *d, Py_ssize_t mb,
                  Py_ssize_t oy, Py_ssize_t ox, float *restrict out)
{
    const struct conv2d *g = d->g;
    const Py_ssize_t out_plane = g->oh * g->ow;
    for (int i = 0; i < CD_MB; i++) {
        const Py_ssize_t m = mb * CD_MB + i;
        if (m >= d->m)
            break;
        float *dst = out + m * out_plane + oy * g->ow;
        for (int j = 0; j < nv; j++) {
            const Py_ssize_t x0 = ox + 8 * j;
            if (x0 + 8 <= g->ow) {
                _mm256_storeu_ps(dst + x0, acc[i][j]);
            } else if (x0 < g->ow) {
                float lanes[8];
                _mm256_storeu_ps(lanes, acc[i][j]);
                memcpy(dst + x0, lanes, (size_t)(g->ow - x0) * sizeof(float));
            }
        }
    }
}

/* NV (1 to 3) vectors of 8 pixels (oy, ox ...) of the 4 output channels of block `w`
 * (packed), kept in 4 * NV registers, stored into out (the columns past ow dropped) */
#define CD_TILE(NV)                                                                              \
    static inline __attribute__((always_inline, target("avx2,fma"))) void conv_direct_tile##NV(  \
        const float *restrict buf, const float *restrict w, const struct conv_direct *d,         \
        Py_ssize_t mb, Py_ssize_t oy, Py_ssize_t ox, float *restrict out, const Py_ssize_t kw)   \
    {                                                                                            \
        const struct conv2d *g = d->g;                                                           \
        const Py_ssize_t row = g->sx * d->width, kh = g->kh;                                     \
        const Py_ssize_t *restrict xoff = d->xoff;                                               \
        __m256 a00 = _mm256_setzero_ps(), a10 = a00, a20 = a00, a30 = a00;                       \
        __m256 a01 = a00, a11 = a00, a21 = a00, a31 = a00;                                       \
        __m256 a02 = a00, a12 = a00, a22 = a00, a32 = a00;                                       \
        for (Py_ssize_t ch = 0; ch < d->c; ch++) {                                               \
            const float *plane = buf + ch * d->rows * row + oy * g->sy * row + ox;               \
            for (Py_ssize_t ky = 0; ky < kh; ky++) {                                             \
                const float *r = plane + ky * g->dy * row;                                       \
                for (Py_ssize_t kx = 0; kx < kw; kx++, w += 4) {                                 \
                    const float *src = r + xoff[kx];                                             \
                    const __m256 v0 = _mm256_loadu_ps(src);                                      \
                    const __m256 v1 = NV > 1 ? _mm256_loadu_ps(src + 8) : v0;                    \
                    const __m256 v2 = NV > 2 ? _mm256_loadu_ps(src + 16) : v0;                   \
                    __m256 f = _mm256_broadcast_ss(w);                                           \
                    a00 = _mm256_fmadd_ps(f, v0, a00);                                           \
                    if (NV > 1)                                                                  \
                        a01 = _mm256_fmadd_ps(f, v1, a01);                                       \
                    if (NV > 2)                                                                  \
                        a02 = _mm256_fmadd_ps(f, v2, a02);                                       \
                    f = _mm256_broadcast_ss(w + 1);                                              \
                    a10 = _mm256_fmadd_ps(f, v0, a10);                                           \
                    if (NV > 1)                                                                  \
                        a11 = _mm256_fmadd_ps(f, v1, a11);                                       \
                    if (NV > 2)                                                                  \
                        a12 = _mm256_fmadd_ps(f, v2, a12);                                       \
                    f = _mm256_broadcast_ss(w + 2);                                              \
                    a20 = _mm256_fmadd_ps(f, v0, a20);                                           \
                    if (NV > 1)                                                                  \
                        a21 = _mm256_fmadd_ps(f, v1, a21);                                       \
                    if (NV > 2)                                                                  \
                        a22 = _mm256_fmadd_ps(f, v2, a22);                                       \
                    f = _mm256_broadcast_ss(w + 3);                                              \
                    a30 = _mm256_fmadd_ps(f, v0, a30);                                           \
                    if (NV > 1)                                                                  \
                        a31 = _mm256_fmadd_ps(f, v1, a31);                                       \
                    if (NV > 2)                                                                  \
                        a32 = _mm256_fmadd_ps(f, v2, a32);                                       \
                }                                                                                \
            }                                                                                    \
        }                                                                                        \
        const __m256 acc[CD_MB][3] = {{a00, a01, a02}, {a10, a11, a12}, {a20, a21, a22},         \
                                      {a30, a31, a32}};                                          \
        conv_direct_store(acc, NV, d, mb, oy, ox, out);                                          \
    }

CD_TILE(1)
CD_TILE(2)
CD_TILE(3)

__attribute__((target("avx2,fma"))) static void
conv_direct_rows(const float *buf, const float *packed, const struct conv_direct *d,
                 Py_ssize_t mb, float *out)
{
    const struct conv2d *g = d->g;
    const float *w = packed + mb * d->c * g->kh * g->kw * CD_MB;
    /* a kernel 3 wide (most are) gets its loop over kx unrolled */
    const int three = g->kw == 3;
    for (Py_ssize_t oy = 0; oy < g->oh; oy++) {
        Py_ssize_t ox = 0;
        for (; ox + 24 <= d->owr; ox += 24)
            if (three)
                conv_direct_tile3(buf, w, d, mb, oy, ox, out, 3);
            else
                conv_direct_tile3(buf, w, d, mb, oy, ox, out, g->kw);
        if (ox + 16 <= d->owr) {
            if (three)
                conv_direct_tile2(buf, w, d, mb, oy, ox, out, 3);
            else
                conv_direct_tile2(buf, w, d, mb, oy, ox, out, g->kw);
            ox += 16;
        }
        if (ox < d->owr) {
            if (three)
                conv_direct_tile1(buf, w, d, mb, oy, ox, out, 3);
            else
                conv_direct_tile1(buf, w, d, mb, oy, ox, out, g->kw);
        }
    }
}

/* rows [r0, r1) of the (image, block) pairs; -1 when memory runs out */
static int conv_direct_f32(const float *restrict x, const float *restrict filter, Py_ssize_t n,
                           Py_ssize_t c, Py_ssize_t m, const struct conv2d *g, Py_ssize_t r0,
                           Py_ssize_t r1, float *restrict out)
{
    struct conv_direct d = {g, c, m, 0, 0, 0, NULL};
    d.owr = (g->ow + 7) / 8 * 8;
    d.rows = (g->oh - 1) * g->sy + (g->kh - 1) * g->dy + 1;
    d.width = d.owr + (g->kw - 1) * g->dx / g->sx + 1;
    const Py_ssize_t blocks = (m + CD_MB - 1) / CD_MB;
    const size_t padded = (size_t)(c * d.rows * g->sx * d.width);
    float *buf = malloc(padded * sizeof(float));
    float *packed = malloc((size_t)(blocks * CD_MB * c * g->kh * g->kw) * sizeof(float));
    d.xoff = malloc((size_t)g->kw * sizeof(Py_ssize_t));
    if (!buf || !packed || !d.xoff) {
        free(buf);
        free(packed);
        free(d.xoff);
        return -1;
    }
    for (Py_ssize_t kx = 0; kx < g->kw; kx++)
        d.xoff[kx] = (kx * g->dx % g->sx) * d.width + kx * g->dx / g->sx;
    conv_direct_pack(filter, &d, packed);
    Py_ssize_t padded_image = -1;
    for (Py_ssize_t r = r0; r < r1; r++) {
        const Py_ssize_t b = r / blocks, mb = r % blocks;
        if (b != padded_image) {
            conv_direct_pad(x + b * c * g->h * g->w, &d, buf);
            padded_image = b;
        }
        conv_direct_rows(buf, packed, &d, mb, out + b * m * g->oh * g->ow);
    }
    free(buf);
    free(packed);
    free(d.xoff);
    return 0;
}

static int conv_direct_supported(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#undef CD_MB
#else
#define CONV_DIRECT 0
#endif
