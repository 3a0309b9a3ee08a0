"""Parse and print a generated 10,000-operation PIR program; target under 1 s for each.

Run: ``.venv/bin/python bench/ir.py [--ops N] [--repeat R]``; prints the best of R runs.
"""

from __future__ import annotations

import argparse
import time

import phiops as phi
from phiops.runtime.ir import Attribute, Builder, DenseTensorType, Program

ROW = DenseTensorType((-1, 64), "f32")


def build(num_ops: int) -> Program:
    """A chain of the ops an MLP's forward pass prints, with realistic attributes."""
    program = Program()
    b = Builder(program.block)
    stop = {"stop_gradient": [True]}
    x = b.create(
        "pd_op.data",
        result_types=[ROW],
        attributes={
            "dtype": Attribute("dtype", "float32"),
            "name": "x",
            "place": Attribute("place", "undefined:0"),
            "shape": [-1, 64],
            **stop,
        },
    ).result()
    weight = DenseTensorType((64, 64), "f32")
    one = DenseTensorType((1,), "f32")
    step = 0
    while len(program.block.ops) < num_ops:
        kind = step % 4
        if kind == 0:
            w = b.create(
                "builtin.parameter",
                result_types=[weight],
                attributes={"parameter_name": f"linear_{step}.w_0", "stop_gradient": [False]},
            ).result()
            x = b.create(
                "pd_op.matmul", [x, w], [ROW], {"transpose_x": False, "transpose_y": False, **stop}
            ).result()
        elif kind == 1:
            s = b.create(
                "pd_op.full",
                result_types=[one],
                attributes={
                    "dtype": Attribute("dtype", "float32"),
                    "place": Attribute("place", "cpu"),
                    "shape": [1],
                    "value": 0.5,
                    **stop,
                },
            ).result()
            x = b.create(
                "pd_op.scale", [x, s], [ROW], {"bias": 1e-05, "bias_after_scale": True, **stop}
            ).result()
        elif kind == 2:
            x = b.create("pd_op.relu", [x], [ROW], stop).result()
        else:
            x = b.create(
                "pd_op.layer_norm",
                [x, None, None],
                [ROW, DenseTensorType((-1,), "f32"), DenseTensorType((-1,), "f32")],
                {"begin_norm_axis": 1, "epsilon": 1e-05, "stop_gradient": [True] * 3},
            ).result()
        step += 1
    return program


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__)
    cli.add_argument("--ops", type=int, default=10_000)
    cli.add_argument("--repeat", type=int, default=5)
    args = cli.parse_args()
    program = build(args.ops)
    text = str(program)
    count = sum(1 for _ in program.walk())
    assert str(phi.ir.parse_program(text)) == text
    parse_s = best(lambda: phi.ir.parse_program(text), args.repeat)
    print_s = best(lambda: str(program), args.repeat)
    print(f"program: {count} ops, {len(text) / 1e6:.2f} MB of text")
    print(f"parse: {parse_s:.3f} s  ({count / parse_s:,.0f} ops/s)  target < 1 s")
    print(f"print: {print_s:.3f} s  ({count / print_s:,.0f} ops/s)  target < 1 s")


if __name__ == "__main__":
    main()
