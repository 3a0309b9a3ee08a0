"""DataParallel: a Layer whose gradients are averaged over the ranks during backward.

As PaddlePaddle's reducer (paddle/fluid/distributed/collective/reducer.cc): the trainable
parameters, in reverse order (the order backward produces their gradients), are packed into
buckets of about ``comm_buffer_size`` MB (the first ``last_comm_buffer_size`` MB), one flat
buffer per bucket. A gradient hook on each parameter copies its gradient (plus what earlier
``no_sync`` passes accumulated) into its bucket; a full bucket is all-reduced (AVG) without
waiting, while backward goes on computing the other gradients. The buckets start in index order
on every rank, so the ranks' collectives always pair up. The last gradient's hook waits for
every bucket, so when ``backward()`` returns each parameter's ``.grad`` is the average over the
ranks; it is a view of its bucket's buffer, reduced in place, as PaddlePaddle's grads are views
of its fused buffers.

``find_unused_parameters=True`` walks the autograd graph from the forward's outputs and lets the
parameters it does not reach take part with zero gradients; without it a parameter that gets no
gradient leaves its bucket unsent, which the next forward reports naming it.
"""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from typing import Any, Iterator

from phiops.runtime.autograd.grad_mode import is_grad_enabled
from phiops.runtime.autograd.grad_node import AccumulationNode
from phiops.runtime.comm import COMM_CONTEXTS, CommContext, ReduceOp, Work
from phiops.runtime.device import module_of
from phiops.runtime.distributed.env import require_world
from phiops.runtime.distributed.group import Group, resolve
from phiops.runtime.eager.tensor import Tensor, wrap_array
from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError, UnimplementedError
from phiops.runtime.nn.layer import Layer
from phiops.runtime.tensor.version import bump_version

__all__ = ["DataParallel"]

_MB = 1024 * 1024


class _Bucket:
    """Parameters whose gradients travel together in one flat buffer."""

    def __init__(self, indices: list[int], parameters: list[Tensor]) -> None:
        self.indices = indices
        first = parameters[indices[0]].array
        xp = module_of(first)
        self.offsets: dict[int, tuple[int, int]] = {}
        total = 0
        for index in indices:
            size = int(parameters[index].array.size)
            self.offsets[index] = (total, size)
            total += size
        self.buffer = xp.zeros(total, dtype=first.dtype)
        self.waiting = len(indices)
        self.work: Work | None = None

    def view(self, index: int, shape: tuple[int, ...]) -> Any:
        start, size = self.offsets[index]
        return self.buffer[start : start + size].reshape(shape)


