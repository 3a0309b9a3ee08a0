"""`help(phiops.optimizer.Adam)` and IDEs show the optimizers' real parameters, named and ordered
as PaddlePaddle 3.3.1's (tests/data/paddle_api_3_3_1.json)."""

from __future__ import annotations

import inspect

import pytest

import phiops
from tests import paddle_api

# phiops's AdamW also takes use_multi_tensor (as PaddlePaddle's Adam does), after name
EXTRA = {"AdamW": ["use_multi_tensor"]}


@pytest.mark.parametrize("name", ["SGD", "Momentum", "Adam", "AdamW"])
def test_an_optimizer_shows_paddles_parameters(name: str) -> None:
    ours = inspect.signature(getattr(phiops.optimizer, name)).parameters
    kinds = {p.kind for p in ours.values()}
    assert inspect.Parameter.VAR_POSITIONAL not in kinds
    assert inspect.Parameter.VAR_KEYWORD not in kinds
    theirs = [p["name"] for p in paddle_api.parameters(f"paddle.optimizer.{name}")]
    assert list(ours) == theirs + EXTRA.get(name, [])
