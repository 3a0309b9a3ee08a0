"""The example op package run as users run it: eagerly with autograd and Tensor methods, built
into a static program run by the Executor, printed and parsed back as PIR text, saved and loaded
with jit.save / jit.load, and trained. Expected values come from numpy."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import phiops as paddle

# The package is imported by the `ops` fixture (conftest.py) when the first test here runs, not
# while pytest collects: importing it registers its ops, which phiops's own suite (run first,
# testpaths) counts exactly.

DIALECT = "phiops_custom_op_example"


def swish(x: np.ndarray, beta: float) -> np.ndarray:
    return x / (1.0 + np.exp(-beta * x))


def swish_grad(x: np.ndarray, beta: float) -> np.ndarray:
    s = 1.0 / (1.0 + np.exp(-beta * x))
    return s + beta * x * s * (1.0 - s)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_swish_matches_numpy(ops, dtype: str) -> None:
    x = np.linspace(-6, 6, 25).astype(dtype).reshape(5, 5)
    out = ops.custom_swish(paddle.to_tensor(x), beta=1.5)
    assert out.dtype == getattr(paddle, dtype) and out.shape == [5, 5]
    np.testing.assert_allclose(out.numpy(), swish(x.astype("float64"), 1.5), rtol=1e-6)


def test_swish_is_stable_for_large_inputs(ops) -> None:
    x = np.array([-1000.0, -80.0, 0.0, 80.0, 1000.0], dtype="float32")
    out = ops.custom_swish(paddle.to_tensor(x)).numpy()
    assert np.all(np.isfinite(out))
    np.testing.assert_allclose(out, [0.0, 0.0, 0.0, 80.0, 1000.0], atol=1e-6)


def test_swish_gradient_matches_finite_differences(ops) -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(3, 4))
    t = paddle.to_tensor(x, stop_gradient=False)
    ops.custom_swish(t, beta=0.7).sum().backward()
    eps = 1e-6
    numeric = (swish(x + eps, 0.7) - swish(x - eps, 0.7)) / (2 * eps)
    np.testing.assert_allclose(t.grad.numpy(), numeric, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(t.grad.numpy(), swish_grad(x, 0.7), rtol=1e-10)


def test_scaled_add_and_its_gradients(ops) -> None:
    x = np.arange(6.0).reshape(2, 3)
    y = np.full((2, 3), 2.0)
    tx = paddle.to_tensor(x, stop_gradient=False)
    ty = paddle.to_tensor(y, stop_gradient=False)
    out = ops.custom_scaled_add(tx, ty, alpha=-0.5)
    np.testing.assert_array_equal(out.numpy(), x - 0.5 * y)
    (out * paddle.to_tensor(np.full((2, 3), 3.0))).sum().backward()
    np.testing.assert_array_equal(tx.grad.numpy(), np.full((2, 3), 3.0))
    np.testing.assert_array_equal(ty.grad.numpy(), np.full((2, 3), -1.5))


def test_scaled_add_rejects_mismatched_shapes_naming_op_and_argument(ops) -> None:
    with pytest.raises(paddle.InvalidArgumentError, match=r"custom_scaled_add.*'y'.*dims"):
        ops.custom_scaled_add(paddle.ones([2, 3]), paddle.ones([3, 2]))


def test_count_nonzero_matches_numpy(ops) -> None:
    x = np.array([[0, 1, 2], [0, 0, 3]], dtype="int32")
    out = ops.custom_count_nonzero(paddle.to_tensor(x), axis=0, keepdim=True)
    assert out.dtype == paddle.int64
    np.testing.assert_array_equal(out.numpy(), np.count_nonzero(x, axis=0, keepdims=True))
    np.testing.assert_array_equal(
        ops.custom_count_nonzero(paddle.to_tensor(x)).numpy(), np.count_nonzero(x, axis=-1)
    )
    with pytest.raises(paddle.InvalidArgumentError, match=r"custom_count_nonzero.*'axis'"):
        ops.custom_count_nonzero(paddle.to_tensor(x), axis=2)


def test_ops_are_tensor_methods(ops) -> None:
    x = paddle.to_tensor(np.array([1.0, -1.0, 0.0]))
    np.testing.assert_allclose(x.custom_swish(2.0).numpy(), swish(x.numpy(), 2.0))
    np.testing.assert_array_equal(x.custom_count_nonzero().numpy(), 2)


def test_docstrings_come_from_docs_yaml(ops) -> None:
    assert ops.custom_swish.__doc__.startswith("Computes swish")
    assert "beta (float, default 1.0)" in ops.custom_swish.__doc__


def _static_program(ops):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2, 3], "float64")
        x.stop_gradient = False
        out = ops.custom_swish(x, 1.5)
        count = out.custom_count_nonzero(axis=-1)
        loss = paddle.mean(ops.custom_scaled_add(out, x, 2.0))
        (grad,) = paddle.static.gradients([loss], [x])
    return main, startup, out, count, grad


def test_static_program_runs_in_the_executor_with_gradients(ops) -> None:
    paddle.enable_static()
    try:
        main, startup, out, count, grad = _static_program(ops)
        text = str(main)
        assert f'"{DIALECT}.custom_swish"' in text
        assert f'"{DIALECT}.custom_swish_grad"' in text
        assert f'"{DIALECT}.custom_scaled_add_grad"' in text
        x = np.array([[1.0, -2.0, 0.0], [0.5, 3.0, -1.0]])
        got_out, got_count, got_grad = paddle.static.Executor().run(
            main, feed={"x": x}, fetch_list=[out, count, grad]
        )
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(got_out, swish(x, 1.5), rtol=1e-12)
    np.testing.assert_array_equal(got_count, np.count_nonzero(swish(x, 1.5), axis=-1))
    # loss = mean(swish(x) + 2 x): d/dx = (swish'(x) + 2) / 6
    np.testing.assert_allclose(got_grad, (swish_grad(x, 1.5) + 2.0) / 6, rtol=1e-12)


def test_pir_text_round_trips_under_the_dialect_name(ops) -> None:
    paddle.enable_static()
    try:
        main = _static_program(ops)[0]
    finally:
        paddle.disable_static()
    text = str(main)
    parsed = paddle.ir.parse_program(text)
    assert str(parsed) == text
    names = {op.name for op in parsed.walk()}
    assert {f"{DIALECT}.custom_swish", f"{DIALECT}.custom_count_nonzero"} <= names


class Net(paddle.nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.fc = paddle.nn.Linear(3, 4)

    def forward(self, x):
        import phiops_custom_op_example as ops

        h = self.fc(x)
        return ops.custom_scaled_add(ops.custom_swish(h, 1.5), h, 0.5)


def test_jit_save_and_load_name_the_ops(ops, tmp_path: Path) -> None:
    paddle.seed(1)
    net = Net()
    x = paddle.to_tensor(np.random.default_rng(1).normal(size=(5, 3)).astype("float32"))
    expected = net(x).numpy()
    path = str(tmp_path / "net")
    paddle.jit.save(net, path, input_spec=[paddle.static.InputSpec([None, 3], "float32", "x")])
    saved = (tmp_path / "net.json").read_text()
    assert f'"{DIALECT}.custom_swish"' in saved and f'"{DIALECT}.custom_scaled_add"' in saved
    np.testing.assert_allclose(paddle.jit.load(path)(x).numpy(), expected, rtol=1e-6)
    # a fresh process finds the package through its entry point: nothing imports it first
    code = (
        "import sys, numpy as np, phiops as paddle\n"
        f"layer = paddle.jit.load({path!r})\n"
        "assert 'phiops_custom_op_example' in sys.modules\n"
        f"x = np.random.default_rng(1).normal(size=(5, 3)).astype('float32')\n"
        "np.save(sys.argv[1], layer(paddle.to_tensor(x)).numpy())\n"
    )
    result_file = str(tmp_path / "out.npy")
    subprocess.run(
        [sys.executable, "-c", code, result_file],
        check=True,
        cwd=tmp_path,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        timeout=300,
    )
    np.testing.assert_allclose(np.load(result_file), expected, rtol=1e-6)


def test_a_model_using_the_ops_trains(ops) -> None:
    paddle.seed(0)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 3)).astype("float32")
    y = (x @ np.array([[1.0], [-2.0], [0.5]], dtype="float32")) ** 2
    fc1, fc2 = paddle.nn.Linear(3, 16), paddle.nn.Linear(16, 1)
    params = fc1.parameters() + fc2.parameters()
    optimizer = paddle.optimizer.Adam(learning_rate=0.02, parameters=params)
    tx, ty = paddle.to_tensor(x), paddle.to_tensor(y)
    losses = []
    for _ in range(150):
        h = fc1(tx)
        pred = fc2(ops.custom_scaled_add(ops.custom_swish(h), h, 0.1))
        loss = paddle.mean((pred - ty) ** 2)
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        losses.append(float(loss))
    assert losses[-1] < 0.2 * losses[0]
