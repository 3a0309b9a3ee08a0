"""The cases of tests/tools/make_convpool_fixtures.py (run on PaddlePaddle 3.3.1) and
tests/nn/test_convpool.py (run on phiops): one table of the 1-D and 3-D convolutions and pools
and the adaptive pools, written against ``paddle``'s API, which both pass in (``import phiops as
paddle`` runs it unchanged). Weights and inputs are fixed arrays, so that both sides compute with
the same numbers; ``fill`` gives a layer's parameters such values, in the order of its
state_dict."""

from __future__ import annotations

from typing import Any

import numpy as np


def values(shape: Any, seed: float = 0.0) -> np.ndarray:
    """Distinct float32 values in [-2, 2] (no ties for max pooling), fixed by shape and seed."""
    count = int(np.prod(shape))
    return (2.0 * np.sin(np.arange(count) * 1.37 + 0.3 + seed)).astype(np.float32).reshape(shape)


def positions(shape: Any, plane: int) -> np.ndarray:
    """int32 flat positions in [0, plane) for an unpool input of ``shape``, distinct within each
    [N, C] plane (17 is prime to every plane size used here)."""
    rows, count = int(np.prod(shape[:2])), int(np.prod(shape[2:]))
    base = (np.arange(count) * 17)[None, :] + 3 * np.arange(rows)[:, None]
    return (base % plane).astype(np.int32).reshape(shape)


def fill(layer: Any) -> None:
    """Set every parameter of ``layer`` to ``values`` of its shape (seeded by its position)."""
    for i, (_, param) in enumerate(sorted(layer.state_dict().items())):
        param.set_value(values(list(param.shape), seed=float(i)) * 0.5)


