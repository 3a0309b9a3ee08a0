"""F.cross_entropy (weight, label_smoothing, ignore_index, soft labels, axis, use_softmax, each
reduction) and the legacy F.softmax_with_cross_entropy give PaddlePaddle 3.3.1's losses, shapes
and logits' gradients (tests/data/cross_entropy, recorded by
tests/tools/make_cross_entropy_fixtures.py from tests/nn/cross_entropy_cases.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError
from tests.nn.cross_entropy_cases import CASES, LEGACY, LOGITS, HARD, SOFT, run

DATA = np.load(Path(__file__).resolve().parents[1] / "data" / "cross_entropy" / "paddle_3_3_1.npz")


def _check(prefix: str, name: str, got: dict) -> None:
    keys = sorted(k.split("/")[2] for k in DATA.files if k.startswith(f"{prefix}/{name}/"))
    assert sorted(got) == keys
    for key in keys:
        expected = DATA[f"{prefix}/{name}/{key}"]
        assert got[key].shape == expected.shape and got[key].dtype == expected.dtype, key
        np.testing.assert_allclose(got[key], expected, rtol=2e-5, atol=2e-6, err_msg=key)


def test_recorded() -> None:
    assert str(DATA["paddle_version"]) == "3.3.1"


@pytest.mark.parametrize("name", sorted(CASES))
def test_cross_entropy_as_paddle(name: str) -> None:
    _check("ce", name, run(paddle, CASES[name], legacy=False))


@pytest.mark.parametrize("name", sorted(LEGACY))
def test_softmax_with_cross_entropy_as_paddle(name: str) -> None:
    _check("legacy", name, run(paddle, LEGACY[name], legacy=True))


def test_bad_arguments_are_named() -> None:
    F = paddle.nn.functional
    x, y = paddle.to_tensor(LOGITS), paddle.to_tensor(HARD)
    with pytest.raises(InvalidArgumentError, match="reduction"):
        F.cross_entropy(x, y, reduction="avg")
    with pytest.raises(InvalidArgumentError, match="ignore_index must be -100"):
        F.cross_entropy(x, paddle.to_tensor(SOFT), soft_label=True, ignore_index=2)
    with pytest.raises(InvalidArgumentError, match="class dimension"):
        F.cross_entropy(x, y, weight=paddle.to_tensor([1.0, 2.0]))
    with pytest.raises(InvalidArgumentError, match="rank"):
        F.cross_entropy(x, paddle.to_tensor(np.zeros((5, 1, 1), np.int64)))
    with pytest.raises(InvalidArgumentError, match="at least one dimension"):
        F.cross_entropy(paddle.to_tensor(1.0), y)
