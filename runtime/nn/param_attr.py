"""``ParamAttr``: how a layer makes one of its parameters, as PaddlePaddle's ``paddle.ParamAttr``."""

from __future__ import annotations

from typing import Any

from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.nn.initializer import Initializer
from phiops.runtime.regularizer import WeightDecayRegularizer

__all__ = ["ParamAttr"]


class ParamAttr:
    """A parameter's ``name`` (else the layer's next, ``linear_0.w_0``), ``initializer`` (else
    the layer's default), ``regularizer`` (an L1Decay or L2Decay that replaces the optimizer's
    ``weight_decay`` for this parameter) and ``trainable`` (False: it takes no gradient and
    optimizers leave it, as BatchNorm's running statistics). ``learning_rate`` and
    ``need_clip`` other than their defaults raise UnimplementedError: phiops' optimizers do not
    read them."""

    def __init__(
        self,
        name: str | None = None,
        initializer: Initializer | None = None,
        learning_rate: float = 1.0,
        regularizer: Any = None,
        trainable: bool = True,
        do_model_average: bool = True,
        need_clip: bool = True,
    ) -> None:
        if name is not None and (not isinstance(name, str) or not name):
            raise InvalidArgumentError(f"ParamAttr: name must be a non-empty str, got {name!r}")
        if initializer is not None and not isinstance(initializer, Initializer):
            raise InvalidArgumentError(
                f"ParamAttr: initializer must be an Initializer, got {type(initializer).__name__}"
            )
        if regularizer is not None and not isinstance(regularizer, WeightDecayRegularizer):
            raise InvalidArgumentError(
                "ParamAttr: regularizer must be an L1Decay, an L2Decay or None, got "
                f"{type(regularizer).__name__}"
            )
        if not isinstance(trainable, bool):
            raise InvalidArgumentError(f"ParamAttr: trainable must be a bool, got {trainable!r}")
        for label, value, default in (
            ("learning_rate", learning_rate, 1.0),
            ("need_clip", need_clip, True),
        ):
            if value != default:
                raise UnimplementedError(
                    f"ParamAttr: {label}={value!r} is not implemented (phiops' optimizers do "
                    f"not read it); leave it at {default!r}"
                )
        self.name, self.initializer, self.trainable = name, initializer, trainable
        self.regularizer = regularizer

    def __repr__(self) -> str:
        return (
            f"ParamAttr(name={self.name!r}, initializer={self.initializer!r}, "
            f"regularizer={self.regularizer!r}, trainable={self.trainable!r})"
        )
