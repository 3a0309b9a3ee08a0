"""The normalization, upsampling and rearranging functions and layers of paddle.nn
(runtime/nn/norm_upsample.py) against PaddlePaddle 3.3.1's results, input and parameter
gradients, parameter names, shapes, initial values and updated running statistics, recorded by
tests/tools/make_normup_fixtures.py from the same case table (tests/tools/normup_cases.py).
PaddlePaddle's CPU build has no sync_batch_norm kernel: SyncBatchNorm's outputs were recorded
from the BatchNorm of the same state, which is what one process computes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError
from tests.tools.normup_cases import STATIC_CASES, cases, inputs

DATA = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "normup" / "paddle_3_3_1.json").read_text()
)
ARRAYS = inputs()
FUNCTIONS, LAYERS = cases(paddle)
F = paddle.nn.functional


@pytest.fixture(autouse=True)
def fresh_names() -> Iterator[None]:
    with paddle.static.unique_name_guard():
        yield


def weights(out: Any) -> Any:
    return paddle.to_tensor(
        np.linspace(0.5, 1.5, out.size).astype(out.numpy().dtype).reshape(out.shape)
    )


def close(got: Any, recorded: Any, rtol: float = 2e-5, atol: float = 2e-5) -> None:
    np.testing.assert_allclose(np.asarray(got), np.array(recorded), rtol=rtol, atol=atol)


def test_the_inputs_are_the_recorded_ones() -> None:
    for name, array in ARRAYS.items():
        np.testing.assert_array_equal(array, np.array(DATA["inputs"][name], np.float32))


def test_every_case_was_recorded() -> None:
    assert set(FUNCTIONS) == set(DATA["functions"])
    assert set(LAYERS) == set(DATA["layers"])


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_function_matches_paddle(name: str) -> None:
    fn, array = FUNCTIONS[name]
    recorded = DATA["functions"][name]
    x = paddle.to_tensor(ARRAYS[array])
    x.stop_gradient = False
    out = fn(x)
    (out * weights(out)).sum().backward()
    assert str(out.dtype).split(".")[-1] == recorded["dtype"]
    close(out.numpy(), recorded["out"])
    close(x.grad.numpy(), recorded["grad"], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layer_matches_paddle(name: str) -> None:
    make, array, training = LAYERS[name]
    recorded = DATA["layers"][name]
    layer = make()
    state = layer.state_dict()
    assert set(state) == set(recorded["state_keys"])
    assert {k: v.name for k, v in state.items()} == recorded["state_names"]
    for key, shape in zip(recorded["state_keys"], recorded["state_shapes"]):
        assert list(state[key].shape) == shape
        close(state[key].numpy(), recorded["state_before"][key], 0, 0)
    layer.train() if training else layer.eval()
    x = paddle.to_tensor(ARRAYS[array])
    x.stop_gradient = False
    out = layer(x)
    (out * weights(out)).sum().backward()
    assert str(out.dtype).split(".")[-1] == recorded["dtype"]
    close(out.numpy(), recorded["out"])
    close(x.grad.numpy(), recorded["grad"], rtol=1e-4, atol=1e-5)
    after = layer.state_dict()
    for key, values in recorded["state_after"].items():
        close(after[key].numpy(), values, 1e-5, 1e-6)
    trained = {k for k, v in after.items() if not v.stop_gradient}
    assert trained == set(recorded["parameter_grads"])
    for key, grad in recorded["parameter_grads"].items():
        close(after[key].grad.numpy(), grad, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", sorted(DATA["defaults"]))
def test_default_initializers_and_names_are_paddles(name: str) -> None:
    recorded = DATA["defaults"][name]
    make = {
        "InstanceNorm2D": lambda: paddle.nn.InstanceNorm2D(4),
        "BatchNorm3D": lambda: paddle.nn.BatchNorm3D(3),
        "SyncBatchNorm": lambda: paddle.nn.SyncBatchNorm(4),
        "SyncBatchNorm_no_affine": lambda: paddle.nn.SyncBatchNorm(
            4, weight_attr=False, bias_attr=False
        ),
    }[name]
    state = make().state_dict()
    assert {k: v.name for k, v in state.items()} == recorded["names"]
    assert {k: not v.stop_gradient for k, v in state.items()} == recorded["trainable"]
    for key, values in recorded["state"].items():
        np.testing.assert_array_equal(state[key].numpy(), np.array(values, np.float32))


def test_a_paddle_state_dict_loads_into_the_layer_and_back() -> None:
    recorded = DATA["layers"]["BatchNorm3D_train"]
    layer = paddle.nn.BatchNorm3D(3)
    paddle_state = {k: np.array(v, np.float32) for k, v in recorded["state_after"].items()}
    layer.set_state_dict({k: paddle.to_tensor(v) for k, v in paddle_state.items()})
    for key, value in layer.state_dict().items():
        np.testing.assert_array_equal(value.numpy(), paddle_state[key])
    other = paddle.nn.SyncBatchNorm(3)
    other.set_state_dict(layer.state_dict())
    layer.eval()
    other.eval()
    x = paddle.to_tensor(ARRAYS["x5"])
    np.testing.assert_allclose(other(x).numpy(), layer(x).numpy(), rtol=1e-6)


def test_convert_sync_batchnorm_replaces_every_batch_norm_and_shares_its_state() -> None:
    model = paddle.nn.Sequential(
        paddle.nn.Conv2D(4, 4, 1),
        paddle.nn.BatchNorm2D(4),
        paddle.nn.Sequential(paddle.nn.BatchNorm1D(4)),
    )
    converted = paddle.nn.SyncBatchNorm.convert_sync_batchnorm(model)
    assert isinstance(converted[1], paddle.nn.SyncBatchNorm)
    assert isinstance(converted[2][0], paddle.nn.SyncBatchNorm)
    assert isinstance(converted[0], paddle.nn.Conv2D)
    assert converted[1].weight is model[1].weight and converted[1]._mean is model[1]._mean
    single = paddle.nn.SyncBatchNorm.convert_sync_batchnorm(paddle.nn.BatchNorm3D(3))
    assert isinstance(single, paddle.nn.SyncBatchNorm)


def test_instance_norm_matches_the_numpy_formula() -> None:
    x = ARRAYS["x4"].astype(np.float64)
    mean = x.mean(axis=(2, 3), keepdims=True)
    expected = (x - mean) / np.sqrt(x.var(axis=(2, 3), keepdims=True) + 1e-5)
    out = F.instance_norm(paddle.to_tensor(ARRAYS["x4"]))
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-4, atol=1e-5)


def test_normalize_writes_into_out() -> None:
    x = paddle.to_tensor(ARRAYS["x4"])
    out = paddle.zeros([2, 4, 3, 5])
    result = F.normalize(x, out=out)
    expected = ARRAYS["x4"] / np.linalg.norm(ARRAYS["x4"], axis=1, keepdims=True)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5)
    assert result is out


def _static_value(name: str) -> np.ndarray:
    fn, array = FUNCTIONS[name]
    main, startup = paddle.static.Program(), paddle.static.Program()
    paddle.enable_static()
    try:
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", list(ARRAYS[array].shape), "float32")
            out = fn(x)
        (value,) = paddle.static.Executor().run(main, feed={"x": ARRAYS[array]}, fetch_list=[out])
    finally:
        paddle.disable_static()
    return value


@pytest.mark.parametrize("name", STATIC_CASES)
def test_function_builds_into_a_static_program(name: str) -> None:
    close(_static_value(name), DATA["functions"][name]["out"])


def test_interpolate_takes_a_size_value_in_a_static_program() -> None:
    main, startup = paddle.static.Program(), paddle.static.Program()
    paddle.enable_static()
    try:
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 4, 3, 5], "float32")
            size = paddle.static.data("size", [2], "int32")
            out = F.interpolate(x, size=size)
        (value,) = paddle.static.Executor().run(
            main, feed={"x": ARRAYS["x4"], "size": np.array([5, 7], np.int32)}, fetch_list=[out]
        )
    finally:
        paddle.disable_static()
    close(value, DATA["functions"]["nearest_size"]["out"])


X4 = ARRAYS["x4"]


@pytest.mark.parametrize(
    "call, error, match",
    [
        (
            lambda: F.interpolate(paddle.to_tensor(X4), scale_factor=2, mode="cubic"),
            InvalidArgumentError,
            "'mode'",
        ),
        (
            lambda: F.interpolate(paddle.to_tensor(X4), size=[2, 2], scale_factor=2),
            InvalidArgumentError,
            "only one",
        ),
        (lambda: F.interpolate(paddle.to_tensor(X4)), InvalidArgumentError, "one of 'size'"),
        (
            lambda: F.interpolate(paddle.to_tensor(X4), size=[2]),
            InvalidArgumentError,
            "'size' must hold 2",
        ),
        (
            lambda: F.interpolate(paddle.to_tensor(X4), size=[2, 0]),
            InvalidArgumentError,
            "positive",
        ),
        (
            lambda: F.interpolate(paddle.to_tensor(X4), scale_factor=-1.0),
            InvalidArgumentError,
            "positive",
        ),
        (lambda: F.interpolate(paddle.to_tensor(X4), 4), InvalidArgumentError, "'size'"),
        (
            lambda: F.interpolate(paddle.to_tensor(X4), [4, 4], data_format="NCW"),
            InvalidArgumentError,
            "'data_format'",
        ),
        (
            lambda: F.interpolate(paddle.to_tensor(X4[0, 0]), [4]),
            InvalidArgumentError,
            "3-D, 4-D or 5-D",
        ),
        (
            lambda: F.interpolate(paddle.to_tensor(X4), [4, 4], mode="trilinear"),
            InvalidArgumentError,
            "5-D",
        ),
        (
            lambda: F.interpolate(paddle.to_tensor(X4), [4, 4], align_corners=True),
            InvalidArgumentError,
            "align_corners",
        ),
        (
            lambda: F.interpolate(paddle.to_tensor(X4), [4, 4], mode="bilinear", align_mode=2),
            InvalidArgumentError,
            "align_mode",
        ),
        (
            lambda: F.interpolate(paddle.to_tensor(X4), scale_factor=2, mode="area"),
            InvalidArgumentError,
            "'size'",
        ),
        (
            lambda: F.interpolate(paddle.to_tensor(X4[0]), [4], mode="bicubic"),
            InvalidArgumentError,
            "mode 'bicubic' takes a 4-D x, got a 3-D",
        ),
        (
            lambda: F.interpolate(paddle.to_tensor(X4), [4, 4], mode="linear"),
            InvalidArgumentError,
            "mode 'linear' takes a 3-D x, got a 4-D",
        ),
        (
            lambda: F.interpolate(paddle.to_tensor(X4[0]), [4], mode="linear", data_format="NCHW"),
            InvalidArgumentError,
            "'data_format' must be one of \\['NCW', 'NWC'\\]",
        ),
        (
            lambda: F.interpolate(paddle.to_tensor(X4), [0, 3], mode="bicubic"),
            InvalidArgumentError,
            "positive",
        ),
        (
            lambda: F.interpolate(paddle.to_tensor(X4), [4, 4], mode="nearest", antialias=True),
            InvalidArgumentError,
            "'antialias' is only supported for bilinear and bicubic modes",
        ),
        (
            lambda: F.instance_norm(paddle.to_tensor(X4[0, 0, 0])),
            InvalidArgumentError,
            "at least 2-D",
        ),
        (
            lambda: F.instance_norm(paddle.to_tensor(X4), data_format="NHWC"),
            InvalidArgumentError,
            "data_format",
        ),
        (lambda: F.instance_norm(X4), InvalidArgumentError, "must be a Tensor"),
        (lambda: paddle.nn.InstanceNorm2D(4)(paddle.to_tensor(X4[0])), InvalidArgumentError, "4-D"),
        (lambda: paddle.nn.InstanceNorm1D(4, weight_attr=False), InvalidArgumentError, "same time"),
        (lambda: paddle.nn.InstanceNorm3D(0), InvalidArgumentError, "num_features"),
        (lambda: paddle.nn.BatchNorm(4, act="nope"), InvalidArgumentError, "'act' must be"),
        (lambda: paddle.nn.BatchNorm(4, act="matmul"), InvalidArgumentError, "one-input op"),
        (lambda: paddle.nn.BatchNorm3D(4)(paddle.to_tensor(X4)), InvalidArgumentError, "5-D"),
        (lambda: paddle.nn.BatchNorm3D(4, data_format="NCHW"), InvalidArgumentError, "data_format"),
        (
            lambda: paddle.nn.SyncBatchNorm(4, data_format="CHW"),
            InvalidArgumentError,
            "data_format",
        ),
        (lambda: F.local_response_norm(paddle.to_tensor(X4), 0), InvalidArgumentError, "'size'"),
        (
            lambda: F.local_response_norm(paddle.to_tensor(X4[0, 0]), 3),
            InvalidArgumentError,
            "3-D or more",
        ),
        (
            lambda: F.local_response_norm(paddle.to_tensor(X4), 3, data_format="NCW"),
            InvalidArgumentError,
            "data_format",
        ),
        (lambda: F.normalize(paddle.to_tensor(X4), axis=4), InvalidArgumentError, "'axis'"),
        (lambda: F.normalize(paddle.to_tensor(X4), p="fro"), InvalidArgumentError, "'p'"),
        (lambda: paddle.nn.PixelShuffle(0), InvalidArgumentError, "upscale_factor"),
        (
            lambda: paddle.nn.PixelUnshuffle(2, data_format="NCL"),
            InvalidArgumentError,
            "data_format",
        ),
        (lambda: paddle.nn.ChannelShuffle(2.5), InvalidArgumentError, "groups"),
        (
            lambda: paddle.nn.PixelShuffle(3)(paddle.to_tensor(X4)),
            InvalidArgumentError,
            "upscale_factor",
        ),
        (
            lambda: paddle.nn.Unfold([2, 2, 2])(paddle.to_tensor(X4)),
            InvalidArgumentError,
            "kernel_sizes",
        ),
    ],
)
def test_bad_arguments_name_what_was_wrong(call: Any, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        call()


def test_layers_print_their_options() -> None:
    assert "num_features=4" in repr(paddle.nn.InstanceNorm2D(4))
    assert "scale_factor=2" in repr(paddle.nn.Upsample(scale_factor=2))
    assert "upscale_factor=2" in repr(paddle.nn.PixelShuffle(2))
    assert "size=3" in repr(paddle.nn.LocalResponseNorm(3))


@pytest.mark.parametrize(
    "name", ["InstanceNorm2D", "BatchNorm3D_eval", "BatchNorm_is_test_relu", "Upsample", "Fold"]
)
def test_layer_builds_into_a_static_program(name: str) -> None:
    make, array, training = LAYERS[name]
    layer = make()  # made eagerly (its weights set), then called while a program is built
    layer.train() if training else layer.eval()
    main, startup = paddle.static.Program(), paddle.static.Program()
    paddle.enable_static()
    try:
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", list(ARRAYS[array].shape), "float32")
            out = layer(x)
        scope = paddle.static.Scope()
        executor = paddle.static.Executor()
        executor.run(startup, scope=scope)
        (result,) = executor.run(main, feed={"x": ARRAYS[array]}, fetch_list=[out], scope=scope)
    finally:
        paddle.disable_static()
    close(result, DATA["layers"][name]["out"])
