"""The cases of tests/tools/make_normup_fixtures.py (run on PaddlePaddle 3.3.1) and
tests/nn/test_normup.py (run on phiops): the normalization, upsampling and rearranging functions
and layers of paddle.nn, in one table written against ``paddle``'s API, which both pass in
(``import phiops as paddle`` runs it unchanged)."""

from __future__ import annotations

from typing import Any

import numpy as np


def inputs() -> dict[str, np.ndarray]:
    """The fixed inputs, by rank."""
    x4 = np.sin(np.arange(2 * 4 * 3 * 5, dtype=np.float64) * 0.7).reshape(2, 4, 3, 5) * 2
    x5 = np.cos(np.arange(2 * 3 * 2 * 3 * 4, dtype=np.float64) * 0.3).reshape(2, 3, 2, 3, 4)
    x3 = np.sin(np.arange(2 * 4 * 6, dtype=np.float64) * 0.9).reshape(2, 4, 6) * 2.5
    return {
        "x3": x3.astype(np.float32),
        "x4": x4.astype(np.float32),
        "x5": x5.astype(np.float32),
        "cols": np.linspace(-1, 1, 2 * 8 * 6).astype(np.float32).reshape(2, 8, 6),
    }


def set_weights(paddle: Any, layer: Any) -> Any:
    """Gives each parameter of ``layer`` (in the order of their sorted keys) distinct fixed values, so that
    outputs depend on which value goes where."""
    state = {}
    current = layer.state_dict()
    for position, key in enumerate(sorted(current)):
        value = current[key]
        shape = list(value.shape)
        count = int(np.prod(shape)) if shape else 1
        values = np.linspace(0.5, 1.5, count) + 0.1 * position
        if key.endswith("_variance"):
            values = values + 0.5
        state[key] = paddle.to_tensor(values.astype(np.float32).reshape(shape))
    layer.set_state_dict(state)
    return layer


