"""The sparse ops issue 28 moved onto ops/sparse_ops.yaml (binary, products, shape ops, softmax,
conversions): for each, inputs of each kind its kernels take and the numpy function of the
dense inputs it equals. tests/sparse/test_sparse28_ops.py runs them through the generated
functions (``sparse_op_api``), and tests/sparse/test_sparsegen_ops.py checks that every
forward op of the spec has a reference here or in its own table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

A = np.array([[0.0, 1.5, 0.0, -2.0], [0.5, 0.0, 0.0, 0.0], [0.0, -1.0, 3.0, 0.0]])
B = np.array([[1.0, 0.0, 0.0, 2.0], [0.0, 0.0, -0.5, 0.0], [0.0, 2.5, 0.0, 1.0]])
# nonzero everywhere: a divisor
D = np.array([[1.0, 2.0, -1.5, 0.5], [2.0, -1.0, 1.25, 4.0], [0.75, 1.5, -2.0, 1.0]])
Y = np.array([[0.5, -1.0], [1.0, 2.0], [-0.5, 0.25], [1.5, 1.0]])  # dense right operand
V = np.array([1.0, -0.5, 2.0, 0.25])  # a vector over A's columns
M = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]])  # a mask of A @ A.T's shape


@dataclass(frozen=True)
class Case:
    """One call: the arguments (``"coo:A"``, ``"csr:A"``, ``"dense:Y"`` or a plain value), the
    numpy function of the dense arrays it equals, the kind of its result, and the arguments a
    gradient check perturbs (their positions)."""

    args: tuple[Any, ...]
    reference: Callable[..., np.ndarray]
    out_kind: str
    grads: tuple[int, ...] = ()


C = np.array([[1.0, 0.0], [0.0, -2.0], [0.5, 1.0]])  # an addend of A @ Y's shape
ARRAYS = {"A": A, "B": B, "D": D, "Y": Y, "V": V, "M": M, "C": C, "AT": A.T.copy(), "BB": B @ B.T}


def _softmax_of_stored(x: np.ndarray) -> np.ndarray:
    """The softmax of each row's nonzero entries (the absent ones left zero)."""
    stored = x != 0
    shifted = np.where(stored, np.exp(x - np.where(stored, x, -np.inf).max(-1, keepdims=True)), 0)
    return shifted / shifted.sum(-1, keepdims=True)


# op -> its cases, one per kernel it has at least
CASES: dict[str, tuple[Case, ...]] = {
    "add": (
        Case(("coo:A", "coo:B"), np.add, "coo", (0, 1)),
        Case(("csr:A", "csr:B"), np.add, "csr", (0, 1)),
    ),
    "subtract": (
        Case(("coo:A", "coo:B"), np.subtract, "coo", (0, 1)),
        Case(("csr:A", "csr:B"), np.subtract, "csr", (0, 1)),
    ),
    "multiply": (
        Case(("coo:A", "coo:B"), np.multiply, "coo", (0, 1)),
        Case(("csr:A", "csr:B"), np.multiply, "csr", (0, 1)),
    ),
    "divide": (
        Case(("coo:A", "coo:D"), np.divide, "coo", (0, 1)),
        Case(("csr:A", "csr:D"), np.divide, "csr", (0, 1)),
    ),
    "matmul": (
        Case(("coo:A", "dense:Y"), np.matmul, "dense", (0, 1)),
        Case(("coo:A", "coo:AT"), np.matmul, "coo", (0, 1)),
        Case(("csr:A", "csr:AT"), np.matmul, "csr", (0, 1)),
        Case(("csr:A", "dense:Y"), np.matmul, "dense", (0, 1)),
    ),
    "masked_matmul": (
        Case(("dense:A", "dense:AT", "csr:M"), lambda x, y, m: (x @ y) * (m != 0), "csr", (0, 1)),
    ),
    "addmm": (
        Case(
            ("dense:C", "csr:A", "dense:Y", 2.0, 0.5),
            lambda i, x, y, b, a: b * i + a * (x @ y),
            "dense",
        ),
        Case(
            ("coo:BB", "coo:A", "coo:AT", 2.0, 0.5),
            lambda i, x, y, b, a: b * i + a * (x @ y),
            "coo",
        ),
        Case(
            ("csr:BB", "csr:A", "csr:AT", 2.0, 0.5),
            lambda i, x, y, b, a: b * i + a * (x @ y),
            "csr",
        ),
        Case(
            ("dense:C", "coo:A", "dense:Y", 2.0, 0.5),
            lambda i, x, y, b, a: b * i + a * (x @ y),
            "dense",
            (0, 1, 2),
        ),
    ),
    "mv": (
        Case(("csr:A", "dense:V"), np.matmul, "dense"),
        Case(("coo:A", "dense:V"), np.matmul, "dense", (0, 1)),
    ),
    "transpose": (
        Case(("coo:A", [1, 0]), lambda x, p: x.transpose(p), "coo"),
        Case(("csr:A", [1, 0]), lambda x, p: x.transpose(p), "csr", (0,)),
    ),
    "reshape": (
        Case(("csr:A", [2, 6]), lambda x, s: x.reshape(s), "csr"),
        Case(("coo:A", [6, -1]), lambda x, s: x.reshape(s), "coo", (0,)),
    ),
    "sum": (
        Case(("coo:A", [], None, False), lambda x, *_: x.sum().reshape(1), "coo"),
        Case(("csr:A", [-1], None, False), lambda x, *_: x.sum(-1, keepdims=True), "csr"),
        Case(("coo:A", [0], None, False), lambda x, *_: x.sum(0), "coo", (0,)),
    ),
    "slice": (
        Case(("csr:A", [0, 1], [0, 1], [2, 3]), lambda x, *_: x[0:2, 1:3], "csr"),
        Case(("coo:A", [1], [1], [-1]), lambda x, *_: x[:, 1:3], "coo", (0,)),
    ),
    "softmax": (
        Case(("coo:A", -1), lambda x, _: _softmax_of_stored(x), "coo"),
        Case(("csr:A", -1), lambda x, _: _softmax_of_stored(x), "csr", (0,)),
    ),
    "to_dense": (
        Case(("csr:A",), lambda x: x, "dense"),
        Case(("coo:A",), lambda x: x, "dense", (0,)),
    ),
    # from dense: the kernel its output's kind selects (dense_to_csr)
    "to_sparse_csr": (
        Case(("dense:A",), lambda x: x, "csr"),
        Case(("coo:A",), lambda x: x, "csr"),
    ),
    "values": (
        Case(("csr:A",), lambda x: x[x != 0], "dense"),
        Case(("coo:A",), lambda x: x[x != 0], "dense", (0,)),
    ),
    "coalesce": (Case(("coo:A",), lambda x: x, "coo"),),
    "mask_as": (
        Case(("dense:D", "csr:A"), lambda x, m: np.where(m != 0, x, 0.0), "csr"),
        Case(("dense:D", "coo:A"), lambda x, m: np.where(m != 0, x, 0.0), "coo", (0,)),
    ),
}


def reference_of(case: Case) -> np.ndarray:
    """The numpy result of ``case`` on its dense arrays."""
    arrays = [ARRAYS[a.split(":")[1]] if isinstance(a, str) else a for a in case.args]
    return case.reference(*arrays)
