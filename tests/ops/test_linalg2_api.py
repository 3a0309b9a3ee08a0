"""paddle.linalg's functions (phiops/linalg.py) and the linalg2 top-level names and Tensor
methods (phiops/_paddle_api.py) against numpy: PaddlePaddle 3.3.1's Python compositions (norms,
cond, pinv, matrix_rank's tolerances, solve's left=False, qr's mode "r", svd's out=).
tests/parity/test_linalg2_paddle.py compares the same calls with PaddlePaddle itself."""

from __future__ import annotations

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError

RNG = np.random.default_rng(7)


def floats(*shape: int) -> np.ndarray:
    return RNG.uniform(-1, 1, shape)


def t(array: np.ndarray) -> paddle.Tensor:
    return paddle.to_tensor(array)


def test_linalg_is_paddles_namespace() -> None:
    import phiops.linalg

    assert paddle.linalg is phiops.linalg
    assert paddle.linalg.inv is paddle.inverse
    assert paddle.linalg.eigvalsh is paddle.eigvalsh
    assert paddle.norm is paddle.linalg.norm
    assert set(phiops.linalg.__all__) <= set(dir(phiops.linalg))


def test_solve_left_and_right() -> None:
    a, b = floats(3, 3) + 4 * np.eye(3), floats(2, 3)
    np.testing.assert_allclose(
        paddle.linalg.solve(t(a), t(b), left=False).numpy(), b @ np.linalg.inv(a), rtol=1e-12
    )
    out = paddle.zeros([3, 2], "float64")
    result = paddle.linalg.solve(t(a), t(b.T), out=out)
    assert result is out
    np.testing.assert_allclose(out.numpy(), np.linalg.solve(a, b.T), rtol=1e-12)
    np.testing.assert_allclose(t(a).solve(t(b.T)).numpy(), np.linalg.solve(a, b.T), rtol=1e-12)


@pytest.mark.parametrize(
    "p, axis, keepdim, reference",
    [
        (None, None, False, lambda x: np.linalg.norm(x.ravel())),
        ("fro", None, False, lambda x: np.linalg.norm(x.ravel())),
        (3, 1, True, lambda x: (np.abs(x) ** 3).sum(1, keepdims=True) ** (1 / 3)),
        (np.inf, None, False, lambda x: np.abs(x).max()),
        ("nuc", [0, 1], False, lambda x: np.linalg.norm(x, "nuc")),
        (1, [0, 1], False, lambda x: np.linalg.norm(x, 1)),
        (-np.inf, [0, 1], False, lambda x: np.linalg.norm(x, -np.inf)),
        (2, [0, 1], False, lambda x: np.linalg.norm(x, 2)),
        (-2, (1, 0), True, lambda x: np.linalg.norm(x.T, -2).reshape(1, 1)),
    ],
)
def test_norm_vector_and_matrix_forms(p, axis, keepdim, reference) -> None:
    x = floats(3, 4)
    out = paddle.linalg.norm(t(x), p=p, axis=axis, keepdim=keepdim)
    np.testing.assert_allclose(out.numpy(), reference(x), rtol=1e-6)


def test_vector_and_matrix_norm() -> None:
    x = floats(2, 3, 4)
    np.testing.assert_allclose(
        paddle.linalg.vector_norm(t(x), p=1.5, axis=[0, 2]).numpy(),
        (np.abs(x) ** 1.5).sum((0, 2)) ** float(np.float32(1 / 1.5)),
        rtol=1e-12,
    )
    np.testing.assert_allclose(
        paddle.linalg.matrix_norm(t(x), p="fro").numpy(), np.linalg.norm(x, axis=(-2, -1))
    )
    # the root's exponent 1/p reaches the pow op as a float32, as in PaddlePaddle 3.3.1
    assert paddle.linalg.vector_norm(t(x), p=0, axis=[0, 2]).numpy().tolist() == [8, 8, 8]
    with pytest.raises(ValueError, match="just support p value"):
        paddle.linalg.matrix_norm(t(x), p=3)
    with pytest.raises(ValueError, match="only valid p type"):
        paddle.linalg.vector_norm(t(x), p="fro")


def test_cond_pinv_and_matrix_rank() -> None:
    a = floats(3, 3) + 3 * np.eye(3)
    for p in (None, 2, -2, "fro", "nuc", 1, -1, np.inf, -np.inf):
        np.testing.assert_allclose(
            paddle.linalg.cond(t(a), p).numpy(), np.linalg.cond(a, p), rtol=1e-10
        )
    m = floats(4, 3)
    np.testing.assert_allclose(paddle.linalg.pinv(t(m)).numpy(), np.linalg.pinv(m), rtol=1e-10)
    s = (a + a.T) / 2
    np.testing.assert_allclose(
        paddle.linalg.pinv(t(s), hermitian=True).numpy(), np.linalg.pinv(s), rtol=1e-10
    )
    low = floats(2, 3, 1) @ floats(2, 1, 4)
    np.testing.assert_array_equal(paddle.linalg.matrix_rank(t(low)).numpy(), [1, 1])
    np.testing.assert_array_equal(
        paddle.linalg.matrix_rank(t(low), tol=t(np.array([1e-8, 1e3]))).numpy(), [1, 0]
    )
    # atol/rtol (the matrix_rank_atol_rtol op, linalg24): singular values above
    # max(atol, rtol * the largest), numpy's rank with that tolerance
    largest = np.linalg.svd(low, compute_uv=False).max(axis=-1)
    np.testing.assert_array_equal(
        paddle.linalg.matrix_rank(t(low), atol=0.1).numpy(),
        [np.linalg.matrix_rank(low[i], tol=max(0.1, 1e-15 * 4 * largest[i])) for i in range(2)],
    )
    np.testing.assert_array_equal(
        paddle.linalg.matrix_rank(t(low), rtol=2.0).numpy(), [0, 0]
    )


def test_qr_svd_eigvalsh_and_the_top_level_names() -> None:
    x = floats(4, 3)
    r = paddle.linalg.qr(t(x), mode="r")
    np.testing.assert_allclose(r.numpy(), np.linalg.qr(x, mode="r"), rtol=1e-12)
    outs = (
        paddle.zeros([4, 3], "float64"),
        paddle.zeros([3], "float64"),
        paddle.zeros([3, 3], "float64"),
    )
    u, s, vh = paddle.linalg.svd(t(x), out=outs)
    assert u is outs[0] and s is outs[1] and vh is outs[2]
    np.testing.assert_allclose(s.numpy(), np.linalg.svd(x, compute_uv=False), rtol=1e-12)
    h = x.T @ x
    np.testing.assert_allclose(paddle.eigvalsh(t(h)).numpy(), np.linalg.eigvalsh(h), rtol=1e-12)
    np.testing.assert_allclose(
        paddle.dist(t(x), t(x[0]), p=1).numpy(), np.abs(x - x[0]).sum(), rtol=1e-12
    )
    renormed = paddle.renorm(t(x), 2.0, -1, 0.5)
    norms = np.sqrt((x * x).sum(0, keepdims=True))
    np.testing.assert_allclose(renormed.numpy(), np.where(norms > 0.5, x * 0.5 / norms, x))
    with pytest.raises(InvalidArgumentError, match="renorm.*argument 'axis'"):
        paddle.renorm(t(x), 2.0, 2, 0.5)
