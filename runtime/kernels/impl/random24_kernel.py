"""Kernels of the random24 random ops (issue 24): binomial, poisson, standard_gamma, dirichlet,
exponential, gaussian_inplace, uniform_inplace, multinomial, truncated_gaussian_random,
uniform_random_batch_size_like, gumbel_softmax, shuffle_batch and random_routing.

The kernels draw as PaddlePaddle 3.3.1's CPU kernels do: from
``phiops.runtime.random.engine_for`` (the place's std::mt19937_64, seeded by ``paddle.seed`` as
PaddlePaddle seeds it, or a new engine of a nonzero ``seed`` attribute) through libstdc++'s
distributions and PHI's own samplers (runtime/kernels/mt19937.py: binomial's BTRS and
inversion, the Marsaglia-Tsang gamma of standard_gamma and dirichlet, std::poisson_distribution,
std::normal_distribution, std::uniform_real_distribution), on the host, and move the result to
the place; the same seed gives PaddlePaddle's numbers (tests/ops/test_rng24.py). Two do not:
shuffle_batch draws from ``draw_generator`` (numpy's PCG64: PaddlePaddle's std::random_device
permutation is not replayed by any seed), and random_routing draws nothing. The distributions, supports and edges:

- binomial: 0 where count <= 0 or prob <= 0, trunc(count) where prob >= 1; otherwise PHI's
  samplers on the real count, as PaddlePaddle. A NaN or infinite count, or a NaN prob, where a draw is needed is
  an InvalidArgumentError (PaddlePaddle's sampler never returns there).
- poisson: 0 where the rate is <= 0 or NaN, as PaddlePaddle gives (one draw taken, as its);
  a rate of 2e9 or more is an InvalidArgumentError (PaddlePaddle's sampler never returns).
- standard_gamma and dirichlet's gammas: at least the dtype's smallest normal number (a
  concentration <= 0 or NaN gives it), as PaddlePaddle's gamma sampler clamps; dirichlet then
  divides by the sum along the last axis, so a row of zero concentrations is uniform.
- exponential: (-1 / lam) * log(1 - u) for u uniform in [0, 1); lam 0 gives inf, a negative lam
  negative values, as PaddlePaddle's.
- uniform_inplace: uniform in [min, max); diag_num, diag_step and diag_val are not read, as
  PaddlePaddle's CPU kernel does not.
- multinomial: categories drawn with the row's weights (not necessarily summing to 1; an
  infinite weight shares the mass with the other infinite ones), without replacement by
  PHI's renormalised running sums; negative or NaN weights, a zero row, or more samples than nonzero
  categories without replacement are InvalidArgumentErrors, as PaddlePaddle's.
- truncated_gaussian_random: PaddlePaddle's inverse-CDF sampler on PaddlePaddle's draws (the
  uniforms of its mt19937_64 engine, as runtime/kernels/impl/random_kernel.py's ops: the same
  seed gives the same numbers, to float rounding), the normal CDF by math.erf, its inverse by
  erfinv_kernel's erfinv, clamped to [a, b] as its std::clamp (every value a when b < a).
- uniform_random_batch_size_like: uniform in [min, max) (in (max, min] for min > max), with
  PaddlePaddle's CPU diagonal (diag_num flat elements i * (diag_step + 1) set to diag_val).
- gumbel_softmax: softmax((x + g) / temperature) with standard Gumbel noise g; hard gives the
  one-hot vector of the first largest entry.
- shuffle_batch: PaddlePaddle draws its permutation from std::random_device (the seed input only
  gives seed_out), a random permutation in which every row moves; phiops draws a random cyclic
  permutation (Sattolo's algorithm) from its generator, so every row moves too, and computes
  seed_out exactly as PaddlePaddle (minstd_rand0's first number from the seed).
- random_routing: PaddlePaddle 3.3.1's CPU kernel raises; this is its GPU kernel's rule.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from phiops.runtime.backends import to_numpy
from phiops.runtime.common import DataType
from phiops.runtime.common.data_type import from_numpy_dtype
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.impl.erfinv_kernel import erfinv
from phiops.runtime.kernels.impl.random_kernel import normal_values
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel
from phiops.runtime.kernels import mt19937
from phiops.runtime.random import draw_generator, engine_for

D = DataType

FLOAT = (D.FLOAT32, D.FLOAT64)
FLOAT_AND_COMPLEX = (D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)


def _host(ctx: KernelContext, x: Array) -> np.ndarray:
    """x on the host (numpy), where the draws are made."""
    return to_numpy(x)


@register_kernel("binomial", dtypes=FLOAT, configure=lambda k: k.output_at(0).set_dtype(D.INT64))
def binomial_kernel(ctx: KernelContext, count: Array, prob: Array) -> Array:
    """Successes in count trials of probability prob, element by element, as int64: PHI's CPU
    BinomialFunctor over the place's engine (runtime/kernels/mt19937.py's ``binomial``)."""
    n = _host(ctx, count)
    p = _host(ctx, prob)
    with np.errstate(invalid="ignore"):
        drawn = (n > 0) & (p > 0) & ~(p >= 1)
        drawn |= np.isnan(p) & ~(n <= 0)
        drawn |= np.isnan(n) & (p > 0)
    if drawn.any():
        bad = ~np.isfinite(n[drawn]) | np.isnan(p[drawn])
        if bad.any():
            index = int(np.flatnonzero(drawn.reshape(-1))[int(np.argmax(bad))])
            raise InvalidArgumentError(
                f"binomial(): arguments 'count' and 'prob' must be finite where a draw is "
                f"needed, got count {n.reshape(-1)[index]} and prob {p.reshape(-1)[index]} at "
                f"flat index {index}"
            )
        huge = n[drawn] >= 2.0**63
        if huge.any():
            raise InvalidArgumentError(
                f"binomial(): argument 'count' must be below 2**63 where a draw is needed, got "
                f"{n[drawn][huge][0]} (PaddlePaddle's sampler never returns there)"
            )
    return ctx.xp.asarray(mt19937.binomial(engine_for(ctx.place, 0), n, p))


# std::poisson_distribution<int> rejects every value past INT_MAX, so PHI's loop never ends for
# a rate near 2**31; below this its draws stay many standard deviations inside int's range
POISSON_LIMIT = 2e9


@register_kernel("poisson", dtypes=FLOAT)
def poisson_kernel(ctx: KernelContext, x: Array) -> Array:
    """A Poisson draw of rate x per element, in x's dtype (0 for a rate <= 0 or NaN): PHI's
    CPU kernel, a std::poisson_distribution<int> per element over the place's engine
    (runtime/kernels/mt19937.py's ``poisson``)."""
    lam = _host(ctx, x)
    too_large = lam >= POISSON_LIMIT
    if too_large.any():
        raise InvalidArgumentError(
            f"poisson(): argument 'x' holds a rate of {lam[too_large].reshape(-1)[0]}; rates "
            f"below {POISSON_LIMIT:g} can be drawn (PaddlePaddle's std::poisson_distribution<int> "
            "never returns for a rate past int's range)"
        )
    out = mt19937.poisson(engine_for(ctx.place, 0), lam)
    return ctx.xp.asarray(out.astype(lam.dtype))


@register_kernel("standard_gamma", dtypes=FLOAT)
def standard_gamma_kernel(ctx: KernelContext, x: Array) -> Array:
    """A gamma draw of shape x and scale 1 per element, in x's dtype: PHI's CPU sampler over
    the place's engine (runtime/kernels/mt19937.py's ``gamma``)."""
    return ctx.xp.asarray(mt19937.gamma(engine_for(ctx.place, 0), _host(ctx, x)))


@register_kernel("dirichlet", dtypes=FLOAT)
def dirichlet_kernel(ctx: KernelContext, alpha: Array) -> Array:
    """A Dirichlet draw per row of the last axis: PHI's CPU gamma draws (as standard_gamma's)
    divided by their sum."""
    a = _host(ctx, alpha)
    gammas = mt19937.gamma(engine_for(ctx.place, 0), a)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        out = gammas / gammas.sum(axis=-1, keepdims=True, dtype=a.dtype)
    return ctx.xp.asarray(out.astype(a.dtype, copy=False))


@register_kernel("exponential", dtypes=FLOAT)
def exponential_kernel(ctx: KernelContext, x: Array, lam: float) -> Array:
    """Exponential draws of rate lam in x's shape and dtype (x's values are not read): PHI's
    CPU kernel, (-1 / lam) * log(1 - u) in x's dtype for u std::uniform_real_distribution(0, 1)
    of the place's engine."""
    real = np.float64 if x.dtype == np.float64 else np.float32
    u = mt19937.uniform(engine_for(ctx.place, 0), int(x.size), 0.0, 1.0, real)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        scale = real(-1.0) / real(lam)
        # the C library's log of T stood in for by the float64 log rounded to T
        out = scale * np.log((real(1.0) - u).astype(np.float64)).astype(real)
    return ctx.xp.asarray(out.reshape(x.shape).astype(x.dtype, copy=False))


@register_kernel("gaussian_inplace", dtypes=FLOAT_AND_COMPLEX)
def gaussian_inplace_kernel(
    ctx: KernelContext, x: Array, mean: float, std: float, seed: int
) -> Array:
    """Normal draws of mean and std in x's shape and dtype (x's values are not read), as PHI's
    CPU kernel: std::normal_distribution over the place's engine (or a new one of a nonzero
    seed); a complex element's parts are consecutive draws with mean and float32(std / sqrt(2))
    (random_kernel.normal_values)."""
    dtype = from_numpy_dtype(x.dtype)
    values = normal_values(engine_for(ctx.place, seed), int(x.size), mean, std, dtype)
    return ctx.xp.asarray(values.reshape(x.shape))


@register_kernel("uniform_inplace", dtypes=FLOAT)
def uniform_inplace_kernel(
    ctx: KernelContext,
    x: Array,
    min: float,
    max: float,
    seed: int,
    diag_num: int,
    diag_step: int,
    diag_val: float,
) -> Array:
    """Uniform draws in [min, max) in x's shape and dtype (x's values are not read): PHI's CPU
    kernel, std::uniform_real_distribution over the place's engine (or a new one of a nonzero
    seed)."""
    real = np.float64 if x.dtype == np.float64 else np.float32
    out = mt19937.uniform(
        engine_for(ctx.place, seed), int(x.size), np.float32(min), np.float32(max), real
    )
    return ctx.xp.asarray(out.reshape(x.shape))


def _check_weights(w: np.ndarray, samples: int, replacement: bool) -> None:
    bad = ~(w >= 0)
    if bad.any():
        raise InvalidArgumentError(
            f"multinomial(): argument 'x' must hold weights >= 0, got {w[bad][0]}"
        )
    sums = w.sum(axis=-1)
    if (sums <= 0).any():
        row = int(np.argmax(sums <= 0))
        raise InvalidArgumentError(
            f"multinomial(): argument 'x' must have a positive sum in every distribution, got "
            f"0 in row {row}"
        )
    if not replacement:
        nonzero = int((w > 0).sum(axis=-1).min())
        if samples > nonzero:
            raise InvalidArgumentError(
                f"multinomial(): argument 'num_samples' ({samples}) must be at most the number "
                f"of nonzero categories ({nonzero}) when argument 'replacement' is false"
            )


@register_kernel("multinomial", dtypes=FLOAT, configure=lambda k: k.output_at(0).set_dtype(D.INT64))
def multinomial_kernel(ctx: KernelContext, x: Array, num_samples: int, replacement: bool) -> Array:
    """num_samples category indices per distribution (row) of x, drawn by its weights as PHI's
    CPU MultinomialFunctor: per sample one std::uniform_real_distribution<T>(0, 1) draw of the
    place's engine, the first category whose normalised running sum (in T, the last set to 1)
    is >= it; without replacement the drawn category's mass is taken out and the sums
    renormalised before the next sample."""
    w = _host(ctx, x)
    real = w.dtype.type
    rows = w.reshape(-1, w.shape[-1])
    samples = int(num_samples)
    _check_weights(rows, samples, replacement)
    infinite = np.isinf(rows).any(axis=-1, keepdims=True)
    rows = np.where(infinite, np.isinf(rows).astype(real), rows)
    count, categories = rows.shape
    out = np.empty((count, samples), np.int64)
    if count * samples == 0:
        return ctx.xp.asarray(out.reshape(*w.shape[:-1], samples))
    u = mt19937.uniform(engine_for(ctx.place, 0), count * samples, 0.0, 1.0, real)
    u = u.reshape(count, samples)
    cdf = np.cumsum(rows, axis=-1, dtype=real)
    cdf = cdf / cdf[:, -1:]
    if replacement:
        cdf[:, -1] = 1
        for r in range(count):
            out[r] = np.searchsorted(cdf[r], u[r], side="left")
        return ctx.xp.asarray(out.reshape(*w.shape[:-1], samples))
    positions = np.arange(categories)
    for r in range(count):
        row = cdf[r]
        for s in range(samples):
            row[-1] = 1
            sample = int(np.searchsorted(row, u[r, s], side="left"))
            out[r, s] = sample
            if s < samples - 1:
                before = row[sample - 1] if sample else real(0)
                mass = row[sample] - before
                remaining = real(1.0) - mass
                with np.errstate(divide="ignore", invalid="ignore"):
                    row = np.where(positions >= sample, row - mass, row) / remaining
    return ctx.xp.asarray(out.reshape(*w.shape[:-1], samples))


TRUNCATED_DTYPES = (D.BFLOAT16, D.FLOAT32, D.FLOAT64)


def _normal_cdf(value: float) -> float:
    """The standard normal CDF of one number (math.erf; inf and -inf give 1 and 0)."""
    return (1.0 + math.erf(value / math.sqrt(2.0))) / 2.0


@register_kernel("truncated_gaussian_random", dtypes=TRUNCATED_DTYPES)
def truncated_gaussian_random_kernel(
    ctx: KernelContext,
    shape: tuple[int, ...],
    mean: float,
    std: float,
    seed: int,
    a: float,
    b: float,
    dtype: DataType,
) -> Array:
    """PaddlePaddle's inverse-CDF sampler: p uniform between the normal CDFs of a and b,
    sqrt(2) * erfinv(2p - 1) * std + mean, clamped to [a, b] as std::clamp does (a when b < a)."""
    # PaddlePaddle's draws: std::uniform_real_distribution<MT>(FLT_MIN, 1) on the place's
    # mt19937_64 (a new one for a nonzero seed), MT float64 for float64 and float32 otherwise
    draw = np.float64 if dtype is D.FLOAT64 else np.float32
    count = math.prod(shape)
    u = mt19937.uniform(engine_for(ctx.place, seed), count, np.finfo(np.float32).tiny, 1.0, draw)
    u = u.astype(np.float64).reshape(shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        low = _normal_cdf((a - mean) / std) if std else (0.0 if a <= mean else 1.0)
        high = _normal_cdf((b - mean) / std) if std else (1.0 if b >= mean else 0.0)
        p = low + (high - low) * u
        values = math.sqrt(2.0) * erfinv(np, 2 * p - 1) * std + mean
        if not std:
            values = np.full(shape, float(mean))
        values = np.where(values < a, a, np.where(b < values, b, values))
        return ctx.xp.asarray(values.astype(dtype.numpy_dtype))


@register_kernel("uniform_random_batch_size_like", dtypes=TRUNCATED_DTYPES)
def uniform_random_batch_size_like_kernel(
    ctx: KernelContext,
    input: Array,
    shape: tuple[int, ...],
    input_dim_idx: int,
    output_dim_idx: int,
    min: float,
    max: float,
    seed: int,
    diag_num: int,
    diag_step: int,
    diag_val: float,
    dtype: DataType,
) -> Array:
    """Uniform draws in [min, max) of the batch-size shape; diag_num flat elements
    i * (diag_step + 1) set to diag_val (those past the end are an InvalidArgumentError)."""
    dims = list(shape)
    dims[output_dim_idx] = input.shape[input_dim_idx]
    # PHI: std::uniform_real_distribution<T>(min, max) (float for bfloat16) over the place's
    # engine, or one seeded with the seed cast to unsigned int
    real = np.float64 if dtype is D.FLOAT64 else np.float32
    with np.errstate(invalid="ignore", over="ignore"):
        values = mt19937.uniform(
            engine_for(ctx.place, int(seed) % 2**32),
            math.prod(dims),
            np.float32(min),
            np.float32(max),
            real,
        ).reshape(dims)
    if diag_num:
        positions = np.arange(diag_num) * (diag_step + 1)
        if positions[-1] >= values.size:
            raise InvalidArgumentError(
                f"uniform_random_batch_size_like(): the diagonal element {int(positions[-1])} "
                f"(diag_num {diag_num}, diag_step {diag_step}) is past the {values.size} "
                "elements of the output"
            )
        values.reshape(-1)[positions] = diag_val
    with np.errstate(invalid="ignore", over="ignore"):
        return ctx.xp.asarray(values.astype(dtype.numpy_dtype))


def _softmax(xp: Any, z: Array, axis: int) -> Array:
    z = z - xp.max(z, axis=axis, keepdims=True)
    e = xp.exp(z)
    return e / xp.sum(e, axis=axis, keepdims=True)


@register_kernel("gumbel_softmax", dtypes=FLOAT)
def gumbel_softmax_kernel(
    ctx: KernelContext, x: Array, temperature: float, hard: bool, axis: int
) -> Array:
    """softmax((x + g) / temperature) along axis with g standard Gumbel noise drawn as PHI's CPU
    kernel draws it; hard gives the one-hot vector of its first largest entry."""
    xp = ctx.xp
    if x.ndim == 0:
        return xp.ones_like(x)
    axis = axis % x.ndim
    if x.size == 0:
        return xp.zeros_like(x)
    # PHI's CPU noise: u std::uniform_real_distribution<T>(1e-5, 1) over the place's engine, in
    # flat order, and -log(-log(u)) in T (the logarithms as float64 rounded to T)
    real = x.dtype.type
    u = mt19937.uniform(engine_for(ctx.place, 0), int(x.size), 0.00001, 1.0, real)
    inner = (-np.log(u.astype(np.float64)).astype(real)).astype(np.float64)
    noise = xp.asarray((-np.log(inner).astype(real)).reshape(x.shape))
    divisor = real(np.float32(temperature))
    soft = _softmax(xp, (x + noise) / divisor, axis)
    if not hard:
        return soft
    index = xp.expand_dims(xp.argmax(soft, axis=axis), axis)
    positions = xp.arange(x.shape[axis]).reshape([-1 if i == axis else 1 for i in range(x.ndim)])
    return (positions == index).astype(x.dtype)


MINSTD_MODULUS = 2**31 - 1


def _minstd_first(seed: int) -> int:
    """The first number of libstdc++'s std::default_random_engine (minstd_rand0) seeded with
    seed, as an unsigned 64-bit value: 16807 * s mod (2**31 - 1), s = seed mod (2**31 - 1) or 1."""
    state = (seed % 2**64) % MINSTD_MODULUS or 1
    return 16807 * state % MINSTD_MODULUS


@register_kernel(
    "shuffle_batch",
    dtypes=(D.FLOAT32, D.FLOAT64, D.INT32, D.INT64),
    configure=lambda k: (
        k.input_at(1).set_dtype(D.ALL_DTYPE),
        k.output_at(1).set_dtype(D.INT64),
        k.output_at(2).set_dtype(D.INT64),
    ),
)
def shuffle_batch_kernel(
    ctx: KernelContext, x: Array, seed: Array, startup_seed: int
) -> tuple[Array, Array, Array]:
    """Rows of x moved by a random cyclic permutation (Sattolo's algorithm), their destinations,
    and the seed's successor."""
    xp = ctx.xp
    rows = x.reshape(-1, x.shape[-1]) if x.ndim > 1 else x.reshape(1, -1)
    count = rows.shape[0]
    destination = np.arange(count)
    rng = draw_generator(ctx.place, 0)
    for i in range(count - 1, 0, -1):
        j = int(rng.integers(0, i))
        destination[i], destination[j] = destination[j], destination[i]
    out = xp.empty_like(rows)
    out[xp.asarray(destination)] = rows
    seed_value = int(to_numpy(seed).reshape(-1)[0]) if seed.size else startup_seed
    seed_out = xp.asarray(np.array([_minstd_first(seed_value)], np.int64))
    return out.reshape(x.shape), xp.asarray(destination.astype(np.int64)), seed_out


@register_kernel(
    "random_routing",
    dtypes=FLOAT,
    configure=lambda k: (k.input_at(2).set_dtype(D.ALL_DTYPE), k.output_at(0).set_dtype(D.INT64)),
)
def random_routing_kernel(
    ctx: KernelContext, prob: Array, topk_value: Array, topk_idx: Array
) -> Array:
    """topk_idx with column 1 set to -1 where 2 * topk_value[:, 1] < prob (PaddlePaddle's GPU
    rule; its CPU kernel raises)."""
    xp = ctx.xp
    out = xp.array(topk_idx, copy=True)
    if out.shape[1] > 1:
        dropped = 2 * topk_value[:, 1] < prob
        out[:, 1] = xp.where(dropped, xp.asarray(-1, dtype=out.dtype), out[:, 1])
    return out
