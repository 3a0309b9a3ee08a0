"""Kernels of the seq24 ops of issue 24 (sequence, NLP and graph ops): gather_tree,
viterbi_decode, edit_distance, ..., for the dtypes PaddlePaddle 3.3.1 registers on CPU
(paddle/phi/kernels/cpu/<op>_kernel.cc).

PHI's semantics, checked against 3.3.1:

- gather_tree: out[T-1] = ids[T-1]; walking back from the last step, each beam takes the id its
  parent had at the step before. A parent outside [0, beam) met on the way is an
  InvalidArgumentError (3.3.1 refuses one >= beam and reads out of bounds for a negative one);
  the parents of step 0 are never read.
- viterbi_decode: the best tag path of each sequence under the emission ``potentials`` and the
  ``transition_params`` (transition_params[i, j] scores tag i followed by tag j), computed as
  PHI's kernel does: with include_bos_eos_tag the last tag is the start tag (its row is added to
  the first step) and the one before the stop tag (its row is added at each sequence's last
  step). Steps past a sequence's length leave its scores as they are and its path 0. The
  maximum over previous tags takes the first of equal ones. ``path`` has max(lengths) columns;
  a length outside [0, seq_len] is an InvalidArgumentError (3.3.1 reads out of bounds).
- edit_distance: the Levenshtein distance (insert, delete, substitute, each 1) between the
  first hypslength[i] ids of hyps[i] and the first refslength[i] of refs[i], divided by the
  reference's length when ``normalized`` (an empty reference is then an InvalidArgumentError,
  as in 3.3.1); lengths outside [0, width] are refused.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.backends import scatter_at
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.impl.detect_kernel import to_host
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType


def _any(xp: Any, mask: Array) -> bool:
    return bool(xp.any(mask))


@register_kernel("gather_tree", dtypes=(D.INT32, D.INT64))
def gather_tree_kernel(ctx: KernelContext, ids: Array, parents: Array) -> Array:
    xp = ctx.xp
    steps, _, beam = ids.shape
    out = xp.empty_like(ids)
    if ids.size == 0:
        return out
    out[steps - 1] = ids[steps - 1]
    parent = parents[steps - 1]
    for step in range(steps - 2, -1, -1):
        if _any(xp, (parent < 0) | (parent >= beam)):
            raise InvalidArgumentError(
                f"argument 'parents' must hold beam indices in [0, {beam}), "
                f"got {int(xp.min(parent))}..{int(xp.max(parent))} at step {step + 1}"
            )
        out[step] = xp.take_along_axis(ids[step], parent, axis=1)
        parent = xp.take_along_axis(parents[step], parent, axis=1)
    return out


def _int64_path(kernel: Kernel) -> None:
    kernel.input_at(2).set_dtype(D.INT64)
    kernel.output_at(1).set_dtype(D.INT64)


@register_kernel("viterbi_decode", dtypes=(D.FLOAT32, D.FLOAT64), configure=_int64_path)
def viterbi_decode_kernel(
    ctx: KernelContext,
    potentials: Array,
    transition_params: Array,
    lengths: Array,
    include_bos_eos_tag: bool,
) -> tuple[Array, Array]:
    xp = ctx.xp
    batch, seq_len, labels = potentials.shape
    if batch == 0:
        return xp.empty((0,), potentials.dtype), xp.zeros((0, 0), xp.int64)
    if _any(xp, (lengths < 0) | (lengths > seq_len)):
        raise InvalidArgumentError(
            f"argument 'lengths' must be in [0, {seq_len}] (the second extent "
            f"of potentials), got {int(xp.min(lengths))}..{int(xp.max(lengths))}"
        )
    max_len = int(xp.max(lengths))
    dtype = potentials.dtype
    left = lengths.astype(xp.int64).reshape(batch, 1)
    alpha = potentials[:, 0, :]
    if include_bos_eos_tag:
        stop, start = transition_params[labels - 2], transition_params[labels - 1]
        alpha = alpha + start
        alpha = alpha + stop * (left == 1).astype(dtype)
    left = left - 1
    history = []
    for step in range(1, max_len):
        # summed[b, i, j]: the best score ending in tag i, then tag j
        summed = alpha[:, :, None] + transition_params[None, :, :]
        best_prev = xp.argmax(summed, axis=1)
        history.append(best_prev)
        nxt = xp.max(summed, axis=1) + potentials[:, step, :]
        live = (left > 0).astype(dtype)
        alpha = alpha * (1 - live) + nxt * live
        if include_bos_eos_tag:
            alpha = alpha + stop * (left == 1).astype(dtype)
        left = left - 1
    scores = xp.max(alpha, axis=1)
    last = xp.argmax(alpha, axis=1)
    path = xp.zeros((batch, max_len), xp.int64)
    if max_len == 0:
        return scores, path
    flat_lengths = lengths.astype(xp.int64)
    tag = last
    for position in range(max_len - 1, -1, -1):
        ends_here = flat_lengths - 1 == position
        inside = flat_lengths - 1 > position
        if position < max_len - 1:
            traced = history[position][xp.arange(batch), tag]
            tag = xp.where(inside, traced, xp.where(ends_here, last, tag))
        else:
            tag = last
        path[:, position] = xp.where(inside | ends_here, tag, 0)
    return scores, path


def _check_lengths(xp: Any, lengths: Array, width: int, name: str) -> None:
    if lengths.size and _any(xp, (lengths < 0) | (lengths > width)):
        raise InvalidArgumentError(
            f"argument '{name}' must be in [0, {width}] (the padded width), "
            f"got {int(xp.min(lengths))}..{int(xp.max(lengths))}"
        )


def _sequence_count(kernel: Kernel) -> None:
    for i in range(4):
        kernel.input_at(i).set_dtype(D.INT64)
    kernel.output_at(0).set_dtype(D.INT64)
    kernel.output_at(1).set_dtype(D.FLOAT32)


# PaddlePaddle 3.3.1's CPU build registers edit_distance for float32 only (its data_type)
@register_kernel("edit_distance", dtypes=(D.FLOAT32,), configure=_sequence_count)
def edit_distance_kernel(
    ctx: KernelContext,
    hyps: Array,
    refs: Array,
    hypslength: Array | None,
    refslength: Array | None,
    normalized: bool,
) -> tuple[Array, Array]:
    xp = ctx.xp
    batch, hyp_width = hyps.shape
    ref_width = refs.shape[1]
    _check_lengths(xp, hypslength, hyp_width, "hypslength")
    _check_lengths(xp, refslength, ref_width, "refslength")
    if normalized and batch and _any(xp, refslength == 0):
        empty = int(xp.argmax(refslength == 0))
        raise InvalidArgumentError(
            f"argument 'refslength' must be positive when normalized is true "
            f"(the distance is divided by it), reference {empty} is empty"
        )
    count = xp.asarray([batch], dtype=xp.int64)
    if batch == 0:
        return count, xp.zeros((0, 1), xp.float32)
    # dist[b, j]: the distance between hyps[b, :i] and refs[b, :j], row i at a time
    columns = xp.arange(ref_width + 1, dtype=xp.int64)
    dist = xp.broadcast_to(columns, (batch, ref_width + 1)).copy()
    rows = [dist[xp.arange(batch), refslength]]
    for i in range(1, hyp_width + 1):
        cost = (hyps[:, i - 1 : i] != refs).astype(xp.int64)
        diagonal_or_above = xp.minimum(dist[:, 1:] + 1, dist[:, :-1] + cost)
        row = xp.empty_like(dist)
        row[:, 0] = i
        for j in range(1, ref_width + 1):
            row[:, j] = xp.minimum(diagonal_or_above[:, j - 1], row[:, j - 1] + 1)
        dist = row
        rows.append(dist[xp.arange(batch), refslength])
    distance = xp.stack(rows, axis=1)[xp.arange(batch), hypslength].astype(xp.float32)
    if normalized:
        distance = distance / refslength.astype(xp.float32)
    return count, distance.reshape(batch, 1)


@register_kernel("ctc_align", dtypes=(D.INT32, D.INT64))
def ctc_align_kernel(
    ctx: KernelContext,
    input: Array,
    input_length: Array | None,
    blank: int,
    merge_repeated: bool,
    padding_value: int,
) -> tuple[Array, Array]:
    xp = ctx.xp
    batch, width = input.shape
    lengths = input_length.reshape(batch).astype(xp.int64)
    if batch and _any(xp, (lengths < 0) | (lengths > width)):
        raise InvalidArgumentError(
            f"argument 'input_length' must be in [0, {width}] (the padded width), "
            f"got {int(xp.min(lengths))}..{int(xp.max(lengths))}"
        )
    # PHI's previous token starts as -1, so a leading -1 counts as a repeat
    previous = xp.concatenate([xp.full((batch, 1), -1, input.dtype), input], axis=1)[:, :width]
    keep = (input != blank) & (xp.arange(width)[None, :] < lengths[:, None])
    if merge_repeated:
        keep &= input != previous
    counts = keep.sum(axis=1)
    output = xp.full((batch, width), padding_value, input.dtype)
    rows, cols = xp.nonzero(keep)
    targets = xp.cumsum(keep, axis=1)[rows, cols] - 1
    output[rows, targets] = input[rows, cols]
    return output, counts.astype(input.dtype).reshape(batch, 1)


def _int64_out(kernel: Kernel) -> None:
    kernel.input_at(2).set_dtype(D.INT64)
    kernel.input_at(3).set_dtype(D.INT64)
    kernel.output_at(0).set_dtype(D.INT64)


@register_kernel("crf_decoding", dtypes=(D.FLOAT32, D.FLOAT64), configure=_int64_out)
def crf_decoding_kernel(
    ctx: KernelContext,
    emission: Array,
    transition: Array,
    label: Array | None,
    length: Array | None,
) -> Array:
    xp = ctx.xp
    batch, steps, tags = emission.shape
    lengths = length.reshape(batch).astype(xp.int64)
    if batch and _any(xp, (lengths < 0) | (lengths > steps)):
        raise InvalidArgumentError(
            f"argument 'length' must be in [0, {steps}] (the padded length), "
            f"got {int(xp.min(lengths))}..{int(xp.max(lengths))}"
        )
    path = xp.zeros((batch, steps), xp.int64)
    if batch == 0 or steps == 0 or tags == 0:
        return path
    start, end, moves = transition[0], transition[1], transition[2:]
    # alpha[b, k, i]: the best score of tags 0..k ending in tag i; track: the tag before it
    alpha = [emission[:, 0, :] + start]
    track = [xp.zeros((batch, tags), xp.int64)]
    for k in range(1, steps):
        summed = alpha[-1][:, :, None] + moves[None, :, :]
        track.append(xp.argmax(summed, axis=1))
        alpha.append(xp.max(summed, axis=1) + emission[:, k, :])
    alphas = xp.stack(alpha, axis=1)
    last = xp.maximum(lengths - 1, 0)
    final = xp.argmax(alphas[xp.arange(batch), last] + end, axis=1)
    tag = final
    for k in range(steps - 1, -1, -1):
        if k < steps - 1:
            tag = xp.where(lengths - 1 > k, track[k + 1][xp.arange(batch), tag], final)
        path[:, k] = xp.where(k < lengths, tag, 0)
    if label is not None:
        valid = xp.arange(steps)[None, :] < lengths[:, None]
        path = ((label.reshape(batch, steps) == path) & valid).astype(xp.int64)
    return path


# chunk_eval's schemes: tag kinds per chunk type, and the tag values of begin, inside, end and
# single (-1: the scheme has none), as PHI's kernel sets them
CHUNK_SCHEMES = {
    "IOB": (2, 0, 1, -1, -1),
    "IOE": (2, -1, 0, 1, -1),
    "IOBES": (4, 0, 1, 2, 3),
    "plain": (1, -1, -1, -1, -1),
}


def _chunk_end(prev_tag: int, prev_type: int, tag: int, type_: int, other: int, tags) -> bool:
    begin, inside, end, single = tags
    if prev_type == other:
        return False
    if type_ == other or type_ != prev_type:
        return True
    if prev_tag in (begin, inside):
        return tag in (begin, single)
    return prev_tag in (end, single)


def _chunk_begin(prev_tag: int, prev_type: int, tag: int, type_: int, other: int, tags) -> bool:
    begin, inside, end, single = tags
    if prev_type == other:
        return type_ != other
    if type_ == other:
        return False
    if type_ != prev_type or tag == begin:
        return True
    if tag in (inside, end):
        return prev_tag in (end, single)
    return tag == single


def _segments(
    labels: list[int], kinds: int, other: int, tags: tuple[int, int, int, int], name: str
) -> list[tuple[int, int, int]]:
    """The chunks (begin, end, type) of one sequence, as PHI's GetSegments finds them."""
    out = []
    start, in_chunk, tag, type_ = 0, False, -1, other
    for i, value in enumerate(labels):
        if not 0 <= value <= other * kinds:
            raise InvalidArgumentError(
                f"argument '{name}' must hold values in [0, num_chunk_types * "
                f"{kinds}] = [0, {other * kinds}], got {value}"
            )
        prev_tag, prev_type = tag, type_
        tag, type_ = value % kinds, value // kinds
        if in_chunk and _chunk_end(prev_tag, prev_type, tag, type_, other, tags):
            out.append((start, i - 1, prev_type))
            in_chunk = False
        if _chunk_begin(prev_tag, prev_type, tag, type_, other, tags):
            start, in_chunk = i, True
    if in_chunk:
        out.append((start, len(labels) - 1, type_))
    return out


