"""Kernels of the special functions lgamma, gammaln, digamma, polygamma, i0, i0e, i1, i1e and
gammaincc.

numpy has none of them, and phiops needs numpy alone at run time, so they are written here with
``xp`` operations, in float64 (float32 inputs are computed in float64 and rounded), from the
standard expansions PaddlePaddle's kernels use (std::lgamma, Eigen's digamma and zeta, Cephes'
Bessel functions):

- log-gamma: for x >= 10 Stirling's series (x - 1/2) log x - x + log(2 pi) / 2 + sum of
  B_2k / (2k (2k - 1) x^(2k - 1)); below, the recurrence log Gamma(x) = log Gamma(x + m) -
  log(x (x + 1) ... (x + m - 1)); for x < 1/2 the reflection log Gamma(x) = log(pi / |sin(pi x)|)
  - log Gamma(1 - x). Poles (0, negative integers) and +-inf give +inf, as std::lgamma.
- digamma: the recurrence psi(x) = psi(x + 1) - 1/x up to x >= 10, then psi(x) = log x - 1/(2x) -
  sum of B_2k / (2k x^2k); for x <= 0 the reflection psi(x) = psi(1 - x) - pi / tan(pi x).
  PaddlePaddle (Eigen) gives -inf at +0, +inf at -0, NaN at negative integers and -inf.
- polygamma(n >= 1, x) = (-1)^(n+1) n! zeta(n + 1, x), the Hurwitz zeta function summed
  directly up to x + m >= 10 and finished with the Euler-Maclaurin tail (Cephes' zeta, which
  Eigen's is): PaddlePaddle gives +inf at the poles and at -inf, NaN at +inf.
- I0 and I1 (and the scaled I0e = I0 exp(-|x|), I1e = I1 exp(-|x|)): their power series for
  |x| <= 30, Hankel's asymptotic expansion e^|x| / sqrt(2 pi |x|) sum (-1)^k a_k(nu) / |x|^k
  above; I1 is odd. PaddlePaddle gives NaN for I0 and I1 at +-inf and 0 (signed for i1e) for
  the scaled ones.
- gammaincc(a, x), the regularized upper incomplete gamma function Q: Cephes' igamc (Eigen's),
  1 - the power series of P for x < 1 or x < a, else the continued fraction of Q.
"""

from __future__ import annotations

import math

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType
REAL = (D.FLOAT32, D.FLOAT64)

# B_2k for k = 1 .. 12 (Bernoulli numbers)
BERNOULLI = (
    1 / 6,
    -1 / 30,
    1 / 42,
    -1 / 30,
    5 / 66,
    -691 / 2730,
    7 / 6,
    -3617 / 510,
    43867 / 798,
    -174611 / 330,
    854513 / 138,
    -236364091 / 2730,
)
SHIFT_TO = 10.0  # the asymptotic series are summed at x >= 10
HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


def _float64(xp, x: Array) -> Array:  # noqa: ANN001
    return x.astype(xp.float64, copy=False)


def _offset(xp, x: Array) -> Array:  # noqa: ANN001
    """x minus its nearest integer, in [-1/2, 1/2] (exact): sin(pi x) and tan(pi x) are taken
    of it, so that they keep their precision near the integers."""
    return x - xp.round(x)


def _abs_sin_pi(xp, x: Array) -> Array:  # noqa: ANN001
    return xp.abs(xp.sin(math.pi * _offset(xp, x)))


def _shift_count(xp, x: Array) -> Array:  # noqa: ANN001
    """How many recurrence steps take each finite x to SHIFT_TO or above."""
    finite = xp.where(xp.isfinite(x), x, SHIFT_TO)
    return xp.maximum(xp.ceil(SHIFT_TO - finite), 0).astype(xp.int64)


