"""Batch norms as affine steps (part of the ``batch_norm_folding`` pass): a test-mode
``batch_norm`` that folds into no producer (it follows a concat, an add, a feed: pre-activation
networks such as DenseNet, BN -> relu -> conv) runs as one step computing, per channel,

    y = x * m + a      m = gamma / sqrt(variance + epsilon),  a = beta - mean * m

(`affine_of_batch_norm`: m and a computed in float64 on the host and stored in x's dtype, as the
fold stores its weight), where the batch_norm kernel makes about ten passes over the array. On
CPU the step runs `channel_affine` (the compiled kernel, else numpy); a relu that is the
result's one reader and would run in place (`relu_runs_in_place`) joins it, computed in the same
pass. The step heads a fusion chain as a convolution does (fusion.py), so the adds and other
activations after it run in its slot. Results differ from the batch_norm kernel's by rounding
only, as folded ones do."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from phiops.runtime import runtime_flags
from phiops.runtime.common import Backend, Place
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.ir.core import Block, Value
from phiops.runtime.kernels.impl.channel_affine import channel_affine
from phiops.runtime.static.executor.steps.step import OpStep
from phiops.runtime.static.passes.batch_norm_folding import affine_of_batch_norm
from phiops.runtime.static.passes.patterns import Uses, declared_numpy_dtype

__all__ = ["AffineBatchNorm", "AffineStep", "affine_step", "match_affine_batch_norms"]


@dataclass
class AffineBatchNorm:
    """Op ``index``, a test-mode batch_norm, as ``y = x * scale + shift`` along the channel axis
    of its input ``x`` (axis 1, or the last one when ``channels_last``); ``scale`` and ``shift``
    hold one number per channel in x's dtype."""

    index: int
    scale: Any
    shift: Any
    channels_last: bool


def match_affine_batch_norms(
    block: Block, uses: Uses, constants: dict[Value, Any], taken: set[int]
) -> list[AffineBatchNorm]:
    """Every test-mode batch_norm of a float input whose channel extent is known, other than the
    ops in ``taken`` (those a fold absorbed)."""
    found = []
    for index, op in enumerate(block.ops):
        if index in uses.dead or index in taken:
            continue
        affine = affine_of_batch_norm(op, uses, constants)
        if affine is None:
            continue
        x = op.operands[0]
        dtype = declared_numpy_dtype(x)
        if dtype is None or np.dtype(dtype).kind != "f":
            continue
        dims = x.type.dims
        if dims[affine.axis] != affine.multiplier.shape[0]:
            continue
        found.append(
            AffineBatchNorm(
                index,
                affine.multiplier.astype(dtype),
                affine.addend.astype(dtype),
                affine.axis == len(dims) - 1,
            )
        )
    return found


def runs_as_affine(steps: list[OpStep], x_meta: Any) -> bool:
    """Whether a batch_norm compiled into ``steps`` runs the batch_norm kernel on its input as
    it is (one step planned ahead, no data transform or CPU fallback, its result of the input's
    dtype and dims) and FLAGS_check_nan_inf is off (which checks each kernel's results): then
    the affine step may take its place."""
    if len(steps) != 1 or steps[0].check is None or runtime_flags.SWITCHES.check_nan_inf:
        return False
    kernel_plan = steps[0].check[1]
    out = kernel_plan.out_metas[0]
    return (
        not kernel_plan.transforms
        and kernel_plan.fallback_from is None
        and kernel_plan.kernel.fn.__name__ == "batch_norm_kernel"
        and out.dtype == x_meta.dtype
        and out.dims == x_meta.dims
    )


class AffineStep(OpStep):
    """The step of a batch_norm run as an affine map; ``kernel_label`` names what it runs in
    timings (`kernel_text`), as a kernel step's check names its kernel."""

    __slots__ = ("kernel_label",)


def affine_step(
    item: AffineBatchNorm,
    source: int,
    target: int,
    x_meta: Any,
    place: Place,
    relu: OpStep | None = None,
) -> AffineStep:
    """The step writing the affine map of the array in slot ``source`` into slot ``target``:
    `channel_affine` on CPU (with ``relu``, the planned step of a relu reading the result,
    computed in the same pass and checked against that relu's plan), ``x * scale + shift`` with
    the device arrays' own operators elsewhere. ``item``'s vectors are on ``place``."""
    scale, shift, channels_last = item.scale, item.shift, item.channels_last
    layout = "NHWC" if channels_last else "NCHW"
    with_relu = relu is not None
    core: Callable[[list], None]
    if place.backend is Backend.CPU:

        def affine(s: list) -> None:
            s[target] = channel_affine(s[source], scale, shift, channels_last, with_relu)

        core = affine
        name = f"{channel_affine.__module__}.{channel_affine.__qualname__}"
    else:
        if with_relu:
            raise InvalidArgumentError("affine_step(): a relu joins the affine step on CPU only")
        rank = len(x_meta.dims)
        if not channels_last:
            broadcast = (scale.shape[0],) + (1,) * (rank - 2)
            scale, shift = scale.reshape(broadcast), shift.reshape(broadcast)

        def affine_on_device(s: list) -> None:
            s[target] = s[source] * scale + shift

        core = affine_on_device
        name = "x * scale + shift"
    if relu is None:
        step = AffineStep(core, (target,))
    else:
        step = AffineStep(core, relu.out_slots, relu.many, relu.check)
    step.kernel_label = f"{name} [{place.backend.name}, {layout}, {x_meta.dtype.name}" + (
        ", relu]" if with_relu else "]"
    )
    return step
