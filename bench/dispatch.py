"""Per-call cost of the generated API next to raw numpy (and PyTorch / PaddlePaddle if installed).

Each row times one call in this process, as the best of several rounds (every library timed in
each round, in turn), and prints the ratio phiops / numpy (and phiops / torch, phiops / paddle).
"add 4x4 recording" has an input that needs a gradient, so phiops, torch and paddle record a grad
node (numpy's plain add is the floor). Not a test: run it with `make bench`.
"""

from __future__ import annotations

import importlib
import time
import timeit
from typing import Any, Callable

import numpy as np

import phiops as phi


def best_times(fns: dict[str, Callable[[], Any]], number: int) -> dict[str, float]:
    """CPU seconds per call of each function: the best of 15 rounds of ``number // 3`` calls,
    each round timing every function in turn, so that a burst of load from other processes on a
    shared machine falls on all of them alike rather than on one library's block of repeats.
    CPU time, so that time spent waiting while other processes run does not count."""
    calls = max(1, number // 3)
    best = {name: float("inf") for name in fns}
    for _ in range(15):
        for name, fn in fns.items():
            spent = timeit.timeit(fn, number=calls, timer=time.process_time)
            best[name] = min(best[name], spent)
    return {name: spent / calls for name, spent in best.items()}


def optional_module(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def case(
    op: str, arrays: tuple[np.ndarray, ...], torch: Any, paddle: Any
) -> dict[str, Callable[[], Any]]:
    """``op`` on ``arrays`` in each library: phiops, numpy, and torch/paddle when installed."""
    # Every callable has the same shape, `function(*arguments)`, so the harness costs the same.
    numpy_op = {"add": np.add, "matmul": np.matmul, "sum": np.sum}[op]
    phi_op = getattr(phi, op)
    tensors = [phi.to_tensor(a) for a in arrays]
    fns: dict[str, Callable[[], Any]] = {
        "phiops": lambda: phi_op(*tensors),
        "numpy": lambda: numpy_op(*arrays),
    }
    if torch is not None:
        torch_op, torch_tensors = getattr(torch, op), [torch.from_numpy(a) for a in arrays]
        fns["torch"] = lambda: torch_op(*torch_tensors)
    if paddle is not None:
        paddle_op, paddle_tensors = getattr(paddle, op), [paddle.to_tensor(a) for a in arrays]
        fns["paddle"] = lambda: paddle_op(*paddle_tensors)
    return fns


def attribute_cases(
    a: np.ndarray, torch: Any, paddle: Any
) -> list[tuple[str, int, dict[str, Callable[[], Any]]]]:
    """Ops with list, dtype or value attributes on a [2,3,4] float32 array (``full`` makes one)."""
    t = phi.to_tensor(a)
    rows: list[tuple[str, int, dict[str, Callable[[], Any]]]] = [
        (
            "reshape [4,6]",
            {"phiops": lambda: phi.reshape(t, [4, 6]), "numpy": lambda: np.reshape(a, [4, 6])},
        ),
        (
            "transpose [2,0,1]",
            {
                "phiops": lambda: phi.transpose(t, [2, 0, 1]),
                "numpy": lambda: np.transpose(a, [2, 0, 1]),
            },
        ),
        (
            "mean axis [1]",
            {"phiops": lambda: phi.mean(t, [1]), "numpy": lambda: np.mean(a, axis=1)},
        ),
        (
            "full [2,3,4]",
            {
                "phiops": lambda: phi.full([2, 3, 4], 1.5, "float32"),
                "numpy": lambda: np.full([2, 3, 4], 1.5, np.float32),
            },
        ),
        (
            "cast to float64",
            {"phiops": lambda: phi.cast(t, "float64"), "numpy": lambda: a.astype(np.float64)},
        ),
    ]
    if torch is not None:
        tt = torch.from_numpy(a)
        rows[0][1]["torch"] = lambda: torch.reshape(tt, [4, 6])
        rows[1][1]["torch"] = lambda: torch.permute(tt, [2, 0, 1])
        rows[2][1]["torch"] = lambda: torch.mean(tt, [1])
        rows[3][1]["torch"] = lambda: torch.full([2, 3, 4], 1.5, dtype=torch.float32)
        rows[4][1]["torch"] = lambda: tt.to(torch.float64)
    if paddle is not None:
        pt = paddle.to_tensor(a)
        rows[0][1]["paddle"] = lambda: paddle.reshape(pt, [4, 6])
        rows[1][1]["paddle"] = lambda: paddle.transpose(pt, [2, 0, 1])
        rows[2][1]["paddle"] = lambda: paddle.mean(pt, [1])
        rows[3][1]["paddle"] = lambda: paddle.full([2, 3, 4], 1.5, "float32")
        rows[4][1]["paddle"] = lambda: paddle.cast(pt, "float64")
    return [(label, 20_000, fns) for label, fns in rows]


def recording_case(
    a: np.ndarray, b: np.ndarray, torch: Any, paddle: Any
) -> dict[str, Callable[[], Any]]:
    """``add`` with an input that needs a gradient: the call records a grad node."""
    x, y = phi.to_tensor(a, stop_gradient=False), phi.to_tensor(b)
    fns: dict[str, Callable[[], Any]] = {
        "phiops": lambda: phi.add(x, y),
        "numpy": lambda: np.add(a, b),
    }
    if torch is not None:
        tx, ty = torch.tensor(a, requires_grad=True), torch.from_numpy(b)
        fns["torch"] = lambda: torch.add(tx, ty)
    if paddle is not None:
        px, py = paddle.to_tensor(a, stop_gradient=False), paddle.to_tensor(b)
        fns["paddle"] = lambda: paddle.add(px, py)
    return fns


def cases(torch: Any, paddle: Any) -> list[tuple[str, int, dict[str, Callable[[], Any]]]]:
    rng = np.random.default_rng(0)

    def sample(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape).astype(np.float32)

    return [
        ("add 1 element", 100_000, case("add", (sample(1), sample(1)), torch, paddle)),
        ("add 4x4", 100_000, case("add", (sample(4, 4), sample(4, 4)), torch, paddle)),
        ("matmul 1x1", 100_000, case("matmul", (sample(1, 1), sample(1, 1)), torch, paddle)),
        ("matmul 4x4", 100_000, case("matmul", (sample(4, 4), sample(4, 4)), torch, paddle)),
        ("sum 4x4", 100_000, case("sum", (sample(4, 4),), torch, paddle)),
        (
            "add 1M elements",
            200,
            case("add", (sample(1000, 1000), sample(1000, 1000)), torch, paddle),
        ),
        *attribute_cases(sample(2, 3, 4), torch, paddle),
        (
            "add 4x4 recording",
            20_000,
            recording_case(sample(4, 4), sample(4, 4), torch, paddle),
        ),
    ]


def main() -> None:
    torch = optional_module("torch")
    paddle = optional_module("paddle")
    others = [name for name, module in (("torch", torch), ("paddle", paddle)) if module is not None]
    header = f"{'case':<20}{'phiops':>12}{'numpy':>12}{'phi/numpy':>11}"
    for name in others:
        header += f"{name:>12}{'phi/' + name:>12}"
    print(header)
    for label, number, fns in cases(torch, paddle):
        times = best_times(fns, number)
        line = f"{label:<20}{times['phiops'] * 1e6:>10.2f}us{times['numpy'] * 1e6:>10.2f}us{times['phiops'] / times['numpy']:>10.2f}x"
        for name in others:
            line += f"{times[name] * 1e6:>10.2f}us{times['phiops'] / times[name]:>11.2f}x"
        print(line)
    if not others:
        print("(PyTorch and PaddlePaddle are not installed: only numpy is compared)")


if __name__ == "__main__":
    main()
