"""paddle.distributed's API in one process (a world of one rank): PaddlePaddle 3.3.1's
signatures (recorded by tests/tools/make_distributed_fixtures.py), what each function does with
one rank, and the errors for bad arguments."""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Iterator

import numpy as np
import pytest

import phiops as paddle
import phiops.distributed as dist
from phiops import _C_ops
from phiops.runtime.comm import COMM_CONTEXTS
from phiops.runtime.errors import (
    InvalidArgumentError,
    NotFoundError,
    PreconditionNotMetError,
    UnimplementedError,
)

SIGNATURES = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "distributed" / "signatures.json").read_text()
)


@pytest.fixture(autouse=True)
def fresh_environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test starts and ends outside any parallel environment."""
    for name in ("PADDLE_TRAINER_ID", "PADDLE_TRAINERS_NUM", "PMI_RANK", "PMI_SIZE"):
        monkeypatch.delenv(name, raising=False)
    dist.destroy_process_group()
    yield
    dist.destroy_process_group()


def _parameters(target: object) -> list[list[str]]:
    return [
        [p.name, p.kind.name, "" if p.default is p.empty else repr(p.default)]
        for p in inspect.signature(target).parameters.values()
    ]


@pytest.mark.parametrize("name", sorted(set(SIGNATURES) - {"ReduceOp"}))
def test_signatures_are_paddles(name: str) -> None:
    target = paddle.io.DistributedBatchSampler if name.startswith("io.") else getattr(dist, name)
    got = _parameters(target)
    want = SIGNATURES[name]
    assert got == want


def test_reduce_op_values_are_paddles() -> None:
    assert [[op, "VALUE", repr(int(getattr(dist.ReduceOp, op)))] for op in (
        "SUM", "MAX", "MIN", "PROD", "AVG"
    )] == SIGNATURES["ReduceOp"]


def test_data_parallel_is_paddle_data_parallel() -> None:
    assert paddle.DataParallel is dist.DataParallel


def test_a_world_of_one_process_is_rank_0_of_1() -> None:
    group = dist.init_parallel_env()
    assert (group.rank, group.ranks, group.nranks, group.id) == (0, [0], 1, 0)
    assert dist.get_rank() == 0 and dist.get_world_size() == 1 and dist.is_initialized()
    assert dist.ParallelEnv().world_size == 1 and dist.ParallelEnv().rank == 0
    assert dist.init_parallel_env() is group
    assert dist.get_backend() == "LOCAL"


def test_outside_a_parallel_environment_the_launchers_variables_give_rank_and_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PMI_RANK", "3")
    monkeypatch.setenv("PMI_SIZE", "4")
    assert dist.get_rank() == 3 and dist.get_world_size() == 4 and not dist.is_initialized()
    sampler = paddle.io.DistributedBatchSampler(list(range(16)), batch_size=2)
    assert (sampler.local_rank, sampler.nranks) == (3, 4)
    assert list(sampler) == [[6, 7], [14, 15]]


def test_a_launched_process_must_initialise_before_a_collective_op(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PMI_RANK", "0")
    with pytest.raises(PreconditionNotMetError, match="call paddle.distributed.init_parallel_env"):
        _C_ops.all_reduce(paddle.to_tensor([1.0]), 0, 0)


def test_collectives_on_one_rank_write_their_tensors() -> None:
    dist.init_parallel_env()
    tensor = paddle.to_tensor(np.array([1.0, 2.0], dtype=np.float32))
    task = dist.all_reduce(tensor, op=dist.ReduceOp.MAX, sync_op=False)
    assert task.wait() and task.is_completed()
    gathered: list = [paddle.to_tensor([9.0])]
    dist.all_gather(gathered, tensor)
    assert len(gathered) == 1 and gathered[0].numpy().tolist() == [1.0, 2.0]
    dist.broadcast(tensor, src=0)
    dist.reduce(tensor, dst=0, op=dist.ReduceOp.PROD)
    out = paddle.zeros([2], dtype="float32")
    dist.reduce_scatter(out, [tensor])
    assert out.numpy().tolist() == [1.0, 2.0]
    received: list = []
    dist.alltoall(received, [tensor])
    assert received[0].numpy().tolist() == [1.0, 2.0]
    scattered = paddle.zeros([2], dtype="float32")
    dist.scatter(scattered, [tensor], src=0)
    assert scattered.numpy().tolist() == [1.0, 2.0]
    dist.send(tensor, dst=0)
    back = paddle.zeros([2], dtype="float32")
    dist.recv(back, src=0)
    assert back.numpy().tolist() == [1.0, 2.0]
    objects: list = []
    dist.all_gather_object(objects, {"a": 1})
    assert objects == [{"a": 1}]
    dist.barrier()
    dist.wait(tensor)


def test_a_non_contiguous_tensor_is_written_back() -> None:
    dist.init_parallel_env()
    base = paddle.to_tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    column = base[:, 1]
    dist.all_reduce(column)
    assert column.numpy().tolist() == [1.0, 4.0]


def test_new_group_and_get_group() -> None:
    dist.init_parallel_env()
    group = dist.new_group([0])
    assert group.id == 1 and group.ranks == [0] and group.rank == 0 and group.is_member()
    assert dist.get_group(1) is group and dist.get_rank(group) == 0
    assert group.get_group_rank(0) == 0 and group.get_global_rank(0) == 0
    tensor = paddle.to_tensor([3.0])
    dist.all_reduce(tensor, group=group)
    assert _C_ops.all_reduce(tensor, 1, 0).numpy().tolist() == [3.0]
    with pytest.raises(NotFoundError, match="no group with id 5"):
        dist.get_group(5)


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda t: dist.all_reduce(t, op=9), InvalidArgumentError, "reduce_type must be one of"),
        (lambda t: dist.all_reduce([1.0]), InvalidArgumentError, "tensor must be a Tensor"),
        (lambda t: dist.all_reduce(t, group="g"), InvalidArgumentError, "group must be a Group"),
        (lambda t: dist.broadcast(t, src=1), InvalidArgumentError, r"src must be a global rank"),
        (lambda t: dist.reduce(t, dst=-1), InvalidArgumentError, r"dst must be a global rank"),
        (lambda t: dist.all_gather(None, t), InvalidArgumentError, "tensor_list must be a list"),
        (lambda t: dist.reduce_scatter(t, [t, t]), InvalidArgumentError, "must hold 1 tensors"),
        (lambda t: dist.recv(t, src=0), Exception, "nothing was sent"),
        (lambda t: dist.irecv(t), UnimplementedError, "src=None"),
        (lambda t: dist.new_group([0, 1]), InvalidArgumentError, r"ranks must be distinct ranks"),
        (lambda t: dist.new_group(backend="ucc"), InvalidArgumentError, "backend must be"),
        (lambda t: dist.init_parallel_env(nccl_config=1), UnimplementedError, "nccl_config"),
    ],
)
def test_bad_arguments_are_named_errors(call, error: type, message: str) -> None:
    dist.init_parallel_env()
    with pytest.raises(error, match=message):
        call(paddle.to_tensor([1.0, 2.0]))


def test_data_parallel_in_one_process_is_the_model_itself() -> None:
    dist.init_parallel_env()
    paddle.seed(1)
    layer = paddle.nn.Linear(3, 2)
    model = paddle.DataParallel(layer)
    x = paddle.to_tensor(np.ones((4, 3), dtype=np.float32))
    np.testing.assert_array_equal(model(x).numpy(), layer(x).numpy())
    assert list(model.state_dict()) == list(layer.state_dict()) == ["weight", "bias"]
    assert [id(p) for p in model.parameters()] == [id(p) for p in layer.parameters()]
    with model.no_sync():
        model(x).sum().backward()
    assert layer.weight.grad is not None
    assert model.scale_loss(x) is x


@pytest.mark.parametrize(
    "arguments, error, message",
    [
        ({"strategy": object()}, UnimplementedError, "strategy"),
        ({"comm_buffer_size": 0}, InvalidArgumentError, "comm_buffer_size must be a positive"),
        ({"find_unused_parameters": 1}, InvalidArgumentError, "find_unused_parameters must"),
    ],
)
def test_data_parallel_rejects_bad_arguments(arguments: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        paddle.DataParallel(paddle.nn.Linear(2, 2), **arguments)
    with pytest.raises(InvalidArgumentError, match="layers must be a Layer"):
        paddle.DataParallel(object())


def test_destroy_process_group_starts_over() -> None:
    dist.init_parallel_env()
    dist.new_group([0])
    dist.destroy_process_group()
    assert not dist.is_initialized() and COMM_CONTEXTS.rings() == []


@pytest.mark.parametrize(
    "legacy, attributes",
    [
        ("c_allreduce_sum", ("ring_id", "use_calc_stream", "use_model_parallel")),
        ("c_allreduce_max", ("ring_id", "use_calc_stream", "use_model_parallel")),
        ("c_broadcast", ("ring_id", "root", "use_calc_stream")),
        ("c_allgather", ("ring_id", "nranks", "use_calc_stream")),
        ("c_identity", ("ring_id", "use_calc_stream", "use_model_parallel")),
        ("c_concat", ("rank", "nranks", "ring_id", "use_calc_stream", "use_model_parallel")),
        ("barrier", ("ring_id",)),
    ],
)
def test_legacy_collective_ops_map_their_x_and_out(legacy: str, attributes: tuple) -> None:
    from phiops.runtime.compat import LegacyCallContext, argument_mapping

    signature = argument_mapping(legacy)(LegacyCallContext({"X": np.ones(2)}, {}))
    assert signature.name == legacy
    assert tuple(signature.inputs) == ("X",) and tuple(signature.outputs) == ("Out",)
    assert tuple(signature.attrs) == attributes
