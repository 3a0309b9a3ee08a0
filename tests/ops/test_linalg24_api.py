"""paddle.linalg.cov and corrcoef, paddle.cdist, pdist and vander (composites of ops, as
PaddlePaddle 3.3.1's are) against numpy: np.cov/np.corrcoef, whose formulas (weights, ddof with
aweights) are PaddlePaddle's, p-norms of differences, np.vander; PaddlePaddle's own values are
compared live in tests/parity/test_linalg24_paddle.py."""

from __future__ import annotations

import numpy as np
import pytest

import phiops as paddle

RNG = np.random.default_rng(2427)
X = RNG.uniform(-1, 1, (3, 6))
FWEIGHTS = np.array([1, 2, 1, 3, 1, 2])
AWEIGHTS = RNG.uniform(0.1, 1, 6)


@pytest.mark.parametrize(
    "kwargs, reference",
    [
        ({}, {}),
        ({"rowvar": False}, {"rowvar": False}),
        ({"ddof": False}, {"ddof": 0}),
        ({"fweights": FWEIGHTS}, {"fweights": FWEIGHTS}),
        ({"aweights": AWEIGHTS}, {"aweights": AWEIGHTS}),
        (
            {"fweights": FWEIGHTS, "aweights": AWEIGHTS, "ddof": False},
            {"fweights": FWEIGHTS, "aweights": AWEIGHTS, "ddof": 0},
        ),
        (
            {"fweights": FWEIGHTS, "aweights": AWEIGHTS},
            {"fweights": FWEIGHTS, "aweights": AWEIGHTS},
        ),
    ],
    ids=["plain", "columns", "ddof0", "fweights", "aweights", "both-ddof0", "both"],
)
def test_cov_matches_numpy(kwargs: dict, reference: dict) -> None:
    x = X.T if kwargs.get("rowvar") is False else X
    arguments = {
        k: paddle.to_tensor(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()
    }
    got = paddle.linalg.cov(paddle.to_tensor(x), **arguments)
    np.testing.assert_allclose(got.numpy(), np.cov(x, **reference), rtol=1e-12, atol=1e-14)


def test_cov_of_one_variable_is_0_d_and_float32_stays_float32() -> None:
    got = paddle.linalg.cov(paddle.to_tensor(X[0]))
    assert got.shape == []
    np.testing.assert_allclose(got.numpy(), np.cov(X[0]), rtol=1e-12)
    got = paddle.to_tensor(X.astype(np.float32)).cov()
    assert got.dtype == paddle.float32
    np.testing.assert_allclose(got.numpy(), np.cov(X), rtol=1e-5, atol=1e-6)


def test_cov_gradient_flows_to_x() -> None:
    x = paddle.to_tensor(X, stop_gradient=False)
    paddle.linalg.cov(x).sum().backward()
    # d sum(cov) / dx: each variable's deviation summed over variables, times 2 / (n - 1)
    centred = X - X.mean(axis=1, keepdims=True)
    expected = 2 * np.broadcast_to(centred.sum(axis=0), X.shape) / (X.shape[1] - 1)
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-10, atol=1e-12)


def test_cov_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="1<=N<=2"):
        paddle.linalg.cov(paddle.to_tensor(np.ones((2, 2, 2))))
    with pytest.raises(ValueError, match="should equal to x's dim\\[1\\]: 6"):
        paddle.linalg.cov(paddle.to_tensor(X), fweights=paddle.to_tensor(FWEIGHTS[:4]))
    with pytest.raises(ValueError, match="cannot be negative"):
        paddle.linalg.cov(paddle.to_tensor(X), aweights=paddle.to_tensor(-AWEIGHTS))
    with pytest.raises(ValueError, match="must be integer"):
        paddle.linalg.cov(paddle.to_tensor(X), fweights=paddle.to_tensor(AWEIGHTS))
    with pytest.raises(ValueError, match="N<=1"):
        paddle.linalg.cov(paddle.to_tensor(X), fweights=paddle.to_tensor(np.ones((6, 1))))
    with pytest.raises(ValueError, match="sum of weights is zero"):
        paddle.linalg.cov(paddle.to_tensor(X), aweights=paddle.to_tensor(np.zeros(6)))