def lgamma_positive(xp, x: Array) -> Array:  # noqa: ANN001
    """log Gamma(x) for x >= 1/2 (and +inf, NaN)."""
    steps = _shift_count(xp, x)
    shifted = x + steps
    log_product = xp.zeros_like(x)
    for k in range(int(steps.max()) if steps.size else 0):
        active = steps > k
        log_product = log_product + xp.where(active, xp.log(xp.where(active, x + k, 1.0)), 0.0)
    inverse = 1.0 / shifted
    inverse_square = inverse * inverse
    series = xp.zeros_like(x)
    power = inverse
    for k, b in enumerate(BERNOULLI[:8], start=1):
        series = series + b / (2 * k * (2 * k - 1)) * power
        power = power * inverse_square
    with np.errstate(invalid="ignore"):
        stirling = (shifted - 0.5) * xp.log(shifted) - shifted + HALF_LOG_2PI + series
    return stirling - log_product


def lgamma64(xp, x: Array) -> Array:  # noqa: ANN001
    """log |Gamma(x)| for float64 x, as std::lgamma."""
    small = x < 0.5
    positive = lgamma_positive(xp, xp.where(small, 1.0 - x, x))
    with np.errstate(divide="ignore", invalid="ignore"):
        reflected = xp.log(math.pi / _abs_sin_pi(xp, x)) - positive
    out = xp.where(small, reflected, positive)
    pole = (x <= 0) & (x == xp.floor(x))
    return xp.where(pole | xp.isinf(x), xp.inf, out)


def digamma_positive(xp, x: Array) -> Array:  # noqa: ANN001
    """psi(x) for x > 0 (and +inf, NaN)."""
    steps = _shift_count(xp, x)
    shifted = x + steps
    correction = xp.zeros_like(x)
    for k in range(int(steps.max()) if steps.size else 0):
        active = steps > k
        correction = correction + xp.where(active, 1.0 / xp.where(active, x + k, 1.0), 0.0)
    inverse_square = 1.0 / (shifted * shifted)
    series = xp.zeros_like(x)
    power = inverse_square
    for k, b in enumerate(BERNOULLI[:8], start=1):
        series = series + b / (2 * k) * power
        power = power * inverse_square
    with np.errstate(invalid="ignore"):
        return xp.log(shifted) - 0.5 / shifted - series - correction


def digamma64(xp, x: Array) -> Array:  # noqa: ANN001
    """psi(x) for float64 x, with Eigen's edges."""
    non_positive = x <= 0
    positive = digamma_positive(xp, xp.where(non_positive, 1.0 - x, x))
    with np.errstate(divide="ignore", invalid="ignore"):
        reflected = positive - math.pi / xp.tan(math.pi * _offset(xp, x))
    out = xp.where(non_positive, reflected, positive)
    integer = non_positive & (x == xp.floor(x))
    out = xp.where(integer, xp.nan, out)
    out = xp.where(x == 0, xp.copysign(xp.inf, -x), out)
    return xp.where(xp.isneginf(x), xp.nan, out)


def hurwitz_zeta64(xp, s: int, q: Array) -> Array:  # noqa: ANN001
    """zeta(s, q) = sum over k >= 0 of (q + k)^-s for an integer s >= 2 and float64 q."""
    steps = _shift_count(xp, q)
    total = xp.zeros_like(q)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for k in range(int(steps.max()) if steps.size else 0):
            active = steps > k
            total = total + xp.where(active, xp.where(active, q + k, 1.0) ** -s, 0.0)
        a = q + steps
        tail = a ** (1 - s) / (s - 1) + 0.5 * a**-s
        rising = float(s)  # s (s + 1) ... (s + 2j - 2)
        power = a ** (-s - 1)
        for j, b in enumerate(BERNOULLI[:10], start=1):
            tail = tail + b / math.factorial(2 * j) * rising * power
            rising *= (s + 2 * j - 1) * (s + 2 * j)
            power = power / (a * a)
    return total + tail


def polygamma64(xp, n: int, x: Array) -> Array:  # noqa: ANN001
    """The n-th derivative of psi at float64 x (n >= 1), with Eigen's edges."""
    sign = 1.0 if n % 2 == 1 else -1.0
    out = sign * math.factorial(n) * hurwitz_zeta64(xp, n + 1, x)
    pole = (x <= 0) & (x == xp.floor(x))
    out = xp.where(pole | xp.isneginf(x), xp.inf, out)
    return xp.where(xp.isposinf(x), xp.nan, out)


