"""A sweep of bad arguments over every op in the registry: each call either works or raises one
of phiops's own errors naming the op (never a TypeError, OverflowError, MemoryError or
AxisError from numpy or Python inside a kernel)."""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import pytest

import phiops.generated as phi
from phiops.generated.registry import OPS
from phiops.runtime.errors import PhiError

BAD_VALUES: dict[str, Any] = {
    "a string": "bad",
    "a huge int": 10**400,
    "an int beyond int64": 2**70,
    "NaN": float("nan"),
    "a huge size list": [10**12, 10**12],
    "a complex": 1 + 2j,
    "a list holding a complex": [1 + 2j],
    "a list holding NaN": [float("nan")],
    "a list holding a huge int": [10**400],
    "a list holding a string": ["x"],
    "a negative int": -5,
    "inf": float("inf"),
    "a float beyond float32": 1e39,
    "None": None,
    "an object": object(),
}


def _tensor(dtype: str = "float32", shape: tuple[int, ...] = (2, 3)) -> phi.Tensor:
    return phi.to_tensor(np.ones(shape, dtype))


# Tensor parameters that must be integer or bool for the baseline call to work.
_TENSOR_BY_NAME = {
    "index": lambda: phi.to_tensor(np.zeros((2, 1), "int64")),
    "indices": lambda: phi.to_tensor(np.zeros((2, 3), "int64")),
    "ids": lambda: phi.to_tensor(np.zeros((2, 3), "int64")),
    "mask": lambda: _tensor("bool"),
    "condition": lambda: _tensor("bool"),
    "learning_rate": lambda: _tensor(shape=(1,)),
    "beta1_pow": lambda: _tensor(shape=(1,)),
    "beta2_pow": lambda: _tensor(shape=(1,)),
}


def _index(shape: tuple[int, ...]) -> phi.Tensor:
    return phi.to_tensor(np.zeros(shape, "int64"))


_NCHW = {"data_format": "NCHW"}
_POOL2D = {
    "x": _tensor(shape=(1, 3, 4, 4)),
    "kernel_size": [2, 2],
    "strides": [1, 1],
    "paddings": [0, 0],
    "pooling_type": "max",
    "padding_algorithm": "EXPLICIT",
}
_INTERP = {"x": _tensor(shape=(1, 1, 2, 2)), "size_tensor": [], "out_h": 4, "out_w": 4}
_BATCH_NORM = {
    "x": _tensor(shape=(2, 3, 4, 4)),
    "mean": _tensor(shape=(3,)),
    "variance": _tensor(shape=(3,)),
    "scale": _tensor(shape=(3,)),
    "bias": _tensor(shape=(3,)),
}
_SET_VALUE = {"starts": [0], "ends": [1], "steps": [1], "axes": [0]}
_ASSIGN_VALUE = {"shape": [2, 3], "values": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]}
_ONES = [_tensor(shape=(1,)), _tensor(shape=(1,))]
_MERGED = {"learning_rate": _ONES, "master_param": []}

