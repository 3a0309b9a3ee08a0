"""Writes tests/data/fftspecial/paddle_3_3_1.json: PaddlePaddle 3.3.1's results and gradients of
the fftspecial family, called through PaddlePaddle's Python API (``paddle.fft.*``, and the ops
``paddle._C_ops.fft_c2c``/``fft_r2c``/``fft_c2r`` themselves), for every dtype its CPU kernels
register, every ``norm``, cut and padded lengths, several axes and edge inputs.

tests/ops/test_fftspecial_paddle.py compares phiops with the recording (no PaddlePaddle needed
there) and tests/parity/test_fftspecial_paddle.py runs the same cases on PaddlePaddle itself.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_fftspecial_fixtures.py``.

A case is ``{"fn": dotted name under paddle, "inputs": {name: {"dtype", "shape", "values"}},
"args": [...], "kwargs": {...}, "grad": bool}``; complex values are [re, im] pairs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "data" / "fftspecial" / "paddle_3_3_1.json"

NORMS = ("backward", "ortho", "forward")


def encode(array: np.ndarray) -> list:
    flat = np.asarray(array).reshape(-1)
    if flat.dtype.kind == "c":
        return [[float(v.real), float(v.imag)] for v in flat]
    if flat.dtype.kind == "b":
        return [bool(v) for v in flat]
    if flat.dtype.kind in "iu":
        return [int(v) for v in flat]
    return [float(v) for v in flat]


def decode(values: list, dtype: str, shape: list[int]) -> np.ndarray:
    if dtype.startswith("complex"):
        array = np.array([complex(re, im) for re, im in values], dtype)
    else:
        array = np.array(values, dtype)
    return array.reshape(shape)


def sample(dtype: str, shape: tuple[int, ...], seed: int, low: float = -2.0, high: float = 2.0):
    rng = np.random.default_rng(seed)
    if dtype.startswith("complex"):
        values = rng.uniform(low, high, shape) + 1j * rng.uniform(low, high, shape)
    elif dtype.startswith("int"):
        values = rng.integers(int(low) - 3, int(high) + 4, shape)
    else:
        values = rng.uniform(low, high, shape)
    return np.asarray(values).astype(dtype)


def tensor_input(dtype: str, shape: tuple[int, ...], seed: int, **kw: float) -> dict[str, Any]:
    return {
        "dtype": dtype,
        "shape": list(shape),
        "values": encode(sample(dtype, shape, seed, **kw)),
    }


def fft_cases() -> dict[str, dict[str, Any]]:
    cases: dict[str, dict[str, Any]] = {}
    seed = 0

    def add(
        key: str, fn: str, inputs: dict, args=(), kwargs=None, grad=True
    ) -> None:  # noqa: ANN001
        nonlocal seed
        cases[key] = {
            "fn": fn,
            "inputs": inputs,
            "args": list(args),
            "kwargs": dict(kwargs or {}),
            "grad": grad,
        }

    def x(dtype: str, shape: tuple[int, ...]) -> dict:
        nonlocal seed
        seed += 1
        return {"x": tensor_input(dtype, shape, seed)}

    # the ops themselves, every registered dtype and norm, both directions
    for dtype in ("complex64", "complex128"):
        for norm in NORMS:
            for forward in (True, False):
                tag = f"{dtype}-{norm}-{'fwd' if forward else 'inv'}"
                add(
                    f"_C_ops.fft_c2c-{tag}",
                    "_C_ops.fft_c2c",
                    x(dtype, (3, 4)),
                    ([1], norm, forward),
                )
                add(
                    f"_C_ops.fft_c2r-{tag}",
                    "_C_ops.fft_c2r",
                    x(dtype, (3, 4)),
                    ([1], norm, forward, 0),
                )
                add(
                    f"_C_ops.fft_c2r-{tag}-n7",
                    "_C_ops.fft_c2r",
                    x(dtype, (2, 4)),
                    ([1], norm, forward, 7),
                )
    for dtype in ("float32", "float64"):
        for norm in NORMS:
            for forward in (True, False):
                for onesided in (True, False):
                    tag = f"{dtype}-{norm}-{'fwd' if forward else 'inv'}-{'one' if onesided else 'two'}"
                    add(
                        f"_C_ops.fft_r2c-{tag}",
                        "_C_ops.fft_r2c",
                        x(dtype, (3, 5)),
                        ([1], norm, forward, onesided),
                    )
    # several axes at the op
    add(
        "_C_ops.fft_c2c-axes01",
        "_C_ops.fft_c2c",
        x("complex128", (3, 4, 2)),
        ([0, 2], "ortho", True),
    )
    add(
        "_C_ops.fft_r2c-axes02",
        "_C_ops.fft_r2c",
        x("float64", (4, 3, 6)),
        ([0, 2], "backward", True, True),
    )
    add(
        "_C_ops.fft_c2r-axes12",
        "_C_ops.fft_c2r",
        x("complex128", (2, 3, 4)),
        ([1, 2], "backward", False, 0),
    )
    add(
        "_C_ops.fft_c2r-axes12-odd",
        "_C_ops.fft_c2r",
        x("complex128", (2, 3, 4)),
        ([0, 2], "forward", True, 7),
    )

    # paddle.fft's 1-D functions: dtypes (integers through float32), n cut and padded, axes
    one_d = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
    complex_input = {"fft": True, "ifft": True, "irfft": True, "hfft": True}
    for name in one_d:
        dtypes = ("complex64", "complex128", "float32", "float64", "int64")
        if name in ("rfft", "ihfft"):
            dtypes = ("float32", "float64", "int32")
        if name in ("irfft", "hfft"):
            # PaddlePaddle 3.3.1 casts an integer input to float32, which fft_c2r has no kernel
            # for (NotFoundError); phiops casts it to complex64 (tests/ops/test_fftspecial.py)
            dtypes = ("complex64", "complex128", "float32", "float64")
        for dtype in dtypes:
            grad = not dtype.startswith("int")
            add(f"fft.{name}-{dtype}", f"fft.{name}", x(dtype, (2, 6)), grad=grad)
        wide = "complex128" if name in complex_input else "float64"
        for norm in NORMS:
            add(
                f"fft.{name}-{norm}-n4-axis0",
                f"fft.{name}",
                x(wide, (5, 3)),
                kwargs={"n": 4, "axis": 0, "norm": norm},
            )
            add(
                f"fft.{name}-{norm}-n9",
                f"fft.{name}",
                x(wide, (2, 5)),
                kwargs={"n": 9, "norm": norm},
            )
        add(f"fft.{name}-1d-odd", f"fft.{name}", x(wide, (7,)))
        add(f"fft.{name}-dim-alias", f"fft.{name}", x(wide, (3, 4)), kwargs={"dim": 0})

    # n-D and 2-D functions
    n_d = ("fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn")
    for name in n_d:
        wide = "complex128" if name in ("fftn", "ifftn", "irfftn", "hfftn") else "float64"
        narrow = "complex64" if wide == "complex128" else "float32"
        add(f"fft.{name}-all", f"fft.{name}", x(wide, (3, 4, 5)))
        add(f"fft.{name}-float32", f"fft.{name}", x(narrow, (3, 4)))
        for norm in NORMS:
            add(
                f"fft.{name}-{norm}-s-axes",
                f"fft.{name}",
                x(wide, (3, 4, 5)),
                kwargs={"s": [4, 6], "axes": [2, 0], "norm": norm},
            )
        add(f"fft.{name}-s-only", f"fft.{name}", x(wide, (3, 4, 5)), kwargs={"s": [3, 3]})
        add(f"fft.{name}-axes-only", f"fft.{name}", x(wide, (3, 4, 5)), kwargs={"axes": [-1, 1]})
        if name in ("fftn", "ifftn"):
            add(f"fft.{name}-real-input", f"fft.{name}", x("float64", (3, 4)))
    for name in ("fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2"):
        wide = "complex128" if name in ("fft2", "ifft2", "irfft2", "hfft2") else "float64"
        add(f"fft.{name}-default", f"fft.{name}", x(wide, (2, 4, 5)))
        add(
            f"fft.{name}-s-axes-ortho",
            f"fft.{name}",
            x(wide, (4, 3, 5)),
            kwargs={"s": [5, 4], "axes": [0, 2], "norm": "ortho"},
        )

    # frequencies and shifts
    for n, d in ((5, 0.5), (8, 1.0), (1, 0.3)):
        for name in ("fftfreq", "rfftfreq"):
            add(f"fft.{name}-{n}-{d}", f"fft.{name}", {}, (n, d), grad=False)
    add("fft.fftfreq-float64", "fft.fftfreq", {}, (6, 0.1), {"dtype": "float64"}, grad=False)
    add("fft.rfftfreq-float64", "fft.rfftfreq", {}, (7, 0.1), {"dtype": "float64"}, grad=False)
    for name in ("fftshift", "ifftshift"):
        add(f"fft.{name}-all", f"fft.{name}", x("float64", (3, 5)))
        add(f"fft.{name}-axis", f"fft.{name}", x("complex128", (4, 5)), kwargs={"axes": [1, 0]})
        add(f"fft.{name}-axes", f"fft.{name}", x("float32", (5, 2, 3)), kwargs={"axes": [0, 2]})
    return cases


SIGNAL_DTYPES = ("int32", "int64", "float32", "float64", "complex64", "complex128")


def signal_cases() -> dict[str, dict[str, Any]]:
    """frame and overlap_add (every registered dtype, both axes, through the op and
    paddle.signal), stft and istft."""
    cases: dict[str, dict[str, Any]] = {}
    seed = 500

    def x(dtype: str, shape: tuple[int, ...], name: str = "x") -> dict:
        nonlocal seed
        seed += 1
        return {name: tensor_input(dtype, shape, seed)}

    def add(
        key: str, fn: str, inputs: dict, args=(), kwargs=None, grad=True
    ) -> None:  # noqa: ANN001
        cases[key] = {
            "fn": fn,
            "inputs": inputs,
            "args": list(args),
            "kwargs": dict(kwargs or {}),
            "grad": grad,
        }

    for dtype in SIGNAL_DTYPES:
        grad = not dtype.startswith("int")
        add(f"_C_ops.frame-{dtype}", "_C_ops.frame", x(dtype, (2, 9)), (4, 2, -1), grad=grad)
        add(
            f"_C_ops.overlap_add-{dtype}",
            "_C_ops.overlap_add",
            x(dtype, (2, 4, 3)),
            (2, -1),
            grad=grad,
        )
    for axis in (0, -1):
        shape = (10, 2, 3) if axis == 0 else (2, 3, 10)
        add(f"signal.frame-axis{axis}", "signal.frame", x("float64", shape), (3, 3, axis))
        add(f"signal.frame-axis{axis}-gap", "signal.frame", x("float64", shape), (2, 4, axis))
        frames = (4, 3, 2) if axis == 0 else (2, 3, 4)
        add(f"signal.overlap_add-axis{axis}", "signal.overlap_add", x("float64", frames), (2, axis))
        add(
            f"signal.overlap_add-axis{axis}-hop3",
            "signal.overlap_add",
            x("float64", frames),
            (3, axis),
        )
    add("signal.frame-1d", "signal.frame", x("float32", (8,)), (8, 1))
    add("signal.overlap_add-2d", "signal.overlap_add", x("float32", (5, 2)), (1,))

    # the op (PaddlePaddle 3.3.1's CPU kernel fails for onesided=False: tests/ops covers it)
    for dtype in ("float32", "float64"):
        for normalized in (False, True):
            add(
                f"_C_ops.stft-{dtype}-{'ortho' if normalized else 'backward'}",
                "_C_ops.stft",
                {**x(dtype, (2, 20)), **x(dtype, (8,), "window")},
                (8, 3, normalized, True),
            )
    add("signal.stft-default", "signal.stft", x("float64", (2, 40)), (16,))
    add("signal.stft-1d-float32", "signal.stft", x("float32", (33,)), (8,))
    add(
        "signal.stft-window",
        "signal.stft",
        {**x("float64", (2, 30)), **x("float64", (6,), "window")},
        (8, 3, 6),
        {"normalized": True},
    )
    add(
        "signal.stft-twosided-constant",
        "signal.stft",
        x("float64", (1, 20)),
        (8,),
        {"onesided": False, "pad_mode": "constant"},
    )
    add("signal.stft-no-center", "signal.stft", x("float64", (2, 20)), (8, 4), {"center": False})
    add("signal.stft-complex", "signal.stft", x("complex128", (2, 24)), (8,))
    add("signal.istft-default", "signal.istft", x("complex128", (2, 9, 11)), (16,))
    add("signal.istft-float32", "signal.istft", x("complex64", (5, 9)), (8, 2))
    add(
        "signal.istft-window-length",
        "signal.istft",
        {**x("complex128", (1, 5, 12)), **x("float64", (6,), "window")},
        (8, 3, 6),
        {"normalized": True, "length": 30},
    )
    add(
        "signal.istft-twosided",
        "signal.istft",
        x("complex128", (8, 7)),
        (8, 2),
        {"onesided": False, "center": False},
    )
    add(
        "signal.istft-return-complex",
        "signal.istft",
        x("complex128", (8, 7)),
        (8, 2),
        {"onesided": False, "return_complex": True},
    )
    return cases


SPECIAL_EDGES = [0.0, -0.0, -1.0, -2.5, 1.0, 2.0, 0.5, 1e-8, -1e-8, 1e6, 171.5, 3.7, -3.7]
BESSEL_EDGES = [0.0, 1e-3, 0.5, 1.0, 5.0, 29.9, 30.1, 100.0, 700.0, -2.0, -50.0]


def special_cases() -> dict[str, dict[str, Any]]:
    """The special functions on sampled inputs (with gradients) and their edges, float32 and
    float64, through paddle.* (their ops' own signatures)."""
    cases: dict[str, dict[str, Any]] = {}
    seed = 900

    def add(key: str, fn: str, inputs: dict, args=(), grad=True) -> None:  # noqa: ANN001
        cases[key] = {"fn": fn, "inputs": inputs, "args": list(args), "kwargs": {}, "grad": grad}

    def values(dtype: str, data: list[float]) -> dict:
        array = np.array(data, dtype)
        return {"x": {"dtype": dtype, "shape": list(array.shape), "values": encode(array)}}

    def x(dtype: str, shape: tuple[int, ...], low: float, high: float) -> dict:
        nonlocal seed
        seed += 1
        return {"x": tensor_input(dtype, shape, seed, low=low, high=high)}

    for dtype in ("float32", "float64"):
        for op in ("lgamma", "gammaln", "digamma"):
            add(f"{op}-{dtype}", op, x(dtype, (3, 7), -5.9, 9.0))
            add(f"{op}-{dtype}-edges", op, values(dtype, SPECIAL_EDGES), grad=False)
        for n in (0, 1, 2, 4):
            add(f"polygamma-{dtype}-n{n}", "polygamma", x(dtype, (3, 7), -3.9, 9.0), (n,))
        add(f"polygamma-{dtype}-n1-edges", "polygamma", values(dtype, SPECIAL_EDGES), (1,), False)
        for op in ("i0", "i0e", "i1", "i1e"):
            add(f"{op}-{dtype}", op, x(dtype, (3, 7), -40.0, 40.0))
            add(f"{op}-{dtype}-edges", op, values(dtype, BESSEL_EDGES), grad=False)
        for fn in ("gammaincc", "gammainc"):
            add(
                f"{fn}-{dtype}",
                fn,
                {
                    **x(dtype, (3, 7), 0.05, 30.0),
                    "y": tensor_input(dtype, (3, 7), seed + 100, low=0.0, high=40.0),
                },
            )
        a = np.array([0.5, 1.0, 2.0, 5.0, 0.0, 1.0, 0.0, 1e-3, 50.0, 100.0, 20.0, 1.0, 2.0], dtype)
        y = np.array(
            [0.3, 1.0, 5.0, 2.0, 1.0, 0.0, 0.0, 1e-3, 45.0, 120.0, 0.5, 30.0, 1e-30], dtype
        )
        add(
            f"gammaincc-{dtype}-edges",
            "gammaincc",
            {
                "x": {"dtype": dtype, "shape": [13], "values": encode(a)},
                "y": {"dtype": dtype, "shape": [13], "values": encode(y)},
            },
            grad=False,
        )
    for dtype in ("float32", "float64", "complex64", "complex128"):
        add(f"stanh-{dtype}", "stanh", x(dtype, (3, 5), -2.0, 2.0))
        add(f"stanh-{dtype}-scales", "stanh", x(dtype, (4,), -3.0, 3.0), (0.5, 2.5))
    for dtype in ("float32", "float64", "int32", "int64"):
        add(f"logspace-{dtype}", "logspace", {}, (0.5, 3.7, 6, 2.5, dtype), grad=False)
        add(f"logspace-{dtype}-down", "logspace", {}, (3, -1, 5, 10.0, dtype), grad=False)
    add("logspace-default", "logspace", {}, (0, 2, 5), grad=False)
    add("logspace-one", "logspace", {}, (2, 5, 1), grad=False)
    for dtype in ("float32", "float64"):
        # phiops has no paddle.nn.functional.maxout (runtime/nn is not this family's): its op
        add(
            f"nn.functional.maxout-{dtype}",
            "nn.functional.maxout",
            x(dtype, (2, 6, 3, 2), -5.0, 5.0),
            (3, 1),
        )
        add(
            f"nn.functional.maxout-{dtype}-nhwc",
            "nn.functional.maxout",
            x(dtype, (2, 3, 2, 4), -5.0, 5.0),
            (2, -1),
        )
        for key in (f"nn.functional.maxout-{dtype}", f"nn.functional.maxout-{dtype}-nhwc"):
            cases[key]["phiops_fn"] = "_C_ops.maxout"
    return cases


def cases() -> dict[str, dict[str, Any]]:
    return {**fft_cases(), **signal_cases(), **special_cases()}


def resolve(module: Any, dotted: str) -> Any:
    target = module
    for part in dotted.split("."):
        target = getattr(target, part)
    return target


def call(function: Any, case: dict[str, Any], tensors: dict[str, Any]) -> Any:
    """The first input positionally, then the case's arguments, the other inputs by keyword
    (an op's inputs all positionally, x first)."""
    names = sorted(tensors, key=lambda name: name != "x")  # the recording sorts the keys
    if case["fn"].startswith("_C_ops."):  # the ops take their tensors first
        return function(*(tensors[name] for name in names), *case["args"], **case["kwargs"])
    first = [tensors[names[0]]] if names else []
    others = {name: tensors[name] for name in names[1:]}
    return function(*first, *case["args"], **others, **case["kwargs"])


def inputs_of(case: dict[str, Any]) -> dict[str, np.ndarray]:
    return {
        name: decode(spec["values"], spec["dtype"], spec["shape"])
        for name, spec in case["inputs"].items()
    }


def differentiable(dtype: str) -> bool:
    return dtype.startswith(("float", "complex"))


def run_paddle(case: dict[str, Any]) -> dict[str, Any]:
    """Runs one case on PaddlePaddle: the result, its dtype and shape, and where asked, the
    gradients of the inputs for a recorded ``out_grad`` (drawn from the case's key)."""
    import paddle

    paddle.disable_static()
    arrays = inputs_of(case)
    tensors = {
        name: paddle.to_tensor(
            array, stop_gradient=not (case["grad"] and differentiable(str(array.dtype)))
        )
        for name, array in arrays.items()
    }
    out = call(resolve(paddle, case["fn"]), case, tensors)
    out_np = out.numpy()
    dtype = str(out_np.dtype)
    result: dict[str, Any] = {
        "out": encode(out_np),
        "out_dtype": dtype,
        "out_shape": list(out_np.shape),
    }
    if case["grad"]:
        seed = sum(map(ord, case["fn"])) + len(result["out"])
        out_grad = sample(dtype, tuple(out_np.shape), seed)
        wanted = [t for t in tensors.values() if not t.stop_gradient]
        grads = paddle.grad(out, wanted, grad_outputs=paddle.to_tensor(out_grad), allow_unused=True)
        result["out_grad"] = encode(out_grad)
        result["grads"] = {
            name: (None if grad is None else encode(grad.numpy()))
            for name, grad in zip([n for n, t in tensors.items() if not t.stop_gradient], grads)
        }
    return result


def main() -> None:
    recorded = {key: {**case, **run_paddle(case)} for key, case in sorted(cases().items())}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(recorded, indent=0, sort_keys=True) + "\n")
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
