"""``paddle.autograd.saved_tensors_hooks(pack_hook, unpack_hook)``: inside the ``with`` block,
every tensor an op saves for its backward (inputs and outputs its backward op reads, not those it
needs only the shape of) goes through ``pack_hook(tensor)``, and the grad node keeps what it
returns instead of the tensor; the backward pass calls ``unpack_hook(packed)`` for the tensor
(which must be a Tensor of the same content, as in PaddlePaddle). A typical use keeps saved
activations off the device or compressed. Blocks nest: the innermost pair applies, and the outer
one again after it (PaddlePaddle 3.3.1 clears every pair when any block exits)."""

from __future__ import annotations

from typing import Any, Callable

from phiops.runtime.autograd import grad_node
from phiops.runtime.errors import InvalidArgumentError

__all__ = ["saved_tensors_hooks"]

_STACK: list[tuple[Callable[[Any], Any], Callable[[Any], Any]]] = []


class saved_tensors_hooks:  # noqa: N801 - PaddlePaddle's name
    """Pack and unpack the tensors saved for backward inside the ``with`` block."""

    def __init__(self, pack_hook: Callable[[Any], Any], unpack_hook: Callable[[Any], Any]) -> None:
        for argument, hook in (("pack_hook", pack_hook), ("unpack_hook", unpack_hook)):
            if not callable(hook):
                raise InvalidArgumentError(
                    f"saved_tensors_hooks(): argument '{argument}' must be callable, got "
                    f"{type(hook).__name__}"
                )
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> None:
        _STACK.append((self.pack_hook, self.unpack_hook))
        grad_node.set_saved_tensors_hooks(_STACK[-1])

    def __exit__(self, *args: object) -> None:
        _STACK.pop()
        grad_node.set_saved_tensors_hooks(_STACK[-1] if _STACK else None)
