"""Calls of the ``paddle.*`` functions and Tensor methods whose phiops signature used to differ
from PaddlePaddle 3.3.1's in a way that gave another result without an error (``flatten_``'s
axes, ``cumsum_``'s flattening, ``tril_``'s diagonal, ``unique``'s defaults, ...). Each call is
written once against a module ``p`` and a tensor maker ``t``: tests/tools/make_signature_values.py
runs them with PaddlePaddle and records the results in tests/data/paddle_api/signature_values.json,
tests/api/test_signature_values.py runs them with phiops and compares.

An in-place call returns ``[result, x]``, so that both what it returns and what it left in ``x``
are compared.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 7.5
M = np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], dtype=np.float32)
I32 = np.array([[1, -2, 3], [4, 5, -6]], dtype=np.int32)
COND = np.array([[True, False, True], [False, False, True]])
P = np.array([0.0, 0.3, 1.0], dtype=np.float32)
U = np.array([3, 1, 2, 3, 1], dtype=np.int64)


def in_place(x: Any, call: Callable[[Any], Any]) -> list[Any]:
    """What the in-place ``call`` returns, and ``x`` after it."""
    return [call(x), x]


Call = Callable[[Any, Callable[[np.ndarray], Any]], Any]
CASES: list[tuple[str, Call]] = [
    ("flatten_", lambda p, t: in_place(t(X), lambda x: p.flatten_(x))),
    ("flatten_-method", lambda p, t: in_place(t(X), lambda x: x.flatten_())),
    ("cumsum_", lambda p, t: in_place(t(I32), lambda x: p.cumsum_(x))),
    ("cumsum_-dtype", lambda p, t: in_place(t(I32), lambda x: x.cumsum_(1, dtype="int64"))),
    ("cumprod_", lambda p, t: in_place(t(M), lambda x: p.cumprod_(x))),
    ("cumprod_-dim", lambda p, t: in_place(t(M), lambda x: x.cumprod_(0))),
    ("squeeze_", lambda p, t: in_place(t(X[:1, :1]), lambda x: p.squeeze_(x))),
    ("unsqueeze_", lambda p, t: in_place(t(M), lambda x: x.unsqueeze_(-1))),
    ("tril_", lambda p, t: in_place(t(M), lambda x: p.tril_(x))),
    ("triu_", lambda p, t: in_place(t(M), lambda x: x.triu_())),
    ("pow_", lambda p, t: in_place(t(M), lambda x: x.pow_(3))),
    ("where_", lambda p, t: in_place(t(M), lambda x: p.where_(t(COND), x, t(-M)))),
    ("add_-alpha", lambda p, t: in_place(t(M), lambda x: x.add_(t(M[::-1]), alpha=2))),
    ("subtract_-alpha", lambda p, t: in_place(t(M), lambda x: p.subtract_(x, t(M), alpha=0.5))),
    (
        "divide_-floor",
        lambda p, t: in_place(t(M - 2), lambda x: x.divide_(t(M * 0 + 2), rounding_mode="floor")),
    ),
    (
        "divide_-trunc",
        lambda p, t: in_place(
            t(M - 2), lambda x: p.divide_(x, t(M * 0 + 2), rounding_mode="trunc")
        ),
    ),
    ("unique", lambda p, t: p.unique(t(U))),
    ("unique-method", lambda p, t: t(U).unique()),
    ("unique-index", lambda p, t: p.unique(t(U), return_index=True)),
    ("unique-all", lambda p, t: p.unique(t(U), True, True, True)),
    ("nonzero", lambda p, t: p.nonzero(t(COND))),
    ("nonzero-tuple", lambda p, t: p.nonzero(t(COND), as_tuple=True)),
    ("logit", lambda p, t: p.logit(t(P))),
    ("logit-method", lambda p, t: t(P).logit()),
    ("take_along_axis", lambda p, t: p.take_along_axis(t(M), t(np.array([[0, 1]])), 1)),
    ("put_along_axis", lambda p, t: p.put_along_axis(t(M), t(np.array([[0, 1]])), 9.0, 1)),
    ("slice", lambda p, t: p.slice(t(X), [0, 2], [1, 1], [2, 3])),
    ("layer_norm", lambda p, t: p.layer_norm(t(X), [3, 4])),
    ("group_norm", lambda p, t: p.group_norm(t(X.reshape(2, 4, 3, 1)), 2)),
    (
        "conv2d",
        lambda p, t: p.conv2d(t(X.reshape(1, 2, 3, 4)), t(M.reshape(1, 2, 3, 1)), padding=1),
    ),
    ("meshgrid", lambda p, t: p.meshgrid(t(np.arange(2)), t(np.arange(3)))),
    ("assign-output", lambda p, t: p.assign(t(M), p.zeros([2, 3]))),
    ("assign-float", lambda p, t: p.assign(2.5)),
    ("diag-padding", lambda p, t: p.diag(t(np.array([1, 2])), padding_value=7)),
    ("astype", lambda p, t: t(M).astype("int32")),
    ("bmm-method", lambda p, t: t(X[:, :2, :3]).bmm(t(X[:, :3, :2]))),
]
