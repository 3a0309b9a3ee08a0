"""Kernels of the lstm24 ops of issue 24: PaddlePaddle 3.3.1's legacy LoD recurrent ops ``lstm``
(dynamic_lstm) and ``gru`` (dynamic_gru), for the dtypes 3.3.1 registers on CPU (float32,
float64; paddle/phi/kernels/cpu/lstm_kernel.cc, gru_kernel.cc).

The sequences are the rows between consecutive offsets of ``input``'s LoD (last level). As PHI
does (LoDTensor2BatchFunctor), the rows are first gathered into *batch order*: the sequences
sorted by length, longest first (ties keep their order), then step t of every sequence longer
than t, one block per step; with ``is_reverse`` step t is the sequence's row L - 1 - t. The batch
outputs carry the LoD PHI gives them: ``[block offsets, the input row of each batch row, the
sorted sequences' numbers]``. Each block multiplies the previous block's first rows (the same
sequences) by ``weight``; h0 / c0 rows are per sequence, in the LoD's order.

- lstm: gates = input + bias[:4D] (+ h_prev @ weight), columns [candidate, input, forget,
  output]; with ``use_peepholes`` bias[4D:7D] are the peephole weights w_i, w_f, w_o.
  i = gate_act(g_i + c_prev * w_i), f = gate_act(g_f + c_prev * w_f), c~ = cand_act(g_c),
  c = c~ * i + c_prev * f, o = gate_act(g_o + c * w_o), h = o * cell_act(c). batch_gate holds
  the activated gates, batch_cell_pre_act cell_act(c) (both in batch order); hidden and cell
  are in input order with input's LoD. Without h0 / c0 the first step's h_prev, c_prev are 0.
- gru: gates = input + bias, columns [update u, reset r, candidate]; weight's buffer is read as
  PHI reads it: its first 2D * D values are the [D, 2D] gate weight, the last D * D the [D, D]
  candidate weight. u, r = gate_act(g_ur + h_prev @ W_gate), r_h = r * h_prev,
  c = act(g_c + r_h @ W_cand), h = (1 - u) * h_prev + u * c, or with ``origin_mode``
  h = u * h_prev + (1 - u) * c. batch_gate holds u, r, c; batch_reset_hidden_prev r_h (no LoD).

Activations are PHI's (funcs/detail/activation_functions.h): sigmoid clips its argument to
[-40, 13], tanh is 2 / (1 + exp(min(-2x, 40))) - 1; "identity" (or "") and "relu".
``is_test`` changes nothing here: 3.3.1 then leaves the batch outputs unwritten, phiops fills
them all the same.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.impl.lod24_kernel import sequence_offsets
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel
from phiops.runtime.tensor.lod import Lod, lod_of, set_array_lod

__all__ = [
    "BatchLayout",
    "batch_layout",
    "activate",
    "activation_slope",
    "lstm_kernel",
    "gru_kernel",
]

FLOATS = (DataType.FLOAT32, DataType.FLOAT64)


class BatchLayout:
    """The batch order of a LoD's sequences (PHI's LoDTensor2BatchFunctor)."""

    def __init__(self, offsets: list[int], is_reverse: bool) -> None:
        bounds = np.asarray(offsets, dtype=np.int64)
        lengths = np.diff(bounds)
        # longest first, equal lengths in LoD order
        self.order = np.argsort(-lengths, kind="stable")
        longest = int(lengths.max(initial=0))
        sorted_lengths = lengths[self.order]
        counts = [int((sorted_lengths > t).sum()) for t in range(longest)]
        self.starts = [0]
        for count in counts:
            self.starts.append(self.starts[-1] + count)
        index = []
        for t, count in enumerate(counts):
            seqs = self.order[:count]
            step = lengths[seqs] - 1 - t if is_reverse else np.full(count, t, dtype=np.int64)
            index.append(bounds[seqs] + step)
        self.index = np.concatenate(index) if index else np.zeros((0,), dtype=np.int64)
        self.sequences = len(lengths)
        self.first = counts[0] if counts else 0
        self.lod: Lod = (
            tuple(self.starts) if len(self.starts) > 1 else (0, 0),
            tuple(int(i) for i in self.index),
            tuple(int(i) for i in self.order),
        )

    def blocks(self) -> list[tuple[int, int]]:
        """(start, end) of each step's rows."""
        return list(zip(self.starts[:-1], self.starts[1:]))


