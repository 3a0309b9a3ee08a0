"""The rest of ``paddle.static``'s framework functions: ``name_scope``, ``device_guard``,
``cpu_places`` / ``cuda_places`` / ``xpu_places``, ``create_global_var`` and ``Variable``.

In PaddlePaddle 3.3.1's PIR programs ``name_scope`` and ``device_guard`` leave no trace in the
program (its printed ops carry neither); phiops checks their arguments as PaddlePaddle does and
keeps the current scope names (``current_name_scope``) for code that asks. ``create_global_var``
fails in 3.3.1's PIR mode (``full: argument (position 3) must be one of paddle::DataType``);
phiops builds it as a persistable value set in the startup program, as an optimizer's learning
rate is.
"""

from __future__ import annotations

import contextlib
import os
import re
from typing import Any, Iterator, Sequence

import numpy as np

from phiops.runtime.common import CPUPlace, GPUPlace, Place, to_data_type
from phiops.runtime.device import gpu_available, gpu_count
from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError
from phiops.runtime.ir.core import Value
from phiops.runtime.static.mode import in_static_mode
from phiops.runtime.static.program import unique_name
from phiops.runtime.static.variables import persistable_value

__all__ = [
    "Variable",
    "name_scope",
    "current_name_scope",
    "device_guard",
    "cpu_places",
    "cuda_places",
    "xpu_places",
    "create_global_var",
]

# PaddlePaddle's static programs hold Values: ``isinstance(x, paddle.static.Variable)`` asks
# whether x is one
Variable = Value

_SCOPES: list[str] = []


@contextlib.contextmanager
def name_scope(prefix: str | None = None) -> Iterator[None]:
    """A name scope for the ops built inside (PaddlePaddle's ``paddle.static.name_scope``);
    scopes nest as ``outer/inner``. PIR programs do not record them (nor does PaddlePaddle 3.3.1),
    and in dynamic mode it does nothing."""
    if prefix is not None and not isinstance(prefix, str):
        raise InvalidArgumentError(
            f"name_scope(): argument 'prefix' must be a str or None, got {type(prefix).__name__}"
        )
    if not in_static_mode():
        yield
        return
    _SCOPES.append(prefix or "")
    try:
        yield
    finally:
        _SCOPES.pop()


def current_name_scope() -> str:
    """The nested name scopes in effect, ``outer/inner/`` (empty outside any)."""
    return "".join(f"{s}/" for s in _SCOPES)


_DEVICE = re.compile(r"^(cpu|gpu(:\d+)?|xpu(:\d+)?|dcu(:\d+)?|[A-Za-z_][A-Za-z0-9_]*(:\d+)?)$")


@contextlib.contextmanager
def device_guard(device: str | None = None) -> Iterator[None]:
    """Place the ops built inside on ``device`` ('cpu', 'gpu', 'gpu:N', 'xpu', 'dcu', a custom
    device, or None / '' for no choice), as PaddlePaddle's ``paddle.static.device_guard``. phiops's
    executor runs a program on the place it was given, so the choice is checked and kept, not
    applied per op."""
    if device not in (None, ""):
        if not isinstance(device, str) or not _DEVICE.match(device):
            raise InvalidArgumentError(
                "device_guard(): argument 'device' should be 'cpu', 'xpu', 'dcu', 'gpu' or a "
                "custom device, optionally with ':N', or an empty string or None when there is "
                f"no need to specify a device, got {device!r}"
            )
        if ":" in device and device.split(":")[0] == "cpu":
            raise InvalidArgumentError(
                f"device_guard(): 'cpu' takes no device index, got {device!r}"
            )
    yield


