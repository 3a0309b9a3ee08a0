"""Gradient kernels of the lstm24 ops of issue 24 (``lstm_grad``, ``gru_grad``), for float32 and
float64 as PaddlePaddle 3.3.1 registers them on CPU. Backpropagation through time over the batch
order of runtime/kernels/impl/lstm24_kernel.py (recomputed from input's LoD), from the forward's
saved activated gates, cells and reset hidden states, last block first.

As in 3.3.1 (paddle/phi/kernels/impl/lstm_kernel_impl.h, LSTMGradKernel), lstm's gradient flows
from ``hidden`` only: a gradient of the ``cell`` output is not propagated (PHI's TODO "support
the case output cell has gradient"). lstm's input_grad carries input's LoD, gru's none (as
3.3.1's). gru's weight_grad is laid out as PHI reads weight: the [D, 2D] gate weight's gradient
in the first 2D * D values, the [D, D] candidate weight's in the last D * D.
"""

from __future__ import annotations

from typing import Any

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.impl.lstm24_kernel import (
    FLOATS,
    activation_slope,
    batch_layout,
    gru_weights,
    ordered_initial,
    to_input_order,
)
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel
from phiops.runtime.tensor.lod import lod_of, set_array_lod

__all__ = ["lstm_grad_kernel", "gru_grad_kernel"]


def _check_grad(hidden_grad: Array, rows: int, d: int) -> None:
    if hidden_grad.shape != (rows, d):
        raise InvalidArgumentError(
            f"argument 'hidden_grad' must have shape {[rows, d]}, got {list(hidden_grad.shape)}"
        )


def _initial_grad(xp: Any, grad: Array, layout: Any, state: Array) -> Array:
    """The first block's gradient rows back to the initial state's rows (one per sequence)."""
    out = xp.zeros(state.shape, dtype=state.dtype)
    out[xp.asarray(layout.order[: layout.first])] = grad.astype(state.dtype, copy=False)
    return out


@register_kernel("lstm_grad", dtypes=FLOATS)
def lstm_grad_kernel(
    ctx: KernelContext,
    input: Array,
    h0: Array | None,
    c0: Array | None,
    weight: Array,
    bias: Array,
    hidden: Array,
    cell: Array,
    batch_gate: Array,
    batch_cell_pre_act: Array,
    hidden_grad: Array,
    use_peepholes: bool,
    is_reverse: bool,
    is_test: bool,
    gate_activation: str,
    cell_activation: str,
    candidate_activation: str,
) -> tuple[Array, Array, Array, Array, Array]:
    xp = ctx.xp
    layout = batch_layout(input, [("h0", h0), ("c0", c0)], is_reverse)
    rows, d = input.shape[0], weight.shape[0]
    _check_grad(hidden_grad, rows, d)
    dtype = input.dtype
    index = xp.asarray(layout.index)
    batch_hidden = hidden[index]
    batch_cell = cell[index]
    hidden_g = hidden_grad[index].astype(dtype, copy=True)
    cell_g = xp.zeros((rows, d), dtype=dtype)
    gate_g = xp.zeros((rows, 4 * d), dtype=dtype)
    bias_row = bias.reshape(-1)
    peep = (bias_row[4 * d : 5 * d], bias_row[5 * d : 6 * d], bias_row[6 * d :]) if use_peepholes else None
    peep_g = [xp.zeros((d,), dtype=dtype) for _ in range(3)]
    weight_g = xp.zeros(weight.shape, dtype=dtype)
    h_first = ordered_initial(xp, h0, layout, d, dtype)
    c_first = ordered_initial(xp, c0, layout, d, dtype)
    c0_g_first = None
    blocks = layout.blocks()
    for n in range(len(blocks) - 1, -1, -1):
        start, end = blocks[n]
        count = end - start
        gate = batch_gate[start:end]
        v_in, v_i, v_f, v_o = gate[:, :d], gate[:, d : 2 * d], gate[:, 2 * d : 3 * d], gate[:, 3 * d :]
        c = batch_cell[start:end]
        c_act = batch_cell_pre_act[start:end]
        if n > 0:
            prev_start = blocks[n - 1][0]
            c_prev = batch_cell[prev_start : prev_start + count]
        else:
            c_prev = c_first[:count]
        out_g = hidden_g[start:end]
        g_o = out_g * c_act * activation_slope(xp, v_o, gate_activation)
        state_g = cell_g[start:end] + out_g * v_o * activation_slope(xp, c_act, cell_activation)
        if peep is not None:
            state_g = state_g + g_o * peep[2]
        g_in = state_g * v_i * activation_slope(xp, v_in, candidate_activation)
        g_i = state_g * v_in * activation_slope(xp, v_i, gate_activation)
        g_f = state_g * c_prev * activation_slope(xp, v_f, gate_activation)
        prev_state_g = state_g * v_f
        if peep is not None:
            prev_state_g = prev_state_g + g_i * peep[0] + g_f * peep[1]
            peep_g[0] += (g_i * c_prev).sum(axis=0)
            peep_g[1] += (g_f * c_prev).sum(axis=0)
            peep_g[2] += (g_o * c).sum(axis=0)
        block_g = xp.concatenate([g_in, g_i, g_f, g_o], axis=1)
        gate_g[start:end] = block_g
        if n > 0:
            cell_g[prev_start : prev_start + count] += prev_state_g
            hidden_g[prev_start : prev_start + count] += block_g @ weight.T
            weight_g += batch_hidden[prev_start : prev_start + count].T @ block_g
        else:
            c0_g_first = prev_state_g
            h0_g_first = block_g @ weight.T
            if h0 is not None:
                weight_g += h_first[:count].T @ block_g
    input_grad = to_input_order(xp, gate_g, layout)
    set_array_lod(input_grad, lod_of(input))
    bias_g = [gate_g.sum(axis=0)]
    if use_peepholes:
        bias_g += peep_g
    bias_grad = xp.concatenate(bias_g).reshape(bias.shape).astype(bias.dtype, copy=False)
    h0_grad = c0_grad = None
    if h0 is not None:
        h0_grad = _initial_grad(xp, h0_g_first if blocks else xp.zeros((0, d), dtype=dtype), layout, h0)
    if c0 is not None:
        c0_grad = _initial_grad(xp, c0_g_first if blocks else xp.zeros((0, d), dtype=dtype), layout, c0)
    return input_grad, h0_grad, c0_grad, weight_g.astype(weight.dtype, copy=False), bias_grad


