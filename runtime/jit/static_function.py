"""``paddle.jit.to_static`` (runtime/jit/static_function.py, named so that the package's ``to_static``
function does not hide the module): run a Layer's forward or a Python function as a static program.

phiops translates by tracing, as ``jit.save`` does: the first call per input signature (each
Tensor argument's shape and dtype, or the ``InputSpec``\\ s given, plus the other arguments'
values) runs the function in static mode over one `pd_op.data` per Tensor argument, so every API
call appends its op to a fresh program; later calls with that signature run the program with the
``Executor``. The parameters of the Layers it calls (the decorated Layer's, or those a plain
function reaches through its closure and globals) are the program's `builtin.parameter`\\ s, read
from the Layers' own tensors at each run, so an optimizer's updates are seen.

Gradients. When a call needs them (grad mode on, and an input or parameter that needs a
gradient), the outputs get one eager grad node. A second program, traced with the first, holds
the same forward and its backward (runtime/static/backward.py's ``gradients``, seeded by a
`pd_op.data` per output gradient); the node runs it with the call's inputs and the arriving
output gradients, and hands the engine the gradients of the inputs and parameters. The forward
is so computed again in the backward pass (no activations are kept between the two executor
runs); the grad node holds only the call's input arrays and the random generators' states
of the forward run, restored for the backward run so that it draws the same numbers (dropout's
mask). A Layer's train/eval flags are part of the signature. A higher-order gradient through it
(``create_graph=True``) is not implemented.

Python control flow that depends on a tensor's value (``if x.sum() > 0:``) cannot be traced: the
value exists only when the program runs. The error names the function and points to
``paddle.static.nn.cond``.
"""

from __future__ import annotations

import functools
import inspect
import types
from typing import Any, Callable, Sequence

from phiops.runtime.autograd import GRAD_MODE
from phiops.runtime.autograd.grad_node import NodeSpec, PythonGradNode
from phiops.runtime.autograd.record import edge_of
from phiops.runtime.common import CPUPlace
from phiops.runtime.random import engine_for, generator_for
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import (
    InvalidArgumentError,
    PreconditionNotMetError,
    UnimplementedError,
)
from phiops.runtime.ir.core import Program, Value
from phiops.runtime.static.backward import gradients
from phiops.runtime.static.executor import Executor
from phiops.runtime.static.input_spec import InputSpec
from phiops.runtime.static.mode import disable_static, enable_static, in_static_mode
from phiops.runtime.static.program import program_guard
from phiops.runtime.static.scope import Scope
from phiops.runtime.static.variables import data

__all__ = [
    "to_static",
    "StaticFunction",
    "enable_to_static",
    "not_to_static",
    "ignore_module",
    "set_code_level",
    "set_verbosity",
]


class _Switch:
    enabled = True


_SWITCH = _Switch()
_IGNORED_MODULES: list[types.ModuleType] = []


def enable_to_static(enable_to_static_bool: bool) -> None:
    """Turn translation on (the default) or off for every ``to_static`` function: off, they
    run their Python eagerly."""
    if not isinstance(enable_to_static_bool, bool):
        raise InvalidArgumentError(
            "enable_to_static(): argument 'enable_to_static_bool' expects a bool, got "
            f"{type(enable_to_static_bool).__name__}"
        )
    _SWITCH.enabled = enable_to_static_bool


def not_to_static(func: Callable | None = None) -> Any:
    """Mark ``func`` to stay Python (usable as a decorator): ``to_static`` of it returns it
    unchanged. Called from inside a traced function it is traced with it, as every Python
    call there runs while the program is built."""
    if func is None:
        return not_to_static
    if not callable(func):
        raise InvalidArgumentError(
            f"not_to_static(): argument 'func' expects a callable, got {type(func).__name__}"
        )
    try:
        func._not_to_static = True
    except AttributeError:
        pass
    return func


def ignore_module(modules: list[types.ModuleType]) -> None:
    """Record ``modules`` as ones whose functions translation leaves alone. phiops translates by
    tracing, which runs every Python call, so the list changes nothing; it is kept (and
    checked) for code written for PaddlePaddle."""
    if not isinstance(modules, (list, tuple)) or not all(
        isinstance(m, types.ModuleType) for m in modules
    ):
        raise InvalidArgumentError(
            "ignore_module(): argument 'modules' expects a list of modules, got "
            f"{type(modules).__name__} {modules!r}"
        )
    _IGNORED_MODULES.extend(modules)


