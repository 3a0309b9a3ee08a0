"""The passes on PaddlePaddle's control-flow programs (tests/data/ir 18_cond, 19_while_loop):
ops with regions and the values their blocks read are kept, slots are not reused, and the
results are the unpassed program's."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.ir import parse_program
from tests.static.passes.helpers import run_with_and_without

IR = Path(__file__).resolve().parents[2] / "data" / "ir"
X = np.array([[0.5, 1.0, 1.5], [2.0, 2.5, 3.0]], "float32")


@pytest.mark.parametrize(
    "name, fetches, feed",
    [
        ("18_cond", ["%5"], X),
        ("18_cond", ["%5"], X - 1.9),
        ("19_while_loop", ["%4", "%5"], X),
    ],
)
def test_control_flow_programs_give_the_unpassed_results(name, fetches, feed) -> None:
    program = parse_program((IR / f"{name}.txt").read_text(encoding="utf-8"), name)
    targets = [program.value(f) for f in fetches]
    with np.errstate(invalid="ignore"):
        on, off, plan = run_with_and_without(program, {"x": feed}, targets, phi.static.Scope)
    for a, b in zip(on, off):
        np.testing.assert_array_equal(a, b)
    assert plan.report.skipped is None
    assert plan.report.memory is not None
