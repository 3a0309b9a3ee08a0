"""One training step of the digits MLP (batch 64, 64 -> 128 -> 10, Adam): phiops next to
PyTorch and PaddlePaddle when they are installed, as ratios measured in this process.

A step is forward (matmul, add, relu, matmul, add, softmax cross-entropy, mean), backward and an
Adam update. Not a test: run it with `make bench` or `python bench/train_step.py`.
"""

from __future__ import annotations

import os

# One BLAS thread, like torch.set_num_threads(1) below: for matrices this small, OpenBLAS threads
# cost more to wake than they save (milliseconds on a 2-core machine), which would swamp the
# comparison. Set before numpy is imported, which is when OpenBLAS reads it.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")  # PaddlePaddle's CPU kernels

import importlib  # noqa: E402
import timeit  # noqa: E402
from typing import Any, Callable  # noqa: E402

import numpy as np  # noqa: E402

import generated as phi  # noqa: E402
from runtime.optimizer import Adam  # noqa: E402

BATCH, INPUTS, HIDDEN, CLASSES = 64, 64, 128, 10


def data(seed: int = 0) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    x = rng.random((BATCH, INPUTS), dtype=np.float32)
    y = rng.integers(0, CLASSES, BATCH)
    w1 = rng.uniform(-0.2, 0.2, (INPUTS, HIDDEN)).astype(np.float32)
    w2 = rng.uniform(-0.2, 0.2, (HIDDEN, CLASSES)).astype(np.float32)
    return x, y, w1, np.zeros(HIDDEN, np.float32), w2, np.zeros(CLASSES, np.float32)


def phiops_step() -> Callable[[], Any]:
    x, y, *weights = data()
    params = [phi.to_tensor(w, stop_gradient=False) for w in weights]
    w1, b1, w2, b2 = params
    optimizer = Adam(learning_rate=1e-3, parameters=params)
    tx, ty = phi.to_tensor(x), phi.to_tensor(y.reshape(-1, 1))

    def step() -> None:
        hidden = phi.relu(phi.add(phi.matmul(tx, w1), b1))
        _, loss = phi.cross_entropy_with_softmax(phi.add(phi.matmul(hidden, w2), b2), ty)
        phi.mean(loss).backward()
        optimizer.step()
        optimizer.clear_grad()

    return step


def torch_step(torch: Any) -> Callable[[], Any]:
    x, y, *weights = data()
    params = [torch.tensor(w, requires_grad=True) for w in weights]
    w1, b1, w2, b2 = params
    optimizer = torch.optim.Adam(params, lr=1e-3)
    tx, ty = torch.from_numpy(x), torch.from_numpy(y)

    def step() -> None:
        hidden = torch.relu(tx @ w1 + b1)
        loss = torch.nn.functional.cross_entropy(hidden @ w2 + b2, ty)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()

    return step


def paddle_step(paddle: Any) -> Callable[[], Any]:
    x, y, *weights = data()
    params = [paddle.to_tensor(w, stop_gradient=False) for w in weights]
    w1, b1, w2, b2 = params
    optimizer = paddle.optimizer.Adam(learning_rate=1e-3, parameters=params)
    tx, ty = paddle.to_tensor(x), paddle.to_tensor(y.reshape(-1, 1))

    def step() -> None:
        hidden = paddle.nn.functional.relu(paddle.matmul(tx, w1) + b1)
        loss = paddle.nn.functional.cross_entropy(paddle.matmul(hidden, w2) + b2, ty)
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()

    return step


def best_time(fn: Callable[[], Any], number: int = 200) -> float:
    fn()
    return min(timeit.repeat(fn, number=number, repeat=5)) / number


def main() -> None:
    steps = {"phiops": phiops_step()}
    for name, builder in (("torch", torch_step), ("paddle", paddle_step)):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if name == "torch":
            module.set_num_threads(1)
        steps[name] = builder(module)
    times = {name: best_time(step) for name, step in steps.items()}
    print(f"train step, batch {BATCH}, {INPUTS}-{HIDDEN}-{CLASSES} MLP, Adam, one thread each:")
    for name, seconds in times.items():
        ratio = "" if name == "phiops" else f"   phiops / {name} = {times['phiops'] / seconds:.2f}x"
        print(f"  {name:<8}{seconds * 1e6:10.1f} us{ratio}")
    if len(times) == 1:
        print("  (PyTorch and PaddlePaddle are not installed: nothing to compare with)")


if __name__ == "__main__":
    main()