class _Reducer:
    """The buckets of one DataParallel and the state of the backward pass in progress."""

    def __init__(
        self,
        parameters: list[Tensor],
        names: list[str],
        ring: CommContext,
        first_limit: int,
        limit: int,
    ) -> None:
        self.parameters = parameters
        self.names = names
        self.ring = ring
        self.buckets: list[_Bucket] = []
        self.location: dict[int, int] = {}
        current: list[int] = []
        current_bytes = 0
        key = None
        for index in reversed(range(len(parameters))):
            array = parameters[index].array
            this_key = (array.dtype, type(array))
            bucket_limit = first_limit if not self.buckets else limit
            if current and (this_key != key or current_bytes >= bucket_limit):
                self._close(current)
                current, current_bytes = [], 0
            current.append(index)
            current_bytes += int(array.nbytes)
            key = this_key
        if current:
            self._close(current)
        self.active = False
        self.remaining = 0
        self.next_to_launch = 0
        self.unused: list[int] = []

    def _close(self, indices: list[int]) -> None:
        bucket = _Bucket(indices, self.parameters)
        for index in indices:
            self.location[index] = len(self.buckets)
        self.buckets.append(bucket)

    def prepare(self, unused: list[int]) -> None:
        """Start a pass: every bucket waits for its gradients; ``unused`` parameters (no
        gradient this pass) contribute what they have accumulated, or zeros."""
        if self.active and self.remaining:
            missing = [
                self.names[index]
                for index in range(len(self.parameters))
                if index not in self._arrived
            ]
            self.active = False
            raise PreconditionNotMetError(
                "DataParallel: the previous backward produced no gradient for parameters "
                f"{missing[:8]}{' ...' if len(missing) > 8 else ''}, so their gradients were not "
                "averaged over the ranks; pass find_unused_parameters=True to DataParallel when "
                "a forward pass leaves parameters unused"
            )
        for bucket in self.buckets:
            bucket.waiting = len(bucket.indices)
            bucket.work = None
        self._arrived: set[int] = set()
        self.next_to_launch = 0
        self.remaining = len(self.parameters)
        self.unused = unused
        self.active = True
        for index in unused:
            self._place(index, None)

    def on_grad(self, index: int, grad: Tensor) -> Tensor | None:
        """The hook of parameter ``index``: ``grad`` into the bucket; the view returned becomes
        the parameter's ``.grad``."""
        if not self.active or index in self._arrived:
            return None
        view = self._place(index, grad)
        return wrap_array(view, grad.meta)

    def _place(self, index: int, grad: Tensor | None) -> Any:
        parameter = self.parameters[index]
        bucket = self.buckets[self.location[index]]
        view = bucket.view(index, tuple(parameter.array.shape))
        xp = module_of(view)
        accumulated = parameter.grad
        if grad is None:
            view[...] = 0 if accumulated is None else accumulated.array
        else:
            xp.copyto(view, grad.array, casting="unsafe")
            if accumulated is not None:
                view += accumulated.array
                parameter.clear_gradient(False)
        self._arrived.add(index)
        bucket.waiting -= 1
        self.remaining -= 1
        self._launch_ready()
        self._progress()
        if self.remaining == 0:
            self._finish()
        return view

    def _launch_ready(self) -> None:
        while self.next_to_launch < len(self.buckets):
            bucket = self.buckets[self.next_to_launch]
            if bucket.waiting:
                return
            bucket.work = self.ring.all_reduce(bucket.buffer, bucket.buffer, ReduceOp.AVG)
            self.next_to_launch += 1

    def _progress(self) -> None:
        """Ask the buckets in flight whether they are done: MPI moves a non-blocking
        collective on when it is asked, so this keeps them going while backward computes."""
        for bucket in self.buckets[: self.next_to_launch]:
            if bucket.work is not None and bucket.work.is_completed():
                continue

    def _finish(self) -> None:
        for bucket in self.buckets:
            if bucket.work is not None:
                bucket.work.wait()
        for index in self.unused:
            parameter = self.parameters[index]
            bucket = self.buckets[self.location[index]]
            view = bucket.view(index, tuple(parameter.array.shape))
            # What the engine's leaf accumulation does for a gradient that arrives: the
            # parameter's .grad becomes the (reduced) buffer view.
            parameter._grad = wrap_array(view, parameter.meta)
            bump_version(parameter._grad)
        self.active = False


def _reached_parameters(outputs: Any, ids: set[int]) -> set[int]:
    """ids of the tensors among ``ids`` that the autograd graph of ``outputs`` reaches."""
    stack = []
    for tensor in _tensors(outputs):
        edge = tensor._grad_node
        if edge is not None:
            stack.append(edge[0])
    seen: set[int] = set()
    reached: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, AccumulationNode):
            tensor = node.tensor()
            if tensor is not None and id(tensor) in ids:
                reached.add(id(tensor))
            continue
        stack.extend(node.next_nodes())
    return reached


