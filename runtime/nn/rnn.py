"""The recurrent layers of ``paddle.nn`` (PaddlePaddle 3.3.1's python/paddle/nn/layer/rnn.py):
the cells ``SimpleRNNCell``, ``LSTMCell`` and ``GRUCell``, which compose existing ops for one
step; ``RNN`` and ``BiRNN``, which loop a cell over the time steps; and ``SimpleRNN``, ``LSTM``
and ``GRU``, multi-layer networks whose forward is one call of the fused ``rnn`` op.

Parameters are named and shaped as PaddlePaddle's (``weight_ih`` [G*H, I], ``weight_hh``
[G*H, H], ``bias_ih``, ``bias_hh`` [G*H] with G = 1, 4 (i, f, c~, o) or 3 (r, z, c~) gates;
the networks also expose them as ``weight_ih_l0``, ``weight_hh_l0_reverse``, ...), so state
dicts move between PaddlePaddle and phiops both ways, and drawn as PaddlePaddle draws them,
uniform in [-1/sqrt(hidden_size), 1/sqrt(hidden_size)].
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from phiops.runtime.common import DataType
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor, to_tensor
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.nn import functional as F
from phiops.runtime.nn.initializer import Constant, Uniform
from phiops.runtime.nn.layer import Layer, LayerList

__all__ = [
    "RNNCellBase",
    "SimpleRNNCell",
    "LSTMCell",
    "GRUCell",
    "RNN",
    "BiRNN",
    "SimpleRNN",
    "LSTM",
    "GRU",
]

_BIDIRECTIONAL = ("bidirectional", "bidirect")


def _positive(owner: str, name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise InvalidArgumentError(f"{owner}: '{name}' must be a positive int, got {value!r}")
    return value


def _dims(value: Any) -> list[int]:
    return list(value.shape)


def _check_step_input(owner: str, inputs: Any, input_size: int) -> None:
    shape = _dims(inputs)
    if len(shape) != 2:
        raise InvalidArgumentError(
            f"{owner}: 'inputs' must be 2-D [batch_size, input_size], got shape {shape}"
        )
    if shape[1] >= 0 and shape[1] != input_size:
        raise InvalidArgumentError(
            f"{owner}: 'inputs' has {shape[1]} features (shape {shape}), the cell's input_size "
            f"is {input_size}"
        )


def _check_sequence_input(owner: str, inputs: Any, input_size: int, time_major: bool) -> None:
    shape = _dims(inputs)
    if len(shape) != 3:
        layout = (
            "[time_steps, batch_size, input_size]"
            if time_major
            else ("[batch_size, time_steps, input_size]")
        )
        raise InvalidArgumentError(f"{owner}: 'inputs' must be 3-D {layout}, got shape {shape}")
    if shape[2] >= 0 and shape[2] != input_size:
        raise InvalidArgumentError(
            f"{owner}: 'inputs' has {shape[2]} features (shape {shape}), but input_size is "
            f"{input_size}"
        )


class RNNCellBase(Layer):
    """Base class of the cells: ``get_initial_states`` makes zero (or ``init_value``) states
    of ``state_shape`` with ``batch_ref``'s batch size."""

    def get_initial_states(
        self,
        batch_ref: Tensor,
        shape: Any = None,
        dtype: Any = None,
        init_value: float = 0.0,
        batch_dim_idx: int = 0,
    ) -> Any:
        """States of ``shape`` (a shape or a nested structure of shapes, -1 for the batch
        prepended when absent; None: ``state_shape``) filled with ``init_value``."""
        while isinstance(batch_ref, (list, tuple)):
            batch_ref = batch_ref[0]
        batch = _dims(batch_ref)[batch_dim_idx]
        if batch < 0:
            raise UnimplementedError(
                f"{type(self).__name__}.get_initial_states: the batch size of 'batch_ref' is "
                "unknown (a static program's -1); pass the initial states"
            )
        shape = self.state_shape if shape is None else shape
        if dtype is None:
            try:
                dtype = self.state_dtype
            except NotImplementedError:
                dtype = batch_ref.dtype
        full = op_api("full")

        def make(item: Any) -> Any:
            if isinstance(item, (list, tuple)) and item and isinstance(item[0], (list, tuple)):
                return type(item)(make(part) for part in item)
            dims = list(item)
            if not dims or dims[0] != -1:
                dims = [-1] + dims
            dims[0] = batch
            return full(dims, init_value, dtype)

        return make(shape)

    @property
    def state_shape(self) -> Any:
        raise NotImplementedError(
            f"{type(self).__name__} has no state_shape; pass the initial states"
        )

    @property
    def state_dtype(self) -> Any:
        raise NotImplementedError(f"{type(self).__name__} has no state_dtype")


