"""Tap pruning: a convolution whose kernel rows or columns never touch its input, only padding,
for the input extents the plan runs with (Inception-v3's 3x3 and 1x3 kernels on 1x1 planes,
its 1x7 kernels on 3x3 planes: the outer taps read padding for every output pixel), runs with
the kernel cut to the taps that do and its padding reduced by as much, so the output's extents
and values stay the same up to rounding (the GEMM may group the remaining sums differently): the
dropped taps only ever added products of zeros. (The
pipeline cuts only where every dropped weight is finite: a NaN or infinite one would have made
those products NaN.) The weights a GEMM then reads shrink accordingly (a 3x3 kernel on a 1x1
plane: 9 times fewer, where such a product is bound by reading them).

Applies to `pd_op.conv2d` and `pd_op.depthwise_conv2d` with explicit paddings and a constant
weight (a parameter, a folded constant, a folded batch norm's weight), decided when the plan
compiles the op, from the extents of its input in that plan."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from phiops.runtime.ir.attributes import Attribute
from phiops.runtime.ir.core import Operation

__all__ = ["CONVOLUTIONS", "TapCut", "tap_cut"]

CONVOLUTIONS = ("pd_op.conv2d", "pd_op.depthwise_conv2d")


@dataclass(frozen=True)
class TapCut:
    """The kernel rows [y0, y1) and columns [x0, x1) kept, and the paddings that keep the
    output (top, bottom, left, right)."""

    y0: int
    y1: int
    x0: int
    x1: int
    paddings: tuple[int, int, int, int]

    def weight(self, weight: Any) -> Any:
        """``weight`` [M, C, kh, kw] cut to the kept taps (a contiguous copy)."""
        return np.ascontiguousarray(weight[:, :, self.y0 : self.y1, self.x0 : self.x1])

    def attribute(self) -> Attribute:
        return Attribute("array", tuple(Attribute("int32", p) for p in self.paddings))


def _ints(attribute: Any) -> tuple[int, ...] | None:
    if attribute is None or not isinstance(attribute.value, tuple):
        return None
    values = [getattr(item, "value", item) for item in attribute.value]
    return tuple(values) if all(isinstance(v, int) for v in values) else None


def _kept(size: int, k: int, stride: int, dilation: int, before: int, after: int):
    """The kernel taps [first, last + 1) along one axis that read the input for some output
    position, or None when every tap does (or none does)."""
    out = (size + before + after - dilation * (k - 1) - 1) // stride + 1
    if out <= 0 or size <= 0:
        return None
    kept = [
        t
        for t in range(k)
        if any(0 <= o * stride + t * dilation - before < size for o in range(out))
    ]
    if not kept or (kept[0] == 0 and kept[-1] == k - 1):
        return None
    return kept[0], kept[-1] + 1


def tap_cut(op: Operation, input_dims: tuple[int, ...], weight_shape: tuple[int, ...]):
    """The TapCut of convolution ``op`` on an input of ``input_dims`` with a weight of
    ``weight_shape``, or None: nothing to cut, or not a case this pass takes (implicit
    paddings, unknown extents, a cut that would need negative padding)."""
    if op.name not in CONVOLUTIONS or len(input_dims) != 4 or len(weight_shape) != 4:
        return None
    algorithm = op.attributes.get("padding_algorithm")
    if algorithm is not None and algorithm.value != "EXPLICIT":
        return None
    layout = op.attributes.get("data_format")
    channels_last = layout is not None and layout.value == "NHWC"
    spatial = input_dims[1:3] if channels_last else input_dims[2:4]
    strides = _ints(op.attributes.get("strides"))
    dilations = _ints(op.attributes.get("dilations"))
    paddings = _ints(op.attributes.get("paddings"))
    if strides is None or dilations is None or paddings is None or any(s <= 0 for s in spatial):
        return None
    if len(strides) != 2 or len(dilations) != 2 or len(paddings) not in (2, 4):
        return None
    if len(paddings) == 2:
        paddings = (paddings[0], paddings[0], paddings[1], paddings[1])
    kh, kw = weight_shape[2:]
    cuts = []
    for axis, k in enumerate((kh, kw)):
        before, after = paddings[2 * axis], paddings[2 * axis + 1]
        kept = _kept(spatial[axis], k, strides[axis], dilations[axis], before, after)
        first, last = kept if kept is not None else (0, k)
        new_before = before - first * dilations[axis]
        new_after = after - (k - last) * dilations[axis]
        if new_before < 0 or new_after < 0:
            first, last, new_before, new_after = 0, k, before, after
        cuts.append((first, last, new_before, new_after))
    (y0, y1, top, bottom), (x0, x1, left, right) = cuts
    if (y0, y1, x0, x1) == (0, kh, 0, kw):
        return None
    return TapCut(y0, y1, x0, x1, (top, bottom, left, right))
