"""The functional collectives on Tensors (paddle.distributed's ``all_reduce`` and friends).

Each writes its result into the tensors it is given, as PaddlePaddle's do, through the ring of
``group`` (the world when None) for the backend the tensor is on, and returns a ``task``:
``sync_op=True`` has waited already, ``sync_op=False`` leaves the collective in flight until
``task.wait()``. ``src``/``dst`` are global ranks, as in PaddlePaddle.
"""

from __future__ import annotations

from typing import Any, Sequence

from phiops.runtime.comm import COMM_CONTEXTS, CommContext, Work, reduce_op
from phiops.runtime.comm.context import DoneWork
from phiops.runtime.backends import place_of_array
from phiops.runtime.common.data_type import from_numpy_dtype
from phiops.runtime.device import module_of
from phiops.runtime.dispatch.build_mode import in_static_mode
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.distributed.env import require_world
from phiops.runtime.distributed.group import Group, resolve
from phiops.runtime.eager.tensor import Tensor, wrap_array
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.tensor.dense_tensor import DenseTensorMeta
from phiops.runtime.tensor.version import bump_version

__all__ = [
    "ReduceOp",
    "task",
    "all_reduce",
    "all_gather",
    "all_gather_object",
    "broadcast",
    "reduce",
    "reduce_scatter",
    "alltoall",
    "scatter",
    "send",
    "recv",
    "isend",
    "irecv",
    "barrier",
    "wait",
]


class ReduceOp:
    """The reductions of ``all_reduce``, ``reduce`` and ``reduce_scatter``, as PaddlePaddle's
    ``paddle.distributed.ReduceOp``: plain ints (the ops' ``reduce_type``); AVG of integers
    truncates toward zero."""

    SUM = 0
    MAX = 1
    MIN = 2
    PROD = 3
    AVG = 4


class task:  # noqa: N801 - PaddlePaddle's name
    """A collective in flight: ``wait()`` finishes it, ``is_completed()`` asks."""

    __slots__ = ("_work", "_after")

    def __init__(self, work: Work, after: Any = None) -> None:
        self._work = work
        self._after = after

    def wait(self) -> bool:
        self._work.wait()
        if self._after is not None:
            after, self._after = self._after, None
            after()
        return True

    def is_completed(self) -> bool:
        return self._after is None and self._work.is_completed()

    def synchronize(self) -> None:
        self.wait()


def _ring(tensor: Tensor, group: Group | None, where: str) -> tuple[Group, CommContext]:
    if not isinstance(tensor, Tensor):
        raise InvalidArgumentError(f"{where}: tensor must be a Tensor, got {type(tensor).__name__}")
    require_world(where)
    group = resolve(group, where)
    if not group.is_member():
        raise InvalidArgumentError(f"{where}: this rank is not in group {group.id} {group.ranks}")
    return group, COMM_CONTEXTS.get(group.id, tensor.place.backend, where)


def _group_rank(group: Group, rank: Any, argument: str, where: str) -> int:
    local = group.get_group_rank(rank) if isinstance(rank, int) else -1
    if local < 0:
        raise InvalidArgumentError(
            f"{where}: {argument} must be a global rank in group {group.id} {group.ranks}, got "
            f"{rank!r}"
        )
    return local


def _writable(tensor: Tensor) -> tuple[Any, Any]:
    """The tensor's array, or a contiguous copy and the step that writes it back."""
    array = tensor.array
    if array.flags.c_contiguous:
        return array, None
    buffer = module_of(array).ascontiguousarray(array)
    return buffer, lambda: module_of(array).copyto(array, buffer)


def _finish(work: Work, sync_op: bool, after: Any) -> task:
    result = task(work, after)
    if sync_op:
        result.wait()
    return result


def _written(tensor: Tensor, write_back: Any) -> Any:
    def after() -> None:
        if write_back is not None:
            write_back()
        bump_version(tensor)

    return after


def all_reduce(
    tensor: Tensor, op: Any = ReduceOp.SUM, group: Group | None = None, sync_op: bool = True
) -> task:
    """Reduce ``tensor`` over the group's ranks with ``op``; every rank's ``tensor`` becomes the
    result."""
    where = "all_reduce"
    group, ring = _ring(tensor, group, where)
    array, write_back = _writable(tensor)
    work = ring.all_reduce(array, array, reduce_op(op, where))
    return _finish(work, sync_op, _written(tensor, write_back))


def broadcast(tensor: Tensor, src: int, group: Group | None = None, sync_op: bool = True) -> task:
    """Copy global rank ``src``'s ``tensor`` into every rank's ``tensor``."""
    where = "broadcast"
    group, ring = _ring(tensor, group, where)
    root = _group_rank(group, src, "src", where)
    array, write_back = _writable(tensor)
    return _finish(ring.broadcast(array, root), sync_op, _written(tensor, write_back))


