"""Kernels of the lodops24 ops of issue 24, the last of PaddlePaddle 3.3.1's LoD ops, for the
dtypes 3.3.1 registers on CPU, with the semantics of its CPU kernels
(paddle/phi/kernels/cpu/<op>_kernel.cc), checked against 3.3.1's recorded outputs
(tests/data/lodops24/paddle_3_3_1.json):

- match_matrix_tensor (float32): x [Tx, h] and y [Ty, h2] carry one-level LoDs with as many
  sequences; tmp = x @ w.reshape(h, dim_t * h2) (saved for the gradient), and sequence pair b
  gives dim_t match matrices out[b][t, i, j] = tmp[x_b + i, t] . y[y_b + j], [len_x, len_y] each,
  flattened channel by channel and pair by pair into out [sum_b dim_t * len_x * len_y, 1], whose
  LoD is those blocks' offsets. PHI's kernel reads y and w with x's width h (its result is
  undefined unless h2 == h); phiops computes the bilinear form for any h2.
- pyramid_hash (float32, int8): the int32 ids x [T, 1] carry a one-level LoD; a sequence of
  width n has the pyramid terms of 2 .. pyramid_layer consecutive ids (layer by layer, start by
  start). In training each term is dropped when glibc's rand_r (seeded with seed at each call,
  one draw per term in that order) / RAND_MAX is below drop_out_percent. Each kept term's row of
  out is num_emb / rand_len slices of rand_len rows of w, slice j from row XXH32(the term's ids as
  float32 bytes, seed j * rand_len) % space_len; a sequence without kept terms has one zero row.
  In inference a float w's output is multiplied by drop_out_percent (PHI's axpy_noadd). out's
  LoD holds its rows per sequence, drop_pos's the kept terms per sequence; drop_pos holds a flag
  per term and zeros after them (PHI leaves that tail unwritten). PHI's bloom-filter white and
  black lists are not read: asking for them is an UnimplementedError.
- attention_lstm (float32, float64): per sequence of x [T, M] and step, the scores
  relu(x W_a[:M] + b_a + c_prev . W_a[M:]) (then, with attention_scalar, relu(s * scalar +
  scalar_bias)) are softmaxed over the sequence's rows, which they pool into the LSTM's input;
  the gates (forget, input, output, candidate) are that input times lstm_weight[D:] plus h_prev
  times lstm_weight[:D] (without h0, none at the first step) plus lstm_bias, through PHI's CPU
  vector activations (sigmoid clipped to [-40, 13], tanh as 2 sigmoid(2x) - 1). hidden and cell
  carry x's LoD; the intermediates hold the last step's values (attention_fc_out the softmax
  weights written over a buffer of the longest sequence's length, as PHI's).
- beam_search (kernels for float32, float64, int32, int64, chosen by pre_ids' dtype, all reading
  int64 ids and float32 scores): the scores' LoD at level groups the prefixes (rows) by source;
  per source PHI's insertion into a beam of beam_size ordered by (score, row) keeps the best
  candidates (a prefix ending in end_id offers only end_id with its pre_score; without
  is_accumulated a score is pre_score + log(score)); a source whose selections are all end_id
  after ended prefixes is dropped. The outputs list the selections prefix by prefix with the LoD
  (the sources' prefix offsets, each prefix's selection offsets).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel
from phiops.runtime.tensor.lod import lod_of, set_array_lod

__all__ = [
    "first_level_offsets",
    "match_offsets",
    "match_matrix_tensor_kernel",
    "xxh32_words",
    "rand_r_draws",
    "pyramid_terms",
    "pyramid_rows",
    "pyramid_keep",
    "pyramid_positions",
    "pyramid_hash_kernel",
]


def first_level_offsets(x: Array, name: str) -> list[int]:
    """The first level of ``x``'s LoD, checked as PHI's kernels check it: present, at least one
    sequence, ending at x's rows."""
    lod = lod_of(x)
    if not lod:
        raise InvalidArgumentError(
            f"argument '{name}' carries no LoD: set one (Tensor.set_lod, or feed a LoD tensor) "
            "giving its sequences' row offsets"
        )
    offsets = [int(o) for o in lod[0]]
    if len(offsets) < 2:
        raise InvalidArgumentError(
            f"argument '{name}': its LoD's first level must hold at least 2 offsets (one "
            f"sequence), got {offsets}"
        )
    if offsets[-1] != x.shape[0]:
        raise InvalidArgumentError(
            f"argument '{name}': its LoD's first level ends at {offsets[-1]}, but it has "
            f"{x.shape[0]} rows"
        )
    return offsets


