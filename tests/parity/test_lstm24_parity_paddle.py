"""The lstm24 ops (lstm, gru and their grads) against PaddlePaddle 3.3.1 itself: every lstm and
gru case tests/tools/lod24_probe.py records, run live in 3.3.1 (its legacy op fed LoD tensors
through its Executor) and in phiops, outputs (the batch-order intermediates and their LoDs
included) and gradients compared; and the recording checked against a fresh run. Runs only
where PaddlePaddle is installed."""

from __future__ import annotations

import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

from tests.ops.test_lod24_paddle import RECORDED, assert_close  # noqa: E402
from tests.ops.test_lstm24_paddle import CASES, run  # noqa: E402
from tests.tools.lod24_probe import run_case  # noqa: E402


@pytest.mark.parametrize("key", CASES)
def test_phiops_equals_paddle_live(key: str) -> None:
    live = run_case(key)
    mine = run(RECORDED[key])
    for name, want in live["outputs"].items():
        assert_close(mine["outputs"][name], want, f"{key}: {name}")
    for name, want in live["grads"].items():
        assert_close(mine["grads"][name], want, f"{key}: {name} gradient")


@pytest.mark.parametrize("key", CASES)
def test_the_recording_is_what_paddle_gives_now(key: str) -> None:
    live, recorded = run_case(key), RECORDED[key]
    for part in ("outputs", "grads"):
        for name, want in recorded[part].items():
            assert live[part][name] == want, f"{key}: {part} {name}"
