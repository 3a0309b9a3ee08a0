"""phi.<op> against PaddlePaddle's generated op (``paddle._C_ops.<op>``) called with the same
arguments. Runs only where PaddlePaddle is installed (it is not a dependency of phiops).

Known difference, not tested here: PaddlePaddle 3's Python layer promotes integer ``divide`` to
float32 before its kernel runs; phi.divide on integers runs PHI's integer kernel (truncating
division), as PaddlePaddle 2 did. ``where`` broadcasts in phiops; PaddlePaddle's C++ op needs
equal shapes (its Python ``paddle.where`` broadcasts first).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops.generated as phi  # noqa: E402

RNG = np.random.default_rng(0)


def floats(*shape: int, dtype: str = "float32", low: float = -3, high: float = 3) -> np.ndarray:
    return RNG.uniform(low, high, shape).astype(dtype)


def ints(*shape: int, dtype: str = "int64", low: int = -9, high: int = 9) -> np.ndarray:
    return RNG.integers(low, high + 1, shape).astype(dtype)


def nonzero_ints(*shape: int, dtype: str = "int64") -> np.ndarray:
    values = ints(*shape, dtype=dtype)
    values[values == 0] = 3
    return values


# (case id, op, tensor inputs as numpy arrays (a list for Tensor[]), attributes)
CASES: list[tuple[str, str, list[Any], list[Any]]] = [
    ("add-broadcast", "add", [floats(3, 1), floats(1, 4)], []),
    ("add-int", "add", [ints(5), ints(5)], []),
    ("subtract-0d", "subtract", [floats(), floats(2, 3)], []),
    (
        "multiply-bool",
        "multiply",
        [ints(4, dtype="bool", low=0, high=1), ints(4, dtype="bool", low=0, high=1)],
        [],
    ),
    ("divide-float", "divide", [floats(2, 3), floats(2, 3, low=0.5, high=2)], []),
    ("maximum", "maximum", [floats(2, 3), floats(3)], []),
    ("minimum-int", "minimum", [ints(5), ints(5)], []),
    ("elementwise_pow", "elementwise_pow", [floats(4, low=0.5, high=2), floats(4)], []),
    (
        "elementwise_pow-int",
        "elementwise_pow",
        [ints(5, low=1, high=4), ints(5, low=0, high=3)],
        [],
    ),
    ("floor_divide-negative", "floor_divide", [ints(8), nonzero_ints(8)], []),
    ("remainder-negative-int", "remainder", [ints(8), nonzero_ints(8)], []),
    (
        "remainder-float",
        "remainder",
        [floats(8), floats(8, low=0.5, high=2) * np.sign(floats(8))],
        [],
    ),
    ("equal", "equal", [ints(6, low=0, high=2), ints(6, low=0, high=2)], []),
    ("not_equal-float", "not_equal", [floats(4), floats(4)], []),
    ("greater_than-broadcast", "greater_than", [floats(2, 3), floats(3)], []),
    ("greater_equal", "greater_equal", [ints(5), ints(5)], []),
    ("less_than", "less_than", [floats(5), floats(5)], []),
    ("less_equal", "less_equal", [ints(5), ints(5)], []),
    (
        "logical_and-float",
        "logical_and",
        [ints(6, dtype="float32", low=0, high=1), ints(6, dtype="float32", low=0, high=1)],
        [],
    ),
    (
        "logical_or",
        "logical_or",
        [ints(6, dtype="bool", low=0, high=1), ints(6, dtype="bool", low=0, high=1)],
        [],
    ),
    ("logical_not-int", "logical_not", [ints(6, low=0, high=2)], []),
    *[
        (op, op, [floats(2, 3, low=0.1, high=3)], [])
        for op in (
            "exp",
            "log",
            "sqrt",
            "rsqrt",
            "square",
            "abs",
            "sin",
            "cos",
            "tanh",
            "sigmoid",
            "silu",
        )
    ],
    *[
        (f"{op}-signed", op, [floats(2, 3)], [])
        for op in ("abs", "sign", "floor", "ceil", "relu", "square")
    ],
    ("abs-int", "abs", [ints(5)], []),
    ("gelu-exact", "gelu", [floats(6)], [False]),
    ("gelu-tanh", "gelu", [floats(6)], [True]),
    ("leaky_relu", "leaky_relu", [floats(6)], [0.02]),
    ("scale", "scale", [floats(4)], [2.5, 1.0, True]),
    ("scale-bias-before", "scale", [floats(4)], [2.5, 1.0, False]),
    ("scale-int", "scale", [ints(4)], [2.5, 1.0, True]),
    ("pow", "pow", [floats(4, low=0.5, high=2)], [2.5]),
    ("pow-int", "pow", [ints(4, low=1, high=5)], [2.0]),
    ("cast-float-to-int", "cast", [floats(6)], ["int32"]),
    ("cast-to-bool", "cast", [floats(6)], ["bool"]),
    ("assign", "assign", [floats(2, 2)], []),
    ("clip", "clip", [floats(8)], [-1.0, 1.5]),
    ("where", "where", [ints(2, 3, dtype="bool", low=0, high=1), floats(2, 3), floats(2, 3)], []),
    ("full", "full", [], [[2, 3], 1.5, "float64", "cpu"]),
    ("full_like", "full_like", [floats(2, 2)], [7, "int32", "cpu"]),
    ("sum-all", "sum", [floats(2, 3)], [[], None, False]),
    ("sum-int32-gives-int64", "sum", [ints(4, dtype="int32")], [[], None, False]),
    ("sum-bool", "sum", [ints(4, dtype="bool", low=0, high=1)], [[0], None, True]),
    ("sum-negative-axis", "sum", [floats(2, 3, 4)], [[-1, 0], None, True]),
    ("mean", "mean", [floats(2, 3)], [[1], False]),
    ("mean-all-keepdim", "mean", [floats(2, 3)], [[], True]),
    ("max", "max", [floats(2, 3)], [[0], False]),
    ("min-int", "min", [ints(2, 3)], [[-1], True]),
    ("prod", "prod", [floats(2, 3)], [[1], False, False]),
    ("prod-reduce-all", "prod", [floats(2, 3)], [[0], False, True]),
    ("argmax", "argmax", [floats(3, 4)], [1, False, False, "int64"]),
    ("argmax-flatten", "argmax", [floats(3, 4)], [0, True, True, "int32"]),
    ("argmin", "argmin", [ints(3, 4)], [-1, False, False, "int64"]),
    ("matmul", "matmul", [floats(2, 3), floats(3, 4)], [False, False]),
    ("matmul-transpose", "matmul", [floats(3, 2), floats(4, 3)], [True, True]),
    ("matmul-vector-vector", "matmul", [floats(3), floats(3)], [False, False]),
    ("matmul-batch-broadcast", "matmul", [floats(2, 1, 2, 3), floats(4, 3, 5)], [False, False]),
    ("reshape-zero-and-minus-one", "reshape", [floats(2, 3, 4)], [[0, -1]]),
    ("transpose", "transpose", [floats(2, 3, 4)], [[2, 0, 1]]),
    ("concat", "concat", [[floats(2, 3), floats(1, 3)]], [0]),
    ("concat-negative-axis", "concat", [[floats(2, 3), floats(2, 1)]], [-1]),
    ("split", "split", [floats(6, 2)], [[1, -1, 2], 0]),
    ("squeeze-all", "squeeze", [floats(1, 3, 1)], [[]]),
    ("squeeze-non-one-axis-kept", "squeeze", [floats(1, 3, 1)], [[1]]),
    ("unsqueeze", "unsqueeze", [floats(2, 3)], [[0, -1]]),
    ("flatten", "flatten", [floats(2, 3, 4)], [1, 2]),
    ("expand", "expand", [floats(3, 1)], [[2, 3, 4]]),
    ("stack", "stack", [[floats(2, 3), floats(2, 3)]], [1]),
    ("softmax", "softmax", [floats(2, 5)], [-1]),
    ("log_softmax", "log_softmax", [floats(2, 5)], [0]),
]

DTYPE_NAMES = {"float32", "float64", "int32", "int64", "bool"}


def paddle_attr(value: Any) -> Any:
    if isinstance(value, str) and value in DTYPE_NAMES:
        return getattr(paddle, value)
    if value == "cpu":
        return paddle.CPUPlace()
    return value


def run_paddle(op: str, inputs: list[Any], attrs: list[Any]) -> Any:
    tensors = [
        [paddle.to_tensor(a) for a in x] if isinstance(x, list) else paddle.to_tensor(x)
        for x in inputs
    ]
    attrs = [paddle_attr(a) for a in attrs]
    if op in ("argmax", "argmin"):  # bound in C++ in PaddlePaddle 3; called as the Python API does
        axis, keepdims, flatten, dtype = attrs
        return getattr(paddle, op)(
            tensors[0], axis=None if flatten else axis, keepdim=keepdims, dtype=dtype
        )
    if op == "sum" and attrs[1] is None:
        attrs[1] = paddle.base.core.DataType.UNDEFINED
    return getattr(paddle._C_ops, op)(*tensors, *attrs)


def run_phi(op: str, inputs: list[Any], attrs: list[Any]) -> Any:
    tensors = [
        [phi.to_tensor(a) for a in x] if isinstance(x, list) else phi.to_tensor(x) for x in inputs
    ]
    return getattr(phi, op)(*tensors, *attrs)


def as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else [value]


@pytest.mark.parametrize("case_id, op, inputs, attrs", CASES, ids=[c[0] for c in CASES])
def test_phi_equals_paddle(case_id: str, op: str, inputs: list[Any], attrs: list[Any]) -> None:
    expected = as_list(run_paddle(op, inputs, attrs))
    got = as_list(run_phi(op, inputs, attrs))
    assert len(got) == len(expected)
    for mine, theirs in zip(got, expected):
        theirs_np = theirs.numpy()
        assert mine.shape == list(
            theirs_np.shape
        ), f"shape {mine.shape} vs paddle {list(theirs_np.shape)}"
        assert (
            mine.numpy().dtype == theirs_np.dtype
        ), f"dtype {mine.numpy().dtype} vs paddle {theirs_np.dtype}"
        np.testing.assert_allclose(mine.numpy(), theirs_np, rtol=1e-5, atol=1e-6)


GRAD_CASES: list[tuple[str, Callable[[Any, Any], Any]]] = [
    ("mlp-like", lambda m, x: m.sum(m.tanh(m.matmul(x, x, False, True)))),
    ("broadcast-divide", lambda m, x: m.sum(m.divide(x, m.add(m.exp(x), x)))),
    ("softmax-max", lambda m, x: m.max(m.softmax(x, -1), [1], False)),
]


@pytest.mark.parametrize("case_id, fn", GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_gradients_equal_paddle(case_id: str, fn: Callable[[Any, Any], Any]) -> None:
    data = floats(3, 4, dtype="float64")
    px = paddle.to_tensor(data, stop_gradient=False)
    (expected,) = paddle.grad(paddle.sum(fn(paddle._C_ops, px)), px)
    x = phi.to_tensor(data, stop_gradient=False)
    (got,) = phi.grad(phi.sum(fn(phi, x)), x)
    np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-10)
