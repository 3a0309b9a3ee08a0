"""A custom device from another package: ``examples/jax_device`` registers the device type
``jax`` through the ``phiops.devices`` entry point, its arrays are JAX arrays, phiops's
xp-generic kernels run on it with ``ctx.xp`` = ``jax.numpy``, and what it cannot run falls back
to CPU (its outputs come back to the device). A small MLP trains on it with the losses it has on
the CPU."""

from __future__ import annotations

import logging
from typing import Any, Iterator

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="the dev extra's jax is not installed")
jax_device = pytest.importorskip(
    "phiops_jax_device", reason="examples/jax_device is not installed (make .venv/.installed)"
)

import phiops as paddle  # noqa: E402
import phiops._C_ops as _C_ops  # noqa: E402
from phiops.runtime.backends import BACKENDS  # noqa: E402
from phiops.runtime.common import Backend, CustomPlace, custom_backend  # noqa: E402
from phiops.runtime.device import (  # noqa: E402
    registered_custom_devices,
    unregister_custom_device,
)
from phiops.runtime.errors import (  # noqa: E402
    InvalidArgumentError,
    NotFoundError,
    UnimplementedError,
)
from phiops.runtime.flags import flags_guard  # noqa: E402
from phiops.runtime.kernels import KERNEL_FACTORY, KernelKey  # noqa: E402

JAX_ARRAY = type(jax.numpy.zeros(()))


@pytest.fixture
def jax_place() -> Iterator[Any]:
    """The jax device registered (from its entry point, by naming it) and gone after the test,
    with the default device back on the CPU."""
    place = paddle.CustomPlace("jax", 0)
    try:
        yield place
    finally:
        paddle.set_device("cpu")
        if "jax" in registered_custom_devices():
            unregister_custom_device("jax")


def on_jax(tensor: Any) -> bool:
    return tensor.place == paddle.CustomPlace("jax", 0) and type(tensor._impl.array) is JAX_ARRAY


# --- registration, places and host copies ---------------------------------------------------


def test_naming_the_device_registers_it_from_its_entry_point(jax_place: Any) -> None:
    backend = custom_backend("jax")
    assert jax_place.backend is backend and backend in BACKENDS
    assert repr(jax_place) == "Place(jax:0)"
    assert jax_place.get_device_type() == "jax" and jax_place.get_device_id() == 0
    assert paddle.device.get_all_custom_device_type() == ["jax"]
    assert paddle.device.get_available_custom_device() == ["jax:0"]
    assert paddle.device.is_compiled_with_custom_device("jax")
    assert BACKENDS[backend].module().exp is jax.numpy.exp


def test_set_device_puts_new_tensors_on_the_device(jax_place: Any) -> None:
    assert paddle.set_device("jax") == jax_place
    assert paddle.get_device() == "jax:0"
    x = paddle.to_tensor([1.0, 2.0])
    zeros = paddle.zeros([2, 3])
    assert on_jax(x) and on_jax(zeros)
    assert str(x.place) == "Place(jax:0)"
    paddle.set_device("cpu")
    assert paddle.get_device() == "cpu" and paddle.to_tensor([1.0]).place == paddle.CPUPlace()
    assert paddle.zeros([1]).place == paddle.CPUPlace()


def test_tensors_copy_to_and_from_the_host(jax_place: Any) -> None:
    host = np.arange(6, dtype=np.float64).reshape(2, 3)
    x = paddle.to_tensor(host, place="jax:0")
    assert on_jax(x) and x.dtype == paddle.float64
    back = x.numpy()
    assert type(back) is np.ndarray and back.flags.writeable
    np.testing.assert_array_equal(back, host)
    on_cpu = x.cpu()
    assert on_cpu.place == paddle.CPUPlace() and type(on_cpu._impl.array) is np.ndarray
    again = on_cpu.to("jax")
    assert on_jax(again) and x.to(paddle.CPUPlace()).place == paddle.CPUPlace()
    assert on_jax(on_cpu.to(jax_place, "float32")) and on_cpu.to("jax:0").dtype == paddle.float64
    assert paddle.device.get_device(x) == 0 and paddle.device.get_device(on_cpu) == -1


