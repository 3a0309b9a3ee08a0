"""Gradient-check cases of convolution, pooling and normalization, for CASES in
test_gradcheck_ops.py. Pooling inputs are distinct values, so no max is tied."""

from __future__ import annotations

import numpy as np

import phiops.generated as phi
from tests.autograd.test_gradcheck_ops import Case, case, distinct, positive, uniform


def _batch_norm(data_format: str, **flags: bool):
    def run(x, scale, bias):
        channels = x.shape[1] if data_format == "NCHW" else x.shape[-1]
        mean = phi.to_tensor(np.linspace(-0.5, 0.5, channels))
        variance = phi.to_tensor(np.linspace(0.5, 1.5, channels))
        outs = phi.batch_norm(
            x,
            mean,
            variance,
            scale,
            bias,
            flags.get("is_test", False),
            0.9,
            1e-5,
            data_format,
            flags.get("use_global_stats", False),
            False,
        )
        return outs[0]

    return run


def _batch_norm_inplace(x, scale, bias):
    mean, variance = phi.to_tensor(np.zeros(3)), phi.to_tensor(np.ones(3))
    return phi.batch_norm_(x, mean, variance, scale, bias, False, 0.9, 1e-5, "NCHW", False, False)[
        0
    ]


def conv_norm_cases() -> list[Case]:
    return [
        case(
            "conv2d",
            "groups-stride-asymmetric",
            lambda x, w: phi.conv2d(x, w, [2, 1], [1, 0, 2, 1], "EXPLICIT", [1, 2], 2),
            uniform((2, 4, 5, 6), 900),
            uniform((4, 2, 3, 2), 901),
        ),
        case(
            "conv2d",
            "nhwc-same",
            lambda x, w: phi.conv2d(x, w, [2, 2], [0, 0], "SAME", [1, 1], 1, "NHWC"),
            uniform((1, 5, 4, 2), 902),
            uniform((3, 2, 3, 3), 903),
        ),
        case(
            "depthwise_conv2d",
            "multiplier-2",
            lambda x, w: phi.depthwise_conv2d(x, w, [1, 1], [1, 1], "EXPLICIT", 3),
            uniform((2, 3, 4, 4), 904),
            uniform((6, 1, 3, 3), 905),
        ),
        case(
            "conv3d",
            "dilated",
            lambda x, w: phi.conv3d(x, w, [1, 1, 2], [1, 0, 1], "EXPLICIT", 1, [2, 1, 1]),
            uniform((1, 2, 4, 3, 4), 906),
            uniform((2, 2, 2, 2, 2), 907),
        ),
        *[
            case(
                "pool2d",
                f"{kind}-ceil-exclusive={exclusive}",
                lambda x, kind=kind, exclusive=exclusive: phi.pool2d(
                    x,
                    [3, 2],
                    [2, 2],
                    [1, 0, 1, 1],
                    True,
                    exclusive,
                    "NCHW",
                    kind,
                    False,
                    False,
                    "EXPLICIT",
                ),
                distinct((2, 2, 6, 6), 908),
            )
            for kind in ("max", "avg")
            for exclusive in (True, False)
        ],
        *[
            case(
                "pool2d",
                f"{kind}-adaptive",
                lambda x, kind=kind: phi.pool2d(
                    x, [3, 2], [1, 1], [0, 0], False, True, "NCHW", kind, False, True, "EXPLICIT"
                ),
                distinct((1, 2, 7, 5), 909),
            )
            for kind in ("max", "avg")
        ],
        case(
            "pool2d",
            "avg-global-nhwc",
            lambda x: phi.pool2d(
                x, [1, 1], [1, 1], [0, 0], False, True, "NHWC", "avg", True, False, "EXPLICIT"
            ),
            uniform((2, 3, 4, 2), 910),
        ),
        case(
            "batch_norm",
            "training-nchw",
            _batch_norm("NCHW"),
            uniform((4, 3, 2, 2), 911),
            positive((3,), 912),
            uniform((3,), 913),
        ),
        case(
            "batch_norm",
            "training-nhwc",
            _batch_norm("NHWC"),
            uniform((2, 2, 3, 3), 914),
            positive((3,), 915),
            uniform((3,), 916),
        ),
        case(
            "batch_norm",
            "global-stats",
            _batch_norm("NCHW", use_global_stats=True),
            uniform((4, 3, 2), 917),
            positive((3,), 918),
            uniform((3,), 919),
        ),
        case(
            "batch_norm_",
            "training",
            _batch_norm_inplace,
            uniform((5, 3), 920),
            positive((3,), 921),
            uniform((3,), 922),
        ),
        case(
            "layer_norm",
            "axis-1",
            lambda x, s, b: phi.layer_norm(x, s, b, 1e-5, 1),
            uniform((3, 2, 4), 923),
            positive((8,), 924),
            uniform((8,), 925),
        ),
        case(
            "layer_norm",
            "axis-2-no-scale",
            lambda x, b: phi.layer_norm(x, None, b, 1e-5, 2),
            uniform((2, 3, 4), 926),
            uniform((4,), 927),
        ),
    ]