def reduce(
    tensor: Tensor,
    dst: int,
    op: Any = ReduceOp.SUM,
    group: Group | None = None,
    sync_op: bool = True,
) -> task:
    """Reduce ``tensor`` over the group's ranks onto global rank ``dst``'s ``tensor``."""
    where = "reduce"
    group, ring = _ring(tensor, group, where)
    root = _group_rank(group, dst, "dst", where)
    array, write_back = _writable(tensor)
    source = array.copy()
    work = ring.reduce(source, array, root, reduce_op(op, where))
    return _finish(work, sync_op, _written(tensor, write_back))


def _new_tensor(array: Any) -> Tensor:
    """A Tensor around ``array`` itself (no copy)."""
    meta = DenseTensorMeta.get(
        from_numpy_dtype(array.dtype), tuple(array.shape), place=place_of_array(array)
    )
    return wrap_array(array, meta)


def _check_list(values: Any, argument: str, where: str) -> list[Tensor]:
    if not isinstance(values, list) or not all(isinstance(v, Tensor) for v in values):
        raise InvalidArgumentError(f"{where}: {argument} must be a list of Tensors, got {values!r}")
    return values


def all_gather(
    tensor_list: list[Tensor], tensor: Tensor, group: Group | None = None, sync_op: bool = True
) -> task:
    """Gather every rank's ``tensor`` into ``tensor_list`` (emptied, then one tensor per rank,
    in rank order)."""
    where = "all_gather"
    _check_list(tensor_list, "tensor_list", where)
    group, ring = _ring(tensor, group, where)
    xp = module_of(tensor.array)
    gathered = xp.empty((ring.size,) + tuple(tensor.array.shape), dtype=tensor.array.dtype)
    source = xp.ascontiguousarray(tensor.array)
    work = ring.all_gather(source.reshape((1,) + source.shape), gathered)

    def after() -> None:
        tensor_list.clear()
        tensor_list.extend(_new_tensor(gathered[i]) for i in range(ring.size))

    return _finish(work, sync_op, after)


def all_gather_object(object_list: list[Any], obj: Any, group: Group | None = None) -> None:
    """Gather every rank's picklable ``obj`` into ``object_list`` (emptied first)."""
    import pickle

    import numpy as np

    where = "all_gather_object"
    if not isinstance(object_list, list):
        raise InvalidArgumentError(f"{where}: object_list must be a list, got {object_list!r}")
    payload = np.frombuffer(pickle.dumps(obj), dtype=np.uint8)
    sizes: list[Tensor] = []
    size = _new_tensor(np.array([payload.size], dtype=np.int64))
    all_gather(sizes, size, group)
    longest = max(int(s.numpy()[0]) for s in sizes)
    padded = np.zeros(longest, dtype=np.uint8)
    padded[: payload.size] = payload
    pieces: list[Tensor] = []
    all_gather(pieces, _new_tensor(padded), group)
    object_list.clear()
    for piece, length in zip(pieces, sizes):
        object_list.append(pickle.loads(piece.numpy()[: int(length.numpy()[0])].tobytes()))


def reduce_scatter(
    tensor: Tensor,
    tensor_list: list[Tensor],
    op: Any = ReduceOp.SUM,
    group: Group | None = None,
    sync_op: bool = True,
) -> task:
    """Reduce ``tensor_list`` (one tensor per rank) over the ranks; rank i's ``tensor`` becomes
    the reduction of every rank's ``tensor_list[i]``."""
    where = "reduce_scatter"
    _check_list(tensor_list, "tensor_list", where)
    group, ring = _ring(tensor, group, where)
    if len(tensor_list) != ring.size:
        raise InvalidArgumentError(
            f"{where}: tensor_list must hold {ring.size} tensors (one per rank), got "
            f"{len(tensor_list)}"
        )
    xp = module_of(tensor.array)
    for item in tensor_list:
        if item.shape != tensor.shape or item.dtype != tensor.dtype:
            raise InvalidArgumentError(
                f"{where}: every tensor of tensor_list must be {tensor.dtype.name.lower()}"
                f"{tensor.shape} like tensor, got {item.dtype.name.lower()}{item.shape}"
            )
    stacked = xp.stack([item.array for item in tensor_list])
    array, write_back = _writable(tensor)
    work = ring.reduce_scatter(stacked, array.reshape((1,) + array.shape), reduce_op(op, where))
    return _finish(work, sync_op, _written(tensor, write_back))


def alltoall(
    out_tensor_list: list[Tensor],
    in_tensor_list: list[Tensor],
    group: Group | None = None,
    sync_op: bool = True,
) -> task:
    """Send ``in_tensor_list[i]`` to rank i; ``out_tensor_list`` (emptied first) receives one
    tensor from each rank, in rank order."""
    where = "alltoall"
    _check_list(out_tensor_list, "out_tensor_list", where)
    _check_list(in_tensor_list, "in_tensor_list", where)
    if not in_tensor_list:
        raise InvalidArgumentError(f"{where}: in_tensor_list is empty")
    group, ring = _ring(in_tensor_list[0], group, where)
    if len(in_tensor_list) != ring.size:
        raise InvalidArgumentError(
            f"{where}: in_tensor_list must hold {ring.size} tensors (one per rank), got "
            f"{len(in_tensor_list)}"
        )
    xp = module_of(in_tensor_list[0].array)
    stacked = xp.stack([item.array for item in in_tensor_list])
    out = xp.empty_like(stacked)
    work = ring.all_to_all(stacked, out)

    def after() -> None:
        out_tensor_list.clear()
        out_tensor_list.extend(_new_tensor(out[i]) for i in range(ring.size))

    return _finish(work, sync_op, after)


