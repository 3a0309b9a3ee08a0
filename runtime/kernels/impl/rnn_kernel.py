"""rnn (PHI's RnnKernel, paddle/phi/kernels/cpu/rnn_kernel.cc and rnn_functor.h): a stack of
recurrent layers over a time-major batch [T, B, I], each layer forward or forward and backward
in time, in one op.

The math, as PaddlePaddle's CPU kernel computes it (the rows of each weight are the gates,
stacked in this order):

- ``RNN_TANH`` / ``RNN_RELU``: h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh);
- ``LSTM``, gates (i, f, c~, o): i, f, o = sigmoid(.), c~ = tanh(.), c' = f c + i c~,
  h' = o tanh(c');
- ``GRU``, gates (r, z, c~): r, z = sigmoid(x W_i{r,z}^T + b_i{r,z} + h W_h{r,z}^T + b_h{r,z}),
  c~ = tanh(x W_ic^T + b_ic + r (h W_hc^T + b_hc)) (the reset gate applied after the hidden
  matmul and its bias), h' = z h + (1 - z) c~.

``weight_list`` comes flattened as PaddlePaddle's RNNBase passes it: [W_ih, W_hh] of layer 0
forward, layer 0 reverse, layer 1 forward, ..., then [b_ih, b_hh] in the same order.
``pre_state`` is [num_layers * D, B, H], index ``layer * D + direction``.

``sequence_length``: step t of sequence b is valid when t < length[b]; at an invalid step the
output is 0 and the state stays what it was, so the last state is that of the last valid step
(the reverse direction starts at the last valid step). Between layers, when training with
``dropout_prob`` > 0, one uint8 mask of ``out``'s dims is drawn once (as PHI's CPU kernel, from
the place's mt19937_64 engine, so the same seed gives PaddlePaddle 3.3.1's mask) and applied (scaled by
1 / (1 - p)) to every layer's input but the first; it is the ``dropout_state_out`` output (all
ones when no dropout is drawn, empty at inference). ``reserve`` has the extents PaddlePaddle
gives it; phiops's grad kernel recomputes the forward steps from the inputs and the mask instead
of reading it, so it is left zero.

How the steps run: each layer and direction's input projection is one GEMM over all steps; then,
for numpy float32/float64 arrays with the optional native module (runtime/kernels/native.py),
either the whole loop over time in one C call (``rnn_sequence``, runtime/kernels/csrc/rnn.h: small
batches and hidden sizes, `SEQUENCE_MAX_WORK`) or per step one BLAS product h W_hh^T and one C
call for the gate arithmetic (``rnn_cell``); otherwise (no module, the flag off, CuPy) the steps
in array calls (`run_steps_numpy`). All write each step's output into the layer's output at the
direction's columns and update the state in place (tests/ops/test_rnn_native.py: the paths
agree within a stated tolerance).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.infermeta.multiary import rnn_reserve_rows
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.native import native_function
from phiops.runtime.kernels.registration import register_kernel
from phiops.runtime.kernels import mt19937
from phiops.runtime.random import engine_for

RNN_DTYPES = (DataType.FLOAT32, DataType.FLOAT64)


def sigmoid(xp: Any, a: Array) -> Array:
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + xp.exp(-a))


def split_weights(
    weight_list: list[Array], num_layers: int, directions: int
) -> list[list[tuple[Array, Array, Array, Array]]]:
    """[layer][direction] -> (w_ih, w_hh, b_ih, b_hh) from PaddlePaddle's flattened order."""
    half = 2 * num_layers * directions
    layers = []
    for layer in range(num_layers):
        per_direction = []
        for direction in range(directions):
            index = 2 * (layer * directions + direction)
            per_direction.append(
                (
                    weight_list[index],
                    weight_list[index + 1],
                    weight_list[half + index],
                    weight_list[half + index + 1],
                )
            )
        layers.append(per_direction)
    return layers


def valid_steps(xp: Any, sequence_length: Array | None, steps: int, dtype: Any) -> Array | None:
    """[T, B] of 1 where step t of sequence b is within its length, else 0 (None: all valid)."""
    if sequence_length is None:
        return None
    lengths = xp.asarray(sequence_length).reshape(1, -1)
    return (xp.arange(steps).reshape(-1, 1) < lengths).astype(dtype)