def test_set_value_and_in_place_ops_give_the_tensor_a_new_jax_array(jax_place: Any) -> None:
    x = paddle.to_tensor([1.0, 2.0], place=jax_place)
    x.set_value(np.array([5.0, 6.0]))
    assert on_jax(x) and x.numpy().tolist() == [5.0, 6.0]
    x.add_(paddle.to_tensor([1.0, 1.0], place=jax_place))
    assert on_jax(x) and x.numpy().tolist() == [6.0, 7.0]


def test_int64_and_float64_stay_64_bit_on_the_device(jax_place: Any) -> None:
    x = paddle.to_tensor(np.array([2**40, 3], np.int64), place=jax_place)
    assert x._impl.array.dtype == np.int64 and x.numpy().tolist() == [2**40, 3]


def test_an_unknown_device_name_is_a_clear_error(jax_place: Any) -> None:
    with pytest.raises(
        InvalidArgumentError,
        match=r"set_device: expected a Place, 'cpu', 'gpu' or 'gpu:N', got str 'tpu' \(or a "
        r"custom device type as 'TYPE' or 'TYPE:N'; registered: jax\)",
    ):
        paddle.set_device("tpu")
    with pytest.raises(
        InvalidArgumentError,
        match=r"CustomPlace: unknown device type 'tpu'; registered device types: jax",
    ):
        paddle.CustomPlace("tpu", 0)


def test_a_device_number_the_device_lacks_is_refused(jax_place: Any) -> None:
    with pytest.raises(
        InvalidArgumentError,
        match=r"set_device\(\): place jax:3 is not available on this machine; available: cpu, "
        r"jax:0",
    ):
        paddle.set_device("jax:3")


def test_unregistering_the_device_takes_its_kernels_and_default_place(jax_place: Any) -> None:
    paddle.set_device("jax")
    backend = custom_backend("jax")
    unregister_custom_device("jax")
    assert backend not in BACKENDS and paddle.get_device() == "cpu"
    assert not any(key.backend == backend for key in KERNEL_FACTORY.kernels_of("add"))
    with pytest.raises(NotFoundError, match=r"device type 'jax' is not registered"):
        unregister_custom_device("jax")
    assert paddle.CustomPlace("jax", 0).backend in BACKENDS  # named again: registered again


def test_the_device_scatter_refuses_in_place_writes(jax_place: Any) -> None:
    from phiops.runtime.backends import scatter_at

    array = paddle.to_tensor([1.0, 2.0], place=jax_place)._impl.array
    with pytest.raises(UnimplementedError, match="arrays are immutable"):
        scatter_at("add", array, np.array([0]), np.array([1.0]))


# --- kernels: on the device, or a CPU fallback --------------------------------------------------


def test_an_op_runs_on_the_device_with_jax_numpy(jax_place: Any) -> None:
    x = paddle.to_tensor([[1.0, -2.0]], place=jax_place)
    y = paddle.to_tensor([[3.0], [4.0]], place=jax_place)
    out = paddle.nn.functional.relu(paddle.matmul(x, y) + 1.0)
    assert on_jax(out)
    np.testing.assert_allclose(out.numpy(), [[0.0]])


def test_an_op_the_device_lacks_falls_back_to_cpu_and_its_result_comes_back(
    jax_place: Any,
) -> None:
    """cumsum is not among the device's kernels: it runs on the CPU, its output is copied back."""
    assert not jax_device.DEVICE.takes_kernel("cumsum")
    x = paddle.to_tensor([1.0, 2.0, 3.0], place=jax_place)
    out = paddle.cumsum(x)
    assert on_jax(out) and out.numpy().tolist() == [1.0, 3.0, 6.0]


