"""rnn_grad (PHI's RnnGradKernel): backpropagation through time for the rnn op.

The forward steps are recomputed from ``x``, ``pre_state``, ``weight_list`` and the dropout mask
the forward drew (``dropout_state_out``), keeping each step's gates, then walked back in reverse
processing order (runtime/kernels/impl/rnn_kernel.py has the forward math): for the sizes whose
forward runs in one native call, in one native call too (``rnn_sequence_grad``,
runtime/kernels/csrc/rnn.h), else in array calls per step; the weight gradients are GEMMs over
all steps either way. A step past a
sequence's length passes the state's gradient through unchanged and takes none from ``out``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from phiops.runtime.kernels.impl import rnn_kernel
from phiops.runtime.kernels.impl.rnn_kernel import (
    GATES,
    MODES,
    RNN_DTYPES,
    rnn_forward,
    split_weights,
    valid_steps,
)
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.native import native_function
from phiops.runtime.kernels.registration import register_kernel


def _direction_grad(
    xp: Any,
    mode: str,
    x: Array,
    weights: tuple[Array, Array, Array, Array],
    cache: dict,
    d_layer_out: Array,
    column: int,
    dh_last: Array,
    dc_last: Array | None,
    valid: Array | None,
    reverse: bool,
) -> tuple[Array, Array, Array | None, list[Array]]:
    """(dx, dh0, dc0, [dw_ih, dw_hh, db_ih, db_hh]) of one layer in one direction; this
    direction's output gradient is ``d_layer_out[:, :, column:column + H]``."""
    w_ih, w_hh, _, _ = weights
    steps, batch = x.shape[0], x.shape[1]
    hidden = w_hh.shape[1]
    gates = cache["gates"]
    d_pre = xp.empty(gates.shape, dtype=x.dtype)
    d_hh = xp.empty(gates.shape, dtype=x.dtype) if mode == "GRU" else d_pre
    dh = xp.array(dh_last, dtype=x.dtype, order="C")
    dc = xp.array(dc_last, dtype=x.dtype, order="C") if dc_last is not None else None
    native = (
        native_function(gates, "rnn_sequence_grad")
        # the forward's choice: small steps in one native call, larger ones in array calls
        if batch <= rnn_kernel.SEQUENCE_MAX_BATCH
        and batch * GATES[mode] * hidden * hidden <= rnn_kernel.SEQUENCE_MAX_WORK
        else None
    )
    if native is not None:
        d_full = np.ascontiguousarray(d_layer_out, dtype=x.dtype)
        native(
            MODES[mode], steps, batch, hidden, np.ascontiguousarray(w_hh, dtype=x.dtype), valid,
            reverse, d_full, column, d_full.shape[2], cache["h_prev"], gates,
            cache.get("c_prev"), cache.get("c_new"), cache.get("hc"), dh, dc, d_pre,
            d_hh if mode == "GRU" else None,
        )  # fmt: skip
    else:
        d_out = d_layer_out[:, :, column : column + hidden]
        dh, dc = _steps_grad_numpy(
            xp, mode, w_hh, cache, d_out, dh, dc, valid, reverse, d_pre, d_hh
        )
    flat_pre = d_pre.reshape(steps * batch, -1)
    flat_hh = d_hh.reshape(steps * batch, -1)
    dw_ih = flat_pre.T @ x.reshape(steps * batch, -1)
    dw_hh = flat_hh.T @ cache["h_prev"].reshape(steps * batch, hidden)
    db_ih = flat_pre.sum(axis=0)
    db_hh = flat_hh.sum(axis=0)
    dx = (flat_pre @ w_ih).reshape(x.shape)
    return dx, dh, dc, [dw_ih, dw_hh, db_ih, db_hh]