def _level(function: str, level: Any, also_to_stdout: Any) -> None:
    if isinstance(level, bool) or not isinstance(level, int):
        raise InvalidArgumentError(
            f"{function}(): argument 'level' expects an int, got {type(level).__name__}"
        )
    if not isinstance(also_to_stdout, bool):
        raise InvalidArgumentError(
            f"{function}(): argument 'also_to_stdout' expects a bool, got "
            f"{type(also_to_stdout).__name__}"
        )


def set_code_level(level: int = 100, also_to_stdout: bool = False) -> None:
    """PaddlePaddle prints the translated code at ``level``; phiops traces and translates no
    code, so this checks its arguments and does nothing (print a traced program with
    ``StaticFunction.program(...)``)."""
    _level("set_code_level", level, also_to_stdout)


def set_verbosity(level: int = 0, also_to_stdout: bool = False) -> None:
    """PaddlePaddle logs its translation at ``level``; phiops's tracing logs nothing, so this
    checks its arguments and does nothing."""
    _level("set_verbosity", level, also_to_stdout)


# ---- tracing -------------------------------------------------------------------------------


def _key_of(value: Any) -> Any:
    """A hashable stand-in for a non-Tensor argument (it is a constant of the program)."""
    try:
        hash(value)
        return (type(value).__name__, value)
    except TypeError:
        return (type(value).__name__, repr(value))


def _flatten(output: Any, where: str) -> tuple[list[Any], Any]:
    """The output's leaves (Values, or constants) in order, and its structure."""
    if isinstance(output, (list, tuple)):
        leaves: list[Any] = []
        structure = []
        for item in output:
            found, shape = _flatten(item, where)
            leaves.extend(found)
            structure.append(shape)
        return leaves, (type(output), structure)
    if isinstance(output, Value):
        return [output], None
    if isinstance(output, Tensor):
        raise InvalidArgumentError(
            f"to_static: {where} returned an eager Tensor that its inputs do not compute (a "
            "captured constant); return values computed from the inputs or parameters"
        )
    return [output], "constant"


def _rebuild(leaves: list[Any], structure: Any) -> Any:
    iterator = iter(leaves)

    def build(shape: Any) -> Any:
        if shape is None or shape == "constant":
            return next(iterator)
        kind, items = shape
        return kind(build(item) for item in items)

    return build(structure)


def _layers_reached(function: Any) -> list[Any]:
    """The Layers a function can call: the one it is bound to, and those in its closure and
    the globals its code names."""
    from phiops.runtime.nn.layer import Layer

    found: list[Any] = []
    owner = getattr(function, "__self__", None)
    if isinstance(owner, Layer):
        found.append(owner)
    code_function = getattr(function, "__func__", function)
    for cell in getattr(code_function, "__closure__", None) or ():
        try:
            content = cell.cell_contents
        except ValueError:
            continue
        if isinstance(content, Layer):
            found.append(content)
    code = getattr(code_function, "__code__", None)
    namespace = getattr(code_function, "__globals__", {})
    if code is not None:
        for name in code.co_names:
            if isinstance(namespace.get(name), Layer):
                found.append(namespace[name])
    return found


def _tensors_by_name(layers: list[Any]) -> dict[str, Tensor]:
    found: dict[str, Tensor] = {}
    for layer in layers:
        for tensor in [*layer.parameters(), *layer.buffers()]:
            if tensor.name is not None:
                found.setdefault(tensor.name, tensor)
    return found


class _Traced:
    """One input signature's programs: the forward (``main``) and the forward with its backward
    (``train``), their feeds, fetches and parameters."""

    def __init__(self) -> None:
        self.main = Program()
        self.train = Program()
        self.feed_names: list[str] = []
        self.structure: Any = None
        self.outputs: list[Any] = []  # Values of main, or constants
        self.parameters: list[tuple[str, Tensor, bool]] = []  # name, tensor, trainable
        self.train_outputs: list[Value] = []
        self.grad_feeds: list[str] = []  # one per differentiable output, in order
        self.differentiable: list[int] = []  # positions in outputs of those
        self.input_grads: list[Value | None] = []  # per feed
        self.parameter_grads: list[Value | None] = []  # per parameter