def _cell_parameters(
    cell: Layer,
    gates: int,
    input_size: int,
    hidden_size: int,
    weight_ih_attr: Any,
    weight_hh_attr: Any,
    bias_ih_attr: Any,
    bias_hh_attr: Any,
    hh_columns: int | None = None,
) -> None:
    """weight_ih, weight_hh, bias_ih, bias_hh, in PaddlePaddle's order (so their names are its
    ``<cell>.w_0``, ``w_1``, ``b_0``, ``b_1``); an attr of False makes a fixed one (weights 1,
    biases 0, no gradient), as PaddlePaddle does."""
    std = 1.0 / math.sqrt(hidden_size)
    rows = gates * hidden_size
    specs = (
        ("weight_ih", (rows, input_size), weight_ih_attr, False, 1.0),
        ("weight_hh", (rows, hh_columns or hidden_size), weight_hh_attr, False, 1.0),
        ("bias_ih", (rows,), bias_ih_attr, True, 0.0),
        ("bias_hh", (rows,), bias_hh_attr, True, 0.0),
    )
    for name, shape, attr, is_bias, fixed in specs:
        if attr is not False:
            parameter = cell.create_parameter(
                list(shape), attr, is_bias=is_bias, default_initializer=Uniform(-std, std)
            )
        else:
            parameter = cell.create_parameter(
                list(shape), None, is_bias=is_bias, default_initializer=Constant(fixed)
            )
            parameter.stop_gradient = True
        setattr(cell, name, parameter)


def _check_sizes(owner: str, input_size: Any, hidden_size: Any) -> None:
    _positive(owner, "input_size", input_size)
    if isinstance(hidden_size, bool) or not isinstance(hidden_size, int) or hidden_size <= 0:
        raise InvalidArgumentError(
            f"{owner}: hidden_size must be greater than 0, got {hidden_size!r}"
        )


