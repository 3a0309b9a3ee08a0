"""relu, relu_grad and the reductions sum, mean and softmax at 1M float32 elements: phiops next
to numpy's best way of computing the same thing (the floor), as ratios measured in this process.

Times are this process's CPU time, the best of several repeats, so that time spent waiting while
other processes run on a shared machine does not count. Not a test:

    PYTHONPATH=$PWD python bench/reductions.py
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import time  # noqa: E402
import timeit  # noqa: E402
from typing import Any, Callable  # noqa: E402

import numpy as np  # noqa: E402

import phiops as phi  # noqa: E402
import phiops.generated.backward as phi_backward  # noqa: E402


def best_time(fn: Callable[[], Any], number: int = 10, repeat: int = 7) -> float:
    fn()
    return min(timeit.repeat(fn, number=number, repeat=repeat, timer=time.process_time)) / number


def numpy_softmax(a: np.ndarray) -> np.ndarray:
    shifted = a - a.max(axis=-1, keepdims=True)
    np.exp(shifted, out=shifted)
    shifted /= shifted.sum(axis=-1, keepdims=True)
    return shifted


def main() -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal(1 << 20).astype(np.float32)
    g = rng.standard_normal(1 << 20).astype(np.float32)
    out = np.maximum(a, np.float32(0))
    rows = a.reshape(1024, 1024)
    t, tg, tout, trows = (phi.to_tensor(v) for v in (a, g, out, rows))
    cases = {
        "relu": (lambda: phi.relu(t), lambda: np.maximum(a, np.float32(0))),
        "relu_grad": (
            lambda: phi_backward.relu_grad(tout, tg),
            lambda: np.multiply(g, np.greater(out, 0)),
        ),
        "sum": (lambda: phi.sum(t), lambda: a.sum()),
        "mean": (lambda: phi.mean(t), lambda: a.mean()),
        "softmax [1024,1024] axis -1": (
            lambda: phi.softmax(trows, -1),
            lambda: numpy_softmax(rows),
        ),
    }
    print("1M float32 elements, CPU time, best of 7")
    for label, (phiops, numpy) in cases.items():
        p, n = best_time(phiops), best_time(numpy)
        print(f"  {label:<28}phiops {p * 1e6:9.1f} us   numpy {n * 1e6:9.1f} us   {p / n:5.2f}x")


if __name__ == "__main__":
    main()
