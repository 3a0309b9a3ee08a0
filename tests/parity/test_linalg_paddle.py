"""The linear-algebra ops (bmm, mv, dot, kron, cross, trace, diagonal, diag_embed) against
PaddlePaddle 3.3.1 run live:
the ``paddle.*`` functions and Tensor methods with the same arguments, forward and the gradient
of every input, and bad input refused by both. Runs only where PaddlePaddle is installed
(tests/ops/test_linalg_paddle.py compares recorded results without it)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops  # noqa: E402
from phiops.runtime.errors import InvalidArgumentError  # noqa: E402

RNG = np.random.default_rng(24)


def floats(*shape: int, dtype: str = "float64") -> np.ndarray:
    values = RNG.uniform(-2, 2, shape)
    if dtype.startswith("complex"):
        values = values + 1j * RNG.uniform(-2, 2, shape)
    return values.astype(dtype)


# (case id, function name, inputs, keyword arguments)
CASES: list[tuple[str, str, list[np.ndarray], dict[str, Any]]] = [
    ("bmm", "bmm", [floats(3, 2, 5), floats(3, 5, 4)], {}),
    ("mv", "mv", [floats(4, 6), floats(6)], {}),
    ("mv-float32", "mv", [floats(4, 6, dtype="float32"), floats(6, dtype="float32")], {}),
    ("dot", "dot", [floats(7), floats(7)], {}),
    ("dot-rows", "dot", [floats(2, 7), floats(2, 7)], {}),
    ("dot-complex", "dot", [floats(4, dtype="complex128"), floats(4, dtype="complex128")], {}),
    ("kron", "kron", [floats(2, 3), floats(3, 2)], {}),
    ("kron-ranks", "kron", [floats(2), floats(2, 3, 1)], {}),
    ("kron-complex", "kron", [floats(2, dtype="complex64"), floats(3, dtype="complex64")], {}),
    ("cross", "cross", [floats(2, 3, 4), floats(2, 3, 4)], {}),
    ("cross-axis", "cross", [floats(3, 3), floats(3, 3)], {"axis": -1}),
    ("cross-complex", "cross", [floats(3, dtype="complex128"), floats(3, dtype="complex128")], {}),
    ("trace", "trace", [floats(4, 5)], {"offset": 1}),
    ("trace-axes", "trace", [floats(2, 3, 4)], {"offset": -1, "axis1": -1, "axis2": 0}),
    ("diagonal", "diagonal", [floats(3, 4)], {"offset": -1}),
    ("diagonal-axes", "diagonal", [floats(2, 3, 4)], {"offset": 1, "axis1": 2, "axis2": 0}),
    ("diagonal-complex", "diagonal", [floats(3, 3, dtype="complex64")], {}),
    ("diag_embed", "diag_embed", [floats(2, 3)], {}),
    ("diag_embed-dims", "diag_embed", [floats(2, 3)], {"offset": -1, "dim1": 2, "dim2": 0}),
    ("inverse", "inverse", [floats(2, 3, 3) + 5 * np.eye(3)], {}),
    ("inverse-complex", "inverse", [floats(3, 3, dtype="complex128") + 5 * np.eye(3)], {}),
    ("cholesky", "cholesky", [np.stack([np.diag([4.0, 5.0, 6.0]) + 0.5, 2 * np.eye(3) + 1])], {}),
    ("cholesky-upper", "cholesky", [np.diag([4.0, 5.0, 6.0]) + 0.5], {"upper": True}),
]
# PaddlePaddle's diag_embed has no backward: forward only
NO_GRAD = {"diag_embed"}


@pytest.mark.parametrize("case_id, name, arrays, kwargs", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("method", [False, True], ids=["function", "method"])
def test_result_and_gradients_equal_paddles(
    case_id: str, name: str, arrays: list[np.ndarray], kwargs: dict, method: bool
) -> None:
    results = []
    for lib in (paddle, phiops):
        tensors = [lib.to_tensor(a, stop_gradient=False) for a in arrays]
        if method:
            out = getattr(tensors[0], name)(*tensors[1:], **kwargs)
        else:
            out = getattr(lib, name)(*tensors, **kwargs)
        out_grad = np.linspace(0.5, 1.5, out.size).reshape(out.shape).astype(out.numpy().dtype)
        grads = [] if name in NO_GRAD else lib.grad(out, tensors, lib.to_tensor(out_grad))
        results.append((out.numpy(), [g.numpy() for g in grads]))
    (theirs, their_grads), (ours, our_grads) = results
    rtol = 1e-5 if theirs.dtype in (np.float32, np.complex64) else 1e-12
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    np.testing.assert_allclose(ours, theirs, rtol=rtol, atol=rtol)
    for mine, expected in zip(our_grads, their_grads):
        np.testing.assert_allclose(mine, expected, rtol=rtol, atol=rtol)


BAD = [
    ("bmm", [(2, 3), (3, 2)], {}),
    ("bmm", [(2, 2, 3), (3, 3, 2)], {}),
    ("mv", [(2, 3), (4,)], {}),
    ("dot", [(2, 2, 3), (2, 2, 3)], {}),
    ("dot", [(3,), (4,)], {}),
    ("cross", [(4, 2), (4, 2)], {}),
    ("cross", [(4, 3), (4, 3)], {"axis": 0}),
    ("trace", [(3,)], {}),
    ("trace", [(2, 3, 4)], {"axis1": 1, "axis2": -2}),
    ("diagonal", [(3,)], {}),
    ("diagonal", [(2, 3, 4)], {"axis1": 0, "axis2": -3}),
    ("diag_embed", [()], {}),
    ("diag_embed", [(3,)], {"dim1": 0, "dim2": 2}),
    ("inverse", [(2, 3)], {}),
    ("inverse", [(2, 2)], {}),
    ("cholesky", [(2, 3)], {}),
    ("cholesky", [(2, 2)], {}),
]


@pytest.mark.parametrize("name, shapes, kwargs", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_bad_input_is_refused_by_both(name: str, shapes: list, kwargs: dict) -> None:
    arrays = [np.ones(shape) for shape in shapes]
    with pytest.raises(Exception):
        getattr(paddle, name)(*(paddle.to_tensor(a) for a in arrays), **kwargs)
    with pytest.raises(InvalidArgumentError, match=name):
        getattr(phiops, name)(*(phiops.to_tensor(a) for a in arrays), **kwargs)


def test_dot_writes_out_as_paddle_does() -> None:
    x, y = floats(5), floats(5)
    theirs = paddle.zeros([], "float64")
    paddle.dot(paddle.to_tensor(x), paddle.to_tensor(y), out=theirs)
    ours = phiops.zeros([], "float64")
    returned = phiops.dot(phiops.to_tensor(x), phiops.to_tensor(y), out=ours)
    assert returned is ours
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-12)