# Hankel's asymptotic expansion of I_nu: the first 30 a_k(nu) = prod (4 nu^2 - (2j - 1)^2) /
# (k! 8^k), alternating in sign in the sum
def _hankel(nu: int, terms: int = 30) -> tuple[float, ...]:
    coefficients, value = [], 1.0
    for k in range(terms):
        coefficients.append(value * (-1) ** k)
        value *= (4 * nu * nu - (2 * k + 1) ** 2) / ((k + 1) * 8)
    return tuple(coefficients)


HANKEL = {0: _hankel(0), 1: _hankel(1)}
SERIES_BELOW = 30.0


def bessel_i64(xp, nu: int, x: Array, scaled: bool) -> Array:  # noqa: ANN001
    """I_nu(x) (times exp(-|x|) when ``scaled``) for nu 0 or 1 and float64 x."""
    ax = xp.abs(x)
    series_x = xp.where(ax <= SERIES_BELOW, ax, 0.0)
    quarter = series_x * series_x / 4
    term = xp.ones_like(x) if nu == 0 else series_x / 2
    total = term
    for k in range(1, 90):
        term = term * quarter / (k * (k + nu))
        total = total + term
    with np.errstate(over="ignore", invalid="ignore"):
        series = total * xp.exp(-series_x) if scaled else total
        large_x = xp.where(ax > SERIES_BELOW, ax, SERIES_BELOW + 1)
        inverse = 1.0 / large_x
        hankel = xp.zeros_like(x)
        power = xp.ones_like(x)
        for coefficient in HANKEL[nu]:
            hankel = hankel + coefficient * power
            power = power * inverse
        asymptotic = hankel / xp.sqrt(2 * math.pi * large_x)
        if not scaled:
            # e^x first, as Cephes does: above x = 709.78 it overflows to inf, as PaddlePaddle's
            asymptotic = xp.exp(large_x) * asymptotic
    out = xp.where(ax <= SERIES_BELOW, series, asymptotic)
    out = xp.where(xp.isnan(x), xp.nan, out)
    if nu == 1:
        out = xp.where(x < 0, -out, out)
    if scaled:
        return xp.where(xp.isinf(x), xp.where(x < 0, -0.0, 0.0) if nu == 1 else 0.0, out)
    return xp.where(xp.isinf(x), xp.nan, out)


def _unary(function):  # noqa: ANN001, ANN202
    """A kernel computing ``function`` in float64 and returning x's dtype."""

    def kernel(ctx: KernelContext, x: Array) -> Array:
        xp = ctx.xp
        with np.errstate(over="ignore"):  # float32 results beyond its range are inf
            return function(xp, _float64(xp, x)).astype(x.dtype, copy=False)

    return kernel


# PaddlePaddle 3.3.1 registers all of these on CPU for float32 and float64 only
lgamma_kernel = register_kernel("lgamma", dtypes=REAL)(_unary(lgamma64))
gammaln_kernel = register_kernel("gammaln", dtypes=REAL)(_unary(lgamma64))
digamma_kernel = register_kernel("digamma", dtypes=REAL)(_unary(digamma64))
i0_kernel = register_kernel("i0", dtypes=REAL)(_unary(lambda xp, x: bessel_i64(xp, 0, x, False)))
i0e_kernel = register_kernel("i0e", dtypes=REAL)(_unary(lambda xp, x: bessel_i64(xp, 0, x, True)))
i1_kernel = register_kernel("i1", dtypes=REAL)(_unary(lambda xp, x: bessel_i64(xp, 1, x, False)))
i1e_kernel = register_kernel("i1e", dtypes=REAL)(_unary(lambda xp, x: bessel_i64(xp, 1, x, True)))


@register_kernel("polygamma", dtypes=REAL)
def polygamma_kernel(ctx: KernelContext, x: Array, n: int) -> Array:
    """polygamma(0, x) is digamma."""
    if n < 0:
        raise InvalidArgumentError(f"polygamma(): argument 'n' must be non-negative, got {n}")
    xp = ctx.xp
    x64 = _float64(xp, x)
    out = digamma64(xp, x64) if n == 0 else polygamma64(xp, n, x64)
    with np.errstate(over="ignore"):
        return out.astype(x.dtype, copy=False)


