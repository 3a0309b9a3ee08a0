"""The FFT ops fft_c2c, fft_r2c, fft_c2r and paddle.fft (phiops.fft): every registered dtype
against numpy.fft in float64/complex128, the norms and directions, several and negative axes,
0-D and empty inputs, non-contiguous inputs, and bad input. PaddlePaddle 3.3.1's own results
are compared in tests/ops/test_fftspecial_paddle.py."""

from __future__ import annotations

import numpy as np
import pytest

import phiops
import phiops.fft
import phiops.signal
import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, NotFoundError
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance

D = DataType
NORMS = ("backward", "ortho", "forward")


def wide(array: np.ndarray) -> np.ndarray:
    return array.astype(np.complex128 if array.dtype.kind == "c" else np.float64)


def hfftn_reference(x: np.ndarray, sizes, axes, norm: str) -> np.ndarray:  # noqa: ANN001
    """numpy has hfft for one axis only: the forward c2r transform is the inverse one of the
    conjugate with the other direction's normalization name."""
    other = {"backward": "forward", "forward": "backward", "ortho": "ortho"}[norm]
    return np.fft.irfftn(np.conj(x), s=sizes, axes=axes, norm=other)


# -- forward, every registered dtype ----------------------------------------------------------


@op_test("fft_c2c", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("fft_c2c"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("forward", [True, False])
def test_fft_c2c_matches_numpy_for_each_dtype(dtype: DataType, norm: str, forward: bool) -> None:
    x = sample((3, 4, 5), dtype, seed=1)
    out = phi.fft_c2c(phi.to_tensor(x), [0, 2], norm, forward)
    assert out.dtype == dtype and out.shape == [3, 4, 5]
    transform = np.fft.fftn if forward else np.fft.ifftn
    expected = transform(wide(x), axes=(0, 2), norm=norm)
    np.testing.assert_allclose(out.numpy(), expected, **tolerance(dtype))


@op_test("fft_r2c", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("fft_r2c"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("forward", [True, False])
@pytest.mark.parametrize("onesided", [True, False])
def test_fft_r2c_matches_numpy_for_each_dtype(
    dtype: DataType, norm: str, forward: bool, onesided: bool
) -> None:
    x = sample((4, 3, 5), dtype, seed=2)
    out = phi.fft_r2c(phi.to_tensor(x), [0, 2], norm, forward, onesided)
    complex_ = D.COMPLEX64 if dtype is D.FLOAT32 else D.COMPLEX128
    assert out.dtype == complex_
    transform = np.fft.fftn if forward else np.fft.ifftn
    expected = transform(wide(x), axes=(0, 2), norm=norm)
    if onesided:
        expected = expected[..., :3]
    assert out.shape == list(expected.shape)
    np.testing.assert_allclose(out.numpy(), expected, **tolerance(complex_))


@op_test("fft_c2r", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("fft_c2r"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("forward", [True, False])
@pytest.mark.parametrize("last_dim_size", [0, 7])
def test_fft_c2r_matches_numpy_for_each_dtype(
    dtype: DataType, norm: str, forward: bool, last_dim_size: int
) -> None:
    x = sample((3, 2, 4), dtype, seed=3)
    out = phi.fft_c2r(phi.to_tensor(x), [0, 2], norm, forward, last_dim_size)
    real = D.FLOAT32 if dtype is D.COMPLEX64 else D.FLOAT64
    n = last_dim_size or 6
    sizes = (3, n)
    if forward:
        expected = hfftn_reference(wide(x), sizes, (0, 2), norm)
    else:
        expected = np.fft.irfftn(wide(x), s=sizes, axes=(0, 2), norm=norm)
    assert out.dtype == real and out.shape == [3, 2, n]
    np.testing.assert_allclose(out.numpy(), expected, **tolerance(real))


# -- edges ------------------------------------------------------------------------------------


@op_test("fft_c2c", "fft_r2c", "fft_c2r", kind="edge")
def test_negative_axes_mean_the_same_axes() -> None:
    x = sample((3, 4), D.COMPLEX128, seed=4)
    np.testing.assert_allclose(
        phi.fft_c2c(phi.to_tensor(x), [-1], "backward", True).numpy(), np.fft.fft(x, axis=-1)
    )
    r = sample((3, 4), D.FLOAT64, seed=5)
    np.testing.assert_allclose(
        phi.fft_r2c(phi.to_tensor(r), [-2], "backward", True, True).numpy(),
        np.fft.rfft(r, axis=0),
    )
    np.testing.assert_allclose(
        phi.fft_c2r(phi.to_tensor(x), [-2], "backward", False, 0).numpy(),
        np.fft.irfft(x, axis=0),
    )


def test_empty_tensors_transform_to_empty_or_zero_tensors() -> None:
    empty = np.zeros((0, 4), np.complex64)
    assert phi.fft_c2c(phi.to_tensor(empty), [1], "backward", True).shape == [0, 4]
    real = np.zeros((3, 0), np.float32)
    out = phi.fft_r2c(phi.to_tensor(real), [1], "backward", True, True)
    # a sum of nothing along the transformed axis: the one zero-frequency term, 0
    assert out.shape == [3, 1] and out.dtype == D.COMPLEX64
    np.testing.assert_array_equal(out.numpy(), np.zeros((3, 1)))
    out = phi.fft_c2r(phi.to_tensor(np.zeros((0, 3), np.complex128)), [1], "ortho", False, 0)
    assert out.shape == [0, 4] and out.dtype == D.FLOAT64


def test_non_contiguous_input_is_transformed_as_its_values() -> None:
    x = sample((4, 6), D.COMPLEX128, seed=6)
    view = phi.transpose(phi.to_tensor(x), [1, 0])
    np.testing.assert_allclose(
        phi.fft_c2c(view, [1], "ortho", True).numpy(), np.fft.fft(x.T, axis=1, norm="ortho")
    )


def test_c2r_ignores_the_imaginary_parts_a_real_result_cannot_have() -> None:
    x = np.array([1 + 5j, 2 - 1j, 3 + 7j], np.complex128)  # DC and Nyquist imaginary parts
    out = phi.fft_c2r(phi.to_tensor(x), [0], "backward", False, 0)
    np.testing.assert_allclose(out.numpy(), np.fft.irfft(x))


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda x: phi.fft_c2c(x, [2], "backward", True), "argument 'axes'"),
        (lambda x: phi.fft_c2c(x, [], "backward", True), "argument 'axes'"),
        (lambda x: phi.fft_c2c(x, [0, -2], "backward", True), "must not repeat"),
        (lambda x: phi.fft_c2c(x, [0], "sideways", True), "argument 'normalization'"),
        (lambda x: phi.fft_c2r(x, [1], "backward", True, -3), "argument 'last_dim_size'"),
    ],
)
def test_bad_arguments_are_named(call, message: str) -> None:  # noqa: ANN001
    x = phi.to_tensor(np.ones((2, 3), np.complex64))
    with pytest.raises(InvalidArgumentError, match=message):
        call(x)


def test_ops_of_the_wrong_kind_of_input_have_no_kernel() -> None:
    real = phi.to_tensor(np.ones((2, 3), np.float32))
    with pytest.raises(NotFoundError, match="fft_c2c.*COMPLEX64"):
        phi.fft_c2c(real, [1], "backward", True)
    with pytest.raises(NotFoundError, match="fft_c2r.*COMPLEX64"):
        phi.fft_c2r(real, [1], "backward", True, 0)
    with pytest.raises(NotFoundError, match="fft_r2c.*FLOAT32"):
        phi.fft_r2c(phi.to_tensor(np.ones((2, 3), np.complex64)), [1], "backward", True, True)


def test_c2r_without_a_length_needs_two_terms() -> None:
    x = phi.to_tensor(np.ones((2, 1), np.complex64))
    with pytest.raises(InvalidArgumentError, match="at least 2"):
        phi.fft_c2r(x, [1], "backward", False, 0)


# -- paddle.fft -----------------------------------------------------------------------------


def test_paddle_fft_is_the_namespace_of_phiops() -> None:
    assert phiops.fft is phiops.fft  # import phiops as paddle; paddle.fft.fft(...)
    assert sorted(phiops.fft.__all__) == sorted(
        [
            "fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2",
            "irfft2", "hfft2", "ihfft2", "fftn", "ifftn", "rfftn", "irfftn", "hfftn",
            "ihfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift",
        ]
    )  # fmt: skip


@pytest.mark.parametrize(
    "name, reference",
    [
        ("fft", np.fft.fft),
        ("ifft", np.fft.ifft),
        ("irfft", np.fft.irfft),
        ("hfft", np.fft.hfft),
    ],
)
@pytest.mark.parametrize("norm", NORMS)
def test_one_axis_functions_of_complex_input_match_numpy(
    name: str, reference, norm: str
) -> None:  # noqa: ANN001
    x = sample((3, 5), D.COMPLEX128, seed=7)
    for n in (None, 3, 8):
        out = getattr(phiops.fft, name)(phi.to_tensor(x), n=n, axis=0, norm=norm)
        np.testing.assert_allclose(out.numpy(), reference(x, n=n, axis=0, norm=norm), atol=1e-12)


@pytest.mark.parametrize(
    "name, reference",
    [
        ("rfft", np.fft.rfft),
        ("ihfft", np.fft.ihfft),
        ("fft", np.fft.fft),
        ("ifft", np.fft.ifft),
    ],
)
def test_one_axis_functions_of_real_input_match_numpy(name: str, reference) -> None:  # noqa: ANN001
    x = sample((4, 6), D.FLOAT64, seed=8)
    for n in (None, 4, 9):
        out = getattr(phiops.fft, name)(phi.to_tensor(x), n, -1, "ortho")
        np.testing.assert_allclose(out.numpy(), reference(x, n=n, norm="ortho"), atol=1e-12)


@pytest.mark.parametrize(
    "name, reference",
    [
        ("fftn", np.fft.fftn),
        ("ifftn", np.fft.ifftn),
        ("rfftn", np.fft.rfftn),
        ("irfftn", np.fft.irfftn),
        ("fft2", np.fft.fft2),
        ("ifft2", np.fft.ifft2),
        ("rfft2", np.fft.rfft2),
        ("irfft2", np.fft.irfft2),
    ],
)
def test_many_axes_functions_match_numpy(name: str, reference) -> None:  # noqa: ANN001
    complex_input = name in ("fftn", "ifftn", "irfftn", "fft2", "ifft2", "irfft2")
    x = sample((3, 4, 5), D.COMPLEX128 if complex_input else D.FLOAT64, seed=9)
    out = getattr(phiops.fft, name)(phi.to_tensor(x), s=[6, 3], axes=[0, 2], norm="forward")
    np.testing.assert_allclose(
        out.numpy(), reference(x, s=[6, 3], axes=[0, 2], norm="forward"), atol=1e-12
    )


def test_integer_input_is_transformed_as_float32() -> None:
    x = np.arange(6).reshape(2, 3)
    out = phiops.fft.fft(phi.to_tensor(x))
    assert out.dtype == D.COMPLEX64
    np.testing.assert_allclose(out.numpy(), np.fft.fft(x), rtol=1e-6)
    # PaddlePaddle 3.3.1 raises NotFoundError here (it casts to float32, which fft_c2r lacks)
    out = phiops.fft.irfft(phi.to_tensor(x))
    assert out.dtype == D.FLOAT32
    np.testing.assert_allclose(out.numpy(), np.fft.irfft(x), rtol=1e-6, atol=1e-6)


def test_keyword_aliases_and_out() -> None:
    x = sample((3, 4), D.COMPLEX128, seed=10)
    out = phi.to_tensor(np.zeros((3, 4), np.complex128))
    result = phiops.fft.fft(input=phi.to_tensor(x), dim=0, out=out)
    assert result is out
    np.testing.assert_allclose(out.numpy(), np.fft.fft(x, axis=0))
    np.testing.assert_allclose(
        phiops.fft.fftn(input=phi.to_tensor(x), dim=[1]).numpy(), np.fft.fftn(x, axes=[1])
    )


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda x: phiops.fft.fft(x, norm="sideways"), "Unexpected norm"),
        (lambda x: phiops.fft.fft(x, n=0), "should be positive"),
        (lambda x: phiops.fft.fft(x, n=2.5), "should be an integer"),
        (lambda x: phiops.fft.fft(x, axis=2), "should be in range"),
        (lambda x: phiops.fft.fftn(x, s=[2, 2, 2]), "should not be larger"),
        (lambda x: phiops.fft.fftn(x, s=[2], axes=[0, 1]), "does not match"),
        (lambda x: phiops.fft.fft2(x[0]), "should >= 2"),
        (lambda x: phiops.fft.fft2(x, s=[3]), "sequence of 2 integers"),
        (lambda x: phiops.fft.fftfreq(0), "should not be 0"),
    ],
)
def test_paddle_fft_checks_its_arguments_as_paddle_does(call, message: str) -> None:  # noqa: ANN001
    x = phi.to_tensor(np.ones((2, 3), np.complex64))
    with pytest.raises(ValueError, match=message):
        call(x)