# Ops whose baseline needs more than the rules of _baseline: parameter -> value.
_OVERRIDES: dict[str, dict[str, Any]] = {
    "assign_value": _ASSIGN_VALUE,
    "assign_value_": _ASSIGN_VALUE,
    "as_complex": {"x": _tensor(shape=(2, 3, 2))},
    "as_real": {"x": _tensor("complex64")},
    "imag": {"x": _tensor("complex64")},
    "real": {"x": _tensor("complex64")},
    "conv2d_transpose": {"x": _tensor(shape=(1, 3, 4, 4)), "filter": _tensor(shape=(3, 2, 2, 2))},
    "conv3d_transpose": {"x": _tensor(shape=(1, 3, 4, 4, 4)),
                         "filter": _tensor(shape=(3, 2, 2, 2, 2))},
    "depthwise_conv2d_transpose": {"x": _tensor(shape=(1, 3, 4, 4)),
                                   "filter": _tensor(shape=(3, 1, 2, 2)), "groups": 3},
    "merged_adam_": {**_MERGED, "beta1_pow": _ONES, "beta2_pow": _ONES},
    "merged_momentum_": {**_MERGED, "mu": 0.9},
    "asgd_": {"n": _tensor(shape=(1,))},
    "lamb_": {"skip_update": None},
    "nadam_": {"beta2_pow": _tensor()},
    "radam_": {"beta1_pow": _tensor(), "beta2_pow": _tensor()},
    "roi_align": {"x": _tensor(shape=(1, 2, 4, 4)), "boxes": _tensor(shape=(2, 4)),
                  "boxes_num": phi.to_tensor(np.array([2], "int32"))},
    "roi_pool": {"x": _tensor(shape=(1, 2, 4, 4)), "boxes": _tensor(shape=(2, 4)),
                 "boxes_num": phi.to_tensor(np.array([2], "int32"))},
    "rprop_": {"learning_rate": _tensor(), "learning_rate_range": _tensor(shape=(2,)),
               "etas": _tensor(shape=(2,))},

    "affine_grid": {"input": _tensor(shape=(1, 2, 3)), "output_shape": [1, 1, 2, 3]},
    "batch_norm": _BATCH_NORM,
    "batch_norm_": _BATCH_NORM,
    "bilinear_interp": _INTERP,
    "bicubic_interp": {**_INTERP, "interp_method": "bicubic"},
    "linear_interp": {"x": _tensor(shape=(1, 1, 2)), "size_tensor": [], "out_w": 4,
                      "interp_method": "linear"},
    "trilinear_interp": {"x": _tensor(shape=(1, 1, 2, 2, 2)), "size_tensor": [], "out_d": 3,
                         "out_h": 3, "out_w": 3, "interp_method": "trilinear"},
    "bitwise_and": {"x": _tensor("int32"), "y": _tensor("int32")},
    "bitwise_not": {"x": _tensor("int32")},
    "bitwise_or": {"x": _tensor("int32"), "y": _tensor("int32")},
    "bitwise_xor": {"x": _tensor("int32"), "y": _tensor("int32")},
    "channel_shuffle": {"x": _tensor(shape=(1, 4, 2, 2)), "groups": 2},
    "conv2d": {"input": _tensor(shape=(1, 3, 4, 4)), "filter": _tensor(shape=(2, 3, 2, 2))},
    "conv3d": {"input": _tensor(shape=(1, 3, 4, 4, 4)), "filter": _tensor(shape=(2, 3, 2, 2, 2)),
               "data_format": "NCDHW"},
    "cross_entropy_with_softmax": {"label": _index((2, 1))},
    "depthwise_conv2d": {"input": _tensor(shape=(1, 3, 4, 4)),
                         "filter": _tensor(shape=(3, 1, 2, 2)), "groups": 3},
    "dropout": {"seed_tensor": None},
    "embedding": {"x": _index((2, 3))},
    "fold": {"x": _tensor(shape=(1, 4, 2)), "output_sizes": [2, 3], "kernel_sizes": [2, 2],
             "strides": [1, 1], "paddings": [0, 0, 0, 0], "dilations": [1, 1]},
    "full_int_array": {"value": [2, 3], "dtype": "int64"},
    "gather": {"index": _index((2,))},
    "grid_sample": {"x": _tensor(shape=(1, 2, 3, 3)), "grid": _tensor(shape=(1, 2, 4, 2))},
    "group_norm": {"x": _tensor(shape=(2, 4, 3)), "scale": _tensor(shape=(4,)),
                   "bias": _tensor(shape=(4,)), "groups": 2},
    "index_put": {"indices": [_index((2,))], "value": _tensor(shape=(1,))},
    "index_select": {"index": _index((2,))},
    "matmul": {"y": _tensor(shape=(3, 2))},
    "max_pool2d_with_index": {"x": _tensor(shape=(1, 3, 4, 4)), "kernel_size": [2, 2]},
    "max_pool3d_with_index": {"x": _tensor(shape=(1, 2, 4, 4, 4)), "kernel_size": [2, 2, 2]},
    "unpool": {"x": _tensor(shape=(1, 2, 2, 2)), "indices": phi.to_tensor(np.arange(8, dtype="int32").reshape(1, 2, 2, 2) % 4),
               "ksize": [2, 2], "strides": [2, 2], "padding": [0, 0], "output_size": [4, 4], "data_format": "NCHW"},
    "unpool3d": {"x": _tensor(shape=(1, 2, 1, 2, 2)), "indices": phi.to_tensor(np.arange(8, dtype="int32").reshape(1, 2, 1, 2, 2) % 4),
                 "ksize": [1, 2, 2], "strides": [1, 2, 2], "output_size": [1, 4, 4]},
    "meshgrid": {"inputs": [_tensor(shape=(2,)), _tensor(shape=(3,))]},
    "nearest_interp": _INTERP,
    "multiclass_nms3": {"bboxes": _tensor(shape=(1, 3, 4)), "scores": _tensor(shape=(1, 2, 3)),
                        "rois_num": None, "score_threshold": 0.5},
    "nms": {"x": _tensor(shape=(3, 4))},
    "yolo_box": {"x": _tensor(shape=(1, 12, 2, 2)), "img_size": phi.to_tensor(np.full((1, 2), 32, "int32")),
                 "anchors": [4, 5, 6, 7], "class_num": 1},
    "prior_box": {"input": _tensor(shape=(1, 2, 2, 2)), "image": _tensor(shape=(1, 3, 8, 8)),
                  "min_sizes": [2.0], "variances": [0.1, 0.1, 0.2, 0.2]},
    "box_coder": {"prior_box": _tensor(shape=(3, 4)), "prior_box_var": None,
                  "target_box": _tensor(shape=(2, 4))},
    "one_hot": {"x": _index((2, 3)), "num_classes": 4},
    "pad": {"paddings": [1, 1, 1, 1]},
    "pad3d": {"x": _tensor(shape=(1, 1, 2, 2, 2)), "paddings": [1, 1, 1, 1, 1, 1]},
    "pixel_shuffle": {"x": _tensor(shape=(1, 4, 2, 2))},
    "pixel_unshuffle": {"x": _tensor(shape=(1, 1, 2, 2))},
    "pool2d": {**_POOL2D, **_NCHW},
    "pool3d": {**_POOL2D, "x": _tensor(shape=(1, 3, 4, 4, 4)), "kernel_size": [2, 2, 2],
               "strides": [1, 1, 1], "paddings": [0, 0, 0], "data_format": "NCDHW"},
    "prelu": {"alpha": _tensor(shape=(1,))},
    "prod": {"axis": [1]},
    "randint": {"high": 5},
    "roll": {"shifts": [1], "axis": [0]},
    "scatter": {"index": _index((2,))},
    "scatter_nd_add": {"index": _index((2, 1))},
    "set_value": {**_SET_VALUE, "shape": [1], "values": [1.0]},
    "set_value_with_tensor": {**_SET_VALUE, "values": _tensor(shape=(1, 3))},
    "slice": {"starts": [0], "ends": [1], "axes": [0], "infer_flags": [], "decrease_axis": []},
    "split": {"sections": [1, 1], "axis": 0},
    "split_with_num": {"num": 2, "axis": 0},
    "strided_slice": {"starts": [0], "ends": [1], "axes": [0], "strides": [1]},
    "take_along_axis": {"indices": _index((2, 3)), "axis": 1},
    "transpose": {"perm": [1, 0]},
    "bmm": {"x": _tensor(shape=(2, 2, 3)), "y": _tensor(shape=(2, 3, 2))},
    "mv": {"vec": _tensor(shape=(3,))},
    "inverse": {"x": phi.to_tensor(np.eye(2, dtype="float32"))},
    "cholesky": {"x": phi.to_tensor(np.eye(2, dtype="float32"))},
    # linalg2: identity matrices, which every solver and power takes
    "solve": {"x": phi.to_tensor(np.eye(2, dtype="float32")), "y": _tensor(shape=(2, 3))},
    "triangular_solve": {"x": phi.to_tensor(np.eye(2, dtype="float32")),
                         "y": _tensor(shape=(2, 3))},
    "cholesky_solve": {"y": phi.to_tensor(np.eye(2, dtype="float32"))},
    "det": {"x": phi.to_tensor(np.eye(2, dtype="float32"))},
    "slogdet": {"x": phi.to_tensor(np.eye(2, dtype="float32"))},
    "matrix_power": {"x": phi.to_tensor(np.eye(2, dtype="float32"))},
    "multi_dot": {"x": [_tensor(shape=(2, 3)), _tensor(shape=(3, 2))]},
    "frobenius_norm": {"axis": [0]},
    "addmm": {"input": _tensor(shape=(2, 2)), "y": _tensor(shape=(3, 2))},
    "eigh": {"x": phi.to_tensor(np.eye(2, dtype="float32"))},
    "eigvalsh": {"x": phi.to_tensor(np.eye(2, dtype="float32"))},
    "eigvals": {"x": phi.to_tensor(np.eye(2, dtype="float32"))},
    "matrix_rank_tol": {"atol_tensor": _tensor(shape=())},
    "qr": {"mode": "reduced"},
    "renorm": {"p": 2.0, "max_norm": 1.0},

    "unfold": {"x": _tensor(shape=(1, 1, 2, 3)), "kernel_sizes": [2, 2], "strides": [1, 1],
               "paddings": [0, 0, 0, 0], "dilations": [1, 1]},
}  # fmt: skip