class SimpleRNNCell(RNNCellBase):
    """h = act(x W_ih^T + b_ih + h W_hh^T + b_hh), act ``tanh`` or ``relu``; returns (h, h)."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        activation: str = "tanh",
        weight_ih_attr: Any = None,
        weight_hh_attr: Any = None,
        bias_ih_attr: Any = None,
        bias_hh_attr: Any = None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        _check_sizes("SimpleRNNCell", input_size, hidden_size)
        if activation not in ("tanh", "relu"):
            raise InvalidArgumentError(
                f"SimpleRNNCell: activation must be 'tanh' or 'relu', got {activation!r}"
            )
        _cell_parameters(
            self,
            1,
            input_size,
            hidden_size,
            weight_ih_attr,
            weight_hh_attr,
            bias_ih_attr,
            bias_hh_attr,
        )
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.activation = activation

    def forward(self, inputs: Tensor, states: Tensor | None = None) -> tuple[Tensor, Tensor]:
        _check_step_input("SimpleRNNCell", inputs, self.input_size)
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        matmul = op_api("matmul")
        pre = matmul(inputs, self.weight_ih, False, True) + self.bias_ih
        pre = pre + (matmul(states, self.weight_hh, False, True) + self.bias_hh)
        h = F.tanh(pre) if self.activation == "tanh" else F.relu(pre)
        return h, h

    @property
    def state_shape(self) -> tuple[int]:
        return (self.hidden_size,)

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if self.activation != "tanh":
            text += f", activation={self.activation}"
        return text


class LSTMCell(RNNCellBase):
    """Gates (i, f, c~, o) = split(x W_ih^T + b_ih + h W_hh^T + b_hh); c = f c + i tanh(c~),
    h = sigmoid(o) tanh(c) (i, f, o through sigmoid); returns (h, (h, c)). With ``proj_size``,
    h is projected by ``weight_ho`` [hidden_size, proj_size]."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        weight_ih_attr: Any = None,
        weight_hh_attr: Any = None,
        bias_ih_attr: Any = None,
        bias_hh_attr: Any = None,
        proj_size: int = 0,
        name: str | None = None,
    ) -> None:
        super().__init__()
        _check_sizes("LSTMCell", input_size, hidden_size)
        if isinstance(proj_size, bool) or not isinstance(proj_size, int) or proj_size < 0:
            raise InvalidArgumentError(
                f"LSTMCell: proj_size must be a non-negative int, got {proj_size!r}"
            )
        if proj_size >= hidden_size:
            raise InvalidArgumentError(
                f"LSTMCell: proj_size ({proj_size}) must be smaller than hidden_size ({hidden_size})"
            )
        _cell_parameters(
            self,
            4,
            input_size,
            hidden_size,
            weight_ih_attr,
            weight_hh_attr,
            bias_ih_attr,
            bias_hh_attr,
            hh_columns=proj_size or hidden_size,
        )
        self.proj_size = proj_size
        if proj_size > 0:
            std = 1.0 / math.sqrt(hidden_size)
            self.weight_ho = self.create_parameter(
                [hidden_size, proj_size],
                weight_hh_attr if weight_hh_attr is not False else None,
                default_initializer=Uniform(-std, std),
            )
        self.hidden_size = hidden_size
        self.input_size = input_size

    def forward(
        self, inputs: Tensor, states: Sequence[Tensor] | None = None
    ) -> tuple[Tensor, tuple[Tensor, Tensor]]:
        _check_step_input("LSTMCell", inputs, self.input_size)
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        if not isinstance(states, (list, tuple)) or len(states) != 2:
            raise InvalidArgumentError(
                "LSTMCell: 'states' must be a pair (h, c) of [batch_size, hidden_size] tensors"
            )
        pre_hidden, pre_cell = states
        matmul = op_api("matmul")
        gates = matmul(inputs, self.weight_ih, False, True) + self.bias_ih
        gates = gates + (matmul(pre_hidden, self.weight_hh, False, True) + self.bias_hh)
        i, f, cc, o = op_api("split")(gates, [self.hidden_size] * 4, -1)
        c = F.sigmoid(f) * pre_cell + F.sigmoid(i) * F.tanh(cc)
        h = F.sigmoid(o) * F.tanh(c)
        if self.proj_size > 0:
            h = matmul(h, self.weight_ho, False, False)
        return h, (h, c)

    @property
    def state_shape(self) -> tuple[tuple[int], tuple[int]]:
        return ((self.proj_size or self.hidden_size,), (self.hidden_size,))

    def extra_repr(self) -> str:
        return f"{self.input_size}, {self.hidden_size}"