def test_mixed_cpu_and_device_inputs_run_on_the_device(jax_place: Any) -> None:
    out = paddle.add(paddle.to_tensor([1.0]), paddle.to_tensor([2.0], place=jax_place))
    assert on_jax(out) and out.numpy().tolist() == [3.0]


def test_a_missing_kernel_with_fallback_off_names_the_op_device_and_flag(jax_place: Any) -> None:
    x = paddle.to_tensor([1.0, 2.0], place=jax_place)
    with flags_guard({"enable_api_kernel_fallback": False}):
        with pytest.raises(
            NotFoundError,
            match=r"^cumsum\(\): kernel 'cumsum' has no registration for \(JAX, NCHW, FLOAT32\) "
            r"\(CPU fallback is disabled\); registered: .* \(device jax:0; "
            r"FLAGS_enable_api_kernel_fallback is off, so the CPU kernel does not run instead\)$",
        ):
            paddle.cumsum(x)
        assert on_jax(paddle.exp(x))  # a kernel the device has still runs


def test_the_device_kernels_are_in_the_factory_under_its_backend(jax_place: Any) -> None:
    backend = custom_backend("jax")
    keys = KERNEL_FACTORY.kernels_of("matmul")
    assert any(key.backend is backend for key in keys)
    assert not any(key.backend is backend for key in KERNEL_FACTORY.kernels_of("cumsum"))
    assert KERNEL_FACTORY.select(
        "matmul", KernelKey(backend, paddle.DataLayout.NCHW, paddle.DataType.FLOAT32)
    ).key.backend is backend


# every xp-generic kernel the device says it takes gives the CPU's results on it
UNARY = ["abs", "cos", "exp", "log", "sigmoid", "sin", "sqrt", "square", "tanh"]


@pytest.mark.parametrize("op", UNARY)
def test_unary_kernels_and_their_grads_match_the_cpu(jax_place: Any, op: str) -> None:
    values = np.array([[0.5, 1.5, 2.0], [0.25, 3.0, 1.0]], np.float64)
    results = []
    for place in (paddle.CPUPlace(), jax_place):
        x = paddle.to_tensor(values, place=place, stop_gradient=False)
        out = getattr(paddle, op)(x)
        paddle.sum(out).backward()
        assert out.place == place and x.grad.place == place
        results.append((out.numpy(), x.grad.numpy()))
    np.testing.assert_allclose(results[1][0], results[0][0], rtol=1e-12)
    np.testing.assert_allclose(results[1][1], results[0][1], rtol=1e-12)


BINARY = ["add", "subtract", "multiply", "divide", "maximum", "minimum", "matmul"]


@pytest.mark.parametrize("op", BINARY)
def test_binary_kernels_and_their_grads_match_the_cpu(jax_place: Any, op: str) -> None:
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((3, 3)), rng.standard_normal((3, 3)) + 3.0
    results = []
    for place in (paddle.CPUPlace(), jax_place):
        x = paddle.to_tensor(a, place=place, stop_gradient=False)
        y = paddle.to_tensor(b, place=place, stop_gradient=False)
        out = getattr(paddle, op)(x, y)
        paddle.sum(out * out).backward()
        assert on_jax(out) == (place == jax_place)
        results.append((out.numpy(), x.grad.numpy(), y.grad.numpy()))
    for got, want in zip(results[1], results[0]):
        np.testing.assert_allclose(got, want, rtol=1e-12)


