"""In-place ops (names ending in ``_``): results are written into the storage of their inputs.

Two kinds: ops that are in-place by themselves (``sgd_``, ``adam_``: ``assign_inplace`` runs
inside their generated function), and the in-place variants codegen generates for every op with
``inplace`` pairs (``relu_``, ``add_``: generated/inplace.py calls ``check_inplace``, the op, then
``write_inplace``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phiops.runtime.autograd.grad_mode import GRAD_MODE
from phiops.runtime.tensor.dense_tensor import DenseTensor
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.tensor.version import bump_version
from phiops.runtime.backends import assign_array
from phiops.runtime.device import module_of
from phiops.runtime.errors import InvalidArgumentError

__all__ = ["assign_inplace", "check_inplace", "write_inplace"]


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
            if not all(isinstance(item, Tensor) for item in tensor):
                continue  # Values of a static program: the results are the inputs' next values
            for item, computed in zip(tensor, outputs[index]):
                if computed.array is item.array:
                    bump_version(item)  # written in place by the kernel (merged_adam_)
                else:
                    _assign(item, computed)
            result[index] = list(tensor)
        else:
            if not isinstance(tensor, Tensor):
                # a Value of a static program: the op's result is the input's next (SSA) value
                continue
            _assign(tensor, outputs[index])
            result[index] = tensor
    return tuple(result)


def _assign(tensor: Tensor, output: Tensor) -> None:
    computed = output.array
    array = tensor.array
    # A kernel that wrote into its input's array (merged_adam_ does) leaves nothing to copy.
    if computed is not array:
        if computed.shape != array.shape or computed.dtype != array.dtype:
            # The op gives its input a new shape or dtype (assign_value_ does, as PHI's kernel
            # resizes the shared DenseTensor; so do reshape_ and cast_): the tensor takes the new
            # storage and meta.
            tensor.array, tensor.meta = computed, output.meta
        elif type(array) is np.ndarray:
            np.copyto(array, computed, casting="unsafe")
        else:  # the array's backend writes it (or gives a new one: immutable arrays)
            written = assign_array(array, computed)
            if written is not array:
                tensor.array = written
    bump_version(tensor)


def check_inplace(op: str, argument: str, tensor: Any) -> None:
    """InvalidArgumentError when ``tensor`` may not be written in place by ``op``: a leaf that
    needs a gradient, while gradients are recorded (PaddlePaddle's rule: its ``.grad`` would
    belong to values that no longer exist)."""
    if (
        isinstance(tensor, Tensor)
        and not tensor.stop_gradient
        and GRAD_MODE.enabled
        and tensor.is_leaf
    ):
        raise InvalidArgumentError(
            f"{op}(): argument '{argument}' is a leaf Tensor that needs a gradient "
            "(stop_gradient=False); it cannot be written in place while gradients are recorded. "
            "Write it under phi.no_grad(), or write a copy (x.clone())"
        )


def write_inplace(tensor: Any, output: Any) -> Any:
    """Write ``output`` (what the out-of-place op returned) into ``tensor``'s storage and return
    ``tensor``: its version goes up and, when the op recorded a grad node, ``tensor`` takes it
    (its history is rebased onto the op, whose saved copy of ``tensor``'s old values, if its
    backward reads them, is kept apart from the storage being overwritten)."""
    if not isinstance(tensor, Tensor):
        return output  # a Value of a static program: the op's result is its next (SSA) value
    edge = output._grad_node
    if edge is not None:
        _keep_saved_values(edge[0], tensor)
    _assign(tensor, output)
    if edge is not None:
        tensor._grad_node = edge
        tensor.stop_gradient = output.stop_gradient
    return tensor


def _keep_saved_values(node: Any, impl: DenseTensor) -> None:
    """Give the node's saved inputs that are ``impl`` a copy of its current values (at the
    version they were saved at), since ``impl``'s storage is about to be overwritten."""
    for wrapper in getattr(node, "saved", ()):
        if getattr(wrapper, "impl", None) is impl and wrapper.version >= 0:
            kept = DenseTensor(module_of(impl.array).array(impl.array, copy=True), impl.meta)
            kept._version = wrapper.version
            wrapper.impl = kept
