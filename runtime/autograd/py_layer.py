"""PyLayer: an op whose forward and backward are Python functions (``paddle.autograd.PyLayer``).

A subclass defines ``forward(ctx, *args, **kwargs)`` and ``backward(ctx, *grads)`` as static
methods and is called as ``Layer.apply(*args, **kwargs)``, as in PaddlePaddle 3.3.1:

- ``forward`` runs with grad mode off (the ops inside record nothing); its Tensor results need
  gradients when a Tensor argument does, and one grad node (``PyLayerNode``) joins them to the
  Tensor arguments (positional and keyword, in call order; lists of Tensors are not looked into,
  as PaddlePaddle's PyLayer does not).
- ``backward`` gets one gradient per Tensor result (zeros where none arrived, unless
  ``ctx.set_materialize_grads(False)``: then None), runs with grad mode on only under
  ``create_graph=True`` (so a PyLayer can be differentiated twice), and returns one gradient
  per Tensor argument (a Tensor, or None: no gradient flows to that argument).
- ``ctx.save_for_backward(*tensors)`` / ``ctx.saved_tensor()``, ``ctx.mark_non_differentiable``
  (those results need no gradient, and ``backward`` gets zeros for them), ``ctx.mark_not_inplace`` (accepted:
  phiops' PyLayer never reuses an argument as a result), ``ctx.set_materialize_grads``, and any
  attribute set on ``ctx``.

Where PaddlePaddle 3.3.1 checks less, phiops names the mistake: a gradient of another shape or
dtype than its argument (3.3.1 puts a [5] gradient on a [2] leaf), a backward returning more or
fewer values than there are Tensor arguments, a non-Tensor gradient.
"""

from __future__ import annotations

from typing import Any, Sequence

from phiops.runtime.autograd.grad_mode import GRAD_MODE
from phiops.runtime.autograd.grad_node import NodeSpec, PythonGradNode
from phiops.runtime.autograd.record import edge_of
from phiops.runtime.dispatch.tensor_type import TENSOR_TYPE
from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError

__all__ = ["PyLayer", "PyLayerContext", "PyLayerNode"]


def _tensor_type() -> type:
    return TENSOR_TYPE.cls


class PyLayerContext:
    """What ``forward`` hands ``backward``: saved tensors, marks, and any attribute set on it."""

    def __init__(self) -> None:
        self._saved: tuple[Any, ...] = ()
        self._non_differentiable: list[Any] = []
        self._not_inplace: list[Any] = []
        self._materialize_grads = True
        self._grad_in_dtype_consistent = True

    def save_for_backward(self, *tensors: Any) -> None:
        """Keep ``tensors`` (Tensors or None) for ``backward``'s ``saved_tensor()``."""
        tensor = _tensor_type()
        for position, value in enumerate(tensors):
            if value is not None and not isinstance(value, tensor):
                raise InvalidArgumentError(
                    f"PyLayerContext.save_for_backward: argument {position} must be a Tensor or "
                    f"None, got {type(value).__name__}"
                )
        self._saved = tensors

    def saved_tensor(self) -> tuple[Any, ...]:
        """The tensors ``save_for_backward`` kept, in its order."""
        return tuple(self._saved)

    def mark_not_inplace(self, *args: Any) -> None:
        """PaddlePaddle's hint that a result must not share an argument's storage; phiops's
        PyLayer never makes a result share it, so there is nothing to do."""
        self._not_inplace.extend(args)

    def mark_non_differentiable(self, *args: Any) -> None:
        """Results that need no gradient (stop_gradient): ``backward`` gets zeros for them (None
        without materialized gradients)."""
        self._non_differentiable.extend(args)

    def set_materialize_grads(self, value: bool) -> None:
        """False: ``backward`` gets None for a result no gradient reached, not zeros."""
        if not isinstance(value, bool):
            raise InvalidArgumentError(
                f"PyLayerContext.set_materialize_grads: value must be a bool, got {value!r}"
            )
        self._materialize_grads = value

    def set_grad_in_dtype_consistent(self, flag: bool) -> None:
        """True (the default): a gradient ``backward`` returns in another floating dtype than
        its argument is cast to the argument's dtype; False: such a gradient is an error."""
        if not isinstance(flag, bool):
            raise InvalidArgumentError(
                f"PyLayerContext.set_grad_in_dtype_consistent: flag must be a bool, got {flag!r}"
            )
        self._grad_in_dtype_consistent = flag


