"""Eager and static agree, for every op in the registry (a new op is covered automatically).

Building half (here): each op's API function is called eagerly on tensors and, in static mode,
on ``phi.static.data`` values of the same shapes and dtypes; the built operation's result types
(from InferMeta with MetaConfig(is_runtime=False)) must be the eager outputs' shapes and dtypes
(an extent the data decides, such as nonzero's count, may be -1), and the program must verify and
print/parse back. Run half: the built program runs in the Executor with the eager inputs as
feeds, and the fetched arrays equal the eager outputs (random ops: their shapes and dtypes).

Arguments: float32 [2, 3] tensors, each attribute's default (False for a bool, 0, or [2, 3] for
an IntArray, where it has none), or ARGUMENTS[op]; every op must have arguments valid eagerly.
Where phiops' op and PaddlePaddle's pd_op differ in names or arguments, building follows
runtime/static/pd_op_names.py; an op that PaddlePaddle 3.3.1 defines as another function is in
CANNOT_BUILD, and building it must raise UnimplementedError.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.dispatch.op_def import op_defs
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError

Tensor = Callable[[tuple[int, ...], str], Any]


def _defaults(function: Callable[..., Any], tensor: Tensor) -> list[Any]:
    values = []
    for parameter in inspect.signature(function).parameters.values():
        if parameter.name == "name":
            break
        annotation = str(parameter.annotation)
        if "list[Tensor]" in annotation:
            values.append([tensor((2, 3), "float32"), tensor((2, 3), "float32")])
        elif "Tensor" in annotation and parameter.default is inspect.Parameter.empty:
            values.append(tensor((2, 3), "float32"))
        elif parameter.default is not inspect.Parameter.empty:
            values.append(parameter.default)
        elif annotation == "bool":
            values.append(False)
        else:
            values.append([2, 3] if "IntArray" in annotation else 0)
    return values


def _with_integer_inputs(dtype: str) -> Callable[[Callable[..., Any], Tensor], list[Any]]:
    def arguments(function: Callable[..., Any], tensor: Tensor) -> list[Any]:
        return _defaults(function, lambda shape, _: tensor(shape, dtype))

    return arguments


ARGUMENTS: dict[str, Callable[[Callable[..., Any], Tensor], list[Any]]] = {
    "bitwise_and": _with_integer_inputs("int32"),
    "bitwise_or": _with_integer_inputs("int32"),
    "bitwise_xor": _with_integer_inputs("int32"),
    "bitwise_not": _with_integer_inputs("int32"),
    "real": lambda f, t: [t((2, 3), "complex64")],
    "imag": lambda f, t: [t((2, 3), "complex64")],
    "as_real": lambda f, t: [t((2, 3), "complex64")],
    "as_real_grad": lambda f, t: [t((2, 3, 2), "float32")],
    "as_complex": lambda f, t: [t((2, 3, 2), "float32")],
    "as_complex_grad": lambda f, t: [t((2, 3), "complex64")],
    "one_hot": lambda f, t: [t((2, 3), "int64"), 4],
    "full_int_array": lambda f, t: [[2, 3], "int64"],
    "put_along_axis": lambda f, t: [
        t((2, 3), "float32"),
        t((2, 1), "int64"),
        t((2, 1), "float32"),
        1,
    ],
    "gather_grad": lambda f, t: [t((2, 3), "float32"), t((2,), "int64"), t((2, 3), "float32"), 0],
    "matmul": lambda f, t: [t((2, 3), "float32"), t((3, 4), "float32")],
    "transpose": lambda f, t: [t((2, 3), "float32"), [1, 0]],
    "cast": lambda f, t: [t((2, 3), "float32"), "float64"],
    "where": lambda f, t: [t((2, 3), "bool"), t((2, 3), "float32"), t((1, 3), "float32")],
    "split_with_num": lambda f, t: [t((2, 4), "float32"), 2, 1],
    "meshgrid": lambda f, t: [[t((2,), "float32"), t((3,), "float32")]],
    "prod": lambda f, t: [t((2, 3), "float32"), [1], False, False],
    "roll": lambda f, t: [t((2, 3), "float32"), [1], [1]],
    "sgd_": lambda f, t: [t((2, 3), "float32"), t((1,), "float32"), t((2, 3), "float32")],
    "argmax": lambda f, t: [t((2, 3), "float32"), 1, False, False, "int64"],
    "arange": lambda f, t: [0, 5, 1, "int64"],
    "matmul_grad": lambda f, t: [t((2, 3), "float32"), t((3, 4), "float32"), t((2, 4), "float32")],
    "transpose_grad": lambda f, t: [t((3, 2), "float32"), [1, 0]],
    "sum_grad": lambda f, t: [t((2, 3), "float32"), t((2,), "float32"), [1], False],
    "mean_grad": lambda f, t: [t((2, 3), "float32"), t((2,), "float32"), [1]],
    "max_grad": lambda f, t: [t((2, 3), "float32"), t((2,), "float32"), t((2,), "float32"), [1]],
    "min_grad": lambda f, t: [t((2, 3), "float32"), t((2,), "float32"), t((2,), "float32"), [1]],
    "prod_grad": lambda f, t: [
        t((2, 3), "float32"),
        t((2,), "float32"),
        t((2,), "float32"),
        [1],
        False,
        False,
    ],
    "tile_grad": lambda f, t: [t((2, 3), "float32"), t((4, 3), "float32"), [2, 1]],
    "concat_grad": lambda f, t: [
        [t((2, 3), "float32"), t((2, 3), "float32")],
        t((4, 3), "float32"),
        0,
    ],
    "gelu_grad": lambda f, t: [t((2, 3), "float32"), t((2, 3), "float32"), False],
    "logsumexp_grad": lambda f, t: [
        t((2, 3), "float32"),
        t((2,), "float32"),
        t((2,), "float32"),
        [1],
        False,
        False,
    ],
    "cumsum_grad": lambda f, t: [
        t((2, 3), "float32"),
        t((2, 3), "float32"),
        1,
        False,
        False,
        False,
    ],
    "cumprod_grad": lambda f, t: [
        t((2, 3), "float32"),
        t((2, 3), "float32"),
        t((2, 3), "float32"),
        1,
        False,
        False,
    ],
    "pad_grad": lambda f, t: [t((2, 3), "float32"), t((3, 5), "float32"), [1, 0, 0, 2], 0.0],
    "embedding_grad": lambda f, t: [
        t((2, 3), "int64"),
        t((4, 5), "float32"),
        t((2, 3, 5), "float32"),
    ],
    "conv2d_transpose": lambda f, t: [t((2, 3, 5, 5), "float32"), t((3, 4, 3, 3), "float32")],
    "depthwise_conv2d_transpose": lambda f, t: [
        t((2, 3, 5, 5), "float32"),
        t((3, 1, 3, 3), "float32"),
        [1, 1],
        [0, 0],
        [],
        [],
        "EXPLICIT",
        3,
    ],
    "conv3d_transpose": lambda f, t: [t((2, 3, 4, 4, 4), "float32"), t((3, 2, 2, 2, 2), "float32")],
    "assign_value": lambda f, t: [[2, 2], "float32", [1.0, 2.0, 3.0, 4.0]],
    "assign_value_": lambda f, t: [t((2, 2), "float32"), [2, 2], "float32", [1.0, 2.0, 3.0, 4.0]],
    "batch_norm": lambda f, t: [
        t((2, 3, 4, 4), "float32"),
        t((3,), "float32"),
        t((3,), "float32"),
        t((3,), "float32"),
        t((3,), "float32"),
        False,
        0.9,
        1e-5,
        "NCHW",
        False,
        False,
    ],
    # probabilities in [0.25, 0.75): PaddlePaddle refuses one outside [0, 1]
    "bernoulli": lambda f, t: [t((2, 3), "float32") * 0.5],
    "conv2d": lambda f, t: [t((2, 3, 8, 8), "float32"), t((4, 3, 3, 3), "float32")],
    "cross_entropy_with_softmax": lambda f, t: [t((4, 5), "float32"), t((4, 1), "int64")],
    "dropout": lambda f, t: [t((2, 3), "float32"), None, 0.5, True, "upscale_in_train", 0, False],
    "embedding": lambda f, t: [t((2, 3), "int64"), t((4, 5), "float32")],
    "gather": lambda f, t: [t((4, 3), "float32"), t((2,), "int64"), 0],
    "gaussian": lambda f, t: [[2, 3], 0.0, 1.0, 0, "float32"],
    "group_norm": lambda f, t: [t((2, 4, 3, 3), "float32"), None, None, 1e-5, 2],
    "index_select": lambda f, t: [t((4, 3), "float32"), t((2,), "int64"), 1],
    "layer_norm": lambda f, t: [t((2, 3, 4), "float32"), t((12,), "float32"), t((12,), "float32")],
    "linspace": lambda f, t: [0.0, 1.0, 5, "float32", None],
    "masked_select": lambda f, t: [t((2, 3), "float32"), t((2, 3), "bool")],
    "pad": lambda f, t: [t((2, 3), "float32"), [1, 0, 0, 2], 0.0],
    "pool2d": lambda f, t: [
        t((2, 3, 6, 6), "float32"),
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
    ],
    "randint": lambda f, t: [0, 5, [2, 3]],
    "randperm": lambda f, t: [6, "int64"],
    "scatter": lambda f, t: [t((4, 3), "float32"), t((2,), "int64"), t((2, 3), "float32")],
    "slice": lambda f, t: [t((4, 3), "float32"), [0], [1], [3], [1], []],
    "split": lambda f, t: [t((2, 6), "float32"), [2, 4], 1],
    "strided_slice": lambda f, t: [t((4, 6), "float32"), [1], [0], [6], [2]],
    "take_along_axis": lambda f, t: [t((4, 3), "float32"), t((2, 3), "int64"), 0],
    "uniform": lambda f, t: [[2, 3], "float32", -1.0, 1.0, 0],
    "unique": lambda f, t: [t((6,), "int64"), True, True, True, []],
    "adam_": lambda f, t: [*_adam_tensors(t)],
    "adamw_": lambda f, t: [*_adam_tensors(t)],
    "merged_adam_": lambda f, t: [[tensor] for tensor in _adam_tensors(t) if tensor is not None],
    "momentum_": lambda f, t: [*_momentum_tensors(t), None, 0.9],
    "adagrad_": lambda f, t: [*_distinct(t, 3), t((1,), "float32"), None],
    "rmsprop_": lambda f, t: [*_distinct(t, 4), t((1,), "float32"), None, None],
    "adamax_": lambda f, t: [*_distinct(t, 2), t((1,), "float32"), *_distinct(t, 2)]
    + [t((1,), "float32") * 0.5, None],
    "adadelta_": lambda f, t: [*_distinct(t, 4), t((1,), "float32"), None],
    "lamb_": lambda f, t: [*_adam_tensors(t)[:5], *_adam_tensors(t)[6:], None, None, 0.01],
    "nadam_": lambda f, t: [*_distinct(t, 2), t((1,), "float32"), *_distinct(t, 3, 0.5)]
    + [*_distinct(t, 2), None],
    "radam_": lambda f, t: [*_distinct(t, 2), t((1,), "float32"), *_distinct(t, 3, 0.5)]
    + [*_distinct(t, 2), None],
    "rprop_": lambda f, t: [*_distinct(t, 3), t((2, 3), "float32") * 0.01, None]
    + [t((2,), "float32") * 0.01, t((2,), "float32")],
    "asgd_": lambda f, t: [*_distinct(t, 2), t((1,), "float32"), *_distinct(t, 2)]
    + [t((1,), "float32") * 3, None],
    "merged_momentum_": lambda f, t: [[tensor] for tensor in _momentum_tensors(t)] + [None, 0.9],
    "argsort_grad": lambda f, t: [
        *[t((2, 3), "int64"), t((2, 3), "float32"), t((2, 3), "float32"), 1, False, False],
    ],
    "batch_norm_": lambda f, t: ARGUMENTS["batch_norm"](f, t),
    "batch_norm_grad": lambda f, t: [
        t((2, 3, 4, 4), "float32"),
        *[t((3,), "float32") for _ in range(6)],
        None,
        t((2, 3, 4, 4), "float32"),
        *[0.9, 1e-5, "NCHW", False, False, False],
    ],
    "bilinear_interp": lambda f, t: [t((2, 3, 4, 4), "float32"), None, None, None, "NCHW", 0, 6, 6],
    "bilinear_interp_grad": lambda f, t: [
        *[t((2, 3, 4, 4), "float32"), None, None, None, t((2, 3, 6, 6), "float32")],
        *["NCHW", 0, 6, 6, [], "bilinear", True, 1],
    ],
    "nearest_interp": lambda f, t: [
        *[t((2, 3, 4, 4), "float32"), None, None, None],
        *["NCHW", 0, 6, 6, [], "nearest", False],
    ],
    "nearest_interp_grad": lambda f, t: [
        *[t((2, 3, 4, 4), "float32"), None, None, None, t((2, 3, 6, 6), "float32")],
        *["NCHW", 0, 6, 6, [], "nearest", False, 1],
    ],
    "linear_interp": lambda f, t: [
        *[t((2, 3, 5), "float32"), None, None, None],
        *["NCHW", 0, 0, 8, [], "linear", False, 0],
    ],
    "linear_interp_grad": lambda f, t: [
        *[t((2, 3, 5), "float32"), None, None, None, t((2, 3, 8), "float32")],
        *["NCHW", 0, 0, 8, [], "linear", False, 0],
    ],
    "bicubic_interp": lambda f, t: [
        *[t((2, 3, 4, 4), "float32"), None, None, None],
        *["NCHW", 0, 6, 5, [], "bicubic", True],
    ],
    "bicubic_interp_grad": lambda f, t: [
        *[t((2, 3, 4, 4), "float32"), None, None, None, t((2, 3, 6, 5), "float32")],
        *["NCHW", 0, 6, 5, [], "bicubic", True, 1],
    ],
    "trilinear_interp": lambda f, t: [
        *[t((1, 2, 2, 3, 4), "float32"), None, None, None],
        *["NCHW", 3, 4, 5, [], "trilinear", False, 1],
    ],
    "trilinear_interp_grad": lambda f, t: [
        *[t((1, 2, 2, 3, 4), "float32"), None, None, None, t((1, 2, 3, 4, 5), "float32")],
        *["NCHW", 3, 4, 5, [], "trilinear", False, 1],
    ],
    "conv2d_grad": lambda f, t: [
        *[t((2, 3, 8, 8), "float32"), t((4, 3, 3, 3), "float32"), t((2, 4, 6, 6), "float32")],
        *[[1, 1], [0, 0], "EXPLICIT", [1, 1], 1, "NCHW"],
    ],
    "conv2d_transpose_grad": lambda f, t: [
        *[t((2, 3, 5, 5), "float32"), t((3, 4, 3, 3), "float32"), t((2, 4, 7, 7), "float32")],
        *[[1, 1], [0, 0], [], [], "EXPLICIT", 1, [1, 1], "NCHW"],
    ],
    "conv3d": lambda f, t: [t((2, 3, 4, 4, 4), "float32"), t((2, 3, 2, 2, 2), "float32")],
    "conv3d_grad": lambda f, t: [
        *[t((2, 3, 4, 4, 4), "float32"), t((2, 3, 2, 2, 2), "float32")],
        *[t((2, 2, 3, 3, 3), "float32"), [1, 1, 1], [0, 0, 0], "EXPLICIT", 1, [1, 1, 1], "NCDHW"],
    ],
    "conv3d_transpose_grad": lambda f, t: [
        *[t((2, 3, 4, 4, 4), "float32"), t((3, 2, 2, 2, 2), "float32")],
        *[t((2, 2, 5, 5, 5), "float32"), [1, 1, 1], [0, 0, 0], [], [], "EXPLICIT", 1],
        *[[1, 1, 1], "NCDHW"],
    ],
    "cross_entropy_with_softmax_grad": lambda f, t: [
        *[t((4, 1), "int64"), t((4, 5), "float32"), t((4, 1), "float32")],
        *[False, True, True, -100, -1],
    ],
    "depthwise_conv2d": lambda f, t: [
        *[t((2, 3, 8, 8), "float32"), t((3, 1, 3, 3), "float32"), [1, 1], [0, 0], "EXPLICIT", 3],
    ],
    "depthwise_conv2d_grad": lambda f, t: [
        *[t((2, 3, 8, 8), "float32"), t((3, 1, 3, 3), "float32"), t((2, 3, 6, 6), "float32")],
        *[[1, 1], [0, 0], "EXPLICIT", 3, [1, 1], "NCHW"],
    ],
    "depthwise_conv2d_transpose_grad": lambda f, t: [
        *[t((2, 3, 5, 5), "float32"), t((3, 1, 3, 3), "float32"), t((2, 3, 7, 7), "float32")],
        *[[1, 1], [0, 0], [], [], "EXPLICIT", 3, [1, 1], "NCHW"],
    ],
    "diag_grad": lambda f, t: [t((3,), "float32"), t((3, 3), "float32"), 0],
    "dropout_grad": lambda f, t: [
        *[t((2, 3), "uint8"), t((2, 3), "float32"), 0.5, False, "upscale_in_train"],
    ],
    "gather_nd": lambda f, t: [t((2, 3), "float32"), t((2, 1), "int64")],
    "gather_nd_grad": lambda f, t: [
        *[t((2, 3), "float32"), t((2, 1), "int64"), t((2, 3), "float32")],
    ],
    "group_norm_grad": lambda f, t: [
        *[t((2, 4, 3, 3), "float32"), t((4,), "float32"), t((4,), "float32")],
        *[t((2, 4, 3, 3), "float32"), t((2, 2), "float32"), t((2, 2), "float32")],
        *[t((2, 4, 3, 3), "float32"), 1e-5, 2, "NCHW"],
    ],
    "index_put": lambda f, t: [t((2, 3), "float32"), [t((2,), "int64")], t((3,), "float32")],
    "index_put_grad": lambda f, t: [
        *[t((2, 3), "float32"), [t((2,), "int64")], t((3,), "float32"), t((2, 3), "float32")],
    ],
    "instance_norm_grad": lambda f, t: [
        *[t((2, 3, 4), "float32"), t((3,), "float32"), t((6,), "float32"), t((6,), "float32")],
        t((2, 3, 4), "float32"),
    ],
    "layer_norm_grad": lambda f, t: [
        *[t((2, 3, 4), "float32"), t((12,), "float32"), t((12,), "float32")],
        *[t((2,), "float32"), t((2,), "float32"), t((2, 3, 4), "float32")],
    ],
    "masked_select_grad": lambda f, t: [
        *[
            t((2, 3), "float32"),
            t((2, 3), "bool"),
            t((int(_array((2, 3), "bool").sum()),), "float32"),
        ],
    ],
    "pixel_shuffle": lambda f, t: [t((2, 8, 3, 2), "float32"), 2],
    "pixel_shuffle_grad": lambda f, t: [t((2, 2, 6, 4), "float32"), 2, "NCHW"],
    "pixel_unshuffle": lambda f, t: [t((2, 2, 6, 4), "float32"), 2],
    "pixel_unshuffle_grad": lambda f, t: [t((2, 8, 3, 2), "float32"), 2, "NCHW"],
    "channel_shuffle": lambda f, t: [t((2, 6, 3, 2), "float32"), 3],
    "channel_shuffle_grad": lambda f, t: [t((2, 6, 3, 2), "float32"), 3],
    "unfold": lambda f, t: [t((2, 3, 5, 6), "float32"), [2, 3], [1, 2], [1, 0, 0, 1], [1, 1]],
    "unfold_grad": lambda f, t: [
        *[t((2, 3, 5, 6), "float32"), t((2, 18, 15), "float32")],
        *[[2, 3], [1, 2], [1, 0, 0, 1], [1, 1]],
    ],
    "fold": lambda f, t: [t((2, 12, 12), "float32"), [4, 5], [2, 2], [1, 1], [0, 0, 0, 0], [1, 1]],
    "fold_grad": lambda f, t: [
        *[t((2, 12, 12), "float32"), t((2, 3, 4, 5), "float32")],
        *[[4, 5], [2, 2], [1, 1], [0, 0, 0, 0], [1, 1]],
    ],
    "affine_grid": lambda f, t: [t((2, 2, 3), "float32"), [2, 3, 4, 5], True],
    "affine_grid_grad": lambda f, t: [
        *[t((2, 2, 3), "float32"), t((2, 4, 5, 2), "float32"), [2, 3, 4, 5], True],
    ],
    "grid_sample": lambda f, t: [t((2, 3, 4, 5), "float32"), t((2, 3, 4, 2), "float32")],
    "grid_sample_grad": lambda f, t: [
        *[t((2, 3, 4, 5), "float32"), t((2, 3, 4, 2), "float32"), t((2, 3, 3, 4), "float32")],
        *["bilinear", "zeros", True],
    ],
    "multiclass_nms3": lambda f, t: [
        *[t((2, 5, 4), "float32") * 5, t((2, 3, 5), "float32") - 0.5, None],
        *[0.3, -1, -1, 0.4],
    ],
    "nms": lambda f, t: [t((6, 4), "float32") * 5, 0.3],
    "yolo_box": lambda f, t: [
        *[t((2, 14, 3, 2), "float32"), t((2, 2), "int32") * 0 + 96, [10, 13, 16, 30], 2, 0.1],
    ],
    "prior_box": lambda f, t: [
        *[t((1, 2, 3, 2), "float32"), t((1, 3, 30, 20), "float32"), [4.0, 8.0], [6.0, 9.0]],
        *[[2.0], [0.1, 0.1, 0.2, 0.2]],
    ],
    "box_coder": lambda f, t: [
        *[t((3, 4), "float32").abs() + 1, None, t((2, 3, 4), "float32"), "decode_center_size"],
    ],
    # one image with two boxes (boxes_num [0] + 2)
    "roi_align": lambda f, t: [
        *[t((1, 3, 6, 7), "float32"), t((2, 4), "float32") * 4, t((1,), "int32") + 2],
        *[2, 3, 1.0, -1, False],
    ],
    "roi_align_grad": lambda f, t: [
        *[t((1, 3, 6, 7), "float32"), t((2, 4), "float32") * 4, t((1,), "int32") + 2],
        *[t((2, 3, 2, 3), "float32"), 2, 3, 1.0, -1, False],
    ],
    "roi_pool": lambda f, t: [
        *[t((1, 3, 6, 7), "float32"), t((2, 4), "float32") * 4, t((1,), "int32") + 2],
        *[2, 3, 1.0],
    ],
    "roi_pool_grad": lambda f, t: [
        *[t((1, 3, 6, 7), "float32"), t((2, 4), "float32") * 4, t((1,), "int32") + 2],
        *[t((2, 3, 2, 3), "int64"), t((2, 3, 2, 3), "float32"), 2, 3, 1.0],
    ],
    "max_pool2d_with_index": lambda f, t: [t((2, 3, 6, 6), "float32"), [2, 2], [2, 2]],
    "max_pool2d_with_index_grad": lambda f, t: [
        *[t((2, 3, 6, 6), "float32"), t((2, 3, 3, 3), "int32"), t((2, 3, 3, 3), "float32")],
        *[[2, 2], [2, 2], [0, 0], False, False],
    ],
    "max_pool3d_with_index": lambda f, t: [t((2, 3, 4, 6, 6), "float32"), [2, 2, 2], [2, 2, 2]],
    "unpool": lambda f, t: [
        *[t((2, 3, 2, 3), "float32"), t((2, 3, 2, 3), "int32") % 24],
        *[[2, 2], [2, 2], [0, 0], [4, 6], "NCHW"],
    ],
    "unpool_grad": lambda f, t: [
        *[t((2, 3, 2, 3), "float32"), t((2, 3, 2, 3), "int32") % 24],
        *[t((2, 3, 4, 6), "float32"), t((2, 3, 4, 6), "float32")],
        *[[2, 2], [2, 2], [0, 0], [4, 6], "NCHW"],
    ],
    "unpool3d": lambda f, t: [
        *[t((2, 3, 1, 2, 3), "float32"), t((2, 3, 1, 2, 3), "int32") % 24],
        *[[1, 2, 2], [1, 2, 2], [0, 0, 0], [1, 4, 6]],
    ],
    "unpool3d_grad": lambda f, t: [
        *[t((2, 3, 1, 2, 3), "float32"), t((2, 3, 1, 2, 3), "int32") % 24],
        *[t((2, 3, 1, 4, 6), "float32"), t((2, 3, 1, 4, 6), "float32")],
        *[[1, 2, 2], [1, 2, 2], [0, 0, 0], [1, 4, 6], "NCDHW"],
    ],
    "max_pool3d_with_index_grad": lambda f, t: [
        *[t((2, 3, 4, 6, 6), "float32"), t((2, 3, 2, 3, 3), "int32")],
        *[t((2, 3, 2, 3, 3), "float32"), [2, 2, 2], [2, 2, 2], [0, 0, 0], False, False],
    ],
    "meshgrid_grad": lambda f, t: [
        *[[t((2,), "float32"), t((3,), "float32")], [t((2, 3), "float32"), t((2, 3), "float32")]],
    ],
    "mish": lambda f, t: [t((2, 3), "float32"), 20.0],
    "mish_grad": lambda f, t: [t((2, 3), "float32"), t((2, 3), "float32"), 20.0],
    "pad3d": lambda f, t: [t((1, 2, 3, 3, 3), "float32"), [1, 1, 1, 1, 1, 1]],
    "pad3d_grad": lambda f, t: [
        *[t((1, 2, 3, 3, 3), "float32"), t((1, 2, 5, 5, 5), "float32"), [1, 1, 1, 1, 1, 1]],
        *["constant", 0.0, "NCDHW"],
    ],
    "pool2d_grad": lambda f, t: [
        *[t((2, 3, 6, 6), "float32"), t((2, 3, 3, 3), "float32"), t((2, 3, 3, 3), "float32")],
        *[[2, 2], [2, 2], [0, 0], False, True, "NCHW", "avg", False, False, "EXPLICIT"],
    ],
    "pool3d": lambda f, t: [
        *[t((2, 3, 4, 4, 4), "float32"), [2, 2, 2], [2, 2, 2], [0, 0, 0], False, True, "NCDHW"],
        *["max", False, False, "EXPLICIT"],
    ],
    "pool3d_grad": lambda f, t: [
        *[t((2, 3, 4, 4, 4), "float32"), t((2, 3, 2, 2, 2), "float32")],
        *[t((2, 3, 2, 2, 2), "float32"), [2, 2, 2], [2, 2, 2], [0, 0, 0], False, True, "NCDHW"],
        *["avg", False, False, "EXPLICIT"],
    ],
    "prelu": lambda f, t: [t((2, 3), "float32"), t((1,), "float32")],
    "prelu_grad": lambda f, t: [
        *[t((2, 3), "float32"), t((1,), "float32"), t((2, 3), "float32"), "NCHW", "all"],
    ],
    "put_along_axis_grad": lambda f, t: [
        *[t((2, 3), "float32"), t((2, 1), "int64"), t((2, 1), "float32")],
        *[t((2, 3), "float32"), t((2, 3), "float32"), 1, "assign", True],
    ],
    "scatter_grad": lambda f, t: [
        *[t((2,), "int64"), t((2, 3), "float32"), t((4, 3), "float32"), True],
    ],
    "scatter_nd_add": lambda f, t: [
        *[t((2, 3), "float32"), t((2, 1), "int64"), t((2, 3), "float32")],
    ],
    "scatter_nd_add_grad": lambda f, t: [
        *[t((2, 1), "int64"), t((2, 3), "float32"), t((2, 3), "float32")],
    ],
    "set_value": lambda f, t: [t((4, 3), "float32"), [0], [2], [1], [0], [], [], [1], [5.0]],
    "set_value_with_tensor": lambda f, t: [
        *[t((4, 3), "float32"), t((2, 3), "float32"), [0], [2], [1], [0], [], []],
    ],
    "set_value_with_tensor_grad": lambda f, t: [
        *[t((2, 3), "float32"), t((4, 3), "float32"), [0], [2], [1], [0], [], []],
    ],
    "slice_grad": lambda f, t: [
        *[t((4, 3), "float32"), t((2, 3), "float32"), [0], [1], [3], [1], []],
    ],
    "strided_slice_grad": lambda f, t: [
        *[t((4, 6), "float32"), t((4, 3), "float32"), [1], [0], [6], [2]],
    ],
    "take_along_axis_grad": lambda f, t: [
        *[t((4, 3), "float32"), t((2, 3), "int64"), t((2, 3), "float32"), 0],
    ],
    "topk_grad": lambda f, t: [
        *[t((2, 3), "float32"), t((2, 2), "int64"), t((2, 2), "float32"), 2, -1, True, True],
    ],
    "index_select_grad": lambda f, t: [
        t((2, 3), "float32"),
        t((2,), "int64"),
        t((2, 3), "float32"),
        0,
    ],
    # linear algebra: operands of the shapes the ops multiply, grads of their outputs' shapes
    "bmm": lambda f, t: [t((2, 2, 3), "float32"), t((2, 3, 4), "float32")],
    "bmm_grad": lambda f, t: [
        t((2, 2, 3), "float32"),
        t((2, 3, 4), "float32"),
        t((2, 2, 4), "float32"),
    ],
    "mv": lambda f, t: [t((2, 3), "float32"), t((3,), "float32")],
    "mv_grad": lambda f, t: [t((2, 3), "float32"), t((3,), "float32"), t((2,), "float32")],
    "dot_grad": lambda f, t: [t((2, 3), "float32"), t((2, 3), "float32"), t((2,), "float32")],
    "kron_grad": lambda f, t: [t((2, 3), "float32"), t((2, 3), "float32"), t((4, 9), "float32")],
    "cross_grad": lambda f, t: [
        t((2, 3), "float32"),
        t((2, 3), "float32"),
        t((2, 3), "float32"),
        9,
    ],
    "trace_grad": lambda f, t: [t((2, 3), "float32"), t((), "float32"), 0, 0, 1],
    "diagonal_grad": lambda f, t: [t((2, 3), "float32"), t((2,), "float32"), 0, 0, 1],
    "inverse": lambda f, t: [t((2, 3, 3), "float32")],
    "inverse_grad": lambda f, t: [t((2, 3, 3), "float32"), t((2, 3, 3), "float32")],
    # 1 x 1 matrices of values in [0.5, 1.5) are positive definite (3 x 3 ones need not be)
    "cholesky": lambda f, t: [t((2, 1, 1), "float32"), False],
    "cholesky_grad": lambda f, t: [t((2, 3, 3), "float32"), t((2, 3, 3), "float32"), False],
    # linalg2
    "solve": lambda f, t: [t((2, 2, 2), "float32"), t((2, 2, 3), "float32")],
    "solve_grad": lambda f, t: [t((2, 2, 2), "float32"), t((2, 2, 3), "float32"), t((2, 2, 3), "float32"),
                                t((2, 2, 3), "float32")],
    "triangular_solve": lambda f, t: [t((2, 2, 2), "float32"), t((2, 2, 3), "float32"), True, False, False],
    "triangular_solve_grad": lambda f, t: [t((2, 2, 2), "float32"), t((2, 2, 3), "float32"), t((2, 2, 3), "float32"),
                                           t((2, 2, 3), "float32"), True, False, False],
    "cholesky_solve": lambda f, t: [t((2, 2, 3), "float32"), t((2, 2, 2), "float32"), False],
    "cholesky_solve_grad": lambda f, t: [t((2, 2, 3), "float32"), t((2, 2, 2), "float32"), t((2, 2, 3), "float32"),
                                         t((2, 2, 3), "float32"), False],
    "det": lambda f, t: [t((2, 2, 2), "float32")],
    "det_grad": lambda f, t: [t((2, 2, 2), "float32"), t((2,), "float32"), t((2,), "float32")],
    "slogdet": lambda f, t: [t((2, 2, 2), "float32")],
    "slogdet_grad": lambda f, t: [t((2, 2, 2), "float32"), t((2, 2), "float32"), t((2, 2), "float32")],
    "matrix_power": lambda f, t: [t((2, 2, 2), "float32"), 3],
    "multi_dot": lambda f, t: [[t((2, 3), "float32"), t((3, 4), "float32"), t((4,), "float32")]],
    "multi_dot_grad": lambda f, t: [[t((2, 3), "float32"), t((3, 4), "float32")], t((2, 4), "float32")],
    "frobenius_norm": lambda f, t: [t((2, 3), "float32"), [1], False, False],
    "frobenius_norm_grad": lambda f, t: [t((2, 3), "float32"), t((2,), "float32"), t((2,), "float32"), [1], False,
                                         False],
    "addmm": lambda f, t: [t((3,), "float32"), t((2, 4), "float32"), t((4, 3), "float32"), 0.5, 2.0],
    "addmm_grad": lambda f, t: [t((3,), "float32"), t((2, 4), "float32"), t((4, 3), "float32"), t((2, 3), "float32"), 2.0,
                                0.5],
    "qr": lambda f, t: [t((2, 4, 3), "float32"), "reduced"],
    "qr_grad": lambda f, t: [t((4, 3), "float32"), t((4, 3), "float32"), t((3, 3), "float32"), t((4, 3), "float32"),
                             t((3, 3), "float32"), "reduced"],
    "svd": lambda f, t: [t((2, 4, 3), "float32"), False],
    "svd_grad": lambda f, t: [t((4, 3), "float32"), t((4, 3), "float32"), t((3, 3), "float32"), t((3,), "float32"),
                              t((4, 3), "float32"), t((3, 3), "float32"), t((3,), "float32"), False],
    "eigh": lambda f, t: [t((2, 3, 3), "float32"), "L"],
    "eigh_grad": lambda f, t: [t((3,), "float32"), t((3, 3), "float32"), t((3,), "float32"), t((3, 3), "float32")],
    "eigvalsh": lambda f, t: [t((2, 3, 3), "float32"), "L", False],
    "eigvalsh_grad": lambda f, t: [t((2, 3, 3), "float32"), t((2, 3), "float32"), "L", False],
    "matrix_rank": lambda f, t: [t((2, 3, 4), "float32"), 0.0, True, False],
    "matrix_rank_tol": lambda f, t: [t((2, 3, 4), "float32"), t((2,), "float32"), False, False],
    "renorm": lambda f, t: [t((3, 4), "float32"), 2.0, 0, 1.0],
    "renorm_grad": lambda f, t: [t((3, 4), "float32"), t((3, 4), "float32"), 2.0, 0, 1.0],
    "squared_l2_norm": lambda f, t: [t((3, 4), "float32")],
    "squared_l2_norm_grad": lambda f, t: [t((3, 4), "float32"), t((1,), "float32")],
    "l1_norm": lambda f, t: [t((3, 4), "float32")],
    "l1_norm_grad": lambda f, t: [t((3, 4), "float32"), t((), "float32")],
    "eigvals": lambda f, t: [t((2, 3, 3), "float32")],
    "full_batch_size_like": lambda f, t: [t((2, 3), "float32"), [-1, 4], "float32", 1.5, 0, 0],
    "sequence_mask": lambda f, t: [t((2, 3), "int64"), 4, "int64"],
    "full_with_tensor": lambda f, t: [t((1,), "float32"), [2, 3], "float32"],
}


# the fftspecial family
ARGUMENTS.update(
    {
        "fft_c2c": lambda f, t: [t((2, 3), "complex64"), [0, 1], "ortho", True],
        "fft_c2c_grad": lambda f, t: [t((2, 3), "complex64"), [1], "backward", False],
        "fft_r2c": lambda f, t: [t((2, 5), "float32"), [1], "forward", True, True],
        "fft_r2c_grad": lambda f, t: [
            t((2, 5), "float32"), t((2, 3), "complex64"), [1], "forward", True, True
        ],
        "fft_c2r": lambda f, t: [t((2, 3), "complex64"), [1], "backward", False, 5],
        "fft_c2r_grad": lambda f, t: [t((2, 5), "float32"), [1], "backward", False, 5],
        "frame": lambda f, t: [t((2, 7), "float32"), 3, 2, -1],
        "frame_grad": lambda f, t: [t((7, 2), "float32"), t((3, 3, 2), "float32"), 3, 2, 0],
        "overlap_add": lambda f, t: [t((2, 3, 4), "float32"), 2, -1],
        "overlap_add_grad": lambda f, t: [t((4, 3, 2), "float32"), t((9, 2), "float32"), 2, 0],
        "stft": lambda f, t: [t((2, 9), "float32"), t((4,), "float32"), 4, 2, True, True],
        "maxout": lambda f, t: [t((1, 4, 2, 2), "float32"), 2, 1],
        # num of shape [1, 1]: _array's values there are 1 (a [1] int tensor would hold 0)
        "logspace": lambda f, t: [
            t((1,), "float32"), t((1,), "float32"), t((1, 1), "int32"), t((1,), "float32"), "float32"
        ],
        "maxout_grad": lambda f, t: [
            t((1, 4, 2, 2), "float32"), t((1, 2, 2, 2), "float32"), t((1, 2, 2, 2), "float32"), 2, 1
        ],
        "stft_grad": lambda f, t: [
            t((2, 9), "float32"), t((4,), "float32"), t((2, 3, 3), "complex64"), 4, 2, False, True
        ],
    }
)

# rnn: a one-layer RNN_TANH, hidden size 2, over [4, 2, 3] (time-major)
_RNN_ATTRS = [0.0, False, 3, 2, 1, "RNN_TANH", 0, False]


def _rnn_weights(t: Tensor) -> list[Any]:
    return [t((2, 3), "float32"), t((2, 2), "float32"), t((2,), "float32"), t((2,), "float32")]


ARGUMENTS["rnn"] = lambda f, t: [
    t((4, 2, 3), "float32"), [t((1, 2, 2), "float32")], _rnn_weights(t), None,
    t((0,), "uint8"), *_RNN_ATTRS,
]
ARGUMENTS["rnn_grad"] = lambda f, t: [
    t((4, 2, 3), "float32"), [t((1, 2, 2), "float32")], _rnn_weights(t), None,
    t((4, 2, 2), "float32"), t((4, 2, 2), "uint8"), t((1, 16), "float32"),
    t((4, 2, 2), "float32"), [t((1, 2, 2), "float32")], *_RNN_ATTRS,
]

# the losscum ops of issue 24: probabilities in [0.25, 0.75), one-column losses, class labels
ARGUMENTS.update(
    {
        "bce_loss": lambda f, t: [t((2, 3), "float32") * 0.5, t((2, 3), "float32") * 0.5],
        "hinge_loss": lambda f, t: [t((2, 1), "float32"), t((2, 1), "float32")],
        "log_loss": lambda f, t: [t((2, 1), "float32") * 0.5, t((2, 1), "float32") * 0.5, 1e-4],
        "nll_loss": lambda f, t: [t((2, 3), "float32"), t((2,), "int64"), None, -100, "mean"],
        "nll_loss_grad": lambda f, t: [
            t((2, 3), "float32"), t((2,), "int64"), None, t((), "float32"), t((), "float32"),
            -100, "mean",
        ],
        "kldiv_loss_grad": lambda f, t: [
            t((2, 3), "float32"), t((2, 3), "float32"), t((2, 3), "float32"), "none", False
        ],
    }
)  # fmt: skip

# the misc24c ops of issue 24: ids in [0, 4), a [64, 16] float16 weight for weight_quantize, one
# element learning rate, step and nranks (> 1) for dgc_momentum with a rampup of 3
ARGUMENTS.update(
    {
        "embedding_grad_dense": lambda f, t: [
            t((2, 3), "int64"), t((4, 5), "float32"), t((2, 3, 5), "float32"), 1,
        ],
        "weight_quantize": lambda f, t: [t((64, 16), "float16"), "weight_only_int4", 80, 64],
        "dgc_momentum": lambda f, t: [
            t((2, 3), "float32"), t((2, 3), "float32"), t((2, 3), "float32"), t((1,), "float32"),
            None, t((1,), "float32"), t((1,), "float32") + 2, 0.9, True, "l2_decay", 0.1, False,
            1.0, 3.0,
        ],
    }
)  # fmt: skip


# the corr24 op of issue 24: 4-D NCHW inputs of one shape, pad 1, a 3-wide window, displacement 1
ARGUMENTS.update(
    {
        "correlation": lambda f, t: [t((1, 2, 4, 5), "float32"), t((1, 2, 4, 5), "float32"),
                                     1, 3, 1, 1, 1, 1],
        "correlation_grad": lambda f, t: [
            t((1, 2, 4, 5), "float32"), t((1, 2, 4, 5), "float32"), t((1, 9, 2, 3), "float32"),
            1, 3, 1, 1, 1, 1,
        ],
    }
)  # fmt: skip


# deform24 (issue 24): deformable_conv, x [1, 2, 4, 4], a 2x2 kernel, out [1, 2, 3, 3]
ARGUMENTS.update(
    {
        "deformable_conv": lambda f, t: [
            t((1, 2, 4, 4), "float32"), t((1, 8, 3, 3), "float32") * 0.5,
            t((2, 2, 2, 2), "float32"), t((1, 4, 3, 3), "float32"),
            [1, 1], [0, 0], [1, 1], 1, 1, 1,
        ],
        "deformable_conv_grad": lambda f, t: [
            t((1, 2, 4, 4), "float32"), t((1, 8, 3, 3), "float32") * 0.5,
            t((2, 2, 2, 2), "float32"), t((1, 4, 3, 3), "float32"), t((1, 2, 3, 3), "float32"),
            [1, 1], [0, 0], [1, 1], 1, 1, 1,
        ],
    }
)  # fmt: skip


# the rnnt24 op of issue 24: warprnnt's int32 labels (0 or 1) and lengths (0 or 1; the input
# lengths 1 or 2, as they must be at least 1)
ARGUMENTS.update(
    {
        "warprnnt": lambda f, t: [
            t((2, 3, 3, 4), "float32"), t((2, 2), "int32"), t((2,), "int32") + 1,
            t((2,), "int32"), 0, 0.001,
        ],
        "warprnnt_grad": lambda f, t: [
            t((2, 3, 3, 4), "float32"), t((2,), "int32") + 1, t((2, 3, 3, 4), "float32"),
            t((2,), "float32"), 0, 0.001,
        ],
    }
)  # fmt: skip



# the nan24 ops of issue 24: coalesce_tensor's buffer dtype, inputs copied, a 64-byte alignment
ARGUMENTS.update(
    {
        "coalesce_tensor": lambda f, t: [
            [t((2, 3), "float32"), t((5,), "float32")], "float32", True, False, False, 0.0,
            True, 64, -1, [], [],
        ],
    }
)  # fmt: skip

# the dgrad24 double grads (issue 24)
ARGUMENTS.update(
    {
        "pad_double_grad": lambda f, t: [t((2, 3), "float32"), [1, 0, 0, 2], 0.0],
        "pad3d_double_grad": lambda f, t: [
            t((1, 2, 3, 3, 3), "float32"), [1, 1, 1, 1, 1, 1], "constant", 0.0, "NCDHW"
        ],
        "pool2d_double_grad": lambda f, t: [
            *[t((2, 3, 6, 6), "float32"), t((2, 3, 6, 6), "float32")],
            *[[2, 2], [2, 2], [0, 0], False, True, "NCHW", "avg", False, False, "EXPLICIT"],
        ],
        "conv2d_grad_grad": lambda f, t: [
            *[t((2, 3, 8, 8), "float32"), t((4, 3, 3, 3), "float32"), t((2, 4, 6, 6), "float32")],
            *[t((2, 3, 8, 8), "float32"), t((4, 3, 3, 3), "float32")],
            *[[1, 1], [0, 0], "EXPLICIT", [1, 1], 1, "NCHW"],
        ],
        "conv3d_double_grad": lambda f, t: [
            *[t((2, 3, 4, 4, 4), "float32"), t((2, 3, 2, 2, 2), "float32")],
            *[t((2, 2, 3, 3, 3), "float32"), t((2, 3, 4, 4, 4), "float32")],
            *[t((2, 3, 2, 2, 2), "float32"), [1, 1, 1], [0, 0, 0], "EXPLICIT", 1, [1, 1, 1]],
            "NCDHW",
        ],
        "batch_norm_double_grad": lambda f, t: [
            *[t((2, 3, 4, 4), "float32"), *[t((3,), "float32") for _ in range(5)]],
            *[t((2, 3, 4, 4), "float32"), t((2, 3, 4, 4), "float32")],
            *[t((3,), "float32"), t((3,), "float32"), 0.9, 1e-5, "NCHW", False, False, False],
        ],
        "instance_norm_double_grad": lambda f, t: [
            *[t((2, 3, 4), "float32"), t((3,), "float32"), t((6,), "float32"), t((6,), "float32")],
            *[t((2, 3, 4), "float32"), t((2, 3, 4), "float32"), t((3,), "float32")],
            t((3,), "float32"),
            1e-5,
        ],
    }
)  # fmt: skip

# the loss24b ops of issue 24
ARGUMENTS.update(
    {
        "hsigmoid_loss": lambda f, t: [
            t((2, 3), "float32"), t((2,), "int64"), t((3, 3), "float32"), t((3, 1), "float32"),
            None, None, 4, False
        ],
        "hsigmoid_loss_grad": lambda f, t: [
            t((2, 3), "float32"), t((3, 3), "float32"), t((2,), "int64"), None, None,
            t((3, 1), "float32"), t((2, 2), "float32"), t((2, 1), "float32"), 4, False
        ],
        "class_center_sample": lambda f, t: [t((4,), "int64"), 10, 5, 0, 0, 1, True, 7],
    }
)  # fmt: skip

# the sample24 ops of issue 24: _array's (3,) int64 colptr is [0, 1, 1] (node 0 -> row[0], node
# 1 without neighbours), its (2,) node ids [0, 1]; sample sizes that take every neighbour
ARGUMENTS.update(
    {
        "graph_sample_neighbors": lambda f, t: [
            t((1,), "int64"), t((3,), "int64"), t((2,), "int64"), t((1,), "int64"), None, 2, True,
            False,
        ],
        "weighted_sample_neighbors": lambda f, t: [
            t((1,), "int64"), t((3,), "int64"), t((1,), "float32"), t((2,), "int64"),
            t((1,), "int64"), 2, True,
        ],
        "graph_khop_sampler": lambda f, t: [
            t((1,), "int64"), t((3,), "int64"), t((2,), "int64"), t((1,), "int64"), [2], True
        ],
        "tdm_child": lambda f, t: [t((2,), "int64"), t((2, 5), "int32"), 2, "int64"],
        "tdm_sampler": lambda f, t: [
            t((2,), "int64") * 0, t((1, 1), "int64") * 0 + 1, t((2,), "int64") * 0 + 1, True, [0],
            [0, 2], 0, 2,
        ],
    }
)  # fmt: skip

# the misc24 ops of issue 24
ARGUMENTS.update(
    {
        "spectral_norm": lambda f, t: [
            t((2, 3, 2), "float32"), t((3,), "float32"), t((4,), "float32"), 1, 2, 1e-12,
        ],
        "spectral_norm_grad": lambda f, t: [
            t((3, 4), "float32"), t((3,), "float32"), t((4,), "float32"), t((3, 4), "float32"),
            0, 1, 1e-12,
        ],
        "distribute_fpn_proposals": lambda f, t: [
            t((3, 4), "float32") * 300, t((1,), "int32") * 0 + 3, 2, 4, 3, 112, False,
        ],
        "fused_softmax_mask_upper_triangle": lambda f, t: [t((1, 2, 3, 3), "float32")],
        "fused_softmax_mask_upper_triangle_grad": lambda f, t: [
            t((1, 2, 3, 3), "float32"), t((1, 2, 3, 3), "float32"),
        ],
    }
)  # fmt: skip

# the pool24 ops of issue 24: 4-D/5-D inputs, a given u, masks of valid (zero) indices
ARGUMENTS.update(
    {
        "lp_pool2d": lambda f, t: [
            t((2, 3, 6, 6), "float32"), [2, 2], [2, 2], [0, 0], False, True, "NCHW", "lp",
            False, False, "EXPLICIT", 2.0,
        ],
        "lp_pool2d_grad": lambda f, t: [
            t((2, 3, 6, 6), "float32"), t((2, 3, 3, 3), "float32"), t((2, 3, 3, 3), "float32"),
            [2, 2], [2, 2], [0, 0], False, True, "NCHW", "lp", False, False, "EXPLICIT", 2.0,
        ],
        "fractional_max_pool2d": lambda f, t: [t((2, 3, 7, 8), "float32"), [3, 4], [0, 0], 0.5, True],
        "fractional_max_pool2d_grad": lambda f, t: [
            t((2, 3, 7, 8), "float32"), t((2, 3, 3, 4), "int32") * 0, t((2, 3, 3, 4), "float32"),
            [3, 4], [0, 0], 0.5, True,
        ],
        "fractional_max_pool3d": lambda f, t: [
            t((1, 2, 5, 6, 7), "float32"), [2, 3, 4], [2, 2, 2], 0.5, True
        ],
        "fractional_max_pool3d_grad": lambda f, t: [
            t((1, 2, 5, 6, 7), "float32"), t((1, 2, 2, 3, 4), "int32") * 0,
            t((1, 2, 2, 3, 4), "float32"), [2, 3, 4], [2, 2, 2], 0.5, True,
        ],
    }
)  # fmt: skip

# the basic24 ops of issue 24: increment takes a one-element x
ARGUMENTS.update(
    {
        "increment": lambda f, t: [t((1,), "float32"), 2.0],
        "increment_": lambda f, t: [t((1,), "float32") * 1, 2.0],
    }
)  # fmt: skip
ARGUMENTS.update(
    {
        "crop": lambda f, t: [t((3, 4), "float32"), [2, -1], [1, 1]],
        "crop_grad": lambda f, t: [t((3, 4), "float32"), t((2, 3), "float32"), [1, 1]],
        "shard_index": lambda f, t: [t((4, 1), "int64"), 20, 2, 0, -1],
        "shuffle_channel": lambda f, t: [t((2, 6, 1, 2), "float32"), 3],
        "shuffle_channel_grad": lambda f, t: [t((2, 6, 1, 2), "float32"), 3],
        "temporal_shift": lambda f, t: [t((4, 4, 1, 2), "float32"), 2, 0.25, "NCHW"],
        "temporal_shift_grad": lambda f, t: [t((4, 4, 1, 2), "float32"), 2, 0.25, "NCHW"],
    }
)  # fmt: skip
ARGUMENTS.update(
    {
        "partial_concat": lambda f, t: [[t((2, 4), "float32"), t((2, 4), "float32") * 2], 1, 2],
        "partial_sum": lambda f, t: [[t((2, 4), "float32"), t((2, 4), "float32") * 2], 1, 2],
        "partial_concat_grad": lambda f, t: [[t((2, 4), "float32"), t((2, 4), "float32")], t((2, 4), "float32"), 1, 2],
        "partial_sum_grad": lambda f, t: [[t((2, 4), "float32"), t((2, 4), "float32")], t((2, 2), "float32"), 1, 2],
    }
)  # fmt: skip

# the legacy24 ops of issue 24
ARGUMENTS.update(
    {
        "gru_unit": lambda f, t: [
            t((3, 6), "float32"), t((3, 2), "float32"), t((2, 6), "float32"), t((1, 6), "float32"),
            2, 1, False
        ],
        "gru_unit_grad": lambda f, t: [
            t((3, 6), "float32"), t((3, 2), "float32"), t((2, 6), "float32"), t((1, 6), "float32"),
            t((3, 6), "float32"), t((3, 2), "float32"), t((3, 2), "float32"), 2, 1, False
        ],
        "im2sequence": lambda f, t: [t((2, 2, 4, 3), "float32"), None, [2, 2], [1, 1], [1, 0, 0, 1], [1, 1]],
        "im2sequence_grad": lambda f, t: [
            t((2, 2, 4, 3), "float32"), None, t((24, 8), "float32"), [2, 2], [1, 1], [1, 0, 0, 1], [1, 1]
        ],
        "yolo_loss": lambda f, t: [
            t((1, 14, 2, 2), "float32"), t((1, 1, 4), "float32") * 0.5, t((1, 1), "int32"), None,
            [10, 13, 16, 30], [0, 1], 2, 0.7, 32, True, 1.0
        ],
        "yolo_loss_grad": lambda f, t: [
            t((1, 14, 2, 2), "float32"), t((1, 1, 4), "float32") * 0.5, t((1, 1), "int32"), None,
            t((1, 2, 2, 2), "float32"), t((1, 1), "int32"), t((1,), "float32"),
            [10, 13, 16, 30], [0, 1], 2, 0.7, 32, True, 1.0
        ],
    }
)  # fmt: skip

# the manip24 ops of issue 24: index int64 (0 or 1) valid along axis 0, [rows, 1] int32 ids
ARGUMENTS.update(
    {
        "unique_consecutive": lambda f, t: [t((2, 3), "float32"), True, True, [], "int64"],
        "index_add": lambda f, t: [
            t((2, 3), "float32"), t((2,), "int64"), t((2, 3), "float32"), 0
        ],
        "index_add_": lambda f, t: [
            t((2, 3), "float32") * 2, t((2,), "int64"), t((2, 3), "float32"), 0
        ],
        "index_add_grad": lambda f, t: [
            t((2,), "int64"), t((2, 3), "float32"), t((2, 3), "float32"), 0
        ],
        "expand_as": lambda f, t: [t((3, 1), "float32"), t((2, 3, 4), "float32"), []],
        "multiplex": lambda f, t: [
            [t((2, 3), "float32"), t((2, 3), "float32") * 2], t((2, 1), "int32")
        ],
        "multiplex_grad": lambda f, t: [
            [t((2, 3), "float32"), t((2, 3), "float32")], t((2, 1), "int32"), t((2, 3), "float32")
        ],
        "broadcast_tensors": lambda f, t: [[t((2, 1), "float32"), t((3,), "float32")]],
        "broadcast_tensors_grad": lambda f, t: [
            [t((2, 1), "float32"), t((3,), "float32")], [t((2, 3), "float32")] * 2
        ],
        "tril_indices": lambda f, t: [4, 3, 0, "int64"],
        "triu_indices": lambda f, t: [4, 3, 1, "int32"],
        "fill_diagonal_tensor": lambda f, t: [t((2, 3), "float32"), t((2,), "float32"), 0, 0, 1],
        "fill_diagonal_tensor_grad": lambda f, t: [t((2, 3), "float32"), -1, 0, 1],
        "bitwise_left_shift": lambda f, t: [t((2, 3), "int32"), t((3,), "int32"), True],
        "bitwise_left_shift_": lambda f, t: [t((2, 3), "int32") + 1, t((3,), "int32"), True],
        "bitwise_right_shift": lambda f, t: [t((2, 3), "int64"), t((2, 3), "int64"), False],
        "bitwise_right_shift_": lambda f, t: [t((2, 3), "int64") + 1, t((1,), "int64"), True],
        "fill_diagonal_tensor_": lambda f, t: [
            t((2, 3), "float32") * 2, t((2,), "float32"), 1, 0, 1
        ],
    }
)  # fmt: skip

# the view24 strided views of issue 24: views that fit a [2, 3] input, out_grads of the views' dims
ARGUMENTS.update(
    {
        "as_strided_grad": lambda f, t: [t((2, 3), "float32"), t((3, 2), "float32"), [3, 2], [1, 2], 0],
        "index_select_strided_grad": lambda f, t: [t((2, 3), "float32"), t((3,), "float32"), 1, 0],
        "tensor_unfold": lambda f, t: [t((2, 3), "float32"), 1, 2, 1],
        "view_dtype": lambda f, t: [t((2, 3), "float32"), "int32"],
        "view_dtype_grad": lambda f, t: [t((2, 3), "float32"), t((2, 3), "int32"), "int32"],
        "view_shape": lambda f, t: [t((2, 3), "float32"), [3, 2]],
        "einsum": lambda f, t: [[t((2, 3), "float32"), t((3, 4), "float32")], "ij,jk->ik"],
        "einsum_grad": lambda f, t: [
            [t((2, 3), "float32"), t((3, 4), "float32")],
            [t((2, 3), "float32"), t((3, 4), "float32")],
            t((2, 4), "float32"),
            "ij,jk->ik",
        ],
    }
)  # fmt: skip

# the cumulative losscum ops of issue 24: indices (0 or 1) valid along the last axis
ARGUMENTS.update(
    {
        name: lambda f, t: [
            t((2, 3), "float32"), t((2, 3), "int64"), t((2, 3), "float32"), -1, phi.int64
        ]
        for name in ("cummax_grad", "cummin_grad")
    }
)  # fmt: skip

# the nnmisc ops: warpctc's padded labels (int32) and lengths (int64, 0 or 1 here)
ARGUMENTS.update(
    {
        "warpctc": lambda f, t: [
            t((4, 2, 3), "float32"), t((2, 2), "int32"), t((2,), "int64"), t((2,), "int64"),
            0, False,
        ],
        "warpctc_grad": lambda f, t: [
            t((4, 2, 3), "float32"), t((2,), "int64"), t((4, 2, 3), "float32"),
            t((2, 1), "float32"), 0, False,
        ],
    }
)  # fmt: skip


# the search24 ops of issue 24: indices (0 or 1) valid along the last axis, a 1-D bincount x
ARGUMENTS.update(
    {
        "kthvalue_grad": lambda f, t: [
            t((2, 3), "float32"), t((2,), "int64"), t((2,), "float32"), 1, -1, False
        ],
        "mode_grad": lambda f, t: [
            t((2, 3), "float32"), t((2,), "int64"), t((2,), "float32"), -1, False
        ],
        "nanmedian_grad": lambda f, t: [
            t((2, 3), "float32"), t((2,), "float32"), t((2, 2), "int64"), t((2,), "float32"),
            [1], False, "avg"
        ],
        "bincount": lambda f, t: [t((5,), "int64"), None, 0],
        "index_sample": lambda f, t: [t((2, 3), "float32"), t((2, 2), "int64")],
        "index_sample_grad": lambda f, t: [
            t((2, 3), "float32"), t((2, 2), "int64"), t((2, 2), "float32")
        ],
        "repeat_interleave_with_tensor_index": lambda f, t: [
            t((2, 3), "float32"), t((3,), "int64"), 1, -1
        ],
        "repeat_interleave_with_tensor_index_grad": lambda f, t: [
            t((2, 3), "float32"), t((3,), "int64"),
            t((2, int(_array((3,), "int64").sum())), "float32"), 1, -1
        ],
        "repeat_interleave": lambda f, t: [t((2, 3), "float32"), 2, 1, -1],
        "repeat_interleave_grad": lambda f, t: [
            t((2, 3), "float32"), t((2, 6), "float32"), 2, 1, -1
        ],
        "unstack": lambda f, t: [t((2, 3), "float32"), 1, 3],
        "reverse": lambda f, t: [t((2, 3), "float32"), [0, 1]],
        "reverse_grad": lambda f, t: [t((2, 3), "float32"), [0, 1]],
        "amax_grad": lambda f, t: [
            t((2, 3), "float32"), t((2,), "float32"), t((2,), "float32"), [1], False, False
        ],
        "amin_grad": lambda f, t: [
            t((2, 3), "float32"), t((2,), "float32"), t((2,), "float32"), [1], False, False
        ],
    }
)  # fmt: skip



def _sent_then_received(f: Callable[..., Any], t: Any) -> list[Any]:
    """p_recv's arguments, after a p_send to this rank (the ring of one process keeps it)."""
    _API["p_send"](t((2, 3), "float32"), 0, 0, True)
    return [0, 0, "float32", True]


