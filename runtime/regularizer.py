"""Weight-decay regularizers with PaddlePaddle 3.3.1's interface (``paddle.regularizer``):
``L1Decay`` and ``L2Decay``. Called on a parameter, a regularizer gives the term an optimizer
adds to its gradient (``add_n([grad, term])``): ``coeff * sign(param)`` for L1, ``coeff *
param`` for L2, through the ``sign`` and ``scale`` ops, so the same call builds the term in a
static program.

A parameter's own regularizer (``ParamAttr(regularizer=...)``) overrides the optimizer's
``weight_decay`` for that parameter, as in PaddlePaddle. phiops' Tensor has no ``regularizer``
attribute to carry it, so ``set_parameter_regularizer`` records it here, by the parameter's
identity (weakly: a dead parameter's entry goes with it); ``parameter_regularizer`` finds it for
an eager parameter, or by name for a static program's parameter Value.
"""

from __future__ import annotations

import weakref
from typing import Any

from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.errors import InvalidArgumentError

__all__ = ["WeightDecayRegularizer", "L1Decay", "L2Decay"]


class WeightDecayRegularizer:
    """The base class: ``regularizer(param, grad, block)`` is the term added to ``grad``."""

    def __init__(self) -> None:
        pass

    def __call__(self, param: Any, grad: Any, block: Any = None) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must define __call__")

    def __str__(self) -> str:
        raise NotImplementedError(f"{type(self).__name__} must define __str__")


def _coefficient(kind: str, coeff: Any) -> float:
    if isinstance(coeff, bool) or not isinstance(coeff, (int, float)):
        raise InvalidArgumentError(
            f"{kind}: coeff must be a float or an int, got {type(coeff).__name__}"
        )
    return coeff


class L1Decay(WeightDecayRegularizer):
    """L1 weight decay: adds ``coeff * sign(param)`` to the gradient."""

    def __init__(self, coeff: float = 0.0) -> None:
        super().__init__()
        self._coeff = _coefficient("L1Decay", coeff)

    def __call__(self, param: Any, grad: Any, block: Any = None) -> Any:
        """``coeff * sign(param)`` (``sign`` then ``scale``)."""
        return op_api("scale")(op_api("sign")(param), self._coeff, 0.0, True)

    def __str__(self) -> str:
        return f"L1Decay, coeff={self._coeff:f}"


class L2Decay(WeightDecayRegularizer):
    """L2 weight decay: adds ``coeff * param`` to the gradient (a float ``weight_decay`` of an
    optimizer means this)."""

    def __init__(self, coeff: float = 0.0) -> None:
        super().__init__()
        self._coeff = _coefficient("L2Decay", coeff)

    def __call__(self, param: Any, grad: Any, block: Any = None) -> Any:
        """``coeff * param`` (``scale``)."""
        return op_api("scale")(param, self._coeff, 0.0, True)

    def __str__(self) -> str:
        return f"L2Decay, coeff={self._coeff:f}"


# id(parameter) -> (a weak reference to it, its regularizer)
_REGULARIZERS: dict[int, tuple[weakref.ref, WeightDecayRegularizer]] = {}


def set_parameter_regularizer(parameter: Any, regularizer: WeightDecayRegularizer) -> None:
    """Record ``regularizer`` as ``parameter``'s own (from its ParamAttr)."""
    if not isinstance(regularizer, WeightDecayRegularizer):
        raise InvalidArgumentError(
            f"regularizer must be an L1Decay or an L2Decay, got {type(regularizer).__name__}"
        )
    key = id(parameter)
    reference = weakref.ref(parameter, lambda _: _REGULARIZERS.pop(key, None))
    _REGULARIZERS[key] = (reference, regularizer)


def parameter_regularizer(parameter: Any) -> WeightDecayRegularizer | None:
    """``parameter``'s own regularizer, None if it has none. A static program's parameter (a
    Value) is found by its ``parameter_name``."""
    entry = _REGULARIZERS.get(id(parameter))
    if entry is not None and entry[0]() is parameter:
        return entry[1]
    define_op = getattr(parameter, "define_op", None)
    if define_op is None or "parameter_name" not in define_op.attributes:
        return None
    name = define_op.attributes["parameter_name"].value
    for reference, regularizer in list(_REGULARIZERS.values()):
        tensor = reference()
        if tensor is not None and getattr(tensor, "name", None) == name:
            return regularizer
    return None
