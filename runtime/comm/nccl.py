"""NCCLCommContext: collectives on CuPy arrays through NCCL (``cupy.cuda.nccl``), the GPU engine.

Arrays are passed to NCCL by their device pointers (no copy); each call is enqueued on the
current CUDA stream and its Work waits for an event recorded after it. The NCCL unique id is
handed from rank 0 to the others through the MPI world (the processes are started by the MPI
launcher on GPU machines too); a ring of one process needs no MPI at all. Each rank takes the
GPU of its rank on its node (``gpu:<local rank>``, PaddlePaddle's ``dev_id``); NCCL refuses two
ranks on one GPU, so more ranks on a node than it has GPUs is a named error on every rank of
that node before any communicator is made (NCCL's own answer is "invalid usage"). NCCL cannot reduce
bool, int16, bfloat16 (on the NCCLs CuPy binds) or complex tensors: those are reduced as the MPI
context does, by gathering their bytes and reducing them on the device in rank order.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from phiops.runtime.backends import array_module, nccl_module
from phiops.runtime.common import Backend
from phiops.runtime.comm.context import (
    SIGNATURE_LENGTH,
    CommContext,
    ReduceOp,
    Work,
    check_reducible,
    divide_in_place,
    message_of_signature,
    reduce_arrays,
    signature_of,
)
from phiops.runtime.errors import PreconditionNotMetError, UnimplementedError

__all__ = ["NCCLCommContext", "device_for_local_rank"]

_NCCL_DTYPES = {
    "int8": "NCCL_INT8",
    "uint8": "NCCL_UINT8",
    "int32": "NCCL_INT32",
    "int64": "NCCL_INT64",
    "float16": "NCCL_FLOAT16",
    "float32": "NCCL_FLOAT32",
    "float64": "NCCL_FLOAT64",
}
_NCCL_OPS = {
    ReduceOp.SUM: "NCCL_SUM",
    ReduceOp.MAX: "NCCL_MAX",
    ReduceOp.MIN: "NCCL_MIN",
    ReduceOp.PROD: "NCCL_PROD",
    ReduceOp.AVG: "NCCL_SUM",
}


def _device_xp() -> Any:
    return array_module(Backend.GPU)


def device_for_local_rank(rank: int, local_rank: int, local_size: int, device_count: int) -> int:
    """The GPU that rank ``rank`` (``local_rank`` of the ``local_size`` ranks on its node) uses:
    ``gpu:<local_rank>``; a PreconditionNotMetError when the node has fewer GPUs than ranks."""
    if device_count < 1:
        raise PreconditionNotMetError(
            f"NCCL: rank {rank} sees no CUDA device; GPU collectives need one GPU per rank"
        )
    if local_size > device_count:
        raise PreconditionNotMetError(
            f"NCCL needs one GPU per rank: this node runs {local_size} ranks and has "
            f"{device_count} GPU{'s' if device_count > 1 else ''}, so rank {rank} (local rank "
            f"{local_rank}) would share gpu:{local_rank % device_count} with another rank, which "
            f"NCCL refuses; start at most {device_count} rank{'s' if device_count > 1 else ''} "
            f"per node (phiops launch --nproc_per_node {device_count}), or keep the tensors on "
            "the CPU, whose collectives go through MPI"
        )
    return local_rank


class _EventWork(Work):
    """A collective enqueued on a CUDA stream, finished when its event is."""

    __slots__ = ("_event", "_finish")

    def __init__(self, event: Any, finish: Any = None) -> None:
        self._event = event
        self._finish = finish

    def wait(self) -> None:
        self._event.synchronize()
        if self._finish is not None:
            finish, self._finish = self._finish, None
            finish()

    def is_completed(self) -> bool:
        return bool(self._event.done)


class NCCLCommContext(CommContext):
    """A ring of GPU processes, one device each; arrays are CuPy arrays."""

    backend_name = "NCCL"

    def __init__(self, ring_id: int, rank: int, size: int, unique_id: Any) -> None:
        super().__init__(ring_id, rank, size)
        self.nccl = nccl_module()
        try:
            self.comm = self.nccl.NcclCommunicator(size, unique_id, rank)
        except self.nccl.NcclError as error:
            raise PreconditionNotMetError(
                f"{self.where('init')}: NCCL could not make the communicator of {size} ranks: "
                f"{error}"
            ) from None

    @classmethod
    def world(cls, ring_id: int = 0) -> "NCCLCommContext":
        """The context over every process of the job: one process alone, or the MPI world, each
        rank on the GPU of its rank on its node."""
        nccl = nccl_module()
        from phiops.runtime.comm.mpi import launched_by_mpi, mpi

        if not launched_by_mpi():
            return cls(ring_id, 0, 1, nccl.get_unique_id())
        module = mpi()
        world = module.COMM_WORLD
        node = world.Split_type(module.COMM_TYPE_SHARED)
        try:
            local_rank, local_size = node.Get_rank(), node.Get_size()
        finally:
            node.Free()
        count = _device_xp().cuda.runtime.getDeviceCount()
        device = device_for_local_rank(world.Get_rank(), local_rank, local_size, count)
        _device_xp().cuda.Device(device).use()
        unique_id = world.bcast(nccl.get_unique_id() if world.Get_rank() == 0 else None, root=0)
        return cls(ring_id, world.Get_rank(), world.Get_size(), unique_id)

    def _stream(self) -> Any:
        return _device_xp().cuda.get_current_stream()

    def _done(self, finish: Any = None) -> Work:
        xp = _device_xp()
        event = xp.cuda.Event()
        event.record(self._stream())
        return _EventWork(event, finish)

    def _type(self, dtype: np.dtype) -> int | None:
        name = _NCCL_DTYPES.get(str(dtype))
        return None if name is None else getattr(self.nccl, name)

    def all_reduce(self, x: Any, out: Any, op: ReduceOp) -> Work:
        check_reducible(x.dtype, op, self.where("all_reduce"))
        xp = _device_xp()
        x = xp.ascontiguousarray(x)
        kind = self._type(x.dtype)
        if kind is None:
            gathered = xp.empty((self.size,) + x.shape, dtype=x.dtype)
            self.all_gather(x, gathered).wait()
            out[...] = reduce_arrays(xp, gathered, op)
            return self._done()
        self.comm.allReduce(
            x.data.ptr, out.data.ptr, x.size, kind, getattr(self.nccl, _NCCL_OPS[op]),
            self._stream().ptr,
        )
        finish = (lambda: divide_in_place(xp, out, self.size)) if op is ReduceOp.AVG else None
        return self._done(finish)

    def broadcast(self, buffer: Any, root: int) -> Work:
        self.check_root("broadcast", root)
        raw = buffer.reshape(-1).view(np.uint8)
        self.comm.broadcast(
            raw.data.ptr, raw.data.ptr, raw.size, self.nccl.NCCL_UINT8, root, self._stream().ptr
        )
        return self._done()

    def reduce(self, x: Any, out: Any, root: int, op: ReduceOp) -> Work:
        self.check_root("reduce", root)
        work = self.all_reduce(x, out, op)
        if self.rank != root:
            work.wait()
            out[...] = x
        return work

    def all_gather(self, x: Any, out: Any) -> Work:
        xp = _device_xp()
        raw = xp.ascontiguousarray(x).reshape(-1).view(np.uint8)
        target = out.reshape(-1).view(np.uint8)
        self.comm.allGather(
            raw.data.ptr, target.data.ptr, raw.size, self.nccl.NCCL_UINT8, self._stream().ptr
        )
        return self._done()

    def reduce_scatter(self, x: Any, out: Any, op: ReduceOp) -> Work:
        self.check_divisible("reduce_scatter", x)
        xp = _device_xp()
        total = xp.empty_like(x)
        self.all_reduce(x, total, op).wait()
        part = x.shape[0] // self.size
        out[...] = total[self.rank * part : (self.rank + 1) * part]
        return self._done()

    def all_to_all(self, x: Any, out: Any) -> Work:
        self.check_divisible("all_to_all", x)
        xp = _device_xp()
        source = xp.ascontiguousarray(x).reshape(self.size, -1).view(np.uint8)
        target = out.reshape(self.size, -1).view(np.uint8)
        stream = self._stream().ptr
        self.nccl.groupStart()
        for peer in range(self.size):
            self.comm.send(source[peer].data.ptr, source[peer].size, self.nccl.NCCL_UINT8, peer, stream)
            self.comm.recv(target[peer].data.ptr, target[peer].size, self.nccl.NCCL_UINT8, peer, stream)
        self.nccl.groupEnd()
        return self._done()

    def send(self, x: Any, peer: int) -> Work:
        self.check_root("send", peer)
        xp = _device_xp()
        raw = xp.ascontiguousarray(x).reshape(-1).view(np.uint8)
        self.comm.send(raw.data.ptr, raw.size, self.nccl.NCCL_UINT8, peer, self._stream().ptr)
        return self._done()

    def recv(self, out: Any, peer: int) -> Work:
        self.check_root("recv", peer)
        raw = out.reshape(-1).view(np.uint8)
        self.comm.recv(raw.data.ptr, raw.size, self.nccl.NCCL_UINT8, peer, self._stream().ptr)
        return self._done()

    def send_with_shape(self, x: Any, peer: int) -> Work:
        # NCCL messages carry no header: the signature (dtype and shape) goes first, as PHI's
        # p_send sends the shape before the data when dynamic_shape is set
        self.check_root("send", peer)
        xp = _device_xp()
        header = xp.asarray(signature_of("send", x))
        self.comm.send(header.data.ptr, header.size, self.nccl.NCCL_INT64, peer, self._stream().ptr)
        return self.send(x, peer)

    def recv_with_shape(self, dtype: Any, peer: int) -> tuple[Any, Work]:
        self.check_root("recv", peer)
        xp = _device_xp()
        header = xp.empty(SIGNATURE_LENGTH, dtype=np.int64)
        self.comm.recv(header.data.ptr, header.size, self.nccl.NCCL_INT64, peer, self._stream().ptr)
        self._done().wait()
        what = f"recv from rank {peer}"
        sent_dtype, shape = message_of_signature(xp.asnumpy(header), self.where(what))
        out = xp.empty(shape, dtype=sent_dtype)
        work = self.recv(out, peer)
        if np.dtype(sent_dtype) != np.dtype(dtype):
            work.wait()  # the message is taken all the same, so the next recv gets the next
            self.check_received_dtype(what, sent_dtype, dtype, peer)
        return out, work

    def barrier(self) -> Work:
        xp = _device_xp()
        token = xp.zeros(1, dtype=np.float32)
        return self.all_reduce(token, token, ReduceOp.SUM)

    def split(self, ranks: Sequence[int], ring_id: int) -> CommContext | None:
        raise UnimplementedError(
            f"{self.where('new_group')}: phiops builds NCCL rings over the whole world only; "
            "new_group on GPU tensors is not implemented"
        )
