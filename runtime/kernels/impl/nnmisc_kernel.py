"""Kernels of the nnmisc ops: warpctc, the CTC loss as PaddlePaddle 3.3.1 computes it through
warp-ctc (paddle/phi/kernels/impl/warpctc_kernel_impl.h, CPU: float32 and float64).

The loss of sequence b is ``-log p(label_b | softmax(logits[:T_b, b]))``, summed over every
alignment by the forward-backward recursion of Graves et al. (2006), "Connectionist Temporal
Classification", computed in log space over the extended label (blank, l1, blank, l2, ...,
blank). Like warp-ctc, the softmax is taken inside (log-probabilities give the same loss), the
gradient with respect to the logits (``softmax - posterior``) comes out of the same call, and a
sequence whose input is too short for its labels (T_b < L_b + repeated neighbours) gets loss 0
and gradient 0. The recursion runs over time with the batch and the extended labels vectorised;
it is done in float64 and the results cast to the logits' dtype.
"""

from __future__ import annotations

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

CTC_DTYPES = (DataType.FLOAT32, DataType.FLOAT64)


def labels_and_lengths_keep_their_dtypes(kernel: Kernel) -> None:
    # label is int32 and the lengths int64 whatever the logits' dtype
    for index in (1, 2, 3):
        kernel.input_at(index).set_dtype(DataType.ALL_DTYPE)


def _logsumexp(xp, *terms: Array) -> Array:
    top = terms[0]
    for term in terms[1:]:
        top = xp.maximum(top, term)
    safe = xp.where(xp.isfinite(top), top, 0.0)
    total = sum(xp.exp(term - safe) for term in terms)
    with np.errstate(divide="ignore"):
        return xp.log(total) + safe


def _checked_lengths(
    logits_length: Array, labels_length: Array, max_time: int, max_labels: int
) -> tuple[list[int], list[int]]:
    times = [int(t) for t in logits_length.tolist()]
    sizes = [int(s) for s in labels_length.tolist()]
    for name, values, bound in (
        ("logits_length", times, max_time),
        ("labels_length", sizes, max_labels),
    ):
        for b, value in enumerate(values):
            if not 0 <= value <= bound:
                raise InvalidArgumentError(
                    f"argument '{name}': entry {b} is {value}, must be in [0, {bound}]"
                )
    return times, sizes


