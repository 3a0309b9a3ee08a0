"""The Transformer tutorial's classifier (tests/nn/transformer_cases.py) saved by one library and
run by the other: PaddlePaddle 3.3.1's `paddle.jit.load` runs the model phiops' `jit.save` wrote,
and phiops' `jit.load` runs the model PaddlePaddle's `jit.save` wrote, each giving the saving
layer's eval outputs; and the cases' fixtures are what PaddlePaddle computes today. Runs only
where PaddlePaddle is installed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops as phi  # noqa: E402
from tests.nn import transformer_cases as cases  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "data" / "nn" / "transformer"
SPEC_SHAPE = [None, cases.SEQ, cases.D]


def _data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(4)
    x = rng.standard_normal((6, cases.SEQ, cases.D)).astype(np.float32)
    return x, rng.integers(0, cases.CLASSES, (6,)).astype(np.int64)


def test_paddle_jit_load_runs_the_classifier_phiops_saved(tmp_path: Path) -> None:
    x, y = _data()
    phi.seed(5)
    with phi.static.unique_name_guard():
        model = cases.classifier(phi)()
    cases.train_classifier(phi, model, x, y, steps=3)
    phi.jit.save(model, tmp_path / "m", [phi.static.InputSpec(SPEC_SHAPE, "float32", "x")])
    model.eval()
    want = model(phi.to_tensor(x)).numpy()
    loaded = paddle.jit.load(str(tmp_path / "m"))
    loaded.eval()
    np.testing.assert_allclose(loaded(paddle.to_tensor(x)).numpy(), want, rtol=1e-5, atol=1e-6)


def test_phiops_jit_load_runs_the_classifier_paddle_saved(tmp_path: Path) -> None:
    x, y = _data()
    paddle.seed(5)
    model = cases.classifier(paddle)()
    cases.train_classifier(paddle, model, x, y, steps=3)
    model.eval()
    want = model(paddle.to_tensor(x)).numpy()
    spec = paddle.static.InputSpec(SPEC_SHAPE, "float32", "x")
    paddle.jit.save(model, str(tmp_path / "m"), input_spec=[spec])
    got = phi.jit.load(tmp_path / "m")(x).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", list(cases.CASES))
def test_the_fixtures_are_paddles_outputs_today(name: str) -> None:
    with np.load(DATA / f"{name}.npz") as data:
        arrays = {k: data[k] for k in data.files}
    inputs = {k[len("input/") :]: v for k, v in arrays.items() if k.startswith("input/")}
    state = {k[len("state/") :]: v for k, v in arrays.items() if k.startswith("state/")}
    _, _, outputs, _ = cases.run(paddle, name, inputs, state or None)
    for key, tensor in outputs.items():
        np.testing.assert_allclose(tensor.numpy(), arrays[f"output/{key}"], rtol=1e-6, atol=1e-7)


def test_a_transformer_state_dict_paddle_saved_loads_into_phiops(tmp_path: Path) -> None:
    paddle.seed(8)
    theirs = paddle.nn.Transformer(cases.D, cases.HEADS, 2, 1, cases.FF)
    paddle.save(theirs.state_dict(), str(tmp_path / "t.pdparams"))
    ours = phi.nn.Transformer(cases.D, cases.HEADS, 2, 1, cases.FF)
    missing, unexpected = ours.set_state_dict(phi.load(str(tmp_path / "t.pdparams")))
    assert (missing, unexpected) == ([], [])
    theirs.eval()
    ours.eval()
    rng = np.random.default_rng(6)
    src = rng.standard_normal((2, 5, cases.D)).astype(np.float32)
    tgt = rng.standard_normal((2, 3, cases.D)).astype(np.float32)
    want = theirs(paddle.to_tensor(src), paddle.to_tensor(tgt)).numpy()
    got = ours(phi.to_tensor(src), phi.to_tensor(tgt)).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