def test_corrcoef_matches_numpy() -> None:
    np.testing.assert_allclose(
        paddle.linalg.corrcoef(paddle.to_tensor(X)).numpy(), np.corrcoef(X), rtol=1e-12
    )
    np.testing.assert_allclose(
        paddle.to_tensor(X).corrcoef(rowvar=False).numpy(), np.corrcoef(X, rowvar=False), rtol=1e-12
    )
    # one variable: c / c, 1 (nan for a constant variable)
    assert float(paddle.linalg.corrcoef(paddle.to_tensor(X[0])).numpy()) == 1.0
    assert np.isnan(paddle.linalg.corrcoef(paddle.to_tensor(np.ones(4))).numpy())
    # perfectly correlated rows stay within [-1, 1]
    got = paddle.linalg.corrcoef(paddle.to_tensor(np.stack([X[0], 3 * X[0], -X[0]]))).numpy()
    assert got.max() <= 1 and got.min() >= -1
    np.testing.assert_allclose(got, [[1, 1, -1], [1, 1, -1], [-1, -1, 1]], atol=1e-12)
    with pytest.raises(ValueError, match="1<=N<=2"):
        paddle.linalg.corrcoef(paddle.to_tensor(np.float64(1.0)))


def np_cdist(x: np.ndarray, y: np.ndarray, p: float) -> np.ndarray:
    difference = np.abs(x[..., :, None, :] - y[..., None, :, :])
    if p == 0:
        return (difference != 0).sum(-1).astype(x.dtype)
    if p == np.inf:
        return difference.max(-1)
    # PaddlePaddle 3.3.1's p_norm rounds the root's exponent 1/p to float32
    return (difference**p).sum(-1) ** float(np.float32(1) / np.float32(p))


@pytest.mark.parametrize("p", [0.0, 1.0, 2.0, 3.5, np.inf])
def test_cdist_matches_numpy(p: float) -> None:
    x, y = RNG.uniform(-1, 1, (2, 4, 3)), RNG.uniform(-1, 1, (5, 3))
    got = paddle.cdist(paddle.to_tensor(x), paddle.to_tensor(y), p=p)
    assert got.shape == [2, 4, 5]
    np.testing.assert_allclose(got.numpy(), np_cdist(x, y, p), rtol=1e-10, atol=1e-12)


def test_cdist_matrix_product_mode_and_edges() -> None:
    x, y = RNG.uniform(-1, 1, (30, 3)), RNG.uniform(-1, 1, (4, 3))
    for mode in ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist"):
        got = paddle.to_tensor(x).cdist(paddle.to_tensor(y), compute_mode=mode)
        np.testing.assert_allclose(got.numpy(), np_cdist(x, y, 2.0), rtol=1e-8, atol=1e-8)
    # PaddlePaddle 3.3.1: an empty side gives [R1, R2], no columns give zeros
    assert paddle.cdist(paddle.zeros([2, 0, 3]), paddle.zeros([2, 4, 3])).shape == [0, 4]
    assert not paddle.cdist(paddle.zeros([2, 0]), paddle.zeros([3, 0])).numpy().any()
    with pytest.raises(ValueError, match="compute_mode"):
        paddle.cdist(paddle.to_tensor(x), paddle.to_tensor(y), compute_mode="fast")
    with pytest.raises(ValueError, match="same last dimension"):
        paddle.cdist(paddle.to_tensor(x), paddle.to_tensor(y[:, :2]))
    with pytest.raises(ValueError, match="at least 2-dimensional"):
        paddle.cdist(paddle.to_tensor(x[0]), paddle.to_tensor(y))
    with pytest.raises(ValueError, match="'p' must be >= 0"):
        paddle.cdist(paddle.to_tensor(x), paddle.to_tensor(y), p=-1.0)


