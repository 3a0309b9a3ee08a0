"""Every name of ``phiops.io`` takes PaddlePaddle 3.3.1's parameters (names, order, kinds and
defaults; tests/data/paddle_api_3_3_1.json), has a docstring, and is the runtime's object."""

from __future__ import annotations

import pytest

import phiops.io
import phiops.runtime.io
from tests import paddle_api


@pytest.mark.parametrize("name", phiops.io.__all__)
def test_a_name_has_paddles_signature(name: str) -> None:
    ours = getattr(phiops.io, name)
    assert paddle_api.parameters_of(ours) == paddle_api.parameters(f"paddle.io.{name}")


@pytest.mark.parametrize("name", phiops.io.__all__)
def test_a_name_has_a_docstring_and_is_the_runtimes(name: str) -> None:
    ours = getattr(phiops.io, name)
    assert (ours.__doc__ or "").strip()
    assert ours is getattr(phiops.runtime.io, name)


def test_phiops_io_has_every_name_of_paddle_io() -> None:
    assert sorted(phiops.io.__all__) == sorted(paddle_api.load()["modules"]["paddle.io"]["names"])
