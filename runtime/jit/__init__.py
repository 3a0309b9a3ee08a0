"""``phi.jit``: ``save`` an eager Layer as an inference model PaddlePaddle loads, ``load`` one
back as a callable (docs/saved_models.md, Saving a Layer).

``to_static`` (runtime/jit/static_function.py) runs a Layer's forward or a function as static
programs traced per input signature, with gradients through a backward program.

``save`` traces the layer: in static mode, inside fresh programs, it makes a `pd_op.data` per
``InputSpec`` and calls the layer (in eval mode) on them, so the layer's parameters and buffers
become `builtin.parameter` ops (runtime/nn/static_call.py); ``save_inference_model`` then writes
``PREFIX.json`` and ``PREFIX.pdiparams`` with the layer's current values.
"""

from __future__ import annotations

import inspect
from typing import Any, Sequence

import numpy as np

from phiops.runtime.eager.tensor import Tensor, to_tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.ir.core import Program, Value
from phiops.runtime.static.executor import Executor
from phiops.runtime.static.input_spec import InputSpec
from phiops.runtime.static.io import PathLike, load_inference_model, save_inference_model
from phiops.runtime.static.mode import disable_static, enable_static, in_static_mode
from phiops.runtime.static.program import program_guard
from phiops.runtime.static.scope import Scope
from phiops.runtime.static.variables import data
from phiops.runtime.jit.static_function import (
    StaticFunction,
    enable_to_static,
    ignore_module,
    not_to_static,
    set_code_level,
    set_verbosity,
    to_static,
)

__all__ = [
    "save",
    "load",
    "TranslatedLayer",
    "to_static",
    "StaticFunction",
    "enable_to_static",
    "not_to_static",
    "ignore_module",
    "set_code_level",
    "set_verbosity",
]


def _feed_names(layer: Any, specs: list[InputSpec]) -> list[str]:
    """A spec's name, else the name of the forward argument it feeds (as PaddlePaddle)."""
    arguments = [
        p.name
        for p in inspect.signature(layer.forward).parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    names = []
    for index, spec in enumerate(specs):
        fallback = arguments[index] if index < len(arguments) else f"x_{index}"
        names.append(spec.name or fallback)
    if len(set(names)) != len(names):
        raise InvalidArgumentError(f"jit.save: input_spec names must be distinct, got {names}")
    return names


def _flatten(output: Any) -> list[Value]:
    """The output's tensors in order, nested lists/tuples flattened (an nn.LSTM's (out, (h, c))
    gives three fetches, as PaddlePaddle's jit.save makes them)."""
    if isinstance(output, (list, tuple)):
        return [leaf for item in output for leaf in _flatten(item)]
    items = [output]
    for item in items:
        if not isinstance(item, Value):
            raise InvalidArgumentError(
                "jit.save: the layer's forward must return a tensor or a list/tuple of tensors "
                f"computed from its inputs, got {type(item).__name__}"
            )
    return items


def save(layer: Any, path: PathLike, input_spec: Sequence[InputSpec] | None = None) -> None:
    """Write ``layer`` (a ``phi.nn.Layer``) as ``path.json`` + ``path.pdiparams``, an inference
    model of its forward in eval mode with its current parameter values; ``input_spec`` gives
    one ``InputSpec`` per forward input (for a ``to_static`` layer, the ``input_spec`` it was
    given when this is None). `paddle.jit.load` and
    `paddle.static.load_inference_model` read the files."""
    from phiops.runtime.nn.layer import Layer

    if not isinstance(layer, Layer):
        raise InvalidArgumentError(
            f"jit.save: argument 'layer' expects a phi.nn.Layer, got {type(layer).__name__}"
        )
    if input_spec is None and isinstance(layer.__dict__.get("forward"), StaticFunction):
        input_spec = layer.__dict__["forward"].input_spec
    if not input_spec or not all(isinstance(s, InputSpec) for s in input_spec):
        raise InvalidArgumentError(
            "jit.save: argument 'input_spec' expects a non-empty list of "
            "phi.static.InputSpec (one per forward input)"
        )
    if in_static_mode():
        raise InvalidArgumentError(
            "jit.save: call it in dynamic mode (phi.disable_static() first); it builds its own "
            "program"
        )
    specs = list(input_spec)
    names = _feed_names(layer, specs)
    modes = [(sublayer, sublayer.training) for sublayer in layer.sublayers(include_self=True)]
    layer.eval()
    main = Program()
    enable_static()
    try:
        with program_guard(main, Program()):
            feeds = [data(n, list(s.shape), s.dtype) for n, s in zip(names, specs)]
            fetches = _flatten(layer(*feeds))
    finally:
        disable_static()
        for sublayer, training in modes:
            object.__setattr__(sublayer, "training", training)
    tensors = [*layer.parameters(), *layer.buffers()]
    scope = {t.name: t.numpy() for t in tensors if t.name is not None}
    save_inference_model(path, feeds, fetches, None, main, scope=scope)


class TranslatedLayer:
    """A loaded inference model: call it with one array or Tensor per input (in the saved
    order); it returns a Tensor, or a list of them for a model with several outputs."""

    def __init__(self, path: PathLike) -> None:
        self._scope = Scope()
        program, feed_names, fetch_targets = load_inference_model(path, None, scope=self._scope)
        self.program = program
        self.input_names = feed_names
        self._fetches = fetch_targets
        self._executor = Executor()

    def __call__(self, *inputs: Any) -> Tensor | list[Tensor]:
        if len(inputs) != len(self.input_names):
            raise InvalidArgumentError(
                f"jit.load: the model takes {len(self.input_names)} input(s) "
                f"{self.input_names}, got {len(inputs)}"
            )
        feed = {
            name: value.numpy() if isinstance(value, Tensor) else np.asarray(value)
            for name, value in zip(self.input_names, inputs)
        }
        outputs = self._executor.run(self.program, feed, self._fetches, scope=self._scope)
        tensors = [to_tensor(np.asarray(out)) for out in outputs]
        return tensors[0] if len(tensors) == 1 else tensors

    def eval(self) -> TranslatedLayer:
        return self


def load(path: PathLike) -> TranslatedLayer:
    """The model ``save`` (or `paddle.jit.save`) wrote at ``path``, as a callable."""
    return TranslatedLayer(path)
