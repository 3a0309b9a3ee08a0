"""conv2d, pool2d, batch_norm (training) and layer_norm at realistic sizes: phiops next to
PyTorch and PaddlePaddle when they are installed, forward and forward+backward, one thread, as
ratios measured in this process.

    PYTHONPATH=$PWD OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python bench/ops.py

The backward pass is timed as forward + ``(out * g).sum()`` + backward in every library alike.
Times are this process's CPU time (the best of several runs), so that time spent waiting while
other processes run on a shared machine does not count; contention for memory and caches still
does, so repeat runs vary. Not a test.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import importlib  # noqa: E402
import time  # noqa: E402
import timeit  # noqa: E402
from typing import Any, Callable  # noqa: E402

import numpy as np  # noqa: E402

import phiops as phi  # noqa: E402

RNG = np.random.default_rng(0)
IMAGE = RNG.standard_normal((8, 64, 32, 32)).astype(np.float32)
FILTER = (RNG.standard_normal((64, 64, 3, 3)) * 0.05).astype(np.float32)
TOKENS = RNG.standard_normal((16, 128, 768)).astype(np.float32)
CHANNELS = np.ones(64, np.float32)
HIDDEN = np.ones(768, np.float32)

Case = Callable[[bool], Callable[[], Any]]


def phiops_cases() -> dict[str, Case]:
    def prepared(build: Callable[..., Any], *arrays: np.ndarray) -> Case:
        def case(backward: bool) -> Callable[[], Any]:
            tensors = [phi.to_tensor(a, stop_gradient=not backward) for a in arrays]
            out = build(*tensors)
            g = phi.to_tensor(np.ones(out.shape, np.float32))

            def run() -> None:
                result = build(*tensors)
                if backward:
                    phi.sum(phi.multiply(result, g)).backward()

            return run

        return case

    mean, var = phi.to_tensor(np.zeros(64, np.float32)), phi.to_tensor(np.ones(64, np.float32))
    return {
        "conv2d": prepared(lambda x, w: phi.conv2d(x, w, [1, 1], [1, 1]), IMAGE, FILTER),
        "pool2d": prepared(
            lambda x: phi.pool2d(
                x, [2, 2], [2, 2], [0, 0], False, True, "NCHW", "max", False, False, "EXPLICIT"
            ),
            IMAGE,
        ),
        "batch_norm": prepared(
            lambda x, s, b: phi.batch_norm(
                x, mean, var, s, b, False, 0.9, 1e-5, "NCHW", False, False
            )[0],
            IMAGE,
            CHANNELS,
            CHANNELS * 0,
        ),
        "layer_norm": prepared(
            lambda x, s, b: phi.layer_norm(x, s, b, 1e-5, 2), TOKENS, HIDDEN, HIDDEN * 0
        ),
    }


def torch_cases(torch: Any) -> dict[str, Case]:
    F = torch.nn.functional

    def prepared(build: Callable[..., Any], *arrays: np.ndarray) -> Case:
        def case(backward: bool) -> Callable[[], Any]:
            tensors = [torch.tensor(a, requires_grad=backward) for a in arrays]
            g = torch.ones_like(build(*tensors))

            def run() -> None:
                result = build(*tensors)
                if backward:
                    (result * g).sum().backward()

            return run

        return case

    mean, var = torch.zeros(64), torch.ones(64)
    return {
        "conv2d": prepared(lambda x, w: F.conv2d(x, w, padding=1), IMAGE, FILTER),
        "pool2d": prepared(lambda x: F.max_pool2d(x, 2, 2), IMAGE),
        "batch_norm": prepared(
            lambda x, s, b: F.batch_norm(x, mean, var, s, b, True, 0.1, 1e-5),
            IMAGE,
            CHANNELS,
            CHANNELS * 0,
        ),
        "layer_norm": prepared(
            lambda x, s, b: F.layer_norm(x, (768,), s, b, 1e-5), TOKENS, HIDDEN, HIDDEN * 0
        ),
    }


def paddle_cases(paddle: Any) -> dict[str, Case]:
    F = paddle.nn.functional

    def prepared(build: Callable[..., Any], *arrays: np.ndarray) -> Case:
        def case(backward: bool) -> Callable[[], Any]:
            tensors = [paddle.to_tensor(a, stop_gradient=not backward) for a in arrays]
            g = paddle.ones_like(build(*tensors))

            def run() -> None:
                result = build(*tensors)
                if backward:
                    (result * g).sum().backward()

            return run

        return case

    mean, var = paddle.zeros([64]), paddle.ones([64])
    return {
        "conv2d": prepared(lambda x, w: F.conv2d(x, w, padding=1), IMAGE, FILTER),
        "pool2d": prepared(lambda x: F.max_pool2d(x, 2, 2), IMAGE),
        "batch_norm": prepared(
            lambda x, s, b: F.batch_norm(x, mean, var, s, b, training=True),
            IMAGE,
            CHANNELS,
            CHANNELS * 0,
        ),
        "layer_norm": prepared(
            lambda x, s, b: F.layer_norm(x, 768, s, b, 1e-5), TOKENS, HIDDEN, HIDDEN * 0
        ),
    }


def best_time(fn: Callable[[], Any], number: int = 3, repeat: int = 5) -> float:
    fn()
    return min(timeit.repeat(fn, number=number, repeat=repeat, timer=time.process_time)) / number


def main() -> None:
    libraries = {"phiops": phiops_cases()}
    for name, builder in (("torch", torch_cases), ("paddle", paddle_cases)):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if name == "torch":
            module.set_num_threads(1)
        libraries[name] = builder(module)
    print(
        "conv2d [8,64,32,32]x[64,64,3,3] pad 1; max pool2d 2x2/2 and batch_norm (training) on "
        "[8,64,32,32]; layer_norm [16,128,768] over 768; one thread each"
    )
    for op in libraries["phiops"]:
        for backward in (False, True):
            times = {name: best_time(cases[op](backward)) for name, cases in libraries.items()}
            label = f"{op} {'fwd+bwd' if backward else 'forward'}"
            ratios = "".join(
                f"   phiops/{name} {times['phiops'] / t:5.2f}x"
                for name, t in times.items()
                if name != "phiops"
            )
            print(
                f"  {label:<20}"
                + "".join(f"{n} {t * 1e3:8.2f} ms  " for n, t in times.items())
                + ratios
            )
    if len(libraries) == 1:
        print("  (PyTorch and PaddlePaddle are not installed: nothing to compare with)")


if __name__ == "__main__":
    main()
