"""The random24 random ops (issue 24): binomial, poisson, standard_gamma, dirichlet,
exponential_, gaussian_inplace, uniform_inplace and multinomial.

The tests check each distribution (support, mean and variance within six standard errors of
numpy's formulas, for every registered dtype), the edges PaddlePaddle 3.3.1 gives (recorded in
tests/parity/test_random24_paddle.py), seeded reproducibility and bad input. That the real-dtype
ops draw PaddlePaddle's own numbers after the same seed (its mt19937_64 through libstdc++'s
distributions and PHI's samplers) is tests/ops/test_rng24.py's."""

from __future__ import annotations

import math

import numpy as np
import pytest

import phiops as paddle
from phiops import _C_ops
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, NotFoundError
from tests.ops.op_testing import cpu_dtypes, op_test

N = 20_000


def _t(values: object, dtype: str = "float32") -> paddle.Tensor:
    return paddle.to_tensor(np.asarray(values, dtype=dtype))


def _close_mean(values: np.ndarray, mean: float, variance: float) -> None:
    """The sample mean within six standard errors of ``mean``."""
    error = 6 * math.sqrt(variance / values.size) + 1e-12
    assert abs(float(values.mean()) - mean) <= error, (float(values.mean()), mean, error)


def _close_variance(values: np.ndarray, variance: float, rel: float = 0.08) -> None:
    assert abs(float(values.var()) - variance) <= rel * variance + 1e-12, (values.var(), variance)


# ---- binomial ----------------------------------------------------------------------------------