# the dist30 family (issue 30): c_embedding's ids; p_recv receives what p_send sent
ARGUMENTS.update(
    {
        "c_embedding": lambda f, t: [t((4, 5), "float32"), t((2, 3), "int64"), 0, -1],
        "c_embedding_grad": lambda f, t: [
            t((4, 5), "float32"), t((2, 3), "int64"), t((2, 3, 5), "float32"), 0
        ],
        "p_recv": _sent_then_received,
    }
)  # fmt: skip

# the quant24 ops of issue 24: one-element scales, states and learning rates, an int64 step,
# int8 codes with a float32 table of 128, ids with a last dimension of 1
ARGUMENTS.update(
    {
        "fake_dequantize_max_abs": lambda f, t: [t((2, 3), "float32"), t((1,), "float32"), 127.0],
        "fake_channel_wise_dequantize_max_abs": lambda f, t: [
            t((2, 3), "float32"), [t((2,), "float32")], [8], 0, 1
        ],
        "fake_quantize_range_abs_max": lambda f, t: [
            t((2, 3), "float32"), t((1,), "float32"), t((1,), "int64"), 10, 8, False, 1
        ],
        "fake_quantize_moving_average_abs_max": lambda f, t: [
            t((2, 3), "float32"), t((1,), "float32"), t((1,), "float32"), t((1,), "float32"),
            0.9, 8, False, 1
        ],
        "fake_quantize_dequantize_moving_average_abs_max": lambda f, t: [
            t((2, 3), "float32"), t((1,), "float32"), t((1,), "float32"), t((1,), "float32"),
            0.9, 8, False, 1
        ],
        "dequantize_abs_max": lambda f, t: [t((2, 3), "int8"), t((1,), "float32"), 127.0],
        "dequantize_log": lambda f, t: [t((2, 3), "int8"), t((128,), "float32")],
        "lookup_table_dequant": lambda f, t: [t((5, 4), "float32"), t((2, 1), "int64"), -1],
        "decayed_adagrad": lambda f, t: [
            t((2, 3), "float32"), t((2, 3), "float32"), t((2, 3), "float32"), t((1,), "float32"),
            0.95, 1e-6
        ],
        "fused_adam_": lambda f, t: [
            [p] for p in _distinct(t, 2)
        ] + [t((1,), "float32")] + [[p] for p in _distinct(t, 2, 0.5)] + [
            None, [t((1,), "float32") * 0.5], [t((1,), "float32") * 0.5], None, None,
            0.9, 0.999, 1e-8, 4096, 0.01, True, False, False, False
        ],
        "ftrl": lambda f, t: [
            t((2, 3), "float32"), t((2, 3), "float32"), t((2, 3), "float32"), t((2, 3), "float32"),
            t((1,), "float32"), 0.1, 0.1, -0.5
        ],
    }
)  # fmt: skip

