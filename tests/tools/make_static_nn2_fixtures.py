"""Record PaddlePaddle 3.3.1's results for tests/static/test_static_nn2.py into
tests/data/to_static/static_nn2_<case>.npz: the remaining classic layers of
``paddle.static.nn`` (``conv2d_transpose``, ``conv3d``, ``conv3d_transpose``, ``group_norm``,
``instance_norm``, ``prelu``, ``bilinear_tensor_product``, ``spectral_norm``,
``deform_conv2d``, ``row_conv``).

Run in the side venv from the repository root:

    PYTHONPATH=$PWD /work/paddle-venv/bin/python tests/tools/make_static_nn2_fixtures.py

PaddlePaddle 3.3.1 builds these layers only in legacy programs, so this script sets
``FLAGS_enable_pir_api=0`` before importing paddle. The cases take the library as ``paddle``
(PaddlePaddle here, ``phiops`` in the tests), so both run the same code. Each case builds its
layers, records every parameter's name and shape (names sorted), sets the parameters to
fixed values (``fixed_value``: no random draws), and runs the main program STEPS times on fixed
inputs with SGD on ``mean(out * out)`` summed over the case's outputs: the outputs of the first
run, the losses, and the parameters after the last run. static_nn2_initializers.npz holds the
default initializer (kind and attributes) of each parameter that ``defaults`` makes.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

import numpy as np

DATA = Path(__file__).resolve().parents[2] / "tests" / "data" / "to_static"
STEPS = 3
LEARNING_RATE = 0.1


def fixed_value(shape: list[int], salt: int) -> np.ndarray:
    """Deterministic float32 values in about [-0.5, 0.5] (a sine of the flat index)."""
    count = int(np.prod(shape)) if shape else 1
    flat = 0.5 * np.sin(0.37 * np.arange(count) + 0.9 * salt + 0.3)
    return flat.reshape(shape).astype("float32")


def conv_transpose(paddle: Any) -> list[Any]:
    """conv2d_transpose with a filter size, stride and padding (relu), and one sized from
    ``output_size`` with groups, NHWC-free; no bias on the second."""
    nn = paddle.static.nn
    img = paddle.static.data("img", [-1, 2, 4, 4], "float32")
    first = nn.conv2d_transpose(img, 3, filter_size=3, stride=2, padding=1, act="relu")
    second = nn.conv2d_transpose(img, 4, output_size=[6, 6], groups=2, bias_attr=False)
    nhwc = paddle.static.data("nhwc", [-1, 4, 4, 2], "float32")
    third = nn.conv2d_transpose(nhwc, 2, filter_size=[2, 3], dilation=2, data_format="NHWC")
    return [first, second, third]


def conv_transpose_feeds() -> dict[str, np.ndarray]:
    return {
        "img": fixed_value([2, 2, 4, 4], 11),
        "nhwc": fixed_value([2, 4, 4, 2], 12),
    }


def conv3d(paddle: Any) -> list[Any]:
    """conv3d (padding 1, relu) and conv3d_transpose (stride [1, 2, 2]) of a 5-D input."""
    nn = paddle.static.nn
    vol = paddle.static.data("vol", [-1, 2, 3, 4, 4], "float32")
    first = nn.conv3d(vol, 3, 2, padding=1, act="relu")
    second = nn.conv3d_transpose(vol, 2, filter_size=2, stride=[1, 2, 2])
    third = nn.conv3d(vol, 4, [1, 2, 2], groups=2, bias_attr=False)
    return [first, second, third]


def conv3d_feeds() -> dict[str, np.ndarray]:
    return {"vol": fixed_value([2, 2, 3, 4, 4], 21)}


def norms(paddle: Any) -> list[Any]:
    """group_norm and instance_norm: with the default attributes (3.3.1 then makes no scale and
    no bias), and with ParamAttr()s (both made)."""
    nn = paddle.static.nn
    img = paddle.static.data("img", [-1, 4, 3, 3], "float32")
    # instance_norm's gradient needs its input's (3.3.1's InstanceNormGradInferMeta)
    img.stop_gradient = False
    plain_group = nn.group_norm(img, 2)
    group = nn.group_norm(img, 2, param_attr=paddle.ParamAttr(), bias_attr=paddle.ParamAttr())
    plain_instance = nn.instance_norm(img)
    instance = nn.instance_norm(
        img, param_attr=paddle.ParamAttr(), bias_attr=paddle.ParamAttr(), epsilon=1e-3
    )
    nhwc = paddle.static.data("nhwc", [-1, 3, 3, 4], "float32")
    group_nhwc = nn.group_norm(
        nhwc, 4, param_attr=paddle.ParamAttr(), bias_attr=True, data_layout="NHWC", act="tanh"
    )
    return [plain_group, group * 1.5, plain_instance, instance * 1.5, group_nhwc]


def norms_feeds() -> dict[str, np.ndarray]:
    return {
        "img": fixed_value([2, 4, 3, 3], 31) * 3.0 + 0.5,
        "nhwc": fixed_value([2, 3, 3, 4], 32) * 2.0,
    }


def prelu(paddle: Any) -> list[Any]:
    """prelu in its three modes (channel in NCHW and NHWC)."""
    nn = paddle.static.nn
    img = paddle.static.data("img", [-1, 3, 2, 2], "float32")
    # 3.3.1's prelu_grad kernel needs its input's gradient (it crashes without)
    img.stop_gradient = False
    return [
        nn.prelu(img, "all"),
        nn.prelu(img, "channel"),
        nn.prelu(img, "element"),
        nn.prelu(img, "channel", data_format="NHWC"),
    ]


def prelu_feeds() -> dict[str, np.ndarray]:
    return {"img": fixed_value([2, 3, 2, 2], 41) * 2.0}


def bilinear(paddle: Any) -> list[Any]:
    """bilinear_tensor_product with a bias and tanh, and one without a bias."""
    nn = paddle.static.nn
    x = paddle.static.data("x", [-1, 4], "float32")
    y = paddle.static.data("y", [-1, 3], "float32")
    return [
        nn.bilinear_tensor_product(x, y, 5, act="tanh"),
        nn.bilinear_tensor_product(x, y, 2, bias_attr=False),
    ]


def bilinear_feeds() -> dict[str, np.ndarray]:
    return {"x": fixed_value([3, 4], 51), "y": fixed_value([3, 3], 52)}


def spectral(paddle: Any) -> list[Any]:
    """spectral_norm of an fc weight (dim 0) and a conv filter (dim 1): its u and v are
    parameters without gradients; the normalised weights multiply the inputs."""
    nn = paddle.static.nn
    weight = paddle.static.data("weight", [6, 4], "float32")
    filt = paddle.static.data("filt", [3, 4, 2, 2], "float32")
    first = nn.spectral_norm(weight, dim=0, power_iters=2)
    second = nn.spectral_norm(filt, dim=1, power_iters=1, eps=1e-6)
    return [first, second]


def spectral_feeds() -> dict[str, np.ndarray]:
    return {"weight": fixed_value([6, 4], 61) + 0.2, "filt": fixed_value([3, 4, 2, 2], 62)}


def deform(paddle: Any) -> list[Any]:
    """deform_conv2d with a mask (`deformable_conv`) and without (`deformable_conv_v1`)."""
    nn = paddle.static.nn
    img = paddle.static.data("img", [-1, 2, 4, 4], "float32")
    offset = paddle.static.data("offset", [-1, 18, 4, 4], "float32")
    mask = paddle.static.data("mask", [-1, 9, 4, 4], "float32")
    offset2 = paddle.static.data("offset2", [-1, 8, 3, 3], "float32")
    # 3.3.1's deformable_conv_grad infers every input's gradient (it crashes without)
    for value in (img, offset, mask, offset2):
        value.stop_gradient = False
    return [
        nn.deform_conv2d(img, offset, mask, 3, 3, padding=1),
        nn.deform_conv2d(img, offset2, None, 2, 2, bias_attr=False),
    ]


def deform_feeds() -> dict[str, np.ndarray]:
    return {
        "img": fixed_value([2, 2, 4, 4], 71),
        "offset": fixed_value([2, 18, 4, 4], 72) * 1.5,
        "mask": fixed_value([2, 9, 4, 4], 73) + 0.5,
        "offset2": fixed_value([2, 8, 3, 3], 74),
    }


def row_conv(paddle: Any) -> list[Any]:
    """row_conv (lookahead 2) of a [batch, time, width] input, and one with lookahead 1 and
    relu."""
    nn = paddle.static.nn
    seq = paddle.static.data("seq", [2, 5, 3], "float32")
    return [nn.row_conv(seq, 2), nn.row_conv(seq, 1, act="relu")]


def row_conv_feeds() -> dict[str, np.ndarray]:
    return {"seq": fixed_value([2, 5, 3], 81)}


# name -> (build, feeds)
CASES: dict[str, tuple[Callable[[Any], list[Any]], Callable[[], dict[str, np.ndarray]]]] = {
    "conv_transpose": (conv_transpose, conv_transpose_feeds),
    "conv3d": (conv3d, conv3d_feeds),
    "norms": (norms, norms_feeds),
    "prelu": (prelu, prelu_feeds),
    "bilinear": (bilinear, bilinear_feeds),
    "spectral": (spectral, spectral_feeds),
    "deform": (deform, deform_feeds),
    "row_conv": (row_conv, row_conv_feeds),
}


def defaults(paddle: Any) -> None:
    """Each layer with its default parameter attributes (group_norm's and instance_norm's with
    ParamAttr()s, as their defaults make none), for the startup programs' initializers."""
    nn = paddle.static.nn
    img = paddle.static.data("img", [-1, 2, 5, 5], "float32")
    vol = paddle.static.data("vol", [-1, 2, 3, 4, 4], "float32")
    nn.conv2d_transpose(img, 3, filter_size=3)
    nn.conv3d(vol, 3, 2)
    nn.conv3d_transpose(vol, 2, filter_size=[2, 3, 3])
    nn.group_norm(img, 2, param_attr=paddle.ParamAttr(), bias_attr=paddle.ParamAttr())
    nn.instance_norm(img, param_attr=paddle.ParamAttr(), bias_attr=paddle.ParamAttr())
    nn.prelu(img, "channel")
    x = paddle.static.data("x", [-1, 4], "float32")
    nn.bilinear_tensor_product(x, paddle.static.data("y", [-1, 3], "float32"), 5)
    nn.spectral_norm(paddle.static.data("w", [6, 4], "float32"))
    offset = paddle.static.data("offset", [-1, 18, 5, 5], "float32")
    nn.deform_conv2d(img, offset, None, 3, 3, padding=1)
    nn.row_conv(paddle.static.data("seq", [2, 6, 4], "float32"), 2)


