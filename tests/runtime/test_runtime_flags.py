"""The runtime's own flags change what dispatch does, and setting them takes effect at once."""

from __future__ import annotations

import logging
import subprocess
import sys

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime import flags
from phiops.runtime.common import Backend, DataLayout, DataType, GPUPlace
from phiops.runtime.tensor.dense_tensor import DenseTensorMeta
from phiops.runtime.eager.tensor import wrap_array
from phiops.runtime.errors import InvalidArgumentError, NotFoundError


def test_runtime_flags_are_defined_with_their_defaults() -> None:
    assert phi.get_flags(["check_nan_inf", "enable_api_kernel_fallback", "log_dispatch"]) == {
        "FLAGS_check_nan_inf": False,
        "FLAGS_enable_api_kernel_fallback": True,
        "FLAGS_log_dispatch": False,
    }


def test_nan_passes_silently_without_check_nan_inf() -> None:
    x = phi.to_tensor([-1.0])
    assert np.isnan(phi.log(x).numpy()).all()


def test_check_nan_inf_names_the_op_and_output() -> None:
    x = phi.to_tensor([-1.0, 1.0])
    phi.log(x)  # cached before the flag is set: the cache must not bypass the check
    with flags.flags_guard({"check_nan_inf": True}):
        with pytest.raises(
            InvalidArgumentError,
            match=r"log\(\): output 'out' contains NaN \(FLAGS_check_nan_inf is on\)",
        ):
            phi.log(x)
        with pytest.raises(InvalidArgumentError, match=r"divide\(\): output 'out' contains Inf"):
            phi.divide(phi.to_tensor([1.0]), phi.to_tensor([0.0]))
    assert np.isnan(phi.log(x).numpy()[0])


def test_check_nan_inf_checks_cached_calls_too() -> None:
    x = phi.to_tensor([-2.0])
    with flags.flags_guard({"check_nan_inf": True}):
        for _ in range(3):
            with pytest.raises(InvalidArgumentError, match="contains NaN"):
                phi.sqrt(x)


def test_check_nan_inf_ignores_integer_outputs() -> None:
    with flags.flags_guard({"check_nan_inf": True}):
        assert phi.add(phi.to_tensor([1]), phi.to_tensor([2])).numpy().tolist() == [3]


def test_log_dispatch_logs_op_kernel_key_and_shapes(caplog: pytest.LogCaptureFixture) -> None:
    x = phi.to_tensor(np.ones((2, 3), np.float32))
    with (
        flags.flags_guard({"log_dispatch": True}),
        caplog.at_level(logging.INFO, logger="phiops.dispatch"),
    ):
        phi.add(x, x)
        phi.add(x, x)
    messages = [r.getMessage() for r in caplog.records if r.name == "phiops.dispatch"]
    assert (
        messages
        == [
            "dispatch op=add kernel=add key=(CPU, UNDEFINED, FLOAT32) input_shapes=[[2, 3], [2, 3]]"
        ]
        * 2
    )


def test_no_dispatch_logging_without_the_flag(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="phiops.dispatch"):
        phi.exp(phi.to_tensor([1.0]))
    assert not [r for r in caplog.records if r.name == "phiops.dispatch"]


def _fake_gpu_tensor() -> phi.Tensor:
    """A tensor whose meta says GPU though its data is a numpy array: enough to exercise kernel
    selection on a machine without a GPU (the CPU kernel runs on the numpy data)."""
    array = np.ones(2, np.float32)
    return wrap_array(
        array, DenseTensorMeta.get(DataType.FLOAT32, (2,), DataLayout.NCHW, GPUPlace(0))
    )


def test_kernel_fallback_runs_the_cpu_kernel_when_no_gpu_kernel_exists() -> None:
    from phiops.runtime.kernels import KERNEL_FACTORY

    if any(key.backend is Backend.GPU for key in KERNEL_FACTORY.kernels_of("exp")):
        pytest.skip("a GPU exp kernel is registered here, so there is nothing to fall back from")
    x = _fake_gpu_tensor()
    assert phi.exp(x).place == phi.CPUPlace()


def test_kernel_fallback_disabled_raises_not_found() -> None:
    from phiops.runtime.kernels import KERNEL_FACTORY

    if any(key.backend is Backend.GPU for key in KERNEL_FACTORY.kernels_of("exp")):
        pytest.skip("a GPU exp kernel is registered here, so there is nothing to fall back from")
    x = _fake_gpu_tensor()
    with flags.flags_guard({"enable_api_kernel_fallback": False}):
        with pytest.raises(
            NotFoundError,
            match=r"kernel 'exp' has no registration for \(GPU, NCHW, FLOAT32\) \(CPU fallback is disabled\)",
        ):
            phi.exp(x)
    assert phi.exp(x).place == phi.CPUPlace()


def test_flags_cli_lists_the_runtime_flags() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "phiops.runtime.flags"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    for name in ("check_nan_inf", "enable_api_kernel_fallback", "log_dispatch"):
        assert name in result.stdout
    assert "runtime/runtime_flags.py:" in result.stdout
