"""Every method PaddlePaddle 3.3.1's Tensor has for the ops phiops defines exists on phiops's
Tensor and gives PaddlePaddle's result on a sample call (tests/data/paddle_tensor_methods.json,
written by tests/tools/list_paddle_tensor_methods.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import phiops.generated as phi

DATA = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "paddle_tensor_methods.json").read_text()
)
METHODS = {entry["name"]: entry for entry in DATA["methods"]}
SAMPLED = sorted(name for name, entry in METHODS.items() if "expected" in entry)

# Methods whose PaddlePaddle Python signature differs from the PHI op's (phiops's method is the
# op): the sample call PaddlePaddle answers fails or differs here. Strict xfail: fixing one
# makes its test pass, and the name must then leave this list.
SIGNATURE_DIFFERS: dict[str, str] = {}


def _tensor(value: Any) -> Any:
    if isinstance(value, dict):
        return phi.to_tensor(np.asarray(value["tensor"], dtype=value["dtype"]))
    if isinstance(value, list) and value and isinstance(value[0], dict):
        return [_tensor(v) for v in value]
    return value


def _check(got: Any, expected: dict, name: str) -> None:
    if "many" in expected:
        assert isinstance(got, (list, tuple)) and len(got) == len(expected["many"]), name
        for item, want in zip(got, expected["many"]):
            _check(item, want, name)
        return
    if "array" in expected:
        array = got.numpy() if isinstance(got, phi.Tensor) else np.asarray(got)
        assert list(array.shape) == expected["shape"], f"{name}: shape"
        if isinstance(got, phi.Tensor):
            assert str(array.dtype) == expected["dtype"], f"{name}: dtype"
        np.testing.assert_allclose(
            array.astype(np.float64), np.asarray(expected["array"], dtype=np.float64), rtol=1e-6
        )
        return
    want = expected["value"]
    if isinstance(got, phi.DataType):
        assert got.name.lower() in str(want).lower(), name
    else:
        assert got == want, f"{name}: {got!r} != {want!r}"


def test_the_list_covers_the_ops_phiops_defines() -> None:
    assert DATA["paddle"] == "3.3.1"
    assert len(METHODS) >= 150
    assert {"T", "clone", "sum", "reshape", "add_", "astype", "zero_", "matmul"} <= set(METHODS)


@pytest.mark.parametrize("name", sorted(METHODS))
def test_paddle_tensor_method_exists(name: str) -> None:
    assert hasattr(phi.Tensor, name)


@pytest.mark.parametrize(
    "name",
    [
        (
            pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=SIGNATURE_DIFFERS[n]))
            if n in SIGNATURE_DIFFERS
            else n
        )
        for n in SAMPLED
    ],
)
def test_paddle_tensor_method_gives_paddles_result(name: str) -> None:
    entry = METHODS[name]
    x = _tensor(entry["self"])
    attribute = getattr(x, name)
    got = attribute if entry["args"] is None else attribute(*[_tensor(a) for a in entry["args"]])
    _check(got, entry["expected"], name)
    if "self_after" in entry:
        _check(x, entry["self_after"], name)