def match_offsets(x: Array, y: Array, dim_t: int) -> tuple[list[int], list[int], list[int]]:
    """x's and y's sequence offsets (as many sequences each) and the offsets of out's blocks."""
    x_offsets = first_level_offsets(x, "x")
    y_offsets = first_level_offsets(y, "y")
    if len(x_offsets) != len(y_offsets):
        raise InvalidArgumentError(
            f"arguments 'x' and 'y' must carry LoDs of as many sequences, got {len(x_offsets) - 1} "
            f"and {len(y_offsets) - 1}"
        )
    top = [0]
    for b in range(len(x_offsets) - 1):
        top.append(
            top[-1] + dim_t * (x_offsets[b + 1] - x_offsets[b]) * (y_offsets[b + 1] - y_offsets[b])
        )
    return x_offsets, y_offsets, top


def _blocks(
    xp: Any, tmp: Array, y: Array, x_offsets: list[int], y_offsets: list[int], dim_t: int
) -> list[Array]:
    width = y.shape[1]
    blocks = []
    for b in range(len(x_offsets) - 1):
        left = tmp[x_offsets[b] : x_offsets[b + 1]].reshape(-1, dim_t, width)
        right = y[y_offsets[b] : y_offsets[b + 1]]
        blocks.append(xp.einsum("itk,jk->tij", left, right).reshape(-1))
    return blocks


@register_kernel("match_matrix_tensor", dtypes=(DataType.FLOAT32,))
def match_matrix_tensor_kernel(
    ctx: KernelContext, x: Array, y: Array, w: Array, dim_t: int
) -> tuple[Array, Array]:
    xp = ctx.xp
    x_offsets, y_offsets, top = match_offsets(x, y, dim_t)
    tmp = x @ w.reshape(x.shape[1], -1)
    blocks = _blocks(xp, tmp, y, x_offsets, y_offsets, dim_t)
    out = (xp.concatenate(blocks) if blocks else xp.zeros((0,), dtype=x.dtype)).reshape(-1, 1)
    set_array_lod(out, (tuple(top),))
    return out, tmp.reshape(-1, 1)


# -- pyramid_hash -------------------------------------------------------------------------------

_PRIME32 = (2654435761, 2246822519, 3266489917, 668265263, 374761393)
_MASK32 = 0xFFFFFFFF


def _rotl(xp: Any, value: Array, bits: int) -> Array:
    return (value << xp.uint32(bits)) | (value >> xp.uint32(32 - bits))


def xxh32_words(xp: Any, words: Array, seed: int) -> Array:
    """XXH32 (Yann Collet's xxHash, 32-bit, as specified in its xxhash_spec.md) of each row of
    ``words``, a [n, k] uint32 array holding k little-endian 4-byte words (4k bytes) per row, with
    ``seed``: [n] uint32. Whole words only, so the spec's 1-byte tail never occurs."""
    p1, p2, p3, p4, p5 = (xp.uint32(p) for p in _PRIME32)
    count, length = words.shape
    seed32 = seed & _MASK32
    stripes = length // 4
    if stripes:
        lanes = [
            xp.full((count,), (seed32 + _PRIME32[0] + _PRIME32[1]) & _MASK32, dtype=xp.uint32),
            xp.full((count,), (seed32 + _PRIME32[1]) & _MASK32, dtype=xp.uint32),
            xp.full((count,), seed32, dtype=xp.uint32),
            xp.full((count,), (seed32 - _PRIME32[0]) & _MASK32, dtype=xp.uint32),
        ]
        for stripe in range(stripes):
            for lane in range(4):
                lanes[lane] = _rotl(xp, lanes[lane] + words[:, 4 * stripe + lane] * p2, 13) * p1
        acc = (
            _rotl(xp, lanes[0], 1)
            + _rotl(xp, lanes[1], 7)
            + _rotl(xp, lanes[2], 12)
            + _rotl(xp, lanes[3], 18)
        )
    else:
        acc = xp.full((count,), (seed32 + _PRIME32[4]) & _MASK32, dtype=xp.uint32)
    acc = acc + xp.uint32((4 * length) & _MASK32)
    for word in range(4 * stripes, length):
        acc = _rotl(xp, acc + words[:, word] * p3, 17) * p4
    acc = acc ^ (acc >> xp.uint32(15))
    acc = acc * p2
    acc = acc ^ (acc >> xp.uint32(13))
    acc = acc * p3
    return acc ^ (acc >> xp.uint32(16))


