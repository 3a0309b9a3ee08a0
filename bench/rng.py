"""Random ops at 100,000 elements: phiops (which draws PaddlePaddle 3.3.1's own numbers: its
mt19937_64 engine through libstdc++'s distributions and PHI's samplers, runtime/kernels/mt19937.py)
next to numpy's Generator drawing the same distribution with its own algorithms, and
PaddlePaddle's CPU kernels when it is installed, as ratios measured in this process.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE PYTHONPATH=$PWD python bench/rng.py [--size N]

With ``--python`` phiops runs without its compiled extension (the numpy and Python path).
Times are this process's CPU time, the best of several runs, each through the public API (a
tensor made from the parameters, the draw, the result's numpy array). Not a test.
"""

from __future__ import annotations

import argparse
import importlib
import time
from typing import Any, Callable

import numpy as np

import phiops as phi
from phiops.runtime import flags


def parameters(size: int) -> dict[str, tuple[np.ndarray, ...]]:
    rng = np.random.default_rng(0)
    return {
        "standard_gamma": (rng.uniform(0.2, 5.0, size).astype(np.float32),),
        "poisson (rates 0-20)": (rng.uniform(0.0, 20.0, size).astype(np.float32),),
        "poisson (rates 20-1000)": (rng.uniform(20.0, 1000.0, size).astype(np.float32),),
        "binomial (n 100, p 0.3)": (
            np.full(size, 100.0, np.float32),
            np.full(size, 0.3, np.float32),
        ),
        "binomial (n 20, p 0.2)": (np.full(size, 20.0, np.float32), np.full(size, 0.2, np.float32)),
        "dirichlet (rows of 10)": (rng.uniform(0.5, 3.0, (size // 10, 10)).astype(np.float32),),
        "uniform": (np.zeros(size, np.float32),),
        "gaussian": (np.zeros(size, np.float32),),
    }


def phiops_cases() -> dict[str, Callable[..., Any]]:
    return {
        "standard_gamma": lambda a: phi.standard_gamma(phi.to_tensor(a)).numpy(),
        "poisson (rates 0-20)": lambda r: phi.poisson(phi.to_tensor(r)).numpy(),
        "poisson (rates 20-1000)": lambda r: phi.poisson(phi.to_tensor(r)).numpy(),
        "binomial (n 100, p 0.3)": lambda n, p: phi.binomial(
            phi.to_tensor(n), phi.to_tensor(p)
        ).numpy(),
        "binomial (n 20, p 0.2)": lambda n, p: phi.binomial(
            phi.to_tensor(n), phi.to_tensor(p)
        ).numpy(),
        "dirichlet (rows of 10)": lambda a: phi._C_ops.dirichlet(phi.to_tensor(a)).numpy(),
        "uniform": lambda z: phi.uniform([z.size], "float32").numpy(),
        "gaussian": lambda z: phi.randn([z.size], "float32").numpy(),
    }


def numpy_cases() -> dict[str, Callable[..., Any]]:
    g = np.random.default_rng(1)
    return {
        "standard_gamma": lambda a: g.standard_gamma(a, dtype=np.float32),
        "poisson (rates 0-20)": lambda r: g.poisson(r).astype(np.float32),
        "poisson (rates 20-1000)": lambda r: g.poisson(r).astype(np.float32),
        "binomial (n 100, p 0.3)": lambda n, p: g.binomial(n.astype(np.int64), p),
        "binomial (n 20, p 0.2)": lambda n, p: g.binomial(n.astype(np.int64), p),
        "dirichlet (rows of 10)": lambda a: g.dirichlet(a[0].astype(np.float64), a.shape[0]),
        "uniform": lambda z: g.random(z.size, dtype=np.float32),
        "gaussian": lambda z: g.standard_normal(z.size, dtype=np.float32),
    }


def paddle_cases(paddle: Any) -> dict[str, Callable[..., Any]]:
    return {
        "standard_gamma": lambda a: paddle.standard_gamma(paddle.to_tensor(a)).numpy(),
        "poisson (rates 0-20)": lambda r: paddle.poisson(paddle.to_tensor(r)).numpy(),
        "poisson (rates 20-1000)": lambda r: paddle.poisson(paddle.to_tensor(r)).numpy(),
        "binomial (n 100, p 0.3)": lambda n, p: paddle.binomial(
            paddle.to_tensor(n), paddle.to_tensor(p)
        ).numpy(),
        "binomial (n 20, p 0.2)": lambda n, p: paddle.binomial(
            paddle.to_tensor(n), paddle.to_tensor(p)
        ).numpy(),
        "dirichlet (rows of 10)": lambda a: paddle._C_ops.dirichlet(paddle.to_tensor(a)).numpy(),
        "uniform": lambda z: paddle.uniform([z.size], "float32").numpy(),
        "gaussian": lambda z: paddle.randn([z.size], "float32").numpy(),
    }


def best_time(fn: Callable[[], Any], repeat: int) -> float:
    """The least CPU time of ``repeat`` calls, after one warm-up call."""
    fn()
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    cli.add_argument("--size", type=int, default=100_000, help="elements per draw (100000)")
    cli.add_argument("--repeat", type=int, default=7, help="timed calls per case (7)")
    cli.add_argument("--python", action="store_true", help="phiops without its C extension")
    args = cli.parse_args()
    try:
        paddle = importlib.import_module("paddle")
        paddle.seed(0)
    except ImportError:
        paddle = None
    phi.seed(0)
    inputs = parameters(args.size)
    runtimes = {"phiops": phiops_cases(), "numpy": numpy_cases()}
    if paddle is not None:
        runtimes["PaddlePaddle"] = paddle_cases(paddle)
    print(f"{args.size} elements, CPU ms (best of {args.repeat})")
    header = " | ".join(runtimes) + " | phiops / numpy"
    if paddle is not None:
        header += " | phiops / PaddlePaddle"
    print(f"| case | {header} |")
    print("|---" * (len(runtimes) + 2 + (paddle is not None)) + "|")
    with flags.flags_guard({"use_native_kernels": not args.python}):
        for name, arrays in inputs.items():
            ms = {
                runtime: 1e3 * best_time(lambda c=cases[name]: c(*arrays), args.repeat)
                for runtime, cases in runtimes.items()
            }
            cells = [f"{ms[r]:.2f}" for r in runtimes] + [f"{ms['phiops'] / ms['numpy']:.2f}"]
            if paddle is not None:
                cells.append(f"{ms['phiops'] / ms['PaddlePaddle']:.2f}")
            print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