def test_frequencies_and_shifts_match_numpy() -> None:
    for n, d in ((5, 0.5), (8, 1.0)):
        np.testing.assert_allclose(phiops.fft.fftfreq(n, d).numpy(), np.fft.fftfreq(n, d), 1e-6)
        np.testing.assert_allclose(phiops.fft.rfftfreq(n, d).numpy(), np.fft.rfftfreq(n, d), 1e-6)
    assert phiops.fft.fftfreq(4).dtype == D.FLOAT32
    assert phiops.fft.rfftfreq(4, dtype="float64").dtype == D.FLOAT64
    x = np.arange(30.0).reshape(5, 6)
    for axes in (None, [0], [1, 0], 1):
        np.testing.assert_array_equal(
            phiops.fft.fftshift(phi.to_tensor(x), axes).numpy(), np.fft.fftshift(x, axes)
        )
        np.testing.assert_array_equal(
            phiops.fft.ifftshift(phi.to_tensor(x), axes).numpy(), np.fft.ifftshift(x, axes)
        )


# -- frame and overlap_add ----------------------------------------------------------------------


def frames_reference(x: np.ndarray, frame_length: int, hop_length: int, axis: int) -> np.ndarray:
    signal = x if axis == -1 else np.moveaxis(x, 0, -1)
    n_frames = 1 + (signal.shape[-1] - frame_length) // hop_length
    out = np.stack(
        [signal[..., i * hop_length : i * hop_length + frame_length] for i in range(n_frames)],
        axis=-1,
    )
    return out if axis == -1 else np.moveaxis(out, (-1, -2), (0, 1))