_RAND_MAX = 2147483647


def rand_r_draws(seed: int, count: int) -> list[int]:
    """``count`` successive values of glibc's rand_r(&seed) (three steps of its LCG
    next = next * 1103515245 + 12345 per value, 11 + 10 + 10 bits), as PHI's CPU kernel draws
    them."""
    state = seed & _MASK32
    draws = []
    for _ in range(count):
        result = 0
        for bits in (2048, 1024, 1024):
            state = (state * 1103515245 + 12345) & _MASK32
            result = (result << (10 if bits == 1024 else 0)) ^ ((state >> 16) % bits)
        draws.append(result)
    return draws


def pyramid_terms(offsets: list[int], pyramid_layer: int) -> list[tuple[int, int]]:
    """(first row, length) of each pyramid term, in PHI's order: per sequence, per layer (terms of
    2 .. pyramid_layer ids), per start; a sequence of fewer than 2 ids has none."""
    terms = []
    for start, end in zip(offsets[:-1], offsets[1:]):
        width = end - start
        for layer in range(1, min(pyramid_layer, width)):
            terms.extend((start + first, layer + 1) for first in range(width - layer))
    return terms


def pyramid_rows(
    offsets: list[int], flags: list[int], pyramid_layer: int
) -> tuple[list[int], list[int], list[int]]:
    """The row of out of each kept term (flags 1: kept), drop_pos's LoD (kept terms per sequence)
    and out's (a sequence without kept terms has one zero row)."""
    rows, drop_offsets, top_offsets = [], [0], [0]
    term = 0
    for start, end in zip(offsets[:-1], offsets[1:]):
        count = len(pyramid_terms([0, end - start], pyramid_layer))
        kept = sum(1 for flag in flags[term : term + count] if flag != 0)
        term += count
        rows.extend(range(top_offsets[-1], top_offsets[-1] + kept))
        drop_offsets.append(drop_offsets[-1] + kept)
        top_offsets.append(top_offsets[-1] + max(kept, 1))
    return rows, drop_offsets, top_offsets


def pyramid_keep(
    terms: list[tuple[int, int]], is_training: int, drop_out_percent: float, seed: int
) -> list[int]:
    """1 for each term kept, 0 for each dropped: in training, rand_r's draw / RAND_MAX below
    drop_out_percent drops it (PHI compares in double precision)."""
    if is_training == 0:
        return [1] * len(terms)
    threshold = float(np.float32(drop_out_percent))
    return [0 if draw / _RAND_MAX < threshold else 1 for draw in rand_r_draws(seed, len(terms))]


def pyramid_positions(
    xp: Any, ids: Array, terms: list[tuple[int, int]], num_emb: int, rand_len: int, space_len: int
) -> Array:
    """[len(terms), num_emb // rand_len] int64: the row of w each term's block j starts at,
    XXH32 of the term's ids (as float32 bytes) with seed j * rand_len, modulo space_len."""
    blocks = num_emb // rand_len
    positions = xp.zeros((len(terms), blocks), dtype=xp.int64)
    words = ids.astype(xp.float32).view(xp.uint32)
    for length in sorted({length for _, length in terms}):
        chosen = [i for i, (_, n) in enumerate(terms) if n == length]
        starts = xp.asarray([terms[i][0] for i in chosen], dtype=xp.int64)
        windows = words[starts[:, None] + xp.arange(length)[None, :]]
        rows = xp.asarray(chosen, dtype=xp.int64)
        for block in range(blocks):
            positions[rows, block] = (
                xxh32_words(xp, windows, block * rand_len) % xp.uint32(space_len)
            ).astype(xp.int64)
    return positions


