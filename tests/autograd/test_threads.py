"""Autograd from several threads: grad mode is per thread, shared leaves lose no update."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator

import numpy as np
import pytest

import phiops.generated as phi

THREADS = 8


@pytest.fixture(autouse=True)
def frequent_thread_switches() -> Iterator[None]:
    """Switch threads every microsecond so that races show up within a short test."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(interval)


def run_threads(work: Callable[[int], None]) -> None:
    errors: list[BaseException] = []

    def guarded(index: int) -> None:
        try:
            work(index)
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            errors.append(error)

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


def test_no_grad_in_one_thread_leaves_other_threads_recording() -> None:
    inside = threading.Event()
    release = threading.Event()
    seen: dict[str, bool] = {}

    def hold_no_grad() -> None:
        with phi.no_grad():
            inside.set()
            release.wait(5)

    holder = threading.Thread(target=hold_no_grad)
    holder.start()
    inside.wait(5)
    x = phi.to_tensor([1.0], stop_gradient=False)
    seen["recorded"] = not phi.exp(x).stop_gradient
    seen["enabled"] = phi.is_grad_enabled()
    release.set()
    holder.join()
    assert seen == {"recorded": True, "enabled": True}


def test_a_new_thread_starts_with_grad_mode_on_whatever_the_main_thread_set() -> None:
    result: list[bool] = []
    with phi.no_grad():
        thread = threading.Thread(target=lambda: result.append(phi.is_grad_enabled()))
        thread.start()
        thread.join()
        assert not phi.is_grad_enabled()
    assert result == [True] and phi.is_grad_enabled()


def test_no_grad_in_threads_leaves_grad_mode_on_afterwards() -> None:
    def work(_: int) -> None:
        for _ in range(200):
            with phi.no_grad():
                phi.exp(phi.to_tensor([1.0], stop_gradient=False))

    run_threads(work)
    assert phi.is_grad_enabled()


def test_one_no_grad_object_entered_by_several_threads_restores_each_threads_mode() -> None:
    guard = phi.no_grad()

    def work(_: int) -> None:
        for _ in range(200):
            with guard:
                assert not phi.is_grad_enabled()
            assert phi.is_grad_enabled()

    run_threads(work)


def test_training_steps_in_threads_all_get_gradients() -> None:
    failures: list[int] = []

    def work(index: int) -> None:
        w = phi.to_tensor(np.full((3,), 0.5), stop_gradient=False)
        for step in range(100):
            if step % 2:
                with phi.no_grad():
                    phi.scale(w, 2.0)
            loss = phi.sum(phi.multiply(w, w))
            loss.backward()
            if w.grad is None:
                failures.append(index)
            w.clear_gradient()

    run_threads(work)
    assert failures == []


def test_threads_running_backward_on_one_graph_add_every_gradient_to_the_shared_leaf() -> None:
    x = phi.to_tensor(np.ones((4,)), stop_gradient=False)
    loss = phi.sum(phi.scale(x, 3.0))
    rounds = 50

    def work(_: int) -> None:
        for _ in range(rounds):
            loss.backward(retain_graph=True)

    run_threads(work)
    np.testing.assert_array_equal(x.grad.numpy(), np.full((4,), 3.0 * rounds * THREADS))
