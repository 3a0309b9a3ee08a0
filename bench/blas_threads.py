"""BLAS threads: phiops's FLAGS_blas_threads policies side by side, in one process.

    python bench/blas_threads.py [--repeats 7]

Unlike the other benches this one leaves OPENBLAS_NUM_THREADS alone: it measures what a user
gets with numpy's defaults. For a small and a large training step (an MLP with Adam) and a
large matmul it prints the min and median time under each policy:

- ``auto`` (``-1``, the default): one thread, the BLAS's default count for large products;
- ``blas default`` (``0``): phiops leaves the BLAS alone (one thread per core);
- ``one thread`` (``1``).

Not a test.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Callable

import numpy as np

import phiops as phi
from phiops.runtime.kernels import blas
from phiops.runtime.optimizer import Adam

POLICIES = {"auto": -1, "blas default": 0, "one thread": 1}


def mlp_step(batch: int, inputs: int, hidden: int, classes: int) -> Callable[[], None]:
    rng = np.random.default_rng(0)
    x = phi.to_tensor(rng.random((batch, inputs), dtype=np.float32))
    y = phi.to_tensor(rng.integers(0, classes, (batch, 1)))
    shapes = [(inputs, hidden), (hidden,), (hidden, classes), (classes,)]
    params = [
        phi.to_tensor(rng.uniform(-0.05, 0.05, shape).astype(np.float32), stop_gradient=False)
        for shape in shapes
    ]
    w1, b1, w2, b2 = params
    optimizer = Adam(learning_rate=1e-3, parameters=params)

    def step() -> None:
        h = phi.relu(phi.add(phi.matmul(x, w1), b1))
        _, loss = phi.cross_entropy_with_softmax(phi.add(phi.matmul(h, w2), b2), y)
        phi.mean(loss).backward()
        optimizer.step()
        optimizer.clear_grad()

    return step


def matmul(size: int) -> Callable[[], None]:
    a = phi.to_tensor(np.random.default_rng(0).random((size, size), dtype=np.float32))
    return lambda: phi.matmul(a, a)


def timings(run: Callable[[], None], repeats: int, number: int) -> list[float]:
    run()
    result = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(number):
            run()
        result.append((time.perf_counter() - start) / number)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    options = parser.parse_args()
    cases = [
        ("digits MLP step, batch 64, 64-128-10", mlp_step(64, 64, 128, 10), 50),
        ("wide MLP step, batch 256, 1024-1024-10", mlp_step(256, 1024, 1024, 10), 3),
        ("matmul 1024x1024", matmul(1024), 5),
    ]
    info = blas.blas_info()
    print(f"BLAS default threads: {info['default_threads']}; large product: at least 2^23 MACs")
    for name, run, number in cases:
        print(name)
        base = None
        for label, policy in POLICIES.items():
            phi.set_flags({"FLAGS_blas_threads": policy})
            measured = timings(run, options.repeats, number)
            best, median = min(measured), statistics.median(measured)
            base = base or best
            print(
                f"  {label:13s} min {best * 1e3:8.2f} ms  median {median * 1e3:8.2f} ms"
                f"  ({best / base:.2f}x auto)"
            )
    phi.set_flags({"FLAGS_blas_threads": -1})


if __name__ == "__main__":
    main()
