"""``paddle.nn.utils`` (runtime/nn/utils.py) and ``ParameterList``/``LayerDict``
(runtime/nn/containers.py) against PaddlePaddle 3.3.1, recorded by
tests/tools/make_nnmisc_fixtures.py for the same weights: weight_norm's and spectral_norm's
parameter names, shapes, values, outputs and gradients; clip_grad_norm_'s total norms and clipped
gradients; the containers' state_dict keys (a PaddlePaddle state dict loads into phiops)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError, OutOfRangeError, PreconditionNotMetError
from tests.tools import nnmisc_cases as fx

DATA = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "nnmisc" / "paddle_3_3_1.json").read_text()
)
utils = paddle.nn.utils


def param(shape: list[int], dtype: str = "float32") -> Any:
    """A parameter (phiops has no top-level ``paddle.create_parameter`` yet: a Layer's)."""
    return paddle.nn.Layer().create_parameter(shape, dtype=dtype)


def linear() -> Any:
    layer = paddle.nn.Linear(3, 4)
    layer.weight.set_value(fx.W34)
    layer.bias.set_value(fx.B4)
    return layer


def conv() -> Any:
    layer = paddle.nn.Conv2D(2, 3, 2)
    layer.weight.set_value(fx.WCONV)
    layer.bias.set_value(np.zeros(3, np.float32))
    return layer


def trained(layer: Any, x: np.ndarray) -> dict:
    out = layer(paddle.to_tensor(x))
    weights = np.linspace(0.5, 1.5, out.size).astype(np.float32).reshape(out.shape)
    (out * paddle.to_tensor(weights)).sum().backward()
    return {
        "out": out.numpy(),
        "params": dict(layer.named_parameters()),
        "state_keys": list(layer.state_dict().keys()),
    }


def check_trained(got: dict, recorded: dict) -> None:
    np.testing.assert_allclose(got["out"], np.array(recorded["out"]), rtol=2e-5, atol=2e-6)
    assert got["state_keys"] == recorded["state_keys"]
    assert sorted(got["params"]) == sorted(recorded["params"])
    for name, expected in recorded["params"].items():
        got_param = got["params"][name]
        assert got_param.shape == expected["shape"], name
        np.testing.assert_allclose(
            got_param.numpy(), np.array(expected["value"]), rtol=2e-5, atol=2e-6
        )
        np.testing.assert_allclose(
            got_param.grad.numpy(), np.array(expected["grad"]), rtol=2e-5, atol=2e-6, err_msg=name
        )


WEIGHT_NORM = {
    "linear_dim0": (linear, 0, fx.X23),
    "linear_dim1": (linear, 1, fx.X23),
    "linear_none": (linear, None, fx.X23),
    "conv_dim0": (conv, 0, fx.XCONV),
    "conv_dim2": (conv, 2, fx.XCONV),
    "conv_dim_last": (conv, -1, fx.XCONV),
}


@pytest.mark.parametrize("label", sorted(WEIGHT_NORM))
def test_weight_norm_matches_paddle(label: str) -> None:
    make, dim, x = WEIGHT_NORM[label]
    layer = utils.weight_norm(make(), dim=dim)
    check_trained(trained(layer, x), DATA["weight_norm"][label])


def test_remove_weight_norm_restores_a_weight_parameter() -> None:
    layer = utils.weight_norm(linear(), dim=1)
    layer.weight_g.set_value(layer.weight_g.numpy() * 2)
    utils.remove_weight_norm(layer)
    recorded = DATA["weight_norm"]["removed"]
    assert list(layer.state_dict().keys()) == recorded["state_keys"]
    np.testing.assert_allclose(layer.weight.numpy(), np.array(recorded["weight"]), rtol=2e-6)
    assert not layer.weight.stop_gradient and not layer._forward_pre_hooks


def test_weight_norm_state_dict_loads_paddles_keys() -> None:
    recorded = DATA["weight_norm"]["linear_dim0"]["params"]
    layer = utils.weight_norm(paddle.nn.Linear(3, 4))
    layer.set_state_dict({k: np.array(v["value"], np.float32) for k, v in recorded.items()})
    out = layer(paddle.to_tensor(fx.X23))
    np.testing.assert_allclose(
        out.numpy(), np.array(DATA["weight_norm"]["linear_dim0"]["out"]), rtol=2e-5, atol=2e-6
    )


def test_spectral_norm_linear_matches_paddle() -> None:
    layer = utils.spectral_norm(linear())
    layer.weight_u.set_value(fx.U4)
    layer.weight_v.set_value(fx.V3)
    recorded = DATA["spectral_norm"]["linear"]
    check_trained(trained(layer, fx.X23), recorded)
    np.testing.assert_allclose(layer.weight_u.numpy(), np.array(recorded["u"]), rtol=2e-5)
    np.testing.assert_allclose(layer.weight_v.numpy(), np.array(recorded["v"]), rtol=2e-5)
    assert {"weight_u", "weight_v"} <= {name for name, _ in layer.named_buffers()}
    layer.eval()
    np.testing.assert_allclose(
        layer(paddle.to_tensor(fx.X23)).numpy(), np.array(recorded["eval_out"]), rtol=2e-5
    )


def test_spectral_norm_conv_with_two_iterations_matches_paddle() -> None:
    layer = utils.spectral_norm(conv(), n_power_iterations=2, eps=1e-6)
    layer.weight_u.set_value(fx.U3)
    layer.weight_v.set_value(fx.V8)
    recorded = DATA["spectral_norm"]["conv"]
    check_trained(trained(layer, fx.XCONV), recorded)
    np.testing.assert_allclose(layer.weight_u.numpy(), np.array(recorded["u"]), rtol=2e-5)
    np.testing.assert_allclose(layer.weight_v.numpy(), np.array(recorded["v"]), rtol=2e-5)


def test_spectral_norm_draws_unit_vectors() -> None:
    layer = utils.spectral_norm(paddle.nn.Linear(6, 5))
    assert layer.weight_u.shape == [5] and layer.weight_v.shape == [6]
    np.testing.assert_allclose(np.linalg.norm(layer.weight_u.numpy()), 1.0, rtol=1e-5)
    np.testing.assert_allclose(np.linalg.norm(layer.weight_v.numpy()), 1.0, rtol=1e-5)


CLIP = {"l2": (1.0, 2.0), "l1": (5.0, 1.0), "inf": (0.5, float("inf")), "zero": (4.0, 0),
        "no_clip": (100.0, 2.0)}  # fmt: skip


@pytest.mark.parametrize("label", sorted(CLIP))
def test_clip_grad_norm_matches_paddle(label: str) -> None:
    max_norm, norm_type = CLIP[label]
    p1 = param([3, 4], "float32")
    p2 = param([5], "float32")
    ((p1 * paddle.to_tensor(fx.G1)).sum() + (p2 * paddle.to_tensor(fx.G2)).sum()).backward()
    total = utils.clip_grad_norm_([p1, p2], max_norm, norm_type)
    recorded = DATA["clip_grad_norm"][label]
    np.testing.assert_allclose(float(total), recorded["total"], rtol=1e-6)
    for tensor, expected in zip((p1, p2), recorded["grads"]):
        np.testing.assert_allclose(tensor.grad.numpy(), np.array(expected), rtol=1e-5, atol=1e-7)


def test_clip_grad_value_clips_each_gradient() -> None:
    p = param([3, 4], "float32")
    (p * paddle.to_tensor(fx.G1)).sum().backward()
    assert utils.clip_grad_value_(p, 0.75) is None
    np.testing.assert_array_equal(p.grad.numpy(), np.clip(fx.G1, -0.75, 0.75))


def test_parameters_to_vector_and_back() -> None:
    a = param([2, 3], "float32")
    b = param([4], "float32")
    vec = utils.parameters_to_vector([a, b])
    np.testing.assert_array_equal(vec.numpy(), np.concatenate([a.numpy().ravel(), b.numpy()]))
    assert not vec.stop_gradient and a.shape == [2, 3]
    values = np.arange(12, dtype=np.float32)  # longer than the parameters: the rest unused
    utils.vector_to_parameters(paddle.to_tensor(values), [a, b])
    np.testing.assert_array_equal(a.numpy(), values[:6].reshape(2, 3))
    np.testing.assert_array_equal(b.numpy(), values[6:10])


class Holder(paddle.nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.params = paddle.nn.ParameterList([param([2, 3], "float32") for _ in range(2)])
        self.params.append(param([4], "float32"))
        self.blocks = paddle.nn.LayerDict(
            [("fc", paddle.nn.Linear(3, 2)), ("act", paddle.nn.ReLU())]
        )
        self.blocks["bn"] = paddle.nn.BatchNorm1D(2)


def test_containers_register_under_paddles_names() -> None:
    holder = Holder()
    recorded = DATA["containers"]
    assert {k: list(v.shape) for k, v in holder.state_dict().items()} == recorded["state_shapes"]
    assert list(holder.blocks.keys()) == recorded["layer_dict_keys"]
    state = {k: np.full(shape, 0.5, np.float32) for k, shape in recorded["state_shapes"].items()}
    holder.set_state_dict(state)
    np.testing.assert_array_equal(holder.params[2].numpy(), np.full(4, 0.5, np.float32))
    np.testing.assert_array_equal(holder.blocks["fc"].weight.numpy(), np.full((3, 2), 0.5))


def test_parameter_list_indexing_and_assignment() -> None:
    params = paddle.nn.ParameterList([param([2], "float32") for _ in range(3)])
    assert len(params) == 3 and params[-1] is params[2]
    first = params[0]
    params[0] = paddle.to_tensor(np.array([1.0, 2.0], np.float32))
    assert params[0] is first  # PaddlePaddle assigns into the parameter
    np.testing.assert_array_equal(first.numpy(), [1.0, 2.0])
    assert [p is q for p, q in zip(params, params.parameters())] == [True] * 3
    with pytest.raises(OutOfRangeError, match="index 3 is out of range for 3 parameters"):
        params[3]


def test_layer_dict_mapping_api() -> None:
    layers = paddle.nn.LayerDict({"a": paddle.nn.ReLU(), "b": paddle.nn.Tanh()})
    layers.update(paddle.nn.LayerDict({"c": paddle.nn.Sigmoid()}))
    assert list(layers) == ["a", "b", "c"] and "b" in layers and len(layers) == 3
    assert isinstance(layers.pop("b"), paddle.nn.Tanh) and list(layers.keys()) == ["a", "c"]
    assert [type(v).__name__ for v in layers.values()] == ["ReLU", "Sigmoid"]
    del layers["a"]
    assert [k for k, _ in layers.items()] == ["c"]
    layers.clear()
    assert len(layers) == 0


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: utils.weight_norm(linear(), dim=2), InvalidArgumentError, "'dim' must be in"),
        (lambda: utils.weight_norm(linear(), name="w"), InvalidArgumentError, "no parameter 'w'"),
        (
            lambda: utils.weight_norm(utils.weight_norm(linear())),
            PreconditionNotMetError,
            "already has a weight_norm hook",
        ),
        (lambda: utils.remove_weight_norm(linear()), InvalidArgumentError, "not found"),
        (
            lambda: utils.spectral_norm(linear(), n_power_iterations=0),
            InvalidArgumentError,
            "'n_power_iterations' must be positive",
        ),
        (lambda: utils.spectral_norm(linear(), dim=3), InvalidArgumentError, "'dim' must be in"),
        (
            lambda: utils.clip_grad_norm_([param([2], "float32")], 1.0, 3),
            InvalidArgumentError,
            "'norm_type' must be one of",
        ),
        (
            lambda: utils.vector_to_parameters(
                paddle.to_tensor(np.zeros(3, np.float32)), [param([4], "float32")]
            ),
            InvalidArgumentError,
            "has 3 elements, the parameters need 4",
        ),
        (
            lambda: paddle.nn.ParameterList([paddle.to_tensor([1.0])]),
            InvalidArgumentError,
            "expected a parameter",
        ),
        (lambda: paddle.nn.LayerDict([("a",)]), InvalidArgumentError, "\\(key, layer\\) pair"),
        (lambda: paddle.nn.LayerDict({"a": 3}), InvalidArgumentError, "must be a Layer"),
    ],
)
def test_bad_arguments_name_what_was_wrong(call: Any, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        call()


def test_clip_grad_norm_is_dynamic_only() -> None:
    paddle.enable_static()
    try:
        with pytest.raises(PreconditionNotMetError, match="dynamic mode"):
            utils.clip_grad_norm_([], 1.0)
    finally:
        paddle.disable_static()