def scatter(
    tensor: Tensor,
    tensor_list: Sequence[Tensor] | None = None,
    src: int = 0,
    group: Group | None = None,
    sync_op: bool = True,
) -> task:
    """Rank i's ``tensor`` becomes global rank ``src``'s ``tensor_list[i]``."""
    where = "scatter"
    group, ring = _ring(tensor, group, where)
    root = _group_rank(group, src, "src", where)
    xp = module_of(tensor.array)
    if ring.rank == root:
        items = _check_list(list(tensor_list or []), "tensor_list", where)
        if len(items) != ring.size:
            raise InvalidArgumentError(
                f"{where}: tensor_list must hold {ring.size} tensors on the src rank, got "
                f"{len(items)}"
            )
        stacked = xp.stack([item.array for item in items])
    else:
        stacked = xp.empty((ring.size,) + tuple(tensor.array.shape), dtype=tensor.array.dtype)
    ring.broadcast(stacked, root).wait()
    array, write_back = _writable(tensor)
    array[...] = stacked[ring.rank]
    return _finish(DoneWork(), sync_op, _written(tensor, write_back))


def _building(tensor: Any) -> bool:
    """Whether ``tensor`` is a Value of a static program being built (not an eager Tensor)."""
    return in_static_mode() and not isinstance(tensor, Tensor)


def _build_send(tensor: Any, dst: int, group: Group | None, where: str) -> None:
    """Static mode: build the p_send op into the program, as PaddlePaddle's static send appends
    its send_v2 (ring = the group's id, peer = dst's rank in it)."""
    group = resolve(group, where)
    peer = _group_rank(group, dst, "dst", where)
    op_api("p_send")(tensor, group.id, peer, True)


def send(tensor: Tensor, dst: int = 0, group: Group | None = None, sync_op: bool = True) -> task:
    """Send ``tensor`` to global rank ``dst``, which calls ``recv`` with a tensor of the same
    dtype and shape (a different one is an InvalidArgumentError there). In a static program
    being built, it builds a p_send op (and returns None)."""
    where = "send"
    if _building(tensor):
        return _build_send(tensor, dst, group, where)
    group, ring = _ring(tensor, group, where)
    peer = _group_rank(group, dst, "dst", where)
    source = module_of(tensor.array).ascontiguousarray(tensor.array)
    return _finish(ring.send(source, peer), sync_op, None)


def recv(tensor: Tensor, src: int = 0, group: Group | None = None, sync_op: bool = True) -> task:
    """Receive into ``tensor`` what global rank ``src`` sends. In a static program being
    built, it builds a p_recv op and an assign_out_ of its result into the Value (PaddlePaddle
    3.3.1's static recv appends a legacy recv_v2 writing the variable, which its PIR builder
    refuses), and returns None."""
    where = "recv"
    if _building(tensor):
        group = resolve(group, where)
        peer = _group_rank(group, src, "src", where)
        received = op_api("p_recv")(group.id, peer, tensor.dtype, True)
        op_api("assign_out_")(received, tensor)
        return None
    group, ring = _ring(tensor, group, where)
    peer = _group_rank(group, src, "src", where)
    array, write_back = _writable(tensor)
    return _finish(ring.recv(array, peer), sync_op, _written(tensor, write_back))


def isend(tensor: Tensor, dst: int, group: Group | None = None) -> task:
    """``send`` without waiting: the returned task's ``wait()`` finishes it (in a static
    program being built, a p_send op, as ``send``)."""
    return send(tensor, dst, group, sync_op=False)


def irecv(tensor: Tensor, src: int | None = None, group: Group | None = None) -> task:
    """``recv`` without waiting: the returned task's ``wait()`` finishes it."""
    if src is None:
        raise UnimplementedError("irecv: receiving from any rank (src=None) is not implemented")
    return recv(tensor, src, group, sync_op=False)


def barrier(group: Group | None = None) -> None:
    """Wait until every rank of ``group`` has called barrier."""
    require_world("barrier")
    group = resolve(group, "barrier")
    from phiops.runtime.common import Backend

    COMM_CONTEXTS.get(group.id, Backend.CPU, "barrier").barrier().wait()


def wait(tensor: Tensor, group: Group | None = None, use_calc_stream: bool = True) -> None:
    """PaddlePaddle's stream synchronisation for ``tensor``: phiops' collectives have finished
    their work on a tensor once their task is waited for, so this only checks its arguments."""
    if not isinstance(tensor, Tensor):
        raise InvalidArgumentError(f"wait: tensor must be a Tensor, got {type(tensor).__name__}")
    resolve(group, "wait")