def _pyramid_dtypes(kernel: Kernel) -> None:
    for index in (0, 2, 3):  # x's int32 ids and the filters keep their dtypes (and x its LoD)
        kernel.input_at(index).set_dtype(DataType.ALL_DTYPE)
    kernel.output_at(1).set_dtype(DataType.INT32)
    kernel.output_at(2).set_dtype(DataType.FLOAT32)


def check_pyramid_attrs(use_filter: bool, white_list_len: int, black_list_len: int) -> None:
    if use_filter and (white_list_len != 0 or black_list_len != 0):
        raise UnimplementedError(
            "pyramid_hash with use_filter and a white_list_len or black_list_len is not "
            "implemented: phiops does not read PaddlePaddle's bloom filters"
        )


@register_kernel(
    "pyramid_hash", dtypes=(DataType.FLOAT32, DataType.INT8), configure=_pyramid_dtypes
)
def pyramid_hash_kernel(
    ctx: KernelContext,
    x: Array,
    w: Array,
    white_list: Array,
    black_list: Array,
    num_emb: int,
    space_len: int,
    pyramid_layer: int,
    rand_len: int,
    drop_out_percent: float,
    is_training: int,
    use_filter: bool,
    white_list_len: int,
    black_list_len: int,
    seed: int,
    lr: float,
    distribute_update_vars: str,
) -> tuple[Array, Array, Array]:
    xp = ctx.xp
    check_pyramid_attrs(use_filter, white_list_len, black_list_len)
    offsets = first_level_offsets(x, "x")
    x_temp_out = x.astype(xp.float32)
    terms = pyramid_terms(offsets, pyramid_layer)
    keep = pyramid_keep(terms, is_training, drop_out_percent, seed)
    drop_pos = xp.zeros((x.size * pyramid_layer, 1), dtype=xp.int32)
    drop_pos[: len(keep), 0] = xp.asarray(keep, dtype=xp.int32)
    kept_terms = [term for term, flag in zip(terms, keep) if flag]
    positions = pyramid_positions(
        xp, x_temp_out.reshape(-1), kept_terms, num_emb, rand_len, space_len
    )
    rows = w.reshape(-1)[positions[:, :, None] + xp.arange(rand_len)[None, None, :]].reshape(
        len(kept_terms), num_emb
    )
    destination, drop_offsets, top_offsets = pyramid_rows(offsets, keep, pyramid_layer)
    out = xp.zeros((top_offsets[-1], num_emb), dtype=w.dtype)
    out[xp.asarray(destination, dtype=xp.int64)] = rows
    if is_training == 0 and w.dtype != xp.int8:
        out = out * out.dtype.type(drop_out_percent)
    set_array_lod(out, (tuple(top_offsets),))
    set_array_lod(drop_pos, (tuple(drop_offsets),))
    return out, drop_pos, x_temp_out


# -- attention_lstm -----------------------------------------------------------------------------


def _vec_activation(xp: Any, x: Array, kind: str) -> Array:
    """PHI's CPU vector activations (funcs/cpu_vec.h): sigmoid of x clipped to [-40, 13], tanh as
    2 * sigmoid(2x) - 1 (so clipped likewise), relu, identity."""
    if kind == "sigmoid":
        return 1 / (1 + xp.exp(-xp.clip(x, x.dtype.type(-40.0), x.dtype.type(13.0))))
    if kind == "tanh":
        return 2 * _vec_activation(xp, 2 * x, "sigmoid") - 1
    if kind == "relu":
        return xp.maximum(x, x.dtype.type(0))
    return x


