"""Tap pruning (runtime/static/passes/tap_pruning.py): a convolution whose outer kernel rows or
columns read only padding for the input extents of the plan runs with the kernel cut to the
taps that read the input and its paddings reduced by as much: the cut is checked against a
brute force over random geometries, and programs give the unpruned program's outputs."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.ir.attributes import Attribute
from phiops.runtime.static.passes.tap_pruning import tap_cut
from tests.ops.test_fastconv_conv import reference_conv
from tests.static.passes.helpers import build, run_with_and_without, started_scope

F = phi.nn.functional
ALL = (
    "dead_code_elimination,constant_folding,batch_norm_folding,tap_pruning,"
    "bias_activation_fusion,memory_planning"
)
WITHOUT = ALL.replace("tap_pruning,", "")


class Conv:
    """A stand-in for a conv2d op: its name and attributes."""

    def __init__(self, strides, paddings, dilations, algorithm="EXPLICIT", layout="NCHW"):
        ints = lambda values: Attribute("array", tuple(Attribute("int32", v) for v in values))
        self.name = "pd_op.conv2d"
        self.attributes = {
            "strides": ints(strides),
            "paddings": ints(paddings),
            "dilations": ints(dilations),
            "padding_algorithm": Attribute("str", algorithm),
            "data_format": Attribute("str", layout),
        }


@pytest.mark.parametrize(
    "dims, kernel, strides, paddings, dilations, expected",
    [
        ((1, 8, 1, 1), (3, 3), (1, 1), (1, 1), (1, 1), (1, 2, 1, 2, (0, 0, 0, 0))),
        ((1, 8, 3, 3), (1, 7), (1, 1), (0, 3), (1, 1), (0, 1, 1, 6, (0, 0, 2, 2))),
        ((1, 8, 3, 3), (7, 1), (1, 1), (3, 0), (1, 1), (1, 6, 0, 1, (2, 2, 0, 0))),
        ((1, 1, 1, 8), (1, 3), (1, 1), (0, 1), (1, 1), None),  # every column tap reads the input
        ((1, 8, 5, 5), (3, 3), (1, 1), (1, 1), (1, 1), None),  # every tap reads the input
    ],
)
def test_the_cut_of_known_geometries(dims, kernel, strides, paddings, dilations, expected):
    cut = tap_cut(Conv(strides, paddings, dilations), dims, (4, dims[1]) + kernel)
    if expected is None:
        assert cut is None
    else:
        assert (cut.y0, cut.y1, cut.x0, cut.x1, cut.paddings) == expected


def test_implicit_paddings_and_unknown_extents_are_left_alone():
    assert tap_cut(Conv((1, 1), (1, 1), (1, 1), "SAME"), (1, 8, 1, 1), (4, 8, 3, 3)) is None
    assert tap_cut(Conv((1, 1), (1, 1), (1, 1)), (1, 8, -1, -1), (4, 8, 3, 3)) is None


def test_random_cuts_keep_the_convolution():
    """Over random geometries (strides, dilations, asymmetric paddings, channels last), the cut
    kernel with the cut paddings gives the full kernel's output, and nothing is cut away that
    reads the input."""
    rng = np.random.default_rng(26)
    cuts = 0
    for _ in range(300):
        h, w = (int(v) for v in rng.integers(1, 6, 2))
        kh, kw = (int(v) for v in rng.integers(1, 8, 2))
        strides = tuple(int(v) for v in rng.integers(1, 4, 2))
        dilations = tuple(int(v) for v in rng.integers(1, 3, 2))
        paddings = tuple(int(v) for v in rng.integers(0, 6, 4))
        pads = ((paddings[0], paddings[1]), (paddings[2], paddings[3]))
        if any(
            size + p0 + p1 < d * (k - 1) + 1
            for size, (p0, p1), d, k in zip((h, w), pads, dilations, (kh, kw))
        ):
            continue  # no output
        layout = "NHWC" if rng.integers(2) else "NCHW"
        dims = (1, h, w, 2) if layout == "NHWC" else (1, 2, h, w)
        cut = tap_cut(Conv(strides, paddings, dilations, layout=layout), dims, (3, 2, kh, kw))
        x = rng.standard_normal((1, 2, h, w))
        weight = rng.standard_normal((3, 2, kh, kw))
        full = reference_conv(x, weight, strides, pads, dilations, 1)
        if cut is None:
            continue
        cuts += 1
        top, bottom, left, right = cut.paddings
        got = reference_conv(
            x, cut.weight(weight), strides, ((top, bottom), (left, right)), dilations, 1
        )
        np.testing.assert_allclose(got, full, rtol=1e-12, atol=1e-12)
        # the dropped taps only ever read padding: changing their weights changes nothing
        noisy = weight.copy()
        noisy[:, :, : cut.y0] += 1
        noisy[:, :, cut.y1 :] += 1
        noisy[:, :, :, : cut.x0] += 1
        noisy[:, :, :, cut.x1 :] += 1
        np.testing.assert_allclose(
            reference_conv(x, noisy, strides, pads, dilations, 1), full, rtol=1e-12, atol=1e-12
        )
    assert cuts > 50


def _inception_like():
    x = phi.static.data("x", [None, 16, 1, 1], "float32")
    y = phi.static.data("y", [None, 8, 3, 3], "float32")
    norm = phi.nn.BatchNorm2D(12)
    norm.eval()
    a = F.relu(norm(phi.nn.Conv2D(16, 12, 3, padding=1, bias_attr=False)(x)))
    b = phi.nn.Conv2D(8, 6, (1, 7), padding=(0, 3))(y)
    return [a, b]


@pytest.mark.parametrize("passes", [ALL, WITHOUT], ids=["pruning", "without"])
def test_programs_give_the_unpruned_outputs(passes):
    main, startup, fetches = build(_inception_like)
    rng = np.random.default_rng(3)
    feed = {
        "x": rng.standard_normal((2, 16, 1, 1)).astype(np.float32),
        "y": rng.standard_normal((2, 8, 3, 3)).astype(np.float32),
    }
    on, off, plan = run_with_and_without(main, feed, fetches, started_scope(startup), passes)
    for got, expected in zip(on, off):
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    if passes == ALL:
        assert [entry.split(": ")[1] for entry in plan.report.pruned] == [
            "3x3 -> 1x1",
            "1x7 -> 1x5",
        ]
        assert plan.report.changes_rounding
    else:
        assert plan.report.pruned == []


def test_a_nan_weight_on_a_padding_tap_keeps_the_full_kernel():
    """A NaN weight where the tap reads only padding makes the full convolution NaN (NaN * 0):
    the pass does not cut such a kernel, so the output stays NaN as without it."""

    def build_fn():
        x = phi.static.data("x", [None, 4, 1, 1], "float32")
        conv = phi.nn.Conv2D(4, 3, 3, padding=1)
        return [conv(x)]

    main, startup, fetches = build(build_fn)
    fresh = started_scope(startup)

    def scope_with_nan():
        scope = fresh()
        for name in scope.local_var_names():
            array = scope.find_var(name).get_tensor()
            value = np.array(array)
            if value.ndim == 4:
                value[0, 0, 0, 0] = np.nan
                array.set(value)
        return scope

    feed = {"x": np.ones((1, 4, 1, 1), np.float32)}
    _, _, clean = run_with_and_without(main, feed, fetches, fresh, ALL)
    assert len(clean.report.pruned) == 1  # finite weights: cut
    (on,), (off,), plan = run_with_and_without(main, feed, fetches, scope_with_nan, ALL)
    assert plan.report.pruned == []
    assert np.isnan(off[0, 0]).all() and np.array_equal(on, off, equal_nan=True)
