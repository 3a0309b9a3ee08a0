/* std::mt19937_64 and the libstdc++ distributions PaddlePaddle 3.3.1's CPU random kernels draw
 * through (runtime/kernels/mt19937.py), so that phiops's numbers are PaddlePaddle's after the
 * same paddle.seed. The engine's state is a uint64 buffer of 313 words: the 312 state words, then
 * the position of the next one (312: twist first). Included once per float type T with NAME(f)
 * for the real distributions; the engine functions are included once (MT19937_ENGINE). */

#ifndef MT19937_ENGINE
#define MT19937_ENGINE
#include <stdint.h>

#define MT_N 312
#define MT_M 156

static void mt_twist(uint64_t *mt)
{
    /* in three runs, as libstdc++'s _M_gen_rand: no index wraps, no branch on the low bit */
    const uint64_t upper = 0xFFFFFFFF80000000ULL, lower = 0x7FFFFFFFULL;
    const uint64_t matrix = 0xB5026F5AA96619E9ULL;
    int i;
    for (i = 0; i < MT_N - MT_M; i++) {
        uint64_t x = (mt[i] & upper) | (mt[i + 1] & lower);
        mt[i] = mt[i + MT_M] ^ (x >> 1) ^ ((0 - (x & 1)) & matrix);
    }
    for (; i < MT_N - 1; i++) {
        uint64_t x = (mt[i] & upper) | (mt[i + 1] & lower);
        mt[i] = mt[i + MT_M - MT_N] ^ (x >> 1) ^ ((0 - (x & 1)) & matrix);
    }
    uint64_t x = (mt[MT_N - 1] & upper) | (mt[0] & lower);
    mt[MT_N - 1] = mt[MT_M - 1] ^ (x >> 1) ^ ((0 - (x & 1)) & matrix);
}

static inline uint64_t mt_next(uint64_t *state)
{
    if (state[MT_N] >= MT_N) {
        mt_twist(state);
        state[MT_N] = 0;
    }
    uint64_t x = state[state[MT_N]++];
    x ^= (x >> 29) & 0x5555555555555555ULL;
    x ^= (x << 17) & 0x71D67FFFEDA60000ULL;
    x ^= (x << 37) & 0xFFF7EEE000000000ULL;
    x ^= x >> 43;
    return x;
}

/* std::uniform_int_distribution<T>(low, low + range - 1) of a 64-bit engine, as libstdc++ 11+
 * draws it: Lemire's nearly divisionless method on the 128-bit product. */
/* the 128-bit product of a and b: its high word returned, its low word in *low */
static inline uint64_t mt_mul_high(uint64_t a, uint64_t b, uint64_t *low)
{
#ifdef __SIZEOF_INT128__
    unsigned __int128 product = (unsigned __int128)a * b;
    *low = (uint64_t)product;
    return (uint64_t)(product >> 64);
#else
    uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32, b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t middle = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    *low = (middle << 32) | (p00 & 0xFFFFFFFFu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32);
#endif
}

static inline uint64_t mt_below(uint64_t *state, uint64_t range)
{
    uint64_t low;
    uint64_t high = mt_mul_high(mt_next(state), range, &low);
    if (low < range) {
        uint64_t threshold = (0 - range) % range;
        while (low < threshold)
            high = mt_mul_high(mt_next(state), range, &low);
    }
    return high;
}
#endif

/* A word converted to T, rounded to nearest as (T)word is: halved with its lowest bit kept
 * as a sticky bit, then converted as a signed integer and doubled (exact), where the word has
 * at least T's digits + 3 bits, so that the conversion's branch is on a bound nearly every
 * word passes, not on the word's top bit (a branch mispredicted half the time). */
static inline T NAME(mt_word_to)(uint64_t word)
{
    if (word < ((uint64_t)1 << (MANT_DIG + 2)))
        return (T)(int64_t)word;
    return (T)(int64_t)((word >> 1) | (word & 1)) * (T)2;
}

/* std::generate_canonical<T, digits>: one engine word (64 bits cover T's digits) converted to T
 * (rounded to nearest) and divided by 2^64; a result of 1 becomes the largest T below 1. */
static inline T NAME(mt_canonical)(uint64_t *state)
{
    T u = NAME(mt_word_to)(mt_next(state)) * (T)5.42101086242752217003726400434970855712890625e-20;
    if (u >= (T)1)
        u = NEXTAFTER((T)1, (T)0);
    return u;
}

/* std::uniform_real_distribution<T>(a, b): u * (b - a) + a. */
static void NAME(mt_uniform)(uint64_t *state, T *out, Py_ssize_t n, T a, T b)
{
    for (Py_ssize_t i = 0; i < n; i++)
        out[i] = NAME(mt_canonical)(state) * (b - a) + a;
}

/* One accepted pair of std::normal_distribution<T>'s polar method (Marsaglia's): the value it
 * returns, the one it saves in *saved. */
static inline T NAME(mt_polar)(uint64_t *state, T *saved)
{
    T x, y, r2;
    do {
        /* result_type(2.0) * u - 1.0: the subtraction in double, stored as T */
        x = (T)((double)((T)2 * NAME(mt_canonical)(state)) - 1.0);
        y = (T)((double)((T)2 * NAME(mt_canonical)(state)) - 1.0);
        r2 = x * x + y * y;
    } while (r2 > (T)1 || r2 == (T)0);
    T mult = SQRT((T)-2 * LOG(r2) / r2);
    *saved = x * mult;
    return y * mult;
}

/* std::normal_distribution<T>(mean, stddev), one object per call as PHI's NormalDistribution:
 * the polar method, the second value of each pair kept for the next element. */
static void NAME(mt_normal)(uint64_t *state, T *out, Py_ssize_t n, T mean, T stddev)
{
    int saved_available = 0;
    T saved = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        T value;
        if (saved_available) {
            saved_available = 0;
            value = saved;
        } else {
            value = NAME(mt_polar)(state, &saved);
            saved_available = 1;
        }
        out[i] = value * stddev + mean;
    }
}
