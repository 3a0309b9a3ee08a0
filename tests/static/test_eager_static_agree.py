"""Eager and static agree, for every op in the registry (a new op is covered automatically).

Building half (here): each op's API function is called eagerly on tensors and, in static mode,
on ``phi.static.data`` values of the same shapes and dtypes; the built operation's result types
(from InferMeta with MetaConfig(is_runtime=False)) must be the eager outputs' shapes and dtypes
(an extent the data decides, such as nonzero's count, may be -1), and the program must verify and
print/parse back. Run half: the built program runs in the Executor with the eager inputs as
feeds, and the fetched arrays equal the eager outputs (random ops: their shapes and dtypes).

Arguments: float32 [2, 3] tensors, each attribute's default (0, or [2, 3] for an IntArray,
where it has none), or ARGUMENTS[op]. Ops for which those arguments are not valid eagerly are in
NOT_YET_BUILT until they get an ARGUMENTS entry; the list may only shrink.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

import numpy as np
import pytest

import generated as phi
from runtime.dispatch.op_def import op_defs

Tensor = Callable[[tuple[int, ...], str], Any]


def _defaults(function: Callable[..., Any], tensor: Tensor) -> list[Any]:
    values = []
    for parameter in inspect.signature(function).parameters.values():
        if parameter.name == "name":
            break
        annotation = str(parameter.annotation)
        if "list[Tensor]" in annotation:
            values.append([tensor((2, 3), "float32"), tensor((2, 3), "float32")])
        elif "Tensor" in annotation and parameter.default is inspect.Parameter.empty:
            values.append(tensor((2, 3), "float32"))
        elif parameter.default is not inspect.Parameter.empty:
            values.append(parameter.default)
        else:
            values.append([2, 3] if "IntArray" in annotation else 0)
    return values


def _with_integer_inputs(dtype: str) -> Callable[[Callable[..., Any], Tensor], list[Any]]:
    def arguments(function: Callable[..., Any], tensor: Tensor) -> list[Any]:
        return _defaults(function, lambda shape, _: tensor(shape, dtype))

    return arguments


ARGUMENTS: dict[str, Callable[[Callable[..., Any], Tensor], list[Any]]] = {
    "bitwise_and": _with_integer_inputs("int32"),
    "bitwise_or": _with_integer_inputs("int32"),
    "bitwise_xor": _with_integer_inputs("int32"),
    "bitwise_not": _with_integer_inputs("int32"),
    "one_hot": lambda f, t: [t((2, 3), "int64"), 4],
    "full_int_array": lambda f, t: [[2, 3], "int64"],
    "put_along_axis": lambda f, t: [
        t((2, 3), "float32"),
        t((2, 1), "int64"),
        t((2, 1), "float32"),
        1,
    ],
    "gather_grad": lambda f, t: [t((2, 3), "float32"), t((2,), "int64"), t((2, 3), "float32"), 0],
    "matmul": lambda f, t: [t((2, 3), "float32"), t((3, 4), "float32")],
    "transpose": lambda f, t: [t((2, 3), "float32"), [1, 0]],
    "cast": lambda f, t: [t((2, 3), "float32"), "float64"],
    "where": lambda f, t: [t((2, 3), "bool"), t((2, 3), "float32"), t((1, 3), "float32")],
    "split_with_num": lambda f, t: [t((2, 4), "float32"), 2, 1],
    "meshgrid": lambda f, t: [[t((2,), "float32"), t((3,), "float32")]],
    "prod": lambda f, t: [t((2, 3), "float32"), [1], False, False],
    "roll": lambda f, t: [t((2, 3), "float32"), [1], [1]],
    "sgd_": lambda f, t: [t((2, 3), "float32"), t((1,), "float32"), t((2, 3), "float32")],
    "argmax": lambda f, t: [t((2, 3), "float32"), 1, False, False, "int64"],
    "arange": lambda f, t: [0, 5, 1, "int64"],
    "matmul_grad": lambda f, t: [t((2, 3), "float32"), t((3, 4), "float32"), t((2, 4), "float32")],
    "transpose_grad": lambda f, t: [t((3, 2), "float32"), [1, 0]],
    "sum_grad": lambda f, t: [t((2, 3), "float32"), t((2,), "float32"), [1], False],
    "mean_grad": lambda f, t: [t((2, 3), "float32"), t((2,), "float32"), [1]],
    "max_grad": lambda f, t: [t((2, 3), "float32"), t((2,), "float32"), t((2,), "float32"), [1]],
    "min_grad": lambda f, t: [t((2, 3), "float32"), t((2,), "float32"), t((2,), "float32"), [1]],
    "prod_grad": lambda f, t: [
        t((2, 3), "float32"),
        t((2,), "float32"),
        t((2,), "float32"),
        [1],
        False,
        False,
    ],
    "tile_grad": lambda f, t: [t((2, 3), "float32"), t((4, 3), "float32"), [2, 1]],
    "concat_grad": lambda f, t: [
        [t((2, 3), "float32"), t((2, 3), "float32")],
        t((4, 3), "float32"),
        0,
    ],
    "gelu_grad": lambda f, t: [t((2, 3), "float32"), t((2, 3), "float32"), False],
    "logsumexp_grad": lambda f, t: [
        t((2, 3), "float32"),
        t((2,), "float32"),
        t((2,), "float32"),
        [1],
        False,
        False,
    ],
    "cumsum_grad": lambda f, t: [
        t((2, 3), "float32"),
        t((2, 3), "float32"),
        1,
        False,
        False,
        False,
    ],
    "cumprod_grad": lambda f, t: [
        t((2, 3), "float32"),
        t((2, 3), "float32"),
        t((2, 3), "float32"),
        1,
        False,
        False,
    ],
    "pad_grad": lambda f, t: [t((2, 3), "float32"), t((3, 5), "float32"), [1, 0, 0, 2], 0.0],
    "embedding_grad": lambda f, t: [
        t((2, 3), "int64"),
        t((4, 5), "float32"),
        t((2, 3, 5), "float32"),
    ],
    "conv2d_transpose": lambda f, t: [t((2, 3, 5, 5), "float32"), t((3, 4, 3, 3), "float32")],
    "depthwise_conv2d_transpose": lambda f, t: [
        t((2, 3, 5, 5), "float32"),
        t((3, 1, 3, 3), "float32"),
        [1, 1],
        [0, 0],
        [],
        [],
        "EXPLICIT",
        3,
    ],
    "conv3d_transpose": lambda f, t: [t((2, 3, 4, 4, 4), "float32"), t((3, 2, 2, 2, 2), "float32")],
    "assign_value": lambda f, t: [[2, 2], "float32", [1.0, 2.0, 3.0, 4.0]],
    "assign_value_": lambda f, t: [t((2, 2), "float32"), [2, 2], "float32", [1.0, 2.0, 3.0, 4.0]],
    "batch_norm": lambda f, t: [
        t((2, 3, 4, 4), "float32"),
        t((3,), "float32"),
        t((3,), "float32"),
        t((3,), "float32"),
        t((3,), "float32"),
        False,
        0.9,
        1e-5,
        "NCHW",
        False,
        False,
    ],
    "conv2d": lambda f, t: [t((2, 3, 8, 8), "float32"), t((4, 3, 3, 3), "float32")],
    "cross_entropy_with_softmax": lambda f, t: [t((4, 5), "float32"), t((4, 1), "int64")],
    "dropout": lambda f, t: [t((2, 3), "float32"), None, 0.5, True, "upscale_in_train", 0, False],
    "embedding": lambda f, t: [t((2, 3), "int64"), t((4, 5), "float32")],
    "gather": lambda f, t: [t((4, 3), "float32"), t((2,), "int64"), 0],
    "gaussian": lambda f, t: [[2, 3], 0.0, 1.0, 0, "float32"],
    "group_norm": lambda f, t: [t((2, 4, 3, 3), "float32"), None, None, 1e-5, 2],
    "index_select": lambda f, t: [t((4, 3), "float32"), t((2,), "int64"), 1],
    "layer_norm": lambda f, t: [t((2, 3, 4), "float32"), t((12,), "float32"), t((12,), "float32")],
    "linspace": lambda f, t: [0.0, 1.0, 5, "float32", None],
    "masked_select": lambda f, t: [t((2, 3), "float32"), t((2, 3), "bool")],
    "pad": lambda f, t: [t((2, 3), "float32"), [1, 0, 0, 2], 0.0],
    "pool2d": lambda f, t: [
        t((2, 3, 6, 6), "float32"),
        [2, 2],
        [2, 2],
        [0, 0],
        False,
        True,
        "NCHW",
        "max",
        False,
        False,
        "EXPLICIT",
    ],
    "randint": lambda f, t: [0, 5, [2, 3]],
    "randperm": lambda f, t: [6, "int64"],
    "scatter": lambda f, t: [t((4, 3), "float32"), t((2,), "int64"), t((2, 3), "float32")],
    "slice": lambda f, t: [t((4, 3), "float32"), [0], [1], [3], [1], []],
    "split": lambda f, t: [t((2, 6), "float32"), [2, 4], 1],
    "strided_slice": lambda f, t: [t((4, 6), "float32"), [1], [0], [6], [2]],
    "take_along_axis": lambda f, t: [t((4, 3), "float32"), t((2, 3), "int64"), 0],
    "uniform": lambda f, t: [[2, 3], "float32", -1.0, 1.0, 0],
    "unique": lambda f, t: [t((6,), "int64"), True, True, True, []],
    "index_select_grad": lambda f, t: [
        t((2, 3), "float32"),
        t((2,), "int64"),
        t((2, 3), "float32"),
        0,
    ],
}


def _eager_tensor(shape: tuple[int, ...], dtype: str) -> phi.Tensor:
    rng = np.random.default_rng(len(shape))
    if dtype.startswith("int") or dtype == "bool":
        return phi.to_tensor(rng.integers(0, 2, size=shape).astype(dtype))
    return phi.to_tensor(rng.uniform(0.5, 1.5, size=shape).astype(dtype))


def _flat(out: Any) -> list[Any]:
    if isinstance(out, (list, tuple)):
        return [item for part in out for item in _flat(part)]
    return [out]


def _eager_metas(op: str) -> list[Any]:
    function = _API[op]
    outputs = function(*ARGUMENTS.get(op, _defaults)(function, _eager_tensor))
    return [None if t is None else (list(t.shape), t.dtype) for t in _flat(outputs)]


def _build(op: str) -> tuple[phi.static.Program, list[Any]]:
    main, outputs, _ = _build_with_feeds(op)
    return main, [None if v is None else (v.shape, v.dtype) for v in outputs]


def _build_with_feeds(op: str) -> tuple[phi.static.Program, list[Any], dict[str, np.ndarray]]:
    """The program, its flat outputs, and feeds equal to the inputs ``_eager_metas`` uses."""
    function = _API[op]
    feeds: dict[str, np.ndarray] = {}

    def value(shape: tuple[int, ...], dtype: str) -> phi.static.Value:
        name = f"input_{len(feeds)}"
        feeds[name] = _eager_tensor(shape, dtype).numpy()
        return phi.static.data(name, list(shape), dtype)

    main = phi.static.Program()
    with phi.static.program_guard(main, phi.static.Program()):
        outputs = function(*ARGUMENTS.get(op, _defaults)(function, value))
    return main, _flat(outputs), feeds


def _eager_values(op: str) -> list[Any]:
    function = _API[op]
    outputs = function(*ARGUMENTS.get(op, _defaults)(function, _eager_tensor))
    return [None if t is None else t.numpy() for t in _flat(outputs)]


_API = {op.name: op.api for op in op_defs() if op.api is not None}

NOT_YET_BUILT = frozenset("""
    adam_ adamw_ argsort_grad batch_norm_ batch_norm_grad bilinear_interp bilinear_interp_grad
    conv2d_grad conv2d_transpose_grad conv3d conv3d_grad conv3d_transpose_grad
    cross_entropy_with_softmax_grad depthwise_conv2d depthwise_conv2d_grad
    depthwise_conv2d_transpose_grad diag_grad dropout_grad gather_nd gather_nd_grad
    group_norm_grad index_put index_put_grad instance_norm_grad layer_norm_grad
    masked_select_grad max_pool2d_with_index max_pool2d_with_index_grad merged_adam_
    merged_momentum_ meshgrid_grad mish mish_grad momentum_ nearest_interp nearest_interp_grad
    pad3d pad3d_grad pool2d_grad pool3d pool3d_grad prelu prelu_grad put_along_axis_grad
    scatter_grad scatter_nd_add scatter_nd_add_grad set_value set_value_grad
    set_value_with_tensor set_value_with_tensor_grad sigmoid_double_grad slice_grad
    strided_slice_grad take_along_axis_grad topk_grad unique
    """.split())


def _eager_works(op: str) -> bool:
    try:
        _eager_metas(op)
    except Exception:
        return False
    return True


def test_not_yet_built_lists_exactly_the_ops_without_valid_arguments():
    phi.disable_static()
    failing = {op for op in _API if not _eager_works(op)}
    # work eagerly but cannot be built: PaddlePaddle's pd_op.mish has `lambda` where phiops has
    # `threshold`, pd_op.unique an `is_sorted` that phiops' unique lacks, and
    # pd_op.sigmoid_double_grad (3.3.1's operands) a `grad_out` that phiops' lacks
    unbuildable = {"mish", "mish_grad", "unique", "sigmoid_double_grad"}
    assert sorted(failing ^ (NOT_YET_BUILT - unbuildable)) == [], "update NOT_YET_BUILT/ARGUMENTS"


@pytest.mark.parametrize("op", sorted(set(_API) - NOT_YET_BUILT))
def test_static_result_types_are_the_eager_output_metas(op):
    phi.disable_static()
    eager = _eager_metas(op)
    phi.enable_static()
    main, built = _build(op)
    assert len(built) == len(eager)
    for got, want in zip(built, eager):
        if want is None:
            assert got is None
            continue
        (dims, dtype), (eager_dims, eager_dtype) = got, want
        assert dtype == eager_dtype
        assert len(dims) == len(eager_dims)
        assert all(d == e or d == -1 for d, e in zip(dims, eager_dims)), (dims, eager_dims)
    phi.ir.verify(main)
    assert str(phi.ir.parse_program(str(main))) == str(main)


# Their values are random draws; shapes and dtypes are compared.
RANDOM = frozenset("bernoulli dropout gaussian randint randperm uniform".split())


@pytest.mark.parametrize("op", sorted(set(_API) - NOT_YET_BUILT))
def test_running_the_built_program_gives_the_eager_values(op):
    from runtime.static import Executor, Scope

    phi.disable_static()
    eager = _eager_values(op)
    phi.enable_static()
    try:
        main, outputs, feeds = _build_with_feeds(op)
    finally:
        phi.disable_static()
    fetched = [v for v in outputs if v is not None]
    results = Executor().run(main, feed=feeds, fetch_list=fetched, scope=Scope())
    want = [array for array in eager if array is not None]
    assert len(results) == len(want)
    for got, expected in zip(results, want):
        got = np.asarray(got)
        assert got.shape == expected.shape and got.dtype == expected.dtype, op
        if op not in RANDOM:
            np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6, err_msg=op)