def cases(paddle: Any, feeds: dict | None = None) -> tuple[dict, dict, dict]:
    """({name: input}, {function case: (call, input name)}, {layer case: (make layer, input
    name)}). With ``feeds``, a call made in static mode takes its weights as ``static.data``
    and puts their arrays in ``feeds``."""
    F = paddle.nn.functional
    nn = paddle.nn
    INPUTS = {
        "x1": values((2, 4, 9)),
        "x1_nlc": values((2, 9, 4), 1.0),
        "x2": values((2, 3, 7, 6), 2.0),
        "x3": values((2, 4, 4, 5, 6), 3.0),
        "x3_ndhwc": values((2, 4, 5, 6, 4), 4.0),
    }

    def w(*shape: int) -> Any:
        return const(values(shape, 5.0) * 0.5)

    def idx(shape: tuple[int, ...], plane: int) -> Any:
        return const(positions(shape, plane))

    def const(array: np.ndarray) -> Any:
        if feeds is None or paddle.in_dynamic_mode():
            return paddle.to_tensor(array)
        # building a static program: the weight is one more fed input
        name = f"w{len(feeds)}"
        feeds[name] = array
        return paddle.static.data(name, list(array.shape), str(array.dtype))

    FUNCTIONS = {
        "conv1d": (lambda x: F.conv1d(x, w(6, 4, 3)), "x1"),
        "conv1d_bias_stride_pad_dil": (
            lambda x: F.conv1d(x, w(6, 4, 3), w(6), stride=2, padding=2, dilation=2),
            "x1",
        ),
        "conv1d_groups_same": (lambda x: F.conv1d(x, w(6, 2, 4), groups=2, padding="same"), "x1"),
        "conv1d_valid_stride": (lambda x: F.conv1d(x, w(3, 4, 2), stride=3, padding="valid"), "x1"),
        "conv1d_asym_pad": (lambda x: F.conv1d(x, w(5, 4, 3), padding=[1, 2]), "x1"),
        "conv1d_nlc": (lambda x: F.conv1d(x, w(5, 4, 3), w(5), padding=1, data_format="NLC"), "x1_nlc"),
        "conv3d": (lambda x: F.conv3d(x, w(3, 4, 2, 3, 2)), "x3"),
        "conv3d_bias_stride_pad": (
            lambda x: F.conv3d(x, w(3, 4, 3, 3, 3), w(3), stride=2, padding=1),
            "x3",
        ),
        "conv3d_groups_dil": (
            lambda x: F.conv3d(x, w(4, 2, 2, 2, 2), groups=2, dilation=[1, 2, 2], padding=[1, 0, 1]),
            "x3",
        ),
        "conv3d_same_stride": (lambda x: F.conv3d(x, w(2, 4, 3, 2, 3), stride=2, padding="same"), "x3"),
        "conv3d_pairs_pad": (
            lambda x: F.conv3d(x, w(2, 4, 2, 2, 2), padding=[[0, 0], [0, 0], [1, 0], [0, 1], [2, 1]]),
            "x3",
        ),
        "conv3d_ndhwc": (
            lambda x: F.conv3d(x, w(3, 4, 2, 2, 2), w(3), padding=1, data_format="NDHWC"),
            "x3_ndhwc",
        ),
        "conv1d_transpose": (lambda x: F.conv1d_transpose(x, w(4, 3, 3)), "x1"),
        "conv1d_transpose_stride_outpad": (
            lambda x: F.conv1d_transpose(
                x, w(4, 3, 3), w(3), stride=2, padding=1, output_padding=1, dilation=1
            ),
            "x1",
        ),
        "conv1d_transpose_groups_size": (
            lambda x: F.conv1d_transpose(x, w(4, 2, 3), groups=2, stride=2, output_size=20),
            "x1",
        ),
        "conv1d_transpose_nlc_dil": (
            lambda x: F.conv1d_transpose(x, w(4, 2, 2), dilation=2, data_format="NLC"),
            "x1_nlc",
        ),
        "conv3d_transpose": (lambda x: F.conv3d_transpose(x, w(4, 2, 2, 2, 2)), "x3"),
        "conv3d_transpose_stride_outpad": (
            lambda x: F.conv3d_transpose(
                x, w(4, 3, 3, 2, 3), w(3), stride=2, padding=1, output_padding=1
            ),
            "x3",
        ),
        "conv3d_transpose_groups_size": (
            lambda x: F.conv3d_transpose(
                x, w(4, 1, 2, 2, 2), groups=2, stride=2, output_size=[9, 10, 13]
            ),
            "x3",
        ),
        "conv3d_transpose_ndhwc": (
            lambda x: F.conv3d_transpose(x, w(4, 2, 2, 3, 2), w(2), data_format="NDHWC"),
            "x3_ndhwc",
        ),
        "max_pool1d": (lambda x: F.max_pool1d(x, 2), "x1"),
        "max_pool1d_stride_pad_ceil": (
            lambda x: F.max_pool1d(x, 3, stride=2, padding=1, ceil_mode=True),
            "x1",
        ),
        "max_pool1d_mask": (lambda x: F.max_pool1d(x, 3, stride=2, return_mask=True), "x1"),
        "max_pool1d_same": (lambda x: F.max_pool1d(x, 4, stride=2, padding="same"), "x1"),
        "avg_pool1d": (lambda x: F.avg_pool1d(x, 2), "x1"),
        "avg_pool1d_inclusive": (
            lambda x: F.avg_pool1d(x, 3, stride=2, padding=1, exclusive=False),
            "x1",
        ),
        "avg_pool1d_ceil": (lambda x: F.avg_pool1d(x, 4, stride=3, ceil_mode=True), "x1"),
        "max_pool3d": (lambda x: F.max_pool3d(x, 2), "x3"),
        "max_pool3d_stride_pad": (
            lambda x: F.max_pool3d(x, [2, 3, 3], stride=[1, 2, 2], padding=1),
            "x3",
        ),
        "max_pool3d_mask": (lambda x: F.max_pool3d(x, 2, stride=1, padding=1, return_mask=True), "x3"),
        "max_pool3d_mask_ceil": (
            lambda x: F.max_pool3d(x, 3, stride=2, ceil_mode=True, return_mask=True),
            "x3",
        ),
        "max_pool3d_ndhwc": (lambda x: F.max_pool3d(x, 2, data_format="NDHWC"), "x3_ndhwc"),
        "max_pool3d_same": (lambda x: F.max_pool3d(x, 3, stride=2, padding="same"), "x3"),
        "avg_pool3d": (lambda x: F.avg_pool3d(x, 2), "x3"),
        "avg_pool3d_inclusive_ceil": (
            lambda x: F.avg_pool3d(x, 3, stride=2, padding=1, ceil_mode=True, exclusive=False),
            "x3",
        ),
        "avg_pool3d_divisor": (
            lambda x: F.avg_pool3d(x, 2, stride=[1, 2, 2], divisor_override=3),
            "x3",
        ),
        "avg_pool3d_ndhwc": (
            lambda x: F.avg_pool3d(x, [2, 2, 3], padding=[0, 1, 1], data_format="NDHWC"),
            "x3_ndhwc",
        ),
        "adaptive_avg_pool1d": (lambda x: F.adaptive_avg_pool1d(x, 4), "x1"),
        "adaptive_avg_pool3d": (lambda x: F.adaptive_avg_pool3d(x, [3, None, 4]), "x3"),
        "adaptive_avg_pool3d_ndhwc": (
            lambda x: F.adaptive_avg_pool3d(x, 2, data_format="NDHWC"),
            "x3_ndhwc",
        ),
        "adaptive_max_pool1d": (lambda x: F.adaptive_max_pool1d(x, 4), "x1"),
        "adaptive_max_pool1d_mask": (lambda x: F.adaptive_max_pool1d(x, 5, return_mask=True), "x1"),
        "adaptive_max_pool2d": (lambda x: F.adaptive_max_pool2d(x, [3, None]), "x2"),
        "adaptive_max_pool2d_mask": (
            lambda x: F.adaptive_max_pool2d(x, 4, return_mask=True),
            "x2",
        ),
        "adaptive_max_pool3d": (lambda x: F.adaptive_max_pool3d(x, [2, 3, 4]), "x3"),
        "adaptive_max_pool3d_mask": (
            lambda x: F.adaptive_max_pool3d(x, [3, None, 4], return_mask=True),
            "x3",
        ),
    }

    FUNCTIONS.update(
        {
            "max_unpool1d": (lambda x: F.max_unpool1d(x, idx((2, 4, 9), 18), 2), "x1"),
            "max_unpool1d_size": (
                lambda x: F.max_unpool1d(x, idx((2, 4, 9), 20), 3, stride=2, output_size=[2, 4, 20]),
                "x1",
            ),
            "max_unpool2d": (lambda x: F.max_unpool2d(x, idx((2, 3, 7, 6), 168), 2), "x2"),
            "max_unpool2d_pad_size": (
                lambda x: F.max_unpool2d(
                    x, idx((2, 3, 7, 6), 168), 3, stride=2, padding=1, output_size=[14, 12]
                ),
                "x2",
            ),
            "max_unpool3d": (lambda x: F.max_unpool3d(x, idx((2, 4, 4, 5, 6), 960), 2), "x3"),
            "max_unpool3d_stride_size": (
                lambda x: F.max_unpool3d(
                    x, idx((2, 4, 4, 5, 6), 605), 2, stride=[1, 2, 2], output_size=[5, 11, 11]
                ),
                "x3",
            ),
        }
    )

    class _Unpool:  # a layer call with the indices bound, for the one-input runner
        def __init__(self, layer: Any, indices: Any) -> None:
            self.layer, self.indices = layer, indices

        def __call__(self, x: Any) -> Any:
            return self.layer(x, self.indices)

        def state_dict(self) -> dict:
            return self.layer.state_dict()

        def named_parameters(self) -> Any:
            return self.layer.named_parameters()

        def set_state_dict(self, state: dict) -> Any:
            return self.layer.set_state_dict(state)

    LAYERS = {
        "Conv1D": (lambda: nn.Conv1D(4, 6, 3, stride=2, padding=1), "x1"),
        "Conv1D_reflect": (lambda: nn.Conv1D(4, 3, 3, padding=2, padding_mode="reflect"), "x1"),
        "Conv1D_replicate_nlc": (
            lambda: nn.Conv1D(4, 3, 3, padding=1, padding_mode="replicate", data_format="NLC"),
            "x1_nlc",
        ),
        "Conv1D_circular_nobias": (
            lambda: nn.Conv1D(4, 2, 3, padding=2, padding_mode="circular", bias=False),
            "x1",
        ),
        "Conv1D_groups_same": (lambda: nn.Conv1D(4, 4, 3, padding="same", groups=4), "x1"),
        "Conv3D": (lambda: nn.Conv3D(4, 3, 2, padding=1), "x3"),
        "Conv3D_reflect": (lambda: nn.Conv3D(4, 2, 3, padding=1, padding_mode="reflect"), "x3"),
        "Conv3D_circular_ndhwc": (
            lambda: nn.Conv3D(4, 2, 2, padding=1, padding_mode="circular", data_format="NDHWC"),
            "x3_ndhwc",
        ),
        "Conv3D_groups_noattr": (
            lambda: nn.Conv3D(4, 2, [1, 2, 3], stride=[1, 2, 1], groups=2, bias_attr=False),
            "x3",
        ),
        "Conv1DTranspose": (lambda: nn.Conv1DTranspose(4, 3, 3, stride=2, output_padding=1), "x1"),
        "Conv1DTranspose_nlc": (
            lambda: nn.Conv1DTranspose(4, 2, 2, groups=2, dilation=2, data_format="NLC"),
            "x1_nlc",
        ),
        "Conv3DTranspose": (lambda: nn.Conv3DTranspose(4, 2, 2, stride=2, padding=1), "x3"),
        "Conv3DTranspose_ndhwc": (
            lambda: nn.Conv3DTranspose(4, 2, [2, 1, 2], data_format="NDHWC", bias_attr=False),
            "x3_ndhwc",
        ),
        "MaxPool1D": (lambda: nn.MaxPool1D(3, stride=2, padding=1), "x1"),
        "MaxPool3D": (lambda: nn.MaxPool3D(2, stride=[1, 2, 2], ceil_mode=True), "x3"),
        "MaxPool3D_mask": (lambda: nn.MaxPool3D(2, return_mask=True), "x3"),
        "AvgPool1D": (lambda: nn.AvgPool1D(3, stride=2, padding=1, exclusive=False), "x1"),
        "AvgPool3D": (lambda: nn.AvgPool3D(2, stride=1, padding=1, divisor_override=5), "x3"),
        "AdaptiveAvgPool1D": (lambda: nn.AdaptiveAvgPool1D(5), "x1"),
        "AdaptiveAvgPool3D": (lambda: nn.AdaptiveAvgPool3D([2, 3, None]), "x3"),
        "AdaptiveMaxPool1D": (lambda: nn.AdaptiveMaxPool1D(3, return_mask=True), "x1"),
        "AdaptiveMaxPool2D": (lambda: nn.AdaptiveMaxPool2D([2, 4]), "x2"),
        "AdaptiveMaxPool3D": (lambda: nn.AdaptiveMaxPool3D(2), "x3"),
        "MaxUnPool1D": (lambda: _Unpool(nn.MaxUnPool1D(2), idx((2, 4, 9), 18)), "x1"),
        "MaxUnPool2D": (
            lambda: _Unpool(nn.MaxUnPool2D(2, output_size=[13, 13]), idx((2, 3, 7, 6), 169)),
            "x2",
        ),
        "MaxUnPool3D": (
            lambda: _Unpool(nn.MaxUnPool3D(2, stride=2), idx((2, 4, 4, 5, 6), 960)),
            "x3",
        ),
    }
    return INPUTS, FUNCTIONS, LAYERS


# layers whose default initializers are compared (statistics of PaddlePaddle's draws): large
# enough for stable statistics
INIT_LAYERS = {
    "Conv1D": lambda nn: nn.Conv1D(16, 32, 5),
    "Conv3D": lambda nn: nn.Conv3D(8, 16, 3),
    "Conv1DTranspose": lambda nn: nn.Conv1DTranspose(16, 8, 5),
    "Conv3DTranspose": lambda nn: nn.Conv3DTranspose(8, 4, 3, groups=2),
}