MODES = {"LSTM": 0, "GRU": 1, "RNN_TANH": 2, "RNN_RELU": 3}
"""The native functions' mode numbers (runtime/kernels/csrc/rnn.h)."""

GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}

SEQUENCE_MAX_WORK = 1 << 14
"""Multiply-adds of one step's h W_hh^T (batch * gates * hidden^2) up to which, for a batch of
at most `SEQUENCE_MAX_BATCH` rows, the native `rnn_sequence` runs a layer's whole loop with its
own products; otherwise each step's product is one BLAS call and its gate arithmetic one
`rnn_cell` call. Measured on this 2-core machine (thread CPU time, 32 steps, float32, loaded by
other sessions): LSTM at batch 1 hidden 16 0.07 ms against 0.15, hidden 64 0.28 against 0.32,
hidden 128 0.83 against 0.72, hidden 512 8.5 against 6.7; at batch 4 even at hidden 32 (16384
multiply-adds, 0.50 both); at batch 16 BLAS ahead from hidden 16 (0.77 against 1.0). GRU alike."""

SEQUENCE_MAX_BATCH = 8
"""Rows above which the per-step BLAS product wins even for small hidden sizes (its dot products
amortise over the batch; the C loop's do not)."""


def input_projection(
    mode: str, x: Array, w_ih: Array, b_ih: Array, b_hh: Array, hidden: int
) -> Array:
    """[T, B, G * H]: x W_ih^T + b_ih + b_hh for every step in one GEMM (GRU: without the
    candidate gate's b_hh, which the reset gate scales with h W_hc^T)."""
    steps, batch = x.shape[0], x.shape[1]
    pre = (x.reshape(steps * batch, -1) @ w_ih.T).reshape(steps, batch, -1)
    pre += b_ih
    if mode == "GRU":
        pre[:, :, : 2 * hidden] += b_hh[: 2 * hidden]
    else:
        pre += b_hh
    return pre


def new_cache(xp: Any, mode: str, pre: Array, hidden: int) -> dict:
    """The per-step values the grad kernel reads (rnn_grad_kernel.py), [T, B, ...] each."""
    steps, batch = pre.shape[0], pre.shape[1]
    shape = (steps, batch, hidden)
    cache = {"h_prev": xp.empty(shape, dtype=pre.dtype), "gates": xp.empty_like(pre)}
    if mode == "LSTM":
        cache["c_prev"] = xp.empty(shape, dtype=pre.dtype)
        cache["c_new"] = xp.empty(shape, dtype=pre.dtype)
    if mode == "GRU":
        cache["hc"] = xp.empty(shape, dtype=pre.dtype)
    return cache


def run_direction(
    xp: Any,
    mode: str,
    x: Array,
    weights: tuple[Array, Array, Array, Array],
    h: Array,
    c: Array | None,
    valid: Array | None,
    reverse: bool,
    keep: bool,
    out: Array,
    column: int,
) -> dict | None:
    """One layer in one direction: the initial state ``h`` (and ``c``: [B, H], C-contiguous)
    becomes the last one in place; the outputs go to ``out[:, :, column:column + H]``. Returns
    the cache for the grad (``keep``), else None."""
    w_ih, w_hh, b_ih, b_hh = weights
    hidden = w_hh.shape[1]
    pre = input_projection(mode, x, w_ih, b_ih, b_hh, hidden)
    cache = new_cache(xp, mode, pre, hidden) if keep else None
    native = native_function(pre, "rnn_sequence")
    if native is None:
        run_steps_numpy(xp, mode, pre, w_hh, b_hh, h, c, valid, reverse, cache, out, column)
        return cache
    steps, batch = pre.shape[0], pre.shape[1]
    w_hh = np.ascontiguousarray(w_hh, dtype=pre.dtype)
    bhc = np.ascontiguousarray(b_hh[2 * hidden :], dtype=pre.dtype) if mode == "GRU" else None
    caches = (
        [cache.get(name) for name in ("h_prev", "gates", "c_prev", "c_new", "hc")]
        if keep
        else [None] * 5
    )
    if batch <= SEQUENCE_MAX_BATCH and batch * GATES[mode] * hidden * hidden <= SEQUENCE_MAX_WORK:
        native(
            MODES[mode], steps, batch, hidden, pre, w_hh, bhc, h, c, valid, reverse, out,
            column, out.shape[2], *caches,
        )  # fmt: skip
        return cache
    cell = native_function(pre, "rnn_cell")
    product = np.empty((batch, GATES[mode] * hidden), dtype=pre.dtype)
    w_t = w_hh.T
    width = out.shape[2]
    for t in range(steps - 1, -1, -1) if reverse else range(steps):
        np.matmul(h, w_t, out=product)
        cell(
            MODES[mode], batch, hidden, pre[t], product, bhc, h, c,
            None if valid is None else valid[t], out[t], column, width,
            *[None if a is None else a[t] for a in caches],
        )  # fmt: skip
    return cache


