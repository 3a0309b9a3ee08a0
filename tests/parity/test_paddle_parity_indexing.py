"""Lookup, indexing and slicing ops and Tensor indexing against PaddlePaddle 3.3.1, forward and
gradient. Runs only where PaddlePaddle is installed.

Known differences, not tested here: PaddlePaddle reads ``x[[0, 5]]`` on an axis of size 2
without an error (phiops raises OutOfRangeError); ``x[[0, 1], None, [1, 2]]`` gives a shape that
is not NumPy's in PaddlePaddle (phiops follows NumPy); argsort/topk order ties stably in phiops (topk with
sorted=False returns PaddlePaddle's own order, ties included);
after ``x[advanced index] = v`` PaddlePaddle's ``v.grad`` is uninitialised memory, so phiops'
is checked against the summed upstream weights instead.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops.generated as phi  # noqa: E402
from tests.ops.adversary import introselect_adversary  # noqa: E402

RNG = np.random.default_rng(0)


def floats(*shape: int) -> np.ndarray:
    return RNG.uniform(-3, 3, shape).astype("float64")


def distinct(*shape: int) -> np.ndarray:
    size = int(np.prod(shape))
    return (RNG.permutation(size) * 0.5 - 3).reshape(shape).astype("float64")


def ties(*shape: int) -> np.ndarray:
    return RNG.integers(0, 3, shape).astype("float64")


def nonzero_ints(*shape: int) -> np.ndarray:
    values = RNG.integers(-3, 4, shape).astype("float64")
    values[values == 0] = 0.5
    return values


def with_nans(*shape: int) -> np.ndarray:
    values = floats(*shape)
    values[:, [3, 9, 17, 30]] = np.nan
    return values


def i64(values: Any) -> np.ndarray:
    return np.asarray(values, dtype=np.int64)


MASK = np.array(
    [[True, False, True, False], [False, False, True, True], [True, True, False, False]]
)

# (case id, op, tensor inputs (a list for Tensor[]), attributes)
OP_CASES: list[tuple[str, str, list[Any], list[Any]]] = [
    ("embedding-padding", "embedding", [i64([[0, 3], [3, 1]]), floats(4, 3)], [3, False]),
    ("gather-axis1", "gather", [floats(3, 4), i64([2, 0, 2])], [1]),
    ("gather_nd", "gather_nd", [floats(3, 4), i64([[1, 2], [1, 2], [0, 3]])], []),
    ("gather_nd-slices", "gather_nd", [floats(3, 4), i64([[2], [0]])], []),
    ("index_select", "index_select", [floats(3, 4), i64([3, 3, 0])], [1]),
    ("scatter-overwrite", "scatter", [floats(4, 2), i64([1, 3]), floats(2, 2)], [True]),
    ("scatter-accumulate", "scatter", [floats(4, 2), i64([1, 3, 1]), floats(3, 2)], [False]),
    ("scatter_nd_add", "scatter_nd_add", [floats(3, 4), i64([[1, 2], [1, 2]]), floats(2)], []),
    ("take_along_axis", "take_along_axis", [floats(3, 4), i64([[3, 0], [1, 1], [0, 2]])], [1]),
    (
        "put_along_axis-assign",
        "put_along_axis",
        [floats(3, 4), i64([[3], [1], [0]]), floats(3, 1)],
        [1, "assign", True],
    ),
    (
        "put_along_axis-add",
        "put_along_axis",
        [floats(3, 4), i64([[3], [1], [3]]), floats(3, 1)],
        [1, "add", True],
    ),
    *[
        (
            f"put_along_axis-{reduce}-{'self' if include_self else 'no-self'}-{name}",
            "put_along_axis",
            [arr, index, values],
            [axis, reduce, include_self],
        )
        for reduce in ("assign", "add", "mul", "mean", "amin", "amax")
        for include_self in (True, False)
        for name, arr, index, values, axis in (
            # integer-valued floats: repeated positions and ties between arr and values
            (
                "ties",
                nonzero_ints(3, 5),
                i64([[1, 1, 2, 4], [0, 0, 0, 3], [3, 1, 3, 3]]),
                nonzero_ints(3, 4),
                1,
            ),
            (
                "axis0-3d",
                floats(3, 2, 4),
                i64([[[2, 0, 0, 1]], [[0, 0, 2, 2]]]).reshape(2, 1, 4),
                floats(2, 1, 4),
                0,
            ),
        )
    ],
    ("one_hot", "one_hot", [i64([[0, 2], [1, 1]])], [3]),
    ("topk", "topk", [distinct(3, 4)], [2, 0, True, True]),
    ("topk-smallest", "topk", [distinct(3, 4)], [3, -1, False, True]),
    ("topk-unsorted", "topk", [distinct(4, 9)], [5, 1, True, False]),
    ("topk-unsorted-smallest-axis0", "topk", [distinct(9, 3)], [4, 0, False, False]),
    ("topk-unsorted-ties", "topk", [ties(3, 40)], [20, -1, True, False]),
    ("topk-unsorted-smallest-ties", "topk", [ties(2, 3, 30)], [11, 2, False, False]),
    ("topk-unsorted-nan", "topk", [with_nans(2, 40)], [10, -1, True, False]),
    ("topk-unsorted-smallest-nan", "topk", [with_nans(2, 40)], [35, -1, False, False]),
    ("topk-unsorted-depth-limit", "topk", [introselect_adversary(300, 150)], [150, 0, True, False]),
    ("topk-unsorted-k64-sorts", "topk", [distinct(2, 130)], [2, -1, True, False]),
    ("argsort", "argsort", [distinct(3, 4)], [1, False, False]),
    ("argsort-descending", "argsort", [distinct(3, 4)], [0, True, True]),
    ("masked_select", "masked_select", [floats(3, 4), MASK], []),
    ("nonzero", "nonzero", [MASK], []),
    ("unique", "unique", [i64([3, 1, 3, 2, 1])], [True, True, True, [], "int64"]),
    ("slice", "slice", [floats(3, 4, 5)], [[0, 2], [1, -3], [2, 100], [1, 1], [0]]),
    ("strided_slice", "strided_slice", [floats(5, 6)], [[0, 1], [4, 0], [-6, 6], [-2, 2]]),
    (
        "set_value",
        "set_value",
        [floats(4, 3)],
        [[3, 1], [0, 2], [-2, 1], [0, 1], [1], [], [1], [1.5]],
    ),
    (
        "set_value_with_tensor",
        "set_value_with_tensor",
        [floats(4, 3), floats(3)],
        [[1], [3], [1], [0], [], []],
    ),
    ("index_put", "index_put", [floats(3, 4), [i64([0, 2]), i64([1, 3])], floats(2)], [False]),
    ("index_put-accumulate", "index_put", [floats(3, 4), [i64([0, 0])], floats(4)], [True]),
]


def _phi_attr(value: Any) -> Any:
    return phi.DataType.INT64 if value == "int64" else value


def _floats_of(result: Any) -> list[Any]:
    outs = list(result) if isinstance(result, (list, tuple)) else [result]
    return [
        o for o in outs if o is not None and np.issubdtype(np.asarray(o.numpy()).dtype, np.floating)
    ]


def _run(module: Any, make: Callable[..., Any], op: str, inputs: list[Any], attrs: list[Any]):
    """Forward outputs, and gradients of sum(out * w) for every float input."""
    tensors = [
        [make(a, True) for a in value] if isinstance(value, list) else make(value, False)
        for value in inputs
    ]
    fn = getattr(phi, op) if module is phi else getattr(paddle._C_ops, op)
    result = fn(*tensors, *(attrs if module is not phi else [_phi_attr(a) for a in attrs]))
    outs = list(result) if isinstance(result, (list, tuple)) else [result]
    forward = [None if o is None else o.numpy() for o in outs]
    floats_out = _floats_of(result)
    grads = []
    leaves = [t for t in tensors if not isinstance(t, list) and not t.stop_gradient]
    if floats_out and leaves:
        loss = sum(
            (o * make(np.linspace(0.5, 1.5, o.numpy().size).reshape(o.numpy().shape), True)).sum()
            for o in floats_out
        )
        loss.backward()
        grads = [t.grad.numpy() for t in leaves]
    return forward, grads


def _phi_tensor(array: np.ndarray, constant: bool) -> Any:
    floating = np.issubdtype(array.dtype, np.floating)
    return phi.to_tensor(array, stop_gradient=constant or not floating)


def _paddle_tensor(array: np.ndarray, constant: bool) -> Any:
    floating = np.issubdtype(array.dtype, np.floating)
    return paddle.to_tensor(array, stop_gradient=constant or not floating)


def _assert_same(ours: list[Any], theirs: list[Any], what: str) -> None:
    assert len(ours) == len(theirs), what
    for position, (a, b) in enumerate(zip(ours, theirs)):
        if a is None:
            continue
        assert a.shape == b.shape, f"{what} {position}: shape {a.shape} vs {b.shape}"
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12, err_msg=f"{what} {position}")


@pytest.mark.parametrize("case", OP_CASES, ids=[c[0] for c in OP_CASES])
def test_op_matches_paddle_forward_and_gradient(case) -> None:
    _, op, inputs, attrs = case
    ours, our_grads = _run(phi, _phi_tensor, op, inputs, attrs)
    theirs, their_grads = _run(paddle, _paddle_tensor, op, inputs, attrs)
    if op == "unique":
        theirs = [t for t, o in zip(theirs, ours) if o is not None]
        ours = [o for o in ours if o is not None]
    _assert_same(ours, theirs, "output")
    _assert_same(our_grads, their_grads, "gradient")


# -- Tensor indexing -----------------------------------------------------------------------------

# Each index is built per framework by ``T`` (a numpy array -> that framework's tensor).
GET_CASES: list[tuple[str, tuple[int, ...], Callable[[Callable], Any]]] = [
    ("int", (2, 3, 4), lambda T: 1),
    ("negative-int-reversed", (2, 3, 4), lambda T: (-1, slice(None, None, -2))),
    ("slices", (2, 3, 4), lambda T: (slice(1, 100), slice(-100, 2))),
    ("empty-slice", (2, 3, 4), lambda T: slice(2, 1)),
    ("strided", (4, 5), lambda T: (slice(None, None, 2), slice(4, 0, -3))),
    ("ellipsis-none", (2, 3, 4), lambda T: (Ellipsis, None)),
    ("middle-ellipsis", (2, 3, 4), lambda T: (0, Ellipsis, 1)),
    ("none-front", (2, 3), lambda T: (None, 1)),
    ("list", (3, 4), lambda T: [2, 0, 2]),
    ("list-axis1", (2, 3, 4), lambda T: (slice(None), [2, 0])),
    ("negative-list", (3, 4), lambda T: [-1, 0]),
    ("int-tensor-2d", (3, 4), lambda T: T(np.array([[0, 1], [2, 2]]))),
    ("0d-int-tensor", (3, 4), lambda T: T(np.array(1))),
    ("two-lists-separated", (2, 3, 4), lambda T: ([0, 1], slice(None), [1, 2])),
    ("two-lists-adjacent", (2, 3, 4), lambda T: (slice(None), [0, 1], [1, 2])),
    ("int-and-list", (2, 3, 4), lambda T: (1, [0, 2])),
    ("slice-list-slice", (2, 3, 4), lambda T: (slice(1, None), [0, 2], slice(1, 3))),
    ("bool-list", (2, 3), lambda T: [True, False]),
    ("mask-full", (3, 4), lambda T: T(MASK)),
    ("mask-leading", (3, 4, 2), lambda T: T(MASK)),
    ("mask-axis1", (2, 3), lambda T: (slice(None), T(np.array([True, False, True])))),
    ("python-true", (2, 3), lambda T: True),
]

SET_CASES: list[tuple[str, tuple[int, ...], Callable[[Callable], Any], Any]] = [
    ("int-scalar", (2, 3, 4), lambda T: 1, 5.0),
    ("column-tensor", (3, 4), lambda T: (slice(None), 1), (3,)),
    ("negative-step-broadcast", (2, 3, 4), lambda T: (0, slice(None, None, -2)), (4,)),
    ("none", (2, 3), lambda T: (None, 0), 3.0),
    ("ellipsis", (2, 3, 4), lambda T: (Ellipsis, 1), (3,)),
    ("whole", (2, 3), lambda T: slice(None), (3,)),
    ("mask-scalar", (3, 4), lambda T: T(MASK), 0.0),
    ("mask-tensor", (3, 4), lambda T: T(MASK), (6,)),
    ("list", (3, 4), lambda T: [2, 0], (4,)),
    ("list-axis1", (3, 4), lambda T: (slice(None), [0, 2]), (3, 1)),
    ("two-lists", (3, 4), lambda T: ([0, 2], [1, 3]), ()),
]


def _get(make: Callable, to: Callable, shape: tuple[int, ...], index: Callable) -> tuple:
    x = make(np.arange(float(np.prod(shape))).reshape(shape) * 0.5 - 1, False)
    y = x[index(to)]
    weights = np.linspace(0.5, 1.5, int(np.prod(y.shape))).reshape(y.shape)
    (y * make(weights, True)).sum().backward()
    return y.numpy(), x.grad.numpy()


@pytest.mark.parametrize("case", GET_CASES, ids=[c[0] for c in GET_CASES])
def test_getitem_matches_paddle_forward_and_gradient(case) -> None:
    _, shape, index = case
    ours = _get(_phi_tensor, phi.to_tensor, shape, index)
    theirs = _get(_paddle_tensor, paddle.to_tensor, shape, index)
    _assert_same(list(ours), list(theirs), "x[index] and x.grad")


ADVANCED_WRITES = ("mask-tensor", "list", "list-axis1", "two-lists")


def _set(make: Callable, to: Callable, shape: tuple[int, ...], index: Callable, value: Any):
    x = make(np.arange(float(np.prod(shape))).reshape(shape) * 0.5 - 1, False)
    y = x * 1.0
    if isinstance(value, tuple):
        v = make(np.linspace(-1, 1, int(np.prod(value))).reshape(value), False)
        y[index(to)] = v
    else:
        v = None
        y[index(to)] = value
    weights = np.linspace(0.5, 1.5, int(np.prod(shape))).reshape(shape)
    (y * make(weights, True)).sum().backward()
    grads = [x.grad.numpy()] + ([] if v is None else [v.grad.numpy()])
    return [y.numpy()] + grads


@pytest.mark.parametrize("case", SET_CASES, ids=[c[0] for c in SET_CASES])
def test_setitem_matches_paddle_forward_and_gradient(case) -> None:
    _, shape, index, value = case
    ours = _set(_phi_tensor, phi.to_tensor, shape, index, value)
    theirs = _set(_paddle_tensor, paddle.to_tensor, shape, index, value)
    if case[0] not in ADVANCED_WRITES:
        _assert_same(ours, theirs, "x after the write, x.grad, value.grad")
        return
    _assert_same(ours[:2], theirs[:2], "x after the write, x.grad")
    # PaddlePaddle 3.3.1 returns uninitialised memory as value.grad after an index_put write
    # with a broadcast value; the reference is the weights at the written positions, summed.
    weights = np.linspace(0.5, 1.5, int(np.prod(shape))).reshape(shape)
    picked = weights[index(np.asarray)]
    extra = picked.ndim - len(value)
    axes = tuple(range(extra)) + tuple(
        extra + i for i, n in enumerate(value) if n == 1 and picked.shape[extra + i] != 1
    )
    expected = picked.sum(axis=axes, keepdims=True).reshape(value)
    np.testing.assert_allclose(ours[2], expected, rtol=1e-12, atol=1e-12)


def test_iteration_matches_paddle() -> None:
    x = np.arange(6.0).reshape(3, 2)
    ours = [row.numpy() for row in phi.to_tensor(x)]
    theirs = [row.numpy() for row in paddle.to_tensor(x)]
    _assert_same(ours, theirs, "row")


def test_out_of_range_int_is_an_index_error_in_both() -> None:
    with pytest.raises(IndexError):
        paddle.to_tensor(np.zeros((2, 3)))[5]
    with pytest.raises(IndexError, match="index 5 is out of range for axis 0 with size 2"):
        phi.to_tensor(np.zeros((2, 3)))[5]