def _chunk_counts(kernel: Kernel) -> None:
    for i in range(3):
        kernel.input_at(i).set_dtype(D.INT64)
    for i in (3, 4, 5):
        kernel.output_at(i).set_dtype(D.INT64)


# PaddlePaddle 3.3.1 registers chunk_eval for float32 and int64; its data_type is float32, so
# the float32 kernel is the one that runs.
@register_kernel("chunk_eval", dtypes=(D.FLOAT32, D.INT64), configure=_chunk_counts)
def chunk_eval_kernel(
    ctx: KernelContext,
    inference: Array,
    label: Array,
    seq_length: Array | None,
    num_chunk_types: int,
    chunk_scheme: str,
    excluded_chunk_types: tuple[int, ...],
) -> tuple[Array, Array, Array, Array, Array, Array]:
    xp = ctx.xp
    if chunk_scheme not in CHUNK_SCHEMES:
        raise InvalidArgumentError(
            f"argument 'chunk_scheme' must be one of {sorted(CHUNK_SCHEMES)}, "
            f"got {chunk_scheme!r}"
        )
    kinds, *tags = CHUNK_SCHEMES[chunk_scheme]
    batch, width = inference.shape[:2]
    inferred = np.asarray(to_host(inference)).reshape(batch, width)
    labelled = np.asarray(to_host(label)).reshape(batch, width)
    lengths = np.asarray(to_host(seq_length)).reshape(batch)
    if batch and ((lengths < 0) | (lengths > width)).any():
        raise InvalidArgumentError(
            f"argument 'seq_length' must be in [0, {width}] (the padded length), "
            f"got {int(lengths.min())}..{int(lengths.max())}"
        )
    excluded = set(excluded_chunk_types)
    n_infer = n_label = n_correct = 0
    for row in range(batch):
        n = int(lengths[row])
        found = _segments(inferred[row, :n].tolist(), kinds, num_chunk_types, tags, "inference")
        wanted = _segments(labelled[row, :n].tolist(), kinds, num_chunk_types, tags, "label")
        i = j = 0
        while i < len(found) and j < len(wanted):
            if found[i] == wanted[j] and found[i][2] not in excluded:
                n_correct += 1
            found_end, wanted_end = found[i][1], wanted[j][1]
            i += found_end <= wanted_end
            j += found_end >= wanted_end
        n_infer += sum(s[2] not in excluded for s in found)
        n_label += sum(s[2] not in excluded for s in wanted)
    precision = np.float32(n_correct) / np.float32(n_infer) if n_infer else np.float32(0)
    recall = np.float32(n_correct) / np.float32(n_label) if n_label else np.float32(0)
    f1 = np.float32(2) * precision * recall / (precision + recall) if n_correct else np.float32(0)
    floats = [xp.asarray([v], dtype=xp.float32) for v in (precision, recall, f1)]
    counts = [xp.asarray([v], dtype=xp.int64) for v in (n_infer, n_label, n_correct)]
    return floats[0], floats[1], floats[2], counts[0], counts[1], counts[2]


