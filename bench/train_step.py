"""One training step of an MLP with Adam: phiops next to PyTorch and PaddlePaddle when they are
installed, as ratios measured in this process.

Two sizes: the digits MLP (batch 64, 64 -> 128 -> 10) and a large one (batch 256,
1024 -> 1024 -> 10). A step is forward (matmul, add, relu, matmul, add, softmax cross-entropy,
mean), backward and an Adam update; "phiops per-parameter" is the step as it was before the
multi-tensor optimizer (one adam_ call per parameter, gradients reset to zeros). A last table times the Adam update alone on the large MLP's
four parameters, phiops's multi-tensor step (one merged_adam_ call, the default) next to its
per-parameter one (one adam_ call per parameter) and PyTorch's.

Each figure is seconds per step over several repeats: the minimum (the machine's best) and the
median (what a loaded machine gives); ratios are phiops / other of each. Not a test: run it with
`make bench` or `python bench/train_step.py`.
"""

from __future__ import annotations

import os

# One BLAS thread, like torch.set_num_threads(1) below: for matrices this small, OpenBLAS threads
# cost more to wake than they save (milliseconds on a 2-core machine), which would swamp the
# comparison. Set before numpy is imported, which is when OpenBLAS reads it.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")  # PaddlePaddle's CPU kernels

import importlib  # noqa: E402
import statistics  # noqa: E402
import timeit  # noqa: E402
from typing import Any, Callable  # noqa: E402

import numpy as np  # noqa: E402

import phiops as phi  # noqa: E402
from phiops.runtime.optimizer import Adam  # noqa: E402

# (label, batch, inputs, hidden, classes, steps per repeat)
SIZES = (
    ("digits MLP, batch 64, 64-128-10", 64, 64, 128, 10, 200),
    ("large MLP, batch 256, 1024-1024-10", 256, 1024, 1024, 10, 10),
)
REPEATS = 7


def data(batch: int, inputs: int, hidden: int, classes: int) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(0)
    x = rng.random((batch, inputs), dtype=np.float32)
    y = rng.integers(0, classes, batch)
    w1 = rng.uniform(-0.2, 0.2, (inputs, hidden)).astype(np.float32)
    w2 = rng.uniform(-0.2, 0.2, (hidden, classes)).astype(np.float32)
    return x, y, w1, np.zeros(hidden, np.float32), w2, np.zeros(classes, np.float32)


def phiops_step(arrays: tuple[np.ndarray, ...], fused: bool = True) -> Callable[[], Any]:
    """phiops's step; ``fused=False`` is the step before the multi-tensor optimizer: one
    ``adam_`` call per parameter and gradients reset to zeros."""
    x, y, *weights = arrays
    params = [phi.to_tensor(w, stop_gradient=False) for w in weights]
    w1, b1, w2, b2 = params
    optimizer = Adam(learning_rate=1e-3, parameters=params, use_multi_tensor=fused)
    tx, ty = phi.to_tensor(x), phi.to_tensor(y.reshape(-1, 1))

    def step() -> None:
        hidden = phi.relu(phi.add(phi.matmul(tx, w1), b1))
        _, loss = phi.cross_entropy_with_softmax(phi.add(phi.matmul(hidden, w2), b2), ty)
        phi.mean(loss).backward()
        optimizer.step()
        # Fused: gradients to None, as torch's zero_grad() does by default, so that the next
        # backward writes them instead of adding to zeros.
        optimizer.clear_grad(set_to_zero=not fused)

    return step


def torch_step(torch: Any, arrays: tuple[np.ndarray, ...]) -> Callable[[], Any]:
    x, y, *weights = arrays
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


def paddle_step(paddle: Any, arrays: tuple[np.ndarray, ...]) -> Callable[[], Any]:
    x, y, *weights = arrays
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


def phiops_update(arrays: tuple[np.ndarray, ...], use_multi_tensor: bool) -> Callable[[], Any]:
    """The Adam update alone, with gradients that stay in place between calls."""
    params = [phi.to_tensor(w, stop_gradient=False) for w in arrays[2:]]
    for param in params:
        phi.sum(param).backward()  # a gradient of ones, kept for every call
    optimizer = Adam(parameters=params, use_multi_tensor=use_multi_tensor)
    return optimizer.step


def torch_update(torch: Any, arrays: tuple[np.ndarray, ...]) -> Callable[[], Any]:
    params = [torch.tensor(w, requires_grad=True) for w in arrays[2:]]
    for param in params:
        param.grad = torch.ones_like(param)
    return torch.optim.Adam(params, lr=1e-3).step


def timings(fn: Callable[[], Any], number: int) -> tuple[float, float]:
    """(min, median) seconds per call over REPEATS repeats of ``number`` calls."""
    fn()
    runs = [t / number for t in timeit.repeat(fn, number=number, repeat=REPEATS)]
    return min(runs), statistics.median(runs)


def report(title: str, times: dict[str, tuple[float, float]], base: str) -> None:
    print(title)
    print(f"  {'':<22}{'min':>13}{'median':>13}   ratios {base} / other (min, median)")
    for name, (best, middle) in times.items():
        ratio = ""
        if name != base:
            ratio = f"   {times[base][0] / best:.2f}x, {times[base][1] / middle:.2f}x"
        print(f"  {name:<22}{best * 1e6:10.1f} us{middle * 1e6:10.1f} us{ratio}")


def main() -> None:
    modules = {}
    for name in ("torch", "paddle"):
        try:
            modules[name] = importlib.import_module(name)
        except ImportError:
            continue
    if "torch" in modules:
        modules["torch"].set_num_threads(1)
    builders = {"torch": torch_step, "paddle": paddle_step}
    print(f"one thread each; {REPEATS} repeats per figure")
    for label, batch, inputs, hidden, classes, number in SIZES:
        arrays = data(batch, inputs, hidden, classes)
        steps = {
            "phiops": phiops_step(arrays),
            "phiops per-parameter": phiops_step(arrays, fused=False),
        }
        for name, module in modules.items():
            steps[name] = builders[name](module, arrays)
        report(
            f"train step, {label}, Adam:",
            {name: timings(step, number) for name, step in steps.items()},
            "phiops",
        )
    arrays = data(*SIZES[1][1:5])
    updates = {
        "phiops multi-tensor": phiops_update(arrays, True),
        "phiops per-parameter": phiops_update(arrays, False),
    }
    if "torch" in modules:
        updates["torch"] = torch_update(modules["torch"], arrays)
    report(
        f"Adam update alone, {SIZES[1][0]} (4 parameters):",
        {name: timings(update, 20) for name, update in updates.items()},
        "phiops multi-tensor",
    )
    if not modules:
        print("  (PyTorch and PaddlePaddle are not installed: nothing to compare with)")


if __name__ == "__main__":
    main()