# the detect24 ops of issue 24: boxes of 4 coordinates, one image per row of im_info, an RPN
# head of 3 anchors at 2 x 2 positions
ARGUMENTS.update(
    {
        "box_clip": lambda f, t: [t((4, 4), "float32") * 20, t((2, 3), "float32") * 10],
        "matrix_nms": lambda f, t: [
            t((2, 5, 4), "float32"), t((2, 3, 5), "float32") - 0.5, 0.1, -1, -1,
        ],
        "generate_proposals": lambda f, t: [
            t((1, 3, 2, 2), "float32"), t((1, 12, 2, 2), "float32") - 1,
            t((1, 2), "float32") * 20,
            t((2, 2, 3, 4), "float32") * 5, t((2, 2, 3, 4), "float32") * 0.1, 6, 4, 0.5, 0.1,
            1.0, True,
        ],
        "collect_fpn_proposals": lambda f, t: [
            [t((3, 4), "float32"), t((2, 4), "float32")],
            [t((3, 1), "float32"), t((2, 1), "float32")], None, 4,
        ],
        "affine_channel": lambda f, t: [
            t((2, 3, 4), "float32"), t((4,), "float32"), t((4,), "float32"),
        ],
        "affine_channel_grad": lambda f, t: [
            t((2, 3, 4), "float32"), t((4,), "float32"), t((4,), "float32"),
            t((2, 3, 4), "float32"),
        ],
        "psroi_pool": lambda f, t: [
            t((1, 8, 5, 6), "float32"), t((3, 4), "float32") * 3, t((1,), "int32") * 0 + 3,
            2, 2, 2, 1.0,
        ],
        "psroi_pool_grad": lambda f, t: [
            t((1, 8, 5, 6), "float32"), t((3, 4), "float32") * 3, t((1,), "int32") * 0 + 3,
            t((3, 2, 2, 2), "float32"), 2, 2, 2, 1.0,
        ],
    }
)  # fmt: skip