def batch_layout(input: Array, initial: list[tuple[str, Array | None]], is_reverse: bool) -> BatchLayout:
    """``input``'s batch layout, checked: one LoD level ending at its rows, and each initial
    state one row per sequence."""
    _, offsets = sequence_offsets(input, "input", 1)
    layout = BatchLayout(offsets, is_reverse)
    for name, state in initial:
        if state is not None and state.shape[0] != layout.sequences:
            raise InvalidArgumentError(
                f"argument '{name}' must have one row per sequence of input's LoD "
                f"({layout.sequences}), got shape {list(state.shape)}"
            )
    return layout


def activate(xp: Any, x: Array, kind: str) -> Array:
    """PHI's forward activation ``kind`` of x."""
    if kind == "sigmoid":
        return 1 / (1 + xp.exp(-xp.clip(x, x.dtype.type(-40.0), x.dtype.type(13.0))))
    if kind == "tanh":
        return 2 / (1 + xp.exp(xp.minimum(-2 * x, x.dtype.type(40.0)))) - 1
    if kind == "relu":
        return xp.maximum(x, x.dtype.type(0))
    return x


def activation_slope(xp: Any, y: Array, kind: str) -> Array:
    """The activation's derivative, from its output y (as PHI's backward activations)."""
    if kind == "sigmoid":
        return y * (1 - y)
    if kind == "tanh":
        return 1 - y * y
    if kind == "relu":
        return (y > 0).astype(y.dtype)
    return xp.ones_like(y)


def to_input_order(xp: Any, batch: Array, layout: BatchLayout) -> Array:
    """Rows in batch order back to input order."""
    out = xp.empty_like(batch)
    out[xp.asarray(layout.index)] = batch
    return out


def ordered_initial(xp: Any, state: Array | None, layout: BatchLayout, width: int, dtype: Any) -> Array:
    """The initial state's rows of the first block (zeros without one)."""
    if state is None:
        return xp.zeros((layout.first, width), dtype=dtype)
    return state[xp.asarray(layout.order[: layout.first])].astype(dtype, copy=False)


def lstm_cell(
    xp: Any, gate: Array, c_prev: Array, peep: tuple[Array, Array, Array] | None, acts: tuple[str, str, str]
) -> tuple[Array, Array, Array]:
    """One step: the activated gates (in place in ``gate``), the cell c and cell_act(c)."""
    gate_act, cell_act, cand_act = acts
    d = c_prev.shape[1]
    g_in, g_i, g_f, g_o = gate[:, :d], gate[:, d : 2 * d], gate[:, 2 * d : 3 * d], gate[:, 3 * d :]
    if peep is not None:
        g_i = g_i + c_prev * peep[0]
        g_f = g_f + c_prev * peep[1]
    value_in = activate(xp, g_in, cand_act)
    value_i = activate(xp, g_i, gate_act)
    value_f = activate(xp, g_f, gate_act)
    c = value_in * value_i + c_prev * value_f
    if peep is not None:
        g_o = g_o + c * peep[2]
    value_o = activate(xp, g_o, gate_act)
    c_act = activate(xp, c, cell_act)
    gate[:, :d], gate[:, d : 2 * d], gate[:, 2 * d : 3 * d], gate[:, 3 * d :] = value_in, value_i, value_f, value_o
    return c, c_act, value_o * c_act