# rnn: a one-layer RNN_TANH of hidden size 2 over [4, 2, 3]
_OVERRIDES["rnn"] = {
    "x": _tensor(shape=(4, 2, 3)),
    "pre_state": [_tensor(shape=(1, 2, 2))],
    "weight_list": [_tensor(shape=(2, 3)), _tensor(shape=(2, 2)), _tensor(shape=(2,)), _tensor(shape=(2,))],
    "sequence_length": None,
    "dropout_state_in": phi.to_tensor(np.zeros((0,), "uint8")),
    "input_size": 3,
    "hidden_size": 2,
}

# full_with_tensor: its value is one element
_OVERRIDES["full_with_tensor"] = {"value": _tensor(shape=(1,))}

# the losscum ops of issue 24: one-column losses, class-index labels
_OVERRIDES.update(
    {
        "hinge_loss": {"logits": _tensor(shape=(2, 1)), "labels": _tensor(shape=(2, 1))},
        "log_loss": {"input": _tensor(shape=(2, 1)), "label": _tensor(shape=(2, 1))},
        "nll_loss": {"label": _index((2,))},
    }
)


# the search24 ops of issue 24: bincount counts a 1-D tensor of non-negative integers
_OVERRIDES["bincount"] = {"x": _index((5,))}
_OVERRIDES["repeat_interleave"] = {"repeats": 2}
_OVERRIDES["repeat_interleave_with_tensor_index"] = {"repeats": _index((3,)), "axis": 1}
_OVERRIDES["unstack"] = {"num": 2}
_OVERRIDES["reverse"] = {"axis": [0]}


# the detect24 ops of issue 24: boxes of 4 coordinates, one image, RPN heads of one anchor
_OVERRIDES["box_clip"] = {"input": _tensor(shape=(2, 4)), "im_info": _tensor(shape=(1, 3))}
_OVERRIDES["matrix_nms"] = {
    "bboxes": _tensor(shape=(1, 3, 4)), "scores": _tensor(shape=(1, 2, 3)), "nms_top_k": -1,
}  # fmt: skip
_OVERRIDES["generate_proposals"] = {
    "scores": _tensor(shape=(1, 1, 2, 2)), "bbox_deltas": _tensor(shape=(1, 4, 2, 2)),
    "im_shape": _tensor(shape=(1, 2)), "anchors": _tensor(shape=(2, 2, 1, 4)),
    "variances": _tensor(shape=(2, 2, 1, 4)),
}  # fmt: skip
_OVERRIDES["collect_fpn_proposals"] = {
    "multi_level_rois": [_tensor(shape=(2, 4))], "multi_level_scores": [_tensor(shape=(2, 1))],
    "multi_level_rois_num": None, "post_nms_topn": 1,
}  # fmt: skip
_OVERRIDES["psroi_pool"] = {
    "x": _tensor(shape=(1, 4, 3, 3)), "boxes": _tensor(shape=(2, 4)),
    "boxes_num": phi.to_tensor(np.array([2], "int32")), "pooled_height": 2, "pooled_width": 2,
}  # fmt: skip
_OVERRIDES["affine_channel"] = {"scale": _tensor(shape=(3,)), "bias": _tensor(shape=(3,))}
_OVERRIDES["affine_channel_grad"] = {"scale": _tensor(shape=(3,)), "bias": _tensor(shape=(3,))}
_OVERRIDES["psroi_pool_grad"] = {
    **_OVERRIDES["psroi_pool"], "out_grad": _tensor(shape=(2, 1, 2, 2)), "output_channels": 1,
}  # fmt: skip
# deform24 (issue 24): deformable_conv, x [1, 2, 4, 4], a 2x2 kernel, out [1, 2, 3, 3]; no
# mask (a float mask named "mask" would keep float32 in test_every_registered_dtype_runs)
_OVERRIDES["deformable_conv"] = {
    "x": _tensor(shape=(1, 2, 4, 4)), "offset": _tensor(shape=(1, 8, 3, 3)) * 0.5,
    "filter": _tensor(shape=(2, 2, 2, 2)), "mask": None,
    "strides": [1, 1], "paddings": [0, 0], "dilations": [1, 1], "deformable_groups": 1,
    "groups": 1, "im2col_step": 1,
}  # fmt: skip
_OVERRIDES["deformable_conv_grad"] = {
    **_OVERRIDES["deformable_conv"], "out_grad": _tensor(shape=(1, 2, 3, 3)),
}  # fmt: skip


