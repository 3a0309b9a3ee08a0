"""Kernels of the train24 ops of issue 24 (AMP, metrics and training-side ops), for the dtypes
PaddlePaddle 3.3.1 registers on CPU, with PHI's semantics:

- check_finite_and_unscale (paddle/phi/kernels/cpu/amp_kernel.cc, float32 and float64): the
  reciprocal of scale is taken in double and rounded to x's dtype; the tensors of x are checked
  in order, and until one holds a NaN or an infinity each is multiplied by that reciprocal;
  that tensor and every later one are multiplied by 0 instead (NaN where they are not finite).
  found_infinite is one bool.
- update_loss_scaling (paddle/phi/kernels/impl/amp_kernel_impl.h, float32 and float64): a true
  found_infinite zeroes every tensor of x (otherwise x is left as it is); unless stop_update,
  a finite step counts one more good step (the bad count restarts) and after
  incr_every_n_steps of them multiplies the factor by incr_ratio, keeping the old factor when
  the product is not finite; a non-finite step counts one more bad step (the good count
  restarts) and after decr_every_n_nan_or_inf of them multiplies the factor by decr_ratio, at
  least 1. The ratios are PHI's float attributes, rounded to float32 before the product in
  x's dtype; a count that reaches its limit restarts at 0. PHI leaves the factor's output
  unwritten when it does not change, which its in-place use reads as the old factor: the
  kernel here returns the old factor then.
- clip_by_norm (paddle/phi/kernels/impl/clip_by_norm_kernel_impl.h, float32): norm is the L2
  norm of all of x, summed in x's dtype; out is x where norm <= max_norm, else
  x * max_norm / (norm + epsilon), epsilon 1e-6 when norm <= 1e-30 and 0 otherwise (a NaN or
  infinite norm gives NaN or 0 * inf, as PHI's product does).
- norm (paddle/phi/kernels/cpu/norm_kernel.cc, float32 and float64): norm = sqrt(sum(x * x,
  axis) + epsilon) with epsilon rounded to float32 (PHI's float attribute), out = x / norm;
  with is_test norm is an empty tensor (PHI leaves it unset).
- accuracy (paddle/phi/kernels/cpu/accuracy_kernel.cc, float32 and float64 scores): a sample is
  correct when its label is among its k indices; accuracy = correct / N in float32, correct
  and total int32. A negative label is an error, as in PHI; with N = 0 PHI leaves correct and
  total unset, the kernel here gives 0.
- accuracy_check (paddle/phi/kernels/impl/accuracy_check_kernel_impl.h, every dtype): a and b
  (in double; complex ones in their real type) agree when a == b, |a - b| <= atol + rtol * |b|
  or the two sides are within 1e-10; NaNs agree with NaNs under equal_nan. The first element
  that does not agree raises a PreconditionNotMetError naming fn_name and its index; for
  complex inputs PHI's loop only stops at a non-NaN failure and reads a NaN failure from the
  last element alone (index -1), which the kernel here keeps. out is all true.
- auc (paddle/phi/kernels/cpu/auc_kernel.cc, float32 predictions): the last column's score p
  (in [0, 1], else PreconditionNotMetError as in PHI) goes to bucket int(p * num_thresholds)
  of the positive (label > 0) or negative (label 0) histogram; with slide_steps the current
  step's slot replaces its old counts in the sum; the AUC is PHI's trapezoid sum from the
  highest bucket down, in double and in order, divided by both totals when they are nonzero.
  Fake data (ins_tag_weight[0] == 0) with slide_steps 0 leaves the histograms and gives auc 0
  (PHI leaves auc unset).
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from phiops.runtime.backends import to_numpy
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import ALL_TYPES, register_kernel

# PaddlePaddle 3.3.1's CPU registrations (paddle/phi/kernels/cpu/amp_kernel.cc).
AMP_DTYPES = (DataType.FLOAT32, DataType.FLOAT64)


def _found_infinite_is_bool(kernel: Kernel) -> None:
    kernel.output_at(1).set_dtype(DataType.BOOL)


@register_kernel("check_finite_and_unscale", dtypes=AMP_DTYPES, configure=_found_infinite_is_bool)
def check_finite_and_unscale_kernel(
    ctx: KernelContext, x: list[Array], scale: Array
) -> tuple[list[Array], Array]:
    xp = ctx.xp
    dtype = x[0].dtype
    with np.errstate(divide="ignore", over="ignore"):
        inverse = (1.0 / scale.reshape(-1)[0].astype(xp.float64)).astype(dtype)
    zero = xp.zeros((), dtype=dtype)
    found = False
    outs = []
    for item in x:
        if not found:
            found = not bool(xp.isfinite(item).all())
        with np.errstate(invalid="ignore", over="ignore"):
            outs.append(xp.multiply(item, zero if found else inverse).astype(dtype, copy=False))
    return outs, xp.asarray([found], dtype=xp.bool_)


def _step_counts_as_given(kernel: Kernel) -> None:
    for index in (1, 3, 4):  # found_infinite (bool), in_good_steps, in_bad_steps (int32)
        kernel.input_at(index).set_dtype(DataType.ALL_DTYPE)
    kernel.output_at(2).set_dtype(DataType.INT32)
    kernel.output_at(3).set_dtype(DataType.INT32)


def _wrap_int32(value: int) -> int:
    return (value + 2**31) % 2**32 - 2**31


@register_kernel("update_loss_scaling", dtypes=AMP_DTYPES, configure=_step_counts_as_given)
def update_loss_scaling_kernel(
    ctx: KernelContext,
    x: list[Array],
    found_infinite: Array,
    prev_loss_scaling: Array,
    in_good_steps: Array,
    in_bad_steps: Array,
    incr_every_n_steps: int,
    decr_every_n_nan_or_inf: int,
    incr_ratio: float,
    decr_ratio: float,
    stop_update: bool | int | float,
) -> tuple[list[Array], Array, Array, Array]:
    xp = ctx.xp
    found = bool(found_infinite.reshape(-1)[0])
    outs = [xp.zeros_like(item) if found else item.copy() for item in x]
    scaling = prev_loss_scaling.reshape(1).copy()
    good = int(in_good_steps.reshape(-1)[0])
    bad = int(in_bad_steps.reshape(-1)[0])
    if not bool(stop_update):
        dtype = scaling.dtype
        if found:
            good, bad = 0, _wrap_int32(bad + 1)
            if bad == decr_every_n_nan_or_inf:
                shrunk = scaling * xp.asarray(np.float32(decr_ratio), dtype=dtype)
                scaling = xp.maximum(shrunk, xp.ones((), dtype=dtype))
                bad = 0
        else:
            good, bad = _wrap_int32(good + 1), 0
            if good == incr_every_n_steps:
                with np.errstate(over="ignore", invalid="ignore"):
                    grown = scaling * xp.asarray(np.float32(incr_ratio), dtype=dtype)
                scaling = xp.where(xp.isfinite(grown), grown, scaling)
                good = 0
    return (
        outs,
        scaling,
        xp.asarray([good], dtype=xp.int32),
        xp.asarray([bad], dtype=xp.int32),
    )


@register_kernel("clip_by_norm", dtypes=(DataType.FLOAT32,))
def clip_by_norm_kernel(ctx: KernelContext, x: Array, max_norm: float) -> Array:
    xp = ctx.xp
    kind = x.dtype.type
    with np.errstate(over="ignore", invalid="ignore"):
        norm = xp.sqrt(xp.sum(x * x, dtype=x.dtype))
        limit = kind(np.float32(max_norm))
        if bool(norm <= limit):
            return x.copy()
        epsilon = kind(1e-6) if bool(norm <= kind(1e-30)) else kind(0)
        return (x * (limit / (norm + epsilon))).astype(x.dtype, copy=False)


def _norm_shape(shape: tuple[int, ...], axis: int) -> tuple[int, ...]:
    kept = list(shape)
    kept[axis] = 1
    return tuple(kept)


@register_kernel("norm", dtypes=(DataType.FLOAT32, DataType.FLOAT64))
def norm_kernel(
    ctx: KernelContext, x: Array, axis: int, epsilon: float, is_test: bool
) -> tuple[Array, Array]:
    xp = ctx.xp
    axis %= x.ndim
    eps = x.dtype.type(np.float32(epsilon))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        norm = xp.sqrt(xp.sum(x * x, axis=axis, keepdims=True) + eps)
        out = x / norm
    if is_test:
        return out, xp.empty((0,), dtype=x.dtype)
    return out, norm.reshape(_norm_shape(x.shape, axis))


def _accuracy_dtypes(kernel: Kernel) -> None:
    kernel.input_at(1).set_dtype(DataType.ALL_DTYPE)  # int64, checked by InferMeta
    kernel.input_at(2).set_dtype(DataType.ALL_DTYPE)
    kernel.output_at(0).set_dtype(DataType.FLOAT32)
    kernel.output_at(1).set_dtype(DataType.INT32)
    kernel.output_at(2).set_dtype(DataType.INT32)


@register_kernel(
    "accuracy", dtypes=(DataType.FLOAT32, DataType.FLOAT64), configure=_accuracy_dtypes
)
def accuracy_kernel(
    ctx: KernelContext, x: Array, indices: Array, label: Array
) -> tuple[Array, Array, Array]:
    xp = ctx.xp
    samples = x.shape[0]
    if samples and bool((label < 0).any()):
        first = int(xp.argmax(label.reshape(-1) < 0))
        raise InvalidArgumentError(
            f"accuracy: argument 'label' must hold classes >= 0, got label[{first}] = "
            f"{int(label.reshape(-1)[first])}"
        )
    hits = (indices == label.reshape(-1, 1)).any(axis=1)
    correct = xp.sum(hits, dtype=xp.int32)
    rate = (
        correct.astype(xp.float32) / xp.float32(samples)
        if samples
        else xp.zeros((), dtype=xp.float32)
    )
    return rate, correct, xp.asarray(samples, dtype=xp.int32)


def _first_false(xp: ModuleType, values: Array) -> int:
    return int(xp.argmin(values)) if values.size and not bool(values.all()) else -1


@register_kernel("accuracy_check", dtypes=ALL_TYPES)
def accuracy_check_kernel(
    ctx: KernelContext,
    x: Array,
    y: Array,
    fn_name: str,
    rtol: float,
    atol: float,
    equal_nan: bool,
) -> Array:
    xp = ctx.xp
    a, b = x.reshape(-1), y.reshape(-1)
    if x.dtype.kind == "c":
        real = a.real.dtype
        with np.errstate(invalid="ignore", over="ignore"):
            left = xp.abs(a - b)
            right = (atol + rtol * xp.abs(b).astype(xp.float64)).astype(real)
            diff = xp.abs(left - right)
            close = (a == b) | (left <= right) | (diff <= 1e-10)
    else:
        a, b = a.astype(xp.float64), b.astype(xp.float64)
        with np.errstate(invalid="ignore", over="ignore"):
            left = xp.abs(a - b)
            right = atol + rtol * xp.abs(b)
            close = (a == b) | (left <= right) | (xp.abs(left - right) <= 1e-10)
    nan_a, nan_b = xp.isnan(a), xp.isnan(b)
    nan = nan_a | nan_b
    agree = xp.where(nan, bool(equal_nan) & (nan_a == nan_b), close)
    if x.dtype.kind == "c":
        # PHI's complex loop stops only at a non-NaN failure; a NaN failure counts in the last
        # element alone (its flag is what the final check reads)
        index = _first_false(xp, agree | nan)
        if index < 0 and a.size and not bool(agree[-1]):
            index, failed = -1, True
        else:
            failed = index >= 0
    else:
        index = _first_false(xp, agree)
        failed = index >= 0
    if failed:
        raise PreconditionNotMetError(
            f"accuracy_check: Accuracy check failed, kernel name {fn_name}, res index {index}"
        )
    return xp.ones(x.shape, dtype=xp.bool_)


def _auc_dtypes(kernel: Kernel) -> None:
    for index in (1, 2, 3, 4):  # label, the histograms (int64), ins_tag_weight (float32)
        kernel.input_at(index).set_dtype(DataType.ALL_DTYPE)
    kernel.output_at(0).set_dtype(DataType.FLOAT64)
    kernel.output_at(1).set_dtype(DataType.INT64)
    kernel.output_at(2).set_dtype(DataType.INT64)


def _roc_area(pos: np.ndarray, neg: np.ndarray) -> float:
    """PHI's calcAuc: trapezoids from the highest bucket down, summed in order, in double."""
    cum_pos = np.cumsum(pos[::-1].astype(np.float64))
    cum_neg = np.cumsum(neg[::-1].astype(np.float64))
    prev_pos = np.concatenate(([0.0], cum_pos[:-1]))
    prev_neg = np.concatenate(([0.0], cum_neg[:-1]))
    area = float(np.cumsum(np.abs(cum_neg - prev_neg) * (cum_pos + prev_pos) / 2.0)[-1])
    if cum_pos[-1] > 0.0 and cum_neg[-1] > 0.0:
        area = area / cum_pos[-1] / cum_neg[-1]
    return area