@pytest.mark.parametrize("p", [1.0, 2.0, np.inf])
def test_pdist_matches_numpy(p: float) -> None:
    x = RNG.uniform(-1, 1, (5, 3))
    rows, columns = np.triu_indices(5, 1)
    expected = np_cdist(x, x, p)[rows, columns]
    np.testing.assert_allclose(paddle.pdist(paddle.to_tensor(x), p).numpy(), expected, rtol=1e-10)
    assert paddle.pdist(paddle.to_tensor(x[:1])).shape == [0]
    with pytest.raises(ValueError, match="2-dimensional"):
        paddle.pdist(paddle.to_tensor(x[0]))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "complex64"])
def test_vander_matches_numpy(dtype: str) -> None:
    x = np.array([2, -1, 3]).astype(dtype)
    np.testing.assert_array_equal(paddle.vander(paddle.to_tensor(x)).numpy(), np.vander(x))
    got = paddle.to_tensor(x).vander(n=5, increasing=True)
    assert got.dtype == paddle.to_tensor(x).dtype
    np.testing.assert_array_equal(got.numpy(), np.vander(x, 5, increasing=True))


def test_vander_edges() -> None:
    x = paddle.to_tensor(np.array([2.0, 3.0]))
    assert paddle.vander(x, 0).shape == [2, 0]
    np.testing.assert_array_equal(paddle.vander(x, 1).numpy(), [[1.0], [1.0]])
    assert paddle.vander(paddle.to_tensor(np.zeros(0))).shape == [0, 0]
    with pytest.raises(ValueError, match="1-D Tensor"):
        paddle.vander(paddle.to_tensor(np.ones((2, 2))))
    with pytest.raises(ValueError, match="non-negative"):
        paddle.vander(x, -1)


def np_householder_product(x: np.ndarray, tau: np.ndarray) -> np.ndarray:
    """The product of I - tau_i w_i w_i^H, one matrix, element by element."""
    m, n = x.shape
    q = np.eye(m, dtype=x.dtype)
    for i, t in enumerate(tau):
        w = np.zeros(m, x.dtype)
        w[i] = 1
        w[i + 1 :] = x[i + 1 :, i]
        q = q @ (np.eye(m) - t * np.outer(w, w.conj()))
    return q[:, :n]


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_householder_product_matches_the_reflections_product(dtype: str) -> None:
    x = RNG.uniform(-1, 1, (2, 5, 3))
    tau = RNG.uniform(0, 2, (2, 2))
    if dtype.startswith("complex"):
        x, tau = x + 1j * RNG.uniform(-1, 1, x.shape), tau + 0.5j
    x, tau = x.astype(dtype), tau.astype(dtype)
    got = paddle.linalg.householder_product(paddle.to_tensor(x), paddle.to_tensor(tau))
    assert got.shape == [2, 5, 3] and got.numpy().dtype == x.dtype
    expected = np.stack([np_householder_product(x[i], tau[i]) for i in range(2)])
    tolerance = 1e-5 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(got.numpy(), expected, rtol=tolerance, atol=tolerance)


def test_householder_product_of_geqrf_factors_is_qr_q() -> None:
    # numpy's "raw" QR is LAPACK geqrf's output, (its transpose) and tau
    a = RNG.uniform(-1, 1, (4, 3))
    h, tau = np.linalg.qr(a, mode="raw")
    q = paddle.to_tensor(h.T).householder_product(paddle.to_tensor(tau)).numpy()
    np.testing.assert_allclose(q, np.linalg.qr(a)[0], rtol=1e-12, atol=1e-12)


def test_householder_product_refuses_bad_input() -> None:
    x, tau = paddle.to_tensor(np.ones((4, 3))), paddle.to_tensor(np.ones(2))
    with pytest.raises(ValueError, match="dtype of argument 'x'"):
        paddle.linalg.householder_product(x, paddle.to_tensor(np.ones(2, np.float32)))
    with pytest.raises(ValueError, match="at least as many rows"):
        paddle.linalg.householder_product(paddle.to_tensor(np.ones((2, 3))), tau)
    with pytest.raises(ValueError, match="at most x's 3 columns"):
        paddle.linalg.householder_product(x, paddle.to_tensor(np.ones(4)))
    with pytest.raises(ValueError, match="one more"):
        paddle.linalg.householder_product(x, paddle.to_tensor(np.ones((1, 2))))
    with pytest.raises(ValueError, match="same batch dims"):
        paddle.linalg.householder_product(
            paddle.to_tensor(np.ones((2, 4, 3))), paddle.to_tensor(np.ones((3, 2)))
        )
    with pytest.raises(TypeError, match="must be float16"):
        paddle.linalg.householder_product(
            paddle.to_tensor(np.ones((4, 3), np.int64)), paddle.to_tensor(np.ones(2, np.int64))
        )


