"""GradScaler and AmpScaler with FLAGS_amp_on_cpu: loss scaling, unscaling, skipped steps and
dynamic loss scaling as PaddlePaddle's grad_scaler.py defines them (expected values computed
here from those rules, by hand)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError

X = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)


def model() -> tuple[Any, Any]:
    layer = paddle.nn.Linear(4, 2)
    layer.weight.set_value(np.arange(8, dtype=np.float32).reshape(4, 2) / 10)
    layer.bias.set_value(np.zeros(2, np.float32))
    return layer, paddle.optimizer.SGD(learning_rate=0.5, parameters=layer.parameters())


def start_float16(scaler: Any) -> None:
    """GradScaler's dynamic scaling stays on only after an auto_cast that named float16."""
    with paddle.amp.auto_cast(dtype="float16"):
        pass


def test_scale_multiplies_and_step_unscales_before_updating(amp_on_cpu: None) -> None:
    layer, opt = model()
    reference, ref_opt = model()
    scaler = paddle.amp.GradScaler(init_loss_scaling=1024.0)
    start_float16(scaler)
    loss = layer(paddle.to_tensor(X)).mean()
    scaled = scaler.scale(loss)
    np.testing.assert_allclose(scaled.numpy(), [float(loss) * 1024], rtol=1e-6)
    scaled.backward()
    np.testing.assert_allclose(layer.bias.grad.numpy(), [512.0, 512.0], rtol=1e-6)
    scaler.step(opt)
    scaler.update()
    reference(paddle.to_tensor(X)).mean().backward()
    ref_opt.step()
    np.testing.assert_allclose(layer.weight.numpy(), reference.weight.numpy(), rtol=1e-6)
    np.testing.assert_allclose(layer.bias.numpy(), reference.bias.numpy(), rtol=1e-6)


def _step(scaler: Any, layer: Any, opt: Any, finite: bool) -> None:
    loss = layer(paddle.to_tensor(X)).mean()
    if not finite:
        loss = loss * float("inf")
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    opt.clear_grad()


def test_dynamic_loss_scaling_follows_paddles_rule(amp_on_cpu: None, capsys: Any) -> None:
    layer, opt = model()
    scaler = paddle.amp.GradScaler(
        init_loss_scaling=8.0, incr_every_n_steps=2, decr_every_n_nan_or_inf=2
    )
    start_float16(scaler)
    scales = []
    for finite in [True, True, False, True, False, False, True]:
        before = layer.weight.numpy().copy()
        _step(scaler, layer, opt, finite)
        if not finite:
            np.testing.assert_array_equal(layer.weight.numpy(), before)  # the step is skipped
        scales.append(float(scaler.state_dict()["scale"][0]))
    # two finite steps double it; a non-finite one resets the good count; two non-finite halve it
    assert scales == [8.0, 16.0, 16.0, 16.0, 16.0, 8.0, 8.0]
    assert (
        "Found inf or nan, current scale is: 16.0, decrease to: 16.0*0.5" in capsys.readouterr().out
    )
    state = scaler.state_dict()
    assert state["incr_count"] == 1 and state["decr_count"] == 0


def test_fixed_loss_scaling_never_changes(amp_on_cpu: None) -> None:
    layer, opt = model()
    scaler = paddle.amp.GradScaler(init_loss_scaling=4.0, use_dynamic_loss_scaling=False)
    for finite in [True, False, True]:
        _step(scaler, layer, opt, finite)
    assert not scaler.is_use_dynamic_loss_scaling()
    assert float(scaler.state_dict()["scale"][0]) == 4.0


def test_minimize_unscales_steps_and_updates(amp_on_cpu: None) -> None:
    layer, opt = model()
    scaler = paddle.amp.AmpScaler(init_loss_scaling=2.0, incr_every_n_steps=1)
    start_float16(scaler)
    scaled = scaler.scale(layer(paddle.to_tensor(X)).mean())
    scaled.backward()
    scaler.minimize(opt, scaled)
    assert float(scaler.state_dict()["scale"][0]) == 4.0
    np.testing.assert_allclose(layer.bias.numpy(), [-0.25, -0.25], rtol=1e-6)


def test_unscale_then_clip_then_step(amp_on_cpu: None) -> None:
    layer, opt = model()
    scaler = paddle.amp.GradScaler(init_loss_scaling=64.0)
    start_float16(scaler)
    scaler.scale(layer(paddle.to_tensor(X)).mean()).backward()
    scaler.unscale_(opt)
    np.testing.assert_allclose(layer.bias.grad.numpy(), [0.5, 0.5], rtol=1e-6)
    with pytest.raises(RuntimeError, match="unscale_\\(\\) has already been called"):
        scaler.unscale_(opt)
    scaler.step(opt)
    with pytest.raises(RuntimeError, match="step\\(\\) has already been called"):
        scaler.step(opt)
    with pytest.raises(RuntimeError, match="unscale_\\(\\) is being called after step"):
        scaler.unscale_(opt)
    scaler.update()
    np.testing.assert_allclose(layer.bias.numpy(), [-0.25, -0.25], rtol=1e-6)


def test_dynamic_scaling_is_turned_off_for_bfloat16(amp_on_cpu: None) -> None:
    scaler = paddle.amp.GradScaler()
    with paddle.amp.auto_cast(dtype="bfloat16"):
        pass
    loss = paddle.to_tensor(np.float32(2.0))
    with pytest.warns(
        UserWarning, match="not recommended to use dynamic loss scaling for bfloat16"
    ):
        out = scaler.scale(loss)
    assert out is loss and not scaler.is_enable()


def test_state_dict_round_trips(amp_on_cpu: None) -> None:
    layer, opt = model()
    scaler = paddle.amp.GradScaler(init_loss_scaling=32.0, incr_every_n_steps=3)
    start_float16(scaler)
    _step(scaler, layer, opt, True)
    other = paddle.amp.GradScaler()
    other.load_state_dict(scaler.state_dict())
    assert {k: v for k, v in other.state_dict().items() if k != "scale"} == {
        k: v for k, v in scaler.state_dict().items() if k != "scale"
    }
    np.testing.assert_array_equal(other.state_dict()["scale"], [32.0])
    assert other.get_incr_every_n_steps() == 3
    with pytest.raises(RuntimeError, match="empty"):
        other.load_state_dict({})
    with pytest.raises(InvalidArgumentError, match="missing keys"):
        other.load_state_dict({"scale": np.array([1.0])})


def test_settings_are_checked(amp_on_cpu: None) -> None:
    with pytest.raises(InvalidArgumentError, match="incr_ratio must be > 1.0"):
        paddle.amp.GradScaler(incr_ratio=1.0)
    with pytest.raises(InvalidArgumentError, match="decr_ratio must be < 1.0"):
        paddle.amp.GradScaler(decr_ratio=1.5)
    scaler = paddle.amp.GradScaler()
    scaler.set_init_loss_scaling(8.0)
    assert scaler.get_init_loss_scaling() == 8.0
    np.testing.assert_array_equal(scaler.state_dict()["scale"], [8.0])
    with pytest.raises(InvalidArgumentError, match="var must be a Tensor"):
        scaler.scale(3.0)