@op_test("binomial", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("binomial"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("n, p", [(7.0, 0.3), (40.0, 0.6), (1000.0, 0.02)])
def test_binomial_has_the_binomial_moments(dtype: DataType, n: float, p: float) -> None:
    paddle.seed(10)
    name = dtype.name.lower()
    out = _C_ops.binomial(_t(np.full(N, n), name), _t(np.full(N, p), name))
    values = out.numpy()
    assert out.dtype == paddle.int64 and out.shape == [N]
    assert values.min() >= 0 and values.max() <= n
    _close_mean(values, n * p, n * p * (1 - p))
    _close_variance(values, n * p * (1 - p))


@op_test("binomial", kind="edge")
def test_binomial_edges_are_paddles() -> None:
    count = _t([10.0, 20.7, 0.0, -3.0, 5.0, 5.0, 7.9])
    prob = _t([0.0, 1.0, 0.5, 0.5, 2.0, -1.0, 1.0])
    np.testing.assert_array_equal(_C_ops.binomial(count, prob).numpy(), [0, 20, 0, 0, 5, 0, 7])
    zero_d = _C_ops.binomial(_t(5.0), _t(1.0))
    assert zero_d.shape == [] and int(zero_d.numpy()) == 5
    assert _C_ops.binomial(_t(np.zeros((0, 3))), _t(np.zeros((0, 3)))).shape == [0, 3]
    assert paddle.binomial(_t([4.0]), _t([0.5])).dtype == paddle.int64


def test_binomial_refuses_bad_input() -> None:
    with pytest.raises(InvalidArgumentError, match="'count' and 'prob' must have the same shape"):
        _C_ops.binomial(_t([[1.0, 2.0]]), _t([0.5]))
    with pytest.raises(InvalidArgumentError, match="same dtype, got float32 and float64"):
        _C_ops.binomial(_t([1.0]), _t([0.5], "float64"))
    with pytest.raises(InvalidArgumentError, match="must be finite where a draw is needed"):
        _C_ops.binomial(_t([3.0, 4.0]), _t([0.5, math.nan]))
    with pytest.raises(InvalidArgumentError, match="must be finite where a draw is needed"):
        _C_ops.binomial(_t([math.inf]), _t([0.5]))


def test_binomial_replays_after_seed() -> None:
    paddle.seed(3)
    a = _C_ops.binomial(_t(np.full(50, 9.0)), _t(np.full(50, 0.4))).numpy()
    paddle.seed(3)
    b = _C_ops.binomial(_t(np.full(50, 9.0)), _t(np.full(50, 0.4))).numpy()
    np.testing.assert_array_equal(a, b)


# ---- poisson -----------------------------------------------------------------------------------


@op_test("poisson", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("poisson"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("rate", [0.5, 4.0, 300.0])
def test_poisson_has_the_poisson_moments(dtype: DataType, rate: float) -> None:
    paddle.seed(11)
    out = _C_ops.poisson(_t(np.full(N, rate), dtype.name.lower()))
    values = out.numpy()
    assert out.dtype == dtype and out.shape == [N]
    np.testing.assert_array_equal(values, np.round(values))
    assert values.min() >= 0
    _close_mean(values, rate, rate)
    _close_variance(values, rate)


@op_test("poisson", kind="edge")
def test_poisson_edges_are_paddles() -> None:
    np.testing.assert_array_equal(
        _C_ops.poisson(_t([0.0, -1.0, math.nan, -math.inf])).numpy(), [0, 0, 0, 0]
    )
    assert _C_ops.poisson(_t(3.0)).shape == []
    assert _C_ops.poisson(_t(np.zeros((0, 3)))).shape == [0, 3]
    with pytest.raises(
        InvalidArgumentError, match="poisson\\(\\): argument 'x' holds a rate of inf"
    ):
        _C_ops.poisson(_t([1.0, math.inf]))


def test_poisson_gradient_is_zero() -> None:
    x = _t([1.0, 3.0], "float64")
    x.stop_gradient = False
    (grad,) = paddle.grad(paddle.poisson(x).sum(), x)
    np.testing.assert_array_equal(grad.numpy(), [0.0, 0.0])


# ---- standard_gamma ----------------------------------------------------------------------------


@op_test("standard_gamma", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("standard_gamma"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("alpha", [0.3, 1.0, 9.0])
def test_standard_gamma_has_the_gamma_moments(dtype: DataType, alpha: float) -> None:
    paddle.seed(12)
    out = _C_ops.standard_gamma(_t(np.full(N, alpha), dtype.name.lower()))
    values = out.numpy().astype(np.float64)
    assert out.dtype == dtype and out.shape == [N]
    assert values.min() > 0
    _close_mean(values, alpha, alpha)
    _close_variance(values, alpha, rel=0.12)


@op_test("standard_gamma", kind="edge")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_standard_gamma_edges_are_paddles(dtype: str) -> None:
    tiny = np.finfo(dtype).tiny
    out = _C_ops.standard_gamma(_t([0.0, -1.0, math.nan, math.inf], dtype)).numpy()
    np.testing.assert_array_equal(out, [tiny, tiny, tiny, math.inf])
    assert _C_ops.standard_gamma(_t(2.0, dtype)).shape == []
    assert _C_ops.standard_gamma(_t(np.zeros((2, 0)), dtype)).shape == [2, 0]


# ---- dirichlet ---------------------------------------------------------------------------------


@op_test("dirichlet", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("dirichlet"), ids=lambda d: d.name.lower())
def test_dirichlet_rows_lie_on_the_simplex_with_the_dirichlet_mean(dtype: DataType) -> None:
    paddle.seed(13)
    alpha = np.array([0.5, 2.0, 3.5])
    rows = N // 4
    out = _C_ops.dirichlet(_t(np.tile(alpha, (rows, 1)), dtype.name.lower()))
    values = out.numpy().astype(np.float64)
    assert out.dtype == dtype and out.shape == [rows, 3]
    assert values.min() >= 0
    np.testing.assert_allclose(values.sum(axis=-1), 1.0, rtol=1e-5)
    total = alpha.sum()
    means = alpha / total
    variances = means * (1 - means) / (total + 1)
    for k in range(3):
        _close_mean(values[:, k], means[k], variances[k])


@op_test("dirichlet", kind="edge")
def test_dirichlet_edges_are_paddles() -> None:
    np.testing.assert_array_equal(_C_ops.dirichlet(_t([[3.0], [2.0]])).numpy(), [[1.0], [1.0]])
    np.testing.assert_array_equal(_C_ops.dirichlet(_t([0.0, 0.0])).numpy(), [0.5, 0.5])
    negative = _C_ops.dirichlet(_t([-1.0, 1.0], "float64")).numpy()
    assert negative[0] < 1e-300 and negative[1] == 1.0
    assert _C_ops.dirichlet(_t(np.ones((2, 3, 4)))).shape == [2, 3, 4]
    assert _C_ops.dirichlet(_t(np.zeros((0, 3)))).shape == [0, 3]
    with pytest.raises(InvalidArgumentError, match="argument 'alpha' must be at least 1-D"):
        _C_ops.dirichlet(_t(2.0))


# ---- exponential_ ------------------------------------------------------------------------------


@op_test("exponential_", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("exponential"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("lam", [0.5, 3.0])
def test_exponential_fills_x_with_exponential_draws(dtype: DataType, lam: float) -> None:
    paddle.seed(14)
    x = paddle.zeros([N], dtype.name.lower())
    out = _C_ops.exponential_(x, lam)
    values = x.numpy().astype(np.float64)
    assert out is x and out.dtype == dtype
    assert values.min() >= 0
    _close_mean(values, 1 / lam, 1 / lam**2)
    _close_variance(values, 1 / lam**2, rel=0.12)


@op_test("exponential_", kind="edge")
def test_exponential_edges_are_paddles() -> None:
    assert np.all(np.isinf(_C_ops.exponential_(paddle.zeros([3]), 0.0).numpy()))
    assert np.all(_C_ops.exponential_(paddle.ones([50]), -1.0).numpy() <= 0)
    assert _C_ops.exponential_(paddle.zeros([]), 1.0).shape == []
    assert _C_ops.exponential_(paddle.zeros([0, 2]), 1.0).shape == [0, 2]
    x = paddle.zeros([4])
    assert x.exponential_() is x and float(x.numpy().min()) > 0
    with pytest.raises(NotFoundError, match="no registration for .*INT64"):
        _C_ops.exponential_(paddle.zeros([2], "int64"), 1.0)


def test_exponential_gradient_is_zero() -> None:
    x = _t([1.0, 2.0], "float64")
    x.stop_gradient = False
    (grad,) = paddle.grad((x * 1).exponential_(2.0).sum(), x)
    np.testing.assert_array_equal(grad.numpy(), [0.0, 0.0])


# ---- gaussian_inplace --------------------------------------------------------------------------


@op_test("gaussian_inplace", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("gaussian_inplace"), ids=lambda d: d.name.lower())
def test_gaussian_inplace_has_mean_and_std(dtype: DataType) -> None:
    paddle.seed(15)
    out = _C_ops.gaussian_inplace(paddle.ones([N], dtype.name.lower()), 1.5, 2.0, 0)
    values = out.numpy()
    assert out.dtype == dtype and out.shape == [N]
    if dtype.is_complex:
        for part in (values.real, values.imag):
            _close_mean(part.astype(np.float64), 1.5, 2.0)
            _close_variance(part.astype(np.float64), 2.0)
    else:
        _close_mean(values.astype(np.float64), 1.5, 4.0)
        _close_variance(values.astype(np.float64), 4.0)


@op_test("gaussian_inplace", kind="edge")
def test_gaussian_inplace_edges() -> None:
    first = _C_ops.gaussian_inplace(paddle.zeros([5]), 0.0, 1.0, 7).numpy()
    np.testing.assert_array_equal(
        _C_ops.gaussian_inplace(paddle.zeros([5]), 0.0, 1.0, 7).numpy(), first
    )
    np.testing.assert_array_equal(
        _C_ops.gaussian_inplace(paddle.zeros([4]), 3.0, 0.0, 0).numpy(), [3.0] * 4
    )
    x = paddle.zeros([3])
    assert _C_ops.gaussian_inplace_(x, 0.0, 1.0, 0) is x and np.any(x.numpy() != 0)
    assert _C_ops.gaussian_inplace(paddle.zeros([]), 0.0, 1.0, 0).shape == []
    assert _C_ops.gaussian_inplace(paddle.zeros([0, 3]), 0.0, 1.0, 0).shape == [0, 3]
    with pytest.raises(NotFoundError, match="no registration for .*FLOAT16"):
        _C_ops.gaussian_inplace(paddle.zeros([2], "float16"), 0.0, 1.0, 0)


def test_gaussian_inplace_gradient_is_zero() -> None:
    x = _t([1.0, 2.0], "float64")
    x.stop_gradient = False
    (grad,) = paddle.grad(_C_ops.gaussian_inplace_(x * 1, 0.0, 1.0, 0).sum(), x)
    np.testing.assert_array_equal(grad.numpy(), [0.0, 0.0])


# ---- uniform_inplace ---------------------------------------------------------------------------


@op_test("uniform_inplace", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("uniform_inplace"), ids=lambda d: d.name.lower())
def test_uniform_inplace_is_uniform_in_min_max(dtype: DataType) -> None:
    paddle.seed(16)
    out = _C_ops.uniform_inplace(paddle.zeros([N], dtype.name.lower()), -2.0, 3.0, 0, 0, 0, 1.0)
    values = out.numpy().astype(np.float64)
    assert out.dtype == dtype
    assert values.min() >= -2.0 and values.max() < 3.0
    _close_mean(values, 0.5, 25 / 12)
    _close_variance(values, 25 / 12)


@op_test("uniform_inplace", kind="edge")
def test_uniform_inplace_edges() -> None:
    first = _C_ops.uniform_inplace(paddle.zeros([5]), 0.0, 1.0, 9, 0, 0, 1.0).numpy()
    again = _C_ops.uniform_inplace(paddle.zeros([5]), 0.0, 1.0, 9, 0, 0, 1.0).numpy()
    np.testing.assert_array_equal(first, again)
    diag = _C_ops.uniform_inplace(paddle.zeros([3, 4]), 5.0, 6.0, 0, 2, 5, 9.0).numpy()
    assert diag.min() >= 5.0 and diag.max() < 6.0  # the CPU kernel does not read diag_*
    x = paddle.zeros([3])
    assert _C_ops.uniform_inplace_(x, 1.0, 2.0, 0, 0, 0, 1.0) is x and x.numpy().min() >= 1.0
    assert _C_ops.uniform_inplace(paddle.zeros([]), 0.0, 1.0, 0, 0, 0, 1.0).shape == []
    assert _C_ops.uniform_inplace(paddle.zeros([0]), 0.0, 1.0, 0, 0, 0, 1.0).shape == [0]
    with pytest.raises(InvalidArgumentError, match="'min' must be less than argument 'max'"):
        _C_ops.uniform_inplace(paddle.zeros([3]), 5.0, 1.0, 0, 0, 0, 1.0)
    with pytest.raises(InvalidArgumentError, match="'diag_num' and 'diag_step' must be >= 0"):
        _C_ops.uniform_inplace(paddle.zeros([3]), 0.0, 1.0, 0, -1, 0, 1.0)


def test_uniform_inplace_gradient_is_zero() -> None:
    x = _t([1.0, 2.0], "float64")
    x.stop_gradient = False
    (grad,) = paddle.grad(_C_ops.uniform_inplace_(x * 1, 0.0, 1.0, 0, 0, 0, 1.0).sum(), x)
    np.testing.assert_array_equal(grad.numpy(), [0.0, 0.0])


# ---- multinomial -------------------------------------------------------------------------------


@op_test("multinomial", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("multinomial"), ids=lambda d: d.name.lower())
def test_multinomial_frequencies_follow_the_weights(dtype: DataType) -> None:
    paddle.seed(17)
    weights = np.array([2.0, 0.0, 6.0, 2.0])
    out = paddle.multinomial(_t(weights, dtype.name.lower()), N, True)
    values = out.numpy()
    assert out.dtype == paddle.int64 and out.shape == [N]
    p = weights / weights.sum()
    counts = np.bincount(values, minlength=4) / N
    assert counts[1] == 0
    np.testing.assert_allclose(counts, p, atol=6 * math.sqrt(0.25 / N))


def test_multinomial_without_replacement_draws_distinct_indices_by_weight() -> None:
    paddle.seed(18)
    rows = 4000
    weights = np.tile([1.0, 0.0, 3.0, 1.0], (rows, 1))
    out = _C_ops.multinomial(_t(weights, "float64"), 2, False).numpy()
    assert out.shape == (rows, 2)
    assert np.all(out[:, 0] != out[:, 1]) and not np.any(out == 1)
    # the first draw follows the weights: P(2) = 3/5
    first = np.bincount(out[:, 0], minlength=4) / rows
    np.testing.assert_allclose(first, [0.2, 0.0, 0.6, 0.2], atol=6 * math.sqrt(0.25 / rows))
    everything = _C_ops.multinomial(_t([[1.0, 2.0, 3.0]]), 3, False).numpy()
    np.testing.assert_array_equal(np.sort(everything, axis=-1), [[0, 1, 2]])


@op_test("multinomial", kind="edge")
def test_multinomial_edges_are_paddles() -> None:
    np.testing.assert_array_equal(
        _C_ops.multinomial(_t([0.0, math.inf]), 3, True).numpy(), [1, 1, 1]
    )
    assert _C_ops.multinomial(_t([[0.5, 0.5]] * 3), 2, True).shape == [3, 2]
    assert _C_ops.multinomial(_t(np.ones((0, 3))), 2, True).shape == [0, 2]
    out = paddle.zeros([4], "int64")
    assert paddle.multinomial(_t([0.0, 1.0]), 4, True, out=out) is out
    np.testing.assert_array_equal(out.numpy(), [1, 1, 1, 1])


@pytest.mark.parametrize(
    "x, samples, replacement, message",
    [
        ([0.2, 0.0, 0.8], 3, False, "must be at most the number of nonzero categories \\(2\\)"),
        ([0.2, -1.0, 0.8], 1, False, "must hold weights >= 0, got -1.0"),
        ([0.5, math.nan], 1, True, "must hold weights >= 0, got nan"),
        ([0.0, 0.0], 1, False, "must have a positive sum in every distribution"),
        (np.ones((2, 2, 2)), 1, False, "must be a 1-D or 2-D tensor"),
        (1.0, 1, False, "must be a 1-D or 2-D tensor"),
        ([1.0, 1.0], 0, False, "argument 'num_samples' must be > 0, got 0"),
    ],
)
def test_multinomial_refuses_bad_input(
    x: object, samples: int, replacement: bool, message: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        _C_ops.multinomial(_t(x), samples, replacement)


# ---- truncated_gaussian_random -----------------------------------------------------------------


def _truncated_moments(mean: float, std: float, a: float, b: float) -> tuple[float, float]:
    """Mean and variance of N(mean, std) truncated to [a, b] (the closed forms, by math.erf)."""
    alpha, beta = (a - mean) / std, (b - mean) / std

    def pdf(z: float) -> float:
        return math.exp(-z * z / 2) / math.sqrt(2 * math.pi)

    def cdf(z: float) -> float:
        return (1 + math.erf(z / math.sqrt(2))) / 2

    mass = cdf(beta) - cdf(alpha)
    shift = (pdf(alpha) - pdf(beta)) / mass
    variance = std**2 * (1 + (alpha * pdf(alpha) - beta * pdf(beta)) / mass - shift**2)
    return mean + std * shift, variance


@op_test("truncated_gaussian_random", kind="dtypes")
@pytest.mark.parametrize(
    "dtype", cpu_dtypes("truncated_gaussian_random"), ids=lambda d: d.name.lower()
)
@pytest.mark.parametrize("bounds", [(-1.0, 3.0), (2.0, 4.0)])
def test_truncated_gaussian_random_is_the_truncated_normal(
    dtype: DataType, bounds: tuple[float, float]
) -> None:
    paddle.seed(19)
    a, b = bounds
    out = _C_ops.truncated_gaussian_random([N], 1.0, 2.0, 0, a, b, dtype, paddle.CPUPlace())
    values = out.astype("float32").numpy().astype(np.float64)
    assert out.dtype == dtype and out.shape == [N]
    assert values.min() >= a and values.max() <= b
    mean, variance = _truncated_moments(1.0, 2.0, a, b)
    _close_mean(values, mean, variance * (1.5 if dtype == DataType.BFLOAT16 else 1.0))
    _close_variance(values, variance)


@op_test("truncated_gaussian_random", kind="edge")
def test_truncated_gaussian_random_edges_are_paddles() -> None:
    place = paddle.CPUPlace()
    tg = _C_ops.truncated_gaussian_random
    np.testing.assert_array_equal(
        tg([2, 3], 0.5, 0.0, 0, -2.0, 2.0, paddle.float32, place).numpy(), np.full((2, 3), 0.5)
    )
    np.testing.assert_array_equal(
        tg([4], 0.0, 1.0, 0, 2.0, -2.0, paddle.float64, place).numpy(), [2.0] * 4
    )
    first = tg([5], 0.0, 1.0, 11, -2.0, 2.0, paddle.float64, place).numpy()
    np.testing.assert_array_equal(
        tg([5], 0.0, 1.0, 11, -2.0, 2.0, paddle.float64, place).numpy(), first
    )
    assert tg([], 0.0, 1.0, 0, -2.0, 2.0, paddle.float32, place).shape == []
    assert tg([0, 3], 0.0, 1.0, 0, -2.0, 2.0, paddle.float32, place).shape == [0, 3]
    with pytest.raises(InvalidArgumentError, match="argument 'shape' must hold extents >= 0"):
        tg([2, -1], 0.0, 1.0, 0, -2.0, 2.0, paddle.float32, place)


# ---- uniform_random_batch_size_like ------------------------------------------------------------


@op_test("uniform_random_batch_size_like", kind="dtypes")
@pytest.mark.parametrize(
    "dtype", cpu_dtypes("uniform_random_batch_size_like"), ids=lambda d: d.name.lower()
)
def test_uniform_random_batch_size_like_takes_the_batch_size(dtype: DataType) -> None:
    paddle.seed(20)
    like = _C_ops.uniform_random_batch_size_like
    out = like(paddle.zeros([N, 2]), [-1, 1], 0, 0, -2.0, 3.0, 0, 0, 0, 1.0, dtype)
    values = out.astype("float32").numpy().astype(np.float64)
    assert out.dtype == dtype and out.shape == [N, 1]
    assert values.min() >= -2.0 and values.max() <= 3.0
    _close_mean(values, 0.5, 25 / 12)
    _close_variance(values, 25 / 12)


@op_test("uniform_random_batch_size_like", kind="edge")
def test_uniform_random_batch_size_like_edges_are_paddles() -> None:
    like = _C_ops.uniform_random_batch_size_like
    batch = paddle.zeros([4, 5])
    diag = like(batch, [3, -1], 1, 1, 2.0, 2.0, 0, 2, 5, 9.0, paddle.float32).numpy()
    expected = np.full(15, 2.0)
    expected[[0, 6]] = 9.0
    np.testing.assert_array_equal(diag, expected.reshape(3, 5))
    assert like(batch, [-1, 7], 0, 0, -1.0, 1.0, 0, 0, 0, 1.0, paddle.float64).shape == [4, 7]
    swapped = like(batch, [-1], 0, 0, 3.0, 2.0, 0, 0, 0, 1.0, paddle.float32).numpy()
    assert swapped.min() >= 2.0 and swapped.max() <= 3.0
    assert like(
        paddle.zeros([0, 2]), [-1, 3], 0, 0, -1.0, 1.0, 0, 0, 0, 1.0, paddle.float32
    ).shape == [0, 3]
    with pytest.raises(InvalidArgumentError, match="'input_dim_idx' must be in \\[0, 2\\)"):
        like(batch, [-1, 4], 5, 0, 2.0, 3.0, 0, 0, 0, 9.0, paddle.float32)
    with pytest.raises(InvalidArgumentError, match="'output_dim_idx' must be in \\[0, 2\\)"):
        like(batch, [-1, 4], 0, 3, 2.0, 3.0, 0, 0, 0, 9.0, paddle.float32)
    with pytest.raises(InvalidArgumentError, match="the diagonal element 20"):
        like(batch, [-1, 2], 0, 0, 2.0, 3.0, 0, 5, 4, 9.0, paddle.float32)


# ---- gumbel_softmax ----------------------------------------------------------------------------


@op_test("gumbel_softmax", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("gumbel_softmax"), ids=lambda d: d.name.lower())
def test_gumbel_softmax_samples_the_logits_categories(dtype: DataType) -> None:
    paddle.seed(21)
    logits = np.log(np.array([0.1, 0.2, 0.7]))
    rows = N // 4
    x = _t(np.tile(logits, (rows, 1)), dtype.name.lower())
    soft = _C_ops.gumbel_softmax(x, 0.5, False, -1).numpy()
    assert soft.dtype == dtype.numpy_dtype
    np.testing.assert_allclose(soft.sum(axis=-1), 1.0, rtol=1e-5)
    hard = _C_ops.gumbel_softmax(x, 1.0, True, -1).numpy()
    assert set(np.unique(hard)) <= {0.0, 1.0} and np.all(hard.sum(axis=-1) == 1)
    # the Gumbel-max trick: the hard sample's category has the softmax probabilities of x
    np.testing.assert_allclose(hard.mean(axis=0), [0.1, 0.2, 0.7], atol=6 * math.sqrt(0.25 / rows))


@op_test("gumbel_softmax", kind="edge")
def test_gumbel_softmax_edges_are_paddles() -> None:
    sure = _C_ops.gumbel_softmax(_t([[0.0, 200.0, 0.0], [300.0, 0.0, 250.0]]), 0.5, True, 0)
    np.testing.assert_array_equal(sure.numpy(), [[0.0, 1.0, 0.0], [1.0, 0.0, 1.0]])
    assert float(_C_ops.gumbel_softmax(_t(3.0), 1.0, False, -1).numpy()) == 1.0
    assert _C_ops.gumbel_softmax(_t(np.zeros((0, 3))), 1.0, True, -1).shape == [0, 3]
    with pytest.raises(InvalidArgumentError, match="argument 'temperature' must be > 0, got 0.0"):
        _C_ops.gumbel_softmax(_t([1.0, 2.0]), 0.0, False, -1)
    with pytest.raises(InvalidArgumentError, match="argument 'axis' must be in \\[-2, 2\\)"):
        _C_ops.gumbel_softmax(_t([[1.0, 2.0]]), 1.0, False, 2)


def test_gumbel_softmax_hard_gradient_is_zero() -> None:
    x = _t([[1.0, 2.0, 3.0], [0.0, 0.0, 5.0]], "float64")
    x.stop_gradient = False
    out = _C_ops.gumbel_softmax(x, 1.0, True, -1)
    (grad,) = paddle.grad((out * _t([[1.0, 2, 3], [4, 5, 6]], "float64")).sum(), x)
    np.testing.assert_array_equal(grad.numpy(), np.zeros((2, 3)))


# ---- shuffle_batch -----------------------------------------------------------------------------


def _seed(value: int) -> paddle.Tensor:
    return paddle.to_tensor(np.array([value], np.int64))


@op_test("shuffle_batch", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("shuffle_batch"), ids=lambda d: d.name.lower())
def test_shuffle_batch_moves_every_row(dtype: DataType) -> None:
    paddle.seed(22)
    x = np.arange(24).reshape(2, 4, 3).astype(dtype.numpy_dtype)
    out, idx, seed_out = _C_ops.shuffle_batch(_t(x, dtype.name.lower()), _seed(5), 0)
    rows, order = x.reshape(8, 3), idx.numpy()
    assert out.dtype == dtype and idx.dtype == paddle.int64 and out.shape == [2, 4, 3]
    assert sorted(order) == list(range(8)) and np.all(order != np.arange(8))
    expected = np.empty_like(rows)
    expected[order] = rows
    np.testing.assert_array_equal(out.numpy().reshape(8, 3), expected)
    assert seed_out.numpy().tolist() == [84035]  # minstd_rand0's first number from 5


@op_test("shuffle_batch", kind="edge")
def test_shuffle_batch_edges_are_paddles() -> None:
    out, idx, seed_out = _C_ops.shuffle_batch(_t([1.0, 2.0, 3.0]), _seed(0), 7)
    np.testing.assert_array_equal(out.numpy(), [1.0, 2.0, 3.0])
    assert idx.numpy().tolist() == [0] and seed_out.numpy().tolist() == [16807]
    assert _C_ops.shuffle_batch(_t(np.zeros((0, 3))), _seed(1), 0)[1].shape == [0]
    assert _C_ops.shuffle_batch(_t(np.ones((2, 3))), _seed(123456789012), 0)[
        2
    ].numpy().tolist() == [898487638]
    with pytest.raises(InvalidArgumentError, match="argument 'x' must be at least 1-D"):
        _C_ops.shuffle_batch(_t(1.0), _seed(1), 0)
    with pytest.raises(InvalidArgumentError, match="argument 'seed' must be an int64 tensor"):
        _C_ops.shuffle_batch(_t([1.0, 2.0]), _t([1], "int32"), 0)


def test_shuffle_batch_gradient_moves_the_rows_back() -> None:
    x = _t(np.arange(12.0).reshape(4, 3), "float64")
    x.stop_gradient = False
    out, idx, _ = _C_ops.shuffle_batch(x, _seed(3), 0)
    weights = np.arange(12.0).reshape(4, 3) * 0.5
    (grad,) = paddle.grad((out * _t(weights, "float64")).sum(), x)
    np.testing.assert_array_equal(grad.numpy(), weights[idx.numpy()])


# ---- random_routing ----------------------------------------------------------------------------


@op_test("random_routing", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("random_routing"), ids=lambda d: d.name.lower())
def test_random_routing_drops_weak_second_choices(dtype: DataType) -> None:
    name = dtype.name.lower()
    prob = np.array([0.3, 0.5, 0.09, 0.1])
    value = np.array([[0.6, 0.1], [0.9, 0.3], [0.7, 0.05], [0.8, 0.05]])
    index = np.array([[1, 2], [3, 4], [5, 6], [7, 0]], np.int64)
    out = _C_ops.random_routing(_t(prob, name), _t(value, name), paddle.to_tensor(index))
    expected = index.copy()
    expected[2 * value[:, 1] < prob, 1] = -1
    assert out.dtype == paddle.int64
    np.testing.assert_array_equal(out.numpy(), expected)


@op_test("random_routing", kind="edge")
def test_random_routing_edges() -> None:
    index = paddle.to_tensor(np.array([[1, 2], [3, 4]], np.int64))
    same = _C_ops.random_routing_(_t([0.9, 0.0]), _t([[0.5, 0.1], [0.5, 0.0]]), index)
    assert same is index and index.numpy().tolist() == [[1, -1], [3, 4]]
    one = _C_ops.random_routing(_t([0.9]), _t([[0.1]]), paddle.to_tensor(np.array([[4]], np.int64)))
    assert one.numpy().tolist() == [[4]]
    empty = _C_ops.random_routing(
        _t(np.zeros(0)), _t(np.zeros((0, 2))), paddle.zeros([0, 2], "int64")
    )
    assert empty.shape == [0, 2]
    with pytest.raises(
        InvalidArgumentError, match="must have one shape \\[N, k\\] and 'prob' \\[N\\]"
    ):
        _C_ops.random_routing(_t([0.1]), _t([[0.5, 0.1], [0.5, 0.0]]), index)
    with pytest.raises(InvalidArgumentError, match="argument 'topk_idx' must be int64"):
        _C_ops.random_routing(
            _t([0.1, 0.2]), _t([[0.5, 0.1], [0.5, 0.0]]), paddle.zeros([2, 2], "int32")
        )
