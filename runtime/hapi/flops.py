"""``paddle.flops`` for a ``Layer``: one forward pass with a counting hook on every leaf layer,
by PaddlePaddle 3.3.1's per-layer rules (``paddle/hapi/dynamic_flops.py``); layers without a
rule count zero, ``custom_ops`` maps a layer type to a ``fn(layer, inputs, output)`` that adds to
``layer.total_ops``."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from phiops.runtime.autograd import no_grad
from phiops.runtime.eager.tensor import to_tensor
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.nn import layers as L
from phiops.runtime.hapi.summary import paddle_parameters
from phiops.runtime.nn.layer import Layer

__all__ = ["flops"]


def _numel(t: Any) -> int:
    return int(np.prod(t.shape))


def _groups(m: Layer) -> int:
    options = getattr(m, "_options", None)
    if isinstance(options, dict) and "groups" in options:
        return int(options["groups"])
    return int(getattr(m, "_groups", 1))


def count_convNd(m: Any, x: Any, y: Any) -> None:
    x = x[0]
    kernel_ops = np.prod(m.weight.shape[2:])
    bias_ops = 1 if m.bias is not None else 0
    total = _numel(y) * (x.shape[1] / _groups(m) * kernel_ops + bias_ops)
    m.total_ops += abs(int(total))


def count_leaky_relu(m: Any, x: Any, y: Any) -> None:
    m.total_ops += _numel(x[0])


def count_bn(m: Any, x: Any, y: Any) -> None:
    # PaddlePaddle counts only eval mode (flops() runs the network in eval mode)
    m.total_ops += abs(int(2 * _numel(x[0])))


def count_linear(m: Any, x: Any, y: Any) -> None:
    m.total_ops += abs(int(m.weight.shape[0] * _numel(y)))


def count_avgpool(m: Any, x: Any, y: Any) -> None:
    m.total_ops += _numel(y)


def count_adap_avgpool(m: Any, x: Any, y: Any) -> None:
    kernel = np.array(x[0].shape[2:]) // np.array(y.shape[2:])
    m.total_ops += abs(int((np.prod(kernel) + 1) * _numel(y)))


def count_zero_ops(m: Any, x: Any, y: Any) -> None:
    m.total_ops += 0


# exact types, as PaddlePaddle looks them up (a subclass has no rule of its own)
register_hooks: dict[type, Callable[..., None]] = {
    L.Conv2D: count_convNd,
    L.Conv2DTranspose: count_convNd,
    L.BatchNorm2D: count_bn,
    L.ReLU: count_zero_ops,
    L.Linear: count_linear,
    L.Dropout: count_zero_ops,
    L.AvgPool2D: count_avgpool,
    L.AdaptiveAvgPool2D: count_adap_avgpool,
}


class Table:
    """PaddlePaddle's ``+---+`` table of ``print_detail``."""

    def __init__(self, table_heads: list[str]) -> None:
        self.table_heads = table_heads
        self.table_len = [len(h) for h in table_heads]
        self.data: list[list[Any]] = []

    def add_row(self, row: list[Any]) -> None:
        for i, cell in enumerate(row):
            self.table_len[i] = max(self.table_len[i], len(str(cell)))
        self.data.append(row)

    def _row(self, row: list[Any]) -> str:
        return "".join("|" + str(c).center(n + 2) for c, n in zip(row, self.table_len)) + "|"

    def _shelf(self) -> str:
        return "".join("+" + "-" * (n + 2) for n in self.table_len) + "+"

    def print_table(self) -> None:
        print(self._shelf())
        print(self._row(self.table_heads))
        print(self._shelf())
        for row in self.data:
            print(self._row(row))
        print(self._shelf())


def _leaf(m: Layer) -> bool:
    return not any(True for _ in m.children())


def flops(
    net: Any, input_size: list[int], custom_ops: dict | None = None, print_detail: bool = False
) -> int:
    """The FLOPs of one forward pass of ``net`` on a random float32 input of ``input_size``
    (printed as ``Total Flops: ... Total Params: ...``; ``print_detail`` prints the per-layer
    table first). A static Program is not supported."""
    if not isinstance(net, Layer):
        from phiops.runtime.ir import Program as _IRProgram

        if isinstance(net, _IRProgram) or type(net).__name__ == "Program":
            raise UnimplementedError(
                "paddle.flops of a static Program is not implemented in phiops"
            )
        raise InvalidArgumentError(
            f"flops: Your model must be an instance of paddle.nn.Layer or paddle.static.Program, got {type(net).__name__}"
        )
    if not isinstance(input_size, (list, tuple)) or not all(
        isinstance(d, int) and d > 0 for d in input_size
    ):
        raise InvalidArgumentError(
            f"flops: input_size expects a list of positive ints, got {input_size!r}"
        )
    custom_ops = custom_ops or {}
    handles = []
    seen: set[type] = set()
    counted: list[Layer] = []

    def count_parameters(m: Any, x: Any, y: Any) -> None:
        m.total_params = abs(
            sum(_numel(p) for s in m.sublayers(include_self=True) for p in paddle_parameters(s))
        )

    def count_io(m: Any, x: Any, y: Any) -> None:
        object.__setattr__(m, "input_shape", list(x[0].shape))
        first = y[0] if isinstance(y, (list, tuple)) else y
        object.__setattr__(m, "output_shape", list(first.shape))

    def add_hooks(m: Layer) -> None:
        if not _leaf(m):
            return
        object.__setattr__(m, "total_ops", 0)
        object.__setattr__(m, "total_params", 0)
        m_type = type(m)
        fn = None
        if m_type in custom_ops:
            fn = custom_ops[m_type]
            if m_type not in seen:
                print(f"Customize Function has been applied to {m_type}")
        elif m_type in register_hooks:
            fn = register_hooks[m_type]
            if m_type not in seen:
                print(f"{m_type}'s flops has been counted")
        elif m_type not in seen:
            print(f"Cannot find suitable count function for {m_type}. Treat it as zero FLOPs.")
        if fn is not None:
            handles.append(m.register_forward_post_hook(fn))
        handles.append(m.register_forward_post_hook(count_parameters))
        handles.append(m.register_forward_post_hook(count_io))
        seen.add(m_type)
        counted.append(m)

    def apply(m: Layer) -> None:
        for child in m.children():
            apply(child)
        add_hooks(m)

    training = net.training
    net.eval()
    apply(net)
    try:
        with no_grad():
            net(to_tensor(np.random.randn(*input_size).astype("float32")))
    finally:
        for h in handles:
            h.remove()
        if training:
            net.train()
    total_ops = 0
    total_params = 0
    table = Table(["Layer Name", "Input Shape", "Output Shape", "Params", "Flops"])
    marked = {id(m) for m in counted}
    for m in net.sublayers():
        if id(m) in marked and hasattr(m, "output_shape"):
            total_ops += int(m.total_ops)
            total_params += int(m.total_params)
            table.add_row(
                [
                    m.full_name(),
                    m.input_shape,
                    m.output_shape,
                    int(m.total_params),
                    int(m.total_ops),
                ]
            )
    for m in counted:
        for attr in ("total_ops", "total_params", "input_shape", "output_shape"):
            m.__dict__.pop(attr, None)
    if print_detail:
        table.print_table()
    print(f"Total Flops: {int(total_ops)}     Total Params: {int(total_params)}")
    return int(total_ops)