@register_kernel("attention_lstm", dtypes=(DataType.FLOAT32, DataType.FLOAT64))
def attention_lstm_kernel(
    ctx: KernelContext,
    x: Array,
    c0: Array,
    h0: Array | None,
    attention_weight: Array,
    attention_bias: Array | None,
    attention_scalar: Array | None,
    attention_scalar_bias: Array | None,
    lstm_weight: Array,
    lstm_bias: Array,
    gate_activation: str,
    cell_activation: str,
    candidate_activation: str,
) -> tuple[Array, Array, Array, Array, Array, Array]:
    xp = ctx.xp
    lod = lod_of(x)
    if len(lod) > 1:
        raise InvalidArgumentError(f"argument 'x' must carry a LoD of one level, got {len(lod)}")
    offsets = first_level_offsets(x, "x")
    count, width, hidden_width = len(offsets) - 1, x.shape[1], lstm_weight.shape[1] // 4
    for name, state in (("c0", c0), ("h0", h0)):
        if state is not None and state.shape[0] != count:
            raise InvalidArgumentError(
                f"argument '{name}' must have a row for each of x's {count} sequences, got shape "
                f"{list(state.shape)}"
            )
    one = x.dtype.type
    attentioned_x = x @ attention_weight[:width]
    if attention_bias is not None:
        attentioned_x = attentioned_x + attention_bias.reshape(-1)[0]
    cell_weight = attention_weight[width:, 0]
    lengths = [end - start for start, end in zip(offsets[:-1], offsets[1:])]
    fc_out = xp.zeros((max(lengths), 1), dtype=x.dtype)
    hidden = xp.zeros((x.shape[0], hidden_width), dtype=x.dtype)
    cell = xp.zeros_like(hidden)
    lstm_x = xp.zeros((1, width), dtype=x.dtype)
    lstm_out = xp.zeros((1, 4 * hidden_width), dtype=x.dtype)
    d = hidden_width
    for index, (start, end) in enumerate(zip(offsets[:-1], offsets[1:])):
        c_prev = c0[index]
        h_prev = None if h0 is None else h0[index]
        rows, scores = x[start:end], attentioned_x[start:end, 0]
        for step in range(end - start):
            weights = xp.maximum(scores + c_prev @ cell_weight, one(0))
            if attention_scalar is not None:
                weights = weights * attention_scalar.reshape(-1)[0]
                if attention_scalar_bias is not None:
                    weights = weights + attention_scalar_bias.reshape(-1)[0]
                weights = xp.maximum(weights, one(0))
            weights = xp.exp(weights - weights.max())
            weights = weights * (one(1) / weights.sum())
            fc_out[: end - start, 0] = weights
            lstm_x = (weights @ rows).reshape(1, width)
            gates = lstm_x @ lstm_weight[d:]
            if h_prev is not None:
                gates = gates + h_prev @ lstm_weight[:d]
            gates = (gates + lstm_bias.reshape(1, -1))[0]
            sig = _vec_activation(xp, gates[: 3 * d], gate_activation)
            candidate = _vec_activation(xp, gates[3 * d :], candidate_activation)
            new_cell = sig[:d] * c_prev + sig[d : 2 * d] * candidate
            squashed = _vec_activation(xp, new_cell, cell_activation)
            new_hidden = squashed * sig[2 * d : 3 * d]
            lstm_out = xp.concatenate(
                [squashed, sig[d : 2 * d] * candidate, sig[2 * d : 3 * d], candidate]
            ).reshape(1, -1)
            cell[start + step], hidden[start + step] = new_cell, new_hidden
            c_prev, h_prev = new_cell, new_hidden
    set_array_lod(hidden, lod)
    set_array_lod(cell, lod)
    return hidden, cell, attentioned_x, fc_out, lstm_x, lstm_out


# -- beam_search --------------------------------------------------------------------------------


def _absolute_levels(lod: tuple[tuple[int, ...], ...]) -> list[list[int]]:
    """Each level's offsets in rows of the tensor (PHI's ToAbsOffset)."""
    levels = [list(level) for level in lod]
    for upper in range(len(levels) - 2, -1, -1):
        below = levels[upper + 1]
        levels[upper] = [below[o] for o in levels[upper]]
    return levels


def _beam_dtypes(kernel: Kernel) -> None:
    for index in range(4):  # ids are read as int64, scores as float32, whatever the kernel's dtype
        kernel.input_at(index).set_dtype(DataType.ALL_DTYPE)
    kernel.output_at(0).set_dtype(DataType.INT64)
    kernel.output_at(1).set_dtype(DataType.FLOAT32)
    kernel.output_at(2).set_dtype(DataType.INT32)


