"""Parity of the corr24 op, ``correlation``, with PaddlePaddle 3.3.1, without PaddlePaddle: the
output shapes and dtypes, and the kinds of error, of every static case
tests/tools/make_corr24_fixtures.py recorded into tests/data/corr24/paddle_3_3_1.json (3.3.1's
``CorrelationInferMeta`` while a program is built; phiops builds the same program), and the signature of ``paddle.incubate.layers.correlation``.

3.3.1's CPU kernel refuses to run (the recording's eager cases, checked here), so there are no
CPU values to compare: tests/ops/test_corr24.py checks phiops's values against a transcription of
3.3.1's GPU kernel, and tests/ops/test_parity_coverage.py lists correlation with that reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import phiops
from tests.tools.make_corr24_fixtures import SIGNATURE_KEY, cases, run, signature

DATA = Path(__file__).resolve().parents[1] / "data" / "corr24" / "paddle_3_3_1.json"
RECORDED: dict[str, dict] = json.loads(DATA.read_text())
STATIC = sorted(key for key, case in cases().items() if case["mode"] == "static")
EAGER = sorted(key for key, case in cases().items() if case["mode"] == "eager")


def assert_matches(got: dict, want: dict) -> None:
    assert got == want


def test_the_recording_has_every_case() -> None:
    assert sorted(RECORDED) == sorted([*cases(), SIGNATURE_KEY])


def test_phiops_incubate_layers_correlation_has_paddles_signature() -> None:
    assert signature(phiops) == RECORDED[SIGNATURE_KEY]


@pytest.mark.parametrize("key", STATIC)
def test_phiops_builds_what_paddle_built(key: str) -> None:
    assert_matches(run(phiops, cases()[key]), RECORDED[key])


@pytest.mark.parametrize("key", EAGER)
def test_paddles_cpu_kernel_refuses_to_run(key: str) -> None:
    assert RECORDED[key] == {"error": "NotImplementedError"}
