"""Gradient-check cases of the lookup, indexing and slicing ops and of Tensor indexing.

``INDEXING_CASES`` holds ``(ops, label, fn, inputs, options)`` tuples, which
tests/autograd/test_gradcheck_ops.py turns into its ``Case`` objects (this module cannot import
them: that module imports this one). Index arguments are constants inside ``fn``; float inputs
are the differentiable ones. Sorting inputs have distinct values, so finite differences do not
reorder them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import phiops.generated as phi


def _uniform(shape: tuple[int, ...], seed: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-2.0, 2.0, size=shape)


def _distinct(shape: tuple[int, ...], seed: int) -> np.ndarray:
    size = int(np.prod(shape))
    return (np.random.default_rng(seed).permutation(size) * 0.1 + 0.05).reshape(shape)


def _i(values: Any) -> phi.Tensor:
    return phi.to_tensor(np.asarray(values, dtype=np.int64))


def _written(index: Any) -> Any:
    """``x * 1`` (not a leaf) with ``value`` written at ``index``; gradients reach both."""

    def fn(x: phi.Tensor, value: phi.Tensor) -> phi.Tensor:
        y = phi.scale(x, 1.0)
        y[index] = value
        return y

    return fn


def _written_scalar(index: Any) -> Any:
    def fn(x: phi.Tensor) -> phi.Tensor:
        y = phi.scale(x, 1.0)
        y[index] = 0.5
        return y

    return fn


MASK = np.array(
    [[True, False, True, False], [False, False, True, True], [True, True, False, False]]
)

Case = tuple[tuple[str, ...], str, Any, tuple[np.ndarray, ...], dict[str, Any]]

INDEXING_CASES: list[Case] = [
    (
        ("embedding",),
        "[2,3]ids-padding",
        lambda w: phi.embedding(_i([[0, 3], [3, 1]]), w, 1),
        (_uniform((4, 3), 1),),
        {},
    ),
    (
        ("gather",),
        "axis1-repeated",
        lambda x: phi.gather(x, _i([2, 0, 2]), 1),
        (_uniform((3, 4), 2),),
        {},
    ),
    (
        ("gather_nd",),
        "[2,2]",
        lambda x: phi.gather_nd(x, _i([[1, 2], [1, 2]])),
        (_uniform((3, 4), 3),),
        {},
    ),
    (
        ("index_select",),
        "axis0",
        lambda x: phi.index_select(x, _i([1, 1, 0]), 0),
        (_uniform((3, 4), 4),),
        {},
    ),
    (
        ("scatter",),
        "overwrite",
        lambda x, u: phi.scatter(x, _i([2, 0]), u),
        (_uniform((3, 2), 5), _uniform((2, 2), 6)),
        {},
    ),
    (
        ("scatter",),
        "accumulate",
        lambda x, u: phi.scatter(x, _i([2, 0]), u, False),
        (_uniform((3, 2), 7), _uniform((2, 2), 8)),
        {},
    ),
    (
        ("scatter_nd_add",),
        "repeated",
        lambda x, u: phi.scatter_nd_add(x, _i([[1, 2], [1, 2], [0, 0]]), u),
        (_uniform((3, 4), 9), _uniform((3,), 10)),
        {},
    ),
    (
        ("take_along_axis",),
        "axis1",
        lambda a: phi.take_along_axis(a, _i([[3, 0], [1, 1], [0, 2]]), 1),
        (_uniform((3, 4), 11),),
        {},
    ),
    (
        ("put_along_axis",),
        "assign",
        lambda a, v: phi.put_along_axis(a, _i([[3], [1], [0]]), v, 1),
        (_uniform((3, 4), 12), _uniform((3, 1), 13)),
        {},
    ),
    (
        ("put_along_axis",),
        "add",
        lambda a, v: phi.put_along_axis(a, _i([[3], [1], [3]]), v, 1, "add"),
        (_uniform((3, 4), 14), _uniform((3, 1), 15)),
        {},
    ),
    *[
        (
            ("put_along_axis",),
            f"{reduce}-{'self' if include_self else 'no-self'}",
            # repeated positions (1, 1 and 0, 0, 0); distinct nonzero values, so no ties
            lambda a, v, reduce=reduce, include_self=include_self: phi.put_along_axis(
                a, _i([[1, 1, 3], [0, 0, 0], [2, 1, 3]]), v, 1, reduce, include_self
            ),
            (_distinct((3, 4), 40 + seed), _distinct((3, 3), 50 + seed) + 0.02),
            {},
        )
        for seed, (reduce, include_self) in enumerate(
            (r, s) for r in ("mul", "mean", "amin", "amax") for s in (True, False)
        )
    ],
    (("topk",), "k2-axis0", lambda x: phi.topk(x, 2, 0)[0], (_distinct((3, 4), 16),), {}),
    (
        ("argsort",),
        "descending",
        lambda x: phi.argsort(x, 1, True)[0],
        (_distinct((3, 4), 17),),
        {},
    ),
    (
        ("masked_select",),
        "broadcast-mask",
        lambda x: phi.masked_select(x, phi.to_tensor(MASK[0])),
        (_uniform((3, 4), 18),),
        {},
    ),
    (
        ("slice",),
        "decrease",
        lambda x: phi.slice(x, [0, 1], [1, -3], [2, 4], [1, 1], [0]),
        (_uniform((3, 4), 19),),
        {},
    ),
    (
        ("strided_slice",),
        "negative-step",
        lambda x: phi.strided_slice(x, [0, 1], [2, 0], [-4, 4], [-2, 3]),
        (_uniform((3, 4), 20),),
        {},
    ),
    (
        ("set_value",),
        "scalar",
        lambda x: phi.set_value(x, [0], [3], [2], [1], [], [], [1], [1.5]),
        (_uniform((3, 4), 21),),
        {},
    ),
    (
        ("set_value_with_tensor",),
        "broadcast",
        lambda x, v: phi.set_value_with_tensor(x, v, [1], [3], [1], [0], [], []),
        (_uniform((3, 4), 22), _uniform((4,), 23)),
        {},
    ),
    (
        ("index_put",),
        "assign",
        lambda x, v: phi.index_put(x, [_i([0, 2]), _i([1, 3])], v),
        (_uniform((3, 4), 24), _uniform((2,), 25)),
        {},
    ),
    (
        ("index_put",),
        "accumulate-broadcast",
        lambda x, v: phi.index_put(x, [_i([0, 0])], v, True),
        (_uniform((3, 4), 26), _uniform((4,), 27)),
        {},
    ),
    # Tensor indexing: reads and writes through the ops above.
    (("slice",), "x[1,1:3]", lambda x: x[1, 1:3], (_uniform((3, 4), 30),), {}),
    (
        ("strided_slice",),
        "x[::-2,...,None]",
        lambda x: x[::-2, ..., None],
        (_uniform((3, 4), 31),),
        {},
    ),
    (("index_select",), "x[:,[3,0,3]]", lambda x: x[:, [3, 0, 3]], (_uniform((3, 4), 32),), {}),
    (("masked_select",), "x[mask]", lambda x: x[phi.to_tensor(MASK)], (_uniform((3, 4), 33),), {}),
    (
        ("gather_nd",),
        "x[[0,2],1:,[1,0]]",
        lambda x: x[[0, 2], 1:, [1, 0]],
        (_uniform((3, 2, 2), 34),),
        {},
    ),
    (("set_value",), "y[:,1]=0.5", _written_scalar((slice(None), 1)), (_uniform((3, 4), 35),), {}),
    (
        ("set_value_with_tensor",),
        "y[1:,None,::2]=v",
        _written((slice(1, None), None, slice(None, None, 2))),
        (_uniform((3, 4), 36), _uniform((2,), 37)),
        {},
    ),
    (
        ("index_put",),
        "y[mask]=v",
        _written(phi.to_tensor(MASK)),
        (_uniform((3, 4), 38), _uniform((), 39)),
        {},
    ),
    (
        ("index_put",),
        "y[:,[0,2]]=v",
        _written((slice(None), [0, 2])),
        (_uniform((3, 4), 40), _uniform((3, 1), 41)),
        {},
    ),
]
