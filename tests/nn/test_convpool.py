"""The 1-D and 3-D convolutions and pools and the adaptive pools of paddle.nn.functional /
paddle.nn (runtime/nn/conv_pool.py) against PaddlePaddle 3.3.1's results, masks and gradients
(input and parameters), state_dict keys and initializer statistics, recorded by
tests/tools/make_convpool_fixtures.py from the same case table (tests/tools/convpool_cases.py);
one static-program case per function; bad arguments."""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from tests.tools.convpool_cases import INIT_LAYERS, cases, fill, values

DATA = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "convpool" / "paddle_3_3_1.json").read_text()
)
INPUTS, FUNCTIONS, LAYERS = cases(paddle)
F = paddle.nn.functional
nn = paddle.nn


def run(fn: Any, array: np.ndarray, layer: Any = None) -> dict:
    x = paddle.to_tensor(array)
    x.stop_gradient = False
    result = fn(x)
    out, mask = result if isinstance(result, (tuple, list)) else (result, None)
    weights = paddle.to_tensor(
        np.linspace(0.5, 1.5, out.size).astype(np.float32).reshape(out.shape)
    )
    (out * weights).sum().backward()
    got = {"out": out.numpy(), "dtype": str(out.dtype).split(".")[-1], "grad": x.grad.numpy()}
    if mask is not None:
        got["mask"], got["mask_dtype"] = mask.numpy(), str(mask.dtype).split(".")[-1]
    if layer is not None:
        got["param_grads"] = {key: p.grad.numpy() for key, p in layer.named_parameters()}
    return got


def check(got: dict, recorded: dict) -> None:
    assert got["dtype"] == recorded["dtype"]
    assert list(got["out"].shape) == recorded["shape"]
    np.testing.assert_allclose(got["out"], np.array(recorded["out"]), rtol=1e-5, atol=2e-5)
    np.testing.assert_allclose(got["grad"], np.array(recorded["grad"]), rtol=1e-5, atol=2e-5)
    assert ("mask" in got) == ("mask" in recorded)
    if "mask" in got:
        assert got["mask_dtype"] == recorded["mask_dtype"]
        np.testing.assert_array_equal(got["mask"], np.array(recorded["mask"]))


def test_the_inputs_are_the_recorded_ones() -> None:
    for name, array in INPUTS.items():
        np.testing.assert_array_equal(array, np.array(DATA["inputs"][name], np.float32))


def test_every_case_was_recorded() -> None:
    assert set(FUNCTIONS) == set(DATA["functions"])
    assert set(LAYERS) == set(DATA["layers"])


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_function_matches_paddle(name: str) -> None:
    fn, x = FUNCTIONS[name]
    check(run(fn, INPUTS[x]), DATA["functions"][name])


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layer_matches_paddle(name: str) -> None:
    make, x = LAYERS[name]
    layer = make()
    recorded = DATA["layers"][name]
    state = layer.state_dict()
    assert {k: {"shape": list(v.shape), "dtype": str(v.dtype).split(".")[-1]} for k, v in state.items()} == recorded["state"]
    fill(layer)
    got = run(layer, INPUTS[x], layer)
    check(got, recorded)
    assert set(got["param_grads"]) == set(recorded["param_grads"])
    for key, grad in got["param_grads"].items():
        np.testing.assert_allclose(grad, np.array(recorded["param_grads"][key]), rtol=1e-5, atol=5e-5)


@pytest.mark.parametrize("name", sorted(INIT_LAYERS))
def test_default_initializers_match_paddles_statistics(name: str) -> None:
    paddle.seed(2024)
    layer = INIT_LAYERS[name](nn)
    recorded = DATA["init"][name]
    assert sorted(layer.state_dict()) == sorted(recorded)
    for key, value in layer.state_dict().items():
        array, stats = value.numpy().astype(np.float64), recorded[key]
        assert list(array.shape) == stats["shape"]
        if stats["std"] == 0.0:  # a bias: Constant(0)
            np.testing.assert_array_equal(array, np.zeros(array.shape))
            continue
        assert abs(array.mean()) < 0.1 * stats["std"]
        assert array.std() == pytest.approx(stats["std"], rel=0.08)
        # XavierUniform's bounds (transposed convs) or the normal's tails
        assert array.max() <= max(stats["max"] * 1.3, stats["max"] + 0.02)
        assert array.min() >= min(stats["min"] * 1.3, stats["min"] - 0.02)


