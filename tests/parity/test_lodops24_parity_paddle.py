"""The lodops24 ops against PaddlePaddle 3.3.1 itself: every case tests/tools/lodops24_probe.py
records, run live in 3.3.1 (its legacy op fed LoD tensors through its Executor) and in phiops,
outputs, LoDs and what the backward gives compared; and the recording checked against a fresh
run. Runs only where PaddlePaddle is installed."""

from __future__ import annotations

import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

from tests.ops.test_lodops24_paddle import RECORDED, assert_close, run, written  # noqa: E402
from tests.tools.lodops24_probe import cases, run_case  # noqa: E402

LIVE = sorted(cases())


@pytest.mark.parametrize("key", LIVE)
def test_phiops_equals_paddle_live(key: str) -> None:
    live = run_case(key)
    mine = run(RECORDED[key])
    for name, want in live["outputs"].items():
        assert_close(mine["outputs"][name], want, f"{key}: {name}", written(live, name))
    for name, want in live.get("grads", {}).items():
        assert_close(mine["grads"][name], want, f"{key}: {name}", lod=False)


@pytest.mark.parametrize("key", LIVE)
def test_the_recording_is_what_paddle_gives_now(key: str) -> None:
    live, recorded = run_case(key), RECORDED[key]
    for name, want in recorded["outputs"].items():
        count = written(recorded, name)
        assert live["outputs"][name]["data"][:count] == want["data"][:count], f"{key}: {name}"
        assert live["outputs"][name]["lod"] == want["lod"], f"{key}: {name}"
    assert live.get("grads") == recorded.get("grads"), key