# the quant24b ops of issue 24: distinct sums for the in-place average_accumulates_ and its
# int64 counters; dpsgd with a fixed seed (0 would seed it with the time)
ARGUMENTS.update(
    {
        "average_accumulates_": lambda f, t: _distinct(t, 4) + [
            t((1,), "int64"), t((1,), "int64") * 2, t((1,), "int64") * 3, 0.0, 100, 1
        ],
        "dpsgd": lambda f, t: [
            t((2, 3), "float32"), t((2, 3), "float32"), t((1,), "float32"), 1.0, 4.0, 1.0, 3
        ],
        "dgc_clip_by_norm": lambda f, t: [t((2, 3), "float32"), t((1,), "float32"), 0.5, 0.0],
    }
)  # fmt: skip


# the train24 ops of issue 24: distinct gradients for the in-place AMP ops, a norm of x's dims
# but 1 along axis for norm_grad, int64 top-k indices and labels for accuracy
ARGUMENTS.update(
    {
        "check_finite_and_unscale_": lambda f, t: [_distinct(t, 2), t((1,), "float32") * 4],
        "update_loss_scaling_": lambda f, t: [
            _distinct(t, 2), t((1,), "bool"), t((1,), "float32") * 4, t((1,), "int32"),
            t((1,), "int32"), 2, 1, 2.0, 0.5, False,
        ],
        "clip_by_norm": lambda f, t: [t((2, 3), "float32"), 0.5],
        "norm": lambda f, t: [t((2, 3), "float32"), 1, 1e-10, False],
        "norm_grad": lambda f, t: [
            t((2, 3), "float32"), t((2, 1), "float32"), t((2, 3), "float32"), 1, 1e-10, False,
        ],
        "accuracy": lambda f, t: [t((3, 2), "float32"), t((3, 2), "int64"), t((3, 1), "int64")],
        "accuracy_check": lambda f, t: [t((2, 3), "float32"), t((2, 3), "float32"), "matmul"],
        "auc": lambda f, t: [
            t((3, 2), "float32") * 0.5, t((3, 1), "int64"), t((11,), "int64"), t((11,), "int64"),
            None, "ROC", 4, 1,
        ],
    }
)  # fmt: skip