def test_a_paddle_state_dict_loads_both_ways() -> None:
    """A state dict keyed as PaddlePaddle keys it (weight, bias) loads into the phiops layer,
    and the phiops layer's state dict loads into a fresh one."""
    keys = DATA["layers"]["Conv3D"]["state"]
    state = {k: values(v["shape"], 7.0) for k, v in keys.items()}
    layer = nn.Conv3D(4, 3, 2, padding=1)
    layer.set_state_dict(state)
    for key, array in state.items():
        np.testing.assert_array_equal(layer.state_dict()[key].numpy(), array)
    other = nn.Conv3D(4, 3, 2, padding=1)
    other.set_state_dict(layer.state_dict())
    x = paddle.to_tensor(INPUTS["x3"])
    np.testing.assert_array_equal(other(x).numpy(), layer(x).numpy())


def _names() -> list[str]:
    from phiops.runtime.nn.conv_pool import FUNCTIONAL_NAMES

    return list(FUNCTIONAL_NAMES)


@pytest.mark.parametrize("function", _names())
def test_each_function_builds_into_a_static_program(function: str) -> None:
    """One recorded case per function, built under program_guard and run by the Executor."""
    name = next(n for n in sorted(FUNCTIONS) if n == function or n.startswith(function + "_"))
    feeds: dict[str, np.ndarray] = {}
    fn, x = cases(paddle, feeds)[1][name]
    array = INPUTS[x]
    main, startup = paddle.static.Program(), paddle.static.Program()
    paddle.enable_static()
    try:
        with paddle.static.program_guard(main, startup):
            result = fn(paddle.static.data("x", list(array.shape), "float32"))
            out = result[0] if isinstance(result, (tuple, list)) else result
        (got,) = paddle.static.Executor().run(main, {"x": array, **feeds}, [out])
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(
        got, np.array(DATA["functions"][name]["out"]), rtol=1e-5, atol=2e-5
    )


def test_signatures_are_paddles() -> None:
    params = lambda f: list(inspect.signature(f).parameters)  # noqa: E731
    assert params(F.conv1d_transpose) == [
        "x", "weight", "bias", "stride", "padding", "output_padding", "groups", "dilation",
        "output_size", "data_format", "name",
    ]
    assert params(nn.Conv3DTranspose.__init__)[6:9] == ["output_padding", "dilation", "groups"]
    assert params(nn.Conv1DTranspose.__init__)[6:9] == ["output_padding", "groups", "dilation"]
    kw = inspect.signature(nn.Conv1D.__init__).parameters
    assert kw["bias"].kind is inspect.Parameter.KEYWORD_ONLY
    assert params(F.avg_pool1d)[4:6] == ["exclusive", "ceil_mode"]




