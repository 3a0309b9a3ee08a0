"""``paddle.jit.to_static``: a Layer's forward or a function traced into static programs per
input signature, run by the executor, with gradients to the parameters and inputs through a
traced backward program (runtime/jit/static_function.py). Expected values: PaddlePaddle 3.3.1's
recording (tests/tools/make_to_static_fixtures.py) and the same code run eagerly."""

from __future__ import annotations

import types
from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from tests.tools import make_to_static_fixtures as cases

DATA = Path(__file__).resolve().parents[1] / "data" / "to_static"


@pytest.fixture(autouse=True)
def translation_on():
    yield
    paddle.jit.enable_to_static(True)


def _close(got, expected, message=""):
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6, err_msg=message)


def test_layer_trained_with_to_static_matches_paddlepaddle_and_eager() -> None:
    expected = np.load(DATA / "to_static_layer.npz")
    net = paddle.jit.to_static(cases.to_static_layer(paddle))
    assert isinstance(net.forward, paddle.jit.StaticFunction)
    got = cases.train_layer(paddle, net)
    eager = cases.train_layer(paddle, cases.to_static_layer(paddle))
    assert net.forward.trace_count == 1
    for key in expected.files:
        _close(got[key], expected[key], key)
        _close(got[key], eager[key], key)


def test_function_traces_once_per_input_shape() -> None:
    calls = []

    @paddle.jit.to_static
    def f(x, y):
        calls.append(1)
        return paddle.tanh(x) * y + 1.0

    a = np.arange(6, dtype="float32").reshape(2, 3) / 6
    b = np.arange(12, dtype="float32").reshape(4, 3) / 12
    for data in (a, a, b, b, a):
        out = f(paddle.to_tensor(data), paddle.to_tensor(data * 2))
        _close(out.numpy(), np.tanh(data) * data * 2 + 1.0)
    assert f.trace_count == 2
    assert len(calls) == 4  # each signature: the forward program and the training program


def test_gradients_reach_inputs_and_parameters() -> None:
    linear = paddle.nn.Linear(3, 2)

    def f(x):
        return (linear(x) ** 2).sum()

    static_f = paddle.jit.to_static(f)
    data = np.linspace(-1, 1, 12).astype("float32").reshape(4, 3)
    x = paddle.to_tensor(data, stop_gradient=False)
    loss = static_f(x)
    loss.backward()
    w, b = linear.weight.numpy(), linear.bias.numpy()
    y = data @ w + b
    _close(loss.numpy(), (y**2).sum())
    _close(x.grad.numpy(), 2 * y @ w.T)
    _close(linear.weight.grad.numpy(), data.T @ (2 * y))
    _close(linear.bias.grad.numpy(), (2 * y).sum(0))


def test_several_outputs_and_a_nested_result() -> None:
    @paddle.jit.to_static
    def f(x):
        return x * 2.0, [paddle.exp(x), 3]

    data = np.array([0.5, -1.0], "float32")
    x = paddle.to_tensor(data, stop_gradient=False)
    doubled, (exp, three) = f(x)
    assert three == 3
    (doubled.sum() + exp.sum()).backward()
    _close(x.grad.numpy(), 2.0 + np.exp(data))


def test_decorated_method_and_input_spec() -> None:
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(4, 2)

        @paddle.jit.to_static(input_spec=[paddle.static.InputSpec([None, 4], "float32")])
        def forward(self, x):
            return paddle.nn.functional.relu(self.fc(x))

    net = Net()
    for rows in (3, 5):
        data = np.linspace(-1, 1, rows * 4).astype("float32").reshape(rows, 4)
        expected = np.maximum(data @ net.fc.weight.numpy() + net.fc.bias.numpy(), 0)
        _close(net(paddle.to_tensor(data)).numpy(), expected)
    assert net.forward.trace_count == 1  # the spec's free batch extent: one program
    with pytest.raises(InvalidArgumentError, match=r"forward's input 0 has shape \[2, 3\]"):
        net(paddle.ones([2, 3]))
    with pytest.raises(InvalidArgumentError, match="dtype float64"):
        net(paddle.ones([2, 4], dtype="float64"))


def test_enable_to_static_false_runs_eagerly() -> None:
    @paddle.jit.to_static
    def f(x):
        return x + 1.0

    paddle.jit.enable_to_static(False)
    _close(f(paddle.to_tensor([1.0])).numpy(), [2.0])
    assert f.trace_count == 0
    paddle.jit.enable_to_static(True)
    _close(f(paddle.to_tensor([1.0])).numpy(), [2.0])
    assert f.trace_count == 1
    with pytest.raises(InvalidArgumentError, match="enable_to_static_bool"):
        paddle.jit.enable_to_static(1)