def overlap_add_reference(frames: np.ndarray, hop_length: int, axis: int) -> np.ndarray:
    if axis == 0:
        frames = np.moveaxis(frames, (0, 1), (-1, -2))
    frame_length, n_frames = frames.shape[-2:]
    out = np.zeros(frames.shape[:-2] + ((n_frames - 1) * hop_length + frame_length,), frames.dtype)
    for i in range(n_frames):
        out[..., i * hop_length : i * hop_length + frame_length] += frames[..., i]
    return out if axis == -1 else np.moveaxis(out, -1, 0)


@op_test("frame", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("frame"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("axis", [-1, 0])
def test_frame_matches_numpy_for_each_dtype(dtype: DataType, axis: int) -> None:
    x = sample((11, 2, 3) if axis == 0 else (2, 3, 11), dtype, seed=20)
    out = phi.frame(phi.to_tensor(x), 4, 3, axis)
    assert out.dtype == dtype
    np.testing.assert_array_equal(out.numpy(), frames_reference(x, 4, 3, axis))


@op_test("overlap_add", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("overlap_add"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("axis", [-1, 0])
@pytest.mark.parametrize("hop_length", [1, 3, 4])
def test_overlap_add_matches_numpy_for_each_dtype(
    dtype: DataType, axis: int, hop_length: int
) -> None:
    x = sample((5, 4, 2) if axis == 0 else (2, 4, 5), dtype, seed=21)
    out = phi.overlap_add(phi.to_tensor(x), hop_length, axis)
    assert out.dtype == dtype
    expected = overlap_add_reference(wide(x) if not dtype.is_integer else x, hop_length, axis)
    np.testing.assert_allclose(out.numpy(), expected, **tolerance(dtype))


@op_test("frame", "overlap_add", kind="edge")
def test_frame_and_overlap_add_of_1d_and_2d_signals() -> None:
    x = np.arange(7.0)
    np.testing.assert_array_equal(
        phi.frame(phi.to_tensor(x), 7, 2).numpy(), x.reshape(7, 1)
    )  # one frame: the whole signal
    frames = phi.frame(phi.to_tensor(x), 2, 2)  # the last sample falls in no frame
    assert frames.shape == [2, 3]
    np.testing.assert_array_equal(
        phi.overlap_add(frames, 2).numpy(), x[:6]
    )  # non-overlapping frames: frame's inverse
    np.testing.assert_array_equal(
        phi.overlap_add(phi.to_tensor(np.ones((3, 1))), 1, 0).numpy(), np.ones(3)
    )


def test_frame_of_a_non_contiguous_signal() -> None:
    x = sample((9, 2), D.FLOAT64, seed=22)
    view = phi.transpose(phi.to_tensor(x), [1, 0])
    np.testing.assert_array_equal(phi.frame(view, 3, 2).numpy(), frames_reference(x.T, 3, 2, -1))


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda x: phi.frame(x, 3, 1, 1), "argument 'axis'"),
        (lambda x: phi.frame(x, 3, 0), "argument 'hop_length'"),
        (lambda x: phi.frame(x, 0, 1), "argument 'frame_length'"),
        (lambda x: phi.frame(x, 6, 1), "argument 'frame_length' must be at most"),
        (lambda x: phi.frame(phi.to_tensor(np.array(1.0)), 1, 1), "at least 1 dimension"),
        (lambda x: phi.overlap_add(x, 4), "argument 'hop_length' must be at most"),
        (lambda x: phi.overlap_add(x, 1, 2), "argument 'axis'"),
        (lambda x: phi.overlap_add(phi.to_tensor(np.ones(3)), 1), "at least 2 dimensions"),
    ],
)
def test_frame_and_overlap_add_name_bad_arguments(call, message: str) -> None:  # noqa: ANN001
    with pytest.raises(InvalidArgumentError, match=message):
        call(phi.to_tensor(np.ones((3, 5))))


def test_paddle_signal_functions_check_as_paddle_does() -> None:
    x = phi.to_tensor(np.ones((3, 5)))
    with pytest.raises(ValueError, match="Unexpected axis"):
        phiops.signal.frame(x, 2, 1, axis=1)
    with pytest.raises(ValueError, match="frame_length should be less equal"):
        phiops.signal.frame(x, 9, 1)
    with pytest.raises(ValueError, match="Unexpected hop_length"):
        phiops.signal.overlap_add(x, 0)
    with pytest.raises(AssertionError, match="n_fft should be in"):
        phiops.signal.stft(x, 9)
    with pytest.raises(TypeError, match="complex64"):
        phiops.signal.istft(x, 4)


def test_istft_inverts_stft() -> None:
    x = sample((2, 50), D.FLOAT64, seed=23)
    spectrum = phiops.signal.stft(phi.to_tensor(x), 16, window=phi.to_tensor(np.hanning(16)))
    assert spectrum.shape == [2, 9, 13]
    back = phiops.signal.istft(spectrum, 16, window=phi.to_tensor(np.hanning(16)), length=50)
    np.testing.assert_allclose(back.numpy(), x, atol=1e-12)


def test_istft_refuses_a_window_whose_envelope_vanishes() -> None:
    spectrum = phi.to_tensor(np.ones((5, 4), np.complex128))
    with pytest.raises(ValueError, match="NOLA"):
        phiops.signal.istft(spectrum, 8, 2, window=phi.to_tensor(np.zeros(8)))


# -- the stft op ----------------------------------------------------------------------------


@op_test("stft", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("stft"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("normalized", [False, True])
@pytest.mark.parametrize("onesided", [True, False])
def test_stft_matches_numpy_for_each_dtype(
    dtype: DataType, normalized: bool, onesided: bool
) -> None:
    x = sample((2, 21), dtype, seed=30)
    window = sample((8,), dtype, seed=31)
    out = phi.stft(phi.to_tensor(x), phi.to_tensor(window), 8, 3, normalized, onesided)
    complex_ = D.COMPLEX64 if dtype is D.FLOAT32 else D.COMPLEX128
    frames = frames_reference(wide(x), 8, 3, -1) * wide(window)[:, None]
    expected = np.fft.fft(frames, axis=1, norm="ortho" if normalized else "backward")
    if onesided:
        expected = expected[:, :5]
    assert out.dtype == complex_ and out.shape == list(expected.shape) == [
        2,
        5 if onesided else 8,
        5,
    ]
    np.testing.assert_allclose(out.numpy(), expected, **tolerance(complex_))


@op_test("stft", kind="edge")
@pytest.mark.parametrize(
    "x_shape, window_shape, n_fft, hop, message",
    [
        ((20,), (8,), 8, 3, "argument 'x' must be 2-D"),
        ((2, 20), (7,), 8, 3, "argument 'window'"),
        ((2, 20), (8,), 8, 0, "argument 'hop_length'"),
        ((2, 6), (8,), 8, 3, "argument 'n_fft'"),
    ],
)
def test_stft_names_bad_arguments(
    x_shape, window_shape, n_fft: int, hop: int, message: str
) -> None:  # noqa: ANN001
    x, window = phi.to_tensor(np.ones(x_shape)), phi.to_tensor(np.ones(window_shape))
    with pytest.raises(InvalidArgumentError, match=message):
        phi.stft(x, window, n_fft, hop, False, True)


def test_stft_of_one_frame_is_the_windowed_transform() -> None:
    x = sample((1, 8), D.FLOAT64, seed=32)
    window = np.hanning(8)
    out = phi.stft(phi.to_tensor(x), phi.to_tensor(window), 8, 5, False, True)
    assert out.shape == [1, 5, 1]
    np.testing.assert_allclose(out.numpy()[..., 0], np.fft.rfft(x * window), atol=1e-12)


# -- special functions --------------------------------------------------------------------------

import scipy.special as special  # noqa: E402  (in requirements.lock: references only)

SPECIAL = {
    "lgamma": (special.gammaln, (-6.0, 8.0)),
    "gammaln": (special.gammaln, (-6.0, 8.0)),
    "digamma": (special.digamma, (-6.0, 8.0)),
    "i0": (special.i0, (-40.0, 40.0)),
    "i0e": (special.i0e, (-40.0, 40.0)),
    "i1": (special.i1, (-40.0, 40.0)),
    "i1e": (special.i1e, (-40.0, 40.0)),
}


def special_call(op: str, x: np.ndarray):  # noqa: ANN201
    return getattr(phi, op)(phi.to_tensor(x))


@op_test(*SPECIAL, kind="dtypes")
@pytest.mark.parametrize("op, dtype", [(op, dtype) for op in SPECIAL for dtype in cpu_dtypes(op)])
def test_special_function_matches_scipy_for_each_dtype(op: str, dtype: DataType) -> None:
    reference, (low, high) = SPECIAL[op]
    x = sample((4, 50), dtype, seed=40, low=low, high=high)
    out = special_call(op, x)
    assert out.dtype == dtype and out.shape == [4, 50]
    rtol = 1e-12 if dtype is D.FLOAT64 else 2e-6
    np.testing.assert_allclose(out.numpy(), reference(wide(x)), rtol=rtol, atol=rtol)


@op_test("polygamma", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("polygamma"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_polygamma_matches_scipy_for_each_dtype(dtype: DataType, n: int) -> None:
    x = sample((3, 40), dtype, seed=41, low=-4.0, high=9.0)
    out = phi.polygamma(phi.to_tensor(x), n)
    assert out.dtype == dtype
    rtol = 1e-11 if dtype is D.FLOAT64 else 2e-5
    np.testing.assert_allclose(out.numpy(), special.polygamma(n, wide(x)), rtol=rtol, atol=rtol)


INF, NAN = np.inf, np.nan
# op -> (inputs, PaddlePaddle 3.3.1's float64 results)
SPECIAL_EDGES = {
    "lgamma": (
        [0.0, -0.0, -1.0, INF, -INF, NAN, 1.0, 2.0, 1e-8],
        [INF, INF, INF, INF, INF, NAN, 0.0, 0.0, 18.42068073818021],
    ),
    "digamma": (
        [0.0, -0.0, -1.0, INF, -INF, NAN, 1.0],
        [-INF, INF, NAN, INF, NAN, NAN, -0.5772156649015323],
    ),
    "i0": ([0.0, INF, -INF, NAN, 710.0], [1.0, NAN, NAN, NAN, INF]),
    "i0e": ([0.0, INF, -INF, NAN], [1.0, 0.0, 0.0, NAN]),
    "i1": ([0.0, INF, -INF, NAN, -2.0], [0.0, NAN, NAN, NAN, -1.5906368546373295]),
    "i1e": ([0.0, INF, -INF, NAN], [0.0, 0.0, -0.0, NAN]),
}


@op_test(*SPECIAL, "polygamma", kind="edge")
@pytest.mark.parametrize("op", sorted(SPECIAL_EDGES))
def test_special_function_edges_are_paddles(op: str) -> None:
    inputs, expected = SPECIAL_EDGES[op]
    with np.errstate(all="raise"):  # no warnings either
        out = special_call(op, np.array(inputs))
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-14)
    np.testing.assert_array_equal(np.signbit(out.numpy()), np.signbit(expected))


def test_polygamma_edges_and_bad_order() -> None:
    x = phi.to_tensor(np.array([0.0, -1.0, INF, -INF, 1.0]))
    np.testing.assert_allclose(
        phi.polygamma(x, 1).numpy(), [INF, INF, NAN, INF, 1.6449340668482266], rtol=1e-14
    )
    with pytest.raises(InvalidArgumentError, match="argument 'n'"):
        phi.polygamma(x, -1)


def test_special_functions_of_0d_and_empty_tensors() -> None:
    for op in SPECIAL:
        assert special_call(op, np.array(0.5)).shape == []
        assert special_call(op, np.zeros((2, 0), np.float32)).shape == [2, 0]
    assert phi.polygamma(phi.to_tensor(np.array(2.0)), 2).shape == []


@op_test("gammaincc", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("gammaincc"), ids=lambda d: d.name.lower())
def test_gammaincc_matches_scipy_for_each_dtype(dtype: DataType) -> None:
    a = sample((4, 30), dtype, seed=50, low=0.05, high=25.0)
    x = sample((4, 30), dtype, seed=51, low=0.0, high=35.0)
    out = phi.gammaincc(phi.to_tensor(a), phi.to_tensor(x))
    assert out.dtype == dtype
    rtol = 1e-11 if dtype is D.FLOAT64 else 2e-5
    np.testing.assert_allclose(
        out.numpy(), special.gammaincc(wide(a), wide(x)), rtol=rtol, atol=rtol
    )


@op_test("gammaincc", kind="edge")
def test_gammaincc_broadcasts_and_has_paddles_edges() -> None:
    a = np.array([[0.0], [1.0], [3.0]])
    x = np.array([0.0, 1.0, np.inf, 1e-300])
    out = phi.gammaincc(phi.to_tensor(a), phi.to_tensor(x))
    # PaddlePaddle 3.3.1: 1 where a or x is 0, NaN at x = +inf
    expected = [
        [1.0, 1.0, np.nan, 1.0],
        [1.0, np.exp(-1.0), np.nan, 1.0],
        [1.0, 0.9196986029286058, np.nan, 1.0],
    ]
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-14)


def test_paddle_gammaincc_and_gammainc() -> None:
    a, x = phi.to_tensor(np.array([0.5, 2.0, 5.0])), phi.to_tensor(np.array([0.3, 5.0, 2.0]))
    np.testing.assert_allclose(
        phiops.gammainc(a, x).numpy(), special.gammainc(a.numpy(), x.numpy()), rtol=1e-12
    )
    np.testing.assert_allclose(
        a.gammaincc(x).numpy(), special.gammaincc(a.numpy(), x.numpy()), rtol=1e-12
    )
    with pytest.raises(ValueError, match="x must be greater than or equal to 0"):
        phiops.gammaincc(phi.to_tensor(np.array([-1.0])), x)
    with pytest.raises(ValueError, match="y must be greater than or equal to 0"):
        phiops.gammainc(a, phi.to_tensor(np.array([-1.0, 1.0, 1.0])))


# -- stanh and maxout -----------------------------------------------------------------------


def f32(value: float) -> float:
    return float(np.float32(value))


@op_test("stanh", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("stanh"), ids=lambda d: d.name.lower())
def test_stanh_matches_numpy_for_each_dtype(dtype: DataType) -> None:
    x = sample((3, 4), dtype, seed=60, low=-2.0, high=2.0)
    out = phi.stanh(phi.to_tensor(x), 0.5, 2.0)
    assert out.dtype == dtype
    np.testing.assert_allclose(out.numpy(), 2.0 * np.tanh(0.5 * wide(x)), **tolerance(dtype))


@op_test("stanh", kind="edge")
def test_stanh_defaults_and_edges() -> None:
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0])
    out = phi.stanh(phi.to_tensor(x))
    expected = f32(1.7159) * np.tanh(f32(0.67) * x)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-15)
    assert phi.stanh(phi.to_tensor(np.array(1.0))).shape == []


