"""InferMeta functions of the lstm24 ops (issue 24): PaddlePaddle 3.3.1's legacy LoD recurrent
ops ``lstm`` (dynamic_lstm) and ``gru`` (dynamic_gru) and their gradients, following PHI's
LSTMInferMeta, GruInferMeta, LSTMGradInferMeta and GruGradInferMeta (paddle/phi/infermeta/).

The inputs are already projected: ``input`` is [T, 4 * D] for lstm (the candidate, input, forget
and output gates' projections of each of the T rows, in that order) and [T, 3 * D] for gru
(update, reset, candidate), D being the hidden width, weight's first extent. The sequences (the
input's LoD) are data, not meta: the outputs' shapes follow from the dims alone."""

from __future__ import annotations

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import UNKNOWN, extents_match, set_output
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "RECURRENT_ACTIVATIONS",
    "lstm_infer_meta",
    "lstm_grad_infer_meta",
    "gru_infer_meta",
    "gru_grad_infer_meta",
]

_RUNTIME = MetaConfig()

# PHI's GetActivationType (paddle/phi/kernels/funcs/detail/activation_functions.h): "" is identity
RECURRENT_ACTIVATIONS = ("sigmoid", "relu", "tanh", "identity", "")


def _check_activation(name: str, value: str) -> None:
    if value not in RECURRENT_ACTIVATIONS:
        raise InvalidArgumentError(
            f"argument '{name}' must be one of 'sigmoid', 'relu', 'tanh', 'identity', got {value!r}"
        )


def _check_same_dtype(name: str, tensor: MetaTensor | None, input: MetaTensor) -> None:
    if tensor is not None and tensor.dtype is not input.dtype:
        raise InvalidArgumentError(
            f"argument '{name}' must have input's dtype {input.dtype.name.lower()}, got "
            f"{tensor.dtype.name.lower()}"
        )


def _check_rank2(name: str, tensor: MetaTensor) -> None:
    if len(tensor.dims) != 2:
        raise InvalidArgumentError(f"argument '{name}' must be a 2-D tensor, got shape {list(tensor.dims)}")


def _check_width(name: str, tensor: MetaTensor, axis: int, want: int, what: str, config: MetaConfig) -> None:
    if want != UNKNOWN and not extents_match(tensor.dims[axis], want, config):
        raise InvalidArgumentError(
            f"argument '{name}' must have {want} ({what}) as extent {axis}, got shape {list(tensor.dims)}"
        )


def _check_initial(
    name: str, tensor: MetaTensor | None, input: MetaTensor, frame: int, config: MetaConfig
) -> None:
    """h0 / c0: [sequences, D] (the sequence count is the LoD's, checked by the kernel)."""
    if tensor is None:
        return
    _check_rank2(name, tensor)
    _check_width(name, tensor, 1, frame, "the hidden width D", config)
    _check_same_dtype(name, tensor, input)