def cases(paddle: Any) -> tuple[dict, dict]:
    """({function case: (call taking x, input name)}, {layer case: (make layer, input name,
    training)})."""
    F = paddle.nn.functional

    def t(values: list[float]) -> Any:
        return paddle.to_tensor(np.array(values, np.float32))

    functions = {
        "instance_norm": (lambda x: F.instance_norm(x), "x4"),
        "instance_norm_affine": (
            lambda x: F.instance_norm(
                x, weight=t([1.0, 2.0, 0.5, -1.0]), bias=t([0, 1, 2, 3]), eps=1e-3
            ),
            "x4",
        ),
        "instance_norm_3d": (lambda x: F.instance_norm(x, data_format="NCL"), "x3"),
        "instance_norm_5d": (lambda x: F.instance_norm(x, data_format="NCDHW"), "x5"),
        "local_response_norm": (lambda x: F.local_response_norm(x, 3), "x4"),
        "local_response_norm_attrs": (
            lambda x: F.local_response_norm(x, 4, alpha=0.1, beta=0.5, k=2.0),
            "x4",
        ),
        "local_response_norm_nhwc": (
            lambda x: F.local_response_norm(x, 2, alpha=0.2, data_format="NHWC"),
            "x4",
        ),
        "local_response_norm_ncl": (lambda x: F.local_response_norm(x, 3, alpha=0.3), "x3"),
        "local_response_norm_nlc": (
            lambda x: F.local_response_norm(x, 5, alpha=0.3, data_format="NLC"),
            "x3",
        ),
        "local_response_norm_ncdhw": (lambda x: F.local_response_norm(x, 2, alpha=0.5), "x5"),
        "local_response_norm_ndhwc": (
            lambda x: F.local_response_norm(x, 3, alpha=0.5, data_format="NDHWC"),
            "x5",
        ),
        "normalize": (lambda x: F.normalize(x), "x4"),
        "normalize_p1_last": (lambda x: F.normalize(x, p=1, axis=-1), "x4"),
        "normalize_p3_axis0": (lambda x: F.normalize(x, p=3, axis=0), "x3"),
        "nearest_scale": (lambda x: F.interpolate(x, scale_factor=2), "x4"),
        "nearest_size": (lambda x: F.interpolate(x, size=[5, 7]), "x4"),
        "nearest_down": (lambda x: F.interpolate(x, size=[2, 3], mode="nearest"), "x4"),
        "nearest_nhwc": (
            lambda x: F.interpolate(x, scale_factor=[1.5, 2], data_format="NHWC"),
            "x4",
        ),
        "nearest_5d": (lambda x: F.interpolate(x, scale_factor=2), "x5"),
        "nearest_5d_size": (lambda x: F.interpolate(x, size=[3, 4, 5], data_format="NDHWC"), "x5"),
        "nearest_size_tensor": (lambda x: F.interpolate(x, size=t([4, 6]).astype("int32")), "x4"),
        "nearest_size_tensors": (
            lambda x: F.interpolate(x, size=[paddle.to_tensor(np.array([4], np.int32)), 6]),
            "x4",
        ),
        "nearest_scale_tensor": (lambda x: F.interpolate(x, scale_factor=t([2.0, 1.5])), "x4"),
        "nearest_recompute": (
            lambda x: F.interpolate(x, scale_factor=1.7, recompute_scale_factor=True),
            "x4",
        ),
        "bilinear": (lambda x: F.interpolate(x, size=[5, 8], mode="bilinear"), "x4"),
        "bilinear_align_corners": (
            lambda x: F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True),
            "x4",
        ),
        "bilinear_align_mode1": (
            lambda x: F.interpolate(x, size=[4, 9], mode="bilinear", align_mode=1),
            "x4",
        ),
        "bilinear_nhwc": (
            lambda x: F.interpolate(x, scale_factor=[2, 1.5], mode="BILINEAR", data_format="NHWC"),
            "x4",
        ),
        "bilinear_down": (lambda x: F.interpolate(x, size=[2, 2], mode="bilinear"), "x4"),
        "area_2d": (lambda x: F.interpolate(x, size=[2, 3], mode="area"), "x4"),
        "area_1d": (lambda x: F.interpolate(x, size=[4], mode="area"), "x3"),
        "area_3d": (lambda x: F.interpolate(x, size=[1, 2, 3], mode="area"), "x5"),
        "upsample": (lambda x: F.upsample(x, scale_factor=2, mode="bilinear"), "x4"),
        "rrelu_eval": (lambda x: F.rrelu(x, training=False), "x4"),
        "linear": (lambda x: F.interpolate(x, size=[9], mode="linear"), "x3"),
        "linear_align_corners": (
            lambda x: F.interpolate(x, scale_factor=1.5, mode="linear", align_corners=True),
            "x3",
        ),
        "linear_align_mode1_down": (
            lambda x: F.interpolate(x, size=[4], mode="linear", align_mode=1),
            "x3",
        ),
        "linear_nwc": (
            lambda x: F.interpolate(x, scale_factor=2, mode="linear", data_format="NWC"),
            "x3",
        ),
        "linear_size_tensor": (
            lambda x: F.interpolate(x, size=t([11]).astype("int32"), mode="linear"),
            "x3",
        ),
        "bicubic": (lambda x: F.interpolate(x, size=[5, 8], mode="bicubic"), "x4"),
        "bicubic_align_corners": (
            lambda x: F.interpolate(x, scale_factor=2, mode="bicubic", align_corners=True),
            "x4",
        ),
        "bicubic_down": (lambda x: F.interpolate(x, size=[2, 3], mode="bicubic"), "x4"),
        "bicubic_nhwc": (
            lambda x: F.interpolate(x, scale_factor=[2, 1.5], mode="bicubic", data_format="NHWC"),
            "x4",
        ),
        "bicubic_scale_tensor": (
            lambda x: F.interpolate(x, scale_factor=t([1.5, 2.5]), mode="bicubic"),
            "x4",
        ),
        "trilinear": (lambda x: F.interpolate(x, size=[3, 5, 6], mode="trilinear"), "x5"),
        "trilinear_align_corners": (
            lambda x: F.interpolate(x, scale_factor=2, mode="trilinear", align_corners=True),
            "x5",
        ),
        "trilinear_align_mode1": (
            lambda x: F.interpolate(x, size=[4, 2, 5], mode="trilinear", align_mode=1),
            "x5",
        ),
        "trilinear_ndhwc": (
            lambda x: F.interpolate(
                x, scale_factor=[1.5, 2, 1], mode="trilinear", data_format="NDHWC"
            ),
            "x5",
        ),
        "upsample_trilinear": (
            lambda x: F.upsample(x, scale_factor=[2, 1.5, 0.5], mode="trilinear"),
            "x5",
        ),
        "rrelu_eval_bounds": (lambda x: F.rrelu(x, 0.2, 0.7, training=False), "x3"),
    }

    def layer(make: Any) -> Any:
        return lambda: set_weights(paddle, make())

    layers = {
        "InstanceNorm1D": (layer(lambda: paddle.nn.InstanceNorm1D(4)), "x3", True),
        "InstanceNorm1D_no_affine": (
            lambda: paddle.nn.InstanceNorm1D(4, weight_attr=False, bias_attr=False),
            "x3",
            True,
        ),
        "InstanceNorm2D": (layer(lambda: paddle.nn.InstanceNorm2D(4, epsilon=1e-3)), "x4", True),
        "InstanceNorm3D": (layer(lambda: paddle.nn.InstanceNorm3D(3)), "x5", True),
        "BatchNorm3D_train": (layer(lambda: paddle.nn.BatchNorm3D(3, momentum=0.8)), "x5", True),
        "BatchNorm3D_eval": (layer(lambda: paddle.nn.BatchNorm3D(3)), "x5", False),
        "BatchNorm3D_ndhwc": (
            layer(lambda: paddle.nn.BatchNorm3D(4, data_format="NDHWC")),
            "x5",
            True,
        ),
        "BatchNorm_train": (layer(lambda: paddle.nn.BatchNorm(4, momentum=0.7)), "x4", True),
        "BatchNorm_is_test_relu": (
            layer(lambda: paddle.nn.BatchNorm(4, act="relu", is_test=True)),
            "x4",
            False,
        ),
        "BatchNorm_nhwc_no_affine": (
            layer(
                lambda: paddle.nn.BatchNorm(
                    5, param_attr=False, bias_attr=False, data_layout="NHWC"
                )
            ),
            "x4",
            True,
        ),
        "SyncBatchNorm_train": (layer(lambda: paddle.nn.SyncBatchNorm(4)), "x4", True),
        "SyncBatchNorm_eval": (layer(lambda: paddle.nn.SyncBatchNorm(4)), "x4", False),
        "SyncBatchNorm_no_affine": (
            layer(lambda: paddle.nn.SyncBatchNorm(4, weight_attr=False, bias_attr=False)),
            "x4",
            True,
        ),
        "SyncBatchNorm_ncl": (
            layer(lambda: paddle.nn.SyncBatchNorm(4, data_format="NCL")),
            "x3",
            True,
        ),
        "LocalResponseNorm": (lambda: paddle.nn.LocalResponseNorm(3, alpha=0.2), "x4", True),
        "Upsample": (lambda: paddle.nn.Upsample(scale_factor=2), "x4", True),
        "Upsample_bilinear": (
            lambda: paddle.nn.Upsample(size=[4, 7], mode="bilinear", align_corners=True),
            "x4",
            True,
        ),
        "UpsamplingNearest2D": (lambda: paddle.nn.UpsamplingNearest2D(size=[6, 4]), "x4", True),
        "UpsamplingBilinear2D": (
            lambda: paddle.nn.UpsamplingBilinear2D(scale_factor=2.0),
            "x4",
            True,
        ),
        "PixelShuffle": (lambda: paddle.nn.PixelShuffle(2), "x4", True),
        "PixelShuffle_nhwc": (lambda: paddle.nn.PixelShuffle(1, data_format="NHWC"), "x4", True),
        "PixelUnshuffle": (lambda: paddle.nn.PixelUnshuffle(1), "x4", True),
        "ChannelShuffle": (lambda: paddle.nn.ChannelShuffle(2), "x4", True),
        "Unfold": (lambda: paddle.nn.Unfold([2, 3], paddings=1, strides=[1, 2]), "x4", True),
        "Fold": (lambda: paddle.nn.Fold([3, 4], 2), "cols", True),
        "RReLU_eval": (lambda: paddle.nn.RReLU(0.1, 0.3), "x4", False),
        "Upsample_linear": (
            lambda: paddle.nn.Upsample(scale_factor=2.5, mode="linear", data_format="NCW"),
            "x3",
            True,
        ),
        "Upsample_bicubic": (
            lambda: paddle.nn.Upsample(size=[6, 7], mode="bicubic", align_corners=True),
            "x4",
            True,
        ),
        "Upsample_trilinear": (
            lambda: paddle.nn.Upsample(scale_factor=[2, 1, 1.5], mode="trilinear"),
            "x5",
            True,
        ),
    }
    return functions, layers


# what the static-mode test builds: one case per function
STATIC_CASES = (
    "instance_norm",
    "local_response_norm",
    "local_response_norm_ncdhw",
    "normalize",
    "nearest_scale",
    "bilinear",
    "area_2d",
    "upsample",
    "rrelu_eval",
    "linear",
    "bicubic",
    "trilinear",
)