CONV_NORM_CASES: list[Case] = conv_norm_cases()


def pool_extra_cases() -> list[Case]:
    return [
        case(
            "pool3d",
            "max-ndhwc",
            lambda x: phi.pool3d(
                x,
                [2, 2, 2],
                [1, 2, 1],
                [0, 1, 0],
                False,
                True,
                "NDHWC",
                "max",
                False,
                False,
                "EXPLICIT",
            ),
            distinct((1, 4, 4, 3, 2), 930),
        ),
        case(
            "pool3d",
            "avg-ceil",
            lambda x: phi.pool3d(
                x,
                [2, 2, 2],
                [2, 2, 2],
                [0, 0, 0],
                True,
                False,
                "NCDHW",
                "avg",
                False,
                False,
                "EXPLICIT",
            ),
            uniform((1, 2, 4, 5, 4), 931),
        ),
        case(
            "max_pool2d_with_index",
            "padded-overlapping",
            lambda x: phi.max_pool2d_with_index(x, [3, 3], [2, 2], [1, 1])[0],
            distinct((2, 2, 6, 5), 932),
        ),
        case(
            "max_pool2d_with_index",
            "adaptive",
            lambda x: phi.max_pool2d_with_index(x, [3, 2], adaptive=True)[0],
            distinct((1, 2, 7, 5), 933),
        ),
    ]


CONV_NORM_CASES += pool_extra_cases()


def group_instance_norm_cases() -> list[Case]:
    return [
        case(
            "group_norm",
            "nchw-3-groups",
            lambda x, s, b: phi.group_norm(x, s, b, 1e-5, 3, "NCHW"),
            uniform((2, 6, 3, 2), 940),
            positive((6,), 941),
            uniform((6,), 942),
        ),
        case(
            "group_norm",
            "nhwc-no-affine",
            lambda x: phi.group_norm(x, None, None, 1e-5, 2, "NHWC"),
            uniform((2, 3, 2, 4), 943),
        ),
        case(
            "instance_norm",
            "nchw",
            lambda x, s, b: phi.instance_norm(x, s, b, 1e-5),
            uniform((2, 3, 4, 2), 944),
            positive((3,), 945),
            uniform((3,), 946),
        ),
        case(
            "instance_norm",
            "no-affine-3d",
            lambda x: phi.instance_norm(x, None, None, 1e-5),
            uniform((2, 3, 5), 947),
        ),
    ]


CONV_NORM_CASES += group_instance_norm_cases()


def _interp(op: str, out_hw: tuple[int, int], align_corners: bool, align_mode: int, fmt: str):
    method = "nearest" if op == "nearest_interp" else "bilinear"
    return lambda x: getattr(phi, op)(
        x, None, None, None, fmt, 0, out_hw[0], out_hw[1], [], method, align_corners, align_mode
    )