def _array(shape: tuple[int, ...], dtype: str) -> np.ndarray:
    """The values of every input of these shape and dtype: integers and bools are 0 or 1 (valid
    indices, masks), floats in [0.5, 1.5)."""
    rng = np.random.default_rng(len(shape))
    if np.dtype(dtype).kind in "iub":
        return rng.integers(0, 2, size=shape).astype(dtype)
    return rng.uniform(0.5, 1.5, size=shape).astype(dtype)


def _adam_tensors(t: Tensor) -> list[Any]:
    """param, grad, learning_rate, moment1, moment2, moment2_max (None: no amsgrad), beta1_pow,
    beta2_pow (in (0.25, 0.75), so that Adam's sqrt(1 - beta2_pow) is real)."""
    return (
        [t((2, 3), "float32")] * 2
        + [t((1,), "float32")]
        + [t((2, 3), "float32")] * 2
        + [None]
        + [t((1,), "float32") * 0.5] * 2
    )


def _distinct(t: Tensor, count: int, scale: float = 1.0) -> list[Any]:
    """``count`` distinct (2, 3) float32 tensors (an in-place op's inputs must not alias)."""
    return [t((2, 3), "float32") * (scale * (1 + index / 4)) for index in range(count)]


def _momentum_tensors(t: Tensor) -> list[Any]:
    """param, grad, velocity, learning_rate."""
    return [t((2, 3), "float32")] * 3 + [t((1,), "float32")]


