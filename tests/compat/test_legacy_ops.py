"""Legacy op types of real ``.pdmodel`` files (issue 24, part B), one small program each, saved by
PaddlePaddle 3.3.1 (tests/tools/make_legacy_ops_fixtures.py, under tests/data/legacy/ops/): each
runs in phiops with PaddlePaddle's outputs, translates to PaddlePaddle's PIR text and is covered
by the ``phiops compat`` report.

A fixture in ``NOT_YET`` is a legacy op phiops does not run yet: its tests are strict xfails, so
that the day it runs they fail and the entry has to go."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.compat.__main__ import main as compat_main
from phiops.runtime.static.scope import Scope

DATA = Path(__file__).resolve().parents[1] / "data" / "legacy" / "ops"
FIXTURES = sorted(p.name for p in DATA.iterdir() if (p / "model.pdmodel").is_file())
RANDOM = {"uniform_random": (-2.0, -1.0), "gaussian_random": (2.9, 3.1)}
NOT_YET: dict[str, str] = {}


def _maybe_xfail(name: str):
    if name in NOT_YET:
        return pytest.param(name, marks=pytest.mark.xfail(reason=NOT_YET[name], strict=True))
    return name


def test_every_legacy_op_of_the_issue_has_a_fixture() -> None:
    assert FIXTURES == sorted(
        [
            "assign",
            "elementwise_axis",
            "fill_constant_batch_size_like",
            "gaussian_random",
            "increment",
            "lookup_table",
            "matmul_v1",
            "pool2d",
            "reduce_dims",
            "sequence_mask",
            "shape",
            "top_k_v1",
            "uniform_random",
        ]
    )


@pytest.mark.parametrize("name", [_maybe_xfail(n) for n in FIXTURES])
def test_a_legacy_op_runs_with_paddlepaddles_outputs(name: str) -> None:
    scope = Scope()
    exe = phi.static.Executor()
    program, feed_names, fetch_targets = phi.static.load_inference_model(
        DATA / name / "model", exe, scope=scope
    )
    inputs = np.load(DATA / name / "inputs.npz")
    assert sorted(feed_names) == sorted(inputs.files)
    outputs = exe.run(
        program, feed={n: inputs[n] for n in feed_names}, fetch_list=fetch_targets, scope=scope
    )
    expected = np.load(DATA / name / "outputs.npz")
    assert len(outputs) == len(expected.files)
    for index, output in enumerate(outputs):
        reference = expected[f"out{index}"]
        assert output.dtype == reference.dtype and output.shape == reference.shape, index
        if name in RANDOM and index == 1:  # the random draw itself: its range, not its values
            low, high = RANDOM[name]
            assert np.all(output >= low) and np.all(output <= high)
            assert np.unique(output).size > 1
            continue
        np.testing.assert_allclose(output, reference, rtol=1e-5, atol=1e-6, err_msg=str(index))


@pytest.mark.parametrize(
    "name", [_maybe_xfail(n) for n in FIXTURES if (DATA / n / "translated.txt").is_file()]
)
def test_a_legacy_op_translates_to_paddlepaddles_pir_text(name: str) -> None:
    program = phi.ir.translate_to_pir(DATA / name / "model.pdmodel")
    assert str(program) == (DATA / name / "translated.txt").read_text()


@pytest.mark.parametrize("name", [_maybe_xfail(n) for n in FIXTURES])
def test_the_report_covers_every_op_of_a_legacy_op_fixture(name: str) -> None:
    out = io.StringIO()
    status = compat_main([str(DATA / name / "model.pdmodel")], out)
    text = out.getvalue()
    covered, total = (
        next(line for line in text.splitlines() if line.startswith("covered:"))
        .split()[1]
        .split("/")
    )
    assert covered == total and status == 0, text