def _tensors(value: Any) -> Iterator[Tensor]:
    if isinstance(value, Tensor):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _tensors(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _tensors(item)


class DataParallel(Layer):
    """Run ``layers`` data parallel: the same model on every rank, each on its part of the
    batch, gradients averaged over the ranks during backward (see the module's docstring).
    Parameters and buffers are copied from rank 0 when it is made."""

    def __init__(
        self,
        layers: Layer,
        strategy: Any = None,
        comm_buffer_size: int = 25,
        last_comm_buffer_size: float = 1,
        find_unused_parameters: bool = False,
        group: Group | None = None,
    ) -> None:
        super().__init__()
        where = "DataParallel"
        if not isinstance(layers, Layer):
            raise InvalidArgumentError(f"{where}: layers must be a Layer, got {layers!r}")
        if strategy is not None:
            raise UnimplementedError(
                f"{where}: strategy (PaddlePaddle's ParallelStrategy) is not implemented; pass None"
            )
        for name, value in (
            ("comm_buffer_size", comm_buffer_size),
            ("last_comm_buffer_size", last_comm_buffer_size),
        ):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise InvalidArgumentError(f"{where}: {name} must be a positive number of MB, got {value!r}")
        if not isinstance(find_unused_parameters, bool):
            raise InvalidArgumentError(
                f"{where}: find_unused_parameters must be a bool, got {find_unused_parameters!r}"
            )
        self._layers = layers
        require_world(where)
        group = resolve(group, where)
        object.__setattr__(self, "_group", group)
        object.__setattr__(self, "find_unused_parameters", find_unused_parameters)
        object.__setattr__(self, "grad_need_sync", True)
        named = [(n, p) for n, p in layers.named_parameters() if not p.stop_gradient]
        parameters = [p for _, p in named]
        if parameters:
            backend = parameters[0].place.backend
            ring = COMM_CONTEXTS.get(group.id, backend, where)
        else:
            ring = None
        object.__setattr__(self, "_ring", ring)
        self._sync_params_buffers(layers, group)
        reducer = None
        if ring is not None and ring.size > 1:
            reducer = _Reducer(
                parameters,
                [n for n, _ in named],
                ring,
                int(last_comm_buffer_size * _MB),
                int(comm_buffer_size * _MB),
            )
            for index, parameter in enumerate(parameters):
                parameter.register_hook(_hook(reducer, index))
        object.__setattr__(self, "_reducer", reducer)
        object.__setattr__(self, "_parameter_ids", {id(p): i for i, p in enumerate(parameters)})

    @staticmethod
    def _sync_params_buffers(layers: Layer, group: Group) -> None:
        root_rank = group.ranks[0]
        for tensor in list(layers.parameters()) + list(layers.buffers()):
            ring = COMM_CONTEXTS.get(group.id, tensor.place.backend, "DataParallel")
            if ring.size == 1:
                continue
            array = tensor.array
            buffer = array if array.flags.c_contiguous else module_of(array).ascontiguousarray(array)
            ring.broadcast(buffer, group.get_group_rank(root_rank)).wait()
            if buffer is not array:
                module_of(array).copyto(array, buffer)
            bump_version(tensor)

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        """The wrapped layers' forward; it prepares the gradients' all-reduce for the backward
        that follows (unless inside ``no_sync``)."""
        outputs = self._layers(*inputs, **kwargs)
        reducer = self._reducer
        if reducer is not None and self.grad_need_sync and is_grad_enabled() and self.training:
            unused: list[int] = []
            if self.find_unused_parameters:
                reached = _reached_parameters(outputs, set(self._parameter_ids))
                unused = [i for key, i in self._parameter_ids.items() if key not in reached]
            reducer.prepare(unused)
        elif reducer is not None:
            reducer.active = False
        return outputs

    @contextlib.contextmanager
    def no_sync(self) -> Iterator[None]:
        """Inside, backward only accumulates gradients locally (no communication); the first
        synchronised backward after it averages the accumulated gradients."""
        previous = self.grad_need_sync
        object.__setattr__(self, "grad_need_sync", False)
        try:
            yield
        finally:
            object.__setattr__(self, "grad_need_sync", previous)

    def scale_loss(self, loss: Tensor) -> Tensor:
        """PaddlePaddle's old loss scaling: the gradients are averaged already, so ``loss``."""
        return loss

    def apply_collective_grads(self) -> None:
        """PaddlePaddle's old explicit all-reduce: done during backward here, so nothing."""

    def state_dict(
        self,
        destination: dict | None = None,
        include_sublayers: bool = True,
        structured_name_prefix: str = "",
        use_hook: bool = True,
        keep_vars: bool = True,
    ) -> OrderedDict:
        """The wrapped layers' state dict (without a ``_layers.`` prefix)."""
        return self._layers.state_dict(
            destination, include_sublayers, structured_name_prefix, use_hook, keep_vars
        )

    def set_state_dict(
        self, state_dict: dict, use_structured_name: bool = True
    ) -> tuple[list[str], list[str]]:
        """Load into the wrapped layers."""
        return self._layers.set_state_dict(state_dict, use_structured_name)


def _hook(reducer: _Reducer, index: int) -> Any:
    def all_reduce_gradient(grad: Tensor) -> Tensor | None:
        return reducer.on_grad(index, grad)

    return all_reduce_gradient