def maxout_reference(x: np.ndarray, groups: int, axis: int) -> np.ndarray:
    channel = axis % 4
    shape = x.shape[:channel] + (x.shape[channel] // groups, groups) + x.shape[channel + 1 :]
    return x.reshape(shape).max(axis=channel + 1)


@op_test("maxout", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("maxout"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("axis", [1, -1, 3])
def test_maxout_matches_numpy_for_each_dtype(dtype: DataType, axis: int) -> None:
    x = sample((2, 6, 3, 6), dtype, seed=61)
    out = phi.maxout(phi.to_tensor(x), 3, axis)
    assert out.dtype == dtype
    np.testing.assert_array_equal(out.numpy(), maxout_reference(x, 3, axis))


@op_test("maxout", kind="edge")
@pytest.mark.parametrize(
    "shape, groups, axis, message",
    [
        ((2, 6, 3), 2, 1, "4-D"),
        ((2, 6, 3, 3), 4, 1, "must divide"),
        ((2, 6, 3, 3), 2, 2, "argument 'axis'"),
        ((2, 6, 3, 3), 0, 1, "argument 'groups'"),
    ],
)
def test_maxout_names_bad_arguments(
    shape, groups: int, axis: int, message: str
) -> None:  # noqa: ANN001
    with pytest.raises(InvalidArgumentError, match=message):
        phi.maxout(phi.to_tensor(np.ones(shape)), groups, axis)


def test_maxout_gradient_goes_to_the_first_maximum_of_a_group() -> None:
    x = phi.to_tensor(np.array([1.0, 1.0, 0.0, 2.0]).reshape(1, 4, 1, 1), stop_gradient=False)
    out = phi.maxout(x, 2, 1)
    (grad,) = phi.grad(out, [x], grad_outputs=phi.ones_like(out))
    np.testing.assert_array_equal(grad.numpy().ravel(), [1.0, 0.0, 0.0, 1.0])  # PaddlePaddle's


# -- logspace -------------------------------------------------------------------------------


def one_value(value: float, dtype: str) -> phi.Tensor:
    return phi.to_tensor(np.array([value], dtype))


@op_test("logspace", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("logspace"), ids=lambda d: d.name.lower())
def test_logspace_matches_numpy_for_each_dtype(dtype: DataType) -> None:
    name = dtype.name.lower()
    out = phi.logspace(
        one_value(1, name), one_value(4, name), one_value(4, "int32"), one_value(3, name), dtype
    )
    assert out.dtype == dtype and out.shape == [4]
    np.testing.assert_allclose(out.numpy(), np.logspace(1, 4, 4, base=3.0), rtol=1e-6)


@op_test("logspace", kind="edge")
def test_logspace_edges() -> None:
    # one value: base ** start; an integer dtype truncates the inputs and the results
    np.testing.assert_array_equal(phiops.logspace(2, 5, 1).numpy(), [100.0])
    np.testing.assert_array_equal(phiops.logspace(0, 1, 3, 10.0, "int32").numpy(), [1, 3, 10])
    np.testing.assert_array_equal(phiops.logspace(0.5, 3.7, 4, 2.5, "int64").numpy(), [1, 2, 4, 8])
    with pytest.raises(InvalidArgumentError, match="argument 'num' must be positive"):
        phiops.logspace(0, 1, 0)
    with pytest.raises(TypeError, match="'num' in logspace"):
        phiops.logspace(0, 1, 2.5)
    with pytest.raises(InvalidArgumentError, match="argument 'start' must hold exactly one"):
        phi.logspace(
            phi.to_tensor(np.zeros(2, np.float32)),
            one_value(1, "float32"),
            one_value(3, "int32"),
            one_value(10, "float32"),
            "float32",
        )