@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda t1, t3: F.conv1d(t3, t3), InvalidArgumentError, "conv1d: x must be a 3-D"),
        (lambda t1, t3: F.conv1d(t1, t1, data_format="NCHW"), InvalidArgumentError, "conv1d: data_format"),
        (
            lambda t1, t3: F.conv1d(t1, paddle.ones([6, 4, 3]), groups=3),
            InvalidArgumentError,
            "conv1d: the channels of x \\(4\\) must be divisible by groups",
        ),
        (lambda t1, t3: F.conv1d(t1, paddle.ones([6, 4, 3]), padding="full"), InvalidArgumentError, "conv1d: padding"),
        (lambda t1, t3: F.conv3d(t1, t1), InvalidArgumentError, "conv3d: x must be a 5-D"),
        (lambda t1, t3: F.conv3d(t3, paddle.ones([2, 4, 2, 2, 2]), stride=[1, 2]), InvalidArgumentError, "conv3d: stride"),
        (
            lambda t1, t3: F.conv3d_transpose(t3, paddle.ones([4, 2, 2, 2, 2]), output_padding=1, output_size=[5, 6, 7]),
            InvalidArgumentError,
            "mutually exclusive",
        ),
        (
            lambda t1, t3: F.conv1d_transpose(t1, paddle.ones([4, 2, 2]), output_padding=3, stride=2),
            InvalidArgumentError,
            "output_padding \\(3\\) must not be greater than stride",
        ),
        (lambda t1, t3: F.max_pool1d(t1, 0), InvalidArgumentError, "max_pool1d: kernel_size"),
        (lambda t1, t3: F.max_pool1d(t3, 2), InvalidArgumentError, "max_pool1d: x must be a 3-D"),
        (lambda t1, t3: F.avg_pool1d(t1, 2, padding="valid", ceil_mode=True), InvalidArgumentError, "ceil_mode"),
        (lambda t1, t3: F.max_pool3d(t3, [2, 2]), InvalidArgumentError, "max_pool3d: kernel_size"),
        (
            lambda t1, t3: F.max_pool3d(t3, 2, return_mask=True, data_format="NDHWC"),
            InvalidArgumentError,
            "return_mask needs data_format 'NCDHW'",
        ),
        (lambda t1, t3: F.avg_pool3d(t3, 2, data_format="NCHW"), InvalidArgumentError, "avg_pool3d: data_format"),
        (lambda t1, t3: F.avg_pool3d(t3, 2, divisor_override=0), InvalidArgumentError, "divisor_override"),
        (lambda t1, t3: F.adaptive_avg_pool1d(t1, 0), InvalidArgumentError, "output_size must be positive"),
        (lambda t1, t3: F.adaptive_max_pool2d(t3, 2), InvalidArgumentError, "adaptive_max_pool2d: x must be a 4-D"),
        (lambda t1, t3: F.adaptive_max_pool3d(t3, [2, 2]), InvalidArgumentError, "adaptive_max_pool3d: output_size"),
        (lambda t1, t3: nn.Conv1D(4, 2, 3, padding_mode="wrap"), InvalidArgumentError, "Conv1D: padding_mode"),
        (lambda t1, t3: nn.Conv3D(4, 2, 3, padding=[1, 1, 1], padding_mode="reflect"), InvalidArgumentError, "Conv3D: padding must be an int"),
        (lambda t1, t3: nn.Conv3D(3, 2, 3, groups=2), InvalidArgumentError, "Conv3D: the channels"),
        (lambda t1, t3: nn.Conv1D(4, 2, [3, 3]), InvalidArgumentError, "Conv1D: kernel_size"),
        (lambda t1, t3: nn.Conv1DTranspose(4, 2, 3, data_format="NCDHW"), InvalidArgumentError, "Conv1DTranspose: data_format"),
        (lambda t1, t3: nn.MaxPool3D(2, data_format="NHWC"), InvalidArgumentError, "MaxPool3D: data_format"),
        (lambda t1, t3: nn.Conv1D(4, 2, 3, device="gpu:0"), UnimplementedError, "device"),
        (
            lambda t1, t3: F.max_unpool2d(t3[0], paddle.zeros([4, 4, 5, 6], "int32"), 2, output_size=[7, 12]),
            InvalidArgumentError,
            "max_unpool2d: invalid output_size \\[7, 12\\] \\(dim 0 must be between 8 and 12\\)",
        ),
        (
            lambda t1, t3: F.max_unpool1d(t1, paddle.zeros([2, 4, 9], "int32"), 2, data_format="NLC"),
            InvalidArgumentError,
            "max_unpool1d: data_format must be 'NCL'",
        ),
        (
            lambda t1, t3: F.max_unpool3d(t3, t1, 2),
            InvalidArgumentError,
            "max_unpool3d: indices must be a 5-D tensor",
        ),
    ],
)
def test_bad_arguments_name_what_was_wrong(call: Any, error: type, match: str) -> None:
    t1, t3 = paddle.to_tensor(INPUTS["x1"]), paddle.to_tensor(INPUTS["x3"])
    with pytest.raises(error, match=match):
        call(t1, t3)


STATIC_LAYERS = {
    # name: (make layer, input, eager reference from the layer's parameters)
    "Conv1D_reflect": (
        lambda: nn.Conv1D(4, 3, 3, padding=2, padding_mode="reflect"),
        "x1",
        lambda x, p: F.conv1d(F.pad(x, [2, 2], mode="reflect", data_format="NCL"), p["weight"], p["bias"]),
    ),
    "Conv3DTranspose": (
        lambda: nn.Conv3DTranspose(4, 2, 2, stride=2, padding=1),
        "x3",
        lambda x, p: F.conv3d_transpose(x, p["weight"], p["bias"], stride=2, padding=1),
    ),
    "MaxPool3D": (lambda: nn.MaxPool3D(2, stride=1), "x3", lambda x, p: F.max_pool3d(x, 2, 1)),
}


@pytest.mark.parametrize("name", sorted(STATIC_LAYERS))
def test_layers_build_into_a_static_program_with_paddles_parameter_names(name: str) -> None:
    make, x, reference = STATIC_LAYERS[name]
    array = INPUTS[x]
    main, startup = paddle.static.Program(), paddle.static.Program()
    paddle.enable_static()
    try:
        with paddle.static.unique_name_guard(), paddle.static.program_guard(main, startup):
            layer = make()
            out = layer(paddle.static.data("x", list(array.shape), "float32"))
            names = {key: p.name for key, p in layer.state_dict().items()}
        scope = paddle.static.Scope()
        executor = paddle.static.Executor()
        executor.run(startup, scope=scope)
        (got,) = executor.run(main, {"x": array}, [out], scope=scope)
        params = {key: np.asarray(scope.get(n)) for key, n in names.items()}
    finally:
        paddle.disable_static()
    prefix = name.split("_")[0].replace("Transpose", "_transpose").lower()
    assert all(n.startswith(prefix + "_0.") for n in names.values()), names
    want = reference(paddle.to_tensor(array), {k: paddle.to_tensor(v) for k, v in params.items()})
    np.testing.assert_allclose(got, want.numpy(), rtol=1e-5, atol=1e-5)
