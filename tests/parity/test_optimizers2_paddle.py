"""The optimizers of issues 24 and 25 against PaddlePaddle 3.3.1 itself: the recorded fixtures
(tests/data/optimizer/optimizers2.npz, resume/, static/) are what PaddlePaddle computes today,
and a .pdopt that phiops saved halfway resumes in PaddlePaddle to the parameters of training
never stopped. Runs only where PaddlePaddle is installed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops as phi  # noqa: E402
from tests.optimizer.optimizer2_cases import CASES, RESUME_AT, STEPS, build, train  # noqa: E402
from tests.tools import make_optimizer2_fixtures as fixtures  # noqa: E402
from tests.tools import make_optimizer2_static_fixtures as static_fixtures  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "data" / "optimizer"
TOLERANCE = {"rtol": 2e-5, "atol": 2e-6}


def test_the_training_fixtures_are_what_paddle_computes_today(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(fixtures, "DATA", tmp_path)
    fixtures.main()
    fresh, committed = np.load(tmp_path / "optimizers2.npz"), np.load(DATA / "optimizers2.npz")
    assert sorted(fresh.files) == sorted(committed.files)
    for key in committed.files:
        if committed[key].dtype.kind == "U":
            assert fresh[key].tolist() == committed[key].tolist(), key
        else:
            np.testing.assert_allclose(fresh[key], committed[key], rtol=1e-6, err_msg=key)


def test_the_static_fixtures_are_what_paddle_builds_and_computes_today(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setattr(static_fixtures, "OUT", tmp_path)
    try:
        static_fixtures.main()
    finally:
        paddle.disable_static()
    for name in static_fixtures.CASES:
        fresh = json.loads((tmp_path / f"{name}.json").read_text("utf-8"))
        assert fresh == json.loads((DATA / "static" / f"{name}.json").read_text("utf-8")), name
        arrays, committed = np.load(tmp_path / f"{name}.npz"), np.load(
            DATA / "static" / f"{name}.npz"
        )
        for key in committed.files:
            np.testing.assert_allclose(arrays[key], committed[key], rtol=1e-6, err_msg=key)


def _paddle_resumes(case: str, directory: Path) -> list[np.ndarray]:
    with paddle.utils.unique_name.guard():
        layer, optimizer, scheduler = build(paddle, case)
        layer.set_state_dict(paddle.load(str(directory / "m.pdparams")))
        optimizer.set_state_dict(paddle.load(str(directory / "m.pdopt")))
        train(paddle, layer, optimizer, scheduler, RESUME_AT, STEPS)
        return [layer.weight.numpy(), layer.bias.numpy()]


@pytest.mark.parametrize("case", sorted(CASES))
def test_paddle_resumes_from_a_pdopt_phiops_saved(case: str, tmp_path: Path) -> None:
    with phi.static.unique_name_guard():
        layer, optimizer, scheduler = build(phi, case)
        train(phi, layer, optimizer, scheduler, 0, RESUME_AT)
        phi.save(layer.state_dict(), str(tmp_path / "m.pdparams"))
        phi.save(optimizer.state_dict(), str(tmp_path / "m.pdopt"))
    weight, bias = _paddle_resumes(case, tmp_path)
    recorded = np.load(DATA / "optimizers2.npz")
    np.testing.assert_allclose(weight, recorded[f"{case}/weight"], **TOLERANCE)
    np.testing.assert_allclose(bias, recorded[f"{case}/bias"], **TOLERANCE)


def test_the_lbfgs_fixtures_are_what_paddle_computes_today() -> None:
    from tests.optimizer.lbfgs_cases import CASES as LBFGS_CASES
    from tests.optimizer.lbfgs_cases import train as train_lbfgs

    committed = np.load(DATA / "lbfgs.npz")
    for case in LBFGS_CASES:
        weight, bias, losses = train_lbfgs(paddle, case)
        np.testing.assert_allclose(weight, committed[f"{case}/weight"], rtol=1e-6, err_msg=case)
        np.testing.assert_allclose(bias, committed[f"{case}/bias"], rtol=1e-6, err_msg=case)
        np.testing.assert_allclose(losses, committed[f"{case}/losses"], rtol=1e-6, err_msg=case)
