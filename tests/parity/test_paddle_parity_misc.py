"""Activations, shape and creation, logic and bits) against PaddlePaddle's
generated ops (``paddle._C_ops.<op>``) with the same arguments, forward and, for
differentiable ops, the gradient of every float input. Runs only where PaddlePaddle is
installed. Random ops are checked by statistics in tests/ops/test_random.py, not here.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops.generated as phi  # noqa: E402

RNG = np.random.default_rng(8)


def floats(*shape: int, dtype: str = "float64", low: float = -3, high: float = 3) -> np.ndarray:
    return RNG.uniform(low, high, shape).astype(dtype)


def ints(*shape: int, dtype: str = "int64", low: int = -9, high: int = 9) -> np.ndarray:
    return RNG.integers(low, high + 1, shape).astype(dtype)


SPECIAL = np.array([np.nan, -0.0, 0.0, -1.5, 2.5, 7.0, -7.0, np.inf, -np.inf, 30.0, -30.0])

# (case id, op, tensor inputs (a list for Tensor[]), attributes, differentiable)
Case = tuple[str, str, list[Any], list[Any], bool]

ACTIVATION_CASES: list[Case] = [
    *[
        (f"{op}-{dtype}", op, [floats(3, 4, dtype=dtype, low=-8, high=8)], attrs, True)
        for op, attrs in (
            ("relu", []),
            ("relu6", []),
            ("hardswish", []),
            ("hardsigmoid", [0.2, 0.5]),
            ("swish", []),
            ("elu", [1.0]),
            ("elu", [0.3]),
            ("selu", [1.0507009873554805, 1.6732632423543772]),
            ("softplus", [1.0, 20.0]),
            ("softplus", [2.0, 3.0]),
            ("softsign", []),
            ("mish", [20.0]),
            ("mish", [1.0]),
            ("hardtanh", [-1.0, 2.0]),
            ("logsigmoid", []),
            ("erf", []),
        )
        for dtype in ("float32", "float64")
    ],
    *[
        (f"{op}-special", op, [SPECIAL.astype("float32")], attrs, False)
        for op, attrs in (
            ("relu", []),
            ("relu6", []),
            ("hardsigmoid", [0.2, 0.5]),
            ("hardtanh", [0.0, 24.0]),
            ("elu", [1.0]),
            ("softsign", []),
            ("logsigmoid", []),
            ("erf", []),
        )
    ],
    ("prelu-all", "prelu", [floats(2, 3, 4), floats(1)], ["NCHW", "all"], True),
    ("prelu-channel-NCHW", "prelu", [floats(2, 3, 4), floats(3)], ["NCHW", "channel"], True),
    ("prelu-channel-NHWC", "prelu", [floats(2, 3, 4), floats(4)], ["NHWC", "channel"], True),
    ("prelu-element", "prelu", [floats(2, 3, 4), floats(1, 3, 4)], ["NCHW", "element"], True),
    ("logsumexp-axis0", "logsumexp", [floats(3, 4)], [[0], False, False], True),
    ("logsumexp-keepdim", "logsumexp", [floats(2, 3, 4)], [[-1, 0], True, False], True),
    ("logsumexp-all", "logsumexp", [floats(2, 3)], [[], False, True], True),
    ("logsumexp-0d", "logsumexp", [floats()], [[0], False, False], True),
]

CLOSE_X = np.array([1.0, np.inf, np.nan, -np.inf, 1e-16, 2.0, np.nan])
CLOSE_Y = np.array([1.0 + 2e-5, np.inf, np.nan, np.inf, 0.0, 2.0 + 1e-9, 1.0])

# fmax/fmin with ties (the gradient goes to x) and NaNs (the other input's value is taken), and
# broadcasting that the gradient sums back
FMAX_X = np.array([[1.0, 2.0, np.nan, -0.5, 3.0], [2.0, -1.0, 4.0, np.nan, 0.0]])
FMAX_Y = np.array([2.0, 2.0, 1.0, np.nan, -3.0])
FMAX_CASES: list[Case] = [
    (f"{op}-ties-nans-broadcast", op, [FMAX_X, FMAX_Y], [], True) for op in ("fmax", "fmin")
] + [(f"{op}-untied", op, [floats(3, 4), floats(3, 4)], [], True) for op in ("fmax", "fmin")]

LOGIC_CASES: list[Case] = [
    ("all-float-axis", "all", [ints(3, 4, dtype="float64", low=0, high=2)], [[1], False], False),
    ("all-bool-keepdim", "all", [ints(3, 4, dtype="bool", low=0, high=1)], [[0], True], False),
    ("all-every-axis", "all", [ints(2, 3, dtype="int32", low=0, high=3)], [[], False], False),
    ("all-empty", "all", [np.ones((0, 2))], [[], False], False),
    ("any-int", "any", [ints(3, 4, dtype="int64", low=0, high=1)], [[-1], False], False),
    ("any-0d", "any", [np.array(0.0)], [[], False], False),
    *[
        (f"{op}-{dtype}", op, [SPECIAL.astype(dtype)], [], False)
        for op in ("isnan", "isinf", "isfinite")
        for dtype in ("float32", "float64")
    ],
    *[(f"{op}-int32", op, [ints(5, dtype="int32")], [], False) for op in ("isnan", "isinf")],
    *[
        (
            f"{op}-{dtype}",
            op,
            [ints(2, 5, dtype=dtype, low=lo, high=hi), ints(5, dtype=dtype, low=lo, high=hi)],
            [],
            False,
        )
        for op in ("bitwise_and", "bitwise_or", "bitwise_xor")
        for dtype, lo, hi in (
            ("int32", -100, 100),
            ("uint8", 0, 255),
            ("bool", 0, 1),
            ("int64", -9, 9),
        )
    ],
    *[
        (f"bitwise_not-{dtype}", "bitwise_not", [ints(6, dtype=dtype, low=lo, high=hi)], [], False)
        for dtype, lo, hi in (
            ("int8", -100, 100),
            ("uint8", 0, 255),
            ("bool", 0, 1),
            ("int64", -9, 9),
        )
    ],
    ("isclose-special", "isclose", [CLOSE_X, CLOSE_Y], [1e-5, 1e-8, False], False),
    ("isclose-equal_nan", "isclose", [CLOSE_X, CLOSE_Y], [1e-5, 1e-8, True], False),
    (
        "isclose-float32",
        "isclose",
        [floats(6, dtype="float32"), floats(6, dtype="float32")],
        [0.5, 0.1, False],
        False,
    ),
    ("allclose-special", "allclose", [CLOSE_X[:2], CLOSE_Y[:2]], [1e-4, 1e-8, False], False),
    ("allclose-nan", "allclose", [CLOSE_X[2:3], CLOSE_Y[2:3]], [1e-5, 1e-8, True], False),
    (
        "allclose-int-rtol",
        "allclose",
        [np.array([3, 4]), np.array([3, 5])],
        [0.3, 0.0, False],
        False,
    ),
    (
        "allclose-int-false",
        "allclose",
        [np.array([3, 4]), np.array([3, 5])],
        [0.1, 0.0, False],
        False,
    ),
    ("allclose-empty", "allclose", [np.ones(0), np.ones(0)], [1e-5, 1e-8, False], False),
]

SHAPE_CASES: list[Case] = [
    ("split_with_num", "split_with_num", [floats(4, 6)], [3, 1], True),
    ("split_with_num-axis0", "split_with_num", [floats(4, 6)], [2, 0], True),
    ("add_n", "add_n", [[floats(2, 3), floats(2, 3), floats(2, 3)]], [], True),
    ("add_n-int", "add_n", [[ints(4), ints(4)]], [], False),
    ("tile", "tile", [floats(2, 3)], [[2, 1, 3]], True),
    ("tile-short", "tile", [floats(2, 3)], [[2]], True),
    ("tile-bool", "tile", [ints(3, dtype="bool", low=0, high=1)], [[2, 2]], False),
    ("flip", "flip", [floats(2, 3, 4)], [[0, -1]], True),
    ("roll", "roll", [floats(3, 4)], [[1, -2], [0, 1]], True),
    ("roll-flat", "roll", [floats(3, 4)], [[5], []], True),
    ("pad", "pad", [floats(2, 3)], [[1, 0, 2, 3], 0.5], True),
    ("pad-int", "pad", [ints(2, 3)], [[0, 1, 1, 0], 7], False),
    *[
        (
            f"pad3d-{mode}-{fmt}",
            "pad3d",
            [floats(1, 2, 2, 3, 4) if fmt == "NCDHW" else floats(1, 2, 3, 4, 2)],
            [[2, 1, 1, 2, 1, 0], mode, 0.25, fmt],
            True,
        )
        for mode in ("constant", "reflect", "replicate", "circular")
        for fmt in ("NCDHW", "NDHWC")
    ],
    ("tril", "tril", [floats(3, 4)], [0], True),
    ("tril-batch", "tril", [floats(2, 3, 4)], [-1], True),
    ("triu", "triu", [floats(3, 4)], [1], True),
    ("triu-int", "triu", [ints(4, 4)], [-2], False),
    ("cumsum", "cumsum", [floats(3, 4)], [1, False, False, False], True),
    ("cumsum-flat-excl-rev", "cumsum", [floats(3, 4)], [-1, True, True, True], True),
    ("cumsum-int", "cumsum", [ints(3, 4)], [0, False, True, False], False),
    ("cumprod", "cumprod", [floats(3, 4)], [1, False, False], True),
    ("cumprod-excl-rev", "cumprod", [floats(3, 4)], [0, True, True], True),
    ("cumprod-zeros", "cumprod", [np.array([[2.0, 0.0, 3.0, 0.0, 4.0]])], [1, False, False], True),
    ("meshgrid", "meshgrid", [[floats(3), floats(4), floats(2)]], [], True),
    ("diag-vector", "diag", [floats(3)], [1, 0.5], True),
    ("diag-matrix", "diag", [floats(3, 4)], [-1, 0.0], True),
    ("diag-0d", "diag", [floats()], [0, 0.0], True),
]

CREATION_CASES: list[tuple[str, str, list[Any]]] = [
    ("eye", "eye", [3, 4, "float32"]),
    ("eye-square", "eye", [3, -1, "int64"]),
    ("full_int_array", "full_int_array", [[3, -1, 7], "int64"]),
    ("full_int_array-int32", "full_int_array", [[2], "int32"]),
]

CASES: list[Case] = ACTIVATION_CASES + FMAX_CASES + LOGIC_CASES + SHAPE_CASES


def to_paddle(value: Any, grad: bool) -> Any:
    if isinstance(value, list):
        return [to_paddle(v, grad) for v in value]
    tensor = paddle.to_tensor(value)
    tensor.stop_gradient = not (grad and value.dtype.kind == "f")
    return tensor


def to_phi(value: Any, grad: bool) -> Any:
    if isinstance(value, list):
        return [to_phi(v, grad) for v in value]
    return phi.to_tensor(value, stop_gradient=not (grad and value.dtype.kind == "f"))


def as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def leaves(values: list[Any]) -> list[Any]:
    flat = []
    for value in values:
        flat.extend(value if isinstance(value, list) else [value])
    return [t for t in flat if not t.stop_gradient]


def run(module: Any, op: str, inputs: list[Any], attrs: list[Any]) -> list[Any]:
    return as_list(getattr(module, op)(*inputs, *attrs))


def assert_same(mine: Any, theirs: Any, dtype: Any) -> None:
    theirs = np.asarray(theirs)
    assert list(mine.shape) == list(theirs.shape), f"shape {mine.shape} vs {list(theirs.shape)}"
    got = mine.numpy()
    assert got.dtype == theirs.dtype, f"dtype {got.dtype} vs paddle {theirs.dtype}"
    tight = dtype in (np.float64, np.complex128)
    np.testing.assert_allclose(
        got, theirs, rtol=1e-10 if tight else 1e-5, atol=1e-12 if tight else 1e-6
    )


@pytest.mark.parametrize(
    "case_id, op, inputs, attrs, differentiable", CASES, ids=[c[0] for c in CASES]
)
def test_forward_equals_paddle(
    case_id: str, op: str, inputs: list[Any], attrs: list[Any], differentiable: bool
) -> None:
    expected = run(paddle._C_ops, op, [to_paddle(v, False) for v in inputs], attrs)
    got = run(phi, op, [to_phi(v, False) for v in inputs], attrs)
    assert len(got) == len(expected)
    for mine, theirs in zip(got, expected):
        assert_same(mine, theirs.numpy(), theirs.numpy().dtype)


GRAD_CASES = [c for c in CASES if c[4]]


@pytest.mark.parametrize(
    "case_id, op, inputs, attrs, differentiable", GRAD_CASES, ids=[c[0] for c in GRAD_CASES]
)
def test_gradient_equals_paddle(
    case_id: str, op: str, inputs: list[Any], attrs: list[Any], differentiable: bool
) -> None:
    paddle_inputs = [to_paddle(v, True) for v in inputs]
    phi_inputs = [to_phi(v, True) for v in inputs]
    paddle_outs = run(paddle._C_ops, op, paddle_inputs, attrs)
    phi_outs = run(phi, op, phi_inputs, attrs)
    weights = [RNG.uniform(0.5, 1.5, o.numpy().shape).astype(o.numpy().dtype) for o in phi_outs]
    paddle_loss = sum((o * paddle.to_tensor(w)).sum() for o, w in zip(paddle_outs, weights))
    phi_loss = phi.sum(
        phi.stack([phi.sum(phi.multiply(o, phi.to_tensor(w))) for o, w in zip(phi_outs, weights)])
    )
    expected = paddle.grad(paddle_loss, leaves(paddle_inputs))
    got = phi.grad(phi_loss, leaves(phi_inputs))
    for mine, theirs in zip(got, expected):
        assert_same(mine, theirs.numpy(), theirs.numpy().dtype)


@pytest.mark.parametrize("case_id, op, attrs", CREATION_CASES, ids=[c[0] for c in CREATION_CASES])
def test_creation_equals_paddle(case_id: str, op: str, attrs: list[Any]) -> None:
    *values, dtype = attrs
    expected = getattr(paddle._C_ops, op)(*values, getattr(paddle, dtype), paddle.CPUPlace())
    got = getattr(phi, op)(*values, getattr(phi, dtype))
    assert_same(got, expected.numpy(), expected.numpy().dtype)


RANGE_CASES = [
    ("arange-int", "arange", (0, 7, 2, "int64")),
    ("arange-float", "arange", (0.0, 1.0, 0.3, "float32")),
    ("arange-negative-step", "arange", (5, -3, -2, "int32")),
    ("arange-empty", "arange", (5.0, 0.0, 1.0, "float64")),
    ("linspace-float", "linspace", (0.0, 1.0, 7, "float32")),
    ("linspace-int", "linspace", (0.0, 10.0, 4, "int64")),
    ("linspace-one", "linspace", (2.0, 5.0, 1, "float64")),
]


@pytest.mark.parametrize("case_id, op, args", RANGE_CASES, ids=[c[0] for c in RANGE_CASES])
def test_ranges_equal_paddle(case_id: str, op: str, args: tuple[Any, ...]) -> None:
    """PaddlePaddle's ops take start/end/step (number) as 1-element tensors; phi's Scalars
    take the same numbers."""
    *values, dtype = args
    kinds = ["float64", "float64", "int32"] if op == "linspace" else [dtype] * 3
    tensors = [paddle.to_tensor(np.array(v, k)) for v, k in zip(values, kinds)]
    expected = getattr(paddle._C_ops, op)(*tensors, getattr(paddle, dtype), paddle.CPUPlace())
    got = getattr(phi, op)(*values, getattr(phi, dtype), phi.CPUPlace())
    assert_same(got, expected.numpy(), expected.numpy().dtype)


# (case id, op, (start, end or stop, step or number) as (value, dtype) pairs, output dtype):
# the values go to both libraries as 0-d tensors of those dtypes, as paddle.arange passes them.
TENSOR_RANGE_CASES = [
    ("arange-int-tensors", "arange", ((5, "int64"), (10, "int64"), (1, "int64")), "int64"),
    (
        "arange-floats-to-int32",
        "arange",
        ((0.5, "float32"), (3.7, "float32"), (1.0, "float32")),
        "int32",
    ),
    (
        "arange-floats-to-int64",
        "arange",
        ((-2.5, "float64"), (3.7, "float64"), (1.5, "float64")),
        "int64",
    ),
    (
        "arange-float32-accumulates",
        "arange",
        ((0.1, "float64"), (1.0, "float64"), (0.1, "float64")),
        "float32",
    ),
    ("arange-mixed", "arange", ((1, "int32"), (2.6, "float64"), (0.5, "float64")), "float64"),
    ("arange-away", "arange", ((5, "int64"), (0, "int64"), (1, "int64")), "int64"),
    (
        "linspace-floats-to-int32",
        "linspace",
        ((0.5, "float32"), (3.7, "float32"), (4, "int32")),
        "int32",
    ),
    ("linspace-float32", "linspace", ((0.1, "float64"), (1.0, "float64"), (5, "int32")), "float32"),
    ("linspace-int64", "linspace", ((3, "int64"), (-8, "int64"), (6, "int32")), "int64"),
    ("linspace-empty", "linspace", ((0.0, "float32"), (1.0, "float32"), (0, "int32")), "float32"),
]


@pytest.mark.parametrize(
    "case_id, op, values, dtype", TENSOR_RANGE_CASES, ids=[c[0] for c in TENSOR_RANGE_CASES]
)
def test_ranges_from_tensors_equal_paddle(
    case_id: str, op: str, values: tuple[tuple[Any, str], ...], dtype: str
) -> None:
    """Tensors for start/end/step (number) of any dtype: PaddlePaddle converts each to the
    output dtype before counting (0.5..3.7 by 1.0 as int32 is [0, 1, 2]) and float32 arange
    adds step in float32."""
    arrays = [np.array(v, kind) for v, kind in values]
    expected = getattr(paddle._C_ops, op)(
        *[paddle.to_tensor(a) for a in arrays], getattr(paddle, dtype), paddle.CPUPlace()
    )
    got = getattr(phi, op)(*[phi.to_tensor(a) for a in arrays], getattr(phi, dtype), phi.CPUPlace())
    assert_same(got, expected.numpy(), expected.numpy().dtype)
    np.testing.assert_array_equal(got.numpy(), expected.numpy())


@pytest.mark.parametrize(
    "op, values",
    [
        ("arange", [np.array([1, 2]), np.array(9), np.array(2)]),
        ("linspace", [np.array([0.0, 1.0]), np.array(1.0), np.array(5, "int32")]),
        ("linspace", [np.array(0.0), np.array(1.0), np.array([5, 6], "int32")]),
    ],
)
def test_ranges_reject_tensors_of_several_elements_as_paddle_does(
    op: str, values: list[np.ndarray]
) -> None:
    with pytest.raises(ValueError):
        getattr(paddle._C_ops, op)(
            *[paddle.to_tensor(v) for v in values], paddle.float32, paddle.CPUPlace()
        )
    with pytest.raises(phi.InvalidArgumentError, match="exactly 1 element"):
        getattr(phi, op)(*[phi.to_tensor(v) for v in values], phi.float32, phi.CPUPlace())