def _eager_tensor(shape: tuple[int, ...], dtype: str) -> phi.Tensor:
    return phi.to_tensor(_array(shape, dtype))


def _arguments(op: str) -> Callable[[Callable[..., Any], Tensor], list[Any]]:
    return ARGUMENTS.get(op) or CANNOT_BUILD.get(op) or _defaults


def _flat(out: Any) -> list[Any]:
    if isinstance(out, (list, tuple)):
        return [item for part in out for item in _flat(part)]
    return [out]


def _eager_metas(op: str) -> list[Any]:
    function = _API[op]
    outputs = function(*_arguments(op)(function, _eager_tensor))
    return [None if t is None else (list(t.shape), t.dtype) for t in _flat(outputs)]


def _build(op: str) -> tuple[phi.static.Program, list[Any]]:
    main, outputs, _ = _build_with_feeds(op)
    return main, [None if v is None else (v.shape, v.dtype) for v in outputs]


def _build_with_feeds(op: str) -> tuple[phi.static.Program, list[Any], dict[str, np.ndarray]]:
    """The program, its flat outputs, and feeds equal to the inputs ``_eager_metas`` uses."""
    function = _API[op]
    feeds: dict[str, np.ndarray] = {}

    def value(shape: tuple[int, ...], dtype: str) -> phi.static.Value:
        name = f"input_{len(feeds)}"
        feeds[name] = _eager_tensor(shape, dtype).numpy()
        return phi.static.data(name, list(shape), dtype)

    main = phi.static.Program()
    with phi.static.program_guard(main, phi.static.Program()):
        outputs = function(*_arguments(op)(function, value))
    return main, _flat(outputs), feeds


