/* The samplers of PaddlePaddle 3.3.1's CPU random kernels that loop (rejection methods), over the
 * engine and distributions of mt19937.h, one element after another as PHI draws them
 * (runtime/kernels/mt19937.py's gamma and binomial are the Python forms): PHI's sample_gamma
 * (paddle/phi/kernels/impl/dirichlet_kernel_impl.h, Marsaglia and Tsang) and its BinomialFunctor
 * (paddle/phi/kernels/funcs/binomial_functor.h, BTRS and inversion). Included once per float
 * type T with NAME(f); the arithmetic is T's where PHI's is T's and double's where PHI's
 * literals are double, as C rounds it on x86-64 (FLT_EVAL_METHOD 0, no contraction into FMA at
 * the portable flags setup.py uses); LOG, POW, LOG1P are T's C library functions, as std::log
 * of a T is. The normals are mt19937.h's polar pairs (mt_polar). */

/* sample_gamma<T, T>: its uniforms std::uniform_real_distribution<T>(0, 1), its normals a new
 * std::normal_distribution<T>(0, 1) each (the saved value dropped); then
 * max(numeric_limits<T>::min(), sample) as GammaCPUFunctor stores it (NaN gives min). */
static T NAME(mt_gamma_one)(uint64_t *state, T alpha, T tiny)
{
    T scale = (T)1, a = alpha;
    T sample = 0;
    if (a < 1.0f) {
        if (a == 0.f)
            return tiny;
        T uniform = NAME(mt_canonical)(state);
        scale *= POW(1 - uniform, 1.0f / a);
        a += 1.0f;
    }
    const T d = a - 1.0f / 3.0f;
    const T c = 1.0f / SQRT(9.0f * d);
    for (;;) {
        T x, y, saved;
        do {
            x = NAME(mt_polar)(state, &saved);
            y = 1.0f + c * x;
        } while (y <= 0);
        const T v = y * y * y;
        const T u = 1 - NAME(mt_canonical)(state);
        const T xx = x * x;
        if (u < 1.0f - 0.0331f * xx * xx) {
            sample = scale * d * v;
            break;
        }
        if (LOG(u) < 0.5f * xx + d * (1.0f - v + LOG(v))) {
            sample = scale * d * v;
            break;
        }
    }
    return tiny < sample ? sample : tiny;
}

static void NAME(mt_gamma)(uint64_t *state, const T *alpha, T *out, Py_ssize_t n, T tiny)
{
    for (Py_ssize_t i = 0; i < n; i++)
        out[i] = NAME(mt_gamma_one)(state, alpha[i], tiny);
}

/* stirling_approx_tail<T>(k) */
static inline T NAME(mt_stirling_tail)(int64_t k)
{
    static const double tails[10] = {
        0.0810614667953272,  0.0413406959554092,  0.0276779256849983, 0.02079067210376509,
        0.0166446911898211,  0.0138761288230707,  0.0118967099458917, 0.0104112652619720,
        0.00925546218271273, 0.00833056343336287,
    };
    if (k <= 9)
        return (T)tails[k < 0 ? 0 : k];
    T kp1sq = (T)((k + 1) * (k + 1));
    return (T)((1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1));
}

/* static_cast<int64_t> of a T on x86-64: truncation, INT64_MIN for NaN and out of range. */
static inline int64_t NAME(mt_to_int64)(T value)
{
    if (value >= -9223372036854775808.0 && value < 9223372036854775808.0)
        return (int64_t)value;
    return INT64_MIN;
}

/* btrs<T> (Hormann's BTRS) */
static int64_t NAME(mt_btrs)(uint64_t *state, const T n, const T p)
{
    const T stddev = SQRT(n * p * (1 - p));
    const T b = 1.15 + 2.53 * stddev;
    const T a = -0.0873 + 0.0248 * b + 0.01 * p;
    const T c = n * p + 0.5;
    const T v_r = 0.92 - 4.2 / b;
    const T r = p / (1 - p);
    const T alpha = (2.83 + 5.1 / b) * stddev;
    const T m = FLOOR((n + 1) * p);
    for (;;) {
        T U = NAME(mt_canonical)(state) - 0.5;
        T V = NAME(mt_canonical)(state);
        T us = 0.5 - FABS(U);
        int64_t k = NAME(mt_to_int64)(FLOOR((2 * a / us + b) * U + c));
        if (k < 0 || k > n)
            continue;
        if (us >= 0.07 && V <= v_r)
            return k;
        V = LOG(V * alpha / (a / (us * us) + b));
        T upperbound = ((m + 0.5) * LOG((m + 1) / (r * (n - m + 1))) +
                        (n + 1) * LOG((n - m + 1) / (n - k + 1)) +
                        (k + 0.5) * LOG(r * (n - k + 1) / (k + 1)) +
                        NAME(mt_stirling_tail)(NAME(mt_to_int64)(m)) +
                        NAME(mt_stirling_tail)(NAME(mt_to_int64)(n - m)) -
                        NAME(mt_stirling_tail)(k) -
                        NAME(mt_stirling_tail)(NAME(mt_to_int64)(n - k)));
        if (V <= upperbound)
            return k;
    }
}

/* binomial_inversion<T>: geometric waiting times until their sum passes n */
static int64_t NAME(mt_inversion)(uint64_t *state, const T n, const T p)
{
    T geom_sum = 0.0;
    int64_t num_geom = 0;
    T logprob = LOG1P(-p);
    for (;;) {
        T unif = NAME(mt_canonical)(state);
        T geom = CEIL(LOG(unif) / logprob);
        geom_sum += geom;
        if (geom_sum > n)
            break;
        num_geom = num_geom + 1;
    }
    return num_geom;
}

/* BinomialFunctor<T>; the caller refuses a NaN or infinite count or a NaN prob where a draw is
 * needed (PHI's loops never end there). */
static int64_t NAME(mt_binomial_one)(uint64_t *state, const T n, const T p)
{
    if (n <= 0.0 || p <= 0.0)
        return 0;
    if (p >= 1.0)
        return NAME(mt_to_int64)(n);
    if (p <= 0.5)
        return n * p >= 10.0 ? NAME(mt_btrs)(state, n, p) : NAME(mt_inversion)(state, n, p);
    T qprob = 1.0 - p;
    return NAME(mt_to_int64)(n) - (n * qprob >= 10.0 ? NAME(mt_btrs)(state, n, qprob)
                                                     : NAME(mt_inversion)(state, n, qprob));
}

static void NAME(mt_binomial)(uint64_t *state, const T *count, const T *prob, int64_t *out,
                              Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++)
        out[i] = NAME(mt_binomial_one)(state, count[i], prob[i]);
}