def run_steps_numpy(
    xp: Any,
    mode: str,
    pre: Array,
    w_hh: Array,
    b_hh: Array,
    h0: Array,
    c0: Array | None,
    valid: Array | None,
    reverse: bool,
    cache: dict | None,
    out: Array,
    column: int,
) -> None:
    """`run_direction`'s steps in array calls (any xp; the native module's reference)."""
    steps = pre.shape[0]
    hidden = w_hh.shape[1]
    out = out[:, :, column : column + hidden]
    if mode == "GRU":
        w_hh_rz, w_hh_c, b_hh_c = w_hh[: 2 * hidden], w_hh[2 * hidden :], b_hh[2 * hidden :]
    h, c = h0, c0
    keep = cache is not None
    order = range(steps - 1, -1, -1) if reverse else range(steps)
    for t in order:
        if keep:
            cache["h_prev"][t] = h
            gates = cache["gates"][t]
        if mode == "LSTM":
            g = pre[t] + h @ w_hh.T
            i = sigmoid(xp, g[:, :hidden])
            f = sigmoid(xp, g[:, hidden : 2 * hidden])
            cc = xp.tanh(g[:, 2 * hidden : 3 * hidden])
            o = sigmoid(xp, g[:, 3 * hidden :])
            c_new = f * c + i * cc
            h_new = o * xp.tanh(c_new)
            if keep:
                gates[:, :hidden] = i
                gates[:, hidden : 2 * hidden] = f
                gates[:, 2 * hidden : 3 * hidden] = cc
                gates[:, 3 * hidden :] = o
                cache["c_prev"][t] = c
                cache["c_new"][t] = c_new
        elif mode == "GRU":
            rz = sigmoid(xp, pre[t, :, : 2 * hidden] + h @ w_hh_rz.T)
            r, z = rz[:, :hidden], rz[:, hidden:]
            hc = h @ w_hh_c.T + b_hh_c
            cc = xp.tanh(pre[t, :, 2 * hidden :] + r * hc)
            h_new = z * h + (1 - z) * cc
            c_new = None
            if keep:
                gates[:, : 2 * hidden] = rz
                gates[:, 2 * hidden :] = cc
                cache["hc"][t] = hc
        else:
            a = pre[t] + h @ w_hh.T
            h_new = xp.tanh(a) if mode == "RNN_TANH" else xp.maximum(a, 0)
            c_new = None
            if keep:
                gates[...] = h_new
        if valid is None:
            out[t] = h_new
            h = h_new
            c = c_new
        else:
            m = valid[t].reshape(-1, 1)
            out[t] = h_new * m
            h = h_new * m + h * (1 - m)
            if mode == "LSTM":
                c = c_new * m + c * (1 - m)
    h0[...] = h
    if c0 is not None:
        c0[...] = c