def _eager_values(op: str) -> list[Any]:
    function = _API[op]
    outputs = function(*_arguments(op)(function, _eager_tensor))
    return [None if t is None else t.numpy() for t in _flat(outputs)]


_API = {op.name: op.api for op in op_defs() if op.api is not None}

# PaddlePaddle 3.3.1's pd_op of the same name computes another function; building raises.
CANNOT_BUILD = {
    # pd_op.set_value_grad(out_grad) only copies out_grad (inconsistent_static_backward.yaml);
    # phiops' is the dygraph one that zeroes the set region; static programs use
    # set_value_with_tensor_grad
    "set_value_grad": lambda f, t: [t((4, 3), "float32"), [0], [2], [1], [0], [], []],
}

# Ops whose kernels take another kind than DenseTensor only: a program's data are dense Values,
# on which building them is an InvalidArgumentError; tests/kinds/test_selected_rows_static.py
# builds them on SelectedRows Values (docs/tensor_kinds.md)
BUILT_ON_OTHER_KINDS = frozenset({"merge_selected_rows", "get_tensor_from_selected_rows"})


def _eager_works(op: str) -> bool:
    try:
        _eager_metas(op)
    except Exception:
        return False
    return True


def test_every_op_has_arguments_valid_eagerly():
    phi.disable_static()
    failing = sorted(op for op in _API if not _eager_works(op))
    assert failing == [], "give these ops an ARGUMENTS entry"


@pytest.mark.parametrize("op", sorted(CANNOT_BUILD))
def test_building_an_op_paddle_defines_differently_is_an_error(op):
    function = _API[op]
    phi.enable_static()
    try:
        with phi.static.program_guard(phi.static.Program(), phi.static.Program()):
            inputs = CANNOT_BUILD[op](
                function, lambda shape, dtype: phi.static.data(f"x{shape}", list(shape), dtype)
            )
            with pytest.raises(UnimplementedError, match=f"pd_op.{op} has no attr"):
                function(*inputs)
    finally:
        phi.disable_static()


# (op, result index): results a program types although the eager op leaves them absent, as
# PaddlePaddle's programs do: batch_norm's reserve_space, [-1] uint8 (cuDNN's; absent on CPU)
TYPED_ONLY_IN_PROGRAMS = {("batch_norm", 5): ((-1,), "uint8"), ("batch_norm_", 5): ((-1,), "uint8")}

# ops whose result's rank too is known only when the program runs: a program types it [-1]
# (p_recv: the shape comes from the sender)
RANK_UNKNOWN_IN_PROGRAMS = frozenset({"p_recv"})


@pytest.mark.parametrize("op", sorted(set(_API) - set(CANNOT_BUILD) - BUILT_ON_OTHER_KINDS))
def test_static_result_types_are_the_eager_output_metas(op):
    phi.disable_static()
    eager = _eager_metas(op)
    phi.enable_static()
    main, built = _build(op)
    assert len(built) == len(eager)
    for index, (got, want) in enumerate(zip(built, eager)):
        if want is None:
            typed = TYPED_ONLY_IN_PROGRAMS.get((op, index))
            if typed is None:
                assert got is None
            else:
                dims, dtype = got
                assert (tuple(dims), str(dtype).lower().removeprefix("phi.")) == typed
            continue
        (dims, dtype), (eager_dims, eager_dtype) = got, want
        assert dtype == eager_dtype
        if op in RANK_UNKNOWN_IN_PROGRAMS:
            assert tuple(dims) == (-1,)
            continue
        assert len(dims) == len(eager_dims)
        assert all(d == e or d == -1 for d, e in zip(dims, eager_dims)), (dims, eager_dims)
    phi.ir.verify(main)
    assert str(phi.ir.parse_program(str(main))) == str(main)


# Their values are random draws; shapes and dtypes are compared.
RANDOM = frozenset("bernoulli dropout gaussian randint randperm uniform".split())


@pytest.mark.parametrize("op", sorted(set(_API) - set(CANNOT_BUILD) - BUILT_ON_OTHER_KINDS))
def test_running_the_built_program_gives_the_eager_values(op):
    from phiops.runtime.static import Executor, Scope

    phi.disable_static()
    eager = _eager_values(op)
    phi.enable_static()
    try:
        main, outputs, feeds = _build_with_feeds(op)
    finally:
        phi.disable_static()
    fetched = [
        v
        for index, v in enumerate(outputs)
        if v is not None and (op, index) not in TYPED_ONLY_IN_PROGRAMS
    ]
    results = Executor().run(main, feed=feeds, fetch_list=fetched, scope=Scope())
    want = [array for array in eager if array is not None]
    assert len(results) == len(want)
    for got, expected in zip(results, want):
        got = np.asarray(got)
        assert got.shape == expected.shape and got.dtype == expected.dtype, op
        if op not in RANDOM:
            np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6, err_msg=op)

# the linalg24 ops of issue 24: pivots 1 or 2 (valid 1-based rows), complex eigenpairs for eig_grad
ARGUMENTS.update(
    {
        "lu": lambda f, t: [t((2, 3, 3), "float32"), True],
        "lu_grad": lambda f, t: [
            t((3, 3), "float32"), t((3, 3), "float32"), t((3,), "int32") + 1, t((3, 3), "float32"),
            True,
        ],
        "lu_unpack": lambda f, t: [t((3, 3), "float32"), t((3,), "int32") + 1, True, True],
        "lu_unpack_grad": lambda f, t: [
            t((3, 3), "float32"), t((3,), "int32") + 1, t((3, 3), "float32"), t((3, 3), "float32"),
            t((3, 3), "float32"), t((3, 3), "float32"), t((3, 3), "float32"), True, True,
        ],
        "eig": lambda f, t: [t((2, 3, 3), "float32")],
        "eig_grad": lambda f, t: [
            t((3,), "complex64"), t((3, 3), "complex64"), t((3,), "complex64"),
            t((3, 3), "complex64"),
        ],
        "lstsq": lambda f, t: [t((2, 4, 3), "float32"), t((2, 4, 2), "float32"), 0.0, "gelsd"],
        "matrix_rank_atol_rtol": lambda f, t: [
            t((2, 3, 4), "float32"), t((2,), "float32"), t((), "float32"), False
        ],
        "baddbmm": lambda f, t: [
            t((2, 1, 5), "float32"), t((2, 3, 4), "float32"), t((2, 4, 5), "float32"), 0.5, 2.0
        ],
        "baddbmm_grad": lambda f, t: [
            t((2, 5), "float32"), t((2, 3, 4), "float32"), t((2, 4, 5), "float32"),
            t((2, 3, 5), "float32"), 2.0, 0.5,
        ],
    }
)  # fmt: skip

# the random24 ops of issue 24: random draws
RANDOM = RANDOM | frozenset(
    "binomial dirichlet exponential_ gaussian_inplace gumbel_softmax multinomial poisson "
    "shuffle_batch standard_gamma truncated_gaussian_random uniform_inplace "
    "uniform_random_batch_size_like".split()
)
ARGUMENTS.update(
    {
        "shuffle_batch": lambda f, t: [t((2, 4, 3), "float32"), t((1,), "int64"), 0],
        "shuffle_batch_grad": lambda f, t: [t((8,), "int64") * 0, t((2, 4, 3), "float32"), 0],
        "random_routing": lambda f, t: [
            t((2,), "float32"), t((2, 2), "float32"), t((2, 2), "int64")
        ],
    }
)