def position_encoding(xp: Any, steps: int, size: int) -> tuple[Array, Array]:
    """The sines and cosines [steps, size // 2] (float64) of PHI's add_position_encoding:
    angle j / 10000 ** (k / (half - 1)) for step j and column k (j / 10000 when half is 1)."""
    half = size // 2
    steps_col = xp.arange(steps, dtype=xp.float64)[:, None]
    if half > 1:
        angle = steps_col / xp.power(10000.0, xp.arange(half, dtype=xp.float64) / (half - 1))
    else:
        angle = xp.broadcast_to(steps_col / 10000.0, (steps, half))
    return xp.sin(angle), xp.cos(angle)


@register_kernel("add_position_encoding", dtypes=(D.FLOAT32, D.FLOAT64))
def add_position_encoding_kernel(ctx: KernelContext, x: Array, alpha: float, beta: float) -> Array:
    xp = ctx.xp
    _, steps, size = x.shape
    sines, cosines = position_encoding(xp, steps, size)
    # PHI: x * alpha in x's dtype, then the float64 sin/cos * beta added, then cast back
    beta64 = float(np.float32(beta))
    with np.errstate(over="ignore", invalid="ignore"):  # an infinite alpha or beta is meant
        encoding = xp.concatenate([sines, cosines], axis=1) * beta64
        scaled = (x * x.dtype.type(np.float32(alpha))).astype(xp.float64)
        return (scaled + encoding[None, :, :]).astype(x.dtype)


