"""Batch-norm folding: a ``batch_norm`` in test mode (``is_test`` or ``use_global_stats``) after a
convolution or matmul with a constant weight, together with the per-channel ``add``,
``multiply`` and ``scale`` by constants between them (a convolution's bias), becomes the
producer with a rescaled weight followed by one bias add:

    y = (conv(x, W) * m + a)  ==  conv(x, W * m) + a      (m, a per output channel)

The folded weight and bias are computed in float64 on the host and stored in the weight's dtype
(on the plan's place); results
differ from the unfolded program by rounding only (within 1e-5 relative to the output's scale
on the models of tests/static/passes)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from phiops.runtime.backends import to_numpy
from phiops.runtime.ir.core import Block, Operation, Value
from phiops.runtime.static.passes.patterns import Producer, Uses, producer_of

__all__ = ["BatchNormFold", "match_batch_norm_folds"]

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
    is_test = op.attributes.get("is_test")
    global_stats = op.attributes.get("use_global_stats")
    if not (is_test is not None and is_test.value) and not (
        global_stats is not None and global_stats.value
    ):
        return None
    if len(op.operands) != 5 or op.operands[0] is not value:
        return None
    if not all(uses.unread(result) for result in op.results[1:]):
        return None
    layout = op.attributes.get("data_format")
    rank = len(value.type.dims)
    bn_axis = rank - 1 if layout is not None and layout.value == "NHWC" else 1
    if bn_axis != axis:
        return None
    arrays = []
    for operand in op.operands[1:]:
        array = None if operand is None else constants.get(operand)
        if operand is not None and (array is None or array.shape != (channels,)):
            return None
        arrays.append(None if array is None else to_numpy(array))
    mean, variance, gamma, beta = arrays
    if mean is None or variance is None:
        return None
    epsilon = float(op.attributes["epsilon"].value) if "epsilon" in op.attributes else 1e-5
    gamma = np.ones(channels) if gamma is None else gamma.astype(np.float64)
    beta = np.zeros(channels) if beta is None else beta.astype(np.float64)
    factor = gamma / np.sqrt(variance.astype(np.float64) + epsilon)
    return factor, beta - mean.astype(np.float64) * factor, True


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
