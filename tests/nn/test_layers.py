"""phi.nn layers against PaddlePaddle 3.3.1 (tests/data/nn, written by
tests/tools/make_nn_fixtures.py): state_dict keys and shapes, default initialisation
statistics, a PaddlePaddle state dict loading into the same model with the same output."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops.generated as phi
from tests.nn.small_net import small_net

nn = phi.nn
DATA = Path(__file__).resolve().parents[1] / "data" / "nn"
LAYERS = json.loads((DATA / "layers.json").read_text())


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_state_dict_keys_and_shapes_are_paddles(name: str) -> None:
    spec = LAYERS[name]
    layer = getattr(nn, spec["class"])(*spec["args"], **spec["kwargs"])
    got = [(key, value.shape) for key, value in layer.state_dict().items()]
    assert got == [(entry["key"], entry["shape"]) for entry in spec["state"]]


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_default_initialisation_has_paddles_statistics(name: str) -> None:
    spec = LAYERS[name]
    phi.seed(11)
    layer = getattr(nn, spec["class"])(*spec["args"], **spec["kwargs"])
    state = layer.state_dict()
    for entry in spec["state"]:
        values = state[entry["key"]].numpy()
        assert values.dtype == np.float32
        if entry["std"] == 0.0:
            np.testing.assert_array_equal(values, entry["mean"])
            continue
        # same distribution: std within 10%, mean near 0 on this scale, same support for uniforms
        assert abs(values.std() - entry["std"]) < 0.1 * entry["std"], entry["key"]
        assert abs(values.mean() - entry["mean"]) < 0.2 * entry["std"], entry["key"]


SmallNet = small_net(nn)


def test_a_paddle_state_dict_loads_and_gives_paddles_output() -> None:
    io = np.load(DATA / "model_io.npz")
    model = SmallNet()
    assert list(model.state_dict()) == list(io["keys"])
    missing, unexpected = model.set_state_dict(phi.load(str(DATA / "model.pdparams")))
    assert missing == [] and unexpected == []
    model.eval()
    with phi.no_grad():
        out = model(phi.to_tensor(io["x"]))
    np.testing.assert_allclose(out.numpy(), io["out"], rtol=1e-4, atol=1e-5)


def test_state_dict_round_trips_through_phi_save(tmp_path: Path) -> None:
    model = SmallNet()
    phi.save(model.state_dict(), str(tmp_path / "m.pdparams"))
    other = SmallNet()
    other.set_state_dict(phi.load(str(tmp_path / "m.pdparams")))
    for (key, a), (_, b) in zip(model.state_dict().items(), other.state_dict().items()):
        np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=key)


def test_set_state_dict_rejects_a_wrong_shape() -> None:
    layer = nn.Linear(3, 2)
    with pytest.raises(phi.InvalidArgumentError, match="'weight' has shape \\[2, 3\\]"):
        layer.set_state_dict({"weight": np.zeros((2, 3), np.float32)})


def test_parameters_sublayers_and_buffers_are_found_by_attribute() -> None:
    model = SmallNet()
    names = [name for name, _ in model.named_parameters()]
    assert names[:2] == ["features.0.weight", "features.0.bias"]
    assert all(not p.stop_gradient for p in model.parameters())
    assert [name for name, _ in model.named_buffers()] == [
        "features.1._mean",
        "features.1._variance",
        "bn1._mean",
        "bn1._variance",
    ]
    assert (
        len(model.sublayers()) == 17
    )  # Sequential + 8, norm, LayerList + 2, bn1, up, pool, embedding


def test_train_and_eval_switch_every_sublayer_and_dropout() -> None:
    model = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5))
    x = phi.ones([64, 4], phi.float32, phi.CPUPlace())
    model.eval()
    assert not model[1].training
    np.testing.assert_array_equal(model(x).numpy(), model[0](x).numpy())
    model.train()
    assert model[1].training and (model(x).numpy() == 0).any()


def test_batch_norm_updates_its_running_statistics_while_training() -> None:
    layer = nn.BatchNorm1D(3)
    x = phi.to_tensor(np.arange(12, dtype=np.float32).reshape(4, 3))
    layer(x)
    np.testing.assert_allclose(layer._mean.numpy(), 0.1 * x.numpy().mean(0), rtol=1e-6)
    layer.eval()
    before = layer._mean.numpy().copy()
    layer(x)
    np.testing.assert_array_equal(layer._mean.numpy(), before)


def test_forward_hooks_see_and_replace_inputs_and_outputs() -> None:
    layer = nn.ReLU()
    seen = []
    pre = layer.register_forward_pre_hook(lambda lyr, inputs: (inputs[0] * 2.0,))
    layer.register_forward_post_hook(lambda lyr, inputs, out: seen.append(out.numpy()) or out + 1.0)
    out = layer(phi.to_tensor([-1.0, 3.0]))
    np.testing.assert_array_equal(out.numpy(), [1.0, 7.0])
    np.testing.assert_array_equal(seen[0], [0.0, 6.0])
    pre.remove()
    np.testing.assert_array_equal(layer(phi.to_tensor([3.0])).numpy(), [4.0])


def test_losses_match_their_definitions() -> None:
    logits = np.array([[1.0, 2.0, 0.5], [0.1, 0.2, 3.0]], np.float32)
    label = np.array([1, 2], np.int64)
    expected = -np.mean(
        np.log(np.exp(logits) / np.exp(logits).sum(1, keepdims=True))[[0, 1], label]
    )
    got = nn.CrossEntropyLoss()(phi.to_tensor(logits), phi.to_tensor(label))
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)
    mse = nn.MSELoss(reduction="sum")(phi.to_tensor([1.0, 2.0]), phi.to_tensor([0.0, 4.0]))
    assert mse.item() == 5.0


def test_lr_schedulers_give_paddles_rates() -> None:
    rates = json.loads((DATA / "lr.json").read_text())
    for name, scheduler in {
        "step_decay": phi.optimizer.lr.StepDecay(0.5, step_size=3, gamma=0.5),
        "cosine": phi.optimizer.lr.CosineAnnealingDecay(0.5, T_max=5, eta_min=0.01),
    }.items():
        got = []
        for _ in range(12):
            got.append(scheduler())
            scheduler.step()
        np.testing.assert_allclose(got, rates[name], rtol=1e-9, err_msg=name)


def test_an_optimizer_takes_layer_parameters_and_a_scheduler() -> None:
    phi.seed(1)
    model = nn.Linear(2, 1)
    scheduler = phi.optimizer.lr.StepDecay(0.1, step_size=1, gamma=0.5)
    optimizer = phi.optimizer.SGD(learning_rate=scheduler, parameters=model.parameters())
    x = phi.to_tensor([[1.0, 2.0]])
    before = model.weight.numpy().copy()
    model(x).sum().backward()
    optimizer.step()
    np.testing.assert_allclose(
        model.weight.numpy(), before - 0.1 * np.array([[1.0], [2.0]]), rtol=1e-6
    )
    optimizer.clear_grad()
    scheduler.step()
    model(x).sum().backward()
    optimizer.step()
    np.testing.assert_allclose(
        model.weight.numpy(), before - 0.15 * np.array([[1.0], [2.0]]), rtol=1e-6
    )


def test_a_reassigned_buffer_stays_a_buffer() -> None:
    layer = nn.BatchNorm1D(2)
    layer._mean = phi.to_tensor([1.0, 2.0])
    assert dict(layer.named_buffers())["_mean"].numpy().tolist() == [1.0, 2.0]
    assert "_mean" in layer.state_dict()


def test_batch_norm_normalises_over_the_channel_axis_of_its_data_format() -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 4, 5, 3)).astype(np.float32)
    bn = nn.BatchNorm2D(3, data_format="NHWC")
    out = bn(phi.to_tensor(x)).numpy()
    mean, var = x.mean(axis=(0, 1, 2)), x.var(axis=(0, 1, 2))
    np.testing.assert_allclose(out, (x - mean) / np.sqrt(var + 1e-5), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(bn._mean.numpy(), 0.1 * mean, rtol=1e-5, atol=1e-7)
    seq = rng.standard_normal((4, 6, 3)).astype(np.float32)  # [N, L, C]
    out1d = nn.BatchNorm1D(3, data_format="NLC")(phi.to_tensor(seq)).numpy()
    mean1d, var1d = seq.mean(axis=(0, 1)), seq.var(axis=(0, 1))
    np.testing.assert_allclose(out1d, (seq - mean1d) / np.sqrt(var1d + 1e-5), rtol=1e-4, atol=1e-5)


def test_param_attr_names_initialises_and_freezes_a_parameter() -> None:
    frozen = nn.ParamAttr(
        name="frozen_w", initializer=nn.initializer.Constant(0.5), trainable=False
    )
    linear = nn.Linear(3, 2, weight_attr=frozen)
    assert linear.weight.name == "frozen_w" and linear.weight.stop_gradient
    np.testing.assert_array_equal(linear.weight.numpy(), np.full((3, 2), 0.5, np.float32))
    assert [p.name for p in linear.parameters()] == ["frozen_w", linear.bias.name]
    assert "weight" in linear.state_dict()
    # as in PaddlePaddle, an optimizer takes every parameter and leaves the frozen one alone
    for kind in (phi.optimizer.SGD, phi.optimizer.Adam):
        optimizer = kind(learning_rate=0.1, parameters=linear.parameters())
        phi.sum(linear(phi.to_tensor(np.ones((2, 3), np.float32)))).backward()
        assert linear.weight.grad is None and linear.bias.grad is not None
        before = linear.bias.numpy().copy()
        optimizer.step()
        optimizer.clear_grad()
        np.testing.assert_array_equal(linear.weight.numpy(), np.full((3, 2), 0.5, np.float32))
        assert not np.array_equal(linear.bias.numpy(), before)


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"name": ""}, phi.InvalidArgumentError, "name must be a non-empty str"),
        ({"initializer": 3}, phi.InvalidArgumentError, "initializer must be an Initializer"),
        ({"trainable": 1}, phi.InvalidArgumentError, "trainable must be a bool"),
        ({"learning_rate": 0.5}, phi.UnimplementedError, "learning_rate=0.5 is not implemented"),
        ({"need_clip": False}, phi.UnimplementedError, "need_clip=False is not implemented"),
    ],
)
def test_param_attr_rejects_what_it_cannot_honour(kwargs, error, message) -> None:
    with pytest.raises(error, match=message):
        nn.ParamAttr(**kwargs)