class PyLayerNode(PythonGradNode):
    """The grad node of one ``PyLayer.apply``: its slots are the Tensor results, its edges the
    Tensor arguments. It fills the slots no gradient reached itself (``fills_own_slots``)."""

    fills_own_slots = True

    __slots__ = (
        "spec",
        "edges",
        "output_metas",
        "slot_count",
        "_hooks",
        "released",
        "_layer",
        "_ctx",
        "_inputs",
        "_frozen",
        "__weakref__",
    )

    def __init__(
        self,
        layer: type,
        ctx: PyLayerContext,
        inputs: list[Any],
        output_metas: list[Any],
        frozen: set[int],
    ) -> None:
        name = f"PyLayer_{layer.__name__}"
        self.spec = NodeSpec(name, f"{name}_backward", len(output_metas))
        self.edges = [edge_of(tensor) for tensor in inputs]
        self.output_metas = output_metas
        self.slot_count = len(output_metas)
        self._hooks = None
        self.released = False
        self._layer = layer
        self._ctx: PyLayerContext | None = ctx
        self._inputs = [(tensor.meta, tensor.stop_gradient) for tensor in inputs]
        self._frozen = frozen

    def release(self) -> None:
        self._ctx = None
        self.released = True

    def apply(self, grads: list[Any], keep_graph: bool, retain: bool = True) -> list[Any]:
        where = f"{self._layer.__name__}.backward"
        ctx = self._ctx
        if self.released or ctx is None:
            raise PreconditionNotMetError(
                f"{where} runs a second time, but the graph was freed after the first backward "
                "pass; pass retain_graph=True to the first backward()"
            )
        grads = list(grads)
        for slot in self._frozen:
            grads[slot] = None
        if ctx._materialize_grads:
            from phiops.runtime.autograd.engine import _zeros

            grads = [
                _zeros(meta) if grad is None else grad
                for grad, meta in zip(grads, self.output_metas)
            ]
        previous = GRAD_MODE.enabled
        GRAD_MODE.enabled = keep_graph
        try:
            result = self._layer.backward(ctx, *grads)
        finally:
            GRAD_MODE.enabled = previous
        checked = self._checked(result, where, ctx._grad_in_dtype_consistent)
        if not retain:
            self.release()
        return checked

    def _checked(self, result: Any, where: str, consistent: bool) -> list[Any]:
        results = list(result) if isinstance(result, (tuple, list)) else [result]
        if len(results) != len(self.edges):
            raise InvalidArgumentError(
                f"{where} returned {len(results)} gradient{'s' if len(results) != 1 else ''}, but "
                f"forward took {len(self.edges)} Tensor argument"
                f"{'s' if len(self.edges) != 1 else ''}: return one per Tensor argument (None where "
                "no gradient flows)"
            )
        tensor = _tensor_type()
        checked: list[Any] = []
        for position, (grad, edge, (meta, _)) in enumerate(zip(results, self.edges, self._inputs)):
            if grad is None:  # no gradient flows there (PaddlePaddle 3.3.1 allows it too)
                checked.append(None)
                continue
            if not isinstance(grad, tensor):
                raise InvalidArgumentError(
                    f"{where} returned a {type(grad).__name__} at position {position}; gradients "
                    "are Tensors (or None)"
                )
            if edge is None:
                checked.append(None)
                continue
            if tuple(grad.meta.dims) != tuple(meta.dims):
                raise InvalidArgumentError(
                    f"{where} returned a gradient of shape {list(grad.meta.dims)} at position "
                    f"{position}, but Tensor argument {position} of forward has shape "
                    f"{list(meta.dims)}"
                )
            if grad.dtype is not meta.dtype:
                if not consistent:
                    raise InvalidArgumentError(
                        f"{where} returned a {grad.dtype.name.lower()} gradient at position "
                        f"{position}, but Tensor argument {position} of forward is "
                        f"{meta.dtype.name.lower()} (set_grad_in_dtype_consistent(False))"
                    )
                grad = grad.astype(meta.dtype)
            checked.append(grad)
        return checked


class PyLayer:
    """A custom op: subclass it with static ``forward(ctx, ...)`` and ``backward(ctx, ...)``
    and call ``apply`` (the module docstring says what each does)."""

    @staticmethod
    def forward(ctx: PyLayerContext, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("a PyLayer subclass must define forward(ctx, *args, **kwargs)")

    @staticmethod
    def backward(ctx: PyLayerContext, *args: Any) -> Any:
        raise NotImplementedError("a PyLayer subclass must define backward(ctx, *grads)")

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Run ``forward`` and, where a Tensor argument needs a gradient, record ``backward``
        for its Tensor results."""
        if cls.forward is PyLayer.forward or cls.backward is PyLayer.backward:
            raise InvalidArgumentError(
                f"{cls.__name__}: a PyLayer subclass must define both forward and backward as "
                "static methods"
            )
        tensor = _tensor_type()
        inputs = [value for value in (*args, *kwargs.values()) if isinstance(value, tensor)]
        ctx = PyLayerContext()
        previous = GRAD_MODE.enabled
        GRAD_MODE.enabled = False
        try:
            result = cls.forward(ctx, *args, **kwargs)
        finally:
            GRAD_MODE.enabled = previous
        if not previous:
            return result
        if not any(edge_of(value) is not None for value in inputs):
            return result
        many = isinstance(result, (tuple, list))
        outputs = list(result) if many else [result]
        positions = [i for i, value in enumerate(outputs) if isinstance(value, tensor)]
        if not positions:
            return result
        frozen_ids = {id(value) for value in ctx._non_differentiable}
        # a result that is an argument itself, or one result twice, gets a view of its own
        seen: set[int] = {id(value) for value in inputs}
        for position in positions:
            value = outputs[position]
            if id(value) in seen:
                frozen = id(value) in frozen_ids
                outputs[position] = value = _view(value)
                if frozen:
                    frozen_ids.add(id(value))
            seen.add(id(value))
        results = [outputs[position] for position in positions]
        node = PyLayerNode(
            cls,
            ctx,
            inputs,
            [value.meta for value in results],
            {slot for slot, value in enumerate(results) if id(value) in frozen_ids},
        )
        for slot, value in enumerate(results):
            if slot in node._frozen:
                value.stop_gradient = True  # non-differentiable: nothing reaches its slot
                continue
            value.stop_gradient = False
            value._grad_node = (node, slot)
        if not many:
            return outputs[0]
        return type(result)(outputs) if isinstance(result, tuple) else outputs


def _view(value: Any) -> Any:
    """A new Tensor over ``value``'s storage, without its grad node."""
    return TENSOR_TYPE.wrap(value.array, value.meta)
