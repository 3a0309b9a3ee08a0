"""Kernel of the rnnt24 op warprnnt: the RNN-T (transducer) loss as PaddlePaddle 3.3.1 computes
it on CPU through warp-transducer (paddle/phi/kernels/impl/warprnnt_kernel_impl.h; CPU: float32
and float64).

The loss of sequence b is ``-log p(label_b | input_b)``, summed over every alignment of the
lattice of Graves (2012), "Sequence Transduction with Recurrent Neural Networks": the forward
variables ``alpha[t, u] = logaddexp(alpha[t-1, u] + blank[t-1, u], alpha[t, u-1] + emit[t,
u-1])`` from ``alpha[0, 0] = 0``, the backward variables ``beta[t, u] = logaddexp(beta[t+1, u] +
blank[t, u], beta[t, u+1] + emit[t, u])`` from ``beta[T-1, U] = blank[T-1, U]``, and
``log p = alpha[T-1, U] + blank[T-1, U]``, where ``blank[t, u] = input[t, u, blank]`` and
``emit[t, u] = input[t, u, label[u]]``. As warp-transducer's CPU path, the input is taken as
log-probabilities as it is (PaddlePaddle's CPU kernel takes no softmax; the loss of
unnormalised scores can be negative). The gradient with respect to the input, which comes out
of the same call, is warp-transducer's: ``-exp(alpha[t, u] + blank[t, u] + beta[t+1, u] - log
p)`` at the blank (``beta[T, U]`` counting as 0), ``-(1 + fastemit_lambda) * exp(alpha[t, u] +
emit[t, u] + beta[t, u+1] - log p)`` at ``label[u]`` (overwriting the blank's where a label is
the blank, as warp-transducer writes them in that order), 0 elsewhere and past each sequence's
lengths. FastEmit (Yu et al., 2020) scales the label emissions' gradients only; the loss is
unchanged.

Both recursions run over the T + U anti-diagonals of the padded (T, U + 1) lattice, vectorised
along each diagonal and across the batch; they are done in float64 and the results cast to the
input's dtype.
"""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

RNNT_DTYPES = (DataType.FLOAT32, DataType.FLOAT64)


def labels_and_lengths_keep_their_dtypes(kernel: Kernel) -> None:
    # label and the lengths are int32 whatever the input's dtype
    for index in (1, 2, 3):
        kernel.input_at(index).set_dtype(DataType.ALL_DTYPE)