class GRUCell(RNNCellBase):
    """Gates (r, z, c~): r, z = sigmoid(x W_i^T + b_i + h W_h^T + b_h) for their rows,
    c = tanh(x W_ic^T + b_ic + r (h W_hc^T + b_hc)) (the reset gate applied after the matmul),
    h = (h_prev - c) z + c; returns (h, h)."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        weight_ih_attr: Any = None,
        weight_hh_attr: Any = None,
        bias_ih_attr: Any = None,
        bias_hh_attr: Any = None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        _check_sizes("GRUCell", input_size, hidden_size)
        _cell_parameters(
            self,
            3,
            input_size,
            hidden_size,
            weight_ih_attr,
            weight_hh_attr,
            bias_ih_attr,
            bias_hh_attr,
        )
        self.hidden_size = hidden_size
        self.input_size = input_size

    def forward(self, inputs: Tensor, states: Tensor | None = None) -> tuple[Tensor, Tensor]:
        _check_step_input("GRUCell", inputs, self.input_size)
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        pre_hidden = states
        matmul, split = op_api("matmul"), op_api("split")
        x_gates = matmul(inputs, self.weight_ih, False, True) + self.bias_ih
        h_gates = matmul(pre_hidden, self.weight_hh, False, True) + self.bias_hh
        x_r, x_z, x_c = split(x_gates, [self.hidden_size] * 3, 1)
        h_r, h_z, h_c = split(h_gates, [self.hidden_size] * 3, 1)
        r = F.sigmoid(x_r + h_r)
        z = F.sigmoid(x_z + h_z)
        c = F.tanh(x_c + r * h_c)
        h = (pre_hidden - c) * z + c
        return h, h

    @property
    def state_shape(self) -> tuple[int]:
        return (self.hidden_size,)

    def extra_repr(self) -> str:
        return f"{self.input_size}, {self.hidden_size}"


# -- looping a cell ---------------------------------------------------------------------------


def _map(function: Any, *structures: Any) -> Any:
    first = structures[0]
    if isinstance(first, (list, tuple)):
        return type(first)(_map(function, *parts) for parts in zip(*structures))
    return function(*structures)


def _flatten(structure: Any) -> list[Any]:
    if isinstance(structure, (list, tuple)):
        return [leaf for part in structure for leaf in _flatten(part)]
    return [structure]


def _step_mask(sequence_length: Tensor, steps: int, dtype: Any) -> Tensor:
    """[T, B] of 1 where step t is within sequence b's length, else 0."""
    lengths = op_api("cast")(sequence_length, DataType.INT64)
    positions = op_api("arange")(0, steps, 1, DataType.INT64)
    valid = op_api("less_than")(
        op_api("unsqueeze")(positions, [1]), op_api("unsqueeze")(lengths, [0])
    )
    return op_api("cast")(valid, dtype)


def _run_cell(
    cell: Layer,
    inputs: Tensor,
    initial_states: Any,
    sequence_length: Tensor | None,
    time_major: bool,
    is_reverse: bool,
    kwargs: dict,
) -> tuple[Tensor, Any]:
    """PaddlePaddle's _rnn_dynamic_graph: the cell over every step; with ``sequence_length`` a
    state stops changing past a sequence's length (the outputs there are the cell's, unmasked)."""
    if not time_major:
        inputs = op_api("transpose")(inputs, [1, 0, 2])
    steps = _dims(inputs)[0]
    if initial_states is None:
        initial_states = cell.get_initial_states(inputs, batch_dim_idx=1)
    mask = None
    if sequence_length is not None:
        mask = _step_mask(sequence_length, steps, inputs.dtype)
    if is_reverse:
        inputs = op_api("flip")(inputs, [0])
        if mask is not None:
            mask = op_api("flip")(mask, [0])
    states = initial_states
    outputs = []
    for t in range(steps):
        step_output, new_states = cell(inputs[t], states, **kwargs)
        if mask is not None:
            keep = op_api("unsqueeze")(mask[t], [1])
            new_states = _map(lambda old, new: new * keep + old * (1.0 - keep), states, new_states)
        states = new_states
        outputs.append(step_output)
    axis = 0 if time_major else 1
    final = op_api("stack")(outputs, axis)
    if is_reverse:
        final = op_api("flip")(final, [axis])
    return final, states