def _count(api: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise InvalidArgumentError(f"{api}(): expected a count >= 1, got {value!r}")
    return int(value)


def cpu_places(device_count: int | None = None) -> list[Place]:
    """``device_count`` CPU places (default: the environment variable CPU_NUM, else 1)."""
    if device_count is None:
        text = os.environ.get("CPU_NUM", "1")
        try:
            device_count = int(text)
        except ValueError:
            raise InvalidArgumentError(
                f"cpu_places(): the environment variable CPU_NUM must be an int, got {text!r}"
            ) from None
    return [CPUPlace() for _ in range(_count("cpu_places", device_count))]


def cuda_places(device_ids: Sequence[int] | None = None) -> list[Place]:
    """GPU places: of ``device_ids``, or of FLAGS_selected_gpus / CUDA_VISIBLE_DEVICES' count,
    else every GPU. PreconditionNotMetError without a GPU (phiops's GPU backend is CuPy: the
    ``gpu`` extra)."""
    if not gpu_available():
        raise PreconditionNotMetError(
            "cuda_places(): no GPU is available (phiops runs on NVIDIA GPUs with its GPU backend: "
            "install phiops with its 'gpu' extra on a machine with a GPU)"
        )
    if device_ids is None:
        selected = os.environ.get("FLAGS_selected_gpus", "")
        device_ids = (
            [int(i) for i in selected.split(",") if i.strip()]
            if selected
            else list(range(gpu_count()))
        )
    elif isinstance(device_ids, (int, np.integer)) and not isinstance(device_ids, bool):
        device_ids = [int(device_ids)]
    places = []
    for device_id in device_ids:
        if isinstance(device_id, bool) or not isinstance(device_id, (int, np.integer)):
            raise InvalidArgumentError(
                f"cuda_places(): device ids must be ints, got {device_id!r}"
            )
        if not 0 <= device_id < gpu_count():
            raise InvalidArgumentError(
                f"cuda_places(): device id {device_id} is out of range: this machine has "
                f"{gpu_count()} GPU(s)"
            )
        places.append(GPUPlace(int(device_id)))
    return places


def xpu_places(device_ids: Sequence[int] | None = None) -> list[Place]:
    """Always a PreconditionNotMetError: phiops has no XPU backend (PaddlePaddle built without
    XPU says the same)."""
    raise PreconditionNotMetError("xpu_places(): phiops has no XPU backend (no XPU device)")


_GLOBAL_DTYPES = ("bool", "float16", "float32", "float64", "int8", "int16", "int32", "int64",
                  "uint8", "uint16")


def create_global_var(
    shape: Sequence[int],
    value: float,
    dtype: Any,
    persistable: bool = False,
    force_cpu: bool = False,
    name: str | None = None,
) -> Value:
    """A variable of the main program filled with ``value`` when the startup program runs
    (``shape`` of ints, ``dtype`` of bool, float16/32/64, int8/16/32/64, uint8, uint16), named
    ``name`` or ``global_var_N``; it stops the gradient and keeps its value in the scope
    between runs (whatever ``persistable`` says: a value the startup program sets must
    persist). ``force_cpu`` is accepted: phiops's static programs run on one place."""
    if not in_static_mode():
        raise PreconditionNotMetError(
            "create_global_var() builds a static program: call phi.enable_static() first"
        )
    if not isinstance(shape, (list, tuple, np.ndarray)):
        raise InvalidArgumentError(
            f"create_global_var(): argument 'shape' must be a list or tuple of ints, got "
            f"{type(shape).__name__}"
        )
    dims = []
    for position, extent in enumerate(list(shape)):
        if isinstance(extent, bool) or not isinstance(extent, (int, np.integer)) or extent < 0:
            raise InvalidArgumentError(
                f"create_global_var(): argument 'shape[{position}]' must be an int >= 0, got "
                f"{extent!r}"
            )
        dims.append(int(extent))
    data_type = to_data_type(dtype)
    if data_type.name.lower() not in _GLOBAL_DTYPES:
        raise InvalidArgumentError(
            f"create_global_var(): argument 'dtype' must be one of {', '.join(_GLOBAL_DTYPES)}, "
            f"got {data_type.name.lower()}"
        )
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
        raise InvalidArgumentError(
            f"create_global_var(): argument 'value' must be a number, got {value!r}"
        )
    if name is not None and (not isinstance(name, str) or not name):
        raise InvalidArgumentError(
            f"create_global_var(): argument 'name' must be a non-empty str or None, got {name!r}"
        )
    return persistable_value(name or unique_name("global_var"), dims, data_type, float(value))