@register_kernel(
    "beam_search",
    dtypes=(DataType.FLOAT32, DataType.FLOAT64, DataType.INT32, DataType.INT64),
    configure=_beam_dtypes,
)
def beam_search_kernel(
    ctx: KernelContext,
    pre_ids: Array,
    pre_scores: Array,
    ids: Array | None,
    scores: Array,
    level: int,
    beam_size: int,
    end_id: int,
    is_accumulated: bool,
) -> tuple[Array, Array, Array]:
    xp = ctx.xp
    lod = lod_of(scores)
    if not lod:
        raise InvalidArgumentError(
            "argument 'scores' carries no LoD: set one (Tensor.set_lod, or feed a LoD tensor) of "
            "two levels, the sources and their prefixes"
        )
    if not 0 <= level < len(lod):
        raise InvalidArgumentError(
            f"argument 'level' must be in [0, {len(lod)}) (scores' LoD levels), got {level}"
        )
    absolute = _absolute_levels(lod)
    rows = scores.shape[0]
    if absolute[-1][-1] != rows:
        raise InvalidArgumentError(
            f"argument 'scores': its LoD's last level ends at {absolute[-1][-1]}, but it has {rows} rows"
        )
    high = absolute[level]
    prefix_ids = [int(v) for v in pre_ids.reshape(-1)[:rows].tolist()]
    prefix_scores = pre_scores.reshape(-1)[:rows].astype(np.float32).tolist()
    width = scores.size // rows if rows else 0
    candidate_scores = scores.reshape(rows, width).astype(np.float32)
    if not is_accumulated:
        with np.errstate(divide="ignore", invalid="ignore"):
            candidate_scores = (
                xp.asarray(prefix_scores, dtype=np.float32)[:, None] + xp.log(candidate_scores)
            ).astype(np.float32)
    candidate_ids = (
        ids.reshape(rows, width)
        if ids is not None
        else xp.broadcast_to(xp.arange(width), (rows, width))
    )
    score_list = candidate_scores.tolist()
    id_list = candidate_ids.tolist()
    selected: list[list[tuple[int, int, float]]] = [[] for _ in range(high[-1])]
    for start, end in zip(high[:-1], high[1:]):
        items = []  # (offset, id, score) in PHI's order: higher score first, then larger offset
        for offset in range(start, end):
            if prefix_ids[offset] == end_id:
                items.append((offset, end_id, prefix_scores[offset]))
            else:
                items.extend(
                    (offset, int(i), s) for i, s in zip(id_list[offset], score_list[offset])
                )
        for item in _top_items(items, beam_size):
            selected[item[0]].append(item)
        if all(
            item[1] == end_id and prefix_ids[offset] == end_id
            for offset in range(start, end)
            for item in selected[offset]
        ):
            for offset in range(start, end):
                selected[offset] = []
    low = [0]
    for items in selected:
        low.append(low[-1] + len(items))
    flat = [item for items in selected for item in items]
    selected_ids = xp.asarray([item[1] for item in flat], dtype=xp.int64).reshape(-1, 1)
    selected_scores = xp.asarray([item[2] for item in flat], dtype=xp.float32).reshape(-1, 1)
    parent_idx = xp.asarray([p for p, items in enumerate(selected) for _ in items], dtype=xp.int32)
    out_lod = (tuple(high), tuple(low))
    set_array_lod(selected_ids, out_lod)
    set_array_lod(selected_scores, out_lod)
    return selected_ids, selected_scores, parent_idx


def _top_items(items: list[tuple[int, int, float]], beam_size: int) -> list[tuple[int, int, float]]:
    """PHI's Insert, item by item, into a beam of at most beam_size kept sorted by (score,
    offset) descending: an item equal to the last kept one is still inserted (after it) when the
    beam is full, so ties keep the earliest candidate of the same offset first."""
    beam: list[tuple[int, int, float]] = []
    for item in items:
        if len(beam) < beam_size:
            beam.append(item)
        elif _less(item, beam[-1]):
            continue
        else:
            beam[-1] = item
        position = len(beam) - 1
        while position > 0 and _less(beam[position - 1], beam[position]):
            beam[position - 1], beam[position] = beam[position], beam[position - 1]
            position -= 1
    return beam


def _less(a: tuple[int, int, float], b: tuple[int, int, float]) -> bool:
    return a[2] < b[2] or (a[2] == b[2] and a[0] < b[0])