def test_value_dependent_control_flow_is_a_clear_error() -> None:
    @paddle.jit.to_static
    def branchy(x):
        if x.sum() > 0:
            return x
        return -x

    with pytest.raises(UnimplementedError, match=r"branchy .*paddle\.static\.nn\.cond"):
        branchy(paddle.ones([2]))


def test_jit_save_of_a_to_static_layer(tmp_path) -> None:
    spec = [paddle.static.InputSpec([None, 4], "float32", name="x")]
    net = paddle.jit.to_static(cases.to_static_layer(paddle), input_spec=spec)
    data = np.linspace(-2, 2, 8).astype("float32").reshape(2, 4)
    expected = net(paddle.to_tensor(data)).numpy()
    paddle.jit.save(net, str(tmp_path / "net"))
    loaded = paddle.jit.load(str(tmp_path / "net"))
    _close(loaded(data).numpy(), expected)


def test_batch_norm_running_statistics_are_updated() -> None:
    def make():
        paddle.seed(3)
        return paddle.nn.BatchNorm1D(3)

    static_bn, eager_bn = paddle.jit.to_static(make()), make()
    for step in range(3):
        data = np.random.default_rng(step).standard_normal((5, 3)).astype("float32")
        _close(static_bn(paddle.to_tensor(data)).numpy(), eager_bn(paddle.to_tensor(data)).numpy())
    _close(static_bn._mean.numpy(), eager_bn._mean.numpy())
    _close(static_bn._variance.numpy(), eager_bn._variance.numpy())


def test_no_grad_call_records_nothing() -> None:
    linear = paddle.nn.Linear(2, 2)
    f = paddle.jit.to_static(linear)
    with paddle.no_grad():
        out = f(paddle.ones([1, 2]))
    assert out.stop_gradient
    assert not f(paddle.ones([1, 2])).stop_gradient


def test_helpers() -> None:
    def plain(x):
        return x

    assert paddle.jit.not_to_static(plain) is plain
    assert paddle.jit.to_static(plain) is plain  # marked: left as Python
    paddle.jit.ignore_module([types])
    paddle.jit.set_code_level(100)
    paddle.jit.set_verbosity(0, also_to_stdout=False)
    with pytest.raises(InvalidArgumentError, match="ignore_module"):
        paddle.jit.ignore_module(types)
    with pytest.raises(InvalidArgumentError, match="set_code_level.*'level'"):
        paddle.jit.set_code_level("3")
    with pytest.raises(InvalidArgumentError, match="set_verbosity.*'also_to_stdout'"):
        paddle.jit.set_verbosity(1, also_to_stdout=1)


def test_bad_arguments() -> None:
    with pytest.raises(InvalidArgumentError, match="'input_spec'"):
        paddle.jit.to_static(lambda x: x, input_spec=[3])
    with pytest.raises(InvalidArgumentError, match="unexpected keyword"):
        paddle.jit.to_static(lambda x: x, fast=True)
    with pytest.raises(InvalidArgumentError, match="'function'"):
        paddle.jit.to_static(3)

    @paddle.jit.to_static(input_spec=[paddle.static.InputSpec([2], "float32")])
    def one(x):
        return x

    with pytest.raises(InvalidArgumentError, match="input_spec for 1 Tensor argument"):
        one(paddle.ones([2]), paddle.ones([2]))


def test_dropout_backward_uses_the_forward_mask() -> None:
    # the backward program computes the forward again; it must draw the same mask
    net = paddle.jit.to_static(paddle.nn.Dropout(0.5))
    x = paddle.ones([64], dtype="float32")
    x.stop_gradient = False
    y = net(x)
    forward = y.numpy().copy()
    paddle.nn.functional.dropout(paddle.ones([100]), 0.5)  # another draw in between
    y.sum().backward()
    assert 0 < (forward == 0).sum() < 64
    _close(x.grad.numpy(), forward)  # d(x * mask * 2)/dx = mask * 2 = y at x = 1


def test_train_and_eval_modes_trace_separately() -> None:
    net = paddle.jit.to_static(paddle.nn.Sequential(paddle.nn.Linear(3, 3), paddle.nn.Dropout(0.9)))
    x = paddle.ones([4, 3])
    net.eval()
    expected = x.numpy() @ net[0].weight.numpy() + net[0].bias.numpy()
    _close(net(x).numpy(), expected)
    net.train()
    assert (net(x).numpy() == 0).sum() > 0
    assert net.forward.trace_count == 2


def test_method_decorated_in_the_class_binds_per_instance() -> None:
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(2, 2)

        @paddle.jit.to_static
        def forward(self, x):
            return self.fc(x)

    first, second = Net(), Net()
    x = np.ones((1, 2), "float32")
    for net in (first, second):
        expected = x @ net.fc.weight.numpy() + net.fc.bias.numpy()
        _close(net(paddle.to_tensor(x)).numpy(), expected)
    assert first.forward is first.forward and first.forward is not second.forward
