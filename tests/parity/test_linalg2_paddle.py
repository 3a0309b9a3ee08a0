"""paddle.linalg (and the linalg2 top-level names and Tensor methods) against PaddlePaddle 3.3.1
run live: the same calls in both libraries, every result and the gradient of every input
compared, and bad input refused by both. Runs only where PaddlePaddle is installed
(tests/ops/test_linalg2_paddle.py compares recorded op results without it). Decompositions are
compared directly: phiops's kernels give LAPACK's signs, as PaddlePaddle's do."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops  # noqa: E402

RNG = np.random.default_rng(2024)


def floats(*shape: int, dtype: str = "float64") -> np.ndarray:
    values = RNG.uniform(-1, 1, shape)
    if dtype.startswith("complex"):
        values = values + 1j * RNG.uniform(-1, 1, shape)
    return values.astype(dtype)


def dominant(*shape: int, dtype: str = "float64") -> np.ndarray:
    return (floats(*shape, dtype=dtype) + 4 * np.eye(shape[-1])).astype(dtype)


def symmetric(*shape: int) -> np.ndarray:
    a = floats(*shape)
    return (a + np.swapaxes(a, -1, -2)) / 2 + np.diag(np.arange(shape[-1]) * 3.0)


# (case id, module path, function, inputs, keyword arguments, gradients compared)
CASES: list[tuple[str, str, str, list[np.ndarray], dict[str, Any], bool]] = [
    ("solve", "linalg", "solve", [dominant(2, 3, 3), floats(2, 3, 2)], {}, True),
    ("solve-right", "linalg", "solve", [dominant(3, 3), floats(2, 3)], {"left": False}, True),
    ("solve-vector", "linalg", "solve", [dominant(3, 3), floats(3)], {}, True),
    (
        "triangular_solve",
        "linalg",
        "triangular_solve",
        [dominant(3, 3), floats(3, 2)],
        {"upper": False},
        True,
    ),
    (
        "cholesky_solve",
        "linalg",
        "cholesky_solve",
        [floats(3, 2), np.tril(dominant(3, 3))],
        {},
        True,
    ),
    ("det", "linalg", "det", [floats(2, 3, 3)], {}, True),
    ("slogdet", "linalg", "slogdet", [dominant(3, 3)], {}, True),
    ("matrix_power", "linalg", "matrix_power", [floats(3, 3)], {"n": 3}, True),
    ("matrix_power-neg", "linalg", "matrix_power", [dominant(2, 3, 3)], {"n": -2}, True),
    ("inv", "linalg", "inv", [dominant(3, 3)], {}, True),
    ("cholesky", "linalg", "cholesky", [symmetric(3, 3) + 3 * np.eye(3)], {}, False),
    ("qr", "linalg", "qr", [floats(4, 3)], {}, True),
    ("qr-complete", "linalg", "qr", [floats(3, 3)], {"mode": "complete"}, True),
    ("qr-r", "linalg", "qr", [floats(4, 3)], {"mode": "r"}, False),
    ("svd", "linalg", "svd", [floats(2, 4, 3)], {}, True),
    ("eigh", "linalg", "eigh", [symmetric(3, 3)], {}, True),
    ("eigh-U", "linalg", "eigh", [symmetric(3, 3)], {"UPLO": "U"}, True),
    ("eigvalsh", "linalg", "eigvalsh", [symmetric(3, 3)], {}, True),
    ("eigvals", "linalg", "eigvals", [floats(2, 3, 3)], {}, False),
    ("matrix_rank", "linalg", "matrix_rank", [floats(2, 3, 2) @ floats(2, 2, 4)], {}, False),
    ("matrix_rank-tol", "linalg", "matrix_rank", [floats(3, 3)], {"tol": 0.3}, False),
    ("pinv", "linalg", "pinv", [floats(4, 3)], {}, True),
    ("pinv-hermitian", "linalg", "pinv", [symmetric(3, 3)], {"hermitian": True}, False),
    ("cond", "linalg", "cond", [dominant(3, 3)], {}, False),
    ("cond-fro", "linalg", "cond", [dominant(3, 3)], {"p": "fro"}, False),
    ("cond-inf", "linalg", "cond", [dominant(3, 3)], {"p": np.inf}, False),
    ("norm", "linalg", "norm", [floats(3, 4)], {}, True),
    ("norm-axis", "linalg", "norm", [floats(3, 4)], {"p": 3, "axis": 1, "keepdim": True}, True),
    ("norm-fro", "linalg", "norm", [floats(2, 3, 4)], {"p": "fro", "axis": [0, 2]}, True),
    ("norm-nuc", "linalg", "norm", [floats(3, 4)], {"p": "nuc", "axis": [0, 1]}, True),
    ("norm-inf-matrix", "linalg", "norm", [floats(3, 4)], {"p": np.inf, "axis": [0, 1]}, False),
    (
        "vector_norm-axes",
        "linalg",
        "vector_norm",
        [floats(2, 3, 4)],
        {"p": 1.5, "axis": [0, 2]},
        True,
    ),
    ("vector_norm-0", "linalg", "vector_norm", [floats(3, 4)], {"p": 0}, False),
    ("matrix_norm-1", "linalg", "matrix_norm", [floats(3, 4)], {"p": 1}, False),
    ("matrix_norm-2", "linalg", "matrix_norm", [floats(2, 3, 4)], {"p": -2, "keepdim": True}, True),
    ("multi_dot", "linalg", "multi_dot", [floats(3), floats(3, 4), floats(4, 2)], {}, True),
    ("dist", "", "dist", [floats(3, 4), floats(4)], {"p": 3}, True),
    (
        "addmm",
        "",
        "addmm",
        [floats(3), floats(2, 4), floats(4, 3)],
        {"beta": 0.5, "alpha": 2.0},
        True,
    ),
    ("renorm", "", "renorm", [floats(3, 4)], {"p": 2.0, "axis": -1, "max_norm": 0.5}, True),
]
LIST_INPUT = {"multi_dot"}


def call(lib: Any, module: str, name: str, tensors: list, kwargs: dict) -> Any:
    owner = getattr(lib, module) if module else lib
    if name in LIST_INPUT:
        return getattr(owner, name)(tensors, **kwargs)
    return getattr(owner, name)(*tensors, **kwargs)


def flat(result: Any) -> list:
    return list(result) if isinstance(result, (list, tuple)) else [result]


@pytest.mark.parametrize(
    "case_id, module, name, arrays, kwargs, grads", CASES, ids=[c[0] for c in CASES]
)
def test_result_and_gradients_equal_paddles(
    case_id: str, module: str, name: str, arrays: list, kwargs: dict, grads: bool
) -> None:
    results = []
    for lib in (paddle, phiops):
        tensors = [lib.to_tensor(a, stop_gradient=not grads) for a in arrays]
        outs = flat(call(lib, module, name, tensors, kwargs))
        values = [o.numpy() for o in outs]
        gradients = []
        if grads:
            float_outs = [o for o in outs if o.dtype in (lib.float32, lib.float64)]
            weights = [
                lib.to_tensor(
                    np.linspace(0.5, 1.5, max(o.size, 1)).reshape(o.shape).astype(o.numpy().dtype)
                )
                for o in float_outs
            ]
            gradients = [g.numpy() for g in lib.grad(float_outs, tensors, weights)]
        results.append((values, gradients))
    (theirs, their_grads), (ours, our_grads) = results
    assert len(ours) == len(theirs)
    for mine, expected in zip(ours, theirs):
        assert mine.dtype == expected.dtype and mine.shape == expected.shape, case_id
        np.testing.assert_allclose(mine, expected, rtol=1e-9, atol=1e-9)
    for mine, expected in zip(our_grads, their_grads):
        np.testing.assert_allclose(mine, expected, rtol=1e-9, atol=1e-9)


METHODS = [
    ("solve", [dominant(3, 3), floats(3, 2)], {"left": True}),
    ("cholesky_solve", [floats(3, 2), np.tril(dominant(3, 3))], {"upper": False}),
    ("slogdet", [dominant(3, 3)], {}),
    ("matrix_power", [floats(3, 3)], {"n": 2}),
    ("dist", [floats(3), floats(3)], {"p": 1}),
    ("addmm", [floats(2, 3), floats(2, 4), floats(4, 3)], {"alpha": 3.0}),
    ("renorm", [floats(3, 4)], {"p": 1.0, "axis": 0, "max_norm": 0.5}),
    ("qr", [floats(4, 3)], {"mode": "reduced"}),
    ("eigvalsh", [symmetric(3, 3)], {"UPLO": "U"}),
    ("norm", [floats(3, 4)], {"p": "fro"}),
    ("cond", [dominant(3, 3)], {"p": -2}),
    ("pinv", [floats(3, 4)], {}),
]


@pytest.mark.parametrize("name, arrays, kwargs", METHODS, ids=[m[0] for m in METHODS])
def test_tensor_methods_equal_paddles(name: str, arrays: list, kwargs: dict) -> None:
    results = []
    for lib in (paddle, phiops):
        tensors = [lib.to_tensor(a) for a in arrays]
        results.append([o.numpy() for o in flat(getattr(tensors[0], name)(*tensors[1:], **kwargs))])
    for mine, expected in zip(results[1], results[0]):
        np.testing.assert_allclose(mine, expected, rtol=1e-9, atol=1e-9)


BAD = [
    ("linalg", "solve", [(2, 3), (2, 1)], {}),
    ("linalg", "solve", [(2, 2), (2, 1)], {}),
    ("linalg", "det", [(2, 3)], {}),
    ("linalg", "matrix_power", [(2, 3)], {"n": 2}),
    ("linalg", "multi_dot", [(2, 3)], {}),
    ("linalg", "qr", [(3,)], {}),
    ("linalg", "svd", [(3,)], {}),
    ("linalg", "eigh", [(2, 3)], {}),
    ("linalg", "cholesky_solve", [(3, 1), (2, 2)], {}),
    ("", "addmm", [(2, 2), (2, 4), (4, 3)], {}),
    ("", "dist", [(2, 3), (4,)], {}),
]


@pytest.mark.parametrize(
    "module, name, shapes, kwargs", BAD, ids=[f"{b[1]}-{i}" for i, b in enumerate(BAD)]
)
def test_bad_input_is_refused_by_both(module: str, name: str, shapes: list, kwargs: dict) -> None:
    arrays = [np.ones(shape) for shape in shapes]
    if name == "solve" and shapes[0] == (2, 2):
        arrays[0] = np.array([[1.0, 2.0], [2.0, 4.0]])
    for lib in (paddle, phiops):
        with pytest.raises(Exception):
            call(lib, module, name, [lib.to_tensor(a) for a in arrays], kwargs)


def test_signatures_are_paddles() -> None:
    import inspect

    for name in phiops.linalg.__all__:
        try:
            theirs = inspect.signature(getattr(paddle.linalg, name))
        except ValueError:  # a C++ builtin (matmul): no signature to compare
            continue
        ours = inspect.signature(getattr(phiops.linalg, name))
        assert list(ours.parameters) == list(theirs.parameters), name