def _describe(function: Any) -> str:
    owner = getattr(function, "__self__", None)
    name = getattr(function, "__qualname__", None) or repr(function)
    return (
        f"{type(owner).__name__}.forward"
        if owner is not None and name.endswith("forward")
        else name
    )


def _parameter_ops(program: Program) -> list[Any]:
    return [op for op in program.block.ops if op.name == "builtin.parameter"]


class StaticFunction:
    """A function (or a Layer's forward) translated to static programs by tracing, one per
    input signature; call it as the function. ``program(*args)`` gives the forward program
    traced for those arguments; ``rollback()`` the original function."""

    def __init__(
        self,
        function: Callable,
        input_spec: Sequence[InputSpec] | None = None,
        build_strategy: Any = None,
        backend: Any = None,
        **kwargs: Any,
    ) -> None:
        self._function = function
        self._input_spec = None if input_spec is None else list(input_spec)
        self._build_strategy = build_strategy
        self._backend = backend
        self._kwargs = kwargs
        self._traced: dict[Any, _Traced] = {}
        self._executor = Executor()
        self._scope = Scope()
        functools.update_wrapper(self, function)

    @property
    def dygraph_function(self) -> Callable:
        """The Python function being translated."""
        return self._function

    @property
    def input_spec(self) -> list[InputSpec] | None:
        return self._input_spec

    @property
    def trace_count(self) -> int:
        """How many input signatures were traced so far."""
        return len(self._traced)

    def rollback(self) -> Callable:
        """The original function (for a Layer's forward, the Layer's own forward again)."""
        owner = getattr(self._function, "__self__", None)
        if owner is not None and owner.__dict__.get("forward") is self:
            del owner.__dict__["forward"]
        return self._function

    def __get__(self, instance: Any, owner: Any) -> Any:
        """Decorating a method in a class body: one StaticFunction per instance, bound."""
        if instance is None:
            return self
        key = f"_to_static_{id(self)}"
        bound = instance.__dict__.get(key)
        if bound is None:
            bound = StaticFunction(
                types.MethodType(self._function, instance),
                self._input_spec,
                self._build_strategy,
                self._backend,
                **self._kwargs,
            )
            instance.__dict__[key] = bound
        return bound

    def _split(self, args: tuple, kwargs: dict) -> tuple[list[Tensor], Any]:
        """The Tensor arguments in order and a key of the other ones (and of the train/eval
        flags of the Layer a method is bound to, which change what its forward builds)."""
        from phiops.runtime.nn.layer import Layer

        tensors: list[Tensor] = []
        constants: list[Any] = []
        owner = getattr(self._function, "__self__", None)
        if isinstance(owner, Layer):
            constants.append(tuple(layer.training for layer in owner.sublayers(include_self=True)))
        for position, value in enumerate(args):
            if isinstance(value, Tensor):
                tensors.append(value)
                constants.append(("tensor", position))
            else:
                constants.append(_key_of(value))
        for name in sorted(kwargs):
            value = kwargs[name]
            if isinstance(value, Tensor):
                tensors.append(value)
                constants.append(("tensor", name))
            else:
                constants.append((name, _key_of(value)))
        return tensors, tuple(constants)

    def _specs(self, tensors: list[Tensor]) -> list[tuple[list[int], Any]]:
        """(shape, dtype) each Tensor argument is traced with: its own, or its InputSpec's
        (checked against it)."""
        if self._input_spec is None:
            return [(list(t.shape), t.dtype) for t in tensors]
        if len(self._input_spec) != len(tensors):
            raise InvalidArgumentError(
                f"to_static: {_describe(self._function)} has input_spec for "
                f"{len(self._input_spec)} Tensor argument(s), got {len(tensors)}"
            )
        traced = []
        for position, (spec, tensor) in enumerate(zip(self._input_spec, tensors)):
            shape = list(spec.shape)
            if len(shape) != len(tensor.shape) or any(
                s not in (-1, None) and s != t for s, t in zip(shape, tensor.shape)
            ):
                raise InvalidArgumentError(
                    f"to_static: {_describe(self._function)}'s input {position} has shape "
                    f"{list(tensor.shape)}, which its InputSpec {shape} does not admit"
                )
            from phiops.runtime.common import to_data_type

            dtype = to_data_type(spec.dtype, "InputSpec dtype")
            if dtype is not tensor.dtype:
                raise InvalidArgumentError(
                    f"to_static: {_describe(self._function)}'s input {position} has dtype "
                    f"{tensor.dtype.name.lower()}, its InputSpec says {dtype.name.lower()}"
                )
            traced.append(([-1 if s is None else s for s in shape], dtype))
        return traced

    def _call_traced(self, feeds: list[Value], args: tuple, kwargs: dict) -> Any:
        """Call the function on Values in static mode (``feeds`` replace the Tensor arguments),
        a Layer's forward inside its static state; control flow on values named."""
        from phiops.runtime.nn.layer import Layer
        from phiops.runtime.nn.static_call import static_state, struct_name_scope

        iterator = iter(feeds)
        args = tuple(next(iterator) if isinstance(a, Tensor) else a for a in args)
        kwargs = {
            k: next(iterator) if isinstance(kwargs[k], Tensor) else kwargs[k]
            for k in sorted(kwargs)
        }
        owner = getattr(self._function, "__self__", None)
        try:
            if isinstance(owner, Layer):
                with static_state(owner), struct_name_scope(owner):
                    return self._function(*args, **kwargs)
            return self._function(*args, **kwargs)
        except PreconditionNotMetError as error:
            if "bool(Value)" not in str(error):
                raise
            raise UnimplementedError(
                f"to_static: {_describe(self._function)} branches or loops on a tensor's value "
                "(`if`/`while` on a Tensor), which tracing cannot decide while the program is "
                "built; write the branch with paddle.static.nn.cond (or paddle.where), the loop "
                "with paddle.static.nn.while_loop, or keep the function eager "
                "(paddle.jit.enable_to_static(False))"
            ) from None

    def _trace(self, tensors: list[Tensor], args: tuple, kwargs: dict) -> _Traced:
        traced = _Traced()
        specs = self._specs(tensors)
        traced.feed_names = [f"_jst_input_{i}" for i in range(len(tensors))]
        where = _describe(self._function)
        enable_static()
        try:
            with program_guard(traced.main, Program()):
                feeds = [data(n, s, d) for n, (s, d) in zip(traced.feed_names, specs)]
                leaves, traced.structure = _flatten(self._call_traced(feeds, args, kwargs), where)
                traced.outputs = leaves
            with program_guard(traced.train, Program()):
                feeds = [data(n, s, d) for n, (s, d) in zip(traced.feed_names, specs)]
                for feed in feeds:
                    if feed.dtype.is_floating_point:
                        feed.stop_gradient = False
                train_leaves, _ = _flatten(self._call_traced(feeds, args, kwargs), where)
                outputs = [v for v in train_leaves if isinstance(v, Value)]
                traced.differentiable = [
                    i
                    for i, v in enumerate(train_leaves)
                    if isinstance(v, Value) and not v.stop_gradient and v.dtype.is_floating_point
                ]
                parameters = _parameter_ops(traced.train)
                wanted = [f for f in feeds if not f.stop_gradient] + [
                    op.results[0] for op in parameters if not op.results[0].stop_gradient
                ]
                seeds = []
                for position in traced.differentiable:
                    value = train_leaves[position]
                    name = f"_jst_output_grad_{position}"
                    traced.grad_feeds.append(name)
                    seeds.append(data(name, list(value.shape), value.dtype))
                found: dict[int, Value | None] = {}
                if traced.differentiable and wanted:
                    results = gradients(
                        [train_leaves[i] for i in traced.differentiable], wanted, seeds
                    )
                    found = {id(v): g for v, g in zip(wanted, results)}
                traced.input_grads = [found.get(id(f)) for f in feeds]
                traced.parameter_grads = [found.get(id(op.results[0])) for op in parameters]
                traced.train_outputs = outputs
        finally:
            disable_static()
        tensors_by_name = _tensors_by_name(_layers_reached(self._function))
        for op in _parameter_ops(traced.train):
            name = op.attributes["parameter_name"].value
            tensor = tensors_by_name.get(name)
            if tensor is None:
                raise InvalidArgumentError(
                    f"to_static: {where} uses parameter {name!r}, which no Layer it reaches "
                    "(its own, or one in its closure or globals) holds"
                )
            trainable = op.attributes["trainable"].value[0].value
            traced.parameters.append((name, tensor, bool(trainable)))
        return traced

    def _feed(self, traced: _Traced, tensors: list[Tensor]) -> dict[str, Any]:
        for name, tensor, _ in traced.parameters:
            self._scope.var(name).set(tensor.array)
        return {name: tensor.array for name, tensor in zip(traced.feed_names, tensors)}

    def _write_back(self, traced: _Traced) -> None:
        """Values the program updated in place (batch norm's running statistics) go back to
        the Layer's tensors."""
        for name, tensor, trainable in traced.parameters:
            if not trainable:
                array = self._scope.get(name)
                if array is not tensor.array:
                    tensor.set_value(array)

    def program(self, *args: Any, **kwargs: Any) -> Program:
        """The forward program traced for these arguments (traced now if it was not)."""
        tensors, key = self._split(args, kwargs)
        key = (key, tuple((tuple(s), d) for s, d in self._specs(tensors)))
        if key not in self._traced:
            self._traced[key] = self._trace(tensors, args, kwargs)
        return self._traced[key].main

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if in_static_mode() or not _SWITCH.enabled:
            return self._function(*args, **kwargs)
        tensors, key = self._split(args, kwargs)
        key = (key, tuple((tuple(s), d) for s, d in self._specs(tensors)))
        traced = self._traced.get(key)
        if traced is None:
            traced = self._traced[key] = self._trace(tensors, args, kwargs)
        edges = [edge_of(t) for t in tensors] + [
            edge_of(tensor) if trainable else None for _, tensor, trainable in traced.parameters
        ]
        needs_grad = (
            GRAD_MODE.enabled and traced.differentiable and any(e is not None for e in edges)
        )
        feed = self._feed(traced, tensors)
        states: list[tuple[Any, Any]] = []
        if needs_grad:
            # the backward program computes the forward again: it must draw the same random
            # numbers (dropout's mask) as this run, so it starts from the generators' states now
            places = list(dict.fromkeys([CPUPlace(), *(t.place for t in tensors)]))
            states = _random_states(places)
        values = [v for v in traced.outputs if isinstance(v, Value)]
        arrays = (
            self._executor.run(traced.main, feed, values, scope=self._scope, return_numpy=False)
            if values
            else []
        )
        self._write_back(traced)
        iterator = iter(arrays)
        leaves = [_as_tensor(next(iterator)) if isinstance(v, Value) else v for v in traced.outputs]
        if needs_grad:
            node = _ProgramGradNode(self, traced, list(feed.values()), edges, leaves, states)
            for slot, position in enumerate(traced.differentiable):
                leaves[position].stop_gradient = False
                leaves[position]._grad_node = (node, slot)
        return _rebuild(leaves, traced.structure)