# the seq24 ops of issue 24: padded sequences with lengths (0 or 1) and 0/1 tags
ARGUMENTS.update(
    {
        "gather_tree": lambda f, t: [t((3, 2, 2), "int64"), t((3, 2, 2), "int64")],
        "viterbi_decode": lambda f, t: [
            t((2, 3, 4), "float32"), t((4, 4), "float32"), t((2,), "int64"), True
        ],
        "edit_distance": lambda f, t: [
            t((2, 3), "int64"), t((2, 4), "int64"), t((2,), "int64"), t((2,), "int64"), False
        ],
        "ctc_align": lambda f, t: [t((2, 3), "int64"), t((2, 1), "int64"), 0, True, 0],
        "crf_decoding": lambda f, t: [
            t((2, 3, 4), "float32"), t((6, 4), "float32"), None, t((2,), "int64")
        ],
        "chunk_eval": lambda f, t: [
            t((2, 4), "int64"), t((2, 4), "int64"), t((2,), "int64"), 2, "IOB", []
        ],
        "add_position_encoding": lambda f, t: [t((2, 3, 4), "float32"), 1.0, 1.0],
        "add_position_encoding_grad": lambda f, t: [
            t((2, 3, 4), "float32"), t((2, 3, 4), "float32"), 1.0, 1.0
        ],
        "bilinear": lambda f, t: [
            t((2, 3), "float32"), t((2, 4), "float32"), t((5, 3, 4), "float32"), t((1, 5), "float32")
        ],
        "bilinear_grad": lambda f, t: [
            t((2, 3), "float32"), t((2, 4), "float32"), t((5, 3, 4), "float32"), t((2, 5), "float32")
        ],
        "cvm": lambda f, t: [t((2, 4), "float32"), t((2, 2), "float32"), True],
        "cvm_grad": lambda f, t: [t((2, 4), "float32"), t((2, 2), "float32"), t((2, 4), "float32"), True],
        "swiglu": lambda f, t: [t((2, 4), "float32"), None],
        "swiglu_grad": lambda f, t: [t((2, 4), "float32"), t((2, 4), "float32"), t((2, 4), "float32")],
        "fused_softmax_mask": lambda f, t: [t((1, 2, 3, 4), "float32"), t((1, 1, 3, 4), "float32")],
        "segment_pool": lambda f, t: [t((2, 3), "float32"), t((2,), "int64") * 0, "MEAN"],
        "send_u_recv": lambda f, t: [t((2, 3), "float32"), t((4,), "int64"), t((4,), "int64"), "MEAN", [0]],
        "send_ue_recv": lambda f, t: [
            t((2, 3), "float32"), t((4, 1), "float32"), t((4,), "int64"), t((4,), "int64"), "MUL",
            "MEAN", [0]
        ],
        "send_ue_recv_grad": lambda f, t: [
            t((2, 3), "float32"), t((4, 1), "float32"), t((4,), "int64"), t((4,), "int64"), None,
            None, t((2, 3), "float32"), "MUL", "SUM"
        ],
        # _array's (4,) int32 counts are [0, 1, 1, 1]: three neighbors
        "reindex_graph": lambda f, t: [t((4,), "int64"), t((3,), "int64"), t((4,), "int32"), None, None],
        "send_uv": lambda f, t: [t((2, 3), "float32"), t((2, 1), "float32"), t((4,), "int64"), t((4,), "int64"), "MUL"],
        "send_uv_grad": lambda f, t: [
            t((2, 3), "float32"), t((2, 1), "float32"), t((4,), "int64"), t((4,), "int64"),
            t((4, 3), "float32"), "MUL"
        ],
        "send_u_recv_grad": lambda f, t: [
            t((2, 3), "float32"), t((4,), "int64"), t((4,), "int64"), None, None,
            t((2, 3), "float32"), "SUM"
        ],
        "segment_pool_grad": lambda f, t: [
            t((2, 3), "float32"), t((2,), "int64") * 0, t((1, 3), "float32"), None,
            t((1, 3), "float32"), "SUM"
        ],
    }
)  # fmt: skip

# interp_antialias (issue 25/24)
ARGUMENTS.update(
    {
        "interp_antialias": lambda f, t: [
            *[t((2, 3, 7, 6), "float32"), None, None, None],
            *["NCHW", 0, 3, 4, [], "bicubic", False],
        ],
        "interp_antialias_grad": lambda f, t: [
            *[t((2, 3, 7, 6), "float32"), None, None, None, t((2, 3, 3, 4), "float32")],
            *["NCHW", 0, 3, 4, [], "bilinear", False, 0],
        ],
    }
)  # fmt: skip

# the lod24 ops of issue 24 read their input's LoD (runtime/tensor/lod.py): eagerly the tensor's
# (set here on the [2, 3] input), in a program the fed tensor's, so the feeds of these ops' runs
# whose first extent is 2 are fed as tensors carrying FEED_LODS[op]
FEED_LODS = {op: [[0, 1, 2]] for op in ("sequence_pool", "sequence_pool_grad", "sequence_conv", "sequence_conv_grad")}


def _sequences(value: Any) -> Any:
    """An eager tensor with the LoD [[0, 1, 2]] (two sequences of one row); a Value as it is."""
    if isinstance(value, phi.Tensor):
        value.set_lod([[0, 1, 2]])
    return value


_build_without_lods = _build_with_feeds


def _build_with_feeds(op: str) -> tuple[phi.static.Program, list[Any], dict[str, Any]]:  # noqa: F811
    main, outputs, feeds = _build_without_lods(op)
    lod = FEED_LODS.get(op)
    if lod is not None:
        for name, array in feeds.items():
            if array.shape[:1] == (lod[-1][-1],):
                feeds[name] = phi.to_tensor(array)
                feeds[name].set_lod(lod)
    return main, outputs, feeds


ARGUMENTS.update(
    {
        "sequence_pool": lambda f, t: [_sequences(t((2, 3), "float32")), False, "SUM", 0.0],
        "sequence_pool_grad": lambda f, t: [
            _sequences(t((2, 3), "float32")), None, t((2, 3), "float32"), False, "AVERAGE", 0.0
        ],
        "sequence_conv": lambda f, t: [
            _sequences(t((2, 3), "float32")), None, t((6, 4), "float32"), 2, False, -1, 1
        ],
        "sequence_conv_grad": lambda f, t: [
            _sequences(t((2, 3), "float32")), None, t((6, 4), "float32"), t((2, 4), "float32"),
            2, False, -1, 1,
        ],
    }
)  # fmt: skip

# the frame24 framework ops of issue 24: empty/empty_like leave their memory uninitialised (shapes
# and dtypes are compared, as for the random ops); read_file reads the committed sample file
from pathlib import Path  # noqa: E402

_FRAME24_SAMPLE = str(Path(__file__).resolve().parents[1] / "data" / "frame24" / "sample.bin")
RANDOM = RANDOM | frozenset({"empty", "empty_like"})
ARGUMENTS.update(
    {
        "read_file": lambda f, t: [_FRAME24_SAMPLE, "uint8"],
        "trans_layout": lambda f, t: [t((2, 3), "float32"), [1, 0]],
        "trans_layout_grad": lambda f, t: [t((2, 3), "float32"), t((3, 2), "float32"), [1, 0]],
    }
)  # fmt: skip

# the lstm24 ops of issue 24 read input's LoD as the lod24 ops do: the feeds of [2, ...] are fed
# carrying [[0, 1, 2]] (two sequences of one row)
FEED_LODS.update({op: [[0, 1, 2]] for op in ("lstm", "lstm_grad", "gru", "gru_grad")})
_LSTM_ATTRS = [True, False, False, "sigmoid", "tanh", "tanh"]
_GRU_ATTRS = ["tanh", "sigmoid", False, False, False]
ARGUMENTS.update(
    {
        "lstm": lambda f, t: [
            _sequences(t((2, 8), "float32")), None, None, t((2, 8), "float32"), t((1, 14), "float32"), *_LSTM_ATTRS
        ],
        "lstm_grad": lambda f, t: [
            _sequences(t((2, 8), "float32")), None, None, t((2, 8), "float32"), t((1, 14), "float32"),
            t((2, 2), "float32"), t((2, 2), "float32"), t((2, 8), "float32"), t((2, 2), "float32"),
            t((2, 2), "float32"), *_LSTM_ATTRS,
        ],
        "gru": lambda f, t: [_sequences(t((2, 6), "float32")), None, t((2, 6), "float32"), t((1, 6), "float32"), *_GRU_ATTRS],
        "gru_grad": lambda f, t: [
            _sequences(t((2, 6), "float32")), None, t((2, 6), "float32"), t((1, 6), "float32"),
            t((2, 6), "float32"), t((2, 2), "float32"), t((2, 2), "float32"), t((2, 2), "float32"),
            t((2, 2), "float32"), *_GRU_ATTRS,
        ],
    }
)  # fmt: skip

# the lodops24 ops of issue 24 read their inputs' LoD as the lod24 ops do: the feeds of [2, ...]
# are fed carrying [[0, 1, 2]] (two sequences of one row); pyramid_hash's int32 ids are 0 or 1,
# beam_search's prefix ids 0 (ended) or 1
FEED_LODS.update(
    {
        op: [[0, 1, 2]]
        for op in ("match_matrix_tensor", "match_matrix_tensor_grad", "pyramid_hash", "pyramid_hash_grad", "attention_lstm", "beam_search")
    }
)
_PYRAMID_ATTRS = [2, 4, 2, 2, 0.0, 1, False, 0, 0, 0, 0.0, ""]
ARGUMENTS.update(
    {
        "match_matrix_tensor": lambda f, t: [
            _sequences(t((2, 3), "float32")), _sequences(t((2, 3), "float32")), t((3, 1, 3), "float32"), 1
        ],
        "match_matrix_tensor_grad": lambda f, t: [
            _sequences(t((2, 3), "float32")), _sequences(t((2, 3), "float32")), t((3, 1, 3), "float32"),
            t((6, 1), "float32"), t((2, 1), "float32"), 1,
        ],
        "pyramid_hash": lambda f, t: [
            _sequences(t((2, 1), "int32")), t((6, 1), "float32"), t((1, 1), "float32"), t((1, 1), "float32"),
            *_PYRAMID_ATTRS,
        ],
        "pyramid_hash_grad": lambda f, t: [
            _sequences(t((2, 1), "int32")), t((6, 1), "float32"), t((4, 1), "int32"), t((2, 1), "float32"),
            t((2, 2), "float32"), *_PYRAMID_ATTRS,
        ],
        "attention_lstm": lambda f, t: [
            _sequences(t((2, 3), "float32")), t((2, 2), "float32"), None, t((5, 1), "float32"), None, None,
            None, t((5, 8), "float32"), t((1, 8), "float32"), "sigmoid", "tanh", "tanh",
        ],
        "beam_search": lambda f, t: [
            _sequences(t((2, 1), "int64")), _sequences(t((2, 1), "float32")), _sequences(t((2, 3), "int64")),
            _sequences(t((2, 3), "float32")), 0, 2, 0, True,
        ],
    }
)  # fmt: skip

# the double grads PaddlePaddle 3.3.1 invokes the forward op for (issue 24)
ARGUMENTS.update(
    {
        "slice_double_grad": lambda f, t: [t((4, 3), "float32"), [0], [1], [3], [1], []],
        "squeeze_double_grad": lambda f, t: [t((2, 1, 3), "float32"), [1]],
        "transpose_double_grad": lambda f, t: [t((3, 2), "float32"), [1, 0]],
    }
)

# the codegen24 ops. data: a program input that reads the feed the test makes for its first
# Value (input_0), so its value in a program is that feed, and eagerly zeros: shapes and dtypes
# are compared. merge_selected_rows: eagerly on a SelectedRows; building it on a dense Value is
# an InvalidArgumentError (BUILT_ON_OTHER_KINDS).
def _data_arguments(f: Callable[..., Any], t: Tensor) -> list[Any]:
    t((2, 3), "float32")
    return ["input_0", [2, 3], "float32", "cpu"]


def _merge_selected_rows_arguments(f: Callable[..., Any], t: Tensor) -> list[Any]:
    from tests.runtime.test_bad_argument_sweep import _selected_rows

    return [_selected_rows()]


ARGUMENTS.update(
    {
        "data": _data_arguments,
        "merge_selected_rows": _merge_selected_rows_arguments,
        "get_tensor_from_selected_rows": _merge_selected_rows_arguments,
    }
)
RANDOM = RANDOM | frozenset({"data"})


@pytest.mark.parametrize("op", sorted(BUILT_ON_OTHER_KINDS))
def test_building_an_op_of_another_kind_on_a_dense_value_is_an_error(op):
    phi.enable_static()
    try:
        with phi.static.program_guard(phi.static.Program(), phi.static.Program()):
            x = phi.static.data("x", [3, 3], "float32")
            with pytest.raises(
                InvalidArgumentError, match=f"{op}\\(\\): argument 'x' is a DenseTensor Value"
            ):
                _API[op](x)
    finally:
        phi.disable_static()
