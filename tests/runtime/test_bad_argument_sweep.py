"""A sweep of bad arguments over every op in the registry: each call either works or raises one
of phiops's own errors naming the op (never a TypeError, OverflowError, MemoryError or
AxisError from numpy or Python inside a kernel)."""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import pytest

import generated as phi
from generated.registry import OPS
from runtime.errors import PhiError

BAD_VALUES: dict[str, Any] = {
    "a string": "bad",
    "a huge int": 10**400,
    "an int beyond int64": 2**70,
    "NaN": float("nan"),
    "a huge size list": [10**12, 10**12],
    "a complex": 1 + 2j,
    "None": None,
    "an object": object(),
}


def _tensor() -> phi.Tensor:
    return phi.to_tensor(np.ones((2, 3), "float32"))


def _baseline(function: Any) -> list[Any]:
    """Positional arguments for ``function``: float32 [2, 3] tensors for tensor parameters,
    defaults for the rest, 0 for required attributes."""
    values = []
    for parameter in inspect.signature(function).parameters.values():
        if parameter.name == "name":
            break
        annotation = str(parameter.annotation)
        if "list[Tensor]" in annotation:
            values.append([_tensor(), _tensor()])
        elif "Tensor" in annotation and parameter.default is inspect.Parameter.empty:
            values.append(_tensor())
        elif parameter.default is not inspect.Parameter.empty:
            values.append(parameter.default)
        else:
            values.append([2, 3] if "IntArray" in annotation else 0)
    return values


CASES = [
    pytest.param(op, position, label, id=f"{op}-{position}-{label}")
    for op in sorted(OPS)
    if hasattr(phi, op)
    for position in range(len(_baseline(getattr(phi, op))))
    for label in BAD_VALUES
]


@pytest.mark.parametrize("op, position, label", CASES)
def test_a_bad_argument_gives_a_phiops_error_naming_the_op(
    op: str, position: int, label: str
) -> None:
    function = getattr(phi, op)
    arguments = _baseline(function)
    arguments[position] = BAD_VALUES[label]
    try:
        function(*arguments)
    except PhiError as error:
        assert f"{op}" in str(error), f"{op}: {type(error).__name__}: {error}"
        assert error.__suppress_context__ or error.__context__ is None, f"{op}: chained error"
