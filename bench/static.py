"""The static executor's cost: per operation on a long chain of tiny adds, and on an MLP next to
the same computation in eager mode (and PaddlePaddle's executor on the same program, if installed),
on one thread.

Every figure is the best of several repeats in this process, in CPU time. Not a test: run it with
``.venv/bin/python bench/static.py`` (add ``PYTHONPATH=$PWD`` and the side venv's python to
include PaddlePaddle).
"""

from __future__ import annotations

import os

# one thread: BLAS threads fighting over a busy machine's cores make matmul timings meaningless
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import importlib  # noqa: E402
import time  # noqa: E402
import timeit  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any, Callable  # noqa: E402

import numpy as np  # noqa: E402

import phiops as phi  # noqa: E402
from phiops.runtime.ir import parse_program  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CHAIN_OPS = 1000


def best_time(fn: Callable[[], Any], number: int, repeat: int = 15) -> float:
    """CPU seconds of this process per call: the best of ``repeat`` repeats of ``number`` calls.
    CPU time, not wall time: on a shared machine the other processes' share does not count."""
    return min(timeit.repeat(fn, number=number, repeat=repeat, timer=time.process_time)) / number


def add_chain_text(count: int) -> str:
    """A program of ``count`` pd_op.add ops on 1-element float32 tensors, each adding the data
    ``y`` to the previous result, as PaddlePaddle prints it."""
    t = "tensor<1xf32>"
    data = '{{dtype:float32,name:"{}",place:Place(undefined:0),shape:[1],stop_gradient:[true]}}'
    lines = [
        f'    (%0) = "pd_op.data" () {data.format("x")} : () -> {t}',
        f'    (%1) = "pd_op.data" () {data.format("y")} : () -> {t}',
    ]
    previous = 0
    for index in range(2, count + 2):
        lines.append(
            f'    (%{index}) = "pd_op.add" (%{previous}, %1) {{stop_gradient:[true]}} : '
            f"({t}, {t}) -> {t}"
        )
        previous = index
    return "{\n" + "\n".join(lines) + "\n}\n"


def bench_add_chain() -> None:
    program = parse_program(add_chain_text(CHAIN_OPS), "add_chain")
    exe = phi.static.Executor()
    x = np.ones(1, np.float32)
    y = np.full(1, 0.5, np.float32)
    feed = {"x": x, "y": y}
    last = program.block.ops[-1].results[0]
    (out,) = exe.run(program, feed, [last])
    assert out[0] == 1 + 0.5 * CHAIN_OPS, out
    executor = best_time(lambda: exe.run(program, feed, [last]), 20)
    add = np.add

    def numpy_chain() -> None:
        value = x
        for _ in range(CHAIN_OPS):
            value = add(value, y)

    floor = best_time(numpy_chain, 20)
    tx, ty = phi.to_tensor(x), phi.to_tensor(y)

    def eager_chain() -> None:
        value = tx
        for _ in range(CHAIN_OPS):
            value = phi.add(value, ty)

    eager = best_time(eager_chain, 20)
    per_op = executor / CHAIN_OPS * 1e6
    print(f"{CHAIN_OPS} adds of 1-element float32 tensors, per op:")
    print(f"  phiops executor   {per_op:6.2f} us")
    print(f"  phiops eager      {eager / CHAIN_OPS * 1e6:6.2f} us")
    print(f"  numpy np.add loop {floor / CHAIN_OPS * 1e6:6.2f} us (the floor)")
    print(f"  executor overhead {(executor - floor) / CHAIN_OPS * 1e6:6.2f} us per op over numpy")


def mlp_reference(params: dict[str, np.ndarray], x: np.ndarray) -> Callable[[], Any]:
    w0, b0 = phi.to_tensor(params["linear_0.w_0"]), phi.to_tensor(params["linear_0.b_0"])
    w1, b1 = phi.to_tensor(params["linear_1.w_0"]), phi.to_tensor(params["linear_1.b_0"])
    tx = phi.to_tensor(x)

    def eager() -> Any:
        hidden = phi.relu(phi.add(phi.matmul(tx, w0), b0))
        return phi.add(phi.matmul(hidden, w1), b1).numpy()

    return eager


def bench_mlp(paddle: Any) -> None:
    program = parse_program((ROOT / "tests/data/ir/11_mlp.txt").read_text(), "11_mlp")
    startup = parse_program((ROOT / "tests/data/ir/11_mlp_startup.txt").read_text(), "startup")
    scope = phi.static.Scope()
    exe = phi.static.Executor()
    exe.run(startup, scope=scope)
    params = {name: np.asarray(scope.get(name)) for name in scope.local_var_names()}
    last = program.block.ops[-1].results[0]
    print("MLP 8-16-4 (tests/data/ir/11_mlp.txt), per run:")
    for batch in (1, 64, 4096):
        x = np.random.default_rng(0).standard_normal((batch, 8)).astype(np.float32)
        run = lambda: exe.run(program, {"x": x}, [last], scope=scope)  # noqa: E731
        eager = mlp_reference(params, x)
        np.testing.assert_allclose(run()[0], eager(), rtol=1e-5, atol=1e-6)
        number = 2000 if batch < 4096 else 50
        timings = {"executor": best_time(run, number), "eager": best_time(eager, number)}
        if paddle is not None:
            timings["paddle"] = paddle_mlp_time(paddle, params, x, number)
        row = "  ".join(f"{k} {v * 1e6:8.1f} us" for k, v in timings.items())
        ratio = timings["executor"] / timings["eager"]
        extra = f", executor/paddle {timings['executor'] / timings['paddle']:.2f}" if paddle else ""
        print(f"  batch {batch:5d}: {row}  (executor/eager {ratio:.2f}{extra})")


