"""``paddle.summary``: the table of a network's layers (input and output shapes, parameter
counts) printed as PaddlePaddle 3.3.1 prints it, from one forward pass with forward post-hooks."""

from __future__ import annotations

import numbers
from collections import OrderedDict
from typing import Any

import numpy as np

from phiops.runtime.autograd import no_grad
from phiops.runtime.common import to_data_type
from phiops.runtime.eager.tensor import Tensor, to_tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.nn.layer import Layer, LayerList, Sequential, _is_parameter
from phiops.runtime.static.input_spec import InputSpec

__all__ = ["summary", "summary_string"]


def _apply(layer: Layer, fn: Any) -> None:
    """PaddlePaddle's ``Layer.apply``: children first, then the layer."""
    for child in layer.children():
        _apply(child, fn)
    fn(layer)


def paddle_parameters(layer: Layer) -> list[Any]:
    """The layer's own tensors that PaddlePaddle counts as its parameters: its parameters and
    the buffers made as parameters (BatchNorm's running mean and variance are non-trainable
    parameters in PaddlePaddle, buffers in phiops)."""
    own = [v for v in layer._parameters.values() if v is not None]
    return own + [v for v in layer._buffers.values() if v is not None and _is_parameter(v)]


def _all_is_number(items: Any) -> bool:
    return all(isinstance(item, numbers.Number) for item in items)


def _is_shape(shape: Any) -> bool:
    return not any(isinstance(item, (list, tuple)) for item in shape)


def _check_shape(shape: Any) -> tuple[int, ...]:
    unknown = 0
    out = []
    for item in shape:
        if item is None or item == -1:
            unknown += 1
            if unknown > 1:
                raise InvalidArgumentError(
                    "summary: Option input_size only the dim of batch_size can be None or -1."
                )
            item = 1
        elif isinstance(item, numbers.Number) and item <= 0:
            raise InvalidArgumentError(
                f"summary: Expected element in input size greater than zero, but got {item}"
            )
        out.append(item)
    return tuple(out)


def _check_input(size: Any) -> Any:
    if isinstance(size, (list, tuple)) and _is_shape(size):
        return _check_shape(size)
    if not isinstance(size, (list, tuple)):
        raise InvalidArgumentError(
            f"summary: input_size expects a tuple of ints, an InputSpec or a list of them, got {size!r}"
        )
    return [_check_input(i) for i in size]


def _normalise_size(input_size: Any, input: Any) -> Any:
    if input_size is None and input is None:
        raise InvalidArgumentError("summary: input_size and input cannot be None at the same time")
    if input_size is None:
        if isinstance(input, Tensor):
            return tuple(input.shape)
        if isinstance(input, (list, tuple)):
            return [tuple(x.shape) for x in input]
        if isinstance(input, dict):
            return [tuple(input[k].shape) for k in input]
        raise InvalidArgumentError(
            "summary: Input is not tensor, list, tuple and dict, unable to determine input_size, "
            "please input input_size."
        )
    if isinstance(input_size, InputSpec):
        return tuple(input_size.shape)
    if isinstance(input_size, list):
        out: list[Any] = []
        for item in input_size:
            if isinstance(item, int):
                item = (item,)
            if not isinstance(item, (tuple, InputSpec)):
                raise InvalidArgumentError(
                    "summary: When input_size is list, expect item in input_size is a tuple or "
                    f"InputSpec, but got {type(item)}"
                )
            out.append(tuple(item.shape) if isinstance(item, InputSpec) else item)
        return out
    if isinstance(input_size, int):
        return (input_size,)
    return input_size


def summary(
    net: Layer, input_size: Any = None, dtypes: Any = None, input: Any = None
) -> dict[str, int]:
    """Print ``net``'s layer table for inputs of ``input_size`` (a shape tuple with at most one
    None/-1 batch extent, an InputSpec, or a list of them; ``dtypes`` their dtypes, float32 by
    default) or for the given ``input`` tensors, and return ``{'total_params': ...,
    'trainable_params': ...}``."""
    if not isinstance(net, Layer):
        raise InvalidArgumentError(
            f"summary: argument 'net' expects a paddle.nn.Layer, got {type(net).__name__}"
        )
    size = _check_input(_normalise_size(input_size, input))
    in_train_mode = net.training
    if in_train_mode:
        net.eval()
    try:
        result, params_info = summary_string(net, size, dtypes, input)
    finally:
        if in_train_mode:
            net.train()
    print(result)
    return params_info


def _shape_of(x: Any) -> Any:
    if isinstance(x, Tensor):
        return list(x.shape)
    if isinstance(x, (list, tuple)):
        return [_shape_of(xx) for xx in x]
    return None


def _output_shape(output: Any) -> Any:
    if isinstance(output, (list, tuple)):
        return [_output_shape(o) for o in output]
    if hasattr(output, "shape"):
        return list(output.shape)
    return []


