"""The cases of tests/api/test_tensor_api.py, shared with the script that records PaddlePaddle
3.3.1's results for them (tests/tools/make_tensor_api_fixtures.py): numpy only, no paddle.

Each case: (id, function name, positional arguments, keyword arguments, options). An ``np.ndarray``
argument (or one in a list) becomes a tensor; ``T(array)`` too, a plain Python list stays a
list. Each case runs after ``paddle.seed(SEED)`` (the random ones draw PaddlePaddle's numbers).
Options: ``grad`` records d(sum of the outputs)/d(first tensor), ``method`` calls it as a
Tensor method, ``error`` expects an error, ``attrs`` records those attributes of the
result."""

from __future__ import annotations

import numpy as np


class Raw:
    """An argument passed as it is (a numpy array that must not become a tensor)."""

    def __init__(self, value) -> None:
        self.value = value


SEED = 2025
R = np.random.default_rng(30)
F32 = R.standard_normal((3, 4)).astype("float32")
F64 = R.standard_normal((2, 3, 4))
NAN = np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, 2.0]], dtype="float32")
INF = np.array([1.0, np.nan, np.inf, -np.inf, -2.0], dtype="float64")
I64 = np.array([[0, 3, 0], [5, 0, 7]], dtype="int64")
MASK = np.array([[True, False, True, False]] * 3)
BOOLS = np.array([True, False, False, True, True])
CPLX = (R.standard_normal((2, 3)) + 1j * R.standard_normal((2, 3))).astype("complex64")
CPLX[0, 1] = 0
GCD_X = np.array([[12, -18, 0], [7, 0, 100]], dtype="int64")
GCD_Y = np.array([8, 27, 0], dtype="int64")
SIGNED = np.array([-1.5, -0.0, 0.0, 2.0, -np.inf], dtype="float32")


