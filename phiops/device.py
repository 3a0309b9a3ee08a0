"""``phiops.device`` (``paddle.device``): the default device and the custom device types.

``set_device('jax')`` makes new tensors (``to_tensor``, creation ops, layers' parameters) live on
device ``jax:0`` of the custom device type ``jax``, which an installed package registers through
the ``phiops.devices`` entry points (docs/extending.md); ``'cpu'``, ``'gpu'`` and ``'gpu:N'``
work as in PaddlePaddle. PaddlePaddle's other ``paddle.device`` functions (streams, events,
memory statistics, CUDA and XPU helpers) are not in phiops.
"""

from __future__ import annotations

from typing import Any

import phiops as _phiops
from phiops.runtime import device as _device
from phiops.runtime.backends import device_count as _device_count
from phiops.runtime.common import Backend as _Backend
from phiops.runtime.common import CustomPlace, Place
from phiops.runtime.errors import InvalidArgumentError

__all__ = [
    "set_device",
    "get_device",
    "get_all_device_type",
    "get_all_custom_device_type",
    "get_available_device",
    "get_available_custom_device",
    "is_compiled_with_custom_device",
    "CustomPlace",
]


def set_device(device: Any) -> Place:
    """Make ``device`` the default device and return its Place: ``'cpu'``, ``'gpu'``,
    ``'gpu:N'``, a custom device type (``'jax'``, ``'jax:N'``), a Place, or an int (GPU N).
    Ops without tensor inputs and ``to_tensor`` put their results there. InvalidArgumentError
    for an unknown name or a device this machine lacks."""
    if isinstance(device, int) and not isinstance(device, bool):
        device = f"gpu:{device}"
    return _device.set_device(device)


def get_device(input: Any = None) -> str | int:  # noqa: A002 - PaddlePaddle's name
    """The default device as a string (``'cpu'``, ``'gpu:0'``, ``'jax:0'``); for a tensor
    ``input``, its device id (-1 on the CPU), as in PaddlePaddle."""
    if input is not None:
        place = getattr(input, "place", None)
        if not isinstance(place, Place):
            raise InvalidArgumentError(
                f"get_device: input must be a Tensor or None, got {type(input).__name__}"
            )
        return -1 if place.backend is _Backend.CPU else place.device_id
    return _device.get_device()


def get_all_custom_device_type() -> list[str]:
    """The custom device types installed packages register (``['jax']``), sorted."""
    return _device.custom_device_types()


def get_all_device_type() -> list[str]:
    """Every device type usable here: ``'cpu'``, ``'gpu'`` when a GPU is there, and the custom
    device types."""
    types = ["cpu"]
    if _device.gpu_available():
        types.append("gpu")
    return types + get_all_custom_device_type()


def get_available_custom_device() -> list[str]:
    """The custom devices of this machine as ``'TYPE:N'`` (registering their device types)."""
    found = []
    for device_type in get_all_custom_device_type():
        place = CustomPlace(device_type, 0)
        found.extend(f"{device_type}:{i}" for i in range(_device_count(place.backend)))
    return found


def get_available_device() -> list[str]:
    """Every device of this machine besides the CPU: ``'gpu:N'`` and ``'TYPE:N'``."""
    gpus = [f"gpu:{i}" for i in range(_device.gpu_count())]
    return gpus + get_available_custom_device()


def is_compiled_with_custom_device(device_type: str) -> bool:
    """True when a package registers the custom device type ``device_type``."""
    return device_type in get_all_custom_device_type()


_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
