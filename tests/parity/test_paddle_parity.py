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
    ("minimum-broadcast", "minimum", [floats(2, 3), floats(3)], []),
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
    ("min-axis", "min", [floats(2, 3)], [[1], True]),
    ("logit", "logit", [floats(2, 3, low=0.05, high=0.95)], [1e-6]),
    ("logit-eps", "logit", [floats(2, 3, low=0.0, high=1.0)], [0.2]),
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


# -- the gradients of every case, and their gradients -----------------------------------------


def _backward_chain(op: str) -> tuple[str, ...]:
    """The op's backward op and, where it has one, its double grad (phiops' specs)."""
    from phiops.runtime.dispatch.op_def import OP_DEFS

    chain, name = [], OP_DEFS[op].backward if op in OP_DEFS else None
    while name is not None and name in OP_DEFS and len(chain) < 2:
        chain.append(name)
        name = OP_DEFS[name].backward
    return tuple(chain)


def _floating(value: Any) -> bool:
    if isinstance(value, list):
        return bool(value) and all(_floating(v) for v in value)
    return isinstance(value, np.ndarray) and value.dtype.kind == "f"


def _float_output(case: tuple[str, str, list[Any], list[Any]]) -> bool:
    """The case has a floating output to differentiate (a cast to int or bool has none)."""
    outputs = as_list(run_phi(case[1], case[2], case[3]))
    return any(o is not None and "float" in str(o.dtype) for o in outputs)


# case id -> why its gradients are not compared
NO_GRADIENT_PARITY = {
    # PaddlePaddle 3.3.1's own matmul_grad raises "Input dimension size should be equal to 2,
    # but received dimension size is 3" for a [2, 3, 4] x [4, 5] product
    "matmul-batch-broadcast": "PaddlePaddle 3.3.1's matmul_grad fails on it",
}

GRADIENT_CASES = [
    case
    for case in CASES
    if _backward_chain(case[1])
    and _floating(case[2][0])
    and case[0] not in NO_GRADIENT_PARITY
    and _float_output(case)
]


def _gradients(lib: Any, api: Any, op: str, inputs: list[Any], attrs: list[Any], twice: bool):
    """d(sum(out_i * w_i))/d(floating inputs), and with ``twice`` the gradient of
    sum(first gradient * v) again, in ``lib`` (paddle or phiops), float64 throughout."""
    leaves, tensors = [], []
    for value in inputs:
        if _floating(value):
            group = [
                lib.to_tensor(v.astype("float64"), stop_gradient=False) for v in as_list(value)
            ]
            leaves += group
            tensors.append(group if isinstance(value, list) else group[0])
        else:
            tensors.append(lib.to_tensor(value))
    outputs = [o for o in as_list(api(op, tensors, attrs)) if o is not None]
    outputs = [o for o in outputs if "float" in str(o.dtype)]
    weights = np.random.default_rng(4)
    loss = None
    for out in outputs:
        w = lib.to_tensor(weights.uniform(0.5, 1.5, out.shape).astype("float64"))
        term = lib.sum(out * w)
        loss = term if loss is None else loss + term
    first = lib.grad(loss, leaves, create_graph=twice, allow_unused=True)
    if not twice:
        return first
    used = [(g, x) for g, x in zip(first, leaves) if g is not None and not g.stop_gradient]
    if not used:
        return []
    second_loss = None
    for g, _ in used:
        v = lib.to_tensor(weights.uniform(0.5, 1.5, g.shape).astype("float64"))
        term = lib.sum(g * v)
        second_loss = term if second_loss is None else second_loss + term
    return lib.grad(second_loss, [x for _, x in used], allow_unused=True)


def _paddle_call(op: str, tensors: list[Any], attrs: list[Any]) -> Any:
    attrs = [paddle_attr(a) for a in attrs]
    if op == "sum" and attrs[1] is None:
        attrs[1] = paddle.base.core.DataType.UNDEFINED
    return getattr(paddle._C_ops, op)(*tensors, *attrs)


def _phi_call(op: str, tensors: list[Any], attrs: list[Any]) -> Any:
    return getattr(phi, op)(*tensors, *attrs)


# each case's gradients, and for an op with a double grad in phiops' specs their gradients too
GRADIENT_RUNS = [(*case, False) for case in GRADIENT_CASES] + [
    (*case, True) for case in GRADIENT_CASES if len(_backward_chain(case[1])) == 2
]


@pytest.mark.parametrize(
    "case_id, op, inputs, attrs, twice",
    GRADIENT_RUNS,
    ids=[f"{r[0]}-{'double_grad' if r[4] else 'grad'}" for r in GRADIENT_RUNS],
)
def test_case_gradients_equal_paddle(
    case_id: str, op: str, inputs: list[Any], attrs: list[Any], twice: bool
) -> None:
    """Every differentiable case's gradients (its backward op) and, for an op with a double
    grad, the gradients of those (the double-grad op), in float64."""
    expected = _gradients(paddle, _paddle_call, op, inputs, attrs, twice)
    got = _gradients(phi, _phi_call, op, inputs, attrs, twice)
    assert len(got) == len(expected)
    for mine, theirs in zip(got, expected):
        assert (mine is None) == (theirs is None)
        if mine is not None:
            np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-9, atol=1e-12)
