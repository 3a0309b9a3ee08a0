"""Batch-norm folding: a ``batch_norm`` in test mode (``is_test`` or ``use_global_stats``) after a
convolution or matmul with a constant weight, together with the per-channel ``add``,
``multiply`` and ``scale`` by constants between them (a convolution's bias), becomes the
producer with a rescaled weight followed by one bias add:

    y = (conv(x, W) * m + a)  ==  conv(x, W * m) + a      (m, a per output channel)

The folded weight and bias are computed in float64 on the host and stored in the weight's dtype
(on the plan's place); results
differ from the unfolded program by rounding only (within 1e-5 relative to the output's scale
on the models of tests/static/passes). A test-mode batch_norm that folds into no producer (after
a concat, an add, a feed) runs as one per-channel affine step instead (batch_norm_affine.py),
under the same pass name; `affine_of_batch_norm` is the map both take from the batch_norm."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from phiops.runtime.backends import to_numpy
from phiops.runtime.ir.core import Block, Operation, Value
from phiops.runtime.ir.types import DenseTensorType
from phiops.runtime.kernels.impl.norm_kernel import (
    CHANNEL_LAST_FORMATS,
    float32_attribute,
    uses_global_stats,
)
from phiops.runtime.static.passes.patterns import Producer, Uses, producer_of

__all__ = ["BatchNormAffine", "BatchNormFold", "match_batch_norm_folds", "affine_of_batch_norm"]

_BATCH_NORMS = ("pd_op.batch_norm", "pd_op.batch_norm_")


@dataclass
class BatchNormFold:
    """A producer (op ``producer``) whose weight operand becomes ``weight`` and whose linear
    chain (ops ``chain``, their results ``values``, the last one a batch_norm) becomes one add
    of ``bias`` (shaped to broadcast along the output channels)."""

    producer: int
    weight_operand: int
    weight: Any
    bias: Any
    chain: list[int]
    values: list[Value]


def match_batch_norm_folds(
    block: Block, uses: Uses, constants: dict[Value, Any]
) -> list[BatchNormFold]:
    """Every producer followed by a linear chain ending in a test-mode batch_norm."""
    folds = []
    for index, op in enumerate(block.ops):
        if index in uses.dead:
            continue
        producer = producer_of(op, constants)
        if producer is None:
            continue
        fold = _fold_after(op, index, producer, uses, constants)
        if fold is not None:
            folds.append(fold)
    return folds


def _fold_after(
    op: Operation, index: int, producer: Producer, uses: Uses, constants: dict[Value, Any]
) -> BatchNormFold | None:
    weight = to_numpy(constants[op.operands[producer.weight_operand]])
    if weight.dtype.kind != "f" or weight.ndim <= producer.weight_axis:
        return None
    channels = weight.shape[producer.weight_axis]
    scale = np.ones(channels)
    shift = np.zeros(channels)
    chain: list[int] = []
    values: list[Value] = []
    best: tuple[int, Any, Any] | None = None  # chain length, scale, shift at the last batch_norm
    value = op.results[0]
    while True:
        reader = uses.only_reader(value)
        if reader is None:
            break
        reader_index, reader_op = reader
        step = _linear_step(reader_op, value, producer.out_axis, channels, constants, uses)
        if step is None:
            break
        multiplier, addend, is_batch_norm = step
        scale = scale * multiplier
        shift = shift * multiplier + addend
        chain.append(reader_index)
        value = reader_op.results[0]
        values.append(value)
        if is_batch_norm:
            best = (len(chain), scale, shift)
    if best is None:
        return None
    length, scale, shift = best
    axis_shape = [1] * weight.ndim
    axis_shape[producer.weight_axis] = channels
    folded_weight = (weight.astype(np.float64) * scale.reshape(axis_shape)).astype(weight.dtype)
    rank = len(op.results[0].type.dims)
    bias_shape = [1] * rank
    bias_shape[producer.out_axis] = channels
    bias = shift.reshape(bias_shape).astype(weight.dtype)
    return BatchNormFold(
        index, producer.weight_operand, folded_weight, bias, chain[:length], values[:length]
    )


def _linear_step(
    op: Operation,
    value: Value,
    axis: int,
    channels: int,
    constants: dict[Value, Any],
    uses: Uses,
) -> tuple[Any, Any, bool] | None:
    """(multiplier, addend, is a batch_norm) of the per-channel linear map ``op`` applies to
    ``value``, or None when it is not one."""
    name = op.name
    if name in _BATCH_NORMS:
        return _batch_norm_step(op, value, axis, channels, constants, uses)
    if len(op.results) != 1:
        return None
    if name == "pd_op.add" or name == "pd_op.multiply":
        other = [operand for operand in op.operands if operand is not value]
        if len(op.operands) != 2 or len(other) != 1 or other[0] not in constants:
            return None
        vector = _per_channel(constants[other[0]], axis, value, channels)
        if vector is None:
            return None
        if name == "pd_op.add":
            return np.ones(channels), vector, False
        return vector, np.zeros(channels), False
    if name == "pd_op.scale" and op.operands[0] is value:
        factor = _scale_factor(op, constants)
        bias = op.attributes.get("bias")
        after = op.attributes.get("bias_after_scale")
        if factor is None or bias is None:
            return None
        addend = float(bias.value)
        if after is not None and not after.value:
            addend *= factor
        return np.full(channels, factor), np.full(channels, addend), False
    return None


def _scale_factor(op: Operation, constants: dict[Value, Any]) -> float | None:
    if len(op.operands) > 1 and op.operands[1] is not None:
        array = constants.get(op.operands[1])
        if array is None or getattr(array, "size", 0) != 1:
            return None
        return float(to_numpy(array).reshape(()))
    attribute = op.attributes.get("scale")
    return None if attribute is None else float(attribute.value)


def _batch_norm_step(
    op: Operation,
    value: Value,
    axis: int,
    channels: int,
    constants: dict[Value, Any],
    uses: Uses,
) -> tuple[Any, Any, bool] | None:
    affine = affine_of_batch_norm(op, uses, constants)
    if affine is None or op.operands[0] is not value or affine.axis != axis:
        return None
    if affine.multiplier.shape != (channels,):
        return None
    return affine.multiplier, affine.addend, True


@dataclass(frozen=True)
class BatchNormAffine:
    """The per-channel map a test-mode batch_norm applies to its input:
    ``y = x * multiplier + addend`` along ``axis`` (float64 vectors, one number per channel)."""

    axis: int
    multiplier: Any
    addend: Any


def affine_of_batch_norm(
    op: Operation, uses: Uses, constants: dict[Value, Any]
) -> BatchNormAffine | None:
    """``op`` as the affine map it applies, when it is a batch_norm normalising with its running
    statistics (``is_test`` without ``trainable_statistics``, or ``use_global_stats``: the
    kernel's test), whose mean and variance (and scale and bias, where present) are float
    constants of one shape [C], and whose results other than the first are unread; else None.
    The map is ``gamma / sqrt(variance + epsilon)`` and ``beta - mean * that``, computed in
    float64, epsilon rounded to float32 as the kernel rounds it."""
    if op.name not in _BATCH_NORMS or len(op.operands) != 5:
        return None
    if not uses_global_stats(
        _flag(op, "is_test"), _flag(op, "use_global_stats"), _flag(op, "trainable_statistics")
    ):
        return None
    if not all(uses.unread(result) for result in op.results[1:]):
        return None
    declared = op.operands[0].type
    if not isinstance(declared, DenseTensorType) or len(declared.dims) < 2:
        return None
    layout = op.attributes.get("data_format")
    channels_last = layout is not None and layout.value in CHANNEL_LAST_FORMATS
    axis = len(declared.dims) - 1 if channels_last else 1
    arrays = []
    for operand in op.operands[1:]:
        array = None if operand is None else constants.get(operand)
        if operand is not None and (
            array is None or array.ndim != 1 or np.dtype(array.dtype).kind != "f"
        ):
            return None
        arrays.append(None if array is None else to_numpy(array).astype(np.float64))
    mean, variance, gamma, beta = arrays
    if mean is None or variance is None:
        return None
    channels = mean.shape[0]
    if any(array is not None and array.shape != (channels,) for array in arrays):
        return None
    epsilon = (
        float32_attribute(op.attributes["epsilon"].value) if "epsilon" in op.attributes else 1e-5
    )
    gamma = np.ones(channels) if gamma is None else gamma
    beta = np.zeros(channels) if beta is None else beta
    multiplier = gamma / np.sqrt(variance + epsilon)
    return BatchNormAffine(axis, multiplier, beta - mean * multiplier)


def _flag(op: Operation, name: str) -> bool:
    attribute = op.attributes.get(name)
    return attribute is not None and bool(attribute.value)


def _per_channel(array: Any, axis: int, value: Value, channels: int) -> Any | None:
    """``array`` as one number per output channel, when it broadcasts along ``axis`` of
    ``value`` only; None otherwise."""
    rank = len(value.type.dims)
    if not hasattr(array, "ndim") or array.ndim > rank or array.dtype.kind not in "fiu":
        return None
    array = to_numpy(array)
    shape = (1,) * (rank - array.ndim) + tuple(array.shape)
    if any(extent != 1 for position, extent in enumerate(shape) if position != axis):
        return None
    if shape[axis] not in (1, channels):
        return None
    return np.broadcast_to(np.reshape(array, (-1,)).astype(np.float64), (channels,))