def _steps_grad_numpy(
    xp: Any,
    mode: str,
    w_hh: Array,
    cache: dict,
    d_out: Array,
    dh: Array,
    dc: Array | None,
    valid: Array | None,
    reverse: bool,
    d_pre: Array,
    d_hh: Array,
) -> tuple[Array, Array | None]:
    """`_direction_grad`'s steps in array calls (any xp; the native module's reference): fills
    d_pre and d_hh, returns the initial state's (dh, dc)."""
    steps = d_pre.shape[0]
    hidden = w_hh.shape[1]
    gates = cache["gates"]
    # the tanh of every step's new c in one call (the forward kept c, not its tanh)
    tanh_c_all = xp.tanh(cache["c_new"]) if mode == "LSTM" else None
    order = range(steps) if reverse else range(steps - 1, -1, -1)
    for t in order:
        if valid is None:
            dh_new = dh + d_out[t]
            dh_keep = None
        else:
            m = valid[t].reshape(-1, 1)
            dh_new = (dh + d_out[t]) * m
            dh_keep = dh * (1 - m)
        h_prev = cache["h_prev"][t]
        g = gates[t]
        if mode == "LSTM":
            i, f = g[:, :hidden], g[:, hidden : 2 * hidden]
            cc, o = g[:, 2 * hidden : 3 * hidden], g[:, 3 * hidden :]
            tanh_c = tanh_c_all[t]
            if valid is None:
                dc_new, dc_keep = dc, None
            else:
                dc_new, dc_keep = dc * m, dc * (1 - m)
            dc_total = dc_new + dh_new * o * (1 - tanh_c * tanh_c)
            d = d_pre[t]
            d[:, :hidden] = dc_total * cc * i * (1 - i)
            d[:, hidden : 2 * hidden] = dc_total * cache["c_prev"][t] * f * (1 - f)
            d[:, 2 * hidden : 3 * hidden] = dc_total * i * (1 - cc * cc)
            d[:, 3 * hidden :] = dh_new * tanh_c * o * (1 - o)
            dc = dc_total * f if dc_keep is None else dc_total * f + dc_keep
            dh = d @ w_hh
        elif mode == "GRU":
            r, z, cc = g[:, :hidden], g[:, hidden : 2 * hidden], g[:, 2 * hidden :]
            da_c = dh_new * (1 - z) * (1 - cc * cc)
            da_r = da_c * cache["hc"][t] * r * (1 - r)
            da_z = dh_new * (h_prev - cc) * z * (1 - z)
            d, e = d_pre[t], d_hh[t]
            d[:, :hidden] = e[:, :hidden] = da_r
            d[:, hidden : 2 * hidden] = e[:, hidden : 2 * hidden] = da_z
            d[:, 2 * hidden :] = da_c
            e[:, 2 * hidden :] = da_c * r
            dh = dh_new * z + e @ w_hh
        else:
            if mode == "RNN_TANH":
                d_pre[t] = dh_new * (1 - g * g)
            else:
                d_pre[t] = dh_new * (g > 0)
            dh = d_pre[t] @ w_hh
        if dh_keep is not None:
            dh = dh + dh_keep
    return dh, dc


@register_kernel("rnn_grad", dtypes=RNN_DTYPES)
def rnn_grad_kernel(
    ctx: KernelContext,
    x: Array,
    pre_state: list[Array],
    weight_list: list[Array],
    sequence_length: Array | None,
    out: Array,
    dropout_state_out: Array,
    reserve: Array,
    out_grad: Array,
    state_grad: list[Array],
    dropout_prob: float,
    is_bidirec: bool,
    input_size: int,
    hidden_size: int,
    num_layers: int,
    mode: str,
    seed: int,
    is_test: bool,
) -> tuple[Array, list[Array], list[Array]]:
    """(x_grad, pre_state_grad, weight_list_grad)."""
    xp = ctx.xp
    directions = 2 if is_bidirec else 1
    mask = None
    if not is_test and dropout_prob != 0.0 and num_layers > 1:
        mask = dropout_state_out
    _, _, records = rnn_forward(
        xp,
        x,
        pre_state,
        weight_list,
        sequence_length,
        mask,
        dropout_prob,
        is_bidirec,
        num_layers,
        mode,
        True,
    )
    weights = split_weights(weight_list, num_layers, directions)
    valid = valid_steps(xp, sequence_length, x.shape[0], x.dtype)
    lstm = mode == "LSTM"
    dh0 = xp.empty(pre_state[0].shape, dtype=x.dtype)
    dc0 = xp.empty(pre_state[1].shape, dtype=x.dtype) if lstm else None
    weight_grads: list[Any] = [None] * len(weight_list)
    half = 2 * num_layers * directions
    d_layer_out = out_grad
    for layer in range(num_layers - 1, -1, -1):
        layer_input, caches = records[layer]
        d_input = None
        for direction in range(directions):
            index = layer * directions + direction
            dx, dh, dc, grads = _direction_grad(
                xp,
                mode,
                layer_input,
                weights[layer][direction],
                caches[direction],
                d_layer_out,
                direction * hidden_size,
                state_grad[0][index],
                state_grad[1][index] if lstm else None,
                valid,
                direction == 1,
            )
            d_input = dx if d_input is None else d_input + dx
            dh0[index] = dh
            if lstm:
                dc0[index] = dc
            slot = 2 * index
            weight_grads[slot], weight_grads[slot + 1] = grads[0], grads[1]
            weight_grads[half + slot], weight_grads[half + slot + 1] = grads[2], grads[3]
        if layer > 0 and mask is not None:
            if dropout_prob == 1.0:
                d_input = d_input * x.dtype.type(0)
            else:
                d_input = d_input * mask.astype(x.dtype) / x.dtype.type(1.0 - dropout_prob)
        d_layer_out = d_input
    pre_state_grad = [dh0, dc0] if lstm else [dh0]
    return d_layer_out, pre_state_grad, weight_grads
