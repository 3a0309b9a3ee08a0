"""The two live parity tests of an op family whose cases a ``tests/tools/make_<family>_fixtures.py``
script records (``cases()``, ``run(module, case)``) and whose ``tests/ops/test_<family>_paddle.py``
checks against the recording (``RECORDED``, ``assert_matches``): every case run on phiops and on
PaddlePaddle itself gives the same results, and the recording is what PaddlePaddle gives now.

A family's parity file is then::

    from tests.parity.family import family_tests

    test_phiops_equals_paddle_live, test_the_recording_is_what_paddle_gives_now = family_tests(
        "basic24"
    )

It is skipped where PaddlePaddle is not installed (the import of the family's module raises
pytest's Skipped)."""

from __future__ import annotations

import importlib
from typing import Any, Callable

import pytest


def family_tests(family: str, with_inputs: bool = True) -> tuple[Callable[..., None], ...]:
    """The family's two parametrized tests. ``with_inputs``: its ``assert_matches`` takes the
    case's inputs as a third argument (what in-place calls leave in them)."""
    paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")
    import phiops

    checks = importlib.import_module(f"tests.ops.test_{family}_paddle")
    fixtures = importlib.import_module(f"tests.tools.make_{family}_fixtures")
    cases: dict[str, Any] = fixtures.cases()
    run, recorded, assert_matches = fixtures.run, checks.RECORDED, checks.assert_matches

    def extra(case: dict[str, Any]) -> tuple[Any, ...]:
        return (case["inputs"],) if with_inputs else ()

    @pytest.mark.parametrize("key", sorted(cases))
    def test_phiops_equals_paddle_live(key: str) -> None:
        case = cases[key]
        assert_matches(run(phiops, case), run(paddle, case), *extra(case))

    @pytest.mark.parametrize("key", sorted(cases))
    def test_the_recording_is_what_paddle_gives_now(key: str) -> None:
        case = cases[key]
        assert_matches(run(paddle, case), recorded[key], *extra(case))

    return test_phiops_equals_paddle_live, test_the_recording_is_what_paddle_gives_now