@no_grad()
def summary_string(
    model: Layer, input_size: Any = None, dtypes: Any = None, input: Any = None
) -> tuple[str, dict[str, int]]:
    """The table ``summary`` prints and its parameter counts."""

    def build_dtypes(size: Any, dtype: Any) -> Any:
        dtype = "float32" if dtype is None else dtype
        if isinstance(size, (list, tuple)) and _all_is_number(size):
            return [dtype]
        return [build_dtypes(i, dtype) for i in size]

    if not isinstance(dtypes, (list, tuple)):
        dtypes = build_dtypes(input_size, dtypes)
    depth = len(list(model.sublayers()))
    table: OrderedDict[str, dict[str, Any]] = OrderedDict()
    hooks = []

    def hook(layer: Layer, inputs: Any, output: Any) -> None:
        class_name = type(layer).__name__
        try:
            layer_idx = int(layer.full_name().split("_")[-1])
        except ValueError:
            layer_idx = len(table)
        entry: dict[str, Any] = {
            "input_shape": _shape_of(inputs) or [],
            "output_shape": _output_shape(output),
            "trainable_params": 0,
        }
        table[f"{class_name}-{layer_idx + 1}"] = entry
        params = 0
        trainable_flag = False
        for value in paddle_parameters(layer):
            params += int(np.prod(value.shape))
            if not value.stop_gradient:
                entry["trainable_params"] += int(np.prod(value.shape))
                entry["trainable"] = True
                trainable_flag = True
            elif not trainable_flag:
                entry["trainable"] = False
        entry["nb_params"] = params

    def register(layer: Layer) -> None:
        if not isinstance(layer, (Sequential, LayerList)) and (layer is not model or depth < 1):
            hooks.append(layer.register_forward_post_hook(hook))

    if isinstance(input_size, tuple):
        input_size = [input_size]

    def build_input(size: Any, dtype: Any) -> Any:
        if isinstance(size, (list, tuple)) and _all_is_number(size):
            dtype = dtype[0] if isinstance(dtype, (list, tuple)) else dtype
            numpy_dtype = to_data_type(dtype, "summary(): argument 'dtypes'").numpy_dtype
            return to_tensor(np.random.rand(*size).astype(numpy_dtype))
        return [build_input(i, d) for i, d in zip(size, dtype)]

    _apply(model, register)
    try:
        if input is not None:
            model(input)
        else:
            model(*build_input(input_size, dtypes))
    finally:
        for h in hooks:
            h.remove()

    widths = {
        "layer_width": 15,
        "input_shape_width": 20,
        "output_shape_width": 20,
        "params_width": 15,
        "table_width": 75,
    }
    for name, entry in table.items():
        widths["output_shape_width"] = max(
            widths["output_shape_width"], len(str(entry["output_shape"]))
        )
        widths["input_shape_width"] = max(
            widths["input_shape_width"], len(str(entry["input_shape"]))
        )
        widths["layer_width"] = max(widths["layer_width"], len(str(name)))
        widths["params_width"] = max(widths["params_width"], len(str(entry["nb_params"])))
    inner = sum(v for k, v in widths.items() if k != "table_width")
    widths["table_width"] = max(widths["table_width"], inner + 5)

    def row(a: str, b: str, c: str, d: str) -> str:
        return "{:^{}} {:^{}} {:^{}} {:^{}}".format(
            a,
            widths["layer_width"],
            b,
            widths["input_shape_width"],
            c,
            widths["output_shape_width"],
            d,
            widths["params_width"],
        )

    width = widths["table_width"]
    lines = [
        "-" * width,
        row("Layer (type)", "Input Shape", "Output Shape", "Param #"),
        "=" * width,
    ]
    total_params = 0
    total_output = 0
    trainable_params = 0
    for name, entry in table.items():
        lines.append(
            row(
                name,
                str(entry["input_shape"]),
                str(entry["output_shape"]),
                "{:,}".format(entry["nb_params"]),
            )
        )
        total_params += entry["nb_params"]
        try:
            total_output += np.sum(np.prod(entry["output_shape"], axis=-1))
        except ValueError:
            for shape in entry["output_shape"]:
                total_output += np.sum(np.prod(shape, axis=-1))
        if entry.get("trainable"):
            trainable_params += entry["trainable_params"]

    def input_mb(size: Any) -> float:
        if isinstance(size, (list, tuple)) and _all_is_number(size):
            return abs(np.prod(size) * 4.0 / 1024**2.0)
        return sum(input_mb(i) for i in size)

    total_input_size = input_mb(input_size)
    total_output_size = abs(2.0 * total_output * 4.0 / 1024**2.0)
    total_params_size = abs(total_params * 4.0 / 1024**2.0)
    total_size = total_params_size + total_output_size + total_input_size
    lines += [
        "=" * width,
        f"Total params: {total_params:,}",
        f"Trainable params: {trainable_params:,}",
        f"Non-trainable params: {total_params - trainable_params:,}",
        "-" * width,
        f"Input size (MB): {total_input_size:0.2f}",
        f"Forward/backward pass size (MB): {total_output_size:0.2f}",
        f"Params size (MB): {total_params_size:0.2f}",
        f"Estimated Total Size (MB): {total_size:0.2f}",
        "-" * width,
    ]
    return "\n".join(lines) + "\n", {
        "total_params": int(total_params),
        "trainable_params": int(trainable_params),
    }