class RNN(Layer):
    """Loops ``cell`` over the time steps of ``inputs`` ([batch, time, ...], or [time, batch,
    ...] when ``time_major``), backwards when ``is_reverse``; returns (outputs, final states)."""

    def __init__(self, cell: Layer, is_reverse: bool = False, time_major: bool = False) -> None:
        super().__init__()
        if not isinstance(cell, Layer):
            raise InvalidArgumentError(
                f"RNN: 'cell' must be a Layer (an RNN cell), got {type(cell).__name__}"
            )
        self.cell = cell
        self.is_reverse = is_reverse
        self.time_major = time_major

    def forward(
        self,
        inputs: Tensor,
        initial_states: Any = None,
        sequence_length: Tensor | None = None,
        **kwargs: Any,
    ) -> tuple[Tensor, Any]:
        if len(_dims(inputs)) < 2:
            raise InvalidArgumentError(
                f"RNN: 'inputs' must have a batch and a time dimension, got shape {_dims(inputs)}"
            )
        return _run_cell(
            self.cell,
            inputs,
            initial_states,
            sequence_length,
            self.time_major,
            self.is_reverse,
            kwargs,
        )


class BiRNN(Layer):
    """``cell_fw`` forwards and ``cell_bw`` backwards over the steps, outputs concatenated on
    the last axis; returns (outputs, (final states of cell_fw, final states of cell_bw))."""

    def __init__(self, cell_fw: Layer, cell_bw: Layer, time_major: bool = False) -> None:
        super().__init__()
        self.cell_fw = cell_fw
        self.cell_bw = cell_bw
        if getattr(cell_fw, "input_size", None) != getattr(cell_bw, "input_size", None):
            raise InvalidArgumentError(
                f"BiRNN: the input size of the forward cell ({getattr(cell_fw, 'input_size', None)}) "
                f"differs from that of the backward cell ({getattr(cell_bw, 'input_size', None)})"
            )
        self.time_major = time_major

    def forward(
        self,
        inputs: Tensor,
        initial_states: Any = None,
        sequence_length: Tensor | None = None,
        **kwargs: Any,
    ) -> tuple[Tensor, tuple[Any, Any]]:
        if isinstance(initial_states, (list, tuple)):
            if len(initial_states) != 2:
                raise InvalidArgumentError(
                    "BiRNN: 'initial_states' must be a pair (states of cell_fw, states of "
                    f"cell_bw), got {len(initial_states)} entries"
                )
            states_fw, states_bw = initial_states
        else:
            states_fw = states_bw = None
        out_fw, final_fw = _run_cell(
            self.cell_fw, inputs, states_fw, sequence_length, self.time_major, False, kwargs
        )
        out_bw, final_bw = _run_cell(
            self.cell_bw, inputs, states_bw, sequence_length, self.time_major, True, kwargs
        )
        return op_api("concat")([out_fw, out_bw], -1), (final_fw, final_bw)


# -- the fused networks -----------------------------------------------------------------------