def paddle_mlp_time(
    paddle: Any, params: dict[str, np.ndarray], x: np.ndarray, number: int
) -> float:
    """PaddlePaddle's executor on the same MLP, with the same parameters."""
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        data = paddle.static.data("x", [-1, 8], "float32")
        first, second = paddle.nn.Linear(8, 16), paddle.nn.Linear(16, 4)
        out = second(paddle.nn.functional.relu(first(data)))
    scope = paddle.static.Scope()
    exe = paddle.static.Executor(paddle.CPUPlace())
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        for layer, prefix in ((first, "linear_0"), (second, "linear_1")):
            scope.find_var(layer.weight.name).get_tensor().set(
                params[f"{prefix}.w_0"], paddle.CPUPlace()
            )
            scope.find_var(layer.bias.name).get_tensor().set(
                params[f"{prefix}.b_0"], paddle.CPUPlace()
            )
        run = lambda: exe.run(main, feed={"x": x}, fetch_list=[out])  # noqa: E731
        run()
        seconds = best_time(run, number)
    paddle.disable_static()
    return seconds


def cnn_eager(params: dict[str, np.ndarray], x: np.ndarray) -> Callable[[], Any]:
    """The saved CNN (tests/tools/make_saved_models.py's SmallCNN) written with eager phiops
    calls: conv2d + bias, batch_norm (inference), relu, max pool, flatten, linear."""
    t = {name: phi.to_tensor(array) for name, array in params.items()}
    tx = phi.to_tensor(x)
    bias = phi.reshape(t["conv2d_0.b_0"], [1, -1, 1, 1])

    def eager() -> Any:
        y = phi.add(phi.conv2d(tx, t["conv2d_0.w_0"], [1, 1], [1, 1], "EXPLICIT"), bias)
        y = phi.batch_norm(
            y,
            t["batch_norm2d_0.w_1"],
            t["batch_norm2d_0.w_2"],
            t["batch_norm2d_0.w_0"],
            t["batch_norm2d_0.b_0"],
            True,
            0.9,
            1e-5,
            "NCHW",
            True,
            False,
        )[0]
        y = phi.pool2d(
            phi.relu(y),
            [2, 2],
            [2, 2],
            [0, 0],
            False,
            True,
            "NCHW",
            "max",
            False,
            False,
            "EXPLICIT",
        )
        y = phi.flatten(y, 1, 3)
        return phi.add(phi.matmul(y, t["linear_0.w_0"]), t["linear_0.b_0"]).numpy()

    return eager


def bench_saved_cnn(paddle: Any) -> None:
    """The small CNN PaddlePaddle saved (tests/data/saved_models/cnn_jit): the phiops executor on
    the loaded files, the same network in eager phiops, PaddlePaddle's executor on the same
    files."""
    folder = ROOT / "tests/data/saved_models/cnn_jit"
    scope, exe = phi.static.Scope(), phi.static.Executor()
    program, feeds, fetches = phi.static.load_inference_model(
        str(folder / "model"), exe, scope=scope
    )
    params = dict(np.load(folder / "params.npz"))
    print("saved CNN (conv2d/batch_norm/relu/pool2d/linear, tests/data/saved_models/cnn_jit):")
    for batch in (2, 64):
        x = np.random.default_rng(0).standard_normal((batch, 3, 8, 8)).astype(np.float32)
        run = lambda: exe.run(program, {feeds[0]: x}, fetches, scope=scope)  # noqa: E731
        eager = cnn_eager(params, x)
        np.testing.assert_allclose(run()[0], eager(), rtol=1e-4, atol=1e-5)
        timings = {"executor": best_time(run, 200), "eager": best_time(eager, 200)}
        if paddle is not None:
            timings["paddle"] = paddle_saved_time(paddle, folder / "model", x, 200)
        row = "  ".join(f"{k} {v * 1e6:8.1f} us" for k, v in timings.items())
        ratio = timings["executor"] / timings["eager"]
        extra = f", executor/paddle {timings['executor'] / timings['paddle']:.2f}" if paddle else ""
        print(f"  batch {batch:5d}: {row}  (executor/eager {ratio:.2f}{extra})")


def paddle_saved_time(paddle: Any, prefix: Path, x: np.ndarray, number: int) -> float:
    """PaddlePaddle's executor running the same saved files."""
    paddle.enable_static()
    try:
        exe = paddle.static.Executor(paddle.CPUPlace())
        scope = paddle.static.Scope()
        with paddle.static.scope_guard(scope):
            program, feeds, fetches = paddle.static.load_inference_model(str(prefix), exe)
            run = lambda: exe.run(program, feed={feeds[0]: x}, fetch_list=fetches)  # noqa: E731
            run()
            return best_time(run, number)
    finally:
        paddle.disable_static()


def main() -> None:
    try:
        paddle = importlib.import_module("paddle")
    except ImportError:
        paddle = None
    bench_add_chain()
    bench_mlp(paddle)
    bench_saved_cnn(paddle)


if __name__ == "__main__":
    main()