@register_kernel("gru_grad", dtypes=FLOATS)
def gru_grad_kernel(
    ctx: KernelContext,
    input: Array,
    h0: Array | None,
    weight: Array,
    bias: Array | None,
    batch_gate: Array,
    batch_reset_hidden_prev: Array,
    batch_hidden: Array,
    hidden: Array,
    hidden_grad: Array,
    activation: str,
    gate_activation: str,
    is_reverse: bool,
    origin_mode: bool,
    is_test: bool,
) -> tuple[Array, Array, Array, Array]:
    xp = ctx.xp
    layout = batch_layout(input, [("h0", h0)], is_reverse)
    rows, d = input.shape[0], weight.shape[0]
    _check_grad(hidden_grad, rows, d)
    dtype = input.dtype
    index = xp.asarray(layout.index)
    w_gate, w_cand = gru_weights(weight)
    hidden_g = hidden_grad[index].astype(dtype, copy=True)
    gate_g = xp.zeros((rows, 3 * d), dtype=dtype)
    w_gate_g = xp.zeros(w_gate.shape, dtype=dtype)
    w_cand_g = xp.zeros(w_cand.shape, dtype=dtype)
    h_first = ordered_initial(xp, h0, layout, d, dtype)
    h0_g_first = None
    blocks = layout.blocks()
    for n in range(len(blocks) - 1, -1, -1):
        start, end = blocks[n]
        count = end - start
        u, r, c = batch_gate[start:end, :d], batch_gate[start:end, d : 2 * d], batch_gate[start:end, 2 * d :]
        reset = batch_reset_hidden_prev[start:end]
        if n > 0:
            prev_start = blocks[n - 1][0]
            h_prev = batch_hidden[prev_start : prev_start + count]
        else:
            h_prev = h_first[:count]
        out_g = hidden_g[start:end]
        if origin_mode:
            u_g, c_g, prev_g = out_g * (h_prev - c), out_g * (1 - u), out_g * u
        else:
            u_g, c_g, prev_g = out_g * (c - h_prev), out_g * u, out_g * (1 - u)
        c_pre_g = c_g * activation_slope(xp, c, activation)
        reset_g = c_pre_g @ w_cand.T
        r_g = reset_g * h_prev
        prev_g = prev_g + reset_g * r
        ur_g = xp.concatenate(
            [u_g * activation_slope(xp, u, gate_activation), r_g * activation_slope(xp, r, gate_activation)], axis=1
        )
        prev_g = prev_g + ur_g @ w_gate.T
        gate_g[start:end] = xp.concatenate([ur_g, c_pre_g], axis=1)
        if n > 0 or h0 is not None:
            w_cand_g += reset.T @ c_pre_g
            w_gate_g += h_prev.T @ ur_g
        if n > 0:
            hidden_g[prev_start : prev_start + count] += prev_g
        else:
            h0_g_first = prev_g
    input_grad = to_input_order(xp, gate_g, layout)
    weight_grad = xp.concatenate([w_gate_g.reshape(-1), w_cand_g.reshape(-1)]).reshape(weight.shape)
    bias_grad = None
    if bias is not None:
        bias_grad = gate_g.sum(axis=0).reshape(bias.shape).astype(bias.dtype, copy=False)
    h0_grad = None
    if h0 is not None:
        h0_grad = _initial_grad(xp, h0_g_first if blocks else xp.zeros((0, d), dtype=dtype), layout, h0)
    return input_grad, h0_grad, weight_grad.astype(weight.dtype, copy=False), bias_grad
