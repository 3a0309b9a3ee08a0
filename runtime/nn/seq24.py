"""``paddle.nn.functional`` functions and ``paddle.nn`` layers over the seq24 ops of issue 24
(sequence, NLP and graph ops; kernels in runtime/kernels/impl/seq24_kernel.py), with
PaddlePaddle 3.3.1's signatures: ``gather_tree``, ``bilinear``,
``swiglu`` and the layer ``Bilinear``."""

from __future__ import annotations

from typing import Any

from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.nn.layer import Layer

__all__ = ["gather_tree", "bilinear", "swiglu", "Bilinear"]

FUNCTIONAL_NAMES = tuple(__all__[:3])
LAYER_NAMES = tuple(__all__[3:])


def gather_tree(ids: Tensor, parents: Tensor) -> Tensor:
    """The full id sequences of beam search's final beams: ``ids`` [max_time, batch, beam]
    traced back through ``parents`` (the beam each id came from at the step before); op
    ``gather_tree``."""
    return op_api("gather_tree")(ids, parents)


def bilinear(
    x1: Tensor, x2: Tensor, weight: Tensor, bias: Tensor | None = None, name: str | None = None
) -> Tensor:
    """``out[b, k] = x1[b] @ weight[k] @ x2[b] + bias[0, k]``: ``x1`` [batch, in1], ``x2``
    [batch, in2], ``weight`` [out, in1, in2], ``bias`` [1, out] or None; op ``bilinear``."""
    return op_api("bilinear")(x1, x2, weight, bias)


def swiglu(x: Tensor, y: Tensor | None = None, name: str | None = None) -> Tensor:
    """``silu(x) * y``; with ``y`` None, ``x``'s halves along its last axis are the gate and
    the value; op ``swiglu``."""
    return op_api("swiglu")(x, y)


class Bilinear(Layer):
    """The bilinear form of two inputs, ``x1 @ weight[k] @ x2 + bias[0, k]`` for each output
    feature k: weight [out_features, in1_features, in2_features] (Xavier-initialised), bias
    [1, out_features] (zeros; none when ``bias_attr`` is False)."""

    def __init__(
        self,
        in1_features: int,
        in2_features: int,
        out_features: int,
        weight_attr: Any = None,
        bias_attr: Any = None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self._in1_features, self._in2_features = in1_features, in2_features
        self._out_features, self._name = out_features, name
        self.weight = self.create_parameter([out_features, in1_features, in2_features], weight_attr)
        self.bias = (
            self.create_parameter([1, out_features], bias_attr, is_bias=True)
            if bias_attr is not False
            else None
        )

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return bilinear(x1, x2, self.weight, self.bias, self._name)

    def extra_repr(self) -> str:
        return (
            f"in1_features={self._in1_features}, in2_features={self._in2_features}, "
            f"out_features={self._out_features}, dtype={self._dtype}"
        )
