"""The misc24c ops against PaddlePaddle 3.3.1 itself: every case tests/tools/make_misc24c_fixtures.py
records, run live on both (embedding_grad_dense against 3.3.1's EmbeddingGradKernel, weight_quantize
per algo, arch, group size and dtype, dgc_momentum against 3.3.1's static op), the recording in
tests/data/misc24c/ checked against a fresh run, each refusal refused by both, and 3.3.1's own
embedding_grad_dense refusing on CPU (why its kernel is reached through embedding_grad). Runs only
where PaddlePaddle is installed."""

from __future__ import annotations

import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops  # noqa: E402
from phiops.runtime.errors import PhiError  # noqa: E402
from tests.ops.test_misc24c_paddle import RECORDED, assert_outs_match  # noqa: E402
from tests.tools.make_misc24c_fixtures import cases, refuse, refusals, run  # noqa: E402

CASES = cases()
REFUSALS = refusals()


@pytest.mark.parametrize("key", sorted(CASES))
def test_phiops_equals_paddle_live(key: str) -> None:
    assert_outs_match(run(phiops, CASES[key]), run(paddle, CASES[key]), key)


@pytest.mark.parametrize("key", sorted(CASES))
def test_the_recording_is_what_paddle_gives_now(key: str) -> None:
    assert_outs_match(run(paddle, CASES[key]), RECORDED[key]["outs"], key)


@pytest.mark.parametrize("key", sorted(REFUSALS))
def test_both_refuse(key: str) -> None:
    error = str(refuse(paddle, REFUSALS[key])).strip().splitlines()[0]
    assert error == RECORDED[f"refused-{key}"]["error"]
    if key != "embedding_grad_dense-direct":
        assert isinstance(refuse(phiops, REFUSALS[key]), PhiError)


def test_paddles_embedding_grad_dense_refuses_every_cpu_call() -> None:
    """Why the embedding_grad_dense cases call 3.3.1's embedding_grad (the same kernel)."""
    error = refuse(paddle, REFUSALS["embedding_grad_dense-direct"])
    assert "Required tensor shall not be nullptr" in str(error)
