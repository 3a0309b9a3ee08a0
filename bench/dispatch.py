"""Per-call cost of the generated API next to raw numpy (and PyTorch / PaddlePaddle if installed).

Each row times one call in this process, as the best of several repeats, and prints the ratio
phiops / numpy (and phiops / torch, phiops / paddle). Not a test: run it with `make bench`.
"""

from __future__ import annotations

import importlib
import timeit
from typing import Any, Callable

import numpy as np

import generated as phi


def best_time(fn: Callable[[], Any], number: int) -> float:
    """Seconds per call: the best of 5 repeats of ``number`` calls."""
    return min(timeit.repeat(fn, number=number, repeat=5)) / number


def optional_module(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def cases(torch: Any, paddle: Any) -> list[tuple[str, int, dict[str, Callable[[], Any]]]]:
    rows = []
    for label, shape, number in (("1 element", (1,), 100_000), ("4x4", (4, 4), 100_000), ("1M elements", (1000, 1000), 200)):
        a = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
        b = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
        ta, tb = phi.to_tensor(a), phi.to_tensor(b)
        add = {"phiops": lambda ta=ta, tb=tb: phi.add(ta, tb), "numpy": lambda a=a, b=b: np.add(a, b)}
        if torch is not None:
            xa, xb = torch.from_numpy(a), torch.from_numpy(b)
            add["torch"] = lambda xa=xa, xb=xb: torch.add(xa, xb)
        if paddle is not None:
            pa, pb = paddle.to_tensor(a), paddle.to_tensor(b)
            add["paddle"] = lambda pa=pa, pb=pb: paddle.add(pa, pb)
        rows.append((f"add {label}", number, add))
        if len(shape) == 2 and shape[0] <= 4 or shape == (1,):
            m_shape = (1, 1) if shape == (1,) else shape
            ma, mb = a.reshape(m_shape), b.reshape(m_shape)
            tma, tmb = phi.to_tensor(ma), phi.to_tensor(mb)
            matmul = {"phiops": lambda x=tma, y=tmb: phi.matmul(x, y), "numpy": lambda x=ma, y=mb: np.matmul(x, y)}
            if torch is not None:
                xa, xb = torch.from_numpy(ma), torch.from_numpy(mb)
                matmul["torch"] = lambda xa=xa, xb=xb: torch.matmul(xa, xb)
            if paddle is not None:
                pa, pb = paddle.to_tensor(ma), paddle.to_tensor(mb)
                matmul["paddle"] = lambda pa=pa, pb=pb: paddle.matmul(pa, pb)
            rows.append((f"matmul {label if shape != (1,) else '1x1'}", number, matmul))
        if shape == (4, 4):
            total = {"phiops": lambda ta=ta: phi.sum(ta), "numpy": lambda a=a: np.sum(a)}
            if torch is not None:
                xa = torch.from_numpy(a)
                total["torch"] = lambda xa=xa: torch.sum(xa)
            if paddle is not None:
                pa = paddle.to_tensor(a)
                total["paddle"] = lambda pa=pa: paddle.sum(pa)
            rows.append(("sum 4x4", number, total))
    return rows


def main() -> None:
    torch = optional_module("torch")
    paddle = optional_module("paddle")
    others = [name for name, module in (("torch", torch), ("paddle", paddle)) if module is not None]
    header = f"{'case':<18}{'phiops':>12}{'numpy':>12}{'phi/numpy':>11}"
    for name in others:
        header += f"{name:>12}{'phi/' + name:>12}"
    print(header)
    for label, number, fns in cases(torch, paddle):
        times = {name: best_time(fn, number) for name, fn in fns.items()}
        line = f"{label:<18}{times['phiops'] * 1e6:>10.2f}us{times['numpy'] * 1e6:>10.2f}us{times['phiops'] / times['numpy']:>10.2f}x"
        for name in others:
            line += f"{times[name] * 1e6:>10.2f}us{times['phiops'] / times[name]:>11.2f}x"
        print(line)
    if not others:
        print("(PyTorch and PaddlePaddle are not installed: only numpy is compared)")


if __name__ == "__main__":
    main()
