"""Random ops: statistics of their draws for every registered dtype, the reproducibility
contract (``phi.seed(n)`` replays every random op; a nonzero ``seed`` attribute overrides the
process generator), dropout's modes and mask, and bad input."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from tests.ops.op_testing import cpu_dtypes, op_test

D = DataType
N = 100_000


def _draw_everything() -> list[np.ndarray]:
    x = phi.to_tensor(np.full((50,), 0.5))
    return [
        phi.uniform([20], phi.float32, -2.0, 3.0, 0).numpy(),
        phi.gaussian([20], 1.0, 2.0, 0, phi.float64).numpy(),
        phi.bernoulli(x).numpy(),
        phi.randint(-5, 5, [20]).numpy(),
        phi.randperm(20, phi.int64).numpy(),
        phi.dropout(phi.ones([50]), None, 0.5, False, "upscale_in_train", 0, False).numpy(),
    ]


def test_seed_replays_every_random_op() -> None:
    phi.seed(1234)
    first = _draw_everything()
    phi.seed(1234)
    second = _draw_everything()
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    phi.seed(4321)
    third = _draw_everything()
    assert not all(np.array_equal(a, b) for a, b in zip(first, third))


def test_successive_draws_differ() -> None:
    phi.seed(7)
    a = phi.uniform([100], phi.float64, 0.0, 1.0, 0).numpy()
    b = phi.uniform([100], phi.float64, 0.0, 1.0, 0).numpy()
    assert not np.array_equal(a, b)


def test_seed_attribute_overrides_the_process_generator() -> None:
    phi.seed(1)
    a = phi.uniform([50], phi.float32, 0.0, 1.0, 99).numpy()
    phi.seed(2)
    b = phi.uniform([50], phi.float32, 0.0, 1.0, 99).numpy()
    c = phi.gaussian([50], 0.0, 1.0, 99, phi.float32).numpy()
    d = phi.gaussian([50], 0.0, 1.0, 99, phi.float32).numpy()
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(c, d)
    x = phi.ones([100])
    first = phi.dropout(x, None, 0.5, False, "upscale_in_train", 5, True).numpy()
    again = phi.dropout(x, None, 0.5, False, "upscale_in_train", 5, True).numpy()
    from_tensor = phi.dropout(
        x, phi.to_tensor(np.array([5], np.int32)), 0.5, False, "upscale_in_train", 0, False
    ).numpy()
    np.testing.assert_array_equal(first, again)
    np.testing.assert_array_equal(first, from_tensor)


def test_seed_rejects_negative_values() -> None:
    with pytest.raises(InvalidArgumentError, match="must be >= 0"):
        phi.seed(-1)


@op_test("uniform", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("uniform"), ids=lambda d: d.name)
def test_uniform_statistics(dtype: DataType) -> None:
    phi.seed(10)
    out = phi.uniform([N], dtype, -2.0, 3.0, 0)
    assert out.dtype is dtype and out.shape == [N]
    # a complex draw: real and imaginary parts each uniform, independent (as PaddlePaddle's)
    for values in _parts(out.numpy()):
        assert values.min() >= -2.0 and values.max() <= 3.0
        assert abs(values.mean() - 0.5) < 0.02
        assert abs(values.var() - 25 / 12) < 0.03
        counts, _ = np.histogram(values, bins=10, range=(-2, 3))
        assert np.all(np.abs(counts / N - 0.1) < 0.005)
    if dtype.is_complex:
        assert abs(np.corrcoef(out.numpy().real, out.numpy().imag)[0, 1]) < 0.03


def _parts(array: np.ndarray) -> list[np.ndarray]:
    """A real draw as float64; a complex one's real and imaginary parts."""
    if np.iscomplexobj(array):
        return [array.real.astype(np.float64), array.imag.astype(np.float64)]
    return [array.astype(np.float64)]