# the fftspecial family: complex inputs where the kernels take them, axes and normalizations
_FFT = {"axes": [1], "normalization": "backward"}
_OVERRIDES.update(
    {
        "fft_c2c": {**_FFT, "x": _tensor("complex64")},
        "fft_c2c_grad": {**_FFT, "out_grad": _tensor("complex64")},
        "fft_r2c": _FFT,
        "fft_r2c_grad": {**_FFT, "out_grad": _tensor("complex64")},
        "fft_c2r": {**_FFT, "x": _tensor("complex64")},
        "fft_c2r_grad": {**_FFT, "out_grad": _tensor(shape=(2, 4))},
        "frame": {"frame_length": 2, "hop_length": 1},
        "frame_grad": {"out_grad": _tensor(shape=(2, 2, 2)), "frame_length": 2, "hop_length": 1},
        "overlap_add": {"hop_length": 1},
        "overlap_add_grad": {"out_grad": _tensor(shape=(4,)), "hop_length": 1},
        "stft": {"window": _tensor(shape=(2,)), "n_fft": 2, "hop_length": 1},
        "maxout": {"x": _tensor(shape=(1, 4, 2, 2)), "groups": 2},
        "logspace": {
            "start": _tensor(shape=(1,)),
            "stop": _tensor(shape=(1,)),
            "num": phi.to_tensor(np.array([3], "int32")),
            "base": _tensor(shape=(1,)),
            "dtype": "float32",
        },
        "maxout_grad": {
            "x": _tensor(shape=(1, 4, 2, 2)),
            "out": _tensor(shape=(1, 2, 2, 2)),
            "out_grad": _tensor(shape=(1, 2, 2, 2)),
            "groups": 2,
        },
        "stft_grad": {
            "window": _tensor(shape=(2,)),
            "out_grad": _tensor("complex64", (2, 2, 2)),
            "n_fft": 2,
            "hop_length": 1,
            "onesided": True,
        },
    }
)

# the misc24c ops of issue 24: ids within weight's rows and out_grad of ids' shape + [width]; a
# float16 [64, 16] weight to quantize; one-element learning rate, step and nranks (2) for dgc
_OVERRIDES.update(
    {
        "embedding_grad_dense": {
            "x": phi.to_tensor(np.array([[0, 2, 1], [1, 1, 0]], "int64")),
            "weight": _tensor(shape=(3, 4)),
            "out_grad": _tensor(shape=(2, 3, 4)),
        },
        "weight_quantize": {"x": _tensor("float16", (64, 16))},
        "dgc_momentum": {
            "learning_rate": _tensor(shape=(1,)),
            "current_step_tensor": _tensor(shape=(1,)),
            "nranks_tensor": phi.to_tensor(np.array([2.0], "float32")),
            "mu": 0.9,
            "rampup_begin_step": 3.0,
        },
    }
)


# the basic24 ops of issue 24: increment takes a one-element x
_OVERRIDES.update({"increment": {"x": _tensor(shape=(1,))}})
_OVERRIDES.update(
    {
        "crop": {"x": _tensor(shape=(3, 4)), "shape": [2, -1], "offsets": [1, 1]},
        "crop_grad": {"x": _tensor(shape=(3, 4)), "out_grad": _tensor(shape=(2, 3)), "offsets": [1, 1]},
        "shard_index": {"input": _index((4, 1)), "index_num": 20, "nshards": 2, "shard_id": 0},
        "shuffle_channel": {"x": _tensor(shape=(2, 6, 1, 2)), "group": 3},
        "shuffle_channel_grad": {"out_grad": _tensor(shape=(2, 6, 1, 2)), "group": 3},
        "temporal_shift": {"x": _tensor(shape=(4, 4, 1, 2)), "seg_num": 2},
        "temporal_shift_grad": {"out_grad": _tensor(shape=(4, 4, 1, 2)), "seg_num": 2, "data_format": "NCHW"},
    }
)
_OVERRIDES.update(
    {
        "partial_concat": {"x": [_tensor(shape=(2, 4)), _tensor(shape=(2, 4))], "start_index": 1, "length": 2},
        "partial_sum": {"x": [_tensor(shape=(2, 4)), _tensor(shape=(2, 4))], "start_index": 1, "length": 2},
        "partial_concat_grad": {
            "x": [_tensor(shape=(2, 4)), _tensor(shape=(2, 4))], "out_grad": _tensor(shape=(2, 4)),
            "start_index": 1, "length": 2,
        },
        "partial_sum_grad": {
            "x": [_tensor(shape=(2, 4)), _tensor(shape=(2, 4))], "out_grad": _tensor(shape=(2, 2)),
            "start_index": 1, "length": 2,
        },
    }
)


