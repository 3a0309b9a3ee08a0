"""The misc24 ops of issue 24 (spectral_norm, distribute_fpn_proposals,
fused_softmax_mask_upper_triangle) against numpy references, per registered CPU dtype, with
their edges and bad input (recorded PaddlePaddle values are in tests/ops/test_misc24_paddle.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from tests.ops.op_testing import cpu_dtypes, op_test


def t(values, dtype=None) -> phiops.Tensor:
    return phiops.to_tensor(np.asarray(values), dtype=dtype)


def tol(dtype: DataType) -> dict[str, float]:
    return {"rtol": 1e-5, "atol": 1e-6} if dtype == DataType.FLOAT32 else {"rtol": 1e-12, "atol": 0}


# -- spectral_norm ------------------------------------------------------------------------------


def spectral_norm_reference(weight, u, v, dim, power_iters, eps):
    """weight / sigma in float64, from the definition (power iteration on W [h, w])."""
    matrix = np.moveaxis(weight.astype(np.float64), dim, 0).reshape(weight.shape[dim], -1)
    u, v = u.astype(np.float64), v.astype(np.float64)
    for _ in range(power_iters):
        v = matrix.T @ u
        v = v / (np.linalg.norm(v) + eps)
        u = matrix @ v
        u = u / (np.linalg.norm(u) + eps)
    return weight.astype(np.float64) / (u @ matrix @ v)


@op_test("spectral_norm", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("spectral_norm"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize(
    "shape, dim, iters", [((3, 4), 0, 1), ((2, 3, 2), 1, 2), ((3, 2, 2, 1, 2), 0, 0)]
)
def test_spectral_norm_divides_by_the_iterated_sigma(dtype, shape, dim, iters) -> None:
    rng = np.random.default_rng(24)
    weight = rng.normal(size=shape).astype(dtype.numpy_dtype)
    u = rng.normal(size=shape[dim]).astype(dtype.numpy_dtype)
    v = rng.normal(size=math.prod(shape) // shape[dim]).astype(dtype.numpy_dtype)
    out = C.spectral_norm(t(weight), t(u), t(v), dim, iters, 1e-12)
    assert out.dtype == dtype and out.shape == list(shape)
    want = spectral_norm_reference(weight, u, v, dim, iters, 1e-12)
    np.testing.assert_allclose(out.numpy(), want, **tol(dtype))


@op_test("spectral_norm", kind="edge")
def test_spectral_norm_of_a_non_contiguous_weight_leaves_u_and_v_as_they_are() -> None:
    rng = np.random.default_rng(25)
    base = rng.normal(size=(4, 3))
    u, v = rng.normal(size=3), rng.normal(size=4)
    ut, vt = t(u), t(v)
    out = C.spectral_norm(t(base).T, ut, vt, 0, 3, 1e-12)
    np.testing.assert_allclose(out.numpy(), spectral_norm_reference(base.T, u, v, 0, 3, 1e-12))
    np.testing.assert_array_equal(ut.numpy(), u)
    np.testing.assert_array_equal(vt.numpy(), v)


@op_test("spectral_norm", kind="edge")
def test_spectral_norm_eps_enters_each_normalisation() -> None:
    weight = np.array([[2.0, 0.0], [0.0, 1.0]])
    out = C.spectral_norm(t(weight), t([1.0, 0.0]), t([1.0, 0.0]), 0, 1, 1.0)
    # v = [2, 0] / 3, u = W v / (|W v| + 1) = [4/3, 0] / (7/3), sigma = u . W v = 16/21
    np.testing.assert_allclose(out.numpy(), weight * 21 / 16)


@pytest.mark.parametrize(
    "shape, dim, iters, u_len, v_len, message",
    [
        ((4,), 0, 1, 4, 1, "'weight' must have rank 2 to 5"),
        ((1, 1, 1, 1, 1, 2), 0, 1, 1, 2, "'weight' must have rank 2 to 5"),
        ((3, 4), 2, 1, 3, 4, "'dim' must be 0 or 1"),
        ((3, 4), -1, 1, 3, 4, "'dim' must be 0 or 1"),
        ((3, 4), 0, -1, 3, 4, "'power_iters' must be at least 0"),
        ((3, 4), 0, 1, 4, 4, "'u' must have 3 elements"),
        ((3, 4), 1, 1, 4, 4, "'v' must have 3 elements"),
    ],
)
def test_spectral_norm_refuses_bad_input_naming_the_argument(
    shape, dim, iters, u_len, v_len, message
) -> None:
    with pytest.raises(InvalidArgumentError, match=r"spectral_norm\(\): argument " + message):
        C.spectral_norm(
            t(np.ones(shape, "float32")), t(np.ones(u_len, "float32")), t(np.ones(v_len, "float32")),
            dim, iters, 1e-12,
        )  # fmt: skip


def test_spectral_norm_refuses_u_of_another_dtype() -> None:
    with pytest.raises(InvalidArgumentError, match="argument 'u' must have weight's dtype float32"):
        C.spectral_norm(t(np.ones((3, 4), "float32")), t(np.ones(3)), t(np.ones(4, "float32")))


def test_spectral_norm_grad_is_paddles_formula() -> None:
    """PaddlePaddle's spectral_norm_grad (not the derivative beyond 1x1): G (1 - u v^T
    sum(W / sigma)) / sigma with the iterated u, v and sigma."""
    rng = np.random.default_rng(26)
    weight, grad = rng.normal(size=(3, 4)), rng.normal(size=(3, 4))
    u, v = rng.normal(size=3), rng.normal(size=4)
    w = t(weight)
    w.stop_gradient = False
    (got,) = phiops.grad([C.spectral_norm(w, t(u), t(v), 0, 2, 1e-12)], [w], [t(grad)])
    uu, vv = u, v
    for _ in range(2):
        vv = weight.T @ uu / (np.linalg.norm(weight.T @ uu) + 1e-12)
        uu = weight @ vv / (np.linalg.norm(weight @ vv) + 1e-12)
    sigma = uu @ weight @ vv
    want = grad * (1 - np.outer(uu, vv) * (weight / sigma).sum()) / sigma
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10)


def test_spectral_norm_layer_holds_untrained_vectors_of_the_matrix_sides() -> None:
    layer = phiops.nn.SpectralNorm([2, 3, 4], dim=1, power_iters=2, dtype="float64")
    assert layer.weight_u.shape == [3] and layer.weight_v.shape == [8]
    assert layer.weight_u.stop_gradient and layer.weight_v.stop_gradient
    assert layer.weight_u.dtype == DataType.FLOAT64
    weight = np.random.default_rng(27).normal(size=(2, 3, 4))
    u, v = layer.weight_u.numpy(), layer.weight_v.numpy()
    out = layer(t(weight))
    np.testing.assert_allclose(out.numpy(), spectral_norm_reference(weight, u, v, 1, 2, 1e-12))
    np.testing.assert_array_equal(layer.weight_u.numpy(), u)


@pytest.mark.parametrize(
    "shape, dim, message",
    [([2, 0, 3], 0, "no extent of weight_shape may be 0"), ([2, 3], 2, "dim")],
)
def test_spectral_norm_layer_refuses_bad_shapes(shape, dim, message) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        phiops.nn.SpectralNorm(shape, dim=dim)


# -- distribute_fpn_proposals -------------------------------------------------------------------


def fpn_reference(rois, counts, min_level, max_level, refer_level, refer_scale, offset):
    """(levels' rois, levels' per-image counts, restore index) from the definition."""
    width, height = rois[:, 2] - rois[:, 0], rois[:, 3] - rois[:, 1]
    if offset:
        width, height = width + 1, height + 1
    area = np.where((rois[:, 2] >= rois[:, 0]) & (rois[:, 3] >= rois[:, 1]), width * height, 0)
    with np.errstate(divide="ignore"):
        level = np.floor(np.log2(np.sqrt(area) / refer_scale + 1e-6) + refer_level)
    level = np.clip(level, min_level, max_level).astype(int)
    image = np.repeat(np.arange(len(counts)), counts)
    levels = range(min_level, max_level + 1)
    multi = [rois[level == lvl] for lvl in levels]
    per_image = [np.bincount(image[level == lvl], minlength=len(counts)) for lvl in levels]
    order = [i for lvl in levels for i in range(len(rois)) if level[i] == lvl]
    restore = np.empty(len(rois), int)
    restore[order] = np.arange(len(rois))
    return multi, per_image, restore.reshape(-1, 1)


ROIS = np.array(
    [[0, 0, 10, 10], [0, 0, 223, 223], [5, 5, 600, 700], [1, 1, 1, 50], [30, 30, 20, 40],
     [0, 0, 100, 120], [10, 10, 460, 430], [2, 2, 60, 64]]
)  # fmt: skip


def assert_fpn(got, want, dtype) -> None:
    (rois, counts, restore), (w_rois, w_counts, w_restore) = got, want
    assert len(rois) == len(w_rois) == len(counts)
    for mine, theirs in zip(rois, w_rois):
        assert mine.dtype == dtype and mine.shape == list(theirs.shape)
        np.testing.assert_array_equal(mine.numpy(), theirs)
    for mine, theirs in zip(counts, w_counts):
        assert mine.dtype == DataType.INT32
        np.testing.assert_array_equal(mine.numpy(), theirs)
    assert restore.dtype == DataType.INT32
    np.testing.assert_array_equal(restore.numpy(), w_restore)


@op_test("distribute_fpn_proposals", kind="dtypes")
@pytest.mark.parametrize(
    "dtype", cpu_dtypes("distribute_fpn_proposals"), ids=lambda d: d.name.lower()
)
@pytest.mark.parametrize("offset", [False, True])
def test_distribute_fpn_proposals_sends_each_roi_to_its_level(dtype, offset) -> None:
    rois = ROIS.astype(dtype.numpy_dtype)
    counts = np.array([3, 0, 5], np.int32)
    got = C.distribute_fpn_proposals(t(rois), t(counts), 2, 5, 4, 224, offset)
    assert_fpn(got, fpn_reference(rois, counts, 2, 5, 4, 224, offset), dtype)


@op_test("distribute_fpn_proposals", kind="edge")
def test_distribute_fpn_proposals_of_no_rois_gives_empty_levels() -> None:
    rois, counts = np.zeros((0, 4), np.float32), np.array([0, 0], np.int32)
    got = C.distribute_fpn_proposals(t(rois), t(counts), 1, 3, 2, 56, False)
    assert [r.shape for r in got[0]] == [[0, 4]] * 3
    assert [c.numpy().tolist() for c in got[1]] == [[0, 0]] * 3
    assert got[2].shape == [0, 1]


@op_test("distribute_fpn_proposals", kind="edge")
def test_distribute_fpn_proposals_without_rois_num_takes_one_image() -> None:
    rois = ROIS.astype(np.float64)
    got = C.distribute_fpn_proposals(t(rois), None, 2, 5, 4, 224, False)
    assert_fpn(got, fpn_reference(rois, [8], 2, 5, 4, 224, False), DataType.FLOAT64)


@op_test("distribute_fpn_proposals", kind="edge")
def test_distribute_fpn_proposals_sends_nan_and_infinite_rois_to_the_lowest_level() -> None:
    rois = np.array([[0, np.nan, 5, 5], [0, 0, np.inf, np.inf], [0, 0, 500, 500]], np.float32)
    got = C.distribute_fpn_proposals(t(rois), t(np.array([3], np.int32)), 2, 5, 4, 224, False)
    assert [r.shape[0] for r in got[0]] == [2, 0, 0, 1]
    assert got[2].numpy().ravel().tolist() == [0, 1, 2]


def test_distribute_fpn_proposals_through_paddle_vision_ops_and_its_checks() -> None:
    rois, counts = ROIS.astype(np.float32), np.array([8], np.int32)
    multi, restore, per_level = phiops.vision.ops.distribute_fpn_proposals(
        t(rois), 1, 3, 2, 56, pixel_offset=True, rois_num=t(counts)
    )
    assert_fpn(
        (multi, per_level, restore),
        fpn_reference(rois, counts, 1, 3, 2, 56, True),
        DataType.FLOAT32,
    )
    with pytest.raises(InvalidArgumentError, match="'rois_num' is required"):
        phiops.vision.ops.distribute_fpn_proposals(t(rois), 1, 3, 2, 56)
    with pytest.raises(InvalidArgumentError, match="2 to 99 levels"):
        phiops.vision.ops.distribute_fpn_proposals(t(rois), 2, 2, 2, 56, rois_num=t(counts))
    with pytest.raises(InvalidArgumentError, match="must be positive"):
        phiops.vision.ops.distribute_fpn_proposals(t(rois), 0, 2, 2, 56, rois_num=t(counts))


def test_distribute_fpn_proposals_in_a_static_program_takes_the_kernels_extents() -> None:
    """The levels' extents are known only at run time (InferMeta gives [-1, 4]): the executor
    takes them from the kernel's results (runtime/dispatch's _actual_meta)."""
    rois, counts = ROIS.astype(np.float32), np.array([3, 5], np.int32)
    phiops.enable_static()
    try:
        main = phiops.static.Program()
        with phiops.static.program_guard(main):
            x = phiops.static.data("rois", [None, 4], "float32")
            n = phiops.static.data("counts", [2], "int32")
            multi, per_level, restore = C.distribute_fpn_proposals(x, n, 2, 5, 4, 224, False)
            assert [m.shape for m in multi] == [[-1, 4]] * 4
            assert [c.shape for c in per_level] == [[-1]] * 4
        fetched = phiops.static.Executor().run(
            main, feed={"rois": rois, "counts": counts}, fetch_list=[*multi, *per_level, restore]
        )
    finally:
        phiops.disable_static()
    want_rois, want_counts, want_restore = fpn_reference(rois, counts, 2, 5, 4, 224, False)
    for got, want in zip(fetched, [*want_rois, *want_counts, want_restore]):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(
    "rois, counts, levels, message",
    [
        (np.zeros((2, 5)), [2], (2, 5), "'fpn_rois' must be a \\[R, 4\\] tensor"),
        (np.zeros((2, 4)), [[2]], (2, 5), "'rois_num' must be a 1-D tensor"),
        (np.zeros((2, 4)), [2], (5, 2), "'max_level' must be at least min_level"),
        (np.zeros((2, 4)), [3], (2, 5), "counts that sum to fpn_rois's 2 rois"),
    ],
)
def test_distribute_fpn_proposals_refuses_bad_input_naming_the_argument(
    rois, counts, levels, message
) -> None:
    with pytest.raises(InvalidArgumentError, match=r"distribute_fpn_proposals\(\): .*" + message):
        C.distribute_fpn_proposals(
            t(rois.astype("float32")), t(np.array(counts, "int32")), *levels, 4, 224, False
        )


def test_distribute_fpn_proposals_refuses_int64_counts_and_a_zero_scale() -> None:
    rois = t(np.zeros((2, 4), "float32"))
    with pytest.raises(InvalidArgumentError, match="'rois_num' must be int32, got int64"):
        C.distribute_fpn_proposals(rois, t(np.array([2])), 2, 5, 4, 224, False)
    with pytest.raises(InvalidArgumentError, match="'refer_scale' must be positive"):
        C.distribute_fpn_proposals(rois, t(np.array([2], "int32")), 2, 5, 4, 0, False)


# -- fused_softmax_mask_upper_triangle ----------------------------------------------------------


def causal_reference(x: np.ndarray) -> np.ndarray:
    n = x.shape[-1]
    out = np.zeros(x.shape, np.float64)
    for q in range(n):
        row = x[..., q, : q + 1].astype(np.float64)
        e = np.exp(row - row.max(-1, keepdims=True))
        out[..., q, : q + 1] = e / e.sum(-1, keepdims=True)
    return out


@op_test("fused_softmax_mask_upper_triangle", kind="dtypes")
@pytest.mark.parametrize(
    "dtype", cpu_dtypes("fused_softmax_mask_upper_triangle"), ids=lambda d: d.name.lower()
)
def test_fused_softmax_mask_upper_triangle_is_the_causal_softmax(dtype) -> None:
    x = np.random.default_rng(28).normal(size=(2, 3, 5, 5)).astype(dtype.numpy_dtype)
    out = C.fused_softmax_mask_upper_triangle(t(x))
    assert out.dtype == dtype and out.shape == [2, 3, 5, 5]
    np.testing.assert_allclose(out.numpy(), causal_reference(x), **tol(dtype))
    np.testing.assert_allclose(
        phiops.incubate.softmax_mask_fuse_upper_triangle(t(x)).numpy(), out.numpy()
    )


@op_test("fused_softmax_mask_upper_triangle", kind="edge")
def test_fused_softmax_mask_upper_triangle_edges() -> None:
    # empty batch, one key, large scores, a non-contiguous input
    assert C.fused_softmax_mask_upper_triangle(t(np.zeros((0, 2, 3, 3)))).shape == [0, 2, 3, 3]
    np.testing.assert_array_equal(
        C.fused_softmax_mask_upper_triangle(t(np.full((1, 1, 1, 1), 7.0))).numpy(), [[[[1.0]]]]
    )
    big = np.array([[[[1e4, 5.0], [-1e4, 1e4]]]])
    np.testing.assert_allclose(
        C.fused_softmax_mask_upper_triangle(t(big)).numpy(), [[[[1.0, 0.0], [0.0, 1.0]]]]
    )
    x = np.random.default_rng(29).normal(size=(1, 2, 4, 4))
    swapped = t(x.transpose(0, 1, 3, 2)).transpose([0, 1, 3, 2])
    np.testing.assert_allclose(
        C.fused_softmax_mask_upper_triangle(swapped).numpy(), causal_reference(x)
    )


@pytest.mark.parametrize(
    "shape, message",
    [
        ((3, 3), "must be a 4-D"),
        ((1, 1, 2, 3), "must have key_len equal to query_len, got key_len 3"),
    ],
)
def test_fused_softmax_mask_upper_triangle_refuses_bad_shapes(shape, message) -> None:
    with pytest.raises(
        InvalidArgumentError,
        match=r"fused_softmax_mask_upper_triangle\(\): argument 'X' " + message,
    ):
        C.fused_softmax_mask_upper_triangle(t(np.zeros(shape, "float32")))