def _logaddexp(xp, a: Array, b: Array) -> Array:
    top = xp.maximum(a, b)
    safe = xp.where(xp.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        return xp.log(xp.exp(a - safe) + xp.exp(b - safe)) + safe


def _checked_lengths(
    input_lengths: Array, label_lengths: Array, max_time: int, max_labels: int
) -> tuple[Array, Array]:
    times = [int(t) for t in input_lengths.tolist()]
    sizes = [int(s) for s in label_lengths.tolist()]
    for name, values, low, high in (
        ("input_lengths", times, 1, max_time),
        ("label_lengths", sizes, 0, max_labels),
    ):
        for b, value in enumerate(values):
            if not low <= value <= high:
                raise InvalidArgumentError(
                    f"argument '{name}': entry {b} is {value}, must be in [{low}, {high}]"
                )
    return times, sizes


def _diagonal(xp, d: int, max_time: int, width: int) -> tuple[Array, Array]:
    """The cells (t, u) with t + u = d of the (max_time, width) lattice."""
    ts = xp.arange(max(0, d - width + 1), min(d, max_time - 1) + 1)
    return ts, d - ts


def rnnt_forward_backward(
    xp,
    log_probs: Array,
    label: Array,
    times: list[int],
    sizes: list[int],
    blank: int,
    fastemit_lambda: float,
) -> tuple[Array, Array]:
    """(loss [B], gradient [B, T, U + 1, D]) in float64."""
    batch, max_time, width, classes = log_probs.shape
    x = log_probs.astype(xp.float64)
    # only the labels within each sequence's length are read (the padding may hold anything)
    used = xp.arange(width - 1)[None, :] < xp.asarray(sizes, dtype=xp.int64)[:, None]
    labels = label.astype(xp.int64)
    if labels.size and bool((used & ((labels < 0) | (labels >= classes))).any()):
        raise InvalidArgumentError(
            f"argument 'label': class ids must be in [0, {classes}), the classes of 'input', "
            "within each sequence's label length"
        )
    labels = xp.where(used, labels, -1)
    blank_lp = x[..., blank]  # [B, T, W]
    index = xp.broadcast_to(
        xp.maximum(labels, 0)[:, None, :, None], (batch, max_time, width - 1, 1)
    )
    # [B, T, W]: emit_lp[b, t, u] = x[b, t, u, label[b, u]], -inf at u = W - 1 (no label left)
    emitted = xp.take_along_axis(x[:, :, : width - 1], index, 3)[..., 0]
    emit_lp = xp.concatenate([emitted, xp.full((batch, max_time, 1), -xp.inf)], axis=2)

    t_len = xp.asarray(times, dtype=xp.int64)
    u_len = xp.asarray(sizes, dtype=xp.int64)
    t_grid = xp.arange(max_time)[None, :, None]
    u_grid = xp.arange(width)[None, None, :]
    valid = (t_grid < t_len[:, None, None]) & (u_grid <= u_len[:, None, None])  # [B, T, W]
    last = (t_grid == (t_len - 1)[:, None, None]) & (u_grid == u_len[:, None, None])

    alpha = xp.full((batch, max_time, width), -xp.inf)
    alpha[:, 0, 0] = 0.0
    for d in range(1, max_time + width - 1):
        ts, us = _diagonal(xp, d, max_time, width)
        from_t = xp.where(
            (ts > 0)[None],
            alpha[:, xp.maximum(ts - 1, 0), us] + blank_lp[:, xp.maximum(ts - 1, 0), us],
            -xp.inf,
        )
        from_u = xp.where(
            (us > 0)[None],
            alpha[:, ts, xp.maximum(us - 1, 0)] + emit_lp[:, ts, xp.maximum(us - 1, 0)],
            -xp.inf,
        )
        alpha[:, ts, us] = _logaddexp(xp, from_t, from_u)

    beta = xp.full((batch, max_time, width), -xp.inf)
    for d in range(max_time + width - 2, -1, -1):
        ts, us = _diagonal(xp, d, max_time, width)
        t_next, u_next = xp.minimum(ts + 1, max_time - 1), xp.minimum(us + 1, width - 1)
        to_t = xp.where(
            (ts + 1 < max_time)[None], beta[:, t_next, us] + blank_lp[:, ts, us], -xp.inf
        )
        to_u = xp.where((us + 1 < width)[None], beta[:, ts, u_next] + emit_lp[:, ts, us], -xp.inf)
        cell = xp.where(last[:, ts, us], blank_lp[:, ts, us], _logaddexp(xp, to_t, to_u))
        beta[:, ts, us] = xp.where(valid[:, ts, us], cell, -xp.inf)

    log_likelihood = beta[:, 0, 0]
    loss = -log_likelihood

    # beta[t + 1, u], with 0 past the last cell (the final blank ends the sequence)
    beta_t = xp.concatenate([beta[:, 1:], xp.full((batch, 1, width), -xp.inf)], axis=1)
    beta_t = xp.where(last, 0.0, beta_t)
    beta_u = xp.concatenate([beta[:, :, 1:], xp.full((batch, max_time, 1), -xp.inf)], axis=2)
    ll = log_likelihood[:, None, None]
    with np.errstate(over="ignore", invalid="ignore"):
        blank_grad = -xp.exp(alpha + blank_lp + beta_t - ll)
        label_grad = -(1.0 + fastemit_lambda) * xp.exp(alpha + emit_lp + beta_u - ll)
    blank_grad = xp.where(valid, blank_grad, 0.0)
    label_grad = xp.where(valid & (u_grid < u_len[:, None, None]), label_grad, 0.0)
    # [B, W]: the label read at each u, -1 past the sequence's labels (no label gradient there)
    padded = xp.concatenate([labels, xp.full((batch, 1), -1, dtype=xp.int64)], axis=1)
    class_grid = xp.arange(classes)[None, None, None, :]
    at_label = padded[:, None, :, None] == class_grid  # [B, 1, W, D]
    grad = xp.where(
        at_label,
        label_grad[..., None],
        xp.where(class_grid == blank, blank_grad[..., None], 0.0),
    )
    return loss, grad


@register_kernel("warprnnt", dtypes=RNNT_DTYPES, configure=labels_and_lengths_keep_their_dtypes)
def warprnnt_kernel(
    ctx: KernelContext,
    input: Array,  # noqa: A002 - PaddlePaddle's name
    label: Array,
    input_lengths: Array,
    label_lengths: Array,
    blank: int,
    fastemit_lambda: float,
) -> tuple[Array, Array]:
    """The RNN-T loss of each sequence ([B]) and its gradient with respect to the input
    ([B, T, U + 1, D]); the gradient is scaled by each sequence's loss gradient in the grad
    kernel."""
    xp = ctx.xp
    _, max_time, width, _ = input.shape
    times, sizes = _checked_lengths(input_lengths, label_lengths, max_time, width - 1)
    # the attribute is a C float in PHI: 0.001 scales by 1 + 0.0010000000474974513
    weight = float(np.float32(fastemit_lambda))
    loss, grad = rnnt_forward_backward(xp, input, label, times, sizes, blank, weight)
    return loss.astype(input.dtype), grad.astype(input.dtype)