# the legacy24 ops of issue 24: gru_unit's [N, 3D] input, [N, D] hidden_prev, [D, 3D] weight
_OVERRIDES.update(
    {
        "gru_unit": {
            "input": _tensor(shape=(2, 6)),
            "hidden_prev": _tensor(shape=(2, 2)),
            "weight": _tensor(shape=(2, 6)),
            "bias": None,
        },
        "im2sequence": {"x": _tensor(shape=(1, 2, 3, 3)), "y": None, "kernels": [2, 2]},
        "yolo_loss": {
            "x": _tensor(shape=(1, 14, 2, 2)),
            "gt_box": phi.to_tensor(np.array([[[0.3, 0.4, 0.2, 0.3]]], "float32")),
            "gt_label": phi.to_tensor(np.array([[1]], "int32")),
            "gt_score": None,
            "anchors": [10, 13, 16, 30],
            "anchor_mask": [0, 1],
            "class_num": 2,
        },
    }
)

# interp_antialias (issue 25/24): a 4-D x, downsampled
_OVERRIDES["interp_antialias"] = {
    "x": _tensor(shape=(1, 1, 4, 4)), "size_tensor": [], "out_h": 2, "out_w": 3,
}  # fmt: skip


# the manip24 ops of issue 24: int64 index dtypes, a 1-D index, a target shape without y
_OVERRIDES.update(
    {
        "unique_consecutive": {"dtype": "int64"},
        "index_add": {"index": _index((2,))},
        "expand_as": {"target_shape": [2, 2, 3]},
        "tril_indices": {"dtype": "int64"},
        "triu_indices": {"dtype": "int64"},
        "fill_diagonal_tensor": {"y": _tensor(shape=(2,))},
        "fill_diagonal_tensor_": {"y": _tensor(shape=(2,))},
        **{
            op: {"x": _tensor("int32"), "y": _tensor("int32")}
            for op in ("bitwise_left_shift", "bitwise_left_shift_", "bitwise_right_shift")
            + ("bitwise_right_shift_",)
        },
    }
)
# the nnmisc ops: warpctc's padded int32 labels and int64 lengths within the padded extents
_OVERRIDES["warpctc"] = {
    "logits": _tensor(shape=(4, 2, 3)),
    "label": phi.to_tensor(np.ones((2, 2), "int32")),
    "logits_length": phi.to_tensor(np.array([4, 3], "int64")),
    "labels_length": phi.to_tensor(np.array([2, 1], "int64")),
}


# Required attributes by name where 0 would not do.
_ATTRIBUTE_BY_NAME = {"data_format": "NCHW", "mode": "upscale_in_train", "place": "cpu"}


# the dist30 family (issue 30): c_embedding's ids
_OVERRIDES.update(
    {
        "c_embedding": {"x": _index((2, 3))},
        "c_embedding_grad": {"x": _index((2, 3)), "out_grad": _tensor(shape=(2, 3, 3))},
    }
)

# the quant24 quantization ops of issue 24: one-element scales and states, int64 steps, int8
# codes with a float32 table
_OVERRIDES.update(
    {
        "fake_dequantize_max_abs": {"scale": _tensor(shape=(1,))},
        "fake_channel_wise_dequantize_max_abs": {"scales": [_tensor(shape=(2,))]},
        "fake_quantize_range_abs_max": {"in_scale": _tensor(shape=(1,)), "iter": _index((1,))},
        **{
            op: {name: _tensor(shape=(1,)) for name in ("in_scale", "in_accum", "in_state")}
            for op in (
                "fake_quantize_moving_average_abs_max",
                "fake_quantize_dequantize_moving_average_abs_max",
            )
        },
        "dequantize_abs_max": {"x": _tensor("int8"), "scale": _tensor(shape=(1,))},
        "dequantize_log": {"x": _tensor("int8"), "dict": _tensor(shape=(128,))},
        "lookup_table_dequant": {"w": _tensor(shape=(5, 4)), "ids": _index((2, 1))},
        "fused_adam_": {"beta1_pows": _ONES, "beta2_pows": _ONES, "skip_update": None},
    }
)