@register_kernel("lstm", dtypes=FLOATS)
def lstm_kernel(
    ctx: KernelContext,
    input: Array,
    h0: Array | None,
    c0: Array | None,
    weight: Array,
    bias: Array,
    use_peepholes: bool,
    is_reverse: bool,
    is_test: bool,
    gate_activation: str,
    cell_activation: str,
    candidate_activation: str,
) -> tuple[Array, Array, Array, Array]:
    xp = ctx.xp
    layout = batch_layout(input, [("h0", h0), ("c0", c0)], is_reverse)
    rows, d = input.shape[0], weight.shape[0]
    dtype = input.dtype
    bias_row = bias.reshape(-1).astype(dtype, copy=False)
    batch_gate = input[xp.asarray(layout.index)] + bias_row[: 4 * d]
    peep = (bias_row[4 * d : 5 * d], bias_row[5 * d : 6 * d], bias_row[6 * d :]) if use_peepholes else None
    batch_hidden = xp.zeros((rows, d), dtype=dtype)
    batch_cell = xp.zeros((rows, d), dtype=dtype)
    batch_cell_act = xp.zeros((rows, d), dtype=dtype)
    acts = (gate_activation, cell_activation, candidate_activation)
    h_prev = ordered_initial(xp, h0, layout, d, dtype) if h0 is not None else None
    c_prev = ordered_initial(xp, c0, layout, d, dtype)
    for start, end in layout.blocks():
        count = end - start
        gate = batch_gate[start:end]
        if h_prev is not None:
            gate += h_prev[:count] @ weight
        c, c_act, h = lstm_cell(xp, gate, c_prev[:count], peep, acts)
        batch_cell[start:end], batch_cell_act[start:end], batch_hidden[start:end] = c, c_act, h
        h_prev, c_prev = batch_hidden[start:end], batch_cell[start:end]
    hidden = to_input_order(xp, batch_hidden, layout)
    cell = to_input_order(xp, batch_cell, layout)
    for out in (hidden, cell):
        set_array_lod(out, lod_of(input))
    set_array_lod(batch_gate, layout.lod)
    return hidden, cell, batch_gate, batch_cell_act


def gru_weights(weight: Array) -> tuple[Array, Array]:
    """weight's buffer as PHI reads it: the [D, 2D] gate weight, then the [D, D] candidate weight."""
    d = weight.shape[0]
    flat = weight.reshape(-1)
    return flat[: 2 * d * d].reshape(d, 2 * d), flat[2 * d * d :].reshape(d, d)


@register_kernel("gru", dtypes=FLOATS)
def gru_kernel(
    ctx: KernelContext,
    input: Array,
    h0: Array | None,
    weight: Array,
    bias: Array | None,
    activation: str,
    gate_activation: str,
    is_reverse: bool,
    origin_mode: bool,
    is_test: bool,
) -> tuple[Array, Array, Array, Array]:
    xp = ctx.xp
    layout = batch_layout(input, [("h0", h0)], is_reverse)
    rows, d = input.shape[0], weight.shape[0]
    dtype = input.dtype
    batch_gate = input[xp.asarray(layout.index)]
    if bias is not None:
        batch_gate = batch_gate + bias.reshape(-1).astype(dtype, copy=False)
    else:
        batch_gate = batch_gate.copy()
    w_gate, w_cand = gru_weights(weight)
    batch_reset = xp.zeros((rows, d), dtype=dtype)
    batch_hidden = xp.zeros((rows, d), dtype=dtype)
    h_prev = ordered_initial(xp, h0, layout, d, dtype) if h0 is not None else None
    for start, end in layout.blocks():
        count = end - start
        gate = batch_gate[start:end]
        if h_prev is not None:
            gate[:, : 2 * d] += h_prev[:count] @ w_gate
        u = activate(xp, gate[:, :d], gate_activation)
        r = activate(xp, gate[:, d : 2 * d], gate_activation)
        if h_prev is not None:
            reset = r * h_prev[:count]
            g_c = gate[:, 2 * d :] + reset @ w_cand
            prev = h_prev[:count]
        else:
            reset = xp.zeros_like(r)
            g_c = gate[:, 2 * d :]
            prev = xp.zeros_like(r)
        c = activate(xp, g_c, activation)
        h = u * prev + (1 - u) * c if origin_mode else prev - u * prev + u * c
        gate[:, :d], gate[:, d : 2 * d], gate[:, 2 * d :] = u, r, c
        batch_reset[start:end], batch_hidden[start:end] = reset, h
        h_prev = batch_hidden[start:end]
    hidden = to_input_order(xp, batch_hidden, layout)
    set_array_lod(hidden, lod_of(input))
    set_array_lod(batch_gate, layout.lod)
    set_array_lod(batch_hidden, layout.lod)
    return batch_gate, batch_reset, batch_hidden, hidden