def cases() -> list[tuple]:
    v3 = np.arange(3, dtype="float32")
    v4 = np.arange(4, dtype="float32") - 1.5
    return [
        ("rank", "rank", [F64], {}, {}),
        ("is_complex", "is_complex", [F32], {}, {}),
        ("is_floating_point", "is_floating_point", [F32], {}, {}),
        ("is_integer", "is_integer", [I64], {}, {}),
        ("is_tensor_t", "is_tensor", [F32], {}, {}),
        ("is_tensor_list", "is_tensor", [[1, 2]], {}, {}),
        ("t_2d", "t", [F32], {}, {"method": True}),
        ("t_1d", "t", [v3], {}, {}),
        ("t_3d", "t", [F64], {}, {"error": True}),
        ("diagflat_2d", "diagflat", [F32[:2, :2]], {"offset": 1}, {}),
        ("diagflat_1d", "diagflat", [v3], {"offset": -1}, {}),
        ("rot90_1", "rot90", [F64], {}, {"method": True}),
        ("rot90_2", "rot90", [F64], {"k": 2, "axes": [1, 2]}, {}),
        ("rot90_m1", "rot90", [F64], {"k": -1, "axes": [0, 2]}, {}),
        ("rot90_same", "rot90", [F64], {"axes": [1, 1]}, {"error": True}),
        ("broadcast_to", "broadcast_to", [v4], {"shape": [3, 4]}, {"grad": True}),
        ("moveaxis_1", "moveaxis", [F64, 0, -1], {}, {"method": True}),
        ("moveaxis_2", "moveaxis", [F64, [0, 1], [2, 0]], {}, {}),
        ("moveaxis_dup", "moveaxis", [F64, [0, 0], [1, 2]], {}, {"error": True}),
        ("unflatten", "unflatten", [F64, -1, [2, -1]], {}, {"method": True}),
        ("atleast_1d", "atleast_1d", [np.float32(2.0), v3], {}, {}),
        ("atleast_2d", "atleast_2d", [np.float32(2.0), v3, F32], {}, {}),
        ("atleast_3d", "atleast_3d", [np.float32(2.0), v3, F32, F64], {}, {}),
        ("hstack_2d", "hstack", [[F32, F32[:, :2]]], {}, {"grad": True}),
        ("hstack_1d", "hstack", [[v3, v4]], {}, {}),
        ("vstack", "vstack", [[v4, F32]], {}, {}),
        ("dstack", "dstack", [[F32, F32]], {}, {}),
        ("column_stack", "column_stack", [[v4, F32.T]], {}, {}),
        ("row_stack", "row_stack", [[F32, v4]], {}, {}),
        ("tensor_split_n", "tensor_split", [np.arange(7.0), 3], {}, {"method": True}),
        ("tensor_split_idx", "tensor_split", [F64, [1, -1]], {"axis": 2}, {}),
        ("hsplit", "hsplit", [F32, 2], {}, {"method": True}),
        ("vsplit", "vsplit", [F32, [1]], {}, {}),
        ("dsplit", "dsplit", [F64, 4], {}, {}),
        ("vsplit_1d", "vsplit", [v3, 1], {}, {"error": True}),
        ("chunk", "chunk", [F64, 2], {"axis": 2}, {"method": True, "grad": True}),
        ("chunk_bad", "chunk", [F32, 5], {}, {"error": True}),
        ("masked_fill_scalar", "masked_fill", [F32, MASK, 2.5], {}, {"method": True, "grad": True}),
        ("masked_fill_tensor", "masked_fill", [F32, MASK[:1], np.float32(-1.0)], {}, {}),
        ("logaddexp", "logaddexp", [F32, F32[::-1].copy()], {}, {"method": True, "grad": True}),
        ("logaddexp_int", "logaddexp", [I64, I64.T.copy().reshape(2, 3)], {}, {}),
        ("nan_to_num", "nan_to_num", [INF], {}, {"method": True}),
        ("nan_to_num_values", "nan_to_num", [INF], {"nan": 9.0, "posinf": 7.0, "neginf": -7.0}, {}),
        ("nansum", "nansum", [NAN], {}, {"method": True}),
        ("nansum_axis", "nansum", [NAN], {"axis": 1, "keepdim": True}, {}),
        ("nanmean", "nanmean", [NAN], {"axis": 0}, {"method": True}),
        ("count_nonzero", "count_nonzero", [I64], {}, {"method": True}),
        ("count_nonzero_axis", "count_nonzero", [I64], {"axis": 1, "keepdim": True}, {}),
        ("inner", "inner", [F64, F32[:2].astype("float64")], {}, {"method": True, "grad": True}),
        ("inner_scalar", "inner", [F32, np.float32(2.0)], {}, {}),
        ("outer", "outer", [v3, F32], {}, {"method": True, "grad": True}),
        ("rad2deg", "rad2deg", [F32], {}, {"method": True}),
        ("rad2deg_int", "rad2deg", [I64], {}, {}),
        ("deg2rad", "deg2rad", [F64], {}, {"method": True}),
        ("diff", "diff", [F32], {}, {"method": True, "grad": True}),
        ("diff_n2_axis0", "diff", [F64], {"n": 2, "axis": 1}, {}),
        ("diff_pend", "diff", [v3], {"prepend": v4, "append": v3}, {}),
        ("diff_bool", "diff", [BOOLS], {}, {}),
        ("var", "var", [F64], {}, {"method": True, "grad": True}),
        ("var_axis", "var", [F32], {"axis": 1, "keepdim": True}, {}),
        ("var_biased", "var", [F32], {"axis": [0, 1], "unbiased": False}, {}),
        ("var_correction", "var", [F64], {"axis": 2, "correction": 2}, {}),
        ("var_one", "var", [F32[:1]], {"axis": 0}, {}),
        ("std", "std", [F32], {}, {"method": True, "grad": True}),
        ("std_axis", "std", [F64], {"axis": [0, 2], "unbiased": False, "keepdim": True}, {}),
        ("frac", "frac", [F32 * 3], {}, {"method": True, "grad": True}),
        ("frac_int", "frac", [I64], {}, {}),
        ("sgn", "sgn", [F32], {}, {"method": True}),
        ("sgn_complex", "sgn", [CPLX], {}, {}),
        ("hypot", "hypot", [F32, F32.T.copy().reshape(3, 4)], {}, {"method": True, "grad": True}),
        ("ldexp", "ldexp", [F32, I64[:1, :1].astype("int32")], {}, {"method": True}),
        ("ldexp_f64", "ldexp", [F64, np.array([2.0, -1.0, 0.0, 3.0])], {}, {}),
        ("gcd", "gcd", [GCD_X, GCD_Y], {}, {"method": True}),
        ("lcm", "lcm", [GCD_X, GCD_Y], {}, {"method": True}),
        ("signbit", "signbit", [SIGNED], {}, {"method": True}),
        ("isposinf", "isposinf", [INF], {}, {"method": True}),
        ("isneginf", "isneginf", [INF], {}, {"method": True}),
        ("isreal", "isreal", [CPLX], {}, {"method": True}),
        ("isreal_float", "isreal", [F32], {}, {}),
        ("sinc", "sinc", [SIGNED], {}, {"method": True, "grad": True}),
        ("polar", "polar", [np.abs(F32), F32], {}, {}),
        ("vecdot", "vecdot", [F64, F64[::-1].copy()], {}, {"method": True, "grad": True}),
        ("vecdot_axis", "vecdot", [F32, F32], {"axis": 0}, {}),
        ("matrix_transpose", "matrix_transpose", [F64], {}, {"method": True}),
        ("tensordot_2", "tensordot", [F64, R.standard_normal((3, 4, 2))], {}, {"grad": True}),
        ("tensordot_list", "tensordot", [F64, F64], {"axes": [[0, 2], [0, 2]]}, {}),
        ("tensordot_0", "tensordot", [F32, v3], {"axes": 0}, {"method": True}),
        ("take", "take", [F32, np.array([[0, -1], [5, 11]])], {}, {"method": True, "grad": True}),
        ("take_wrap", "take", [F32, np.array([13, -14, 2])], {"mode": "wrap"}, {}),
        ("take_clip", "take", [F32, np.array([13, -14, 2])], {"mode": "clip"}, {}),
        ("block_diag", "block_diag", [[F32[:2, :3], v3, np.float32(5.0)]], {}, {"grad": True}),
        ("cartesian_prod", "cartesian_prod", [[v3, v4[:2]]], {}, {}),
        ("isin", "isin", [I64, np.array([3, 7, 9])], {}, {"method": True}),
        ("isin_invert", "isin", [F32[0], F32[0, 1:3]], {"invert": True}, {}),
        ("scatter_nd", "scatter_nd", [np.array([[1], [3], [1]]), v3, [5]], {}, {}),
        ("msort", "msort", [F32], {}, {"method": True}),
        ("range_1", "range", [4], {}, {}),
        ("range_3", "range", [0.0, 1.0, 0.3], {}, {}),
        ("range_down", "range", [5, 0, -2], {"dtype": "int64"}, {}),
        ("swapaxes", "swapaxes", [F64, [2, 0, 1]], {}, {"method": True}),
        ("take_along_dim", "take_along_dim", [F32, np.array([[0], [2], [1]]), 1], {}, {}),
        ("swapdims", "swapdims", [F32, [1, 0]], {}, {"method": True}),
        ("rand_like", "rand_like", [F64], {}, {}),
        ("randn_like", "randn_like", [F32], {"dtype": "float64"}, {}),
        ("randint_like", "randint_like", [F32, 10], {}, {}),
        ("randint_like_2", "randint_like", [I64, -5, 5], {"dtype": "int32"}, {}),
        ("eq", "eq", [F32, F32[::-1].copy()], {}, {}),
        ("ne", "ne", [I64, I64[::-1].copy()], {}, {}),
        ("lt", "lt", [F32, np.float32(0.0)], {}, {}),
        ("le", "le", [I64, I64[::-1].copy()], {}, {}),
        ("gt", "gt", [F64, F64[::-1].copy()], {}, {}),
        ("ge", "ge", [F32, F32.T.copy().reshape(3, 4)], {}, {}),
        ("greater", "greater", [F32, F32[::-1].copy()], {}, {}),
        ("less", "less", [F32, F32[::-1].copy()], {}, {}),
        ("mul", "mul", [F32, F32], {}, {"grad": True}),
        ("sub", "sub", [F32, F32[::-1].copy()], {"alpha": 2}, {}),
        ("div", "div", [F32, F32[::-1].copy()], {"rounding_mode": "floor"}, {}),
        ("mod", "mod", [I64 + 1, np.array([4, 5, 3], dtype="int64")], {}, {}),
        ("floor_mod", "floor_mod", [F32, np.float32(0.7)], {}, {}),
        (
            "finfo",
            "finfo",
            ["float32"],
            {},
            {"attrs": ("bits", "eps", "min", "max", "tiny", "resolution", "dtype")},
        ),
        (
            "finfo_f16",
            "finfo",
            ["float16"],
            {},
            {"attrs": ("bits", "eps", "min", "max", "tiny", "dtype")},
        ),
        (
            "finfo_bf16",
            "finfo",
            ["bfloat16"],
            {},
            {"attrs": ("bits", "eps", "min", "max", "tiny", "dtype")},
        ),
        ("iinfo", "iinfo", ["int16"], {}, {"attrs": ("bits", "min", "max", "dtype")}),
        ("median", "median", [F32], {}, {"method": True, "grad": True}),
        ("median_axis", "median", [F64], {"axis": 1, "keepdim": True}, {}),
        ("median_min", "median", [F32], {"axis": 1, "mode": "min"}, {}),
        ("median_int", "median", [I64], {"axis": 0}, {}),
        ("median_nan", "median", [NAN], {"axis": 1}, {}),
        ("quantile", "quantile", [F32, 0.3], {}, {"method": True, "grad": True}),
        (
            "quantile_list",
            "quantile",
            [F64, [0.1, 0.5, 0.9]],
            {"axis": [0, 2], "keepdim": True},
            {},
        ),
        ("quantile_lower", "quantile", [F32, 0.4], {"axis": 1, "interpolation": "lower"}, {}),
        ("quantile_higher", "quantile", [F32, 0.4], {"axis": 0, "interpolation": "higher"}, {}),
        ("quantile_nearest", "quantile", [F32, 0.4], {"axis": 1, "interpolation": "nearest"}, {}),
        ("quantile_midpoint", "quantile", [F32, 0.4], {"axis": 1, "interpolation": "midpoint"}, {}),
        ("quantile_nan", "quantile", [NAN, 0.5], {"axis": 1}, {}),
        ("nanquantile", "nanquantile", [NAN, [0.25, 0.75]], {"axis": 1}, {"method": True}),
        ("quantile_bad_q", "quantile", [F32, 1.5], {}, {"error": True}),
        (
            "masked_scatter",
            "masked_scatter",
            [F32, MASK, np.arange(12, dtype="float32")],
            {},
            {"method": True},
        ),
        (
            "scatter_add",
            "scatter_add",
            [F32, 1, np.array([[0, 1], [2, 3], [1, 1]]), F32[:, :2].copy()],
            {},
            {},
        ),
        ("index_fill", "index_fill", [F32, np.array([0, 2]), 1, -1.0], {}, {"method": True}),
        ("select_scatter", "select_scatter", [F32, v4, 0, 1], {}, {}),
        (
            "slice_scatter",
            "slice_scatter",
            [F32, np.zeros((3, 2), "float32"), [1], [0], [4], [2]],
            {},
            {},
        ),
        ("diagonal_scatter", "diagonal_scatter", [F32, v3], {}, {}),
        ("as_tensor", "as_tensor", [[[1, 2], [3, 4]]], {"dtype": "float64"}, {}),
        ("asarray", "asarray", [[1.5, 2.5]], {}, {}),
        ("from_numpy", "from_numpy", [Raw(I64)], {}, {}),
        ("view_as_real", "view_as_real", [CPLX], {}, {}),
        ("view_as_complex", "view_as_complex", [F64[0, :, :2].copy()], {}, {}),
        ("argwhere", "argwhere", [I64], {}, {}),
        (
            "bucketize",
            "bucketize",
            [F32, np.array([-1.0, 0.0, 1.0], "float32")],
            {},
            {"method": True},
        ),
        (
            "bucketize_right",
            "bucketize",
            [I64, np.array([0, 3, 5], "int64")],
            {"right": True, "out_int32": True},
            {},
        ),
        ("trapezoid", "trapezoid", [F32], {}, {"grad": True}),
        ("trapezoid_x", "trapezoid", [F64], {"x": np.array([0.0, 0.5, 2.0, 2.5]), "axis": 2}, {}),
        ("trapezoid_dx", "trapezoid", [F32], {"dx": 0.5, "axis": 0}, {}),
        ("cumulative_trapezoid", "cumulative_trapezoid", [F64], {"axis": 1}, {"grad": True}),
        ("combinations", "combinations", [v4], {}, {}),
        ("combinations_3", "combinations", [v4], {"r": 3, "with_replacement": True}, {}),
        ("frexp", "frexp", [SIGNED[:4] * 3], {}, {"method": True}),
        ("multigammaln", "multigammaln", [np.abs(F64) + 2, 3], {}, {"method": True, "grad": True}),
        ("histogram_bin_edges", "histogram_bin_edges", [F32], {"bins": 4}, {}),
        (
            "histogram_bin_edges_range",
            "histogram_bin_edges",
            [I64],
            {"bins": 3, "min": 1, "max": 4},
            {},
        ),
        ("bitwise_invert", "bitwise_invert", [I64], {}, {"method": True}),
        ("narrow", "narrow", [F64, 2, 1, 2], {}, {"method": True}),
        ("narrow_neg", "narrow", [F32, -1, -3, 2], {}, {}),
        ("broadcast_shape", "broadcast_shape", [[2, 1, 3], [4, 1]], {}, {}),
        ("broadcast_shapes", "broadcast_shapes", [[2, 1, 3], [4, 1], [1]], {}, {}),
    ]


def convert(paddle, value, tensors: list):
    """A case argument for ``paddle`` (PaddlePaddle or phiops): arrays become tensors (float
    ones needing a gradient), collected in ``tensors``; ``Raw`` values pass as they are."""
    if isinstance(value, Raw):
        return value.value
    if isinstance(value, (np.ndarray, np.generic)):
        t = paddle.to_tensor(np.asarray(value))
        if t.dtype in (paddle.float32, paddle.float64):
            t.stop_gradient = False
        tensors.append(t)
        return t
    if isinstance(value, list) and any(isinstance(v, np.ndarray) for v in value):
        return [convert(paddle, v, tensors) for v in value]
    return value


def outputs(result) -> list:
    """A function's result as a list of outputs."""
    return list(result) if isinstance(result, (list, tuple)) else [result]
