"""The passes on the models PaddlePaddle 3.3.1 saved (tests/data/legacy: .pdmodel programs, and
tests/data/saved_models: PIR .json programs): with and without them the results agree (bit for
bit, or to 1e-5 of the output's scale where a batch norm was folded), and both give
PaddlePaddle's outputs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime import flags
from tests.static.passes.helpers import ALL_PASSES, plan_of

DATA = Path(__file__).resolve().parents[2] / "data"
LEGACY = sorted(p for p in (DATA / "legacy").iterdir() if (p / "model.pdmodel").is_file())
SAVED = sorted(p for p in (DATA / "saved_models").iterdir() if (p / "model.json").is_file())


def _run(prefix: Path, feed_of, passes: str):
    scope, executor = phi.static.Scope(), phi.static.Executor()
    with flags.flags_guard({"inference_passes": passes}):
        program, feeds, fetches = phi.static.load_inference_model(
            str(prefix), executor, scope=scope
        )
        outputs = executor.run(program, feed_of(feeds), fetches, scope=scope)
        return outputs, plan_of(executor, program).report


def _agree(on, off, report) -> None:
    for a, b in zip(on, off):
        if report is not None and report.changes_rounding:
            scale = max(float(np.abs(b).max(initial=0)), 1e-30)
            assert np.abs(a.astype(np.float64) - b).max(initial=0) <= 1e-5 * scale
        else:
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("folder", LEGACY, ids=lambda p: p.name)
def test_legacy_models_agree_with_and_without_passes(folder: Path) -> None:
    inputs = np.load(folder / "inputs.npz")
    expected = np.load(folder / "outputs.npz")

    def feed_of(names):
        return {n: inputs[n] for n in names}

    on, report = _run(folder / "model", feed_of, ALL_PASSES)
    off, _ = _run(folder / "model", feed_of, "")
    _agree(on, off, report)
    for index, output in enumerate(on):
        np.testing.assert_allclose(output, expected[f"out{index}"], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("folder", SAVED, ids=lambda p: p.name)
def test_saved_pir_models_agree_with_and_without_passes(folder: Path) -> None:
    x = np.load(folder / "input.npy")

    def feed_of(names):
        return {names[0]: x}

    on, report = _run(folder / "model", feed_of, ALL_PASSES)
    off, _ = _run(folder / "model", feed_of, "")
    _agree(on, off, report)
    np.testing.assert_allclose(on[0], np.load(folder / "output.npy"), rtol=2e-5, atol=2e-5)
    assert report is not None and report.skipped is None
