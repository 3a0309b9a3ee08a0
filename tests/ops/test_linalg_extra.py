"""paddle.linalg.svdvals, lu_solve, svd_lowrank and pca_lowrank (phiops/linalg.py's
compositions) give PaddlePaddle
3.3.1's values and gradients (tests/data/linalg_extra, recorded by
tests/tools/make_linalg_extra_fixtures.py), and name bad arguments."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError
from tests.tools.linalg_extra_cases import A, B, run

DATA = np.load(Path(__file__).resolve().parents[1] / "data" / "linalg_extra" / "paddle_3_3_1.npz")
KEYS = sorted(k for k in DATA.files if k != "paddle_version")


@pytest.fixture(scope="module")
def results() -> dict[str, np.ndarray]:
    return run(paddle)


def test_every_recorded_result_is_computed(results) -> None:
    assert str(DATA["paddle_version"]) == "3.3.1"
    assert sorted(results) == KEYS and len(KEYS) == 28


# PaddlePaddle 3.3.1's lu_solve_grad with trans='T' gives a wrong gradient for lu (off by up to
# 9 here against central differences); phiops's is checked against central differences instead
PADDLE_WRONG = {"lu_solve_T/grad_lu"}


@pytest.mark.parametrize("key", [k for k in KEYS if k not in PADDLE_WRONG])
def test_paddles_values_and_gradients(results, key: str) -> None:
    got, expected = results[key], DATA[key]
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-10)


def test_lu_solve_transposed_gradient_is_central_differences(results) -> None:
    lu, pivots = paddle.linalg.lu(paddle.to_tensor(A))
    base = lu.numpy()

    def loss(values: np.ndarray) -> float:
        x = paddle.linalg.lu_solve(paddle.to_tensor(B), paddle.to_tensor(values), pivots, "T")
        x = x.numpy()
        return float((x * np.linspace(0.5, 1.5, x.size).reshape(x.shape)).sum())

    numeric = np.zeros_like(base)
    for index in np.ndindex(base.shape):
        up, down = base.copy(), base.copy()
        up[index] += 1e-6
        down[index] -= 1e-6
        numeric[index] = (loss(up) - loss(down)) / 2e-6
    np.testing.assert_allclose(results["lu_solve_T/grad_lu"], numeric, rtol=1e-6, atol=1e-7)
    assert np.abs(DATA["lu_solve_T/grad_lu"] - numeric).max() > 1.0  # PaddlePaddle's is wrong


def test_bad_arguments() -> None:
    a = paddle.to_tensor(A)
    lu, pivots = paddle.linalg.lu(a)
    with pytest.raises(InvalidArgumentError, match="trans"):
        paddle.linalg.lu_solve(paddle.to_tensor(B), lu, pivots, trans="X")
    with pytest.raises(InvalidArgumentError, match="rows"):
        paddle.linalg.lu_solve(paddle.to_tensor(B[:, :3]), lu, pivots)
    with pytest.raises(InvalidArgumentError, match="'b' must be a Tensor of at least 2"):
        paddle.linalg.lu_solve(paddle.to_tensor([1.0, 2.0]), lu, pivots)
    with pytest.raises(InvalidArgumentError, match="at least 2 dimensions"):
        paddle.linalg.svdvals(paddle.to_tensor([1.0, 2.0]))
    with pytest.raises(InvalidArgumentError, match=r"q \(9\)"):
        paddle.linalg.svd_lowrank(paddle.to_tensor(A), q=9)
    with pytest.raises(InvalidArgumentError, match="niter"):
        paddle.linalg.pca_lowrank(paddle.to_tensor(A), niter=-1)


def test_low_rank_svd_reconstructs_a_low_rank_matrix() -> None:
    rng = np.random.default_rng(3)
    low = rng.standard_normal((8, 3)) @ rng.standard_normal((3, 6))
    u, s, v = paddle.linalg.svd_lowrank(paddle.to_tensor(low), q=3)
    np.testing.assert_allclose((u.numpy() * s.numpy()) @ v.numpy().T, low, atol=1e-10)