def ctc_forward_backward(
    xp, logits: Array, label: Array, times: list[int], sizes: list[int], blank: int
) -> tuple[Array, Array]:
    """(loss [B], gradient [T, B, C]) in float64."""
    max_time, batch, classes = logits.shape
    max_labels = label.shape[1]
    states = 2 * max_labels + 1
    x = logits.astype(xp.float64)
    shifted = x - xp.max(x, axis=2, keepdims=True)
    log_probs = shifted - xp.log(xp.sum(xp.exp(shifted), axis=2, keepdims=True))

    labels = label.astype(xp.int64)
    if max_labels and bool(((labels < 0) | (labels >= classes)).any()):
        raise InvalidArgumentError(
            f"argument 'label': class ids must be in [0, {classes}), the logits' classes"
        )
    ext = xp.full((batch, states), blank, dtype=xp.int64)
    ext[:, 1::2] = labels
    # a skip s-2 -> s is allowed onto a label that differs from the label two states back
    skip = xp.zeros((batch, states), dtype=bool)
    if states > 2:
        skip[:, 2:] = (ext[:, 2:] != blank) & (ext[:, 2:] != ext[:, :-2])
    emit = xp.take_along_axis(log_probs, xp.broadcast_to(ext[None], (max_time, batch, states)), 2)

    t_len = xp.asarray(times, dtype=xp.int64)
    s_len = 2 * xp.asarray(sizes, dtype=xp.int64) + 1
    state = xp.arange(states)[None, :]
    valid = state < s_len[:, None]
    neg_inf = xp.full((batch, states), -xp.inf)
    neg_col = xp.full((batch, 1), -xp.inf)
    neg_two = xp.full((batch, 2), -xp.inf)

    alpha = xp.full((max_time, batch, states), -xp.inf)
    start = xp.where(state < 2, emit[0], -xp.inf)
    alpha[0] = xp.where(valid, start, -xp.inf)
    for t in range(1, max_time):
        prev = alpha[t - 1]
        one = xp.concatenate([neg_col, prev[:, :-1]], axis=1)
        two = xp.where(skip, xp.concatenate([neg_two, prev[:, :-2]], axis=1), -xp.inf)
        alpha[t] = xp.where(valid, _logsumexp(xp, prev, one, two) + emit[t], -xp.inf)

    beta = xp.full((max_time, batch, states), -xp.inf)
    ends = (state >= s_len[:, None] - 2) & valid
    for t in range(max_time - 1, -1, -1):
        nxt = beta[t + 1] if t + 1 < max_time else neg_inf
        one = xp.concatenate([nxt[:, 1:], neg_col], axis=1)
        skip_next = xp.concatenate([skip[:, 2:], xp.zeros((batch, 2), dtype=bool)], axis=1)
        two = xp.where(skip_next, xp.concatenate([nxt[:, 2:], neg_two], axis=1), -xp.inf)
        recursed = _logsumexp(xp, nxt, one, two) + emit[t]
        last = (t_len == t + 1)[:, None]
        inside = (t_len > t + 1)[:, None]
        beta[t] = xp.where(last & ends, emit[t], xp.where(inside & valid, recursed, -xp.inf))

    rows = xp.arange(batch)
    last_t = xp.maximum(t_len - 1, 0)
    final = alpha[last_t, rows]
    end_one = xp.take_along_axis(final, (s_len - 1)[:, None], 1)[:, 0]
    end_two = xp.take_along_axis(final, xp.maximum(s_len - 2, 0)[:, None], 1)[:, 0]
    end_two = xp.where(s_len > 1, end_two, -xp.inf)
    log_likelihood = _logsumexp(xp, end_one, end_two)
    host_labels = label.tolist()
    repeats = [
        sum(1 for i in range(1, size) if host_labels[b][i] == host_labels[b][i - 1])
        for b, size in enumerate(sizes)
    ]
    feasible = xp.asarray(
        [times[b] > 0 and sizes[b] + repeats[b] <= times[b] for b in range(batch)], dtype=bool
    )
    loss = xp.where(feasible, -log_likelihood, 0.0)

    occupancy = alpha + beta - emit - xp.where(feasible, log_likelihood, 0.0)[None, :, None]
    with np.errstate(over="ignore"):
        weights = xp.exp(occupancy)  # [T, B, S]
    onehot = (ext[:, :, None] == xp.arange(classes)[None, None, :]).astype(xp.float64)
    posterior = xp.matmul(weights.transpose(1, 0, 2), onehot).transpose(1, 0, 2)  # [T, B, C]
    inside_time = (xp.arange(max_time)[:, None] < t_len[None, :])[:, :, None]
    grad = xp.where(inside_time & feasible[None, :, None], xp.exp(log_probs) - posterior, 0.0)
    return loss, grad


@register_kernel("warpctc", dtypes=CTC_DTYPES, configure=labels_and_lengths_keep_their_dtypes)
def warpctc_kernel(
    ctx: KernelContext,
    logits: Array,
    label: Array,
    logits_length: Array | None,
    labels_length: Array | None,
    blank: int,
    norm_by_times: bool,
) -> tuple[Array, Array]:
    """The CTC loss of each sequence ([B, 1]) and its gradient with respect to the logits
    ([T, B, C]); ``norm_by_times`` acts in the grad kernel only, as in PHI."""
    xp = ctx.xp
    max_time, batch, _ = logits.shape
    times, sizes = _checked_lengths(logits_length, labels_length, max_time, label.shape[1])
    if batch == 0:
        return xp.zeros((0, 1), dtype=logits.dtype), xp.zeros(logits.shape, dtype=logits.dtype)
    loss, grad = ctc_forward_backward(xp, logits, label, times, sizes, blank)
    return loss.reshape(batch, 1).astype(logits.dtype), grad.astype(logits.dtype)