def _random_states(places: list[Any]) -> list[tuple[Any, Any]]:
    """The process generators' states of ``places`` (each created if it was not): numpy's
    generator and PaddlePaddle's engine (which dropout draws from)."""
    return [
        (place, (generator_for(place).bit_generator.state, engine_for(place).copy()))
        for place in places
    ]


def _restore(states: list[tuple[Any, Any]]) -> None:
    for place, (state, engine) in states:
        generator_for(place).bit_generator.state = state
        engine_for(place)[:] = engine


def _as_tensor(value: Any) -> Tensor:
    if isinstance(value, Tensor):
        return value
    from phiops.runtime.eager.tensor import to_tensor

    return to_tensor(value)


class _ProgramGradNode(PythonGradNode):
    """The one grad node of a ``to_static`` call: runs the traced backward program with the
    call's inputs and the output gradients; its edges are the Tensor inputs' and then the
    parameters'."""

    __slots__ = (
        "spec",
        "edges",
        "output_metas",
        "slot_count",
        "_hooks",
        "released",
        "_function",
        "_traced",
        "_inputs",
        "_states",
        "__weakref__",
    )

    def __init__(
        self,
        function: StaticFunction,
        traced: _Traced,
        inputs: list[Any],
        edges: list[Any],
        leaves: list[Any],
        states: list[tuple[Any, Any]],
    ) -> None:
        op = f"to_static({_describe(function._function)})"
        self.spec = NodeSpec(op, f"{op} (backward program)", len(traced.differentiable))
        self.edges = edges
        self.output_metas = [leaves[i].meta for i in traced.differentiable]
        self.slot_count = len(self.output_metas)
        self._hooks = None
        self.released = False
        self._function = function
        self._traced = traced
        self._inputs = inputs
        self._states = states

    def release(self) -> None:
        self._inputs = []
        self._states = []
        self.released = True

    def apply(self, grads: list[Any], keep_graph: bool, retain: bool = True) -> list[Any]:
        if self.released:
            raise PreconditionNotMetError(
                f"backward of '{self.spec.op}' runs a second time, but its inputs were freed "
                "after the first backward pass; pass retain_graph=True to the first backward()"
            )
        if keep_graph:
            raise UnimplementedError(
                f"higher-order gradients through {self.spec.op} (create_graph=True) are not "
                "implemented; run the function eagerly (paddle.jit.enable_to_static(False))"
            )
        traced = self._traced
        function = self._function
        for name, tensor, _ in traced.parameters:
            function._scope.var(name).set(tensor.array)
        feed = dict(zip(traced.feed_names, self._inputs))
        feed.update({name: g.array for name, g in zip(traced.grad_feeds, grads)})
        wanted = traced.input_grads + traced.parameter_grads
        fetches = [
            (index, value)
            for index, (value, edge) in enumerate(zip(wanted, self.edges))
            if value is not None and edge is not None
        ]
        results: list[Any] = [None] * len(self.edges)
        if fetches:
            now = _random_states([place for place, _ in self._states])
            _restore(self._states)
            try:
                arrays = function._executor.run(
                    traced.train,
                    feed,
                    [value for _, value in fetches],
                    scope=function._scope,
                    return_numpy=False,
                )
            finally:
                _restore(now)
            for (index, _), array in zip(fetches, arrays):
                results[index] = _as_tensor(array)
        if not retain:
            self.release()
        return results