def test_householder_product_gradient_matches_finite_differences() -> None:
    from tests.autograd.gradcheck import check_gradients

    check_gradients(
        lambda x, tau: paddle.linalg.householder_product(x, tau),
        [RNG.uniform(-1, 1, (4, 3)), RNG.uniform(0, 2, (2,))],
    )


def np_expm(a: np.ndarray) -> np.ndarray:
    """exp of one matrix by a 30-term Taylor series after scaling its 1-norm below 1/2."""
    norm = np.abs(a).sum(-2).max()
    squarings = max(0, int(np.ceil(np.log2(norm))) + 1) if norm > 0 else 0
    b = a / 2.0**squarings
    out = term = np.eye(a.shape[-1])
    for k in range(1, 30):
        term = term @ b / k
        out = out + term
    for _ in range(squarings):
        out = out @ out
    return out


@pytest.mark.parametrize("scale", [1e-3, 0.2, 0.9, 2.0, 8.0])
def test_matrix_exp_matches_a_taylor_series_for_each_pade_degree(scale: float) -> None:
    # the 1-norms cross each bound of the float64 (3, 5, 7, 9, 13) and float32 (3, 5, 7) plans
    a = RNG.uniform(-1, 1, (2, 3, 3)) * scale / 3
    expected = np.stack([np_expm(m) for m in a])
    got = paddle.linalg.matrix_exp(paddle.to_tensor(a))
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12, atol=1e-13)
    got32 = paddle.linalg.matrix_exp(paddle.to_tensor(a.astype(np.float32)))
    assert got32.dtype == paddle.float32
    np.testing.assert_allclose(got32.numpy(), expected, rtol=2e-5, atol=1e-6)


def test_matrix_exp_edges() -> None:
    # 0-D and [..., 1, 1] are elementwise exp; a zero matrix gives the identity
    np.testing.assert_allclose(paddle.linalg.matrix_exp(paddle.to_tensor(1.5)).numpy(), np.exp(1.5))
    np.testing.assert_allclose(
        paddle.linalg.matrix_exp(paddle.to_tensor(np.full((2, 1, 1), 0.5))).numpy(),
        np.exp(np.full((2, 1, 1), 0.5)),
    )
    np.testing.assert_array_equal(paddle.linalg.matrix_exp(paddle.zeros([3, 3])).numpy(), np.eye(3))
    # a non-finite norm gives NaN
    assert np.isnan(
        paddle.linalg.matrix_exp(paddle.to_tensor(np.full((2, 2), np.inf))).numpy()
    ).all()
    # a plain array is taken as a tensor
    np.testing.assert_allclose(
        paddle.linalg.matrix_exp(np.diag([1.0, 2.0])).numpy(),
        np.diag(np.exp([1.0, 2.0])),
        rtol=1e-14,
    )
    with pytest.raises(ValueError, match="float32 or float64"):
        paddle.linalg.matrix_exp(paddle.to_tensor(np.eye(2, dtype=np.int64)))
    with pytest.raises(ValueError, match="at least two-dimensional"):
        paddle.linalg.matrix_exp(paddle.to_tensor(np.ones(3)))
    with pytest.raises(ValueError, match="square"):
        paddle.linalg.matrix_exp(paddle.to_tensor(np.ones((2, 3))))


def test_matrix_exp_gradient_matches_finite_differences() -> None:
    from tests.autograd.gradcheck import check_gradients

    check_gradients(paddle.linalg.matrix_exp, [RNG.uniform(-1, 1, (3, 3))])