# the seq24 ops of issue 24: padded sequences with their int64 lengths
_LENGTHS = lambda *values: phi.to_tensor(np.array(values, "int64"))  # noqa: E731
_OVERRIDES.update(
    {
        "gather_tree": {"ids": _index((3, 2, 2)), "parents": _index((3, 2, 2))},
        "viterbi_decode": {"potentials": _tensor(shape=(2, 3, 4)),
                           "transition_params": _tensor(shape=(4, 4)), "lengths": _LENGTHS(3, 2)},
        "edit_distance": {"hyps": _index((2, 3)), "refs": _index((2, 4)),
                          "hypslength": _LENGTHS(3, 2), "refslength": _LENGTHS(4, 1)},
        "ctc_align": {"input": _index((2, 3)), "input_length": _LENGTHS(3, 2)},
        "crf_decoding": {"emission": _tensor(shape=(2, 3, 4)), "transition": _tensor(shape=(6, 4)),
                         "label": None, "length": _LENGTHS(3, 2)},
        "chunk_eval": {"inference": _index((2, 4)), "label": _index((2, 4)),
                       "seq_length": _LENGTHS(4, 2), "num_chunk_types": 2},
        "add_position_encoding": {"x": _tensor(shape=(2, 3, 4))},
        "add_position_encoding_grad": {"x": _tensor(shape=(2, 3, 4)),
                                       "out_grad": _tensor(shape=(2, 3, 4))},
        "bilinear": {"weight": _tensor(shape=(4, 3, 3)), "bias": None},
        "cvm": {"cvm": _tensor(shape=(2, 2))},
        "swiglu": {"y": None, "x": _tensor(shape=(2, 4))},
        "fused_softmax_mask": {"x": _tensor(shape=(1, 2, 3, 4)), "mask": _tensor(shape=(1, 1, 3, 4))},
        "segment_pool": {"segment_ids": _LENGTHS(0, 1)},
        "send_u_recv": {"src_index": _LENGTHS(0, 1), "dst_index": _LENGTHS(1, 1)},
        "send_ue_recv": {"y": _tensor(shape=(2, 1)), "src_index": _LENGTHS(0, 1),
                         "dst_index": _LENGTHS(1, 1)},
        "send_uv": {"src_index": _LENGTHS(0, 1), "dst_index": _LENGTHS(1, 1)},
        "reindex_graph": {"x": _LENGTHS(3, 5), "neighbors": _LENGTHS(5, 1, 2),
                          "count": phi.to_tensor(np.array([2, 1], "int32"))},
    }
)  # fmt: skip


# the quant24b ops of issue 24: average_accumulates_'s int64 counters, dgc_clip_by_norm's step
_OVERRIDES.update(
    {
        "average_accumulates_": {
            name: _index((1,))
            for name in ("in_num_accumulates", "in_old_num_accumulates", "in_num_updates")
        },
        "dgc_clip_by_norm": {"current_step": _tensor(shape=(1,)), "max_norm": 1.0},
    }
)

# the train24 ops of issue 24: one-element scales, flags and int32 step counts, a norm of x's
# dims but 1 along axis, int64 labels, a name for accuracy_check
_OVERRIDES.update(
    {
        "check_finite_and_unscale_": {"scale": _tensor(shape=(1,))},
        "update_loss_scaling_": {
            "found_infinite": _tensor("bool", (1,)), "prev_loss_scaling": _tensor(shape=(1,)),
            "in_good_steps": _tensor("int32", (1,)), "in_bad_steps": _tensor("int32", (1,)),
            "incr_every_n_steps": 2, "decr_every_n_nan_or_inf": 1, "incr_ratio": 2.0,
            "decr_ratio": 0.5,
        },
        "clip_by_norm": {"max_norm": 1.0},
        "norm": {"epsilon": 1e-10},
        "norm_grad": {"norm": _tensor(shape=(1, 3)), "epsilon": 1e-10},
        "accuracy": {"label": _index((2, 1))},
        "accuracy_check": {"fn_name": "matmul"},
        "auc": {"x": _tensor(shape=(2, 2)) * 0.5, "label": _index((2, 1)),
                "stat_pos": _index((1, 5)), "stat_neg": _index((1, 5)), "num_thresholds": 4,
                "slide_steps": 0},
    }
)  # fmt: skip


def _baseline(function: Any) -> list[Any]:
    """Positional arguments for ``function`` that make a call work: float32 [2, 3] tensors for
    tensor parameters (integer or bool ones where the name says so), defaults for the rest,
    False, "float32", [2, 3] or 0 for required attributes, then the op's _OVERRIDES."""
    values = []
    for parameter in inspect.signature(function).parameters.values():
        if parameter.name == "name" and parameter.default is None:
            break  # PaddlePaddle's trailing name=None (data's own name is an argument)
        annotation = str(parameter.annotation)
        if "list[Tensor]" in annotation:
            values.append([_tensor(), _tensor()])
        elif "Tensor" in annotation and parameter.default is inspect.Parameter.empty:
            values.append(_TENSOR_BY_NAME.get(parameter.name, _tensor)())
        elif parameter.default is not inspect.Parameter.empty:
            values.append(parameter.default)
        elif parameter.name in _ATTRIBUTE_BY_NAME:
            values.append(_ATTRIBUTE_BY_NAME[parameter.name])
        elif annotation == "bool":
            values.append(False)
        elif annotation == "DataTypeLike":
            values.append("float32")
        elif annotation == "ScalarLike":
            values.append(1)
        else:
            values.append([2, 3] if "IntArray" in annotation else 0)
    positions = {name: i for i, name in enumerate(inspect.signature(function).parameters)}
    for parameter, value in _OVERRIDES.get(function.__name__, {}).items():
        values[positions[parameter]] = value
    return values


CASES = [
    pytest.param(op, position, id=f"{op}-{position}")
    for op in sorted(OPS)
    if hasattr(phi, op)
    for position in range(len(_baseline(getattr(phi, op))))
]


def _misbehaviour(op: str, function: Any, arguments: list[Any]) -> str | None:
    """What is wrong with calling ``function(*arguments)``: None when it works or raises a
    phiops error naming the op with no chained cause, else a line saying what it raised."""
    try:
        function(*arguments)
    except PhiError as error:
        if op not in str(error):
            return f"{type(error).__name__} not naming {op!r}: {error}"
        if not (error.__suppress_context__ or error.__context__ is None):
            return f"{type(error).__name__} chained to {error.__context__!r}"
    except Exception as error:  # noqa: BLE001 - the sweep reports any foreign error
        return f"a foreign {type(error).__name__}: {error}"
    return None


