"""phi.jit.save against PaddlePaddle 3.3.1: PaddlePaddle loads the models phiops saves from
phi.nn layers (`paddle.jit.load`, `paddle.static.load_inference_model`) and gets the phiops
layer's eager outputs; the saved parameters have the names PaddlePaddle's `jit.save` gives the
same model. Runs only where PaddlePaddle is installed."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops.generated as phi  # noqa: E402


def _mlp(nn: Any) -> Any:
    return nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 3))


def _cnn(nn: Any) -> Any:
    return nn.Sequential(
        nn.Conv2D(3, 4, 3, padding=1),
        nn.BatchNorm2D(4),
        nn.ReLU(),
        nn.MaxPool2D(2),
        nn.Flatten(),
        nn.Linear(4 * 4 * 4, 5),
    )


MODELS: dict[str, tuple[Callable[[Any], Any], list[int | None]]] = {
    "mlp": (_mlp, [None, 6]),
    "cnn": (_cnn, [None, 3, 8, 8]),
}


def _saved(name: str, path: Path) -> tuple[Any, np.ndarray, np.ndarray]:
    """A phiops model saved at ``path`` (after one training forward), an input and its eager
    eval output."""
    make, shape = MODELS[name]
    phi.seed(11)
    with phi.static.unique_name_guard():
        model = make(phi.nn)
    x = np.random.default_rng(5).standard_normal([3, *shape[1:]]).astype(np.float32)
    model(phi.to_tensor(x))
    phi.jit.save(model, path, [phi.static.InputSpec(shape, "float32", "x")])
    model.eval()
    return model, x, model(phi.to_tensor(x)).numpy()


def _parameter_names(program: Any) -> list[str]:
    return sorted(
        op.attrs()["parameter_name"]
        for op in program.global_block().ops
        if op.name() == "builtin.parameter"
    )


@pytest.mark.parametrize("name", sorted(MODELS))
def test_paddle_jit_load_runs_a_model_phi_saved(name: str, tmp_path: Path) -> None:
    _, x, want = _saved(name, tmp_path / "m")
    loaded = paddle.jit.load(str(tmp_path / "m"))
    loaded.eval()
    got = loaded(paddle.to_tensor(x)).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_paddle_static_load_inference_model_runs_a_model_phi_saved(
    name: str, tmp_path: Path
) -> None:
    _, x, want = _saved(name, tmp_path / "m")
    paddle.enable_static()
    try:
        executor = paddle.static.Executor(paddle.CPUPlace())
        scope = paddle.static.Scope()
        with paddle.static.scope_guard(scope):
            program, feed_names, fetches = paddle.static.load_inference_model(
                str(tmp_path / "m"), executor
            )
            (got,) = executor.run(program, feed={feed_names[0]: x}, fetch_list=fetches)
    finally:
        paddle.disable_static()
    assert feed_names == ["x"]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_saved_parameter_names_are_paddles(name: str, tmp_path: Path) -> None:
    make, shape = MODELS[name]
    model, _, _ = _saved(name, tmp_path / "phi")
    with paddle.utils.unique_name.guard():
        reference = make(paddle.nn)
    reference.set_state_dict(
        {k: paddle.to_tensor(v.numpy()) for k, v in model.state_dict().items()}
    )
    paddle.jit.save(
        reference, str(tmp_path / "pd"), [paddle.static.InputSpec(shape, "float32", "x")]
    )
    program, _, _ = phi.static.load_inference_model(tmp_path / "phi", None, scope={})
    paddle.enable_static()
    try:
        with paddle.static.scope_guard(paddle.static.Scope()):
            pd_program, _, _ = paddle.static.load_inference_model(
                str(tmp_path / "pd"), paddle.static.Executor(paddle.CPUPlace())
            )
    finally:
        paddle.disable_static()
    assert phi.static.io.parameter_names(program) == _parameter_names(pd_program)


def test_a_layer_built_in_static_mode_has_paddles_parameter_names() -> None:
    main, startup = phi.static.Program(), phi.static.Program()
    phi.enable_static()
    try:
        with phi.static.unique_name_guard(), phi.static.program_guard(main, startup):
            _cnn(phi.nn)(phi.static.data("x", [None, 3, 8, 8], "float32"))
    finally:
        phi.disable_static()
    paddle.enable_static()
    try:
        pd_main, pd_startup = paddle.static.Program(), paddle.static.Program()
        with paddle.utils.unique_name.guard(), paddle.static.program_guard(pd_main, pd_startup):
            _cnn(paddle.nn)(paddle.static.data("x", [None, 3, 8, 8], "float32"))
    finally:
        paddle.disable_static()
    assert phi.static.io.parameter_names(main) == _parameter_names(pd_main)