# the startup op that draws a parameter -> (kind, its two attributes)
_LEGACY_INITIALIZERS = {
    "fill_constant": ("constant", "value", "value"),
    "gaussian_random": ("normal", "mean", "std"),
    "uniform_random": ("uniform", "min", "max"),
}


def paddle_initializers() -> dict[str, np.ndarray]:
    """``kind:<name>`` (constant, normal or uniform) and ``args:<name>`` (value twice, mean and
    std, or min and max) of each parameter ``defaults`` makes, from PaddlePaddle's startup
    program."""
    import paddle

    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        defaults(paddle)
    out = {}
    for op in startup.global_block().ops:
        kind, first, second = _LEGACY_INITIALIZERS[op.type]
        (name,) = op.output_arg_names
        out[f"kind:{name}"] = np.array(kind)
        out[f"args:{name}"] = np.array([op.attr(first), op.attr(second)], "float64")
    return out


def paddle_parameters(program: Any) -> dict[str, tuple[list[int], bool]]:
    """name -> (shape, has a gradient) of a PaddlePaddle program's parameters."""
    return {
        p.name: (list(p.shape), not p.stop_gradient)
        for p in program.global_block().all_parameters()
    }


def run_case(
    paddle: Any, case: str, parameters: Callable[[Any], dict[str, tuple[list[int], bool]]]
) -> dict[str, np.ndarray]:
    """Build the case in fresh programs, set fixed parameters, run STEPS SGD steps: the first
    run's outputs ``out_i``, the ``losses``, the sorted parameter ``names``, their
    ``shape:<name>``s, and each parameter's value after the last step. ``parameters`` reads a
    program's parameters (the libraries list them differently)."""
    build, feeds = CASES[case]
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        outs = build(paddle)
        loss = paddle.add_n([paddle.mean(out * out) for out in outs])
        if any(trained for _, trained in parameters(main).values()):
            paddle.optimizer.SGD(learning_rate=LEARNING_RATE).minimize(loss)
    shapes = {name: shape for name, (shape, _) in parameters(main).items()}
    names = sorted(shapes)
    scope = paddle.static.Scope()
    place = paddle.CPUPlace()
    exe = paddle.static.Executor(place)
    result: dict[str, np.ndarray] = {"names": np.array(names)}
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        for salt, name in enumerate(names):
            scope.var(name).get_tensor().set(fixed_value(shapes[name], salt), place)
        losses = []
        for step in range(STEPS):
            fetched = exe.run(main, feed=feeds(), fetch_list=[loss, *outs])
            losses.append(float(np.asarray(fetched[0])))
            if step == 0:
                for index, value in enumerate(fetched[1:]):
                    result[f"out_{index}"] = np.asarray(value)
        result["losses"] = np.array(losses, "float64")
        for name in names:
            result[f"shape:{name}"] = np.array(shapes[name], "int64")
            result[name] = np.array(scope.find_var(name).get_tensor())
    return result


def main() -> None:
    os.environ["FLAGS_enable_pir_api"] = "0"
    import paddle

    paddle.enable_static()
    DATA.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        with paddle.utils.unique_name.guard():
            np.savez(DATA / f"static_nn2_{case}.npz", **run_case(paddle, case, paddle_parameters))
    np.savez(DATA / "static_nn2_initializers.npz", **paddle_initializers())
    print("wrote", sorted(p.name for p in DATA.glob("static_nn2_*.npz")))


if __name__ == "__main__":
    main()
