"""paddle.amp.decorate with FLAGS_amp_on_cpu: O2 casts parameters in place except norm layers'
(PaddlePaddle's need_keep_fp32) and excluded layers'; what phiops does not implement raises."""

from __future__ import annotations

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError

F16, BF16, F32 = DataType.FLOAT16, DataType.BFLOAT16, DataType.FLOAT32


def net() -> paddle.nn.Layer:
    return paddle.nn.Sequential(
        paddle.nn.Linear(4, 4),
        paddle.nn.BatchNorm1D(4),
        paddle.nn.LayerNorm(4),
        paddle.nn.Linear(4, 2),
    )


def dtypes(model: paddle.nn.Layer) -> list[DataType]:
    return [p.meta.dtype for p in model.parameters()]


def test_o2_float16_keeps_batch_norm_and_layer_norm_float32(amp_on_cpu: None) -> None:
    model = net()
    weight = model[0].weight
    values = weight.numpy().copy()
    assert paddle.amp.decorate(model, level="O2") is model
    assert dtypes(model) == [F16, F16, F32, F32, F32, F32, F16, F16]
    assert model[0].weight is weight  # cast in place: optimizers keep their references
    np.testing.assert_array_equal(weight.numpy(), values.astype(np.float16))


def test_o2_bfloat16_casts_layer_norm_too(amp_on_cpu: None) -> None:
    model = net()
    paddle.amp.decorate(model, level="O2", dtype="bfloat16")
    assert dtypes(model) == [BF16, BF16, F32, F32, BF16, BF16, BF16, BF16]


def test_excluded_layers_keep_float32(amp_on_cpu: None) -> None:
    model = net()
    paddle.amp.decorate(model, level="O2", excluded_layers=[model[3]])
    assert dtypes(model)[-2:] == [F32, F32]
    other = net()
    paddle.amp.decorate(other, level="O2", excluded_layers=paddle.nn.Linear)
    assert dtypes(other) == [F32, F32, F32, F32, F32, F32, F32, F32]
    with pytest.raises(TypeError, match="excluded_layers"):
        paddle.amp.decorate(net(), level="O2", excluded_layers=[3])


def test_o1_returns_the_models_and_optimizers_unchanged(amp_on_cpu: None) -> None:
    model = net()
    opt = paddle.optimizer.SGD(parameters=model.parameters())
    models, optimizers = paddle.amp.decorate(model, opt, level="O1")
    assert models is model and optimizers is opt
    assert set(dtypes(model)) == {F32}


def test_o2_with_optimizers_makes_them_keep_master_weights(amp_on_cpu: None) -> None:
    # PaddlePaddle's _set_multi_precision: master weights unless master_weight=False;
    # tests/amp/test_master_weights.py checks the steps
    model = net()
    opt = paddle.optimizer.Adam(parameters=model.parameters())
    assert not opt._multi_precision
    assert paddle.amp.decorate(model, opt, level="O2") == (model, opt)
    assert opt._multi_precision
    # the optimizer phiops keeps no masters for
    lbfgs = paddle.optimizer.LBFGS(parameters=net().parameters())
    with pytest.raises(UnimplementedError, match="LBFGS keeps no float32 master"):
        paddle.amp.decorate(net(), lbfgs, level="O2")
    # one whose constructor takes no multi_precision (PaddlePaddle's Adagrad) gets it from O2
    adagrad = paddle.optimizer.Adagrad(0.1, parameters=net().parameters())
    paddle.amp.decorate(net(), adagrad, level="O2")
    assert adagrad._multi_precision


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"level": "OD"}, ValueError, "level should be O1 or O2"),
        ({"dtype": "float32"}, ValueError, "dtype should be 'float16' or 'bfloat16'"),
    ],
)
def test_bad_arguments(amp_on_cpu: None, kwargs: dict, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        paddle.amp.decorate(net(), **kwargs)


def test_models_must_be_layers(amp_on_cpu: None) -> None:
    with pytest.raises(RuntimeError, match="models should be paddle.nn.Layer"):
        paddle.amp.decorate([net(), "not a layer"], level="O2")


def test_save_dtype_casts_the_state_dict_not_the_parameters(amp_on_cpu: None, tmp_path) -> None:
    # PaddlePaddle's StateDictHook on every sublayer: state_dict() (and so paddle.save) gives
    # the floating entries in save_dtype; the parameters keep the dtype O2 gave them
    model = net()
    weights = {k: v.numpy().copy() for k, v in model.state_dict().items()}
    paddle.amp.decorate(model, level="O2", dtype="float16", save_dtype="float32")
    state = model.state_dict()
    assert {v.dtype for v in state.values()} == {paddle.float32}
    assert any(p.dtype == paddle.float16 for p in model.parameters())
    for key, value in state.items():
        assert value.name == dict(model.named_parameters()).get(key, value).name
        np.testing.assert_allclose(value.numpy(), weights[key], rtol=1e-3, atol=1e-3)
    # the hook leaves the tensors set_state_dict writes into alone
    model.set_state_dict({k: np.zeros_like(v) for k, v in weights.items()})
    assert all(not p.numpy().any() for p in model.parameters())
    paddle.save(model.state_dict(), str(tmp_path / "m.pdparams"))
    loaded = paddle.load(str(tmp_path / "m.pdparams"))
    assert {v.dtype for v in loaded.values()} == {paddle.float32}
    # without hooks: the parameters themselves
    assert any(v.dtype == paddle.float16 for v in model.state_dict(use_hook=False).values())
    with pytest.raises(ValueError, match="save_dtype can only be"):
        paddle.amp.decorate(net(), level="O2", save_dtype="int8")


def test_state_dict_hooks_run_after_the_sublayers_and_may_return_a_new_dict() -> None:
    model = net()
    seen = []
    first = model.register_state_dict_hook(lambda state: seen.append(sorted(state)))
    model.register_state_dict_hook(lambda state: {"only": len(state)})
    assert model.state_dict() == {"only": len(seen[0])}
    assert seen[0] == sorted(model.state_dict(use_hook=False))
    first.remove()
    assert model.state_dict()["only"] == len(seen[0]) and len(seen) == 1
    detached = model.state_dict(use_hook=False, keep_vars=False)
    assert all(v.stop_gradient for v in detached.values())
    with pytest.raises(InvalidArgumentError, match="must be callable"):
        model.register_state_dict_hook(3)
