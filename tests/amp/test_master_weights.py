"""multi_precision master weights (issue 25): every optimizer but LBFGS keeps a float32 master
copy of each bfloat16/float16 parameter, made at its first step and named
``<parameter>_fp32_master_0``; the update runs in float32 on the master and the parameter is its
cast. SGD, Momentum, Adam and AdamW are checked against numpy in float32, the others against
their own float32 steps (which tests/optimizer/test_optimizers2.py checks against numpy), and, for SGD (the only one of the four with a bfloat16
CPU kernel in PaddlePaddle 3.3.1), against PaddlePaddle's recording
(tests/tools/make_master_weights_fixtures.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime import flags
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError

DATA = np.load(Path(__file__).resolve().parents[1] / "data" / "master_weights" / "sgd_bf16.npz")
BF16 = DataType.BFLOAT16.numpy_dtype
STEPS = 20
LR = 0.05


def _layer(dtype: str = "bfloat16") -> paddle.nn.Linear:
    layer = paddle.nn.Linear(3, 2)
    layer.weight.set_value(DATA["weight0"])
    layer.bias.set_value(DATA["bias0"])
    with flags.flags_guard({"amp_on_cpu": True}):
        paddle.amp.decorate(layer, level="O2", dtype=dtype)  # casts the parameters in place
    return layer


def _train(opt_factory, steps: int = STEPS, dtype: str = "bfloat16"):
    layer = _layer(dtype)
    opt = opt_factory(layer.parameters())
    _train_from(layer, opt, 0, steps)
    return layer, opt


def _reference(rule: str, steps: int = STEPS, half: object = BF16) -> list[np.ndarray]:
    """numpy in float32: the masters after ``steps`` steps (gradients: the coefficients in
    the parameters' dtype ``half``, as the parameters' gradients are)."""
    masters = [DATA["weight0"].astype(half).astype(np.float32), DATA["bias0"].astype(half).astype(np.float32)]
    coefs = [DATA["coef_w"], DATA["coef_b"]]
    out = []
    for master, coef in zip(masters, coefs):
        m = master.copy()
        v = np.zeros_like(m)
        m1, m2 = np.zeros_like(m), np.zeros_like(m)
        b1p, b2p = np.float32(0.9), np.float32(0.999)
        lr = np.float32(LR)
        for step in range(steps):
            g = coef[step].astype(half).astype(np.float32)
            if rule == "sgd":
                m = m - lr * g
            elif rule == "momentum":
                v = np.float32(0.9) * v + g
                m = m - lr * v
            else:
                if rule == "adamw":
                    m = m - lr * np.float32(0.01) * m
                m1 = np.float32(0.9) * m1 + np.float32(0.1) * g
                m2 = np.float32(0.999) * m2 + np.float32(0.001) * g * g
                lr_t = lr * np.sqrt(np.float32(1) - b2p) / (np.float32(1) - b1p)
                m = m - lr_t * (m1 / (np.sqrt(m2) + np.float32(1e-8) * np.sqrt(np.float32(1) - b2p)))
                b1p, b2p = b1p * np.float32(0.9), b2p * np.float32(0.999)
        out.append(m)
    return out


RULES = {
    "sgd": lambda ps: paddle.optimizer.SGD(LR, parameters=ps, multi_precision=True),
    "momentum": lambda ps: paddle.optimizer.Momentum(LR, 0.9, parameters=ps, multi_precision=True),
    "adam": lambda ps: paddle.optimizer.Adam(LR, parameters=ps, multi_precision=True),
    "adamw": lambda ps: paddle.optimizer.AdamW(LR, parameters=ps, multi_precision=True),
}


@pytest.mark.parametrize("rule", sorted(RULES))
def test_twenty_steps_match_numpy_in_float32(rule: str) -> None:
    layer, opt = _train(RULES[rule])
    masters = opt.state_dict()["master_weights"]
    assert sorted(masters) == ["linear_0.b_0", "linear_0.w_0"] or len(masters) == 2
    weight_master = masters[layer.weight.name]
    bias_master = masters[layer.bias.name]
    assert weight_master.dtype == paddle.float32
    assert weight_master.name == f"{layer.weight.name}_fp32_master_0"
    ref_w, ref_b = _reference(rule)
    np.testing.assert_allclose(weight_master.numpy(), ref_w, rtol=2e-5, atol=2e-6)
    np.testing.assert_allclose(bias_master.numpy(), ref_b, rtol=2e-5, atol=2e-6)
    assert layer.weight.dtype == paddle.bfloat16
    # the parameter is its master's cast
    np.testing.assert_array_equal(
        layer.weight.astype("float32").numpy(), weight_master.numpy().astype(BF16).astype(np.float32)
    )
    # the state is float32 and named after the master
    for key, value in opt.state_dict().items():
        if key != "master_weights":
            assert "_fp32_master_0_" in key and value.dtype == paddle.float32


def test_sgd_names_and_bfloat16_steps_match_paddle_recording() -> None:
    # PaddlePaddle 3.3.1's CPU sgd kernel makes the masters but ignores them (see the fixture
    # script): its bfloat16 parameters are plain bfloat16 SGD's, its masters the first casts
    layer, opt = _train(RULES["sgd"])
    masters = opt.state_dict()["master_weights"]
    names = [masters[p.name].name for p in (layer.weight, layer.bias)]
    assert names == [f"{p.name}_fp32_master_0" for p in (layer.weight, layer.bias)]
    assert [n.split(".", 1)[1] for n in names] == [n.split(".", 1)[1] for n in DATA["master_names"]]
    np.testing.assert_array_equal(DATA["master_weight"], DATA["weight0"].astype(BF16).astype(np.float32))
    plain, _ = _train(lambda ps: paddle.optimizer.SGD(LR, parameters=ps))
    np.testing.assert_array_equal(plain.weight.astype("float32").numpy(), DATA["weight"])
    np.testing.assert_array_equal(plain.bias.astype("float32").numpy(), DATA["bias"])


def test_float16_adam_runs_through_the_master() -> None:
    layer, opt = _train(RULES["adam"], steps=3, dtype="float16")
    ref_w, _ = _reference("adam", steps=3, half=np.float16)
    master = opt.state_dict()["master_weights"][layer.weight.name]
    np.testing.assert_allclose(master.numpy(), ref_w, rtol=2e-5, atol=2e-6)
    assert layer.weight.dtype == paddle.float16


def _train_from(layer, opt, start: int, stop: int) -> None:
    """Steps ``start`` to ``stop``, with the gradients of sum(param.astype(float32) * coef)
    given directly: phiops's autograd records no bfloat16 ops (is_differentiable reads numpy's
    dtype kind, 'V' for bfloat16)."""
    for step in range(start, stop):
        for param, coef in ((layer.weight, DATA["coef_w"][step]), (layer.bias, DATA["coef_b"][step])):
            param._grad = paddle.to_tensor(coef).astype(param.dtype)
        opt.step()
        opt.clear_grad()


@pytest.mark.parametrize("rule", ["sgd", "momentum", "adam", "adamw"])
def test_save_load_resumes_as_uninterrupted_training(rule: str, tmp_path: Path) -> None:
    with paddle.static.unique_name_guard():
        layer, opt = _train(RULES[rule], steps=6)
    expected = [layer.weight.astype("float32").numpy(), layer.bias.astype("float32").numpy()]
    masters = {k: v.numpy() for k, v in opt.state_dict()["master_weights"].items()}
    with paddle.static.unique_name_guard():
        layer, opt = _train(RULES[rule], steps=3)
        # the bfloat16 parameters in memory (phiops.load reads no bfloat16 pickle)
        params = [p.numpy().copy() for p in layer.parameters()]
        paddle.save(opt.state_dict(), str(tmp_path / "m.pdopt"))
    with paddle.static.unique_name_guard():
        layer = _layer()
        opt = RULES[rule](layer.parameters())
        for param, value in zip(layer.parameters(), params):
            param.set_value(value)
        opt.set_state_dict(paddle.load(str(tmp_path / "m.pdopt")))
        _train_from(layer, opt, 3, 6)
    np.testing.assert_array_equal(layer.weight.astype("float32").numpy(), expected[0])
    np.testing.assert_array_equal(layer.bias.astype("float32").numpy(), expected[1])
    for name, value in opt.state_dict()["master_weights"].items():
        np.testing.assert_array_equal(value.numpy(), masters[name])


def test_master_weights_without_multi_precision_is_an_error() -> None:
    layer, opt = _train(RULES["sgd"], steps=1)
    plain = paddle.optimizer.SGD(LR, parameters=layer.parameters())
    with pytest.raises(InvalidArgumentError, match="multi_precision"):
        plain.set_state_dict(opt.state_dict())


def test_bad_multi_precision() -> None:
    layer = _layer()
    with pytest.raises(InvalidArgumentError, match="multi_precision must be a bool"):
        paddle.optimizer.Adam(parameters=layer.parameters(), multi_precision="yes")
    with pytest.raises(InvalidArgumentError, match="Rprop: multi_precision must be a bool"):
        paddle.optimizer.Rprop(parameters=layer.parameters(), multi_precision=1)


def test_decorate_o2_with_grad_scaler_trains(half_matmul: None) -> None:
    # float16 (bfloat16 ops record no gradients in phiops); half_matmul: conftest's float16
    # CPU matmul, with FLAGS_amp_on_cpu
    model = paddle.nn.Linear(3, 2)
    opt = paddle.optimizer.AdamW(0.01, parameters=model.parameters())
    model, opt = paddle.amp.decorate(model, opt, level="O2")
    assert opt._multi_precision
    assert model.weight.dtype == paddle.float16
    scaler = paddle.amp.GradScaler(init_loss_scaling=1024)
    x = paddle.to_tensor(DATA["coef_w"][0].T)
    before = model.weight.astype("float32").numpy()
    with paddle.amp.auto_cast(level="O2"):
        loss = model(x).astype("float32").mean()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    master = opt.state_dict()["master_weights"][model.weight.name]
    assert master.dtype == paddle.float32
    after = model.weight.astype("float32").numpy()
    assert not np.array_equal(after, before)
    np.testing.assert_array_equal(after, master.numpy().astype(np.float16).astype(np.float32))


def test_decorate_master_weight_false_keeps_none(amp_on_cpu: None) -> None:
    model = paddle.nn.Linear(3, 2)
    opt = paddle.optimizer.SGD(0.01, parameters=model.parameters(), multi_precision=True)
    paddle.amp.decorate(model, opt, level="O2", dtype="bfloat16", master_weight=False)
    assert opt._multi_precision is False


# The optimizers that take masters from amp.decorate(level="O2") (PaddlePaddle's constructors
# have no multi_precision) or from multi_precision=True: their masters step as the same
# optimizer does in float32 from the parameters' first values, with the gradients the
# parameters' dtype gives (a float32 step is checked against numpy in test_optimizers2.py).
OTHERS = {
    "adadelta": lambda ps: paddle.optimizer.Adadelta(0.5, parameters=ps),
    "adagrad": lambda ps: paddle.optimizer.Adagrad(LR, parameters=ps),
    "adamax": lambda ps: paddle.optimizer.Adamax(LR, parameters=ps),
    "nadam": lambda ps: paddle.optimizer.NAdam(LR, parameters=ps),
    "radam": lambda ps: paddle.optimizer.RAdam(LR, parameters=ps),
    "rmsprop": lambda ps: paddle.optimizer.RMSProp(LR, parameters=ps, centered=True),
    "lamb": lambda ps: paddle.optimizer.Lamb(LR, parameters=ps, multi_precision=True),
    "rprop": lambda ps: paddle.optimizer.Rprop(0.01, parameters=ps, multi_precision=True),
    "asgd": lambda ps: paddle.optimizer.ASGD(LR, batch_num=2, parameters=ps, multi_precision=True),
}


@pytest.mark.parametrize("rule", sorted(OTHERS))
def test_every_optimizer_steps_its_masters_as_float32_training(rule: str) -> None:
    steps = 4
    with paddle.static.unique_name_guard():
        layer = paddle.nn.Linear(3, 2)
        layer.weight.set_value(DATA["weight0"])
        layer.bias.set_value(DATA["bias0"])
        opt = OTHERS[rule](layer.parameters())
        with flags.flags_guard({"amp_on_cpu": True}):
            paddle.amp.decorate(layer, opt, level="O2", dtype="bfloat16")
        assert opt._multi_precision and layer.weight.dtype == paddle.bfloat16
        _train_from(layer, opt, 0, steps)
    with paddle.static.unique_name_guard():
        plain = paddle.nn.Linear(3, 2)
        plain.weight.set_value(DATA["weight0"].astype(BF16).astype(np.float32))
        plain.bias.set_value(DATA["bias0"].astype(BF16).astype(np.float32))
        reference = OTHERS[rule](plain.parameters())
        reference._multi_precision = False
        for step in range(steps):
            for param, coef in ((plain.weight, DATA["coef_w"][step]), (plain.bias, DATA["coef_b"][step])):
                param._grad = paddle.to_tensor(coef.astype(BF16).astype(np.float32))
            reference.step()
            reference.clear_grad()
    masters = opt.state_dict()["master_weights"]
    for param, expected in ((layer.weight, plain.weight), (layer.bias, plain.bias)):
        master = masters[param.name]
        assert master.dtype == paddle.float32 and master.name == f"{param.name}_fp32_master_0"
        np.testing.assert_allclose(master.numpy(), expected.numpy(), rtol=1e-6, atol=1e-7)
        first = DATA["weight0" if param is layer.weight else "bias0"].astype(BF16).astype(np.float32)
        assert np.abs(master.numpy() - first).max() > 1e-3  # it moved
        assert param.dtype == paddle.bfloat16
        np.testing.assert_array_equal(
            param.astype("float32").numpy(), master.numpy().astype(BF16).astype(np.float32)
        )
    # the state is float32, named after the masters
    for key, value in opt.state_dict().items():
        if key not in ("master_weights", "LR_Scheduler") and hasattr(value, "dtype"):
            assert "_fp32_master_0_" in key, key
            if value.dtype != paddle.int64:  # ASGD's step count
                assert value.dtype == paddle.float32, key


def test_master_grad_makes_the_parameters_gradients_float32_after_backward(
    half_matmul: None,
) -> None:
    # PaddlePaddle's master_grad: at the end of each backward the float16 gradients of the
    # models' parameters become float32 casts, so that the update (through the masters) reads
    # float32 gradients; without it they stay float16
    x = paddle.to_tensor(DATA["coef_w"][0].T)
    grads = {}
    for master_grad in (False, True):
        with paddle.static.unique_name_guard():
            model = paddle.nn.Linear(3, 2)
            model.weight.set_value(DATA["weight0"])
            model.bias.set_value(DATA["bias0"])
            opt = paddle.optimizer.SGD(LR, parameters=model.parameters())
            model, opt = paddle.amp.decorate(model, opt, level="O2", master_grad=master_grad)
            for _ in range(2):  # the second backward accumulates into the float32 gradient
                with paddle.amp.auto_cast(level="O2"):
                    loss = model(x).astype("float32").sum()
                loss.backward()
            grads[master_grad] = model.weight.grad
            opt.step()
            master = opt.state_dict()["master_weights"][model.weight.name]
            np.testing.assert_array_equal(
                model.weight.astype("float32").numpy(),
                master.numpy().astype(np.float16).astype(np.float32),
            )
    assert grads[False].dtype == paddle.float16
    assert grads[True].dtype == paddle.float32
    # x^T summed twice: the float32 gradient is the float16 one's value
    expected = 2 * x.numpy().astype(np.float16).astype(np.float32).sum(0)[:, None] * np.ones((1, 2))
    np.testing.assert_allclose(grads[True].numpy(), expected, rtol=2e-3)
    np.testing.assert_allclose(grads[False].astype("float32").numpy(), expected, rtol=2e-3)