def interp_cases() -> list[Case]:
    return [
        case(
            "nearest_interp",
            "up",
            _interp("nearest_interp", (5, 7), False, 1, "NCHW"),
            uniform((1, 2, 3, 4), 950),
        ),
        case(
            "nearest_interp",
            "down-align-corners-nhwc",
            _interp("nearest_interp", (2, 3), True, 1, "NHWC"),
            uniform((1, 5, 4, 2), 951),
        ),
        case(
            "bilinear_interp",
            "align-corners",
            _interp("bilinear_interp", (5, 7), True, 1, "NCHW"),
            uniform((2, 1, 3, 4), 952),
        ),
        case(
            "bilinear_interp",
            "half-pixel-nhwc",
            _interp("bilinear_interp", (6, 3), False, 0, "NHWC"),
            uniform((1, 4, 5, 2), 953),
        ),
    ]


CONV_NORM_CASES += interp_cases()


def conv_transpose_cases() -> list[Case]:
    return [
        case(
            "conv2d_transpose",
            "groups-stride-asymmetric-output-padding",
            lambda x, w: phi.conv2d_transpose(
                x, w, [2, 3], [1, 0, 2, 1], [1, 2], [], "EXPLICIT", 2, [1, 2]
            ),
            uniform((2, 4, 3, 3), 960),
            uniform((4, 2, 3, 2), 961),
        ),
        case(
            "conv2d_transpose",
            "nhwc-same-output-size",
            lambda x, w: phi.conv2d_transpose(
                x, w, [2, 2], [0, 0], [], [6, 9], "SAME", 1, [1, 1], "NHWC"
            ),
            uniform((1, 3, 4, 2), 962),
            uniform((2, 3, 3, 2), 963),
        ),
        case(
            "depthwise_conv2d_transpose",
            "multiplier-2",
            lambda x, w: phi.depthwise_conv2d_transpose(
                x, w, [2, 1], [1, 1], [], [], "EXPLICIT", 3
            ),
            uniform((2, 3, 3, 4), 964),
            uniform((3, 2, 3, 3), 965),
        ),
        case(
            "conv3d_transpose",
            "dilated-strided",
            lambda x, w: phi.conv3d_transpose(
                x, w, [2, 1, 2], [1, 0, 1], [], [], "EXPLICIT", 1, [1, 2, 1], "NCDHW"
            ),
            uniform((1, 2, 2, 3, 2), 966),
            uniform((2, 2, 2, 2, 3), 967),
        ),
    ]


CONV_NORM_CASES += conv_transpose_cases()


def _interp_from_tensors(op: str, out_size=None, sizes=None, scales=None, scale=()):
    method = "nearest" if op == "nearest_interp" else "bilinear"

    def run(x):
        return getattr(phi, op)(
            x,
            None if out_size is None else phi.to_tensor(np.array(out_size, np.int32)),
            None if sizes is None else [phi.to_tensor(np.array([s], np.int64)) for s in sizes],
            None if scales is None else phi.to_tensor(np.array(scales, np.float32)),
            "NCHW",
            0,
            0,
            0,
            list(scale),
            method,
            False,
            0,
        )

    return run


def interp_size_tensor_cases() -> list[Case]:
    return [
        case(
            "bilinear_interp",
            "out-size-tensor-with-scale",
            _interp_from_tensors("bilinear_interp", out_size=(5, 6), scale=(1.5, 1.7)),
            uniform((1, 2, 4, 4), 970),
        ),
        case(
            "bilinear_interp",
            "scale-tensor",
            _interp_from_tensors("bilinear_interp", scales=(0.7, 1.6)),
            uniform((1, 2, 5, 3), 971),
        ),
        case(
            "nearest_interp",
            "size-tensor",
            _interp_from_tensors("nearest_interp", sizes=(7, 2)),
            uniform((2, 1, 3, 4), 972),
        ),
    ]


CONV_NORM_CASES += interp_size_tensor_cases()