class RNNBase(LayerList):
    """The networks over the ``rnn`` op: ``num_layers`` layers of cells (an ``RNN`` of one cell
    per layer, or a ``BiRNN`` of two), whose parameters the op reads in PaddlePaddle's flattened
    order (every weight_ih, weight_hh pair, then every bias_ih, bias_hh pair)."""

    def __init__(
        self,
        mode: str,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        direction: str = "forward",
        time_major: bool = False,
        dropout: float = 0.0,
        weight_ih_attr: Any = None,
        weight_hh_attr: Any = None,
        bias_ih_attr: Any = None,
        bias_hh_attr: Any = None,
        proj_size: int = 0,
    ) -> None:
        super().__init__()
        owner = type(self).__name__
        _check_sizes(owner, input_size, hidden_size)
        _positive(owner, "num_layers", num_layers)
        if direction not in ("forward",) + _BIDIRECTIONAL:
            raise InvalidArgumentError(
                f"{owner}: direction must be 'forward' or 'bidirect' (or 'bidirectional'), "
                f"got {direction!r}"
            )
        if (
            isinstance(dropout, bool)
            or not isinstance(dropout, (int, float))
            or not (0.0 <= dropout <= 1.0)
        ):
            raise InvalidArgumentError(f"{owner}: dropout must be in [0, 1], got {dropout!r}")
        if proj_size:
            raise UnimplementedError(
                f"{owner}: proj_size > 0 (a projected LSTM) is not implemented by phiops's rnn op"
            )
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.dropout = dropout
        self.num_directions = 2 if direction in _BIDIRECTIONAL else 1
        self.time_major = time_major
        self.num_layers = num_layers
        self.state_components = 2 if mode == "LSTM" else 1
        self.proj_size = proj_size
        attrs = dict(
            weight_ih_attr=weight_ih_attr,
            weight_hh_attr=weight_hh_attr,
            bias_ih_attr=bias_ih_attr,
            bias_hh_attr=bias_hh_attr,
        )
        if mode == "LSTM":
            make = lambda size: LSTMCell(size, hidden_size, **attrs)  # noqa: E731
        elif mode == "GRU":
            make = lambda size: GRUCell(size, hidden_size, **attrs)  # noqa: E731
        else:
            activation = "relu" if mode == "RNN_RELU" else "tanh"
            make = lambda size: SimpleRNNCell(size, hidden_size, activation, **attrs)  # noqa: E731
        for layer in range(num_layers):
            size = input_size if layer == 0 else self.num_directions * hidden_size
            if self.num_directions == 1:
                self.append(RNN(make(size), False, time_major))
            else:
                self.append(BiRNN(make(size), make(size), time_major))
        for layer in range(num_layers):
            for direction_index in range(self.num_directions):
                suffix = "_reverse" if direction_index == 1 else ""
                cell = self._cell(layer, direction_index)
                for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
                    setattr(self, f"{name}_l{layer}{suffix}", getattr(cell, name))
        self._dropout_state = None

    def _cell(self, layer: int, direction: int) -> Layer:
        sub = self[layer]
        if self.num_directions == 1:
            return sub.cell
        return sub.cell_fw if direction == 0 else sub.cell_bw

    def _flat_weights(self) -> list[Tensor]:
        cells = [
            self._cell(layer, direction)
            for layer in range(self.num_layers)
            for direction in range(self.num_directions)
        ]
        weights = [t for cell in cells for t in (cell.weight_ih, cell.weight_hh)]
        biases = [t for cell in cells for t in (cell.bias_ih, cell.bias_hh)]
        return weights + biases

    def flatten_parameters(self) -> None:
        """PaddlePaddle copies the parameters into one cuDNN buffer here; phiops's rnn op reads
        them where they are, so there is nothing to do."""

    def forward(
        self,
        inputs: Tensor,
        initial_states: Any = None,
        sequence_length: Tensor | None = None,
    ) -> tuple[Tensor, Any]:
        owner = type(self).__name__
        _check_sequence_input(owner, inputs, self.input_size, self.time_major)
        batch_index = 1 if self.time_major else 0
        count = self.num_layers * self.num_directions
        if initial_states is None:
            batch = _dims(inputs)[batch_index]
            if batch < 0:
                raise UnimplementedError(
                    f"{owner}: the batch size of 'inputs' is unknown (a static program's -1) "
                    "and no initial_states were given; pass them, or give the batch size"
                )
            full = op_api("full")
            initial_states = [
                full([count, batch, self.hidden_size], 0.0, inputs.dtype)
                for _ in range(self.state_components)
            ]
        elif not isinstance(initial_states, (list, tuple)):
            initial_states = [initial_states]
        initial_states = list(initial_states)
        if len(initial_states) != self.state_components:
            raise InvalidArgumentError(
                f"{owner}: 'initial_states' must be {self.state_components} tensor(s) of shape "
                f"[num_layers * num_directions, batch_size, hidden_size], got "
                f"{len(initial_states)}"
            )
        if not self.time_major:
            inputs = op_api("transpose")(inputs, [1, 0, 2])
        # the op's dropout-state buffer (PaddlePaddle keeps a non-persistable uint8 parameter;
        # the kernel does not read it): an empty uint8 tensor, a Value in static mode
        dropout_state = op_api("full")([0], 0, DataType.UINT8)
        if sequence_length is not None and not hasattr(sequence_length, "shape"):
            sequence_length = to_tensor(sequence_length, dtype="int64")
        out, _, state = op_api("rnn")(
            inputs,
            initial_states,
            self._flat_weights(),
            sequence_length,
            dropout_state,
            float(self.dropout),
            self.num_directions == 2,
            self.input_size,
            self.hidden_size,
            self.num_layers,
            self.mode,
            0,
            not self.training,
        )
        if not self.time_major:
            out = op_api("transpose")(out, [1, 0, 2])
        return out, tuple(state) if len(state) > 1 else state[0]

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            text += f", num_layers={self.num_layers}"
        if self.time_major is not False:
            text += f", time_major={self.time_major}"
        if self.dropout != 0:
            text += f", dropout={self.dropout}"
        return text


