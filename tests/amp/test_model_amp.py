"""``paddle.Model.prepare(amp_configs=...)`` (runtime/hapi/model.py) as PaddlePaddle 3.3.1's: the
configurations it accepts and rejects, a CPU training step that warns and trains in float32
(recorded from PaddlePaddle by tests/tools/make_nnmisc_fixtures.py), and, with FLAGS_amp_on_cpu,
the forward in auto_cast, the loss through a GradScaler and O2's decorated parameters."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from tests.tools.nnmisc_cases import AMP_CONFIGS, AMP_W, AMP_X, AMP_Y

RECORDED = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "nnmisc" / "paddle_3_3_1.json").read_text()
)["amp_model"]


def model(amp_configs: Any, grad_clip: Any = None) -> tuple[Any, Any]:
    net = paddle.nn.Linear(4, 3)
    net.weight.set_value(AMP_W)
    net.bias.set_value(np.zeros(3, np.float32))
    m = paddle.Model(net)
    optimizer = paddle.optimizer.SGD(0.1, parameters=m.parameters(), grad_clip=grad_clip)
    m.prepare(optimizer, paddle.nn.CrossEntropyLoss(), amp_configs=amp_configs)
    return m, net


def test_on_the_cpu_amp_warns_and_trains_in_float32_as_paddle() -> None:
    m, net = model(AMP_CONFIGS)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        losses = m.train_batch([AMP_X], [AMP_Y])
    messages = sorted(str(w.message).split(",")[0] for w in caught if "CUDAPlace" in str(w.message))
    assert messages == RECORDED["warnings"]
    np.testing.assert_allclose(float(losses[0]), RECORDED["loss"], rtol=1e-6)
    np.testing.assert_allclose(net.weight.numpy(), np.array(RECORDED["weight"]), rtol=1e-6)
    np.testing.assert_allclose(net.bias.numpy(), np.array(RECORDED["bias"]), rtol=1e-5, atol=1e-7)
    assert m._scaler.is_enable() is RECORDED["scaler_enabled"]
    assert m._scaler.get_init_loss_scaling() == RECORDED["scaling"]


@pytest.mark.parametrize(
    "configs, level, scaler, lists",
    [
        (None, "O0", {}, {}),
        ("O1", "O1", {}, {}),
        ("O2", "O2", {}, {}),
        ({"init_loss_scaling": 64.0}, "O1", {"init_loss_scaling": 64.0}, {}),
        ({"level": "O0", "init_loss_scaling": 4.0}, "O0", {}, {}),
        (
            {"level": "O2", "custom_black_list": ["exp"], "incr_ratio": 3.0},
            "O2",
            {"incr_ratio": 3.0},
            {"custom_black_list": ["exp"]},
        ),
    ],
)
def test_prepare_splits_amp_configs_as_paddle(
    configs: Any, level: str, scaler: dict, lists: dict
) -> None:
    m, _ = model(configs)
    assert (m._amp_level, m._amp_configs, m._amp_custom_lists) == (level, scaler, lists)


@pytest.mark.parametrize(
    "configs, match",
    [
        ("O3", "The level of amp_configs should be 'O0', 'O1' or 'O2'"),
        ({"level": "O4"}, "amp_configs\\['level'\\] should be 'O0', 'O1' or 'O2'"),
        ({"level": "O1", "use_pure_fp16": True}, "'use_pure_fp16' is an invalid parameter"),
        ({"level": "O1", "foo": 1}, "\\('foo',\\) could not be recognized"),
        ({"level": "O1", "use_fp16_guard": True}, "static graph mode only"),
        ({"custom_black_varnames": ["x"]}, "custom_black_varnames"),
        (["O1"], "must be None, 'O0', 'O1', 'O2' or a dict"),
    ],
)
def test_bad_amp_configs_are_rejected_as_paddle(configs: Any, match: str) -> None:
    with pytest.raises(InvalidArgumentError, match=match):
        model(configs)


def test_o2_rejects_clipping_by_value() -> None:
    with pytest.raises(InvalidArgumentError, match="ClipGradByNorm and ClipGradByGlobalNorm"):
        model("O2", grad_clip=paddle.nn.ClipGradByValue(1.0))
    m, _ = model("O2", grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0))
    assert m._amp_level == "O2"


def test_with_amp_on_cpu_the_matmul_runs_in_float16_and_the_loss_is_scaled(
    half_matmul: None,
) -> None:
    m, net = model(AMP_CONFIGS)
    losses = m.train_batch([AMP_X], [AMP_Y])
    # the white-listed matmul ran on float16 copies of x and the weight: not float32's loss
    assert float(losses[0]) != RECORDED["loss"]
    assert m._scaler.is_enable() and m._scaler.get_init_loss_scaling() == 128.0
    # float16 matmul: PaddlePaddle's float32 step within float16's precision
    np.testing.assert_allclose(float(losses[0]), RECORDED["loss"], rtol=2e-3)
    np.testing.assert_allclose(net.weight.numpy(), np.array(RECORDED["weight"]), atol=2e-3)
    scaler = m._scaler
    m.train_batch([AMP_X], [AMP_Y])
    assert m._scaler is scaler  # made once, as PaddlePaddle's


def test_with_amp_on_cpu_o2_decorates_the_network(amp_on_cpu: None) -> None:
    net = paddle.nn.Linear(4, 3)
    m = paddle.Model(net)
    m.prepare(loss=paddle.nn.CrossEntropyLoss(), amp_configs={"level": "O2"})
    assert m.network is net and net.weight.dtype == paddle.float16
    m.prepare(loss=paddle.nn.CrossEntropyLoss(), amp_configs=None)
    assert m._amp_level == "O0" and m._scaler is None


def test_o2_with_an_optimizer_trains_through_master_weights(half_matmul: None) -> None:
    # PaddlePaddle decorates with master_weight=None: float32 master copies at O2
    m, net = model("O2")
    assert net.weight.dtype == paddle.float16
    before = net.weight.astype("float32").numpy()
    m.train_batch([AMP_X], [AMP_Y])
    master = m._optimizer.state_dict()["master_weights"][net.weight.name]
    assert master.dtype == paddle.float32
    after = net.weight.astype("float32").numpy()
    assert not np.array_equal(after, before)
    np.testing.assert_array_equal(after, master.numpy().astype(np.float16).astype(np.float32))
    # within float16's precision of PaddlePaddle's float32 step
    np.testing.assert_allclose(after, np.array(RECORDED["weight"]), atol=5e-3)