@pytest.mark.parametrize("op, position", CASES)
def test_a_bad_argument_gives_a_phiops_error_naming_the_op(op: str, position: int) -> None:
    """Each bad value in turn replaces argument ``position`` of a call that works; one test per
    argument (a test per value made this file half the suite's run time)."""
    function = getattr(phi, op)
    failures = []
    for label, value in BAD_VALUES.items():
        arguments = _baseline(function)
        arguments[position] = value
        problem = _misbehaviour(op, function, arguments)
        if problem is not None:
            failures.append(f"{label}: {problem}")
    assert not failures, f"{op}, argument {position}:\n" + "\n".join(failures)


# ops whose working call needs a message sent first (tests/ops/test_dist30_ops.py)
_SENT_FIRST = {"p_recv"}


@pytest.mark.parametrize("op", sorted(op for op in OPS if hasattr(phi, op)))
def test_the_baseline_call_works(op: str) -> None:
    """Each bad value replaces one argument of a call that works, so the sweep reaches every
    argument, not only those checked before the first bad default."""
    function = getattr(phi, op)
    if op in _SENT_FIRST:  # a recv on a world of one rank takes what the rank sent itself
        phi.p_send(_tensor(), 0, 0, False)
    function(*_baseline(function))


# the linalg24 ops of issue 24: square matrices for eig, valid 1-based int32 pivots for lu_unpack
_OVERRIDES.update(
    {
        "eig": {"x": _tensor(shape=(2, 2))},
        "lu_unpack": {"x": _tensor(shape=(2, 2)), "y": phi.to_tensor(np.ones((2,), "int32"))},
        "baddbmm": {
            "input": _tensor(shape=(2, 3, 5)),
            "x": _tensor(shape=(2, 3, 4)),
            "y": _tensor(shape=(2, 4, 5)),
        },
    }
)


# the random24 ops of issue 24: an int64 seed, an [N] prob with [N, k] top-k values and int64 indices
_OVERRIDES.update(
    {
        "shuffle_batch": {"seed": _index((1,))},
        "random_routing": {
            "prob": _tensor(shape=(2,)),
            "topk_value": _tensor(shape=(2, 2)),
            "topk_idx": _index((2, 2)),
        },
    }
)


# the view24 strided views of issue 24: windows and dims that fit the [2, 3] baseline tensor
_OVERRIDES.update(
    {
        "tensor_unfold": {"axis": 1, "size": 2, "step": 1},
        "view_shape": {"dims": [3, 2]},
        "view_dtype": {"dtype": "uint8"},
        "einsum": {"equation": "ij,ij->ji"},
    }
)


# the frame24 framework ops of issue 24: a file to read, a permutation of the [2, 3] baseline
from pathlib import Path  # noqa: E402

_FRAME24_SAMPLE = str(Path(__file__).resolve().parents[1] / "data" / "frame24" / "sample.bin")
_OVERRIDES.update(
    {
        "read_file": {"filename": _FRAME24_SAMPLE},
        "trans_layout": {"perm": [1, 0]},
    }
)


# the loss24b ops of issue 24: hsigmoid_loss's [N, D] x, int64 [N] label, [num_classes - 1, D] w;
# class_center_sample's 1-D label, seeded
_OVERRIDES.update(
    {
        "hsigmoid_loss": {
            "x": _tensor(shape=(2, 3)),
            "label": _index((2,)),
            "w": _tensor(shape=(3, 3)),
            "bias": None,
            "path": None,
            "code": None,
            "num_classes": 4,
        },
        "class_center_sample": {
            "label": _index((3,)),
            "num_classes": 10,
            "num_samples": 4,
            "fix_seed": True,
            "seed": 7,
        },
    }
)


# the sample24 ops of issue 24: a CSC graph of two nodes (0 -> 1, 1 -> 0), node ids, a TDM tree
_CSC = {"row": _LENGTHS(1, 0), "colptr": _LENGTHS(0, 1, 2)}
_OVERRIDES.update(
    {
        "graph_sample_neighbors": {**_CSC, "x": _LENGTHS(0, 1), "sample_size": 1},
        "weighted_sample_neighbors": {**_CSC, "input_nodes": _LENGTHS(0, 1),
                                      "edge_weight": _tensor(shape=(2,)), "sample_size": 1},
        "graph_khop_sampler": {**_CSC, "x": _LENGTHS(0, 1), "sample_sizes": [1]},
        "tdm_child": {"x": _LENGTHS(1, 0), "child_nums": 2,
                      "tree_info": phi.to_tensor(np.array([[0, 0, 0, 1, 0], [5, 1, 0, 0, 0]]))},
        "tdm_sampler": {"x": _LENGTHS(0, 1), "travel": _index((2, 1)) + 1, "layer": _LENGTHS(1, 2),
                        "neg_samples_num_list": [1], "layer_offset_lod": [0, 2]},
    }
)  # fmt: skip


# the misc24 ops of issue 24: u and v of the [2, 3] weight's sides, int32 per-image counts,
# square attention scores
_OVERRIDES.update(
    {
        "spectral_norm": {"u": _tensor(shape=(2,)), "v": _tensor(shape=(3,))},
        "spectral_norm_grad": {"u": _tensor(shape=(2,)), "v": _tensor(shape=(3,))},
        "distribute_fpn_proposals": {
            "fpn_rois": _tensor(shape=(2, 4)), "rois_num": phi.to_tensor(np.array([2], "int32")),
            "min_level": 2, "max_level": 3, "refer_level": 2, "refer_scale": 56,
        },
        "fused_softmax_mask_upper_triangle": {"X": _tensor(shape=(1, 1, 2, 2))},
        "fused_softmax_mask_upper_triangle_grad": {
            "Out": _tensor(shape=(1, 1, 2, 2)), "Out_grad": _tensor(shape=(1, 1, 2, 2)),
        },
    }
)  # fmt: skip


