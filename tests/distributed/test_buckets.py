"""DataParallel's gradient buckets, seen through a recording ring of 2 ranks in one process:
buckets start during backward, as soon as their gradients are in, in index order, and backward
returns only after every bucket is finished, with the averaged gradients in ``.grad``."""

from __future__ import annotations

from typing import Any, Iterator

import numpy as np
import pytest

import phiops as paddle
import phiops.distributed as dist
from phiops.runtime.comm import COMM_CONTEXTS, CommContext, ReduceOp, Work
from phiops.runtime.common import Backend
from phiops.runtime.errors import PreconditionNotMetError


class _Recorded(Work):
    def __init__(self, events: list, bucket: int, finish: Any) -> None:
        self.events, self.bucket, self.finish = events, bucket, finish

    def wait(self) -> None:
        if self.finish is not None:
            self.finish()
            self.finish = None
            self.events.append(("wait", self.bucket))

    def is_completed(self) -> bool:
        return False


class RecordingRing(CommContext):
    """Ring 0 of 2 ranks whose other rank holds gradients ``other`` times this rank's."""

    backend_name = "recording"

    def __init__(self, other: float) -> None:
        super().__init__(0, 0, 2)
        self.other = other
        self.events: list[tuple[str, int]] = []
        self.launched = 0

    def broadcast(self, buffer: Any, root: int) -> Work:
        return _Recorded([], -1, None)

    def all_reduce(self, x: Any, out: Any, op: ReduceOp) -> Work:
        assert op is ReduceOp.AVG and x is out
        bucket = self.launched
        self.launched += 1
        self.events.append(("launch", bucket))

        def finish() -> None:
            out[...] = out * (1 + self.other) / 2

        return _Recorded(self.events, bucket, finish)


@pytest.fixture()
def ring() -> Iterator[RecordingRing]:
    dist.destroy_process_group()
    dist.init_parallel_env()
    COMM_CONTEXTS.clear()
    recording = RecordingRing(other=3.0)
    COMM_CONTEXTS.set(0, Backend.CPU, recording)
    yield recording
    dist.destroy_process_group()


def _model() -> paddle.nn.Layer:
    paddle.seed(0)
    nn = paddle.nn
    return nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 4))


def _gradients(model: paddle.nn.Layer, x: np.ndarray) -> list[np.ndarray]:
    model(paddle.to_tensor(x)).sum().backward()
    return [p.grad.numpy().copy() for p in model.parameters()]


def test_buckets_start_during_backward_in_order_and_finish_before_it_returns(
    ring: RecordingRing,
) -> None:
    x = np.random.default_rng(0).standard_normal((5, 8)).astype(np.float32)
    expected = [2.0 * g for g in _gradients(_model(), x)]  # (g + 3g) / 2
    hooks_seen: list[int] = []
    model = paddle.DataParallel(_model(), comm_buffer_size=0.01, last_comm_buffer_size=0.001)
    for parameter in model.parameters():
        parameter.register_hook(lambda g: hooks_seen.append(len(ring.events)))
    got = _gradients(model, x)
    launches = [bucket for kind, bucket in ring.events if kind == "launch"]
    waits = [bucket for kind, bucket in ring.events if kind == "wait"]
    assert len(launches) >= 3 and launches == sorted(launches) == waits
    first_wait = ring.events.index(("wait", 0))
    assert ring.events[:first_wait] == [("launch", b) for b in launches]  # all in flight at once
    assert min(hooks_seen) < len(launches)  # a bucket was sent before the last gradient came
    for value, want in zip(got, expected):
        np.testing.assert_allclose(value, want, rtol=1e-6)


def test_no_sync_accumulates_and_the_next_backward_sends_the_sum(ring: RecordingRing) -> None:
    x = np.ones((2, 8), dtype=np.float32)
    single = _gradients(_model(), x)
    model = paddle.DataParallel(_model())
    with model.no_sync():
        _gradients(model, x)
    assert ring.events == []
    got = _gradients(model, x)
    for value, want in zip(got, single):
        np.testing.assert_allclose(value, 2.0 * (2.0 * want), rtol=1e-6)


def test_a_parameter_without_gradient_is_named_at_the_next_forward(ring: RecordingRing) -> None:
    class TwoHeads(paddle.nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.used = paddle.nn.Linear(3, 2)
            self.unused = paddle.nn.Linear(3, 2)

        def forward(self, x: paddle.Tensor) -> paddle.Tensor:
            return self.used(x)

    model = paddle.DataParallel(TwoHeads())
    x = paddle.to_tensor(np.ones((1, 3), dtype=np.float32))
    model(x).sum().backward()
    with pytest.raises(PreconditionNotMetError, match=r"parameters \['unused.weight', 'unused.bias'\]"):
        model(x)
    found = paddle.DataParallel(TwoHeads(), find_unused_parameters=True)
    found(x).sum().backward()
    assert found._layers.unused.weight.grad.numpy().tolist() == [[0.0, 0.0]] * 3
