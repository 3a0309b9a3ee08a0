"""InferMeta with MetaConfig(is_runtime=False): unknown (-1) dims propagate and known ones are
checked, for every InferMeta function in runtime/infermeta/.

Each function has a case here (a meta-test fails for one without): a valid call with concrete
dims. Replacing any input extent by -1 must still infer, with the same ranks and dtypes and every
output extent either the concrete one or -1; a case with a mismatch between known extents must
still be rejected. To add a function: add its ``CASES`` entry (and a ``MISMATCHES`` entry when it
compares extents of different arguments), then use runtime/infermeta/dims.py where it fails.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from phiops.runtime.common import DataLayout, DataType
from phiops.runtime.tensor.dense_tensor import DenseTensorMeta
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta import INFER_META_FUNCTIONS
from phiops.runtime.infermeta.dims import UNKNOWN, dims_match, extents_match, numel, sum_extents

F32, F64, I64, BOOL, C64 = (
    DataType.FLOAT32,
    DataType.FLOAT64,
    DataType.INT64,
    DataType.BOOL,
    DataType.COMPLEX64,
)
RUNTIME, COMPILE = MetaConfig(is_runtime=True), MetaConfig(is_runtime=False)


@dataclass(frozen=True)
class T:
    """A tensor input: dims and dtype."""

    dims: tuple[int, ...]
    dtype: DataType = F32


def t(*dims: int, dtype: DataType = F32) -> T:
    return T(tuple(dims), dtype)


@dataclass(frozen=True)
class Case:
    """Inputs (T, a list of T, or None), attributes, and outputs: an int per output, 0 for a
    single MetaTensor and n for a list of n. ``known``: (input, dim) extents that must be known
    even while a graph is built, as they decide an output's rank (left known in the variants;
    unknown, they are rejected)."""

    inputs: tuple[Any, ...]
    attrs: tuple[Any, ...] = ()
    outputs: tuple[int, ...] = (0,)
    label: str = field(default="", compare=False)
    known: tuple[tuple[int, int], ...] = field(default=(), compare=False)


CASES: dict[str, list[Case]] = {
    "adam_infer_meta": [
        Case(
            (t(2, 3), t(2, 3), t(1), t(2, 3), t(2, 3), None, t(1), t(1), None, None),
            (0.9, 0.999, 1e-8, False, 1000, False, False, False),
            (0, 0, 0, 0, 0, 0, 0),
        ),
        Case(
            (t(2, 3), t(2, 3), t(1), t(2, 3), t(2, 3), t(2, 3), t(1), t(1), None, None),
            (0.9, 0.999, 1e-8, False, 1000, False, False, True),
            (0, 0, 0, 0, 0, 0, 0),
            "amsgrad",
        ),
    ],
    "adamw_infer_meta": [
        Case(
            (t(2, 3), t(2, 3), t(1), t(2, 3), t(2, 3), t(2, 3), t(1), t(1), None, None),
            (0.9, 0.999, 1e-8, 1.0, 0.01, True, False, 1000, False, False, True),
            (0, 0, 0, 0, 0, 0, 0),
        )
    ],
    "adagrad_infer_meta": [Case((t(2, 3), t(2, 3), t(2, 3), t(1), None), (1e-6, False), (0, 0, 0))],
    "rmsprop_infer_meta": [
        Case(
            (t(2, 3), t(2, 3), t(2, 3), t(2, 3), t(1), t(2, 3), None),
            (1e-10, 0.9, 0.0, True, False),
            (0, 0, 0, 0, 0),
        )
    ],
    "adamax_infer_meta": [
        Case(
            (t(2, 3), t(2, 3), t(1), t(2, 3), t(2, 3), t(1), None),
            (0.9, 0.999, 1e-8, False),
            (0, 0, 0, 0),
        )
    ],
    "adadelta_infer_meta": [
        Case((t(2, 3), t(2, 3), t(2, 3), t(2, 3), t(1), None), (0.95, 1e-6, False), (0, 0, 0, 0))
    ],
    "lamb_infer_meta": [
        Case(
            (t(2, 3), t(2, 3), t(1), t(2, 3), t(2, 3), t(1), t(1), None, None),
            (0.01, 0.9, 0.999, 1e-6, False, False),
            (0, 0, 0, 0, 0, 0),
        )
    ],
    "n_adam_infer_meta": [
        Case(
            (t(2, 3), t(2, 3), t(1), t(2, 3), t(2, 3), t(2, 3), t(2, 3), t(2, 3), None),
            (0.9, 0.999, 1e-8, 0.004, False),
            (0, 0, 0, 0, 0, 0, 0),
        )
    ],
    "r_adam_infer_meta": [
        Case(
            (t(2, 3), t(2, 3), t(1), t(2, 3), t(2, 3), t(2, 3), t(2, 3), t(2, 3), None),
            (0.9, 0.999, 1e-8, False),
            (0, 0, 0, 0, 0, 0, 0),
        )
    ],
    "rprop_infer_meta": [
        Case((t(2, 3), t(2, 3), t(2, 3), t(2, 3), None, t(2), t(2)), (False,), (0, 0, 0, 0))
    ],
    "asgd_infer_meta": [
        Case((t(2, 3), t(2, 3), t(1), t(2, 3), t(2, 3), t(1), None), (False,), (0, 0, 0, 0))
    ],
    "merged_adam_infer_meta": [
        Case(
            (
                [t(2, 3), t(4)],
                [t(2, 3), t(4)],
                [t(1)],
                [t(2, 3), t(4)],
                [t(2, 3), t(4)],
                [t(1), t(1)],
                [t(1), t(1)],
                [t(2, 3), t(4)],
            ),
            (0.9, 0.999, 1e-8, True, False),
            (2, 2, 2, 2, 2, 2),
        )
    ],
    "merged_momentum_infer_meta": [
        Case(
            ([t(2, 3), t(4)], [t(2, 3), t(4)], [t(2, 3), t(4)], [t(1), t(1)], None),
            (0.9, True, ["l2_decay", ""], [0.1, 0.0], False, 1.0),
            (2, 2, 2),
        )
    ],
    "momentum_infer_meta": [
        Case(
            (t(2, 3), t(2, 3), t(2, 3), t(1), None),
            (0.9, False, "l2_decay", 0.1, False, 1.0),
            (0, 0, 0),
        )
    ],
    "arg_min_max_infer_meta": [Case((t(2, 3),), (1, False, False, I64))],
    "assign_value_infer_meta": [Case((), ((2, 3), I64))],
    "cast_infer_meta": [Case((t(2, 3),), (F64,))],
    "compare_infer_meta": [Case((t(2, 3), t(3)))],
    "concat_infer_meta": [Case(([t(2, 3), t(4, 3)],), (0,))],
    "conv2d_transpose_infer_meta": [
        Case(
            (t(2, 4, 5, 6), t(4, 3, 3, 2)), ((2, 1), (1, 0), (), (), "EXPLICIT", 2, (1, 1), "NCHW")
        ),
        Case(
            (t(2, 5, 6, 4), t(4, 3, 3, 2)),
            ((2, 2), (0, 0), (1, 0), (), "SAME", 1, (1, 1), "NHWC"),
            label="same-nhwc",
        ),
    ],
    "conv_transpose_infer_meta": [
        Case(
            (t(1, 2, 3, 4, 5), t(2, 3, 2, 2, 2)),
            ((2, 1, 1), (0, 0, 0), (), (7, 5, 6), "EXPLICIT", 1, (1, 1, 1), "NCDHW"),
        )
    ],
    "create_infer_meta": [Case((), ((2, 3), F32))],
    "gaussian_infer_meta": [Case((), ((2, 3), 0.0, 1.0, 0, F32))],
    "layer_norm_infer_meta": [
        Case((t(2, 3, 4), t(12), t(12)), (1e-5, 1), (0, 0, 0)),
        Case((t(2, 3, 4), None, None), (1e-5, 2), (0, 0, 0), "no scale"),
    ],
    "embedding_infer_meta": [Case((t(2, 3, dtype=I64), t(10, 4)), (-1,))],
    "dropout_infer_meta": [
        Case((t(2, 3), None), (0.5, False, "upscale_in_train", 0, False), (0, 0))
    ],
    "one_hot_infer_meta": [Case((t(2, 3, dtype=I64),), (5,))],
    "index_select_infer_meta": [Case((t(4, 3), t(2, dtype=I64)), (0,))],
    "gather_infer_meta": [Case((t(4, 3), t(2, dtype=I64)), (1,))],
    "conv_infer_meta": [
        Case((t(2, 3, 8, 8), t(4, 3, 3, 3)), ((1, 1), (1, 1), "EXPLICIT", (1, 1), 1, "NCHW")),
        Case(
            (t(2, 8, 8, 3), t(4, 3, 3, 3)),
            ((2, 2), (0, 0), "EXPLICIT", (1, 1), 1, "NHWC"),
            (0,),
            "nhwc",
        ),
    ],
    "batch_norm_infer_meta": [
        Case(
            (t(2, 3, 4, 4), t(3), t(3), t(3), t(3)),
            (False, 0.9, 1e-5, "NCHW", False, False),
            (0, 0, 0, 0, 0, 0),
        )
    ],
    "create_like_infer_meta": [Case((t(2, 3),), (DataType.UNDEFINED,))],
    "cross_entropy_with_softmax_grad_infer_meta": [
        Case((t(4, 1, dtype=I64), t(4, 5), t(4, 1)), (False, True, True, -100, -1))
    ],
    "cross_entropy_with_softmax_infer_meta": [
        Case((t(4, 5), t(4, 1, dtype=I64)), (False, True, True, -100, -1), (0, 0)),
        Case((t(4, 5), t(4, 5)), (True, True, True, -100, -1), (0, 0), "soft"),
    ],
    "elementwise_infer_meta": [Case((t(2, 1, 3), t(4, 3))), Case((t(2, 3), t(2, 3)))],
    "expand_infer_meta": [Case((t(1, 3),), ((2, 2, 3),))],
    "flatten_infer_meta": [Case((t(2, 3, 4),), (1, 2))],
    "general_binary_grad_infer_meta": [Case((t(2, 3), t(3)), (), (0, 0))],
    "general_ternary_grad_infer_meta": [Case((t(2, 3), t(3), t(2, 1)), (), (0, 0, 0))],
    "general_unary_grad_infer_meta": [Case((t(2, 3),))],
    "grad_same_with_x_infer_meta": [Case((t(2, 3), t(6)))],
    "interpolate_infer_meta": [
        Case((t(2, 3, 5, 4), None, None, None), ("NCHW", 0, 7, 9, (), "bilinear", False, 1)),
        Case(
            (t(2, 5, 4, 3), None, None, None),
            ("NHWC", 0, 0, 0, (1.5, 2.0), "nearest", True, 1),
            label="scale-nhwc",
        ),
        Case(
            (t(2, 3, 5, 4), t(2, dtype=DataType.INT32), None, t(1)),
            ("NCHW", 0, 0, 0, (), "bilinear", False, 0),
            label="size-tensors",
        ),
        Case(
            (t(2, 3, 5), None, None, None),
            ("NHWC", 0, 0, 0, (1.5,), "linear", False, 0),
            label="linear-nwc",
        ),
        Case(
            (t(2, 3, 5, 4), None, None, None),
            ("NCHW", 0, 7, 9, (), "bicubic", True, 1),
            label="bicubic",
        ),
        Case(
            (t(1, 3, 2, 5, 4), None, None, None),
            ("NCHW", 3, 7, 9, (), "trilinear", False, 1),
            label="trilinear",
        ),
    ],
    "logical_binary_infer_meta": [Case((t(2, 3), t(2, 3)))],
    "logical_not_infer_meta": [Case((t(2, 3),))],
    "matmul_infer_meta": [
        Case((t(2, 3), t(3, 4)), (False, False)),
        Case((t(5, 3, 2), t(4, 3)), (True, True), label="batched, transposed"),
        Case((t(3), t(3)), (False, False), label="vectors"),
    ],
    "real_and_imag_infer_meta": [Case((t(2, 3, dtype=C64),))],
    "reduce_int_array_axis_infer_meta": [Case((t(2, 3),), ((1,), False))],
    "reduce_int_array_axis_infer_meta_base": [Case((t(2, 3),), ((0,), True, False))],
    "reshape_infer_meta": [Case((t(2, 3),), ((3, -1),)), Case((t(2, 3),), ((0, 3),))],
    "sgd_infer_meta": [Case((t(2, 3), t(1), t(2, 3), None), (False,), (0, 0))],
    "softmax_infer_meta": [Case((t(2, 3),), (-1,))],
    "split_infer_meta": [Case((t(6, 4),), ((2, -1, 1), 0), (3,))],
    # Without axes, squeeze keeps an unknown extent (it may not be 1), so the rank inferred at
    # compile time can exceed the run-time one: that case has its own test below.
    "squeeze_infer_meta": [Case((t(2, 1, 3),), ((1,),))],
    "stack_grad_infer_meta": [Case((t(2, 3, 4),), (1,), (3,))],
    "stack_infer_meta": [Case(([t(2, 3), t(2, 3)],), (0,))],
    "sum_infer_meta": [Case((t(2, 3),), ((1,), DataType.UNDEFINED, False))],
    "transpose_grad_infer_meta": [Case((t(3, 2, 4),), ((1, 2, 0),))],
    "transpose_infer_meta": [Case((t(2, 3, 4),), ((2, 0, 1),))],
    "unchanged_infer_meta": [Case((t(2, 3),))],
    "unchanged_infer_meta_check_axis": [Case((t(2, 3),), (1,))],
    "unchanged_multi_infer_meta": [Case(([t(2, 3), t(4)],), (), (2,))],
    "unsqueeze_infer_meta": [Case((t(2, 3),), ((0, -1),))],
    "where_infer_meta": [Case((t(2, 3, dtype=BOOL), t(2, 3), t(3)))],
    "add_n_infer_meta": [Case(([t(2, 3), t(2, 3), t(2, 3)],))],
    "all_value_compare_infer_meta": [Case((t(2, 3), t(2, 3)))],
    "value_compare_infer_meta": [Case((t(2, 3), t(2, 3)))],
    "arange_infer_meta": [Case((), (0, 5, 2, I64))],
    "argsort_infer_meta": [Case((t(2, 3),), (1, False, False), (0, 0))],
    "create_vec_shape_infer_meta": [Case((), ((1, 2, 3), F32))],
    "cum_scalar_axis_infer_meta": [
        Case((t(2, 3),), (1, False, False, False)),
        Case((t(2, 3),), (0, True, False, False), label="flatten"),
    ],
    "diag_infer_meta": [
        Case((t(3),), (1, 0.0)),
        Case((t(3, 4),), (1, 0.0), label="2-D"),
        Case((t(3, 4),), (-2, 0.0), label="2-D, below"),
    ],
    "eye_infer_meta": [Case((), (2, 3, F32))],
    "flip_infer_meta": [Case((t(2, 3),), ((0, 1),))],
    "isfinite_infer_meta": [Case((t(2, 3),))],
    "linspace_infer_meta": [Case((), (0.0, 1.0, 5, F32))],
    "logsumexp_infer_meta": [Case((t(2, 3),), ((1,), False, False))],
    "meshgrid_infer_meta": [Case(([t(2), t(3)],), (), (2,))],
    "meshgrid_grad_infer_meta": [Case(([t(2), t(3)], [t(2, 3), t(2, 3)]), (), (2,))],
    "non_zero_infer_meta": [Case((t(2, 3),))],
    "p_relu_infer_meta": [
        Case((t(2, 3, 4), t(3)), ("NCHW", "channel")),
        Case((t(2, 3, 4), t(4)), ("NHWC", "channel"), label="nhwc"),
        Case((t(2, 3, 4), t(1)), ("NCHW", "all"), label="all"),
        Case((t(2, 3, 4), t(1, 3, 4)), ("NCHW", "element"), label="element"),
    ],
    "prelu_grad_infer_meta": [Case((t(2, 3), t(3)), (), (0, 0))],
    "pad_infer_meta": [Case((t(2, 3),), ((1, 0, 2, 1), 0.0))],
    "pad3d_infer_meta": [
        Case((t(1, 2, 3, 4, 5),), ((1, 1, 2, 0, 1, 0), "reflect", 0.0, "NCDHW")),
        Case((t(1, 3, 4, 5, 2),), ((1, 1, 2, 0, 1, 0), "circular", 0.0, "NDHWC"), label="ndhwc"),
    ],
    "randint_infer_meta": [Case((), (0, 5, (2, 3), I64))],
    "randperm_infer_meta": [Case((), (5, I64))],
    "reduce_infer_meta": [Case((t(2, 3),), ((1,), False))],
    "roll_infer_meta": [Case((t(2, 3),), ((1,), (0,))), Case((t(2, 3),), ((2,), ()), label="flat")],
    "set_value_infer_meta": [Case((t(2, 3),))],
    "set_value_grad_infer_meta": [Case((t(2, 3), t(3)), (), (0, 0))],
    "split_with_num_infer_meta": [Case((t(6, 4),), (3, 0), (3,))],
    "tile_infer_meta": [Case((t(2, 3),), ((2, 1, 2),))],
    "top_k_infer_meta": [Case((t(2, 5),), (3, 1, True, True), (0, 0))],
    "tril_infer_meta": [Case((t(2, 3),), (0,))],
    "triu_infer_meta": [Case((t(2, 3),), (1,))],
    "uniform_random_infer_meta": [Case((), ((2, 3), F32))],
    "scatter_infer_meta": [
        Case((t(5, 3), t(2, dtype=I64), t(2, 3)), (True,)),
        Case((t(5, 3), t(2, 1, dtype=I64), t(2, 3)), (False,), label="[N, 1] index"),
    ],
    "scatter_grad_infer_meta": [Case((t(2, dtype=I64), t(2, 3), t(5, 3)), (True,), (0, 0))],
    "scatter_nd_add_grad_infer_meta": [Case((t(2, 1, dtype=I64), t(2, 3), t(5, 3)), (), (0, 0))],
    "gather_nd_grad_infer_meta": [Case((t(5, 3), t(2, 1, dtype=I64), t(2, 3)))],
    "index_put_infer_meta": [Case((t(5, 3), [t(2, dtype=I64)], t(2, 3)), (False,))],
    "index_put_grad_infer_meta": [
        Case((t(5, 3), [t(2, dtype=I64)], t(2, 3), t(5, 3)), (False,), (0, 0))
    ],
    "masked_select_infer_meta": [Case((t(2, 3), t(3, dtype=BOOL)))],
    "take_along_axis_infer_meta": [Case((t(4, 3), t(2, 3, dtype=I64)), (0,))],
    "slice_raw_infer_meta": [
        Case((t(4, 5, 3),), ((0, 1), (1, -3), (3, 10), (), ())),
        Case((t(4, 5, 3),), ((0, 2), (1, 0), (2, 1), (), (0, 2)), label="decrease"),
    ],
    "strided_slice_infer_meta": [
        Case((t(6, 5),), ((0, 1), (0, 4), (6, 0), (2, -1))),
    ],
    "group_norm_infer_meta": [
        Case((t(2, 4, 3), t(4), t(4)), (1e-5, 2, "NCHW"), (0, 0, 0)),
        Case((t(2, 3, 6), None, None), (1e-5, 3, "NHWC"), (0, 0, 0), "nhwc"),
    ],
    "instance_norm_infer_meta": [Case((t(2, 3, 4), t(3), t(3)), (1e-5,), (0, 0, 0))],
    "instance_norm_grad_infer_meta": [
        Case((t(2, 3, 4), t(3), t(6), t(6), t(2, 3, 4)), (1e-5,), (0, 0, 0)),
        Case((t(2, 3, 4), None, t(6), t(6), t(2, 3, 4)), (1e-5,), (0, 0, 0), "no scale"),
    ],
    "layer_norm_grad_infer_meta": [
        Case((t(2, 3, 4), t(12), t(12)), (), (0, 0, 0)),
        Case((t(2, 3, 4), None, None), (), (0, 0, 0), "no scale"),
    ],
    "max_pool_with_index_grad_infer_meta": [
        Case(
            (t(1, 2, 4, 4), t(1, 2, 2, 2, dtype=DataType.INT32), t(1, 2, 2, 2)),
            ((2, 2), (2, 2), (0, 0), False, False, False),
        )
    ],
    "depthwise_conv_infer_meta": [
        Case((t(2, 3, 8, 8), t(6, 1, 3, 3)), ((1, 1), (1, 1), "EXPLICIT", 3, (1, 1), "NCHW"))
    ],
    "conv3_d_infer_meta": [
        Case(
            (t(1, 2, 5, 6, 7), t(4, 2, 3, 3, 3)),
            ((1, 2, 1), (0, 1, 1), "EXPLICIT", 1, (1, 1, 1), "NCDHW"),
        ),
        Case(
            (t(1, 5, 6, 7, 2), t(4, 1, 3, 3, 3)),
            ((1, 1, 1), (0, 0, 0), "SAME", 2, (1, 1, 1), "NDHWC"),
            label="same-ndhwc",
        ),
    ],
    "pool2_d_infer_meta": [
        Case(
            (t(2, 3, 7, 8),),
            ((3, 3), (2, 2), (1, 1), True, True, "NCHW", "max", False, False, "EXPLICIT"),
        ),
        Case(
            (t(2, 7, 8, 3),),
            ((2, 2), (1, 1), (0, 0), False, True, "NHWC", "avg", False, True, "EXPLICIT"),
            label="adaptive-nhwc",
        ),
        Case(
            (t(2, 3, 7, 8),),
            ((3, 3), (1, 1), (0, 0), False, True, "NCHW", "avg", True, False, "EXPLICIT"),
            label="global",
        ),
        Case(
            (t(2, 3, 7, 8),),
            ((3, 3), (2, 2), (0, 0), False, True, "NCHW", "avg", False, False, "SAME"),
            label="same",
        ),
    ],
    "pool_infer_meta": [
        Case(
            (t(1, 2, 5, 6, 7),),
            ((2, 2, 2), (2, 2, 2), (0, 0, 0), False, True, "NCDHW", "max", False, False, "VALID"),
        )
    ],
    "max_pool_with_index_infer_meta": [
        Case((t(1, 2, 5, 6),), ((2, 2), (2, 2), (0, 1), False, False, False), (0, 0))
    ],
    "gather_nd_infer_meta": [
        Case((t(4, 3, 5), t(2, 2, dtype=I64)), known=((1, 1),)),
        Case((t(4, 3), t(2, 3, 1, dtype=I64)), known=((1, 2),), label="depth 1"),
    ],
    "scatter_nd_add_infer_meta": [
        Case((t(4, 3, 5), t(2, 2, dtype=I64), t(2, 5)), known=((1, 1),)),
        Case((t(4, 3), t(3, 2, dtype=I64), t(3)), known=((1, 1),), label="whole rank"),
    ],
    "unique_infer_meta": [
        Case((t(2, 3),), (True, True, True, (), I64), (0, 0, 0, 0)),
        Case((t(2, 3),), (False, True, False, (1,), DataType.INT32), (0, 0, 0, 0), "axis"),
    ],
    "atan2_infer_meta": [
        Case((t(2, 3), t(2, 3))),
        Case((t(2, 3, dtype=I64), t(2, 3, dtype=I64)), label="int64"),
    ],
    "real_and_imag_grad_infer_meta": [Case((t(2, 3),))],
    "complex_infer_meta": [Case((t(2, 1), t(3)))],
    "complex_grad_infer_meta": [Case((t(2, 1), t(3), t(2, 3, dtype=C64)), (), (0, 0))],
    "as_complex_infer_meta": [Case((t(3, 2),))],
    "as_real_infer_meta": [Case((t(2, 3, dtype=C64),))],
    "lerp_infer_meta": [
        Case((t(3), t(2, 1), t(4, 1, 1))),
        Case((t(2, 3), t(2, 3), t()), label="0-D weight"),
    ],

    # linear algebra (runtime/infermeta/linalg.py)
    "bmm_infer_meta": [Case((t(2, 3, 4), t(2, 4, 5)))],
    "bmm_grad_infer_meta": [Case((t(2, 3, 4), t(2, 4, 5), t(2, 3, 5)), (), (0, 0))],
    "mv_infer_meta": [Case((t(3, 4), t(4)))],
    "dot_infer_meta": [Case((t(4), t(4))), Case((t(2, 4), t(2, 4)), label="rows")],
    "kron_infer_meta": [Case((t(2, 3), t(4, 5))), Case((t(3), t(2, 4, 5)), label="ranks")],
    "cross_infer_meta": [Case((t(4, 3), t(4, 3)), (9,)), Case((t(3, 2), t(3, 2)), (0,), label="axis")],
    "trace_infer_meta": [Case((t(2, 3, 4),), (1, -1, 0))],
    "diagonal_infer_meta": [Case((t(2, 3, 4),), (1, -1, 0)), Case((t(3, 4),), (-5, 0, 1), label="beyond")],
    "diag_embed_infer_meta": [Case((t(2, 3),), (1, 0, 2)), Case((t(4),), (-1, -2, -1), label="1-D")],
    "inverse_infer_meta": [Case((t(2, 3, 3),))],
    "inverse_grad_infer_meta": [Case((t(2, 3, 3), t(2, 3, 3)))],
    "cholesky_infer_meta": [Case((t(2, 3, 3),), (True,))],

    "pixel_shuffle_infer_meta": [
        Case((t(2, 8, 3, 5),), (2, "NCHW")),
        Case((t(2, 3, 5, 8),), (2, "NHWC"), label="NHWC"),
    ],
    "pixel_shuffle_grad_infer_meta": [Case((t(2, 2, 6, 10),), (2, "NCHW"))],
    "pixel_unshuffle_infer_meta": [
        Case((t(2, 2, 6, 10),), (2, "NCHW")),
        Case((t(2, 6, 10, 2),), (2, "NHWC"), label="NHWC"),
    ],
    "pixel_unshuffle_grad_infer_meta": [Case((t(2, 8, 3, 5),), (2, "NCHW"))],
    "channel_shuffle_infer_meta": [Case((t(2, 6, 3, 5),), (3, "NCHW"))],
    "channel_shuffle_grad_infer_meta": [Case((t(2, 3, 5, 6),), (3, "NHWC"))],
    "unfold_infer_meta": [Case((t(2, 3, 5, 6),), ((2, 3), (1, 2), (1, 0, 0, 1), (1, 1)))],
    "fold_infer_meta": [Case((t(2, 12, 12),), ((4, 5), (2, 2), (1, 1), (0, 0, 0, 0), (1, 1)))],
    "affine_grid_infer_meta": [
        Case((t(2, 2, 3),), ((2, 3, 4, 5), True)),
        Case((t(2, 3, 4),), ((2, 3, 4, 5, 6), False), label="3-D"),
    ],
    "affine_grid_grad_infer_meta": [Case((t(2, 4, 5, 2),), ((2, 3, 4, 5), True))],
    "grid_sample_base_infer_meta": [
        Case((t(2, 3, 4, 5), t(2, 6, 7, 2))),
        Case((t(1, 2, 3, 4, 5), t(1, 2, 3, 4, 3)), label="3-D"),
    ],
    "roi_align_infer_meta": [
        Case((t(2, 3, 6, 7), t(5, 4), t(2, dtype=DataType.INT32)), (2, 3, 0.5, -1, False)),
        Case((t(2, 3, 6, 7), t(5, 4), None), (1, 1, 1.0, 2, True), label="no boxes_num"),
    ],
    "roi_pool_infer_meta": [
        Case((t(2, 3, 6, 7), t(5, 4), t(2, dtype=DataType.INT32)), (2, 3, 0.5), (0, 0)),
    ],
    "nms_infer_meta": [Case((t(5, 4),), (0.5,))],
    "yolo_box_infer_meta": [
        Case(
            (t(2, 21, 3, 4), t(2, 2, dtype=DataType.INT32)),
            ((10, 13, 16, 30, 33, 23), 2, 0.01, 32, True, 1.0, False, 0.5),
            (0, 0),
        ),
    ],
    "prior_box_infer_meta": [
        Case(
            (t(1, 3, 4, 5), t(1, 3, 40, 50)),
            ((4.0,), (8.0,), (2.0,), (0.1, 0.1, 0.2, 0.2), True, True, 0.0, 0.0, 0.5, False),
            (0, 0),
        ),
    ],
    "box_coder_infer_meta": [
        Case((t(5, 4), t(5, 4), t(3, 4)), ("encode_center_size", True, 0, ())),
        Case((t(5, 4), None, t(3, 5, 4)), ("decode_center_size", True, 0, ()), label="decode"),
    ],
    "multi_class_nms_infer_meta": [
        Case((t(2, 5, 4), t(2, 3, 5), None), (0.3, -1, -1, 0.4, True, 1.0, 0), (0, 0, 0)),
        Case(
            (t(5, 3, 4), t(5, 3), t(2, dtype=DataType.INT32)),
            (0.3, -1, -1, 0.4, True, 1.0, 0),
            (0, 0, 0),
            label="2-D scores",
        ),
    ],

    # collective ops (nranks 0: the ring's size, an unknown extent)
    "all_gather_infer_meta": [Case((t(2, 3),), (2,)), Case((t(2, 3),), (0,), label="ring size")],
    "reduce_scatter_infer_meta": [Case((t(4, 3),), (2,))],
    "c_concat_infer_meta": [Case((t(2, 3),), (2,))],
    "c_split_infer_meta": [Case((t(2, 6),), (3,))],
    # issue 24's ops of legacy programs
    "shape_infer_meta": [Case((t(2, 3),), ())],
    "shape64_infer_meta": [Case((t(2, 3),), ())],
    "full_batch_size_like_infer_meta": [Case((t(2, 3),), ((-1, 4), 1.5, DataType.FLOAT32, 1, 0))],
    "sequence_mask_scalar_infer_meta": [
        Case((t(2, 3, dtype=I64),), (4, DataType.INT64)),
        Case((t(2, 3, dtype=I64),), (-1, DataType.FLOAT32), label="from the data"),
    ],
    # linalg2 (runtime/infermeta/linalg2.py)
    "solve_infer_meta": [
        Case((t(2, 1, 3, 3), t(4, 3, 2))),
        Case((t(2, 3, 3), t(3)), label="vector"),
    ],
    "triangular_solve_infer_meta": [Case((t(2, 3, 3), t(2, 3, 4)), (True, False, False))],
    "cholesky_solve_infer_meta": [Case((t(4, 3, 2), t(2, 1, 3, 3)), (False,))],
    "det_infer_meta": [Case((t(2, 3, 3),))],
    "slogdet_infer_meta": [Case((t(2, 3, 3),))],
    "matrix_power_infer_meta": [Case((t(2, 3, 3),), (3,))],
    "multi_dot_infer_meta": [
        Case(([t(2, 3), t(3, 4)],)),
        Case(([t(3), t(3, 4), t(4)],), label="vector ends"),
    ],
    "multi_dot_grad_infer_meta": [Case(([t(2, 3), t(3, 4)], t(2, 4)), (), (2,))],
    "p_norm_infer_meta": [
        Case((t(2, 3, 4),), (2.0, -2, 1e-12, False, False)),
        Case((t(2, 3),), (2.0, 0, 1e-12, True, True), label="asvector"),
    ],
    "dist_infer_meta": [Case((t(2, 1, 3), t(4, 3)), (2.0,))],
    "addmm_infer_meta": [Case((t(3), t(2, 4), t(4, 3)), (1.0, 1.0))],
    "qr_infer_meta": [
        Case((t(2, 4, 3),), ("reduced",), (0, 0)),
        Case((t(3, 4),), ("complete",), (0, 0), label="complete"),
    ],
    "svd_infer_meta": [Case((t(2, 4, 3),), (False,), (0, 0, 0))],
    "eigh_infer_meta": [Case((t(2, 3, 3),), ("L",), (0, 0))],
    "eigvalsh_infer_meta": [Case((t(2, 3, 3),), ("U", False), (0, 0))],
    "eigvalsh_grad_infer_meta": [Case((t(2, 3, 3), t(2, 3)), ("L", False))],
    "matrix_rank_infer_meta": [Case((t(2, 3, 4),), (True, False))],
    "matrix_rank_tol_infer_meta": [Case((t(2, 3, 4), t(2)), (False, False))],
    "squared_l2_norm_infer_meta": [Case((t(2, 3),))],
    "l1_norm_infer_meta": [Case((t(2, 3),))],
    "eigvals_infer_meta": [Case((t(2, 3, 3),))],
}

# Calls whose known extents disagree: rejected at run time and while building a graph, even
# with other extents unknown.
MISMATCHES: dict[str, Case] = {
    "grid_sample_base_infer_meta": Case((t(2, -1, 4, 5), t(3, 6, -1, 2))),
    "roi_align_infer_meta": Case((t(2, -1, 6, 7), t(-1, 5), None), (2, 3, 0.5, -1, False)),
    "roi_pool_infer_meta": Case((t(2, -1, 6, 7), t(-1, 5), None), (2, 3, 0.5), (0, 0)),
    "nms_infer_meta": Case((t(-1, 3),), (0.5,)),
    "yolo_box_infer_meta": Case(
        (t(-1, 20, 3, 4), t(3, 2, dtype=DataType.INT32)),
        ((10, 13, 16, 30, 33, 23), 2, 0.01, 32, True, 1.0, False, 0.5),
        (0, 0),
    ),
    "box_coder_infer_meta": Case((t(-1, 4), t(5, 4), t(3, 5)), ("encode_center_size", True, 0, ())),
    "multi_class_nms_infer_meta": Case(
        (t(2, -1, 4), t(3, 3, -1), None), (0.3, -1, -1, 0.4, True, 1.0, 0), (0, 0, 0)
    ),
    "adam_infer_meta": Case(
        (t(-1, 3), t(-1, 4), t(1), t(-1, 3), t(-1, 3), None, t(1), t(1), None, None),
        (0.9, 0.999, 1e-8, False, 1000, False, False, False),
        (0, 0, 0, 0, 0, 0, 0),
    ),
    "adamw_infer_meta": Case(
        (t(-1, 3), t(-1, 3), t(1), t(-1, 3), t(-1, 3), t(-1, 4), t(1), t(1), None, None),
        (0.9, 0.999, 1e-8, 1.0, 0.01, True, False, 1000, False, False, True),
        (0, 0, 0, 0, 0, 0, 0),
    ),
    "adagrad_infer_meta": Case(
        (t(-1, 3), t(-1, 4), t(-1, 3), t(1), None), (1e-6, False), (0, 0, 0)
    ),
    "rmsprop_infer_meta": Case(
        (t(-1, 3), t(-1, 3), t(-1, 3), t(-1, 3), t(1), t(-1, 4), None),
        (1e-10, 0.9, 0.0, True, False),
        (0, 0, 0, 0, 0),
    ),
    "adamax_infer_meta": Case(
        (t(-1, 3), t(-1, 3), t(1), t(-1, 3), t(-1, 4), t(1), None),
        (0.9, 0.999, 1e-8, False),
        (0, 0, 0, 0),
    ),
    "adadelta_infer_meta": Case(
        (t(-1, 3), t(-1, 3), t(-1, 4), t(-1, 3), t(1), None), (0.95, 1e-6, False), (0, 0, 0, 0)
    ),
    "lamb_infer_meta": Case(
        (t(-1, 3), t(-1, 3), t(1), t(-1, 3), t(-1, 4), t(1), t(1), None, None),
        (0.01, 0.9, 0.999, 1e-6, False, False),
        (0, 0, 0, 0, 0, 0),
    ),
    "n_adam_infer_meta": Case(
        (t(-1, 3), t(-1, 3), t(1), t(-1, 3), t(-1, 3), t(-1, 4), t(-1, 3), t(-1, 3), None),
        (0.9, 0.999, 1e-8, 0.004, False),
        (0, 0, 0, 0, 0, 0, 0),
    ),
    "r_adam_infer_meta": Case(
        (t(-1, 3), t(-1, 3), t(1), t(-1, 3), t(-1, 3), t(-1, 3), t(-1, 4), t(-1, 3), None),
        (0.9, 0.999, 1e-8, False),
        (0, 0, 0, 0, 0, 0, 0),
    ),
    "rprop_infer_meta": Case(
        (t(-1, 3), t(-1, 3), t(-1, 4), t(-1, 3), None, t(2), t(2)), (False,), (0, 0, 0, 0)
    ),
    "asgd_infer_meta": Case(
        (t(-1, 3), t(-1, 3), t(1), t(-1, 3), t(-1, 4), t(1), None), (False,), (0, 0, 0, 0)
    ),
    "merged_adam_infer_meta": Case(
        (
            [t(-1, 3), t(4)],
            [t(-1, 3), t(5)],
            [t(1)],
            [t(-1, 3), t(4)],
            [t(-1, 3), t(4)],
            [t(1), t(1)],
            [t(1), t(1)],
            None,
        ),
        (0.9, 0.999, 1e-8, False, False),
        (2, 2, 2, 2, 2, 2),
    ),
    "merged_momentum_infer_meta": Case(
        ([t(-1, 3), t(4)], [t(-1, 3), t(4)], [t(-1, 2), t(4)], [t(1)], None),
        (0.9, False, [], [], False, 1.0),
        (2, 2, 2),
    ),
    "momentum_infer_meta": Case(
        (t(-1, 3), t(-1, 4), t(-1, 3), t(1), None), (0.9, False, "", 0.0, False, 1.0), (0, 0, 0)
    ),
    "compare_infer_meta": Case((t(-1, 3), t(4))),
    "layer_norm_infer_meta": Case((t(-1, 3, 4), t(5), None), (1e-5, 1), (0, 0, 0)),
    "conv_infer_meta": Case(
        (t(-1, 3, 8, 8), t(4, 5, 3, 3)), ((1, 1), (1, 1), "EXPLICIT", (1, 1), 1, "NCHW")
    ),
    "batch_norm_infer_meta": Case(
        (t(-1, 3, 4, 4), t(5), t(3), t(3), t(3)),
        (False, 0.9, 1e-5, "NCHW", False, False),
        (0, 0, 0, 0, 0, 0),
    ),
    "concat_infer_meta": Case(([t(-1, 3), t(4, 5)],), (0,)),
    "cross_entropy_with_softmax_grad_infer_meta": Case(
        (t(-1, 1, dtype=I64), t(-1, 5), t(-1, 2)), (False, True, True, -100, -1)
    ),
    "cross_entropy_with_softmax_infer_meta": Case(
        (t(-1, 5), t(-1, 2, dtype=I64)), (False, True, True, -100, -1), (0, 0)
    ),
    "conv2d_transpose_infer_meta": Case(
        (t(-1, 4, 5, 6), t(3, 3, 3, 2)), ((1, 1), (0, 0), (), (), "EXPLICIT", 1, (1, 1), "NCHW")
    ),
    "elementwise_infer_meta": Case((t(-1, 3), t(-1, 4))),
    "expand_infer_meta": Case((t(-1, 3),), ((2, 4),)),
    "logical_binary_infer_meta": Case((t(-1, 2), t(3))),
    "matmul_infer_meta": Case((t(-1, 3), t(4, -1)), (False, False)),
    "reshape_infer_meta": Case((t(2, 3),), ((-1, -1),)),
    "sgd_infer_meta": Case((t(-1, 3), t(2), t(-1, 3), None), (False,), (0, 0)),
    "split_infer_meta": Case((t(-1, 6),), ((2, 2), 1), (2,)),
    "stack_grad_infer_meta": Case((t(-1, 2),), (1,), (3,)),
    "stack_infer_meta": Case(([t(-1, 3), t(-1, 4)],), (0,)),
    "add_n_infer_meta": Case(([t(-1, 3), t(-1, 3), t(2, 4)],)),
    "all_value_compare_infer_meta": Case((t(-1, 3), t(-1, 4))),
    "value_compare_infer_meta": Case((t(2, -1), t(3, -1))),
    "p_relu_infer_meta": Case((t(-1, 3, 4), t(5)), ("NCHW", "channel")),
    "pad3d_infer_meta": Case((t(-1, 2, 3, 4, 1),), ((1, 1, 0, 0, 0, 0), "reflect", 0.0, "NCDHW")),
    "split_with_num_infer_meta": Case((t(-1, 5),), (2, 1), (2,)),
    "top_k_infer_meta": Case((t(-1, 2),), (3, 1, True, True), (0, 0)),
    "scatter_infer_meta": Case((t(-1, 3), t(-1, dtype=I64), t(-1, 4)), (True,)),
    "masked_select_infer_meta": Case((t(-1, 3), t(2, dtype=BOOL))),
    "group_norm_infer_meta": Case((t(-1, 4, -1), t(3), None), (1e-5, 2, "NCHW"), (0, 0, 0)),
    "instance_norm_infer_meta": Case((t(-1, 3, -1), None, t(4)), (1e-5,), (0, 0, 0)),
    "depthwise_conv_infer_meta": Case(
        (t(-1, 3, 8, 8), t(6, 2, 3, 3)), ((1, 1), (1, 1), "EXPLICIT", 3, (1, 1), "NCHW")
    ),
    "conv3_d_infer_meta": Case(
        (t(-1, 2, -1, 6, 7), t(4, 3, 3, 3, 3)),
        ((1, 1, 1), (0, 0, 0), "EXPLICIT", 1, (1, 1, 1), "NCDHW"),
    ),
    "scatter_nd_add_infer_meta": Case((t(-1, 3, 5), t(-1, 2, dtype=I64), t(-1, 4))),
    "where_infer_meta": Case((t(-1, 3, dtype=BOOL), t(-1, 3), t(2))),
    "atan2_infer_meta": Case((t(-1, 3), t(-1, 4))),
    "complex_infer_meta": Case((t(-1, 3), t(-1, 4))),
    "lerp_infer_meta": Case((t(-1, 3), t(-1, 3), t(-1, 2))),

    "bmm_infer_meta": Case((t(-1, 3, 4), t(2, 5, 5))),
    "mv_infer_meta": Case((t(-1, 4), t(5))),
    "dot_infer_meta": Case((t(-1, 4), t(2, 5))),
    "cross_infer_meta": Case((t(-1, 3), t(2, 4)), (9,)),
    "inverse_infer_meta": Case((t(-1, 3, 4),)),
    "cholesky_infer_meta": Case((t(-1, 3, 4),), (False,)),
    "solve_infer_meta": Case((t(-1, 3, 3), t(2, 4, 2))),
    "triangular_solve_infer_meta": Case((t(-1, 3, 3), t(2, 4, 2)), (True, False, False)),
    "cholesky_solve_infer_meta": Case((t(4, 2), t(-1, 3, 3)), (False,)),
    "det_infer_meta": Case((t(-1, 3, 4),)),
    "slogdet_infer_meta": Case((t(-1, 3, 4),)),
    "matrix_power_infer_meta": Case((t(-1, 3, 4),), (2,)),
    "multi_dot_infer_meta": Case(([t(-1, 3), t(4, 5)],)),
    "dist_infer_meta": Case((t(-1, 3), t(2, 4)), (2.0,)),
    "addmm_infer_meta": Case((t(3), t(-1, 4), t(5, 3)), (1.0, 1.0)),
    "eigh_infer_meta": Case((t(-1, 3, 4),), ("L",), (0, 0)),
    "eigvals_infer_meta": Case((t(-1, 3, 4),)),
    "eigvalsh_infer_meta": Case((t(-1, 3, 4),), ("L", False), (0, 0)),
    "matrix_rank_tol_infer_meta": Case((t(2, -1, 4), t(3)), (False, False)),
}


# rnn (a one-layer LSTM; two-layer bidirectional GRU): x [T, B, I], pre_state, weight_list
_LSTM_WEIGHTS = [t(16, 3), t(16, 4), t(16), t(16)]
_GRU_WEIGHTS = [t(12, 3), t(12, 4), t(12, 3), t(12, 4), t(12, 8), t(12, 4), t(12, 8), t(12, 4)] + [
    t(12)
] * 8
CASES["rnn_infer_meta"] = [
    Case(
        (t(5, 2, 3), [t(1, 2, 4), t(1, 2, 4)], _LSTM_WEIGHTS, None),
        (0.0, False, 3, 4, 1, "LSTM", 0, False),
        (0, 0, 2, 0),
    ),
    Case(
        (t(5, 2, 3), [t(4, 2, 4)], _GRU_WEIGHTS, t(2, dtype=I64)),
        (0.0, True, 3, 4, 2, "GRU", 0, True),
        (0, 0, 1, 0),
        "gru bidirectional",
    ),
]
CASES["rnn_grad_infer_meta"] = [
    Case((t(5, 2, 3), [t(1, 2, 4), t(1, 2, 4)], _LSTM_WEIGHTS), (), (0, 2, 4))
]
MISMATCHES["rnn_infer_meta"] = Case(
    (t(5, -1, 3), [t(1, 2, 4), t(1, 3, 4)], _LSTM_WEIGHTS, None),
    (0.0, False, 3, 4, 1, "LSTM", 0, False),
    (0, 0, 2, 0),
)

# the fftspecial family (runtime/infermeta/fftspecial.py)
C128 = DataType.COMPLEX128
CASES["fftc2_c_infer_meta"] = [Case((t(3, 4, dtype=C64),), ((0, 1), "ortho", True))]
CASES["fftr2_c_infer_meta"] = [
    Case((t(3, 5),), ((1,), "backward", True, True)),
    Case((t(3, 5, dtype=F64),), ((0, 1), "forward", False, False), label="two-sided"),
]
CASES["fftc2_r_infer_meta"] = [
    Case((t(3, 4, dtype=C64),), ((1,), "backward", False, 0)),
    Case((t(3, 4, dtype=C128),), ((0, 1), "ortho", True, 7), label="last_dim_size"),
]
CASES["fftc2_r_grad_infer_meta"] = [Case((t(3, 6),), ((1,), "backward", False, 0))]
CASES["frame_infer_meta"] = [
    Case((t(2, 9),), (4, 2, -1)),
    Case((t(9, 2, 3),), (3, 3, 0), label="axis 0"),
]
CASES["overlap_add_infer_meta"] = [
    Case((t(2, 4, 3),), (2, -1)),
    Case((t(5, 3, 2),), (1, 0), label="axis 0"),
]
CASES["overlap_add_grad_infer_meta"] = [Case((t(2, 4, 3), t(2, 8)), (2, -1))]
CASES["logspace_infer_meta"] = [
    Case((t(1), t(1), t(1, dtype=DataType.INT32), t(1)), (F32,)),
]
CASES["max_out_infer_meta"] = [
    Case((t(2, 6, 3, 3),), (3, 1)),
    Case((t(2, 3, 3, 4),), (2, -1), label="nhwc"),
]
CASES["stft_infer_meta"] = [
    Case((t(2, 20), t(8)), (8, 3, False, True)),
    Case((t(2, 20, dtype=F64), t(8, dtype=F64)), (8, 4, True, False), label="two-sided"),
]

def _metas(value: Any, name: str) -> Any:
    if value is None:
        return None
    if isinstance(value, list):
        return [_metas(item, f"{name}[{i}]") for i, item in enumerate(value)]
    return MetaTensor(DenseTensorMeta.get(value.dtype, value.dims, DataLayout.NCHW), name)


def infer(function_name: str, case: Case, config: MetaConfig) -> list[Any]:
    """Run the function; each output as (dims, dtype), None when left unset, or a list."""
    inputs = [_metas(value, f"in{i}") for i, value in enumerate(case.inputs)]
    outputs = [
        [MetaTensor(name=f"out{i}[{j}]") for j in range(count)] if count else MetaTensor()
        for i, count in enumerate(case.outputs)
    ]
    INFER_META_FUNCTIONS[function_name](*inputs, *case.attrs, *outputs, config)

    def read(out: MetaTensor) -> Any:
        return (out.dims, out.dtype) if out.is_initialized else None

    return [[read(o) for o in out] if isinstance(out, list) else read(out) for out in outputs]


def _with_unknown(case: Case, which: tuple[int, int | None, int] | None) -> Case:
    """``case`` with input ``(index, list position, dim)`` unknown, or every extent when None."""

    def blank(value: T, dim: int | None, index: int | None = None) -> T:
        return T(
            tuple(
                e if (index, i) in case.known else -1 if dim is None or i == dim else e
                for i, e in enumerate(value.dims)
            ),
            value.dtype,
        )

    inputs = []
    for index, value in enumerate(case.inputs):
        if value is None:
            inputs.append(None)
        elif isinstance(value, list):
            inputs.append(
                [
                    (
                        blank(item, None)
                        if which is None
                        else (
                            blank(item, which[2])
                            if (which[0], which[1]) == (index, position)
                            else item
                        )
                    )
                    for position, item in enumerate(value)
                ]
            )
        elif which is None:
            inputs.append(blank(value, None, index))
        else:
            inputs.append(blank(value, which[2]) if which[0] == index else value)
    return Case(tuple(inputs), case.attrs, case.outputs, known=case.known)


def _unknown_variants(case: Case) -> list[tuple[Any, Case]]:
    variants: list[tuple[Any, Case]] = [("all", _with_unknown(case, None))]
    for index, value in enumerate(case.inputs):
        items = value if isinstance(value, list) else [value] if value is not None else []
        for position, item in enumerate(items):
            for dim in range(len(item.dims)):
                if (index, dim) in case.known and not isinstance(value, list):
                    continue
                where = (index, position if isinstance(value, list) else None, dim)
                variants.append((where, _with_unknown(case, where)))
    return variants


def _consistent(concrete: Any, inferred: Any) -> bool:
    """``inferred`` is ``concrete`` with some extents unknown."""
    if isinstance(concrete, list):
        return (
            isinstance(inferred, list)
            and len(concrete) == len(inferred)
            and all(_consistent(c, i) for c, i in zip(concrete, inferred))
        )
    if concrete is None or inferred is None:
        return concrete is inferred
    (dims, dtype), (got_dims, got_dtype) = concrete, inferred
    return (
        dtype is got_dtype
        and len(dims) == len(got_dims)
        and all(g in (d, UNKNOWN) for d, g in zip(dims, got_dims))
    )


# the losscum ops of issue 24 (runtime/infermeta/losscum.py)
CASES.update(
    {
        "bce_loss_infer_meta": [Case((t(2, 3), t(2, 3)))],
        "sigmoid_cross_entropy_with_logits_infer_meta": [
            Case((t(2, 3), t(2, 3), None), (False, -100)),
            Case((t(2, 3), t(2, 3), t(2, 3)), (True, -100), label="pos_weight"),
        ],
        "kl_div_infer_meta": [
            Case((t(2, 3), t(2, 3)), ("none", False)),
            Case((t(2, 3), t(2, 3)), ("batchmean", True), label="reduced"),
        ],
        "huber_loss_infer_meta": [Case((t(2, 3), t(2, 3)), (1.0,), (0, 0))],
        "nll_loss_raw_infer_meta": [
            Case((t(4, 3), t(4, dtype=I64), t(3)), (-100, "none"), (0, 0)),
            Case((t(2, 3, 4, 5), t(2, 4, 5, dtype=I64), None), (-100, "mean"), (0, 0), "4-D"),
        ],
        "nll_loss_grad_infer_meta": [
            Case((t(4, 3), t(4, dtype=I64), t(3), t(), t(4)), (-100, "none"))
        ],
        "log_loss_infer_meta": [Case((t(4, 1), t(4, 1)), (1e-4,))],
        "hinge_loss_infer_meta": [Case((t(4, 1), t(4, 1)))],
        "identity_loss_infer_meta": [
            Case((t(2, 3),), (1,)),
            Case((t(2, 3),), (2,), label="none"),
        ],
        "identity_loss_grad_infer_meta": [Case((t(2, 3), t()), (1,))],
        "mean_all_infer_meta": [Case((t(2, 3),))],
        "unchanged_except_layout_infer_meta": [Case((t(2, 3),))],
    }
)
MISMATCHES.update(
    {
        "bce_loss_infer_meta": Case((t(2, 3), t(2, 4))),
        "sigmoid_cross_entropy_with_logits_infer_meta": Case(
            (t(2, 3), t(2, 3), t(2, 4)), (False, -100)
        ),
        "kl_div_infer_meta": Case((t(2, 3), t(3, 3)), ("none", False)),
        "huber_loss_infer_meta": Case((t(2, 3), t(2, 1)), (1.0,), (0, 0)),
        "nll_loss_raw_infer_meta": Case(
            (t(4, 3), t(5, dtype=I64), None), (-100, "none"), (0, 0)
        ),
        "log_loss_infer_meta": Case((t(4, 1), t(3, 1)), (1e-4,)),
        "hinge_loss_infer_meta": Case((t(4, 1), t(5, 1))),
    }
)

# the cumulative losscum ops of issue 24 (runtime/infermeta/losscum.py)
CASES.update(
    {
        "cum_infer_meta": [
            Case((t(2, 3),), (1, False, False, False)),
            Case((t(2, 3),), (-1, True, True, True), label="flatten"),
        ],
        "cum_with_indices_infer_meta": [
            Case((t(2, 3),), (0, DataType.INT64), (0, 0)),
            Case((t(2, 3),), (-1, DataType.INT32), (0, 0), label="int32"),
        ],
        "is_empty_infer_meta": [Case((t(2, 3),))],
        "compare_all_infer_meta": [Case((t(2, 3), t(3)))],
    }
)

# the normup ops (runtime/infermeta/normup.py)
CASES.update(
    {
        "r_relu_infer_meta": [Case((t(2, 3),), (0.1, 0.3, False), (0, 0))],
        "r_relu_grad_infer_meta": [Case((t(2, 3), t(2, 3)))],
    }
)

# the nnmisc ops (runtime/infermeta/nnmisc.py)
_CTC_LABEL, _CTC_LENGTH = t(2, 3, dtype=DataType.INT32), t(2, dtype=DataType.INT64)
CASES["warpctc_infer_meta"] = [
    Case((t(5, 2, 4), _CTC_LABEL, _CTC_LENGTH, _CTC_LENGTH), (0, False), (0, 0))
]
MISMATCHES["warpctc_infer_meta"] = Case(
    (t(5, 2, 4), t(3, 3, dtype=DataType.INT32), _CTC_LENGTH, _CTC_LENGTH), (0, False), (0, 0)
)

# the unpool ops of the convpool family (runtime/infermeta/convpool.py)
CASES.update(
    {
        "unpool_infer_meta": [
            Case(
                (t(2, 3, 2, 3), t(2, 3, 2, 3, dtype=DataType.INT32)),
                ((2, 2), (2, 2), (0, 0), (4, 6), "NCHW"),
            )
        ],
        "unpool3d_infer_meta": [
            Case(
                (t(1, 2, 2, 2, 3), t(1, 2, 2, 2, 3, dtype=I64)),
                ((2, 2, 2), (2, 2, 2), (0, 0, 0), (4, 4, 6), "NCDHW"),
            )
        ],
    }
)

# the linalg24 ops of issue 24 (runtime/infermeta/linalg24.py): int32 pivots, complex eigenpairs
I32 = DataType.INT32
CASES.update(
    {
        "lu_infer_meta": [
            Case((t(2, 3, 4),), (True,), (0, 0, 0)),
            Case((t(4, 3),), (True,), (0, 0, 0), label="tall"),
        ],
        "lu_grad_infer_meta": [Case((t(3, 3), t(3, 3), t(3, dtype=I32), t(3, 3)), (True,))],
        "lu_unpack_infer_meta": [
            Case((t(2, 4, 3), t(2, 3, dtype=I32)), (True, True), (0, 0, 0)),
            Case((t(3, 3), t(3, dtype=I32)), (False, False), (0, 0, 0), label="flags"),
        ],
        "lu_unpack_grad_infer_meta": [
            Case(
                (t(3, 3), t(3, dtype=I32), t(3, 3), t(3, 3), t(3, 3), t(3, 3), t(3, 3)),
                (True, True),
            )
        ],
        "eig_infer_meta": [Case((t(2, 3, 3),), (), (0, 0))],
        "eig_grad_infer_meta": [
            Case((t(3, dtype=C64), t(3, 3, dtype=C64), t(3, dtype=C64), t(3, 3, dtype=C64)))
        ],
        "lstsq_infer_meta": [
            Case((t(2, 5, 3), t(2, 5, 2)), (0.0, "gelsd"), (0, 0, 0, 0), known=((0, 1), (0, 2))),
            Case((t(3, 5), t(3, 2)), (0.0, "gelsy"), (0, 0, 0, 0), label="gelsy"),
        ],
        "matrix_rank_atol_rtol_infer_meta": [
            Case((t(2, 3, 4), t(2), t(3, 1)), (False,)),
            Case((t(2, 3, 3), t(), None), (True,), label="hermitian"),
        ],
        "baddbmm_infer_meta": [
            Case((t(2, 3, 5), t(2, 3, 4), t(2, 4, 5)), (0.5, 2.0)),
            Case((t(2, 5), t(2, 3, 4), t(2, 4, 5)), (1.0, 1.0), label="2d-input"),
        ],
    }
)

# the search24 ops of issue 24 (runtime/infermeta/search24.py)
CASES.update(
    {
        "kthvalue_infer_meta": [
            Case((t(2, 3),), (2, 1, False), (0, 0)),
            Case((t(2, 3),), (1, 0, True), (0, 0), label="keepdim"),
        ],
        "mode_infer_meta": [Case((t(2, 3),), (-1, False), (0, 0))],
        "nanmedian_infer_meta": [
            Case((t(2, 3),), ((1,), False, "avg"), (0, 0)),
            Case((t(2, 3, 4),), ((0, 2), True, "min"), (0, 0), label="min-keepdim"),
            Case((t(2, 3),), ((), False, "avg"), (0, 0), label="all"),
        ],
        "nanmedian_grad_infer_meta": [
            Case((t(2, 3), t(2), t(2, 2, dtype=I64), t(2)), ((1,), False, "avg"))
        ],
        "searchsorted_infer_meta": [
            Case((t(5), t(2, 3)), (False, False)),
            Case((t(2, 5), t(2, 3)), (True, True), label="rows"),
        ],
        "bincount_infer_meta": [
            Case((t(5, dtype=I64), None), (0,)),
            Case((t(5, dtype=I64), t(5)), (2,), label="weights"),
        ],
        "histogram_infer_meta": [
            Case((t(2, 3), None), (4, 0.0, 0.0, False)),
            Case((t(2, 3), t(2, 3)), (4, 0.0, 1.0, True), label="weight"),
        ],
    }
)
CASES.update(
    {
        "index_sample_infer_meta": [Case((t(3, 4), t(3, 2, dtype=I64)))],
        "repeat_interleave_infer_meta": [
            Case((t(2, 3),), (2, 1, -1)),
            Case((t(2, 3),), (2, 0, 3), label="output_size"),
        ],
        "repeat_interleave_with_tensor_index_infer_meta": [
            Case((t(2, 3), t(3, dtype=I64)), (1, -1)),
            Case((t(2, 3), t(2, dtype=I64)), (0, 4), label="output_size"),
        ],
        "un_stack_infer_meta": [Case((t(2, 3),), (1, 3), (3,))],
        # the count of outputs is the extent along axis: known while building, or rejected
        "unbind_infer_meta": [Case((t(2, 3),), (1,), (3,), known=((0, 1),))],
        "un_stack_grad_infer_meta": [Case(([t(2), t(2), t(2)],), (1,))],
        "reverse_infer_meta": [Case((t(2, 3),), ((0, -1),))],
    }
)
MISMATCHES.update(
    {
        "unpool_infer_meta": Case(
            (t(2, -1, 2, 3), t(2, 3, 2, 4, dtype=DataType.INT32)),
            ((2, 2), (2, 2), (0, 0), (4, 6), "NCHW"),
        ),
        "unpool3d_infer_meta": Case(
            (t(-1, 2, 2, 2, 3), t(1, 3, 2, 2, 3, dtype=I64)),
            ((2, 2, 2), (2, 2, 2), (0, 0, 0), (4, 4, 6), "NCDHW"),
        ),
        # the linalg24 ops
        "lu_unpack_infer_meta": Case((t(-1, 3, 4), t(2, 2, dtype=I32)), (True, True), (0, 0, 0)),
        "eig_infer_meta": Case((t(-1, 3, 4),), (), (0, 0)),
        "lstsq_infer_meta": Case((t(-1, 5, 3), t(2, 4, 2)), (0.0, "gelsd"), (0, 0, 0, 0)),
        "matrix_rank_atol_rtol_infer_meta": Case((t(-1, 2, 3, 4), t(3), None), (False,)),
        "baddbmm_infer_meta": Case((t(2, 3, 5), t(-1, 3, 4), t(2, 5, 5)), (1.0, 1.0)),
        # the search24 ops
        "index_sample_infer_meta": Case((t(3, 4), t(2, 2, dtype=I64))),
        "repeat_interleave_with_tensor_index_infer_meta": Case(
            (t(2, 3), t(2, dtype=I64)), (1, -1)
        ),
        "un_stack_grad_infer_meta": Case(([t(2), t(3)],), (0,)),
        "searchsorted_infer_meta": Case((t(2, 5), t(3, 3)), (False, False)),
        "bincount_infer_meta": Case((t(5, dtype=I64), t(4)), (0,)),
        "histogram_infer_meta": Case((t(2, 3), t(3, 2)), (4, 0.0, 0.0, False)),
    }
)

# the dist30 family (issue 30): p_send has no output; p_recv's shape comes from the sender
CASES.update(
    {
        "p_send_infer_meta": [Case((t(2, 3),), (1,), ())],
        "p_recv_infer_meta": [Case((), (1, F32))],
        "c_embedding_infer_meta": [Case((t(4, 3), t(2, 5, dtype=I64)), (4,))],
        "embedding_grad_infer_meta": [Case((t(2, 5, dtype=I64), t(4, 3)))],
    }
)

# the quant24 quantization ops of issue 24 (runtime/infermeta/quant24.py)
_I8, _I16 = DataType.INT8, DataType.INT16
CASES.update(
    {
        "fake_quantize_abs_max_infer_meta": [Case((t(2, 3),), (8, 1), (0, 0))],
        "fake_channel_wise_quantize_abs_max_infer_meta": [
            Case((t(2, 3),), (8, 1, 0, False), (0, 0)),
            Case((t(2, 3, 4),), (8, 0, 1, False), (0, 0), label="axis1"),
        ],
        "fake_channel_wise_quantize_dequantize_abs_max_infer_meta": [
            Case((t(2, 3),), (8, 1, 1), (0, 0))
        ],
        "fake_dequantize_max_abs_infer_meta": [Case((t(2, 3), t(1)), (127.0,))],
        "fake_channel_wise_dequantize_max_abs_infer_meta": [
            Case((t(2, 3), [t(2)]), ((8,), 0, 1)),
            Case((t(2, 3, 4), [t(4), t(1)]), ((8, 4), 0, 2), label="two-scales"),
        ],
        "fake_quantize_range_abs_max_infer_meta": [
            Case((t(2, 3), t(1), t(1, dtype=I64)), (10, 8, False, 1), (0, 0, 0)),
            Case((t(2, 3), t(1), None), (10, 8, True, 1), (0, 0, 0), label="test"),
        ],
        "fake_quant_or_with_dequant_moving_average_abs_max_infer_meta": [
            Case((t(2, 3), t(1), t(1), t(1)), (0.9, 8, False, 1), (0, 0, 0, 0)),
            Case((t(2, 3), t(1), None, None), (0.9, 8, True, 1), (0, 0, 0, 0), label="test"),
        ],
        "dequantize_abs_max_infer_meta": [Case((t(2, 3, dtype=_I8), t(1)), (127.0,))],
        "dequantize_log_infer_meta": [Case((t(2, 3, dtype=_I8), t(128)), ())],
        "lookup_table_dequant_infer_meta": [Case((t(5, 4), t(2, 3, 1, dtype=I64)), (-1,))],
        "decayed_adagrad_infer_meta": [
            Case((t(2, 3), t(2, 3), t(2, 3), t(1)), (0.95, 1e-6), (0, 0))
        ],
        "ftrl_infer_meta": [
            Case((t(2, 3), t(2, 3), t(2, 3), t(2, 3), t(1)), (0.0, 0.0, -0.5), (0, 0, 0))
        ],
        "fused_adam_infer_meta": [
            Case(
                (
                    [t(2, 3), t(4)], [t(2, 3), t(4)], t(1), [t(2, 3), t(4)], [t(2, 3), t(4)],
                    [t(2, 3), t(4)], [t(1), t(1)], [t(1), t(1)], None, t(1, dtype=BOOL),
                ),
                (0.9, 0.999, 1e-8, 4096, 0.01, True, False, False, True),
                (2, 2, 2, 2, 2, 2, 2),
            )
        ],
    }
)
MISMATCHES.update(
    {
        "fake_channel_wise_dequantize_max_abs_infer_meta": Case(
            (t(2, 3), [t(3)]), ((8,), 0, 1)
        ),
        "fake_dequantize_max_abs_infer_meta": Case((t(2, 3), t(2)), (127.0,)),
        "dequantize_log_infer_meta": Case((t(2, 3, dtype=_I8), t(100)), ()),
        "lookup_table_dequant_infer_meta": Case((t(5, 4), t(2, 3, dtype=I64)), (-1,)),
        "decayed_adagrad_infer_meta": Case((t(2, 3), t(3, 3), t(2, 3), t(1)), (0.95, 1e-6), (0, 0)),
        "ftrl_infer_meta": Case(
            (t(2, 3), t(2, 3), t(2, 4), t(2, 3), t(1)), (0.0, 0.0, -0.5), (0, 0, 0)
        ),
        "fused_adam_infer_meta": Case(
            (
                [t(-1, 3), t(4)], [t(-1, 3), t(5)], t(1), [t(-1, 3), t(4)], [t(-1, 3), t(4)],
                None, [t(1), t(1)], [t(1), t(1)], None, None,
            ),
            (0.9, 0.999, 1e-8, 4096, 0.01, False, False, False, False),
            (2, 2, 2, 2, 2, 2, 2),
        ),
    }
)

# the detect24 ops of issue 24 (runtime/infermeta/detect24.py)
CASES.update(
    {
        "box_clip_infer_meta": [
            Case((t(6, 4), t(3, 3))),
            Case((t(2, 5, 4), t(2, 3)), label="3-D"),
        ],
        "bipartite_match_infer_meta": [Case((t(3, 5),), ("bipartite", 0.5), (0, 0))],
        "matrix_nms_infer_meta": [
            Case((t(2, 6, 4), t(2, 3, 6)), (0.1, -1, -1, 0.0, False, 2.0, 0, True), (0, 0, 0)),
        ],
        "generate_proposals_v2_infer_meta": [
            Case(
                (t(2, 3, 4, 5), t(2, 12, 4, 5), t(2, 2), t(4, 5, 3, 4), t(4, 5, 3, 4)),
                (20, 10, 0.5, 0.1, 1.0, True),
                (0, 0, 0),
            )
        ],
        "collect_fpn_proposals_infer_meta": [
            Case(
                ([t(3, 4), t(2, 4)], [t(3, 1), t(2, 1)],
                 [t(2, dtype=DataType.INT32), t(2, dtype=DataType.INT32)]),
                (4,),
                (0, 0),
            ),
            Case(([t(3, 4)], [t(3, 1)], None), (4,), (0, 0), label="no counts"),
        ],
        "psroi_pool_infer_meta": [
            Case((t(2, 8, 5, 6), t(3, 4), t(2, dtype=DataType.INT32)), (2, 2, 2, 0.5)),
            Case((t(1, 3, 5, 6), t(3, 4), None), (1, 1, 3, 1.0), label="no boxes_num"),
        ],
        "affine_channel_infer_meta": [
            Case((t(2, 3, 4), t(3), t(3)), ("NCHW",)),
            Case((t(2, 3, 4), t(4), t(4)), ("AnyLayout",), label="channels last"),
        ],
    }
)
MISMATCHES.update(
    {
        "box_clip_infer_meta": Case((t(-1, 5), t(3, 3))),
        "matrix_nms_infer_meta": Case(
            (t(2, -1, 4), t(3, 3, 6)), (0.1, -1, -1, 0.0, False, 2.0, 0, True), (0, 0, 0)
        ),
        "generate_proposals_v2_infer_meta": Case(
            (t(2, 3, -1, 5), t(2, 8, 4, 5), t(2, 2), t(4, 5, 3, 4), t(4, 5, 3, 4)),
            (20, 10, 0.5, 0.1, 1.0, True),
            (0, 0, 0),
        ),
        "collect_fpn_proposals_infer_meta": Case(
            ([t(-1, 4), t(2, 4)], [t(3, 1), t(3, 1)], None), (4,), (0, 0)
        ),
        "psroi_pool_infer_meta": Case(
            (t(2, 6, -1, 6), t(3, 4), t(-1, dtype=DataType.INT32)), (2, 2, 2, 0.5)
        ),
        "affine_channel_infer_meta": Case((t(2, 3, -1), t(4), t(-1)), ("NCHW",)),
    }
)

# the seq24 ops of issue 24 (runtime/infermeta/seq24.py)
CASES.update(
    {
        "gather_tree_infer_meta": [Case((t(3, 2, 4, dtype=I64), t(3, 2, 4, dtype=I64)))],
        "viterbi_decode_infer_meta": [
            Case((t(2, 5, 4), t(4, 4), t(2, dtype=I64)), (True,), (0, 0)),
            Case((t(2, 5, 1), t(1, 1), t(2, dtype=I64)), (False,), (0, 0), label="one-tag"),
        ],
        "edit_distance_infer_meta": [
            Case((t(3, 5, dtype=I64), t(3, 4, dtype=I64), t(3, dtype=I64), t(3, dtype=I64)),
                 (False,), (0, 0)),
        ],
        "ctc_align_infer_meta": [
            Case((t(3, 5, dtype=I64), t(3, 1, dtype=I64)), (0, True, 0), (0, 0)),
            Case((t(3, 5, dtype=I64), t(3, dtype=I64)), (0, False, 0), (0, 0), label="1-D"),
        ],
        "crf_decoding_infer_meta": [
            Case((t(2, 5, 3), t(5, 3), None, t(2, dtype=I64))),
            Case((t(2, 5, 3), t(5, 3), t(2, 5, 1, dtype=I64), t(2, 1, dtype=I64)),
                 label="label"),
        ],
        "chunk_eval_infer_meta": [
            Case((t(2, 6, dtype=I64), t(2, 6, dtype=I64), t(2, dtype=I64)), (2, "IOB", ()),
                 (0, 0, 0, 0, 0, 0)),
        ],
        "add_position_encoding_infer_meta": [Case((t(2, 5, 4),), (1.0, 1.0))],
        "swi_glu_infer_meta": [
            Case((t(2, 4), t(2, 4))),
            Case((t(2, 4), None), label="split"),
        ],
        "swi_glu_grad_infer_meta": [
            Case((t(2, 4), t(2, 4)), (), (0, 0)),
            Case((t(2, 4), None), (), (0, 0), label="split"),
        ],
        "softmax_mask_fuse_infer_meta": [Case((t(2, 3, 4, 5), t(2, 1, 4, 5)))],
        "bilinear_infer_meta": [
            Case((t(3, 4), t(3, 2), t(5, 4, 2), t(1, 5))),
            Case((t(3, 4), t(3, 2), t(5, 4, 2), None), label="no-bias"),
        ],
        "bilinear_grad_infer_meta": [
            Case((t(3, 4), t(3, 2), t(5, 4, 2), t(3, 5)), (), (0, 0, 0, 0))
        ],
        "cvm_infer_meta": [
            Case((t(3, 5), t(3, 2)), (True,)),
            Case((t(3, 5), t(3, 2)), (False,), label="drop"),
        ],
        "segment_pool_infer_meta": [
            Case((t(5, 3), t(5, dtype=I64)), ("SUM",), (0, 0)),
        ],
        "send_u_recv_infer_meta": [
            Case((t(4, 3), t(6, dtype=I64), t(6, dtype=I64)), ("SUM", (0,)), (0, 0)),
            Case((t(4, 3), t(6, dtype=I64), t(6, dtype=I64)), ("MAX", (7,)), (0, 0), label="size"),
        ],
        "send_ue_recv_infer_meta": [
            Case((t(4, 3), t(6, 1), t(6, dtype=I64), t(6, dtype=I64)), ("ADD", "SUM", (0,)), (0, 0)),
            Case((t(4, 1, 3), t(6, 2, 1), t(6, 1, dtype=I64), t(6, 1, dtype=I64)),
                 ("MUL", "MAX", (7,)), (0, 0), label="size"),
        ],
        "send_uv_infer_meta": [
            Case((t(4, 3), t(5, 1), t(6, dtype=I64), t(6, dtype=I64)), ("ADD",), (0,)),
        ],
        "graph_reindex_infer_meta": [
            Case((t(3, dtype=I64), t(7, dtype=I64), t(3, dtype=I32), None, None), (), (0, 0, 0)),
        ],
    }
)  # fmt: skip
MISMATCHES.update(
    {
        "gather_tree_infer_meta": Case((t(3, 2, 4, dtype=I64), t(3, 2, 5, dtype=I64))),
        "viterbi_decode_infer_meta": Case((t(2, 5, 4), t(3, 4), t(2, dtype=I64)), (True,), (0, 0)),
        "edit_distance_infer_meta": Case(
            (t(3, 5, dtype=I64), t(2, 4, dtype=I64), t(3, dtype=I64), t(3, dtype=I64)),
            (False,), (0, 0),
        ),
        "ctc_align_infer_meta": Case((t(3, 5, dtype=I64), t(2, 1, dtype=I64)), (0, True, 0), (0, 0)),
        "crf_decoding_infer_meta": Case((t(2, 5, 3), t(5, 4), None, t(2, dtype=I64))),
        "chunk_eval_infer_meta": Case(
            (t(2, 6, dtype=I64), t(2, 5, dtype=I64), t(2, dtype=I64)), (2, "IOB", ()),
            (0, 0, 0, 0, 0, 0),
        ),
        "swi_glu_infer_meta": Case((t(2, 4), t(2, 5))),
        "softmax_mask_fuse_infer_meta": Case((t(2, 3, 4, 5), t(2, 1, 4, 6))),
        "bilinear_infer_meta": Case((t(3, 4), t(3, 2), t(5, 4, 3), None)),
        "cvm_infer_meta": Case((t(3, 5), t(2, 2)), (True,)),
        "segment_pool_infer_meta": Case((t(5, 3), t(4, dtype=I64)), ("SUM",), (0, 0)),
        "send_u_recv_infer_meta": Case(
            (t(4, 3), t(6, dtype=I64), t(5, dtype=I64)), ("SUM", (0,)), (0, 0)
        ),
        "send_ue_recv_infer_meta": Case(
            (t(4, 3), t(6, 1), t(6, dtype=I64), t(5, dtype=I64)), ("ADD", "SUM", (0,)), (0, 0)
        ),
        "send_uv_infer_meta": Case((t(4, 3), t(5, 1), t(6, dtype=I64), t(5, dtype=I64)), ("ADD",), (0,)),
    }
)  # fmt: skip

# the quant24b ops of issue 24 (runtime/infermeta/quant24b.py)
CASES["average_accumulates_infer_meta"] = [
    Case(
        (t(2, 3), t(2, 3), t(2, 3), t(2, 3), t(1, dtype=I64), t(1, dtype=I64), t(1, dtype=I64)),
        (0.0, 2**63 - 1, 10000),
        (0, 0, 0, 0, 0, 0),
    )
]
CASES["clip_by_norm_infer_meta"] = [Case((t(2, 3),), (1.0,))]
CASES["dpsgd_infer_meta"] = [Case((t(2, 3), t(2, 3), t(1)), (10.0, 16.0, 1.0, 0))]
MISMATCHES["dpsgd_infer_meta"] = Case((t(2, 3), t(2, 4), t(1)), (10.0, 16.0, 1.0, 0))
MISMATCHES["average_accumulates_infer_meta"] = Case(
    (t(2, 3), t(2, 4), t(2, 3), t(2, 3), t(1, dtype=I64), t(1, dtype=I64), t(1, dtype=I64)),
    (0.0, 2**63 - 1, 10000),
    (0, 0, 0, 0, 0, 0),
)

# the train24 ops of issue 24 (runtime/infermeta/train24.py)
CASES["check_finite_and_unscale_infer_meta"] = [Case(([t(2, 3), t(4)], t(1)), (), (2, 0))]
CASES["update_loss_scaling_infer_meta"] = [
    Case(
        ([t(2, 3), t(4)], t(1, dtype=DataType.BOOL), t(1), t(1, dtype=I32), t(1, dtype=I32)),
        (),
        (2, 0, 0, 0),
    )
]
CASES["norm_infer_meta"] = [
    Case((t(2, 3, 4),), (1, 1e-10, False), (0, 0), label="axis1"),
    Case((t(2, 3, 4),), (-1, 1e-10, True), (0, 0), label="is_test"),
]
CASES["accuracy_infer_meta"] = [
    Case((t(5, 2), t(5, 2, dtype=I64), t(5, 1, dtype=I64)), (), (0, 0, 0))
]
CASES["auc_infer_meta"] = [
    Case((t(5, 2), t(5, 1, dtype=I64), t(1, 5, dtype=I64), t(1, 5, dtype=I64), None), ("ROC", 4, 0), (0, 0, 0)),
    Case((t(5, 1), t(5, 1, dtype=I64), t(11, dtype=I64), t(11, dtype=I64), t(1)), ("ROC", 4, 1), (0, 0, 0), label="slide"),
]
MISMATCHES["auc_infer_meta"] = Case(
    (t(5, 2), t(4, 1, dtype=I64), t(1, 5, dtype=I64), t(1, 5, dtype=I64), None), ("ROC", 4, 0), (0, 0, 0)
)
MISMATCHES["accuracy_infer_meta"] = Case(
    (t(5, 2), t(5, 2, dtype=I64), t(4, 1, dtype=I64)), (), (0, 0, 0)
)

def test_an_unknown_extent_is_taken_from_the_other_operand_where_known() -> None:
    [(dims, _)] = infer("elementwise_infer_meta", Case((t(-1, 3), t(4, 3))), COMPILE)
    assert dims == (4, 3)
    [(dims, _)] = infer("elementwise_infer_meta", Case((t(-1, 3), t(1, 3))), COMPILE)
    assert dims == (-1, 3)
    [(dims, _)] = infer("concat_infer_meta", Case(([t(2, -1), t(-1, 5)],), (0,)), COMPILE)
    assert dims == (-1, 5)
    [(dims, _)] = infer("stack_infer_meta", Case(([t(-1, 3), t(2, -1)],), (0,)), COMPILE)
    assert dims == (2, 2, 3)


def test_reshape_with_an_unknown_input_extent_leaves_its_minus_one_unknown() -> None:
    [(dims, _)] = infer("reshape_infer_meta", Case((t(-1, 6),), ((-1, 2, 3),)), COMPILE)
    assert dims == (-1, 2, 3)
    [(dims, _)] = infer("reshape_infer_meta", Case((t(-1, 6),), ((0, 2, 3),)), COMPILE)
    assert dims == (-1, 2, 3)


def test_unknown_extents_are_rejected_where_a_run_time_check_needs_them() -> None:
    with pytest.raises(InvalidArgumentError, match="argument 'grad'"):
        infer("sgd_infer_meta", Case((t(2, 3), t(1), t(-1, 3), None), (False,), (0, 0)), RUNTIME)
    with pytest.raises(InvalidArgumentError, match="argument 'shape' must hold sizes >= 0"):
        infer("create_infer_meta", Case((), ((-1, 3), F32)), RUNTIME)
    [(dims, _)] = infer("create_infer_meta", Case((), ((-1, 3), F32)), COMPILE)
    assert dims == (-1, 3)


def test_a_named_unknown_extent_is_squeezed_while_building_a_graph() -> None:
    [(dims, _)] = infer("squeeze_infer_meta", Case((t(2, -1, 3),), ((1,),)), COMPILE)
    assert dims == (2, 3)
    [(dims, _)] = infer("squeeze_infer_meta", Case((t(2, -1, 3),), ((),)), COMPILE)
    assert dims == (2, -1, 3)


def test_dims_helpers() -> None:
    assert numel((2, 3)) == 6 and numel((2, -1)) == UNKNOWN
    assert sum_extents((2, 3)) == 5 and sum_extents((2, -1)) == UNKNOWN
    assert extents_match(-1, 3, COMPILE) and not extents_match(-1, 3, RUNTIME)
    assert dims_match((-1, 3), (2, 3), COMPILE) and not dims_match((-1, 3), (2, 4), COMPILE)
    assert not dims_match((2,), (2, 1), COMPILE)


def test_issue8_functions_leave_extents_computed_from_unknown_ones_unknown() -> None:
    # PaddlePaddle 3.3.1 builds paddle.diag of a [-1] vector as [0, 0] (-1 + offset) and
    # cumsum of a [-1, 3] tensor as [-3] (a product with -1 in it): both unknown here.
    [(dims, _)] = infer("diag_infer_meta", Case((t(-1),), (1, 0.0)), COMPILE)
    assert dims == (-1, -1)
    [(dims, _)] = infer(
        "cum_scalar_axis_infer_meta", Case((t(-1, 3),), (0, True, False, False)), COMPILE
    )
    assert dims == (-1,)
    [(dims, _)] = infer("tile_infer_meta", Case((t(-1, 3),), ((2, 2),)), COMPILE)
    assert dims == (-1, 6)
    [(dims, _)] = infer("pad_infer_meta", Case((t(-1, 3),), ((1, 1, 2, 0), 0.0)), COMPILE)
    assert dims == (-1, 5)
    [pieces] = infer("split_with_num_infer_meta", Case((t(-1, 3),), (3, 0), (3,)), COMPILE)
    assert [dims for dims, _ in pieces] == [(-1, 3)] * 3
    [(dims, _)] = infer("add_n_infer_meta", Case(([t(-1, 3), t(2, -1)],)), COMPILE)
    assert dims == (2, 3)
    # A known extent is still checked: k beyond it, alpha against a known channel count.
    with pytest.raises(InvalidArgumentError, match="argument 'k'"):
        infer("top_k_infer_meta", Case((t(-1, 2),), (3, 1, True, True), (0, 0)), COMPILE)
    infer("top_k_infer_meta", Case((t(2, -1),), (3, 1, True, True), (0, 0)), COMPILE)
    with pytest.raises(InvalidArgumentError, match="argument 'alpha'"):
        infer("p_relu_infer_meta", Case((t(-1, 3, -1), t(4)), ("NCHW", "channel")), COMPILE)
    with pytest.raises(InvalidArgumentError, match="argument 'alpha'"):
        infer("p_relu_infer_meta", Case((t(-1, 3, 4), t(1, 5)), ("NCHW", "element")), COMPILE)


def test_scatter_checks_updates_against_the_known_extents_only() -> None:
    case = Case((t(-1, 3), t(-1, -1, dtype=I64), t(4, 3)), (True,))
    [(dims, _)] = infer("scatter_infer_meta", case, COMPILE)
    assert dims == (-1, 3)
    with pytest.raises(InvalidArgumentError, match="argument 'index' must be 0-D or 1-D"):
        infer("scatter_infer_meta", Case((t(5, 3), t(2, 2, dtype=I64), t(2, 3)), (True,)), COMPILE)
    with pytest.raises(InvalidArgumentError, match="argument 'updates' must have dims"):
        infer("scatter_infer_meta", Case((t(5, 3), t(2, dtype=I64), t(-1, 4)), (True,)), COMPILE)


def test_a_slice_of_an_unknown_extent_is_unknown() -> None:
    # As PaddlePaddle 3.3.1 builds paddle.slice(x, [0, 1], [1, 1], [3, 4]) of a [-1, 5] x.
    case = Case((t(-1, 5),), ((0, 1), (1, 1), (3, 4), (), ()))
    [(dims, _)] = infer("slice_raw_infer_meta", case, COMPILE)
    assert dims == (-1, 3)
    case = Case((t(-1, 5),), ((0, 1), (0, 0), (4, 5), (2, 2)))
    [(dims, _)] = infer("strided_slice_infer_meta", case, COMPILE)
    assert dims == (-1, 3)
    # An unknown axis may be removed (its size 1 is checked at run time); a known one of size 2
    # may not.
    case = Case((t(-1, 5),), ((0, 1), (1, 2), (2, 3), (), (0, 1)))
    [(dims, _)] = infer("slice_raw_infer_meta", case, COMPILE)
    assert dims == ()
    with pytest.raises(InvalidArgumentError, match="argument 'decrease_axis' removes axis 1"):
        infer("slice_raw_infer_meta", Case((t(-1, 5),), ((1,), (1,), (3,), (), (1,))), COMPILE)

# the manip24 ops of issue 24 (runtime/infermeta/manip24.py)
CASES.update(
    {
        "unique_consecutive_infer_meta": [
            Case((t(2, 3),), (True, True, (), I64), (0, 0, 0)),
            Case((t(2, 3),), (True, False, (-1,), DataType.INT32), (0, 0, 0), label="axis"),
        ],
        "index_add_infer_meta": [
            Case((t(3, 4), t(2, dtype=I64), t(2, 4)), (0,)),
            Case((t(3, 4), t(3, dtype=I64), t(3, 3)), (-1,), label="negative-axis"),
        ],
        "index_add_grad_infer_meta": [Case((t(2, dtype=I64), t(2, 4), t(3, 4)), (0,), (0, 0))],
        "expand_as_infer_meta": [
            Case((t(3, 1), t(2, 3, 4)), ((),)),
            Case((t(3, 1), None), ((2, 3, 5),), label="target_shape"),
        ],
        "multiplex_infer_meta": [Case(([t(4, 3), t(4, 3)], t(4, 1, dtype=I64)))],
        "multiplex_grad_infer_meta": [Case((t(4, 1, dtype=I64), t(4, 3)), (), (2,))],
        "broadcast_tensors_infer_meta": [Case(([t(2, 1, 3), t(4, 1), t()],), (), (3,))],
        "tril_indices_infer_meta": [Case((), (4, 3, 0, I64))],
        "triu_indices_infer_meta": [Case((), (4, 3, -1, DataType.INT32))],
        "fill_diagonal_infer_meta": [Case((t(3, 4),), (1.0, 0, False))],
        "fill_diagonal_grad_infer_meta": [Case((t(3, 4),), (1.0, 1, True))],
        "fill_diagonal_tensor_infer_meta": [
            Case((t(2, 3, 4), t(2, 3)), (-1, 2, 1)),
            Case((t(3, 4), t(3)), (1, 0, 1), label="offset"),
        ],
        "fill_diagonal_tensor_grad_infer_meta": [Case((t(2, 3, 4),), (0, 0, -1))],
        "numel_infer_meta": [Case((t(2, 3),))],
        "bitwise_shift_infer_meta": [Case((t(2, 1, dtype=I64), t(3, dtype=I64)), (True,))],
    }
)
MISMATCHES.update(
    {
        "index_add_infer_meta": Case((t(3, 4), t(2, dtype=I64), t(2, 5)), (0,)),
        "index_add_grad_infer_meta": Case((t(2, dtype=I64), t(2, 5), t(3, 4)), (0,), (0, 0)),
        "expand_as_infer_meta": Case((t(3, 2), t(2, 3, 4)), ((),)),
        "multiplex_infer_meta": Case(([t(4, 3), t(4, 2)], t(4, 1, dtype=I64))),
        "broadcast_tensors_infer_meta": Case(([t(2, 3), t(4)],), (), (2,)),
        "fill_diagonal_tensor_infer_meta": Case((t(3, 4), t(2)), (0, 0, 1)),
        "bitwise_shift_infer_meta": Case((t(2, 3, dtype=I64), t(4, dtype=I64)), (False,)),
    }
)

# the random24 ops of issue 24 (runtime/infermeta/random24.py)
CASES.update(
    {
        "binomial_infer_meta": [Case((t(2, 3), t(2, 3)))],
        "dirichlet_infer_meta": [Case((t(2, 3),))],
        "uniform_random_inplace_infer_meta": [Case((t(2, 3),), (-1.0, 1.0, 0, 0, 0, 1.0))],
        "uniform_random_inplace_grad_infer_meta": [Case((t(2, 3),), (-1.0, 1.0, 0, 0, 0, 1.0))],
        "multinomial_infer_meta": [
            Case((t(4),), (3, True)),
            Case((t(2, 4),), (2, False), label="rows"),
        ],
    }
)
CASES.update(
    {
        "truncated_gaussian_random_infer_meta": [
            Case((), ((2, 3), 0.0, 1.0, 0, -2.0, 2.0, F32))
        ],
        "uniform_random_batch_size_like_infer_meta": [
            Case((t(4, 5),), ((-1, 3), 0, 0, -1.0, 1.0, 0, 0, 0, 1.0, F32))
        ],
        "gumbel_softmax_infer_meta": [Case((t(2, 3),), (1.0, False, -1))],
        "gumbel_softmax_grad_infer_meta": [Case((t(2, 3), t(2, 3)), (-1,))],
        "shuffle_batch_infer_meta": [Case((t(2, 4, 3), t(1, dtype=I64)), (0,), (0, 0, 0))],
        "shuffle_batch_grad_infer_meta": [Case((t(8, dtype=I64), t(2, 4, 3)), (0,))],
        "random_routing_infer_meta": [Case((t(4), t(4, 2), t(4, 2, dtype=I64)))],
    }
)
MISMATCHES.update(
    {
        "binomial_infer_meta": Case((t(-1, 3), t(2, 4))),
        "gumbel_softmax_grad_infer_meta": Case((t(-1, 3), t(2, 4)), (-1,)),
        "random_routing_infer_meta": Case((t(-1), t(4, 2), t(4, 3, dtype=I64))),
    }
)

# the basic24 ops of issue 24 (runtime/infermeta/basic24.py)
CASES.update(
    {
        "increment_infer_meta": [
            Case((t(1),), (1.0,)),
            Case((t(1, 1),), (-2.0,), label="2-d"),
        ],
    }
)
MISMATCHES.update({"increment_infer_meta": Case((t(2, 1),), (1.0,))})
CASES.update(
    {
        "crop_infer_meta": [
            Case((t(3, 4),), ((2, -1), (1, 1))),
            Case((t(3, 4, 5),), ((2, 4, 0), (0, 0, 1)), label="zero-extent"),
        ],
        "crop_grad_infer_meta": [Case((t(3, 4), t(2, 3)), ((1, 1),))],
        "shard_index_infer_meta": [Case((t(4, 1, dtype=I64),), (20, 2, 0, -1))],
        "shuffle_channel_infer_meta": [Case((t(2, 6, 2, 2),), (3,))],
        "temporal_shift_infer_meta": [
            Case((t(4, 4, 2, 2),), (2, 0.25, "NCHW")),
            Case((t(4, 2, 2, 4),), (4, 0.25, "NHWC"), label="nhwc"),
        ],
    }
)
MISMATCHES.update(
    {
        "crop_infer_meta": Case((t(3, 4),), ((4, 2), (0, 0))),
        "crop_grad_infer_meta": Case((t(3, 4), t(3, 4)), ((1, 1),)),
        "shard_index_infer_meta": Case((t(4, 2, dtype=I64),), (20, 2, 0, -1)),
        "shuffle_channel_infer_meta": Case((t(2, 5, 2, 2),), (3,)),
        "temporal_shift_infer_meta": Case((t(5, 4, 2, 2),), (2, 0.25, "NCHW")),
    }
)
CASES.update(
    {
        "partial_concat_infer_meta": [
            Case(([t(2, 5), t(2, 5)],), (1, 2)),
            Case(([t(2, 5)],), (-2, -1), label="rest"),
        ],
        "partial_sum_infer_meta": [Case(([t(2, 5), t(2, 5)],), (1, 2))],
        "partial_concat_grad_infer_meta": [Case(([t(2, 5), t(2, 5)],), (), (2,))],
        "partial_sum_grad_infer_meta": [Case(([t(2, 5), t(2, 5)],), (), (2,))],
    }
)
MISMATCHES.update(
    {
        "partial_concat_infer_meta": Case(([t(2, 5), t(2, 4)],), (1, 2)),
        "partial_sum_infer_meta": Case(([t(2, 5), t(3, 5)],), (1, 2)),
    }
)

# the legacy24 ops of issue 24 (runtime/infermeta/legacy24.py)
CASES.update(
    {
        "gru_unit_infer_meta": [
            Case((t(3, 6), t(3, 2), t(2, 6), t(1, 6)), (2, 1, False), (0, 0, 0)),
            Case((t(3, 6), t(3, 2), t(2, 6), None), (0, 3, True), (0, 0, 0), label="no-bias"),
        ],
        "gru_unit_grad_infer_meta": [
            Case((t(3, 6), t(3, 2), t(2, 6), t(1, 6)), (), (0, 0, 0, 0)),
            Case((t(3, 6), t(3, 2), t(2, 6), None), (), (0, 0, 0, 0), label="no-bias"),
        ],
        "im2sequence_infer_meta": [
            Case((t(2, 3, 5, 4), None), ((2, 2), (1, 2), (1, 0, 0, 1), (1, 1))),
            Case((t(2, 3, 5, 4), t(2, 2)), ((2, 2), (1, 1), (0, 0, 0, 0), (1, 1)), label="real-size"),
        ],
        "yolo_loss_infer_meta": [
            Case(
                (t(2, 14, 4, 4), t(2, 3, 4), t(2, 3, dtype=DataType.INT32), None),
                ((10, 13, 16, 30), (0, 1), 2, 0.7, 32, True, 1.0), (0, 0, 0),
            ),
            Case(
                (t(2, 14, 4, 4), t(2, 3, 4), t(2, 3, dtype=DataType.INT32), t(2, 3)),
                ((10, 13, 16, 30), (0, 1), 2, 0.7, 32, True, 1.0), (0, 0, 0), label="score",
            ),
        ],
        "yolo_loss_grad_infer_meta": [
            Case(
                (t(2, 14, 4, 4), t(2, 3, 4), t(2, 3, dtype=DataType.INT32), None, t(2, 2, 4, 4),
                 t(2, 3, dtype=DataType.INT32), t(2)),
                ((10, 13, 16, 30), (0, 1), 2, 0.7, 32, True, 1.0), (0, 0, 0, 0),
            ),
        ],
    }
)
MISMATCHES.update(
    {
        "gru_unit_infer_meta": Case((t(3, 6), t(4, 2), t(2, 6), None), (2, 1, False), (0, 0, 0)),
        "im2sequence_infer_meta": Case(
            (t(2, 3, 5, 4), t(3, 2)), ((2, 2), (1, 1), (0, 0, 0, 0), (1, 1))
        ),
        "yolo_loss_infer_meta": Case(
            (t(2, 14, 4, 4), t(3, 3, 4), t(2, 3, dtype=DataType.INT32), None),
            ((10, 13, 16, 30), (0, 1), 2, 0.7, 32, True, 1.0), (0, 0, 0),
        ),
    }
)

# the grad2 family of issue 24 (runtime/infermeta/grad2.py)
CASES["general_quinary_grad_infer_meta"] = [
    Case((t(2, 3), t(3), t(2, 3), t(2, 3), t(3)), (), (0, 0, 0, 0, 0)),
    Case((t(2, 3), t(3), t(2, 3), None, None), (), (0, 0, 0, 0, 0), label="absent"),
]

# the view24 strided views of issue 24 (runtime/infermeta/view24.py)
CASES.update(
    {
        "strided_un_changed_infer_meta": [Case((t(2, 3),))],
        "as_strided_infer_meta": [Case((t(2, 3),), ((3, 2), (1, 2), 0))],
        "view_shape_infer_meta": [
            Case((t(2, 3),), ((3, 2),)),
            Case((t(2, 3),), ((-1, 2),), label="inferred"),
        ],
        "view_dtype_infer_meta": [
            Case((t(2, 4),), (DataType.UINT8,)),
            Case((t(2, 4),), (DataType.FLOAT64,), label="wider"),
        ],
        "tensor_unfold_infer_meta": [Case((t(2, 7),), (-1, 3, 2))],
        "index_select_strided_infer_meta": [Case((t(2, 3, 4),), (1, -2))],
    }
)
CASES.update(
    {
        "einsum_raw_infer_meta": [
            Case(([t(2, 3), t(3, 4)],), ("ij,jk->ik",), (0, 2, 2)),
            Case(([t(2, 2, 3), t(3, 2)],), ("...ij,...jk",), (0, 2, 2), label="ellipsis"),
        ],
    }
)
MISMATCHES.update(
    {"einsum_raw_infer_meta": Case(([t(2, 3), t(4, 4)],), ("ij,jk->ik",), (0, 2, 2))}
)

# the frame24 framework ops of issue 24 (runtime/infermeta/frame24.py)
CASES.update(
    {
        "share_data_infer_meta": [Case((t(2, 3),))],
        "read_file_infer_meta": [Case((), ("image.jpg",))],
        "trans_layout_grad_infer_meta": [Case((t(2, 3, 4), t(4, 2, 3)), ((2, 0, 1),))],
    }
)

# the dgrad24 double grads of issue 24 (runtime/infermeta/dgrad24.py)
CASES["instance_norm_double_grad_infer_meta"] = [
    Case(
        (t(2, 3, 4), t(3), t(6), t(6), t(2, 3, 4), t(2, 3, 4), t(3), t(3)), (1e-5,), (0, 0, 0)
    ),
    Case(
        (t(2, 3, 4), None, t(6), t(6), t(2, 3, 4), None, None, None),
        (1e-5,),
        (0, 0, 0),
        label="absent",
    ),
]
MISMATCHES["instance_norm_double_grad_infer_meta"] = Case(
    (t(2, 3, 4), t(3), t(6), t(6), t(2, 3, 5), None, None, None), (1e-5,), (0, 0, 0)
)

# the loss24b ops of issue 24 (runtime/infermeta/loss24b.py)
CASES.update(
    {
        "h_sigmoid_loss_infer_meta": [
            Case((t(3, 4), t(3, dtype=I64), t(5, 4), t(5, 1), None, None), (6, False), (0, 0, 0)),
            Case(
                (t(3, 4), t(3, 1, dtype=I64), t(4, 4), None, t(3, 2, dtype=I64), t(3, 2, dtype=I64)),
                (5, False), (0, 0, 0), label="custom",
            ),
        ],
        "class_center_sample_infer_meta": [
            Case((t(4, dtype=I64),), (20, 8, 0, 0, 1, True, 7), (0, 0)),
        ],
    }
)  # fmt: skip
MISMATCHES.update(
    {
        "h_sigmoid_loss_infer_meta": Case(
            (t(3, 4), t(2, dtype=I64), t(5, 4), None, None, None), (6, False), (0, 0, 0)
        ),
    }
)

# the sample24 ops of issue 24 (runtime/infermeta/sample24.py)
CASES.update(
    {
        "graph_sample_neighbors_infer_meta": [
            Case((t(6, dtype=I64), t(5, dtype=I64), t(3, dtype=I64), None, None), (2, False, False),
                 (0, 0, 0)),
            Case((t(6, 1, dtype=I64), t(5, dtype=I64), t(3, 1, dtype=I64), t(6, dtype=I64),
                  t(4, dtype=I64)), (-1, True, True), (0, 0, 0), label="eids"),
        ],
        "weighted_sample_neighbors_infer_meta": [
            Case((t(6, dtype=I32), t(5, dtype=I32), t(6), t(3, dtype=I32), t(6, dtype=I32)),
                 (2, True), (0, 0, 0)),
        ],
        "graph_khop_sampler_infer_meta": [
            Case((t(6, dtype=I64), t(5, dtype=I64), t(3, dtype=I64), None), ((2, 1), False),
                 (0, 0, 0, 0, 0)),
        ],
        "tdm_child_infer_meta": [Case((t(2, 3, dtype=I64), t(7, 5, dtype=I32)), (2, DataType.INT64), (0, 0))],
        "tdm_sampler_infer_meta": [
            Case((t(4, 1, dtype=I64), t(6, 2, dtype=I64), t(6, dtype=I64)),
                 (True, (1, 2), (0, 2, 6), 0, 2), (0, 0, 0)),
        ],
    }
)  # fmt: skip

# the misc24 ops of issue 24
CASES.update(
    {
        "spectral_norm_infer_meta": [
            Case((t(3, 4), t(3), t(4)), (0, 1, 1e-12)),
            Case((t(2, 3, 4), t(3), t(8)), (1, 2, 1e-12), label="dim 1"),
        ],
        "spectral_norm_grad_infer_meta": [
            Case((t(2, 3, 4), t(3), t(8), t(2, 3, 4)), (1, 2, 1e-12)),
        ],
        "distribute_fpn_proposals_infer_meta": [
            Case((t(5, 4), t(2, dtype=DataType.INT32)), (2, 5, 4, 224, False), (4, 4, 0)),
            Case((t(5, 4), None), (1, 2, 1, 56, True), (2, 2, 0), label="no rois_num"),
        ],
    }
)
MISMATCHES.update(
    {
        "spectral_norm_infer_meta": Case((t(3, 4), t(4), t(4)), (0, 1, 1e-12)),
        "spectral_norm_grad_infer_meta": Case((t(3, 4), t(3), t(4), t(4, 3)), (0, 1, 1e-12)),
    }
)

# the pool24 ops of issue 24 (runtime/infermeta/pool24.py)
CASES.update(
    {
        "lp_pool2_d_infer_meta": [
            Case(
                (t(2, 3, 7, 8),),
                ((3, 3), (2, 2), (1, 1), True, True, "NCHW", "lp", False, False, "EXPLICIT"),
            ),
        ],
        "fractional_max_pool_infer_meta": [
            Case((t(2, 3, 7, 8),), ((3, 4), (0, 0), 0.5, True), (0, 0)),
            Case((t(1, 2, 5, 6, 7),), ((2, 3, 3), (2, 2, 2), 0.0, False), (0, 0), label="3d"),
        ],
    }
)

# the lod24 sequence ops of issue 24 (runtime/infermeta/lod24.py)
CASES.update(
    {
        "sequence_pool_infer_meta": [
            Case((t(7, 3),), (False, "MAX", 0.0), (0, 0)),
            Case((t(7, 3, 2),), (False, "SUM", 0.0), (0, 0), label="sum"),
        ],
        "sequence_conv_infer_meta": [
            Case((t(7, 3), None, t(9, 2)), (3, False, -1, 1)),
            Case((t(7, 3), t(2, 3), t(9, 2)), (3, True, -1, 1), label="trainable"),
        ],
        "sequence_conv_grad_infer_meta": [
            Case((t(7, 3), t(2, 3), t(9, 2), t(7, 2)), (3, True, -1, 1), (0, 0, 0)),
        ],
    }
)
MISMATCHES.update(
    {
        "sequence_conv_infer_meta": Case((t(7, 3), t(3, 3), t(9, 2)), (3, True, -1, 1)),
    }
)


# -- the parametrized tests, at the end so that every CASES and MISMATCHES entry above (the
# families append theirs) is collected --------------------------------------------------------

# the nan24 ops of issue 24 (runtime/infermeta/nan24.py)
CASES["check_numerics_infer_meta"] = [Case((t(2, 3),), ("op", "x", 0, -1, ""), (0, 0))]
CASES["reduce_as_infer_meta"] = [
    Case((t(2, 3, 4), t(3, 1)), (), (0,), label="lead-and-ones"),
    Case((t(2, 3), t(2, 3, dtype=I64)), (), (0,), label="same"),
]
MISMATCHES["reduce_as_infer_meta"] = Case((t(2, 3, 4), t(2, 4)), (), (0,))
CASES["coalesce_tensor_infer_meta"] = [
    Case(([t(2, 3), t(5)],), (F32, True, False, False, 0.0, True, -1, -1, (), ()), (2, 0)),
    Case(([t(4)],), (F32, False, True, False, 1.5, False, -1, -1, (), ()), (1, 0), label="packed"),
]
# the corr24 op of issue 24 (runtime/infermeta/corr24.py)
CASES["correlation_infer_meta"] = [
    Case((t(2, 3, 6, 7), t(2, 3, 6, 7)), (1, 3, 2, 2, 1, 1)),
    Case((t(1, 2, 5, 5, dtype=F64), t(1, 2, 5, 5, dtype=F64)), (4, 1, 4, 1, 2, 0), label="s2"),
]
MISMATCHES["correlation_infer_meta"] = Case((t(2, 3, 6, 7), t(2, 3, 6, 8)), (1, 3, 2, 2, 1, 1))

# the deform24 op of issue 24 (runtime/infermeta/deform24.py)
CASES["deformable_conv_infer_meta"] = [
    Case((t(2, 4, 5, 6), t(2, 24, 5, 3), t(6, 2, 3, 2), t(2, 12, 5, 3)),
         ((1, 2), (1, 0), (1, 1), 2, 2, 1), label="mask"),
    Case((t(1, 2, 4, 4), t(1, 8, 3, 3), t(2, 2, 2, 2), None), ((1, 1), (0, 0), (1, 1), 1, 1, 1),
         label="v1"),
]  # fmt: skip
CASES["deformable_conv_grad_infer_meta"] = [
    Case((t(2, 4, 5, 6), t(2, 24, 5, 3), t(6, 2, 3, 2), t(2, 12, 5, 3), t(2, 6, 5, 3)),
         ((1, 2), (1, 0), (1, 1), 2, 2, 1), (0, 0, 0, 0)),
]  # fmt: skip
MISMATCHES["deformable_conv_infer_meta"] = Case(
    (t(2, 4, 5, 6), t(2, 20, 5, 3), t(6, 2, 3, 2), None), ((1, 2), (1, 0), (1, 1), 2, 2, 1)
)

ALL_CASES = [
    pytest.param(name, case, id=f"{name}-{case.label or i}")
    for name, cases in CASES.items()
    for i, case in enumerate(cases)
]


def test_every_infer_meta_function_has_an_unknown_dims_case() -> None:
    missing = sorted(set(INFER_META_FUNCTIONS) - set(CASES))
    assert not missing, f"add a CASES entry for {missing}"
    assert set(CASES) <= set(INFER_META_FUNCTIONS)
    assert set(MISMATCHES) <= set(CASES)


# function -> (output index, the meta it has only while building a program): outputs that a
# program types although the kernel leaves them unset, as PaddlePaddle's programs do
COMPILE_TIME_ONLY = {"batch_norm_infer_meta": (5, ((-1,), DataType.UINT8))}  # reserve_space


@pytest.mark.parametrize("name, case", ALL_CASES)
def test_known_dims_infer_the_same_meta_at_compile_time_as_at_run_time(
    name: str, case: Case
) -> None:
    compiled, ran = infer(name, case, COMPILE), infer(name, case, RUNTIME)
    if name in COMPILE_TIME_ONLY:
        index, meta = COMPILE_TIME_ONLY[name]
        assert (compiled[index], ran[index]) == (meta, None)
        compiled[index] = None
    assert compiled == ran


@pytest.mark.parametrize("name, case", ALL_CASES)
def test_unknown_dims_propagate_to_the_outputs(name: str, case: Case) -> None:
    concrete = infer(name, case, RUNTIME)
    for where, variant in _unknown_variants(case):
        inferred = infer(name, variant, COMPILE)
        if name in COMPILE_TIME_ONLY:
            index, meta = COMPILE_TIME_ONLY[name]
            assert inferred[index] == meta
            inferred[index] = None
        assert _consistent(concrete, inferred), (where, variant.inputs, concrete, inferred)


@pytest.mark.parametrize("name, case", [param for param in ALL_CASES if param.values[1].known])
def test_extents_that_decide_an_output_rank_must_be_known_while_building_a_graph(
    name: str, case: Case
) -> None:
    for index, dim in case.known:
        variant = _with_unknown(Case(case.inputs, case.attrs, case.outputs), (index, None, dim))
        with pytest.raises(InvalidArgumentError, match="must have a known (last dim|extent)"):
            infer(name, variant, COMPILE)


@pytest.mark.parametrize("name", sorted(MISMATCHES))
def test_known_extents_that_disagree_are_rejected_while_building_a_graph(name: str) -> None:
    with pytest.raises(InvalidArgumentError):
        infer(name, MISMATCHES[name], COMPILE)

# the lstm24 recurrent LoD ops of issue 24 (runtime/infermeta/lstm24.py)
_LSTM_ATTRS = (True, False, False, "sigmoid", "tanh", "tanh")
_GRU_ATTRS = ("tanh", "sigmoid", False, False, False)
CASES.update(
    {
        "lstm_infer_meta": [
            Case((t(6, 8), None, None, t(2, 8), t(1, 14)), _LSTM_ATTRS, (0, 0, 0, 0)),
            Case((t(6, 8), t(3, 2), t(3, 2), t(2, 8), t(1, 8)), (False, *_LSTM_ATTRS[1:]), (0, 0, 0, 0), label="h0"),
        ],
        "lstm_grad_infer_meta": [
            Case((t(6, 8), t(3, 2), t(3, 2), t(2, 8), t(1, 14)), (), (0, 0, 0, 0, 0)),
        ],
        "gru_infer_meta": [
            Case((t(6, 6), None, t(2, 6), t(1, 6)), _GRU_ATTRS, (0, 0, 0, 0)),
            Case((t(6, 6), t(3, 2), t(2, 6), None), _GRU_ATTRS, (0, 0, 0, 0), label="h0"),
        ],
        "gru_grad_infer_meta": [
            Case((t(6, 6), t(3, 2), t(2, 6), t(1, 6)), (), (0, 0, 0, 0)),
        ],
    }
)
MISMATCHES.update(
    {
        "lstm_infer_meta": Case((t(6, 8), None, None, t(2, 6), t(1, 14)), _LSTM_ATTRS, (0, 0, 0, 0)),
        "gru_infer_meta": Case((t(6, 6), None, t(2, 6), t(1, 4)), _GRU_ATTRS, (0, 0, 0, 0)),
    }
)

# the rnnt24 op of issue 24 (runtime/infermeta/rnnt24.py)
_RNNT_LABEL, _RNNT_LENGTH = t(2, 3, dtype=DataType.INT32), t(2, dtype=DataType.INT32)
CASES["warprnnt_infer_meta"] = [
    Case((t(2, 5, 4, 6), _RNNT_LABEL, _RNNT_LENGTH, _RNNT_LENGTH), (0, 0.001), (0, 0))
]
MISMATCHES["warprnnt_infer_meta"] = Case(
    (t(2, 5, 4, 6), t(3, 3, dtype=DataType.INT32), _RNNT_LENGTH, _RNNT_LENGTH), (0, 0.0), (0, 0)
)

# misc24c (issue 24)
CASES["embedding_grad_dense_infer_meta"] = [Case((t(2, 3, dtype=I64), t(10, 4), t(2, 3, 4)), (-1,))]
CASES["weight_quantize_infer_meta"] = [
    Case((t(128, 16, dtype=DataType.FLOAT16),), ("weight_only_int4", 80, 64), (0, 0)),
    Case((t(64, 32, dtype=DataType.BFLOAT16),), ("llm.int8", 75, -1), (0, 0), label="llm"),
]
CASES["dgc_momentum_infer_meta"] = [
    Case(
        (t(2, 3), t(2, 3), t(2, 3), t(1), None, t(1), t(1)),
        (0.9, False, "", 0.0, False, 1.0, 2.0),
        (0, 0, 0, 0),
    )
]
MISMATCHES["embedding_grad_dense_infer_meta"] = Case(
    (t(2, 3, dtype=I64), t(10, 4), t(2, 3, 5)), (-1,)
)
MISMATCHES["dgc_momentum_infer_meta"] = Case(
    (t(-1, 3), t(-1, 3), t(-1, 4), t(1), None, t(1), t(1)),
    (0.9, False, "", 0.0, False, 1.0, 2.0),
    (0, 0, 0, 0),
)

# the codegen24 op data (runtime/infermeta/nullary.py): a program input's dims from its shape
CASES["data_infer_meta"] = [Case((), ("x", (2, 3), F32))]

# the lodops24 LoD ops of issue 24 (runtime/infermeta/lodops24.py)
_PYRAMID_ATTRS = (4, 16, 2, 2, 0.0, 1, False, 0, 0, 0, 0.0, "")
CASES.update(
    {
        "match_matrix_tensor_infer_meta": [Case((t(5, 3), t(4, 2), t(3, 2, 2)), (2,), (0, 0))],
        "pyramid_hash_infer_meta": [
            Case((t(6, 1, dtype=DataType.INT32), t(18, 1), t(1, 1), t(1, 1)), _PYRAMID_ATTRS, (0, 0, 0))
        ],
        "attention_lstm_infer_meta": [
            Case(
                (t(5, 3), t(2, 2), None, t(5, 1), None, None, None, t(5, 8), t(1, 8)),
                ("sigmoid", "tanh", "tanh"),
                (0, 0, 0, 0, 0, 0),
            ),
            Case(
                (t(5, 3), t(2, 2), t(2, 2), t(5, 1), t(1, 1), t(1, 1), t(1, 1), t(5, 8), t(1, 8)),
                ("sigmoid", "relu", "identity"),
                (0, 0, 0, 0, 0, 0),
                label="all",
            ),
        ],
        "beam_search_infer_meta": [
            Case(
                (t(2, 1, dtype=DataType.INT64), t(2, 1), t(2, 3, dtype=DataType.INT64), t(2, 3)),
                (0, 2, 0, True),
                (0, 0, 0),
            ),
        ],
    }
)
MISMATCHES.update(
    {
        "match_matrix_tensor_infer_meta": Case((t(5, 3), t(4, 2), t(2, 2, 2)), (2,), (0, 0)),
        "pyramid_hash_infer_meta": Case(
            (t(6, 1, dtype=DataType.INT32), t(17, 1), t(1, 1), t(1, 1)), _PYRAMID_ATTRS, (0, 0, 0)
        ),
        "attention_lstm_infer_meta": Case(
            (t(5, 3), t(2, 2), None, t(4, 1), None, None, None, t(5, 8), t(1, 8)),
            ("sigmoid", "tanh", "tanh"),
            (0, 0, 0, 0, 0, 0),
        ),
        "beam_search_infer_meta": Case(
            (t(3, 1, dtype=DataType.INT64), t(2, 1), None, t(2, 3)), (0, 2, 0, True), (0, 0, 0)
        ),
    }
)

# srstatic28 (issue 28): the value of a SelectedRows, typed while building as its complete dims
CASES["get_tensor_from_selected_rows_infer_meta"] = [Case((t(5, 4),), ())]