def to_static(
    function: Any = None,
    input_spec: Sequence[InputSpec] | None = None,
    build_strategy: Any = None,
    backend: Any = "CINN",
    **kwargs: Any,
) -> Any:
    """Translate ``function`` (a Python function, or a Layer: its forward) to static programs
    by tracing (module docstring); usable as ``@to_static`` and ``@to_static(input_spec=...)``.
    A Layer is returned with its forward replaced. ``input_spec`` (one ``InputSpec`` per
    Tensor argument, -1/None for a free extent) traces one program for every input it admits.
    ``build_strategy``, ``backend`` and PaddlePaddle's keyword options (``full_graph``, ...)
    are accepted; phiops builds one kind of program, so they change nothing."""
    from phiops.runtime.nn.layer import Layer

    if input_spec is not None and (
        not isinstance(input_spec, (list, tuple))
        or not all(isinstance(s, InputSpec) for s in input_spec)
    ):
        raise InvalidArgumentError(
            "to_static(): argument 'input_spec' expects a list of phi.static.InputSpec, got "
            f"{type(input_spec).__name__} {input_spec!r}"
        )
    unknown = set(kwargs) - {"full_graph", "property"}
    if unknown:
        raise InvalidArgumentError(
            f"to_static(): unexpected keyword argument(s) {sorted(unknown)} (PaddlePaddle's "
            "are full_graph and property)"
        )

    def decorate(target: Any) -> Any:
        if isinstance(target, Layer):
            forward = target.forward
            if isinstance(forward, StaticFunction):
                return target
            object.__setattr__(
                target,
                "forward",
                StaticFunction(forward, input_spec, build_strategy, backend, **kwargs),
            )
            return target
        if isinstance(target, StaticFunction):
            return target
        if not callable(target):
            raise InvalidArgumentError(
                f"to_static(): argument 'function' expects a function or a phi.nn.Layer, got "
                f"{type(target).__name__}"
            )
        if getattr(target, "_not_to_static", False):
            return target
        if not (inspect.isfunction(target) or inspect.ismethod(target)):
            raise InvalidArgumentError(
                f"to_static(): argument 'function' expects a function or a phi.nn.Layer, got "
                f"{type(target).__name__}"
            )
        return StaticFunction(target, input_spec, build_strategy, backend, **kwargs)

    if function is None:
        return decorate
    return decorate(function)