# -- the regularized upper incomplete gamma function ------------------------------------------

MACHEP = 1.11022302462515654042e-16
MAXLOG = 7.09782712893383996843e2
BIG = 4.503599627370496e15
MAX_ITERATIONS = 2000


def _igam_series(xp, a: Array, x: Array) -> Array:  # noqa: ANN001
    """P(a, x) by its power series (Cephes igam), for x < 1 or x < a."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        ax = a * xp.log(x) - x - lgamma64(xp, a)
        r, c, total = a.copy(), xp.ones_like(a), xp.ones_like(a)
        running = xp.ones(a.shape, dtype=bool)
        for _ in range(MAX_ITERATIONS):
            r = r + 1.0
            c = xp.where(running, c * x / r, c)
            total = xp.where(running, total + c, total)
            running = running & (c / total > MACHEP)
            if not running.any():
                break
        return xp.where(ax < -MAXLOG, 0.0, total * xp.exp(ax) / a)


def _igamc_fraction(xp, a: Array, x: Array) -> Array:  # noqa: ANN001
    """Q(a, x) by its continued fraction (Cephes igamc), for x >= 1 and x >= a."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        ax = a * xp.log(x) - x - lgamma64(xp, a)
        y = 1.0 - a
        z = x + y + 1.0
        c = xp.zeros_like(a)
        pkm2, qkm2 = xp.ones_like(a), x.copy()
        pkm1, qkm1 = x + 1.0, z * x
        answer = pkm1 / qkm1
        running = xp.ones(a.shape, dtype=bool)
        for _ in range(MAX_ITERATIONS):
            c = c + 1.0
            y = y + 1.0
            z = z + 2.0
            yc = y * c
            pk = pkm1 * z - pkm2 * yc
            qk = qkm1 * z - qkm2 * yc
            nonzero = qk != 0
            ratio = xp.where(nonzero, pk / xp.where(nonzero, qk, 1.0), answer)
            change = xp.where(nonzero, xp.abs((answer - ratio) / ratio), 1.0)
            answer = xp.where(running, ratio, answer)
            pkm2, pkm1 = xp.where(running, pkm1, pkm2), xp.where(running, pk, pkm1)
            qkm2, qkm1 = xp.where(running, qkm1, qkm2), xp.where(running, qk, qkm1)
            large = running & (xp.abs(pk) > BIG)
            scale = xp.where(large, 1.0 / BIG, 1.0)
            pkm2, pkm1, qkm2, qkm1 = pkm2 * scale, pkm1 * scale, qkm2 * scale, qkm1 * scale
            running = running & ~(change <= MACHEP)
            if not running.any():
                break
        return xp.where(ax < -MAXLOG, 0.0, answer * xp.exp(ax))


def gammaincc64(xp, a: Array, x: Array) -> Array:  # noqa: ANN001
    """Q(a, x) = Gamma(a, x) / Gamma(a) for float64 a, x (broadcast), with Cephes' edges:
    1 where x <= 0 or a <= 0, NaN where x is +inf or either is NaN."""
    a, x = xp.broadcast_arrays(a, x)
    trivial = (x <= 0) | (a <= 0)
    bad = xp.isnan(a) | xp.isnan(x) | xp.isinf(x)
    use_series = (x < 1) | (x < a)
    safe_a = xp.where(trivial | bad, 1.0, a)
    safe_x = xp.where(trivial | bad, 1.0, x)
    series = 1.0 - _igam_series(xp, safe_a, xp.where(use_series, safe_x, 0.5))
    fraction = _igamc_fraction(xp, safe_a, xp.where(use_series, 2.0, safe_x))
    out = xp.where(use_series, series, fraction)
    out = xp.where(trivial, 1.0, out)
    return xp.where(bad, xp.nan, out)


@register_kernel("gammaincc", dtypes=REAL)
def gammaincc_kernel(ctx: KernelContext, x: Array, y: Array) -> Array:
    """The regularized upper incomplete gamma function Q(x, y), broadcast."""
    xp = ctx.xp
    out = gammaincc64(xp, _float64(xp, x), _float64(xp, y))
    return out.astype(x.dtype, copy=False)