# the pool24 ops of issue 24: 4-D/5-D inputs, output sizes that fit them, a given u
_OVERRIDES.update(
    {
        "lp_pool2d": {**_POOL2D, **_NCHW, "pooling_type": "lp", "norm_type": 2.0},
        "fractional_max_pool2d": {
            "x": _tensor(shape=(1, 2, 5, 6)), "output_size": [2, 3], "random_u": 0.5
        },
        "fractional_max_pool3d": {
            "x": _tensor(shape=(1, 1, 4, 4, 5)), "output_size": [2, 2, 3], "random_u": 0.5
        },
    }
)  # fmt: skip


def _sequences(shape: tuple[int, ...] = (2, 3)) -> Any:
    """A float32 tensor carrying the LoD [[0, 1, 2]]: two sequences of one row."""
    tensor = _tensor(shape=shape)
    tensor.set_lod([[0, 1, 2]])
    return tensor


# the lod24 ops of issue 24: x carries a LoD (runtime/tensor/lod.py), sequence_conv's filter has
# context_length * 3 rows
_OVERRIDES.update(
    {
        "sequence_pool": {"x": _sequences()},
        "sequence_conv": {"x": _sequences(), "filter": _tensor(shape=(6, 4)), "context_length": 2},
    }
)


# the corr24 op of issue 24: 4-D NCHW inputs of one shape, attributes that fit them
_OVERRIDES.update(
    {
        "correlation": {
            "input1": _tensor(shape=(1, 2, 4, 5)), "input2": _tensor(shape=(1, 2, 4, 5)),
            "pad_size": 1, "kernel_size": 3, "max_displacement": 1, "stride1": 1, "stride2": 1,
        },
    }
)  # fmt: skip

# the lstm24 ops of issue 24: input carries a LoD (two sequences of one row), weight and bias
# (and h0, c0: one row per sequence) fit a hidden width of 2
_OVERRIDES.update(
    {
        "lstm": {
            "input": _sequences((2, 8)),
            "h0": _tensor(shape=(2, 2)),
            "c0": _tensor(shape=(2, 2)),
            "weight": _tensor(shape=(2, 8)),
            "bias": _tensor(shape=(1, 14)),
        },
        "gru": {
            "input": _sequences((2, 6)),
            "h0": _tensor(shape=(2, 2)),
            "weight": _tensor(shape=(2, 6)),
            "bias": _tensor(shape=(1, 6)),
        },
    }
)


# the rnnt24 op warprnnt of issue 24: [B, T, U + 1, D] log-probabilities, int32 [B, U] labels and
# int32 lengths within the padded extents
_OVERRIDES.update(
    {
        "warprnnt": {
            "input": _tensor(shape=(2, 3, 3, 4)),
            "label": phi.to_tensor(np.ones((2, 2), "int32")),
            "input_lengths": phi.to_tensor(np.array([3, 2], "int32")),
            "label_lengths": phi.to_tensor(np.array([2, 1], "int32")),
        },
    }
)

# the lodops24 ops of issue 24: their sequence inputs carry a LoD (two sequences of one row),
# pyramid_hash's ids are int32, beam_search's ids int64
def _int_sequences(dtype: str, shape: tuple[int, ...]) -> Any:
    tensor = phi.to_tensor(np.ones(shape, dtype))
    tensor.set_lod([[0, 1, 2]])
    return tensor


_OVERRIDES.update(
    {
        "match_matrix_tensor": {"x": _sequences(), "y": _sequences(), "w": _tensor(shape=(3, 1, 3))},
        "pyramid_hash": {
            "x": _int_sequences("int32", (2, 1)),
            "w": _tensor(shape=(6, 1)),
            "white_list": _tensor(shape=(1, 1)),
            "black_list": _tensor(shape=(1, 1)),
            "num_emb": 2,
            "space_len": 4,
            "rand_len": 2,
        },
        "attention_lstm": {
            "x": _sequences(),
            "c0": _tensor(shape=(2, 2)),
            "h0": _tensor(shape=(2, 2)),
            "attention_weight": _tensor(shape=(5, 1)),
            "attention_bias": _tensor(shape=(1, 1)),
            "attention_scalar": _tensor(shape=(1, 1)),
            "attention_scalar_bias": _tensor(shape=(1, 1)),
            "lstm_weight": _tensor(shape=(5, 8)),
            "lstm_bias": _tensor(shape=(1, 8)),
        },
        "beam_search": {
            "pre_ids": _int_sequences("int64", (2, 1)),
            "pre_scores": _sequences((2, 1)),
            "ids": _int_sequences("int64", (2, 3)),
            "scores": _sequences((2, 3)),
            "level": 0,
            "beam_size": 2,
            "end_id": 0,
        },
    }
)

# the codegen24 ops: data's own name (an argument; the trailing name=None stands for it), and
# merge_selected_rows and get_tensor_from_selected_rows, whose only kernel takes a SelectedRows
# (rows 2, 0, 2 of a height of 4)
def _selected_rows(dtype: str = "float32") -> phi.Tensor:
    from phiops.runtime.eager.tensor import wrap_array
    from phiops.runtime.tensor.selected_rows import SelectedRows

    storage = SelectedRows(np.array([2, 0, 2], np.int64), 4, np.ones((3, 3), dtype))
    return wrap_array(storage, storage.meta)


_OVERRIDES["data"] = {"name": "x"}
_OVERRIDES["merge_selected_rows"] = {"x": _selected_rows()}
_OVERRIDES["get_tensor_from_selected_rows"] = {"x": _selected_rows()}
