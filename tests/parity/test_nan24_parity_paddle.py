"""The nan24 ops against PaddlePaddle 3.3.1 itself: every case tests/tools/make_nan24_fixtures.py
records, run live on both (outputs, gradients, FLAGS_check_nan_inf), the recording in
tests/data/nan24/ checked against a fresh run, check_numerics's refusals (level 0 with NaN or
Inf, a complex NaN) and printed reports, and reduce_as's refusals. Runs only where PaddlePaddle
is installed."""

from __future__ import annotations

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops  # noqa: E402
from tests.ops.test_nan24_paddle import RECORDED, assert_matches  # noqa: E402
from tests.tools.make_nan24_fixtures import cases, run  # noqa: E402

CASES = cases()


@pytest.mark.parametrize("key", sorted(CASES))
def test_phiops_equals_paddle_live(key: str) -> None:
    case = CASES[key]
    assert_matches(run(phiops, case), run(paddle, case))


@pytest.mark.parametrize("key", sorted(CASES))
def test_the_recording_is_what_paddle_gives_now(key: str) -> None:
    case = CASES[key]
    assert_matches(run(paddle, case), RECORDED[key])


REFUSED = {
    "nan-float32": ([1.0, np.nan, 0.0], "float32"),
    "inf-float64": ([np.inf, -np.inf, 2.0], "float64"),
    "complex-nan": ([1 + 1j, complex(np.nan, 0)], "complex64"),
}


@pytest.mark.parametrize("key", sorted(REFUSED))
def test_check_numerics_refuses_what_paddle_refuses(key: str) -> None:
    values, dtype = REFUSED[key]
    messages = []
    for lib in (phiops, paddle):
        x = lib.to_tensor(np.array(values, dtype))
        with pytest.raises(RuntimeError) as caught:
            lib._C_ops.check_numerics(x, "matmul", "out", 0, -1, "")
        text = str(caught.value)
        messages.append(text[text.index("There are") : text.index("].") + 2])
    assert messages[0] == messages[1]


@pytest.mark.parametrize("level", [1, 2, 3])
def test_check_numerics_prints_paddles_report(level: int, capfd) -> None:
    reports = []
    for lib in (phiops, paddle):
        for values in ([np.inf, -np.inf, 0.0], [7e4, -1.0], [2.5, 0.0]):
            lib._C_ops.check_numerics(
                lib.to_tensor(np.array(values, "float32")), "op", "x", level, -1, ""
            )
        reports.append(capfd.readouterr().out)
    assert reports[0] == reports[1]


@pytest.mark.parametrize("target", [[5], [2, 2, 3], [2, 3, 1]])
def test_reduce_as_refuses_what_paddle_refuses(target: list[int]) -> None:
    for lib in (phiops, paddle):
        with pytest.raises(ValueError):
            lib.reduce_as(lib.ones([1, 3]), lib.zeros(target))


@pytest.mark.parametrize("shapes", [[[0]], [[2], [0, 3]]], ids=["only-empty", "second-empty"])
def test_coalesce_tensor_refuses_an_empty_tensor_as_paddle_does(shapes) -> None:
    for lib in (phiops, paddle):
        tensors = [lib.zeros(shape) for shape in shapes]
        with pytest.raises(ValueError):
            lib._C_ops.coalesce_tensor(
                tensors, "float32", True, False, False, 0.0, True, -1, -1, [], []
            )
