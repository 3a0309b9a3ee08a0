"""pixel_shuffle, pixel_unshuffle and channel_shuffle: every registered dtype against a numpy
reference written element by element from the ops' definitions, both data formats, empty and
non-contiguous inputs, the registrations against PaddlePaddle 3.3.1's, and bad input.
tests/ops/test_vision_paddle.py compares with PaddlePaddle's recorded results."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import phiops.generated as phi
import phiops.nn.functional as F
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.coverage import paddle_data
from tests import paddle_api
from tests.ops.op_testing import cpu_dtypes, op_test, sample

D = DataType
OPS = ("pixel_shuffle", "pixel_unshuffle", "channel_shuffle")


def pixel_shuffle_reference(x: np.ndarray, r: int) -> np.ndarray:
    """out[n, c, h * r + i, w * r + j] = x[n, c * r * r + i * r + j, h, w]."""
    n, channels, height, width = x.shape
    out = np.empty((n, channels // (r * r), height * r, width * r), x.dtype)
    for c in range(channels // (r * r)):
        for i in range(r):
            for j in range(r):
                out[:, c, i::r, j::r] = x[:, c * r * r + i * r + j]
    return out


def pixel_unshuffle_reference(x: np.ndarray, r: int) -> np.ndarray:
    """out[n, c * r * r + i * r + j, h, w] = x[n, c, h * r + i, w * r + j]."""
    n, channels, height, width = x.shape
    out = np.empty((n, channels * r * r, height // r, width // r), x.dtype)
    for c in range(channels):
        for i in range(r):
            for j in range(r):
                out[:, c * r * r + i * r + j] = x[:, c, i::r, j::r]
    return out


def channel_shuffle_reference(x: np.ndarray, groups: int) -> np.ndarray:
    """Channel g * (C / groups) + k goes to k * groups + g."""
    per_group = x.shape[1] // groups
    out = np.empty_like(x)
    for g in range(groups):
        for k in range(per_group):
            out[:, k * groups + g] = x[:, g * per_group + k]
    return out


REFERENCES = {
    "pixel_shuffle": (pixel_shuffle_reference, (2, 12, 3, 4), 2),
    "pixel_unshuffle": (pixel_unshuffle_reference, (2, 3, 6, 4), 2),
    "channel_shuffle": (channel_shuffle_reference, (2, 12, 3, 4), 3),
}


def nhwc(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x.transpose(0, 2, 3, 1))


def nchw(x: np.ndarray) -> np.ndarray:
    return x.transpose(0, 3, 1, 2)


@op_test(*OPS, kind="dtypes")
@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", [D.FLOAT32, D.FLOAT64], ids=lambda d: d.name.lower())
def test_shuffle_matches_the_reference_for_each_dtype(op: str, dtype: DataType) -> None:
    assert dtype in cpu_dtypes(op)
    reference, shape, factor = REFERENCES[op]
    x = sample(shape, dtype, seed=11)
    out = getattr(phi, op)(phi.to_tensor(x), factor)
    assert out.dtype is dtype
    np.testing.assert_array_equal(out.numpy(), reference(x, factor))


@pytest.mark.parametrize("op", OPS)
def test_shuffle_channels_last_is_the_channels_first_result_transposed(op: str) -> None:
    reference, shape, factor = REFERENCES[op]
    x = sample(shape, D.FLOAT64, seed=12)
    out = getattr(phi, op)(phi.to_tensor(nhwc(x)), factor, "NHWC")
    np.testing.assert_array_equal(nchw(out.numpy()), reference(x, factor))


def test_registrations_are_paddles() -> None:
    recorded = paddle_data()["kernels"]
    for op in OPS:
        for kernel in (op, f"{op}_grad"):
            ours = sorted(dtype.name.lower() for dtype in cpu_dtypes(kernel))
            assert ours == sorted(recorded[kernel]), kernel


@op_test(*OPS, kind="edge")
@pytest.mark.parametrize("op", OPS)
def test_shuffle_of_an_empty_batch_is_empty(op: str) -> None:
    reference, shape, factor = REFERENCES[op]
    x = np.zeros((0,) + shape[1:], np.float32)
    out = getattr(phi, op)(phi.to_tensor(x), factor)
    assert out.shape == list(reference(x, factor).shape)


@pytest.mark.parametrize("op", OPS)
def test_shuffle_of_a_non_contiguous_input(op: str) -> None:
    reference, shape, factor = REFERENCES[op]
    wide = sample(shape[:3] + (2 * shape[3],), D.FLOAT64, seed=13)
    x = phi.to_tensor(wide)[:, :, :, ::2]
    out = getattr(phi, op)(x, factor)
    np.testing.assert_array_equal(out.numpy(), reference(wide[:, :, :, ::2], factor))


def test_factor_one_and_one_group_leave_the_input_unchanged() -> None:
    x = sample((2, 3, 4, 5), D.FLOAT32, seed=14)
    for op in OPS:
        np.testing.assert_array_equal(getattr(phi, op)(phi.to_tensor(x), 1).numpy(), x)


def test_pixel_shuffle_and_unshuffle_invert_each_other() -> None:
    x = sample((1, 8, 3, 5), D.FLOAT64, seed=15)
    shuffled = phi.pixel_shuffle(phi.to_tensor(x), 2, "NCHW")
    np.testing.assert_array_equal(phi.pixel_unshuffle(shuffled, 2).numpy(), x)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda x: phi.pixel_shuffle(x, 3), "upscale_factor squared \\(9\\)"),
        (lambda x: phi.pixel_shuffle(x, 0), "'upscale_factor' must be positive, got 0"),
        (lambda x: phi.pixel_shuffle(x, -2), "'upscale_factor' must be positive, got -2"),
        (lambda x: phi.pixel_shuffle(x, 2, "NCDHW"), "'data_format' must be one of"),
        (lambda x: phi.pixel_unshuffle(x, 4), "the height \\(6\\) must be divisible"),
        (lambda x: phi.pixel_unshuffle(x, 0), "'downscale_factor' must be positive, got 0"),
        (lambda x: phi.channel_shuffle(x, 5), "number of channels \\(8\\) must be divisible"),
        (lambda x: phi.channel_shuffle(x, 0), "'groups' must be positive, got 0"),
        (lambda x: phi.channel_shuffle(x[0], 2), "'x' must be a 4-D tensor"),
        (lambda x: phi.pixel_shuffle(x[0, 0, 0, 0], 1), "'x' must be a 4-D tensor"),
    ],
)
def test_bad_input_is_refused_naming_the_argument(call, message: str) -> None:
    x = phi.to_tensor(np.zeros((2, 8, 6, 4), np.float32))
    with pytest.raises(InvalidArgumentError, match=message):
        call(x)


def test_integer_input_has_no_kernel() -> None:
    x = phi.to_tensor(np.zeros((1, 4, 2, 2), np.int32))
    with pytest.raises(Exception, match="pixel_shuffle"):
        phi.pixel_shuffle(x, 2)


@pytest.mark.parametrize("name", OPS)
def test_functional_signature_is_paddles(name: str) -> None:
    ours = [
        (p.name, p.kind.name, None if p.default is inspect.Parameter.empty else repr(p.default))
        for p in inspect.signature(getattr(F, name)).parameters.values()
    ]
    theirs = [
        (p["name"], p["kind"], p.get("default"))
        for p in paddle_api.parameters(f"paddle.nn.functional.{name}")
    ]
    assert ours == theirs


def test_functional_calls_the_op() -> None:
    x = sample((1, 8, 2, 4), D.FLOAT32, seed=16)
    np.testing.assert_array_equal(
        F.pixel_shuffle(phi.to_tensor(x), 2).numpy(), pixel_shuffle_reference(x, 2)
    )
    np.testing.assert_array_equal(
        F.pixel_unshuffle(phi.to_tensor(x), 2, data_format="NCHW").numpy(),
        pixel_unshuffle_reference(x, 2),
    )
    np.testing.assert_array_equal(
        F.channel_shuffle(phi.to_tensor(x), 4).numpy(), channel_shuffle_reference(x, 4)
    )
