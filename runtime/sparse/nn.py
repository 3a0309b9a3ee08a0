"""``phiops.sparse.nn`` (``paddle.sparse.nn``): the activations on sparse tensors, as functions
(``functional``: ``relu``, ``relu6``, ``leaky_relu``, ``softmax``) and layers (``ReLU``,
``ReLU6``, ``LeakyReLU``, ``Softmax``)."""

from __future__ import annotations

from typing import Any

from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.nn.layer import Layer
from phiops.runtime.sparse.shape import softmax
from phiops.runtime.sparse.unary import leaky_relu, relu, relu6

__all__ = ["relu", "relu6", "leaky_relu", "softmax", "ReLU", "ReLU6", "LeakyReLU", "Softmax"]


class ReLU(Layer):
    """``max(x, 0)`` of each stored value of a sparse tensor."""

    def __init__(self, name: str | None = None) -> None:
        super().__init__()

    def forward(self, x: Tensor) -> Tensor:
        return relu(x)


class ReLU6(Layer):
    """``min(max(x, 0), 6)`` of each stored value of a sparse tensor."""

    def __init__(self, name: str | None = None) -> None:
        super().__init__()

    def forward(self, x: Tensor) -> Tensor:
        return relu6(x)


class LeakyReLU(Layer):
    """x where positive, ``negative_slope * x`` elsewhere, of each stored value."""

    def __init__(self, negative_slope: float = 0.01, name: str | None = None) -> None:
        super().__init__()
        self._negative_slope = negative_slope

    def forward(self, x: Tensor) -> Tensor:
        return leaky_relu(x, self._negative_slope)

    def extra_repr(self) -> str:
        return f"negative_slope={self._negative_slope!r}"


class Softmax(Layer):
    """The softmax of a sparse tensor's stored entries along its last axis."""

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__()
        self._axis = axis

    def forward(self, x: Any) -> Tensor:
        return softmax(x, self._axis)

    def extra_repr(self) -> str:
        return f"axis={self._axis}"
