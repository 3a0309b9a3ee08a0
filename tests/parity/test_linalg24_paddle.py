"""paddle.linalg.lu, lu_unpack, eig, lstsq, matrix_rank's atol/rtol, cov and corrcoef,
paddle.cdist, pdist and vander (and their Tensor methods) against PaddlePaddle 3.3.1 run live:
the same calls in both libraries, every result and the gradient of every float input compared,
and bad input refused by both. Runs only where PaddlePaddle is installed
(tests/ops/test_linalg24_paddle.py compares recorded op results without it). eig is compared in
float64 on single matrices, where both libraries' geev give the same eigenpairs in the same
order (PaddlePaddle's gradient for a batch is wrong past the first matrix)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops  # noqa: E402

RNG = np.random.default_rng(2411)


def floats(*shape: int) -> np.ndarray:
    return RNG.uniform(-1, 1, shape)


def pivoted(*shape: int) -> np.ndarray:
    """Pivoting decided by wide margins (a dominant diagonal, rows shuffled)."""
    m, n = shape[-2:]
    return (floats(*shape) + 4 * np.eye(m, n))[..., RNG.permutation(m), :]


# (case id, function, inputs, keyword arguments, gradients compared)
CASES: list[tuple[str, str, list[np.ndarray], dict[str, Any], bool]] = [
    ("lu", "lu", [pivoted(3, 3)], {}, True),
    ("lu-infos", "lu", [pivoted(2, 4, 3)], {"get_infos": True}, True),
    ("lu-wide", "lu", [pivoted(3, 5)], {}, True),
    ("eig", "eig", [floats(3, 3)], {}, False),
    ("eig-4x4", "eig", [floats(4, 4)], {}, False),
    ("lstsq", "lstsq", [floats(2, 5, 3), floats(2, 5, 2)], {}, False),
    ("lstsq-gels", "lstsq", [floats(5, 3), floats(5, 2)], {"driver": "gels"}, False),
    ("lstsq-gelsd", "lstsq", [floats(5, 3), floats(5, 2)], {"driver": "gelsd"}, False),
    ("lstsq-gelss-wide", "lstsq", [floats(3, 5), floats(3, 2)], {"driver": "gelss"}, False),
    ("lstsq-rcond", "lstsq", [floats(4, 4), floats(4, 1)], {"rcond": 1e-3}, False),
    ("matrix_rank-atol", "matrix_rank", [floats(2, 4, 1) @ floats(2, 1, 5)], {"atol": 0.1}, False),
    ("matrix_rank-rtol", "matrix_rank", [floats(3, 4, 4)], {"atol": 0.05, "rtol": 0.3}, False),
    (
        "matrix_rank-hermitian",
        "matrix_rank",
        [floats(2, 3, 1) @ floats(2, 1, 3) + floats(2, 1, 3).transpose(0, 2, 1) @ floats(2, 1, 3)],
        {"rtol": 1e-9, "hermitian": True},
        False,
    ),
]


def flat(result: Any) -> list:
    return list(result) if isinstance(result, (list, tuple)) else [result]


@pytest.mark.parametrize("case_id, name, arrays, kwargs, grads", CASES, ids=[c[0] for c in CASES])
def test_result_and_gradients_equal_paddles(
    case_id: str, name: str, arrays: list, kwargs: dict, grads: bool
) -> None:
    results = []
    for lib in (paddle, phiops):
        tensors = [lib.to_tensor(a, stop_gradient=not grads) for a in arrays]
        outs = flat(getattr(lib.linalg, name)(*tensors, **kwargs))
        values = [o.numpy() for o in outs]
        gradients = []
        if grads:
            weights = lib.to_tensor(np.linspace(0.5, 1.5, outs[0].size).reshape(outs[0].shape))
            gradients = [g.numpy() for g in lib.grad([outs[0]], tensors, [weights])]
        results.append((values, gradients))
    (theirs, their_grads), (ours, our_grads) = results
    assert len(ours) == len(theirs)
    for mine, expected in zip(ours, theirs):
        assert mine.dtype == expected.dtype and mine.shape == expected.shape, case_id
        np.testing.assert_allclose(mine, expected, rtol=1e-9, atol=1e-9)
    for mine, expected in zip(our_grads, their_grads):
        np.testing.assert_allclose(mine, expected, rtol=1e-9, atol=1e-9)


def test_lu_unpack_and_its_gradient_equal_paddles() -> None:
    x = pivoted(2, 4, 3)
    results = []
    for lib in (paddle, phiops):
        factors, pivots = lib.linalg.lu(lib.to_tensor(x))
        factors = lib.to_tensor(factors.numpy(), stop_gradient=False)
        pmat, lower, upper = lib.linalg.lu_unpack(factors, pivots)
        weights = [
            lib.to_tensor(np.linspace(0.5, 1.5, t.size).reshape(t.shape)) for t in (lower, upper)
        ]
        (grad,) = lib.grad([lower, upper], [factors], weights)
        results.append([pmat.numpy(), lower.numpy(), upper.numpy(), grad.numpy()])
    for mine, expected in zip(results[1], results[0]):
        np.testing.assert_allclose(mine, expected, rtol=1e-12, atol=1e-12)


def test_eig_gradient_equals_paddles_for_a_real_matrix() -> None:
    x = floats(3, 3)
    results = []
    for lib in (paddle, phiops):
        tensor = lib.to_tensor(x, stop_gradient=False)
        w, v = lib.linalg.eig(tensor)
        upstream = [
            lib.to_tensor(np.linspace(0.5, 1.5, 3) + 0.25j),
            lib.to_tensor((np.linspace(-1, 1, 9) - 0.5j).reshape(3, 3)),
        ]
        (grad,) = lib.grad([w, v], [tensor], upstream)
        results.append(grad.numpy())
    # PaddlePaddle's engine keeps the real part of eig_grad's complex gradient for a real input;
    # phiops's hands on the complex gradient, whose real part is PaddlePaddle's
    np.testing.assert_allclose(results[1].real, results[0], rtol=1e-9, atol=1e-9)


METHODS = [
    ("cov", [floats(3, 4)], {"ddof": False}),
    ("corrcoef", [floats(3, 4)], {}),
    ("lu", [pivoted(3, 3)], {"get_infos": True}),
    ("eig", [floats(3, 3)], {}),
    ("lstsq", [floats(4, 3), floats(4, 2)], {"driver": "gelsd"}),
]


@pytest.mark.parametrize("name, arrays, kwargs", METHODS, ids=[m[0] for m in METHODS])
def test_tensor_methods_equal_paddles(name: str, arrays: list, kwargs: dict) -> None:
    results = []
    for lib in (paddle, phiops):
        tensors = [lib.to_tensor(a) for a in arrays]
        results.append([o.numpy() for o in flat(getattr(tensors[0], name)(*tensors[1:], **kwargs))])
    assert len(results[1]) == len(results[0])
    for mine, expected in zip(results[1], results[0]):
        np.testing.assert_allclose(mine, expected, rtol=1e-9, atol=1e-9)


BAD = [
    ("lu", [(3,)], {}),
    ("eig", [(2, 3)], {}),
    ("lstsq", [(4, 3), (3, 2)], {}),
    ("lstsq", [(3,), (3, 2)], {}),
    ("lstsq", [(4, 3), (4, 2)], {"driver": "qr"}),
]


@pytest.mark.parametrize(
    "name, shapes, kwargs", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)]
)
def test_bad_input_is_refused_by_both(name: str, shapes: list, kwargs: dict) -> None:
    for lib in (paddle, phiops):
        with pytest.raises(Exception):
            getattr(lib.linalg, name)(*[lib.to_tensor(np.ones(s)) for s in shapes], **kwargs)


def test_signatures_are_paddles() -> None:
    import inspect

    names = ("lu", "lu_unpack", "eig", "lstsq", "cov", "corrcoef", "householder_product")
    for name in names + ("matrix_exp",):
        theirs = inspect.signature(getattr(paddle.linalg, name))
        ours = inspect.signature(getattr(phiops.linalg, name))
        assert list(ours.parameters) == list(theirs.parameters), name
        assert [p.default for p in ours.parameters.values()] == [
            p.default for p in theirs.parameters.values()
        ], name


COV_CASES = [
    ("cov", {}),
    ("cov", {"rowvar": False, "ddof": False}),
    ("cov", {"fweights": np.array([1, 2, 1, 3, 1]), "aweights": RNG.uniform(0.1, 1, 5)}),
    ("cov", {"aweights": RNG.uniform(0.1, 1, 5), "ddof": False}),
    ("corrcoef", {}),
    ("corrcoef", {"rowvar": False}),
]


@pytest.mark.parametrize(
    "name, kwargs", COV_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(COV_CASES)]
)
def test_cov_and_corrcoef_and_their_gradients_equal_paddles(name: str, kwargs: dict) -> None:
    x = floats(3, 5) if kwargs.get("rowvar", True) else floats(5, 3)
    results = []
    for lib in (paddle, phiops):
        tensor = lib.to_tensor(x, stop_gradient=False)
        arguments = {
            k: lib.to_tensor(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()
        }
        out = getattr(lib.linalg, name)(tensor, **arguments)
        weights = lib.to_tensor(np.linspace(0.5, 1.5, out.size).reshape(out.shape))
        (grad,) = lib.grad([out], [tensor], [weights])
        results.append((out.numpy(), grad.numpy()))
    for mine, expected in zip(results[1], results[0]):
        assert mine.dtype == expected.dtype and mine.shape == expected.shape
        np.testing.assert_allclose(mine, expected, rtol=1e-9, atol=1e-12)


def test_cov_and_corrcoef_of_one_variable_equal_paddles() -> None:
    x = floats(6)
    for name in ("cov", "corrcoef"):
        theirs = getattr(paddle.linalg, name)(paddle.to_tensor(x)).numpy()
        ours = getattr(phiops.linalg, name)(phiops.to_tensor(x)).numpy()
        assert ours.shape == theirs.shape
        np.testing.assert_allclose(ours, theirs, rtol=1e-12)


DISTANCE_CASES = [
    ("cdist", [floats(2, 4, 3), floats(5, 3)], {}),
    ("cdist", [floats(30, 3), floats(4, 3)], {}),
    ("cdist", [floats(4, 3), floats(5, 3)], {"p": 1.0}),
    (
        "cdist",
        [floats(4, 3), floats(5, 3)],
        {"p": 3.0, "compute_mode": "donot_use_mm_for_euclid_dist"},
    ),
    ("cdist", [floats(4, 3), floats(5, 3)], {"compute_mode": "use_mm_for_euclid_dist"}),
    ("pdist", [floats(5, 3)], {}),
    ("pdist", [floats(4, 2)], {"p": np.inf}),
]


@pytest.mark.parametrize(
    "name, arrays, kwargs",
    DISTANCE_CASES,
    ids=[f"{c[0]}-{i}" for i, c in enumerate(DISTANCE_CASES)],
)
def test_distances_and_their_gradients_equal_paddles(name: str, arrays: list, kwargs: dict) -> None:
    results = []
    for lib in (paddle, phiops):
        tensors = [lib.to_tensor(a, stop_gradient=False) for a in arrays]
        out = getattr(lib, name)(*tensors, **kwargs)
        weights = lib.to_tensor(np.linspace(0.5, 1.5, out.size).reshape(out.shape))
        grads = lib.grad([out], tensors, [weights])
        results.append([out.numpy()] + [g.numpy() for g in grads])
    for mine, expected in zip(results[1], results[0]):
        assert mine.shape == expected.shape
        np.testing.assert_allclose(mine, expected, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize(
    "x, kwargs",
    [
        (np.array([2.0, -1.0, 3.0]), {}),
        (np.array([2, -1, 3]), {"n": 5, "increasing": True}),
        (np.array([1.5, 0.5]), {"n": 1}),
        (np.array([1.5, 0.5]), {"n": 0}),
    ],
    ids=["square", "int-increasing", "n1", "n0"],
)
def test_vander_equals_paddles(x: np.ndarray, kwargs: dict) -> None:
    theirs = paddle.vander(paddle.to_tensor(x), **kwargs).numpy()
    ours = phiops.vander(phiops.to_tensor(x), **kwargs).numpy()
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    np.testing.assert_array_equal(ours, theirs)


def test_distance_signatures_are_paddles() -> None:
    import inspect

    for name in ("cdist", "pdist", "vander"):
        theirs = inspect.signature(getattr(paddle, name))
        ours = inspect.signature(getattr(phiops, name))
        assert list(ours.parameters) == list(theirs.parameters), name


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_householder_product_equals_paddles(dtype: str) -> None:
    # results only: PaddlePaddle 3.3.1's gradient of its composite fails (its in-place column
    # writes trip its own version check); phiops's is checked by finite differences in
    # tests/ops/test_linalg24_api.py
    x, tau = floats(2, 4, 3), floats(2, 3)
    if dtype == "complex128":
        x, tau = x + 1j * floats(2, 4, 3), tau + 1j * floats(2, 3)
    theirs = paddle.linalg.householder_product(paddle.to_tensor(x), paddle.to_tensor(tau)).numpy()
    ours = phiops.linalg.householder_product(phiops.to_tensor(x), phiops.to_tensor(tau)).numpy()
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("scale", [1e-3, 0.5, 2.0, 10.0])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_matrix_exp_and_its_gradient_equal_paddles(scale: float, dtype: str) -> None:
    x = (floats(2, 3, 3) * scale).astype(dtype)
    # PaddlePaddle 3.3.1's gradient fails its own in-place version check once the matrix is
    # scaled (squared back in its while_loop): gradients compared below that norm only
    grads = scale <= 2.0
    results = []
    for lib in (paddle, phiops):
        tensor = lib.to_tensor(x, stop_gradient=not grads)
        out = lib.linalg.matrix_exp(tensor)
        values = [out.numpy()]
        if grads:
            weights = lib.to_tensor(
                np.linspace(0.5, 1.5, out.size).reshape(out.shape).astype(dtype)
            )
            values += [g.numpy() for g in lib.grad([out], [tensor], [weights])]
        results.append(values)
    tolerance = (
        {"rtol": 1e-5, "atol": 1e-5} if dtype == "float32" else {"rtol": 1e-10, "atol": 1e-12}
    )
    for mine, expected in zip(results[1], results[0]):
        assert mine.dtype == expected.dtype and mine.shape == expected.shape
        np.testing.assert_allclose(mine, expected, **tolerance)