class SimpleRNN(RNNBase):
    """A multi-layer Elman network, h = act(x W_ih^T + b_ih + h W_hh^T + b_hh) per layer, act
    ``tanh`` or ``relu``. Forward: (inputs, initial_states=None, sequence_length=None) ->
    (outputs, final_states [num_layers * num_directions, batch, hidden_size])."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        direction: str = "forward",
        time_major: bool = False,
        dropout: float = 0.0,
        activation: str = "tanh",
        weight_ih_attr: Any = None,
        weight_hh_attr: Any = None,
        bias_ih_attr: Any = None,
        bias_hh_attr: Any = None,
        name: str | None = None,
    ) -> None:
        if activation == "tanh":
            mode = "RNN_TANH"
        elif activation == "relu":
            mode = "RNN_RELU"
        else:
            raise InvalidArgumentError(
                f"SimpleRNN: activation must be 'tanh' or 'relu', got {activation!r}"
            )
        super().__init__(
            mode,
            input_size,
            hidden_size,
            num_layers,
            direction,
            time_major,
            dropout,
            weight_ih_attr,
            weight_hh_attr,
            bias_ih_attr,
            bias_hh_attr,
            0,
        )
        self.activation = activation


class LSTM(RNNBase):
    """A multi-layer LSTM (gates i, f, c~, o). Forward: (inputs, initial_states=None (h, c),
    sequence_length=None) -> (outputs, (h, c)), each state [num_layers * num_directions, batch,
    hidden_size]."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        direction: str = "forward",
        time_major: bool = False,
        dropout: float = 0.0,
        weight_ih_attr: Any = None,
        weight_hh_attr: Any = None,
        bias_ih_attr: Any = None,
        bias_hh_attr: Any = None,
        proj_size: int = 0,
        name: str | None = None,
    ) -> None:
        super().__init__(
            "LSTM",
            input_size,
            hidden_size,
            num_layers,
            direction,
            time_major,
            dropout,
            weight_ih_attr,
            weight_hh_attr,
            bias_ih_attr,
            bias_hh_attr,
            proj_size,
        )


class GRU(RNNBase):
    """A multi-layer GRU (gates r, z, c~, the reset gate applied after the hidden matmul).
    Forward: (inputs, initial_states=None, sequence_length=None) -> (outputs, final_states
    [num_layers * num_directions, batch, hidden_size])."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        direction: str = "forward",
        time_major: bool = False,
        dropout: float = 0.0,
        weight_ih_attr: Any = None,
        weight_hh_attr: Any = None,
        bias_ih_attr: Any = None,
        bias_hh_attr: Any = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            "GRU",
            input_size,
            hidden_size,
            num_layers,
            direction,
            time_major,
            dropout,
            weight_ih_attr,
            weight_hh_attr,
            bias_ih_attr,
            bias_hh_attr,
            0,
        )