def swiglu_halves(xp: Any, x: Array, y: Array | None) -> tuple[Array, Array]:
    """The gate and the value: x and y, or x's two halves along its last axis."""
    if y is not None:
        return x, y
    half = x.shape[-1] // 2
    return x[..., :half], x[..., half:]


@register_kernel("swiglu", dtypes=(D.FLOAT32, D.FLOAT64))
def swiglu_kernel(ctx: KernelContext, x: Array, y: Array | None) -> Array:
    xp = ctx.xp
    gate, value = swiglu_halves(xp, x, y)
    with np.errstate(over="ignore"):  # exp(-x) overflows to inf for x << 0, giving 0
        return gate / (1 + xp.exp(-gate)) * value


@register_kernel("fused_softmax_mask", dtypes=(D.FLOAT32, D.FLOAT64))
def fused_softmax_mask_kernel(ctx: KernelContext, x: Array, mask: Array) -> Array:
    xp = ctx.xp
    masked = x + mask
    if masked.size == 0:
        return masked
    shifted = masked - xp.max(masked, axis=-1, keepdims=True)
    exp = xp.exp(shifted)
    return exp / xp.sum(exp, axis=-1, keepdims=True)


@register_kernel("bilinear", dtypes=(D.FLOAT32, D.FLOAT64))
def bilinear_kernel(
    ctx: KernelContext, x: Array, y: Array, weight: Array, bias: Array | None
) -> Array:
    xp = ctx.xp
    # out[b, k] = x[b] @ weight[k] @ y[b]: (x @ weight[k]) for every k at once, then with y
    left = xp.matmul(x[None, :, :], weight)  # [out_features, batch, in2]
    out = xp.sum(left * y[None, :, :], axis=2).T
    if bias is not None:
        out = out + bias
    return xp.ascontiguousarray(out)


