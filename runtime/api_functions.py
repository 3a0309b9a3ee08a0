"""Generated API functions the runtime itself calls back into.

The runtime never imports ``generated`` (it sits below it); the generated package registers here,
at import, the functions the runtime needs: the backward ops (by name, for the autograd engine),
``add`` and ``ones_like`` (to accumulate and seed gradients) and ``sgd_``/``adam_`` (for
``runtime.optimizer``).
"""

from __future__ import annotations

from typing import Any, Callable

from runtime.errors import UnimplementedError

__all__ = ["API_FUNCTIONS"]


class _Functions(dict):
    def __missing__(self, name: str) -> Callable[..., Any]:
        raise UnimplementedError(
            f"the runtime needs the op '{name}', which the generated API does not have (or "
            "`import generated` has not run); add the op to the specs"
        )


API_FUNCTIONS: dict[str, Callable[..., Any]] = _Functions()