def rnn_forward(
    xp: Any,
    x: Array,
    pre_state: list[Array],
    weight_list: list[Array],
    sequence_length: Array | None,
    dropout_mask: Array | None,
    dropout_prob: float,
    is_bidirec: bool,
    num_layers: int,
    mode: str,
    keep: bool,
) -> tuple[Array, list[Array], list[list[Any]]]:
    """(out, last states, per layer [inputs, caches per direction]). ``dropout_mask``: the uint8
    mask applied to the inputs of layers 1.. (None: none)."""
    directions = 2 if is_bidirec else 1
    weights = split_weights(weight_list, num_layers, directions)
    valid = valid_steps(xp, sequence_length, x.shape[0], x.dtype)
    lstm = mode == "LSTM"
    # the states start as pre_state and each direction updates its own rows in place
    last_h = xp.array(pre_state[0], dtype=x.dtype, order="C")
    last_c = xp.array(pre_state[1], dtype=x.dtype, order="C") if lstm else None
    records: list[list[Any]] = []
    layer_input = x
    steps, batch = x.shape[0], x.shape[1]
    for layer in range(num_layers):
        if layer > 0 and dropout_mask is not None:
            if dropout_prob == 1.0:
                layer_input = layer_input * x.dtype.type(0)
            else:
                layer_input = layer_input * dropout_mask.astype(x.dtype) / x.dtype.type(
                    1.0 - dropout_prob
                )
        hidden = weights[layer][0][1].shape[1]
        out = xp.empty((steps, batch, directions * hidden), dtype=x.dtype)
        caches = []
        for direction in range(directions):
            index = layer * directions + direction
            caches.append(
                run_direction(
                    xp,
                    mode,
                    layer_input,
                    weights[layer][direction],
                    last_h[index],
                    last_c[index] if lstm else None,
                    valid,
                    direction == 1,
                    keep,
                    out,
                    direction * hidden,
                )
            )
        records.append([layer_input, caches])
        layer_input = out
    states = [last_h, last_c] if lstm else [last_h]
    return layer_input, states, records


def _rnn_output_dtypes(kernel: Kernel) -> None:
    kernel.output_at(1).set_dtype(DataType.UINT8)


# PaddlePaddle 3.3.1 registers rnn on CPU for float32 and float64.
@register_kernel("rnn", dtypes=RNN_DTYPES, configure=_rnn_output_dtypes)
def rnn_kernel(
    ctx: KernelContext,
    x: Array,
    pre_state: list[Array],
    weight_list: list[Array],
    sequence_length: Array | None,
    dropout_prob: float,
    is_bidirec: bool,
    input_size: int,
    hidden_size: int,
    num_layers: int,
    mode: str,
    seed: int,
    is_test: bool,
) -> tuple[Array, Array, list[Array], Array]:
    """(out, dropout_state_out, state, reserve); see the module docstring."""
    xp = ctx.xp
    steps, batch = x.shape[0], x.shape[1]
    directions = 2 if is_bidirec else 1
    out_shape = (steps, batch, directions * hidden_size)
    mask = None
    if is_test:
        dropout_state = xp.empty((0,), dtype=xp.uint8)
    elif dropout_prob != 0.0 and num_layers > 1:
        # PHI's DropoutCpuFunctionInplace: one mask for every layer, 0 where a
        # std::uniform_real_distribution<float>(0, 1) draw of the place's engine (or a new
        # one of a nonzero seed) is below dropout_prob; all 0 without draws when it is 1
        if np.float32(dropout_prob) == np.float32(1.0):
            keep = np.zeros(out_shape, dtype=bool)
        else:
            u = mt19937.uniform(
                engine_for(ctx.place, seed), math.prod(out_shape), 0.0, 1.0, np.float32
            )
            keep = ~(u < np.float32(dropout_prob)).reshape(out_shape)
        mask = dropout_state = xp.asarray(keep).astype(xp.uint8)
    else:
        dropout_state = xp.ones(out_shape, dtype=xp.uint8)
    out, states, _ = rnn_forward(
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
        False,
    )
    if is_test:
        reserve = xp.empty((0,), dtype=x.dtype)
    else:
        reserve = xp.zeros(
            (rnn_reserve_rows(mode, num_layers), int(np.prod(out_shape))), dtype=x.dtype
        )
    return out, dropout_state, states, reserve