@op_test("uniform", kind="edge")
def test_uniform_edges() -> None:
    assert phi.uniform([], phi.float32, 0.0, 1.0, 0).shape == []
    assert phi.uniform([0, 3], phi.float32, 0.0, 1.0, 0).shape == [0, 3]
    assert np.all(phi.uniform([10], phi.float64, 2.0, 2.0, 0).numpy() == 2.0)
    with pytest.raises(InvalidArgumentError, match="shape"):
        phi.uniform([-1], phi.float32, 0.0, 1.0, 0)


@op_test("gaussian", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("gaussian"), ids=lambda d: d.name)
def test_gaussian_statistics(dtype: DataType) -> None:
    phi.seed(11)
    out = phi.gaussian([N], 1.5, 2.0, 0, dtype)
    assert out.dtype is dtype
    # a complex draw: each part normal with the mean and std / sqrt(2), as PaddlePaddle's, so
    # the complex values' standard deviation is std
    std = 2.0 / np.sqrt(2.0) if dtype.is_complex else 2.0
    for values in _parts(out.numpy()):
        assert abs(values.mean() - 1.5) < 0.03
        assert abs(values.std() - std) < 0.03
        within_one_sigma = np.mean(np.abs(values - 1.5) < std)
        assert abs(within_one_sigma - 0.6827) < 0.01
    assert abs(np.std(out.numpy().astype(np.complex128)) - 2.0) < 0.03


@op_test("gaussian", kind="edge")
def test_gaussian_edges() -> None:
    assert phi.gaussian([], 0.0, 1.0, 0, phi.float32).shape == []
    assert phi.gaussian([2, 0], 0.0, 1.0, 0, phi.float32).shape == [2, 0]
    np.testing.assert_array_equal(phi.gaussian([4], 3.0, 0.0, 0, phi.float64).numpy(), [3.0] * 4)