@register_kernel("auc", dtypes=(DataType.FLOAT32,), configure=_auc_dtypes)
def auc_kernel(
    ctx: KernelContext,
    x: Array,
    label: Array,
    stat_pos: Array,
    stat_neg: Array,
    ins_tag_weight: Array | None,
    curve: str,
    num_thresholds: int,
    slide_steps: int,
) -> tuple[Array, Array, Array]:
    xp = ctx.xp
    buckets = num_thresholds + 1
    length = (1 + slide_steps) * buckets + (1 if slide_steps else 0)
    shape = (length,) if slide_steps else (1, buckets)
    # the histograms are small and read bucket by bucket: kept on the host
    pos = np.array(to_numpy(stat_pos), dtype=np.int64).reshape(-1)[:length]
    neg = np.array(to_numpy(stat_neg), dtype=np.int64).reshape(-1)[:length]
    fake = ins_tag_weight is not None and float(ins_tag_weight.reshape(-1)[0]) == 0.0
    if slide_steps == 0 and fake:
        return (
            xp.zeros((), xp.float64),
            xp.asarray(pos.reshape(shape)),
            xp.asarray(neg.reshape(shape)),
        )
    predict = x[:, -1]
    if bool((predict > 1).any()):
        raise PreconditionNotMetError("auc: The predict data must less or equal 1.")
    if not bool((predict >= 0).all()):
        raise PreconditionNotMetError("auc: The predict data must gather or equal 0.")
    bins = (predict * np.float32(num_thresholds)).astype(xp.int64)
    labels = label.reshape(-1)[: x.shape[0]]
    pos_counts = xp.bincount(bins[labels > 0], minlength=buckets)
    neg_counts = xp.bincount(bins[labels == 0], minlength=buckets)
    pos_counts, neg_counts = to_numpy(pos_counts), to_numpy(neg_counts)
    if slide_steps == 0:
        pos += pos_counts
        neg += neg_counts
        summed = 0
    else:
        step = int(pos[(slide_steps + 1) * buckets]) % slide_steps
        current = slice(step * buckets, (step + 1) * buckets)
        summed = slide_steps * buckets
        total = slice(summed, summed + buckets)
        pos[total] -= pos[current]
        neg[total] -= neg[current]
        pos[current] = pos_counts
        neg[current] = neg_counts
        if not fake:
            pos[total] += pos[current]
            neg[total] += neg[current]
    area = _roc_area(pos[summed : summed + buckets], neg[summed : summed + buckets])
    if slide_steps:
        pos[(slide_steps + 1) * buckets] += 1
        neg[(slide_steps + 1) * buckets] += 1
    return (
        xp.asarray(area, dtype=xp.float64),
        xp.asarray(pos.reshape(shape)),
        xp.asarray(neg.reshape(shape)),
    )
