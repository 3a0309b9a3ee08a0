"""phiops.amp against what PaddlePaddle 3.3.1 does on the CPU (recorded by
tests/tools/make_amp_fixtures.py): the op lists, and auto_cast, GradScaler and decorate having no
effect there, with PaddlePaddle's warnings."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import phiops as paddle

DATA = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "amp" / "paddle_3_3_1.json").read_text()
)


def _dtype(value: object) -> str:
    """A dtype's name without its prefix (phiops prints ``phi.float32``, PaddlePaddle
    ``paddle.float32``)."""
    return str(value).rsplit(".", 1)[-1]


def _lists(table: dict) -> dict:
    return {d: {lvl: sorted(ops) for lvl, ops in levels.items()} for d, levels in table.items()}


def test_the_op_lists_are_paddles() -> None:
    assert _lists(paddle.amp.white_list()) == DATA["white_list"]
    assert _lists(paddle.amp.black_list()) == DATA["black_list"]


def test_float16_and_bfloat16_are_not_supported_on_the_cpu() -> None:
    assert paddle.amp.is_float16_supported() is DATA["is_float16_supported"]
    assert paddle.amp.is_bfloat16_supported() is DATA["is_bfloat16_supported"]


def test_auto_cast_warns_and_does_nothing_on_the_cpu() -> None:
    recorded = DATA["auto_cast_cpu"]
    x = paddle.to_tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4))
    w = paddle.to_tensor(np.linspace(0.5, -0.5, 8, dtype=np.float32).reshape(4, 2))
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        with paddle.amp.auto_cast(level="O1", dtype="float16"):
            assert not paddle.amp.is_autocast_enabled()
            out = paddle.matmul(x, w)
            soft = paddle.nn.functional.softmax(out)
    messages = [str(w.message) for w in record]
    assert len(messages) == len(recorded["warnings"]) == 1
    assert messages[0].startswith(recorded["warnings"][0])
    assert _dtype(out.dtype) == _dtype(recorded["matmul_dtype"])
    assert _dtype(soft.dtype) == _dtype(recorded["softmax_dtype"])
    np.testing.assert_allclose(out.numpy(), recorded["matmul"], rtol=1e-6)


def test_grad_scaler_warns_and_is_disabled_on_the_cpu() -> None:
    recorded = DATA["grad_scaler_cpu"]
    x = paddle.to_tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4))
    layer = paddle.nn.Linear(4, 2)
    layer.weight.set_value(np.array(recorded["weight0"], np.float32))
    layer.bias.set_value(np.zeros(2, np.float32))
    opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=layer.parameters())
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        scaler = paddle.amp.GradScaler(init_loss_scaling=1024.0)
    messages = [str(w.message) for w in record]
    assert len(messages) == 1 and messages[0].startswith(recorded["warnings"][0])
    assert scaler.is_enable() is recorded["is_enable"]
    loss = layer(x).mean()
    scaled = scaler.scale(loss)
    assert scaled is loss
    scaled.backward()
    scaler.step(opt)
    scaler.update()
    assert scaler.state_dict() == recorded["state_dict"] == {}
    np.testing.assert_allclose(layer.weight.numpy(), recorded["weight1"], rtol=1e-6)
    np.testing.assert_allclose(layer.bias.numpy(), recorded["bias1"], rtol=1e-6)


def test_decorate_o2_leaves_parameters_float32_on_the_cpu_without_a_warning() -> None:
    recorded = DATA["decorate_cpu"]
    model = paddle.nn.Sequential(paddle.nn.Linear(4, 4), paddle.nn.LayerNorm(4))
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        decorated = paddle.amp.decorate(model, level="O2")
    assert decorated is model
    assert [str(w.message) for w in record] == recorded["warnings"]
    assert [_dtype(p.dtype) for p in model.parameters()] == [_dtype(d) for d in recorded["dtypes"]]


@pytest.mark.parametrize(
    "kwargs, case",
    [
        ({"level": "O3"}, "level"),
        ({"dtype": "float64"}, "dtype"),
        ({"custom_white_list": {"relu"}, "custom_black_list": {"relu"}}, "overlap"),
    ],
)
def test_bad_arguments_raise_paddles_errors(kwargs: dict, case: str) -> None:
    kind, message = DATA["errors"][case]
    with pytest.raises(ValueError) as info:
        with paddle.amp.auto_cast(**kwargs):
            pass
    assert type(info.value).__name__ == kind
    assert str(info.value).startswith(message)