@op_test("bernoulli", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("bernoulli"), ids=lambda d: d.name)
def test_bernoulli_statistics(dtype: DataType) -> None:
    phi.seed(12)
    p = np.tile(np.array([0.0, 0.2, 0.7, 1.0], dtype.numpy_dtype), N // 4)
    out = phi.bernoulli(phi.to_tensor(p))
    values = out.numpy()
    assert out.dtype is dtype
    assert set(np.unique(values)) <= {0.0, 1.0}
    means = values.reshape(-1, 4).mean(axis=0)
    np.testing.assert_allclose(means, [0.0, 0.2, 0.7, 1.0], atol=0.01)


@op_test("bernoulli", kind="edge")
def test_bernoulli_edges() -> None:
    assert phi.bernoulli(phi.to_tensor(np.array(1.0))).numpy() == 1.0
    assert phi.bernoulli(phi.to_tensor(np.ones((0, 2)))).shape == [0, 2]


@op_test("randint", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("randint"), ids=lambda d: d.name)
def test_randint_statistics(dtype: DataType) -> None:
    phi.seed(13)
    out = phi.randint(-3, 4, [N], dtype)
    values = out.numpy()
    assert out.dtype is dtype
    counts = np.bincount(values + 3, minlength=7)
    assert len(counts) == 7
    assert np.all(np.abs(counts / N - 1 / 7) < 0.005)


@op_test("randint", kind="edge")
def test_randint_edges() -> None:
    assert phi.randint(0, 1, []).numpy() == 0
    assert phi.randint(0, 5, [0]).shape == [0]
    with pytest.raises(InvalidArgumentError, match="'low' must be less than argument 'high'"):
        phi.randint(5, 5, [2])


@op_test("randperm", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("randperm"), ids=lambda d: d.name)
def test_randperm_is_a_uniform_permutation(dtype: DataType) -> None:
    phi.seed(14)
    out = phi.randperm(50, dtype)
    assert out.dtype is dtype
    np.testing.assert_array_equal(np.sort(out.numpy()), np.arange(50))
    firsts = np.array([phi.randperm(4, dtype).numpy()[0] for _ in range(2000)])
    assert np.all(np.abs(np.bincount(firsts.astype(int), minlength=4) / 2000 - 0.25) < 0.04)


@op_test("randperm", kind="edge")
def test_randperm_edges() -> None:
    assert phi.randperm(0, phi.int64).shape == [0]
    np.testing.assert_array_equal(phi.randperm(1, phi.int32).numpy(), [0])
    with pytest.raises(InvalidArgumentError, match="'n' must be >= 0"):
        phi.randperm(-1, phi.int64)


@op_test("dropout", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("dropout"), ids=lambda d: d.name)
def test_dropout_training_keeps_one_minus_p_and_upscales(dtype: DataType) -> None:
    phi.seed(15)
    x = np.full((N,), 2.0, dtype.numpy_dtype)
    out = phi.dropout(phi.to_tensor(x), None, 0.3, False, "upscale_in_train", 0, False)
    values = out.numpy().astype(np.float64)
    assert out.dtype is dtype
    kept = values != 0
    assert abs(kept.mean() - 0.7) < 0.005
    np.testing.assert_allclose(values[kept], 2.0 / 0.7, rtol=1e-3)
    down = phi.dropout(phi.to_tensor(x), None, 0.3, False, "downscale_in_infer", 0, False)
    assert set(np.unique(down.numpy().astype(np.float64))) == {0.0, 2.0}


@op_test("dropout", kind="edge")
def test_dropout_inference_modes_and_extremes() -> None:
    x = phi.to_tensor(np.arange(6.0).reshape(2, 3))
    up = phi.dropout(x, None, 0.4, True, "upscale_in_train", 0, False)
    np.testing.assert_array_equal(up.numpy(), x.numpy())
    down = phi.dropout(x, None, 0.4, True, "downscale_in_infer", 0, False)
    np.testing.assert_allclose(down.numpy(), x.numpy() * 0.6)
    np.testing.assert_array_equal(
        phi.dropout(x, None, 1.0, False, "upscale_in_train", 0, False).numpy(), np.zeros((2, 3))
    )
    np.testing.assert_array_equal(
        phi.dropout(x, None, 0.0, False, "upscale_in_train", 0, False).numpy(), x.numpy()
    )
    assert phi.dropout(phi.ones([]), None, 0.5, False, "upscale_in_train", 0, False).shape == []
    for p in (-0.1, 1.5):
        with pytest.raises(InvalidArgumentError, match=r"argument 'p' must be in \[0, 1\]"):
            phi.dropout(x, None, p, False, "upscale_in_train", 0, False)
    with pytest.raises(InvalidArgumentError, match="argument 'mode'"):
        phi.dropout(x, None, 0.5, False, "upscale", 0, False)


def test_dropout_grad_uses_the_forward_mask() -> None:
    x = phi.to_tensor(np.ones((1000,)), stop_gradient=False)
    for mode, scale in (("upscale_in_train", 1 / 0.75), ("downscale_in_infer", 1.0)):
        out = phi.dropout(x, None, 0.25, False, mode, 0, False)
        (grad,) = phi.grad(phi.sum(out), [x])
        kept = out.numpy() != 0
        np.testing.assert_allclose(grad.numpy(), kept * scale)
    out = phi.dropout(x, None, 0.25, True, "downscale_in_infer", 0, False)
    (grad,) = phi.grad(phi.sum(out), [x])
    np.testing.assert_allclose(grad.numpy(), np.full(1000, 0.75))


@pytest.mark.parametrize("mode", ["downgrade_in_infer", "downscale_in_infer"])
def test_dropout_takes_the_ops_downgrade_in_infer_mode(mode: str) -> None:
    # PaddlePaddle 3.3.1: _C_ops.dropout(ones([2, 4]), None, 0.25, True, mode, 0, False) is 0.75
    # everywhere for both spellings ('downgrade_in_infer' is what F.dropout passes and what
    # legacy programs hold).
    x = phi.to_tensor(np.ones((2, 4), "float32"))
    out = phi.dropout(x, None, 0.25, True, mode, 0, False)  # the mask is intermediate
    np.testing.assert_allclose(out.numpy(), np.full((2, 4), 0.75, np.float32))


def test_dropout_refuses_an_unknown_mode() -> None:
    with pytest.raises(phi.InvalidArgumentError, match="argument 'mode'"):
        phi.dropout(phi.to_tensor(np.ones((2, 4), "float32")), None, 0.25, True, "down", 0, False)
