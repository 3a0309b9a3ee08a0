"""phi.nn layers in static mode (runtime/nn/static_call.py) and phi.jit.save/load
(runtime/jit): a layer called under program_guard builds its ops with its parameters as
`builtin.parameter` ops named as PaddlePaddle names them (checked against PaddlePaddle 3.3.1 by
tests/parity/test_jit_save_paddle.py); jit.save writes an inference model of an eager layer in
eval mode that jit.load runs with the eager layer's outputs."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import numpy as np
import pytest

import phiops.generated as phi

nn = phi.nn
RNG = np.random.default_rng(7)


@pytest.fixture(autouse=True)
def fresh_names() -> Iterator[None]:
    with phi.static.unique_name_guard():
        yield


def _parameters(program: phi.static.Program) -> dict[str, dict]:
    return {
        op.attributes["parameter_name"].value: {k: a.value for k, a in op.attributes.items()}
        for op in program.block.ops
        if op.name == "builtin.parameter"
    }


def _run_static(build, feed: dict[str, np.ndarray]) -> tuple[list[np.ndarray], phi.static.Program]:
    """Build (main, startup) with ``build()`` returning the fetch values, run startup then main."""
    main, startup = phi.static.Program(), phi.static.Program()
    phi.enable_static()
    try:
        with phi.static.program_guard(main, startup):
            fetches = build()
        scope = phi.static.Scope()
        executor = phi.static.Executor()
        executor.run(startup, scope=scope)
        outputs = executor.run(main, feed, fetches, scope=scope)
    finally:
        phi.disable_static()
    return outputs, main


def test_a_linear_built_under_program_guard_has_paddles_parameters_and_startup_ops() -> None:
    x = RNG.standard_normal((5, 4)).astype(np.float32)
    main, startup = phi.static.Program(), phi.static.Program()
    phi.enable_static()
    try:
        with phi.static.program_guard(main, startup):
            out = nn.Linear(4, 3)(phi.static.data("x", [None, 4], "float32"))
        scope = phi.static.Scope()
        executor = phi.static.Executor()
        executor.run(startup, scope=scope)
        (result,) = executor.run(main, {"x": x}, [out], scope=scope)
    finally:
        phi.disable_static()
    assert sorted(_parameters(main)) == ["linear_0.b_0", "linear_0.w_0"]
    # as PaddlePaddle's startup program: the initializers' ops, XavierUniform and Constant(0)
    ops = [op.name for op in startup.block.ops]
    assert ops.count("pd_op.uniform") == 1 and "pd_op.assign_value" not in ops
    limit = np.sqrt(6.0 / (4 + 3))
    uniform = next(op for op in startup.block.ops if op.name == "pd_op.uniform")
    low, high = (operand.define_op.attributes["value"].value for operand in uniform.operands[1:])
    assert (low, high) == pytest.approx((-limit, limit), rel=1e-6)
    weight, bias = np.asarray(scope.get("linear_0.w_0")), np.asarray(scope.get("linear_0.b_0"))
    assert weight.shape == (4, 3) and np.abs(weight).max() <= limit and weight.std() > 0.1
    np.testing.assert_array_equal(bias, np.zeros(3, np.float32))
    np.testing.assert_allclose(result, x @ weight + bias, rtol=1e-6, atol=1e-6)


def test_a_static_layer_changed_before_its_call_is_refused_by_name() -> None:
    """Made in static mode, a layer's parameters start from their initializers' ops; a value set
    on its (eager) tensors afterwards would be silently lost, so the call refuses it."""
    phi.enable_static()
    try:
        with phi.static.program_guard(phi.static.Program(), phi.static.Program()):
            linear = nn.Linear(2, 2)
            linear.weight.set_value(np.eye(2, dtype=np.float32))
            with pytest.raises(
                phi.PreconditionNotMetError,
                match=r"Linear: parameter 'linear_\d+\.w_0' was changed after the layer was made",
            ):
                linear(phi.static.data("x", [None, 2], "float32"))
    finally:
        phi.disable_static()


def test_a_static_layer_called_in_a_new_program_starts_from_its_values() -> None:
    phi.enable_static()
    try:
        with phi.static.program_guard(phi.static.Program(), phi.static.Program()):
            linear = nn.Linear(2, 2)
        linear.weight.set_value(np.eye(2, dtype=np.float32))
        main, startup = phi.static.Program(), phi.static.Program()
        with phi.static.program_guard(main, startup):
            linear(phi.static.data("x", [None, 2], "float32"))
    finally:
        phi.disable_static()
    ops = [op.name for op in startup.block.ops]
    assert ops.count("pd_op.assign_value") == 1  # the changed weight; the bias keeps full(0)
    assert ops.count("pd_op.full") == 1 and "pd_op.uniform" not in ops


def test_ops_built_in_a_layer_carry_its_struct_name() -> None:
    class Block(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.body = nn.Sequential(nn.Linear(3, 3), nn.ReLU())

        def forward(self, x: phi.Tensor) -> phi.Tensor:
            return self.body(x) * 2.0

    main, startup = phi.static.Program(), phi.static.Program()
    phi.enable_static()
    try:
        with phi.static.program_guard(main, startup):
            Block()(phi.static.data("x", [None, 3], "float32"))
    finally:
        phi.disable_static()
    names = {
        op.name: op.attributes["struct_name"].value
        for op in main.block.ops
        if "struct_name" in op.attributes
    }
    assert names == {
        "pd_op.matmul": "/Block/Sequential/Linear/",
        "pd_op.add": "/Block/Sequential/Linear/",
        "pd_op.relu": "/Block/Sequential/ReLU/",
        "pd_op.full": "/Block/",
        "pd_op.scale": "/Block/",
    }
    assert all(
        "struct_name" not in op.attributes
        for op in main.block.ops
        if op.name in ("builtin.parameter", "pd_op.data")
    )
    assert all("struct_name" not in op.attributes for op in startup.block.ops)


def test_an_eager_layer_called_in_static_mode_carries_its_current_values() -> None:
    linear = nn.Linear(3, 3)
    weight = np.arange(9, dtype=np.float32).reshape(3, 3) / 10
    bias = np.array([1.0, -1.0, 0.5], np.float32)
    linear.weight.set_value(weight)
    linear.bias.set_value(bias)
    x = RNG.standard_normal((4, 3)).astype(np.float32)

    def build():
        data = phi.static.data("x", [None, 3], "float32")
        return [linear(linear(data))]  # called twice

    (out,), main = _run_static(build, {"x": x})
    assert len(_parameters(main)) == 2  # the second call reuses the parameters
    np.testing.assert_allclose(out, (x @ weight + bias) @ weight + bias, rtol=1e-5, atol=1e-6)
    assert isinstance(linear.weight, phi.Tensor)  # the eager parameters are back


def test_batch_norm_in_eval_uses_its_running_stats_as_persistable_parameters() -> None:
    bn = nn.BatchNorm2D(3)
    mean, variance = np.array([1.0, 2.0, 3.0], np.float32), np.array([4.0, 1.0, 0.25], np.float32)
    bn._mean.set_value(mean)
    bn._variance.set_value(variance)
    bn.weight.set_value(np.array([2.0, 1.0, 0.5], np.float32))
    bn.eval()
    x = RNG.standard_normal((2, 3, 2, 2)).astype(np.float32)

    (out,), main = _run_static(
        lambda: [bn(phi.static.data("x", [None, 3, 2, 2], "float32"))], {"x": x}
    )
    params = _parameters(main)
    assert sorted(params) == [
        "batch_norm2d_0.b_0",
        "batch_norm2d_0.w_0",
        "batch_norm2d_0.w_1",
        "batch_norm2d_0.w_2",
    ]
    assert params["batch_norm2d_0.w_1"]["trainable"][0].value is False
    assert params["batch_norm2d_0.w_1"]["persistable"][0].value is True
    assert params["batch_norm2d_0.w_0"]["trainable"][0].value is True
    shape = (1, 3, 1, 1)
    want = (x - mean.reshape(shape)) / np.sqrt(variance.reshape(shape) + 1e-5)
    np.testing.assert_allclose(out, want * np.array([2.0, 1.0, 0.5]).reshape(shape), atol=1e-5)


def _mlp() -> nn.Layer:
    return nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 3))


def _cnn() -> nn.Layer:
    return nn.Sequential(
        nn.Conv2D(3, 4, 3, padding=1),
        nn.BatchNorm2D(4),
        nn.ReLU(),
        nn.MaxPool2D(2),
        nn.Flatten(),
        nn.Linear(4 * 4 * 4, 5),
    )


MODELS = {
    "mlp": (_mlp, [None, 6]),
    "cnn": (_cnn, [None, 3, 8, 8]),
}


@pytest.mark.parametrize("name", sorted(MODELS))
def test_jit_save_then_load_gives_the_eager_outputs(name: str, tmp_path: Path) -> None:
    make, shape = MODELS[name]
    phi.seed(3)
    model = make()
    x = RNG.standard_normal([2, *shape[1:]]).astype(np.float32)
    model(phi.to_tensor(x))  # a training step's forward moves BatchNorm's running stats
    phi.jit.save(model, tmp_path / "m", [phi.static.InputSpec(shape, "float32", "x")])
    assert model.training and all(layer.training for layer in model.sublayers())
    assert (tmp_path / "m.json").is_file() and (tmp_path / "m.pdiparams").is_file()
    model.eval()
    want = model(phi.to_tensor(x)).numpy()
    loaded = phi.jit.load(tmp_path / "m")
    assert loaded.input_names == ["x"]
    np.testing.assert_allclose(loaded(x).numpy(), want, rtol=1e-5, atol=1e-6)
    # another batch size: the saved input has an unknown batch extent
    x5 = RNG.standard_normal([5, *shape[1:]]).astype(np.float32)
    np.testing.assert_allclose(
        loaded(phi.to_tensor(x5)).numpy(), model(phi.to_tensor(x5)).numpy(), rtol=1e-5, atol=1e-6
    )
    assert phi.in_dynamic_mode()


def test_jit_save_names_an_unnamed_input_after_the_forward_argument(tmp_path: Path) -> None:
    phi.jit.save(nn.Linear(2, 2), tmp_path / "m", [phi.static.InputSpec([None, 2])])
    assert phi.jit.load(tmp_path / "m").input_names == ["x"]


def test_jit_save_rejects_bad_arguments(tmp_path: Path) -> None:
    with pytest.raises(phi.InvalidArgumentError, match="input_spec"):
        phi.jit.save(nn.Linear(2, 2), tmp_path / "m")
    with pytest.raises(phi.InvalidArgumentError, match="Layer"):
        phi.jit.save(lambda x: x, tmp_path / "m", [phi.static.InputSpec([1, 2])])
    with pytest.raises(phi.InvalidArgumentError, match="shape\\[0\\]"):
        phi.static.InputSpec(["a", 2])
    phi.jit.save(nn.Linear(2, 2), tmp_path / "m", [phi.static.InputSpec([None, 2], name="x")])
    loaded = phi.jit.load(tmp_path / "m")
    with pytest.raises(phi.InvalidArgumentError, match="1 input"):
        loaded(np.ones((1, 2), np.float32), np.ones((1, 2), np.float32))


def test_layers_sharing_a_parameter_name_are_refused() -> None:
    first = nn.Linear(2, 2)
    with phi.static.unique_name_guard():
        second = nn.Linear(2, 2)  # linear_0 again
    with pytest.raises(phi.InvalidArgumentError, match="linear_0.w_0"):
        _run_static(
            lambda: [nn.Sequential(first, second)(phi.static.data("x", [None, 2], "float32"))],
            {"x": np.ones((1, 2), np.float32)},
        )
    assert isinstance(first.weight, phi.Tensor) and phi.in_dynamic_mode()
