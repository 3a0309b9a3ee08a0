"""In-place ops (names ending in ``_``): results are written into the storage of their inputs."""

from __future__ import annotations

from typing import Any

from runtime.core.tensor import Tensor
from runtime.device import module_of

__all__ = ["assign_inplace"]


def assign_inplace(
    outputs: tuple[Any, ...], pairs: tuple[tuple[Tensor | list[Tensor] | None, int], ...]
) -> tuple[Any, ...]:
    """Copy output ``index`` into the array of ``tensor`` (or of each tensor of a list, from
    the list output ``index``) for each ``(tensor, index)`` pair, bump
    the tensor's version (so a backward that saved it notices), and return ``outputs`` with those
    outputs replaced by the input tensors themselves."""
    result = list(outputs)
    for tensor, index in pairs:
        if tensor is None or outputs[index] is None:
            # An optional output the op did not produce (sgd_'s master_param_out without
            # multi_precision): the input keeps its values and the result stays None.
            continue
        if isinstance(tensor, (list, tuple)):
            # A Tensor[] pair (merged_adam_'s param -> param_out): item by item.
            if not all(hasattr(item, "_impl") for item in tensor):
                continue  # Values of a static program: the results are the inputs' next values
            for item, computed in zip(tensor, outputs[index]):
                _assign(item, computed)
            result[index] = list(tensor)
        else:
            if not hasattr(tensor, "_impl"):
                # a Value of a static program: the op's result is the input's next (SSA) value
                continue
            _assign(tensor, outputs[index])
            result[index] = tensor
    return tuple(result)


def _assign(tensor: Tensor, output: Tensor) -> None:
    impl = tensor._impl
    computed = output._impl.array
    if computed.shape != impl.array.shape or computed.dtype != impl.array.dtype:
        # The op gives its input a new shape or dtype (assign_value_ does, as PHI's kernel
        # resizes the shared DenseTensor): the tensor takes the new storage and meta.
        impl.array, impl.meta = computed, output._impl.meta
    elif computed is not impl.array:
        module_of(impl.array).copyto(impl.array, computed, casting="unsafe")
    impl._version = getattr(impl, "_version", 0) + 1
