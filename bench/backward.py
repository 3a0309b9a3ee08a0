"""Forward + backward of ``sum(tanh(matmul(x, w) + b))``: phiops next to PyTorch and PaddlePaddle
when they are installed, as ratios measured in this process.

Two sizes: [8,16]x[16,16] (the engine's Python cost per node dominates) and [64,128]x[128,64]
(kernels start to count). x needs no gradient; w and b do, and their gradients are reset to None
after each step, as torch's ``zero_grad()`` does. A last line times backward through a chain of 50
``scale`` nodes on a 1-element tensor, per node (the forward subtracted), and the engine alone:
that less the ``scale`` call each node's backward makes (timed without recording).

Each figure is seconds per step over several repeats: the minimum (the machine's best) and the
median (what a loaded machine gives); ratios are phiops / other of each. Not a test:

    PYTHONPATH=$PWD python bench/backward.py
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import importlib  # noqa: E402
import statistics  # noqa: E402
import timeit  # noqa: E402
from typing import Any, Callable  # noqa: E402

import numpy as np  # noqa: E402

import phiops as phi  # noqa: E402

SIZES = (((8, 16), (16, 16), 2000), ((64, 128), (128, 64), 500))
REPEATS = 7
CHAIN = 50


def arrays(x_shape: tuple[int, int], w_shape: tuple[int, int]) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, x_shape).astype(np.float32)
    w = rng.uniform(-0.2, 0.2, w_shape).astype(np.float32)
    return x, w, np.zeros(w_shape[1], np.float32)


def phiops_step(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> Callable[[], Any]:
    tx = phi.to_tensor(x)
    tw, tb = phi.to_tensor(w, stop_gradient=False), phi.to_tensor(b, stop_gradient=False)

    def step() -> None:
        phi.sum(phi.tanh(phi.add(phi.matmul(tx, tw), tb))).backward()
        tw.clear_grad(set_to_zero=False)
        tb.clear_grad(set_to_zero=False)

    return step


def torch_step(torch: Any, x: np.ndarray, w: np.ndarray, b: np.ndarray) -> Callable[[], Any]:
    tx = torch.from_numpy(x)
    tw, tb = torch.tensor(w, requires_grad=True), torch.tensor(b, requires_grad=True)

    def step() -> None:
        torch.tanh(tx @ tw + tb).sum().backward()
        tw.grad = None
        tb.grad = None

    return step


def paddle_step(paddle: Any, x: np.ndarray, w: np.ndarray, b: np.ndarray) -> Callable[[], Any]:
    tx = paddle.to_tensor(x)
    tw, tb = paddle.to_tensor(w, stop_gradient=False), paddle.to_tensor(b, stop_gradient=False)

    def step() -> None:
        paddle.sum(paddle.tanh(paddle.matmul(tx, tw) + tb)).backward()
        tw.clear_gradient(False)
        tb.clear_gradient(False)

    return step


def phiops_chain() -> Callable[[], Any]:
    leaf = phi.to_tensor(np.ones(1, np.float32), stop_gradient=False)

    def run() -> None:
        value = leaf
        for _ in range(CHAIN):
            value = phi.scale(value, 1.0)
        value.backward()
        leaf.clear_grad(set_to_zero=False)

    return run


def phiops_chain_forward() -> Callable[[], Any]:
    leaf = phi.to_tensor(np.ones(1, np.float32), stop_gradient=False)

    def run() -> None:
        value = leaf
        for _ in range(CHAIN):
            value = phi.scale(value, 1.0)

    return run


def phiops_chain_kernels() -> Callable[[], Any]:
    """The 50 ``scale`` calls a backward pass through the chain makes, without recording."""
    plain = phi.to_tensor(np.ones(1, np.float32))

    def run() -> None:
        value = plain
        for _ in range(CHAIN):
            value = phi.scale(value, 1.0, 0.0, True)

    return run


def timings(fn: Callable[[], Any], number: int) -> tuple[float, float]:
    """(min, median) seconds per call over REPEATS repeats of ``number`` calls."""
    fn()
    runs = [t / number for t in timeit.repeat(fn, number=number, repeat=REPEATS)]
    return min(runs), statistics.median(runs)


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
    print(f"sum(tanh(matmul(x, w) + b)) forward + backward; one thread each; {REPEATS} repeats")
    print(f"  {'':<34}{'min':>11}{'median':>11}   ratios phiops / other (min, median)")
    for x_shape, w_shape, number in SIZES:
        data = arrays(x_shape, w_shape)
        steps = {"phiops": phiops_step(*data)}
        for name, module in modules.items():
            steps[name] = builders[name](module, *data)
        times = {name: timings(step, number) for name, step in steps.items()}
        for name, (best, middle) in times.items():
            ratio = ""
            if name != "phiops":
                base = times["phiops"]
                ratio = f"   {base[0] / best:.2f}x, {base[1] / middle:.2f}x"
            label = f"{list(x_shape)}x{list(w_shape)} {name}"
            print(f"  {label:<34}{best * 1e6:8.1f} us{middle * 1e6:8.1f} us{ratio}")
        if not modules:
            print("  (PyTorch and PaddlePaddle are not installed: nothing to compare with)")
    whole, forward = timings(phiops_chain(), 100), timings(phiops_chain_forward(), 100)
    kernels = timings(phiops_chain_kernels(), 100)
    per_node = [(w - f) / CHAIN for w, f in zip(whole, forward)]
    engine = [(w - f - k) / CHAIN for w, f, k in zip(whole, forward, kernels)]
    print(
        f"backward per node ({CHAIN} scale nodes, 1 element, forward subtracted): "
        f"{per_node[0] * 1e6:.1f} us min, {per_node[1] * 1e6:.1f} us median; the engine alone "
        f"(less the scale call each node makes): {engine[0] * 1e6:.1f} us min, "
        f"{engine[1] * 1e6:.1f} us median"
    )


if __name__ == "__main__":
    main()