def test_shape_reduction_and_softmax_kernels_match_the_cpu(jax_place: Any) -> None:
    rng = np.random.default_rng(4)
    values = rng.standard_normal((2, 3, 4))
    results = []
    for place in (paddle.CPUPlace(), jax_place):
        x = paddle.to_tensor(values, place=place, stop_gradient=False)
        parts = [
            paddle.reshape(x, [6, 4]),
            paddle.transpose(x, [2, 0, 1]),
            paddle.sum(x, axis=1),
            paddle.mean(x, axis=[0, 2]),
            paddle.nn.functional.softmax(x, axis=-1),
            _C_ops.log_softmax(x, 1),
            paddle.scale(x, 2.0, 1.0),
            paddle.cast(x, "float32"),
            paddle.unsqueeze(x, 0),
            paddle.full_like(x, 3.0),
        ]
        total = sum(paddle.sum(paddle.cast(p, "float64") * 1.5) for p in parts)
        total.backward()
        assert all(on_jax(p) == (place == jax_place) for p in parts)
        results.append([p.numpy() for p in parts] + [x.grad.numpy()])
    for got, want in zip(results[1], results[0]):
        np.testing.assert_allclose(got, want, rtol=1e-6)


# --- training on the device -----------------------------------------------------------------


def _train(device: str, optimizer: str) -> tuple[list[float], dict[str, str]]:
    """Train a 2-layer MLP for 8 steps on ``device``; the losses, and for each op which backend
    its kernel ran on (from FLAGS_log_dispatch)."""
    kernels_ran: dict[str, str] = {}

    class Recorder(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            op, _, key = record.args[:3]  # type: ignore[index]
            kernels_ran[op] = str(key).strip("()").split(",")[0]

    rng = np.random.default_rng(0)
    features = rng.standard_normal((32, 10)).astype(np.float32)
    labels = rng.integers(0, 4, size=(32,)).astype(np.int64)
    paddle.set_device(device)
    recorder = Recorder()
    logger = logging.getLogger("phiops.dispatch")
    logger.addHandler(recorder)
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        paddle.seed(7)
        model = paddle.nn.Sequential(
            paddle.nn.Linear(10, 16), paddle.nn.ReLU(), paddle.nn.Linear(16, 4)
        )
        if optimizer == "sgd":
            opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
        else:
            opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
        x, y = paddle.to_tensor(features), paddle.to_tensor(labels)
        losses = []
        with flags_guard({"log_dispatch": True}):
            for _ in range(8):
                loss = paddle.nn.functional.cross_entropy(model(x), y)
                loss.backward()
                opt.step()
                opt.clear_grad()
                losses.append(float(loss))
        if device != "cpu":
            assert all(on_jax(p) for p in model.parameters())
    finally:
        logger.removeHandler(recorder)
        logger.setLevel(level)
        paddle.set_device("cpu")
    return losses, kernels_ran


@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
def test_an_mlp_trains_on_the_device_with_the_cpu_losses(jax_place: Any, optimizer: str) -> None:
    cpu_losses, cpu_kernels = _train("cpu", optimizer)
    jax_losses, jax_kernels = _train("jax", optimizer)
    assert jax_losses[-1] < jax_losses[0]
    np.testing.assert_allclose(jax_losses, cpu_losses, rtol=1e-5)
    assert set(cpu_kernels.values()) == {"CPU"}
    on_device = sorted(op for op, backend in jax_kernels.items() if backend == "JAX")
    fell_back = sorted(op for op, backend in jax_kernels.items() if backend == "CPU")
    print(f"\n{optimizer}: ran on jax: {on_device}\n{optimizer}: fell back to CPU: {fell_back}")
    assert {"matmul", "matmul_grad", "add", "relu", "relu_grad"} <= set(on_device)
    assert {"cross_entropy_with_softmax", "cross_entropy_with_softmax_grad"} <= set(on_device)
    expected_fallbacks = [] if optimizer == "sgd" else ["merged_adam_"]
    assert fell_back == expected_fallbacks


def test_phiops_kernels_shows_the_device_kernels_and_its_own(
    jax_place: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from phiops.runtime.kernels.__main__ import main as kernels_main

    assert kernels_main(["full", "--device", "jax"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    jax_rows = [row for row in rows if row[0] == "JAX"]
    assert {row[2] for row in jax_rows} == {"float16", "float32", "float64", "bool"}
    assert all(row[4] == "phiops_jax_device.jax_full_kernel" and row[5] == "wins" for row in jax_rows)
    assert any(row[0] == "CPU" for row in rows)