def lstm_infer_meta(
    input: MetaTensor,
    h0: MetaTensor | None,
    c0: MetaTensor | None,
    weight: MetaTensor,
    bias: MetaTensor,
    use_peepholes: bool,
    is_reverse: bool,
    is_test: bool,
    gate_activation: str,
    cell_activation: str,
    candidate_activation: str,
    hidden: MetaTensor,
    cell: MetaTensor,
    batch_gate: MetaTensor,
    batch_cell_pre_act: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """hidden, cell and batch_cell_pre_act: [T, D]; batch_gate: input's [T, 4 * D]; all of
    input's dtype. weight must be [D, 4 * D], bias [1, 7 * D] with peepholes ([1, 4 * D]
    without), h0 and c0 given together with equal dims [sequences, D]."""
    _check_rank2("input", input)
    for name, value in (
        ("gate_activation", gate_activation),
        ("cell_activation", cell_activation),
        ("candidate_activation", candidate_activation),
    ):
        _check_activation(name, value)
    width = input.dims[1]
    if width != UNKNOWN and width % 4:
        raise InvalidArgumentError(
            f"argument 'input' must have 4 * D columns (the four gates' projections), got shape {list(input.dims)}"
        )
    _check_rank2("weight", weight)
    frame = weight.dims[0] if width == UNKNOWN else width // 4
    _check_width("weight", weight, 0, frame, "input's columns / 4", config)
    _check_width("weight", weight, 1, 4 * frame if frame != UNKNOWN else UNKNOWN, "4 * D", config)
    _check_rank2("bias", bias)
    _check_width("bias", bias, 0, 1, "one row", config)
    gates = 7 if use_peepholes else 4
    what = "7 * D with use_peepholes: the gates' biases, then the peephole weights" if use_peepholes else "4 * D"
    _check_width("bias", bias, 1, gates * frame if frame != UNKNOWN else UNKNOWN, what, config)
    if (h0 is None) != (c0 is None):
        raise InvalidArgumentError("arguments 'h0' and 'c0' must be given together (or neither)")
    _check_initial("h0", h0, input, frame, config)
    _check_initial("c0", c0, input, frame, config)
    if h0 is not None and not extents_match(h0.dims[0], c0.dims[0], config):
        raise InvalidArgumentError(
            f"arguments 'h0' and 'c0' must have the same shape, got {list(h0.dims)} and {list(c0.dims)}"
        )
    _check_same_dtype("weight", weight, input)
    _check_same_dtype("bias", bias, input)
    rows = (input.dims[0], frame)
    set_output(hidden, rows, input.dtype, input)
    set_output(cell, rows, input.dtype, input)
    set_output(batch_gate, input.dims, input.dtype, input)
    set_output(batch_cell_pre_act, rows, input.dtype, input)


def lstm_grad_infer_meta(
    input: MetaTensor,
    h0: MetaTensor | None,
    c0: MetaTensor | None,
    weight: MetaTensor,
    bias: MetaTensor,
    input_grad: MetaTensor,
    h0_grad: MetaTensor,
    c0_grad: MetaTensor,
    weight_grad: MetaTensor,
    bias_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Each gradient has its input's dims and dtype (h0's and c0's only when they are given)."""
    set_output(input_grad, input.dims, input.dtype, input)
    if h0 is not None:
        set_output(h0_grad, h0.dims, h0.dtype, h0)
    if c0 is not None:
        set_output(c0_grad, c0.dims, c0.dtype, c0)
    set_output(weight_grad, weight.dims, weight.dtype, weight)
    set_output(bias_grad, bias.dims, bias.dtype, bias)


def gru_infer_meta(
    input: MetaTensor,
    h0: MetaTensor | None,
    weight: MetaTensor,
    bias: MetaTensor | None,
    activation: str,
    gate_activation: str,
    is_reverse: bool,
    origin_mode: bool,
    is_test: bool,
    batch_gate: MetaTensor,
    batch_reset_hidden_prev: MetaTensor,
    batch_hidden: MetaTensor,
    hidden: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """batch_gate: input's [T, 3 * D]; batch_reset_hidden_prev, batch_hidden and hidden:
    [T, D]; all of input's dtype. weight must be [D, 3 * D], bias [1, 3 * D], h0
    [sequences, D]."""
    _check_rank2("input", input)
    _check_activation("activation", activation)
    _check_activation("gate_activation", gate_activation)
    _check_rank2("weight", weight)
    frame = weight.dims[0]
    _check_width("input", input, 1, 3 * frame if frame != UNKNOWN else UNKNOWN, "3 * D, D being weight's rows", config)
    _check_width("weight", weight, 1, 3 * frame if frame != UNKNOWN else UNKNOWN, "3 * D", config)
    _check_same_dtype("weight", weight, input)
    _check_initial("h0", h0, input, frame, config)
    if bias is not None:
        _check_rank2("bias", bias)
        _check_width("bias", bias, 0, 1, "one row", config)
        _check_width("bias", bias, 1, 3 * frame if frame != UNKNOWN else UNKNOWN, "3 * D", config)
        _check_same_dtype("bias", bias, input)
    rows = (input.dims[0], frame)
    set_output(batch_gate, input.dims, input.dtype, input)
    set_output(batch_reset_hidden_prev, rows, input.dtype, input)
    set_output(batch_hidden, rows, input.dtype, input)
    set_output(hidden, rows, input.dtype, input)


def gru_grad_infer_meta(
    input: MetaTensor,
    h0: MetaTensor | None,
    weight: MetaTensor,
    bias: MetaTensor | None,
    input_grad: MetaTensor,
    h0_grad: MetaTensor,
    weight_grad: MetaTensor,
    bias_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Each gradient has its input's dims and dtype (h0's and bias's only when they are given)."""
    set_output(input_grad, input.dims, input.dtype, input)
    if h0 is not None:
        set_output(h0_grad, h0.dims, h0.dtype, h0)
    set_output(weight_grad, weight.dims, weight.dtype, weight)
    if bias is not None:
        set_output(bias_grad, bias.dims, bias.dtype, bias)