@register_kernel("cvm", dtypes=(D.FLOAT32, D.FLOAT64))
def cvm_kernel(ctx: KernelContext, x: Array, cvm: Array, use_cvm: bool) -> Array:
    xp = ctx.xp
    if not use_cvm:
        return xp.ascontiguousarray(x[:, 2:])
    out = x.copy()
    with np.errstate(divide="ignore", invalid="ignore"):
        out[:, 0] = xp.log(x[:, 0] + 1)
        out[:, 1] = xp.log(x[:, 1] + 1) - out[:, 0]
    return out


def divide_like_c(xp: Any, total: Array, count: Array) -> Array:
    """``total / count``, integers truncated toward zero as C++ divides them."""
    if total.dtype.kind not in "iu":
        return total / count
    return xp.where(total < 0, -((-total) // count), total // count)


def _check_segment_ids(xp: Any, segment_ids: Array) -> int:
    """The number of segments (the last id + 1); ids must be >= 0 and sorted, as PHI's kernel
    requires."""
    if segment_ids.size == 0:
        return 0
    if _any(xp, segment_ids < 0):
        raise InvalidArgumentError(
            f"argument 'segment_ids' must be >= 0, got {int(xp.min(segment_ids))}"
        )
    if segment_ids.size > 1 and _any(xp, segment_ids[1:] < segment_ids[:-1]):
        first = int(xp.argmax(segment_ids[1:] < segment_ids[:-1]))
        raise InvalidArgumentError(
            f"argument 'segment_ids' must be sorted, got segment_ids[{first}] = "
            f"{int(segment_ids[first])} > segment_ids[{first + 1}] = {int(segment_ids[first + 1])}"
        )
    return int(segment_ids[-1]) + 1


@register_kernel("segment_pool", dtypes=(D.FLOAT16, D.FLOAT32, D.FLOAT64, D.INT32, D.INT64))
def segment_pool_kernel(
    ctx: KernelContext, x: Array, segment_ids: Array, pooltype: str
) -> tuple[Array, Array]:
    xp = ctx.xp
    segments = _check_segment_ids(xp, segment_ids)
    ids = segment_ids.astype(xp.int64)
    counts = xp.zeros(segments, xp.int64)
    scatter_at("add", counts, ids, xp.ones(ids.shape, xp.int64))
    shape = (segments,) + x.shape[1:]
    if pooltype in ("SUM", "MEAN"):
        # float16 sums in float32, as PHI's MPType does
        wide = xp.float32 if x.dtype == xp.float16 else x.dtype
        out = xp.zeros(shape, wide)
        scatter_at("add", out, ids, x.astype(wide))
        if pooltype == "MEAN":
            divisor = xp.maximum(counts, 1).reshape((segments,) + (1,) * (x.ndim - 1))
            out = divide_like_c(xp, out, divisor.astype(out.dtype))
    else:
        largest = pooltype == "MAX"
        if x.dtype.kind in "iu":
            start = xp.iinfo(x.dtype).min if largest else xp.iinfo(x.dtype).max
        else:
            start = -xp.inf if largest else xp.inf
        out = xp.full(shape, start, x.dtype)
        scatter_at("maximum" if largest else "minimum", out, ids, x)
        empty = (counts == 0).reshape((segments,) + (1,) * (x.ndim - 1))
        out = xp.where(empty, xp.zeros((), x.dtype), out)
    summed = counts.astype(x.dtype).reshape(segments, 1)
    return out.astype(x.dtype), summed


def check_edges(xp: Any, src_index: Array, dst_index: Array, sources: int, rows: int) -> None:
    """Edges must join rows that exist: src in [0, sources), dst in [0, rows)."""
    for name, index, bound in (("src_index", src_index, sources), ("dst_index", dst_index, rows)):
        if index.size and _any(xp, (index < 0) | (index >= bound)):
            raise InvalidArgumentError(
                f"argument '{name}' must be in [0, {bound}), "
                f"got {int(xp.min(index))}..{int(xp.max(index))}"
            )


def _int32_count(kernel: Kernel) -> None:
    kernel.input_at(1).set_dtype(D.ALL_DTYPE)
    kernel.input_at(2).set_dtype(D.ALL_DTYPE)
    kernel.output_at(1).set_dtype(D.INT32)


@register_kernel(
    "send_u_recv", dtypes=(D.FLOAT32, D.FLOAT64, D.INT32, D.INT64), configure=_int32_count
)
def send_u_recv_kernel(
    ctx: KernelContext,
    x: Array,
    src_index: Array,
    dst_index: Array,
    reduce_op: str,
    out_size: tuple[int, ...],
) -> tuple[Array, Array]:
    xp = ctx.xp
    rows = out_size[0] if out_size and out_size[0] > 0 else x.shape[0]
    check_edges(xp, src_index, dst_index, x.shape[0], rows)
    src, dst = src_index.astype(xp.int64), dst_index.astype(xp.int64)
    counts = xp.zeros(rows, xp.int64)
    scatter_at("add", counts, dst, xp.ones(dst.shape, xp.int64))
    shape = (rows,) + x.shape[1:]
    messages = x[src]
    if reduce_op in ("SUM", "MEAN"):
        out = xp.zeros(shape, x.dtype)
        scatter_at("add", out, dst, messages)
        if reduce_op == "MEAN":
            divisor = xp.maximum(counts, 1).reshape((rows,) + (1,) * (x.ndim - 1))
            out = divide_like_c(xp, out, divisor.astype(x.dtype))
    else:
        largest = reduce_op == "MAX"
        if x.dtype.kind in "iu":
            start = xp.iinfo(x.dtype).min if largest else xp.iinfo(x.dtype).max
        else:
            start = -xp.inf if largest else xp.inf
        out = xp.full(shape, start, x.dtype)
        scatter_at("maximum" if largest else "minimum", out, dst, messages)
        empty = (counts == 0).reshape((rows,) + (1,) * (x.ndim - 1))
        out = xp.where(empty, xp.zeros((), x.dtype), out)
    return out.astype(x.dtype), counts.astype(xp.int32)
