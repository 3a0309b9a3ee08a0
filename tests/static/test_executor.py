"""Executor.run: feeds, fetches, scopes, plans cached per feed signature, releases, errors."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.dispatch.dispatcher import OpDispatcher
from phiops.runtime.errors import (
    PhiError,
    InvalidArgumentError,
    NotFoundError,
    PreconditionNotMetError,
    UnimplementedError,
)
from phiops.runtime.formats.pir_json import load_program_json
from phiops.runtime.ir import Operation, parse_program
from phiops.runtime.static import Executor, Scope, global_scope, scope_guard

IR = Path(__file__).resolve().parents[1] / "data" / "ir"


def program(name: str):
    return parse_program((IR / f"{name}.txt").read_text(encoding="utf-8"), name)


def text_program(body: str):
    return parse_program("{\n" + body.strip("\n") + "\n}\n", "test")


DATA = '{{dtype:{dtype},name:"{name}",place:Place(undefined:0),shape:{shape},stop_gradient:[true]}}'


def data_op(index: int, name: str, shape: str, type_: str, dtype: str = "float32") -> str:
    attrs = DATA.format(dtype=dtype, name=name, shape=shape)
    return f'    (%{index}) = "pd_op.data" () {attrs} : () -> {type_}'


def chain_program(count: int, size: int):
    """x -> exp -> exp ... (count ops) on a float64 vector of ``size`` elements."""
    t = f"tensor<{size}xf64>"
    lines = [data_op(0, "x", f"[{size}]", t, "float64")]
    for i in range(1, count + 1):
        lines.append(
            f'    (%{i}) = "pd_op.tanh" (%{i - 1}) {{stop_gradient:[true]}} : ({t}) -> {t}'
        )
    return text_program("\n".join(lines))


def mlp_params() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(3)
    return {
        "linear_0.w_0": rng.standard_normal((8, 16)).astype(np.float32),
        "linear_0.b_0": rng.standard_normal(16).astype(np.float32),
        "linear_1.w_0": rng.standard_normal((16, 4)).astype(np.float32),
        "linear_1.b_0": rng.standard_normal(4).astype(np.float32),
    }


def mlp_numpy(params: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    hidden = np.maximum(x @ params["linear_0.w_0"] + params["linear_0.b_0"], 0)
    return hidden @ params["linear_1.w_0"] + params["linear_1.b_0"]


def mlp_scope() -> Scope:
    scope = Scope()
    for name, array in mlp_params().items():
        scope.var(name).set(array)
    return scope


# -- feeds ---------------------------------------------------------------------------------


def test_feed_with_unknown_batch_extent_runs_any_batch() -> None:
    p, scope = program("11_mlp"), mlp_scope()
    exe = Executor()
    for batch in (1, 5):
        x = np.random.default_rng(batch).standard_normal((batch, 8)).astype(np.float32)
        (out,) = exe.run(p, {"x": x}, [p.value("%9")], scope=scope)
        np.testing.assert_allclose(out, mlp_numpy(mlp_params(), x), rtol=1e-5, atol=1e-5)


def test_missing_feed_is_an_error_naming_it() -> None:
    p = program("01_elementwise_broadcast")
    with pytest.raises(InvalidArgumentError, match="feed 'w' is missing"):
        Executor().run(p, {"x": np.ones((2, 3, 4), "float32"), "y": np.ones((3, 1), "float32")})


def test_feed_of_wrong_dtype_is_an_error_naming_it() -> None:
    p = program("02_matmul_transpose")
    feed = {
        "a": np.ones((3, 4)),
        "b": np.ones((5, 4), "float32"),
        "v": np.ones((1, 2, 3), "float32"),
        "m": np.ones((3, 2), "float32"),
    }
    with pytest.raises(InvalidArgumentError, match="feed 'a' must be float32.*got float64"):
        Executor().run(p, feed)


def test_feed_of_wrong_shape_is_an_error_naming_it() -> None:
    p = program("11_mlp")
    with pytest.raises(
        InvalidArgumentError, match=r"feed 'x' has shape \[2, 7\].*declares \[-1, 8\]"
    ):
        Executor().run(p, {"x": np.ones((2, 7), "float32")}, scope=mlp_scope())


def test_feed_of_wrong_rank_is_an_error_naming_it() -> None:
    p = program("11_mlp")
    with pytest.raises(InvalidArgumentError, match=r"feed 'x' has shape \[8\]"):
        Executor().run(p, {"x": np.ones(8, "float32")}, scope=mlp_scope())


def test_feed_name_not_in_program_is_an_error() -> None:
    p = program("11_mlp")
    with pytest.raises(InvalidArgumentError, match="feed 'z' is not a data op.*\\['x'\\]"):
        Executor().run(p, {"x": np.ones((1, 8), "float32"), "z": 1}, scope=mlp_scope())


def test_feed_accepts_lists_and_tensors() -> None:
    p = program("09_scale")
    exe = Executor()
    x = [1.0, 2.0, 3.0]
    (a,) = exe.run(p, {"x": x, "i": [1, 2, 3]}, [p.value("%3")])
    (b,) = exe.run(p, {"x": phi.to_tensor(np.array(x, "float32")), "i": [1, 2, 3]}, [p.value("%3")])
    np.testing.assert_allclose(a, np.array(x) * 2 + 1)
    np.testing.assert_array_equal(a, b)


# -- fetches -------------------------------------------------------------------------------


def test_fetch_by_fetch_op_name_and_default_fetches() -> None:
    p = program("32_save_inference_model")
    scope = Scope()
    params = mlp_params()
    for old, new in (("linear_0", "linear_5"), ("linear_1", "linear_6")):
        for suffix in (".w_0", ".b_0"):
            scope.set(new + suffix, params[old + suffix])
    x = np.ones((2, 8), "float32")
    exe = Executor()
    (by_name,) = exe.run(p, {"x": x}, ["fetch_name_0"], scope=scope)
    (default,) = exe.run(p, {"x": x}, scope=scope)
    np.testing.assert_allclose(by_name, mlp_numpy(params, x), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(by_name, default)


def test_fetch_by_data_and_parameter_name() -> None:
    p, scope = program("11_mlp"), mlp_scope()
    x = np.ones((2, 8), "float32")
    fed, weight = Executor().run(p, {"x": x}, ["x", "linear_1.w_0"], scope=scope)
    np.testing.assert_array_equal(fed, x)
    np.testing.assert_array_equal(weight, mlp_params()["linear_1.w_0"])


def test_shadow_output_stores_into_the_scope_and_is_fetched_by_name() -> None:
    p = text_program(data_op(0, "x", "[2]", "tensor<2xf32>") + """
    (%1) = "pd_op.tanh" (%0) {stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>
    () = "builtin.shadow_output" (%1) {output_name:"out"} : (tensor<2xf32>) -> 
""")
    scope = Scope()
    (out,) = Executor().run(p, {"x": np.array([0.5, -1.0], "float32")}, ["out"], scope=scope)
    np.testing.assert_allclose(out, np.tanh([0.5, -1.0]), rtol=1e-6)
    np.testing.assert_array_equal(scope.get("out"), out)


def test_fetch_of_an_unset_optional_output_is_an_error() -> None:
    # phiops' batch_norm leaves reserve_space (%18) unset
    p = program("12_conv_pool_bn")
    saved = np.load(IR.parent / "executor" / "12_conv_pool_bn.npz")
    scope = Scope()
    for key in saved.files:
        if key.startswith("scope/"):
            scope.set(key[6:], saved[key])
    with pytest.raises(InvalidArgumentError, match="target %18 holds no array: pd_op.batch_norm_"):
        Executor().run(p, {"x": saved["feed/x"]}, [p.value("%18")], scope=scope)


def test_fetch_unknown_name_lists_the_names() -> None:
    p = program("11_mlp")
    with pytest.raises(NotFoundError, match="fetch name 'nope'.*'linear_0.b_0'"):
        Executor().run(p, {"x": np.ones((1, 8), "float32")}, ["nope"], scope=mlp_scope())


def test_fetch_a_single_value_without_a_list() -> None:
    p = program("09_scale")
    (out,) = Executor().run(p, {"x": [1.0, 2.0, 3.0], "i": [1, 2, 3]}, p.value("%11"))
    np.testing.assert_array_equal(out, [3, 6, 9])


def test_return_numpy_false_gives_tensors() -> None:
    p = program("09_scale")
    (out,) = Executor().run(
        p, {"x": [1.0, 2.0, 3.0], "i": [1, 2, 3]}, [p.value("%3")], return_numpy=False
    )
    assert isinstance(out, phi.Tensor)
    assert out.shape == [3] and out.dtype == phi.float32
    np.testing.assert_allclose(out.numpy(), [3.0, 5.0, 7.0])


def test_fetched_parameter_is_a_copy() -> None:
    p, scope = program("11_mlp"), mlp_scope()
    (weight,) = Executor().run(p, {"x": np.ones((1, 8), "float32")}, ["linear_0.w_0"], scope=scope)
    weight[...] = 0
    assert np.asarray(scope.get("linear_0.w_0")).any()


# -- scopes and parameters -----------------------------------------------------------------


def test_startup_program_writes_parameters_into_the_scope() -> None:
    scope = Scope()
    Executor().run(program("11_mlp_startup"), scope=scope)
    assert sorted(scope.local_var_names()) == [
        "linear_0.b_0",
        "linear_0.w_0",
        "linear_1.b_0",
        "linear_1.w_0",
    ]
    w0 = np.asarray(scope.get("linear_0.w_0"))
    assert w0.shape == (8, 16) and w0.dtype == np.float32
    assert np.abs(w0).max() <= 0.5 and w0.std() > 0.1  # uniform(-0.5, 0.5)
    assert np.abs(np.asarray(scope.get("linear_1.w_0"))).max() <= 0.547723
    np.testing.assert_array_equal(scope.get("linear_0.b_0"), np.zeros(16, "float32"))


def test_initializers_startup_program() -> None:
    scope = Scope()
    Executor().run(load_program_json(IR / "24_initializers_startup_startup.json"), scope=scope)
    normal = np.asarray(scope.get("create_parameter_1.w_0"))
    assert normal.shape == (3, 4) and normal.dtype == np.float32
    uniform = np.asarray(scope.get("create_parameter_2.w_0"))
    assert uniform.shape == (4,) and np.abs(uniform).max() <= 0.5
    np.testing.assert_array_equal(scope.get("create_parameter_3.w_0"), np.full(2, 3.0))


def test_startup_then_main_in_the_global_scope() -> None:
    with scope_guard(Scope()) as scope:
        exe = Executor()
        exe.run(program("11_mlp_startup"))
        assert global_scope() is scope
        p = program("11_mlp")
        x = np.ones((3, 8), "float32")
        (out,) = exe.run(p, {"x": x}, [p.value("%9")])
    params = {name: np.asarray(scope.get(name)) for name in scope.local_var_names()}
    np.testing.assert_allclose(out, mlp_numpy(params, x), rtol=1e-5, atol=1e-6)
    assert global_scope() is not scope


def test_missing_parameter_is_an_error_naming_it() -> None:
    with pytest.raises(
        PreconditionNotMetError, match="parameter 'linear_1.b_0' is not in the scope"
    ):
        Executor().run(program("11_mlp"), {"x": np.ones((1, 8), "float32")}, scope=Scope())


def test_parameter_of_wrong_shape_is_an_error_naming_it() -> None:
    scope = mlp_scope()
    scope.set("linear_0.w_0", np.ones((8, 15), "float32"))
    with pytest.raises(PreconditionNotMetError, match="parameter 'linear_0.w_0'.*8x16xf32"):
        Executor().run(program("11_mlp"), {"x": np.ones((1, 8), "float32")}, scope=scope)


def test_sgd_updates_parameters_in_the_scope_every_run() -> None:
    p = program("16_sgd_minimize")
    scope = Scope()
    rng = np.random.default_rng(0)
    shapes = {
        "linear_2.w_0": (8, 16),
        "linear_2.b_0": (16,),
        "linear_3.w_0": (16, 4),
        "linear_3.b_0": (4,),
    }
    for name, shape in shapes.items():
        scope.set(name, rng.standard_normal(shape).astype(np.float32))
    scope.set("learning_rate_0", np.array(0.1, "float32"))
    x = rng.standard_normal((4, 8)).astype(np.float32)
    exe = Executor()
    losses = [float(exe.run(p, {"x": x}, [p.value("%12")], scope=scope)[0]) for _ in range(3)]
    # mean(out) goes down by lr * |d mean / d params|^2 each step
    assert losses[0] > losses[1] > losses[2]


def test_scope_find_var_searches_parents() -> None:
    parent = Scope()
    parent.set("a", np.ones(2))
    child = parent.new_scope()
    assert child.find_var("a") is parent.find_var("a")
    assert child.find_var("b") is None
    child.var("b")
    assert not child.find_var("b").is_initialized()
    assert parent.find_var("b") is None


def test_scope_get_of_unknown_name_is_an_error() -> None:
    with pytest.raises(NotFoundError, match="scope has no variable 'w'"):
        Scope().get("w")


def test_scope_variable_set_get_tensor_spelling() -> None:
    scope = Scope()
    scope.var("w").get_tensor().set(np.arange(3.0), phi.CPUPlace())
    np.testing.assert_array_equal(np.array(scope.find_var("w").get_tensor()), np.arange(3.0))


# -- plans -----------------------------------------------------------------------------------


def count_plans(monkeypatch) -> list:
    calls: list = []
    original = OpDispatcher.plan

    def counting(self, metas, attrs):
        calls.append(self.info.name)
        return original(self, metas, attrs)

    monkeypatch.setattr(OpDispatcher, "plan", counting)
    return calls


def test_plans_once_per_feed_signature(monkeypatch) -> None:
    calls = count_plans(monkeypatch)
    p, scope = program("11_mlp"), mlp_scope()
    exe = Executor()
    fetch = [p.value("%9")]
    exe.run(p, {"x": np.ones((2, 8), "float32")}, fetch, scope=scope)
    assert calls == ["matmul", "add", "relu", "matmul", "add"]
    exe.run(p, {"x": np.zeros((2, 8), "float32")}, fetch, scope=scope)
    assert len(calls) == 5  # same feed metas: only kernels run
    exe.run(p, {"x": np.ones((3, 8), "float32")}, fetch, scope=scope)
    assert len(calls) == 10  # a new batch size plans again
    exe.run(p, {"x": np.ones((2, 8), "float32")}, fetch, scope=scope)
    assert len(calls) == 10


def test_ops_added_after_a_run_are_planned() -> None:
    p = program("09_scale")
    exe = Executor()
    feed = {"x": [1.0, 2.0, 3.0], "i": [1, 2, 3]}
    exe.run(p, feed, [p.value("%3")])
    x = p.value("%0")
    added = p.block.append(Operation("pd_op.exp", [x], [x.type]))
    (out,) = exe.run(p, feed, [added.results[0]])
    np.testing.assert_allclose(out, np.exp([1.0, 2.0, 3.0]), rtol=1e-6)


def test_a_dispatch_flag_change_drops_the_plans(monkeypatch) -> None:
    calls = count_plans(monkeypatch)
    p, scope = program("11_mlp"), mlp_scope()
    exe = Executor()
    feed = {"x": np.ones((2, 8), "float32")}
    exe.run(p, feed, scope=scope)
    old = phi.get_flags(["enable_api_kernel_fallback"])
    phi.set_flags({"enable_api_kernel_fallback": not old["FLAGS_enable_api_kernel_fallback"]})
    try:
        exe.run(p, feed, scope=scope)
    finally:
        phi.set_flags(old)
    assert len(calls) == 10


def test_check_nan_inf_flag_names_the_op() -> None:
    p = program("01_elementwise_broadcast")  # %8 = pow(x, 2.5): NaN for a negative x
    feed = {
        "x": np.full((2, 3, 4), -1.0, "float32"),
        "y": np.ones((3, 1), "float32"),
        "w": np.ones(4, "float32"),
    }
    exe = Executor()
    (out,) = exe.run(p, feed, [p.value("%8")])
    assert np.isnan(out).all()  # without the flag, nothing is checked
    old = phi.get_flags(["check_nan_inf"])
    phi.set_flags({"check_nan_inf": True})
    try:
        with pytest.raises(
            InvalidArgumentError, match=r"pd_op.pow \(op 8, %8\): output 'out' contains NaN"
        ):
            exe.run(p, feed, [p.value("%8")])
    finally:
        phi.set_flags(old)


def test_arrays_are_released_after_their_last_use() -> None:
    # 40 ops on an 8 MB vector: keeping every intermediate would peak at ~330 MB
    p = chain_program(40, 1_000_000)
    x = np.full(1_000_000, 0.5)
    exe = Executor()
    exe.run(p, {"x": x}, [p.value("%40")])
    tracemalloc.start()
    try:
        (out,) = exe.run(p, {"x": x}, [p.value("%40")])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * x.nbytes
    expected = x
    for _ in range(40):
        expected = np.tanh(expected)
    np.testing.assert_allclose(out, expected)


def test_in_place_output_is_seen_by_later_readers_of_its_input() -> None:
    # assign_value_ writes into %0 in place: a later fetch of %0 sees the assigned values
    p = program("07_creation")
    out, zeros = Executor().run(
        p, {"x": np.ones((2, 2), "float32")}, [p.value("%15"), p.value("%14")]
    )
    np.testing.assert_array_equal(out, [1.5, -2.0, 3.25])
    np.testing.assert_array_equal(zeros, out)


# -- what the executor does not run ----------------------------------------------------------


def test_op_without_a_phiops_kernel_is_unimplemented_naming_it() -> None:
    # (28_tensor_array was the example until the tensor-array ops ran: tests/tarray/)
    p = text_program(
        data_op(0, "x", "[2,3]", "tensor<2x3xf32>")
        + '\n    (%1) = "pd_op.c_sync_calc_stream" (%0) {stop_gradient:[true]} : '
        "(tensor<2x3xf32>) -> tensor<2x3xf32>"
    )
    with pytest.raises(
        UnimplementedError, match="pd_op.c_sync_calc_stream.*no op 'c_sync_calc_stream'"
    ):
        Executor().run(p, {"x": np.ones((2, 3), "float32")})


def test_dtype_numpy_lacks_is_a_clear_error() -> None:
    """08_casts casts to bfloat16 (which runs now) and on to float8, which phiops lacks."""
    with pytest.raises(PhiError, match="pd_op.cast.*float8_e4m3fn"):
        Executor().run(program("08_casts"), {"x": np.ones(3, "float32")})


def test_executor_on_a_missing_gpu_is_an_error_naming_the_place() -> None:
    with pytest.raises(InvalidArgumentError, match="place gpu:7 is not available"):
        Executor("gpu:7")


def test_program_must_be_a_program() -> None:
    with pytest.raises(InvalidArgumentError, match="program must be a Program, got str"):
        Executor().run("main")


def test_attribute_from_a_computed_tensor_is_read_when_the_op_runs() -> None:
    p = text_program(
        data_op(0, "x", "[2,3]", "tensor<2x3xf32>")
        + data_op(1, "s", "[2]", "tensor<2xi64>", "int64")
        + """
    (%2) = "pd_op.cast" (%1) {dtype:int32,stop_gradient:[true]} : (tensor<2xi64>) -> tensor<2xi32>
    (%3) = "pd_op.reshape" (%0, %2) {stop_gradient:[true]} : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<-1x-1xf32>
    (%4) = "pd_op.exp" (%3) {stop_gradient:[true]} : (tensor<-1x-1xf32>) -> tensor<-1x-1xf32>
"""
    )
    x = np.arange(6, dtype="float32").reshape(2, 3)
    exe = Executor()
    for shape in ([3, 2], [6, 1], [3, 2]):
        (out,) = exe.run(p, {"x": x, "s": np.array(shape)}, [p.value("%4")])
        np.testing.assert_allclose(out, np.exp(x.reshape(shape)), rtol=1e-6)


def test_late_planned_op_plans_once_per_distinct_input(monkeypatch) -> None:
    calls = count_plans(monkeypatch)
    p = masked_select_program(then_exp=True)
    exe = Executor()
    for x in ([1.0, -1.0, 2.0, -3.0], [4.0, -1.0, 5.0, -3.0], [1.0, 1.0, 1.0, -1.0]):
        (out,) = exe.run(p, {"x": np.array(x, "float32")}, [p.value("%4")])
        np.testing.assert_allclose(out, np.exp([v for v in x if v > 0]), rtol=1e-6)
    # the ops before masked_select's result once; exp once for 2 selected elements, once for 3
    assert calls == ["full", "greater_than", "masked_select", "exp", "exp"]


def test_late_planned_op_checks_the_declared_type() -> None:
    p = text_program(
        data_op(0, "x", "[2,3]", "tensor<2x3xf32>")
        + data_op(1, "s", "[2]", "tensor<2xi64>", "int64")
        + """
    (%2) = "pd_op.reshape" (%0, %1) {stop_gradient:[true]} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<-1x2xf32>
"""
    )
    exe = Executor()
    feed = {"x": np.ones((2, 3), "float32"), "s": np.array([2, 3])}
    with pytest.raises(PreconditionNotMetError, match=r"pd_op.reshape \(op 2, %2\).*-1x2xf32"):
        exe.run(p, feed, [p.value("%2")])


INT64_0D = "{{dtype:int64,place:Place(cpu),shape:[],stop_gradient:[true],value:{value}}}"


def shape_arithmetic_program():
    """x [-1, 6] -> reshape(x, stack([shape64(x)[0], 2, 3])) -> exp, and arange(0,
    shape64(x)[0], 1): the shape PaddlePaddle's exported transformers compute from the feed."""
    return text_program(
        data_op(0, "x", "[-1,6]", "tensor<-1x6xf32>")
        + f"""
    (%1) = "pd_op.shape64" (%0) {{stop_gradient:[true]}} : (tensor<-1x6xf32>) -> tensor<2xi64>
    (%2) = "pd_op.full_int_array" () {{dtype:int64,place:Place(cpu),stop_gradient:[true],value:[0]}} : () -> tensor<1xi64>
    (%3) = "pd_op.full_int_array" () {{dtype:int64,place:Place(cpu),stop_gradient:[true],value:[1]}} : () -> tensor<1xi64>
    (%4) = "pd_op.slice" (%1, %2, %3) {{axes:[0],decrease_axis:[0],infer_flags:[1],stop_gradient:[true]}} : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<i64>
    (%5) = "pd_op.full" () {INT64_0D.format(value=2)} : () -> tensor<i64>
    (%6) = "pd_op.full" () {INT64_0D.format(value=3)} : () -> tensor<i64>
    (%7) = "builtin.combine" (%4, %5, %6) {{stop_gradient:[true]}} : (tensor<i64>, tensor<i64>, tensor<i64>) -> vec[tensor<i64>,tensor<i64>,tensor<i64>]
    (%8) = "pd_op.stack" (%7) {{axis:0,stop_gradient:[true]}} : (vec[tensor<i64>,tensor<i64>,tensor<i64>]) -> tensor<3xi64>
    (%9) = "pd_op.reshape" (%0, %8) {{stop_gradient:[true]}} : (tensor<-1x6xf32>, tensor<3xi64>) -> tensor<-1x2x3xf32>
    (%10) = "pd_op.exp" (%9) {{stop_gradient:[true]}} : (tensor<-1x2x3xf32>) -> tensor<-1x2x3xf32>
    (%11) = "pd_op.full" () {INT64_0D.format(value=0)} : () -> tensor<i64>
    (%12) = "pd_op.full" () {INT64_0D.format(value=1)} : () -> tensor<i64>
    (%13) = "pd_op.arange" (%11, %4, %12) {{dtype:int64,place:Place(undefined:0),stop_gradient:[true]}} : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<-1xi64>
"""
    )


def test_shape_arithmetic_on_the_feeds_dims_is_folded_into_its_readers_plans() -> None:
    # a plan is made for the feed's shape, so shape64's result and the slice and stack of it
    # are known when compiling: reshape, exp and arange are planned ahead (a kernel selected:
    # run_profiled names it), not when they run
    p = shape_arithmetic_program()
    exe = Executor()
    for batch in (2, 4, 2):
        x = np.arange(batch * 6, dtype="float32").reshape(batch, 6)
        (out, steps), timings = exe.run_profiled(p, {"x": x}, [p.value("%10"), p.value("%13")])
        np.testing.assert_allclose(out, np.exp(x.reshape(batch, 2, 3)), rtol=1e-6)
        np.testing.assert_array_equal(steps, np.arange(batch))
        kernels = {label.split(" ")[0]: kernel for label, kernel, _ in timings}
        for name in ("pd_op.reshape", "pd_op.exp", "pd_op.arange"):
            assert kernels[name], f"{name} was planned when it ran"


def test_the_ops_run_while_compiling_are_registered_pure_ops() -> None:
    # _shape_fold runs these kernels while compiling: each must be an op of the registry
    # (no misspelt name), and none draws random numbers or writes its input
    from phiops.runtime.dispatch.op_def import OP_DEFS
    from phiops.runtime.static.executor.steps.kernel import SHAPE_ARITHMETIC_OPS

    for name in sorted(SHAPE_ARITHMETIC_OPS):
        short = name.partition(".")[2]
        assert short in OP_DEFS, name
        info = OP_DEFS[short].info
        assert "seed" not in info.attr_names and not short.endswith("_"), name


def test_a_shape_of_data_dependent_dims_is_read_when_its_reader_runs() -> None:
    t = "tensor<4xf32>"
    p = text_program(
        data_op(0, "x", "[4]", t)
        + f"""
    (%1) = "pd_op.full" () {{dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0}} : () -> tensor<1xf32>
    (%2) = "pd_op.greater_than" (%0, %1) {{stop_gradient:[true]}} : ({t}, tensor<1xf32>) -> tensor<4xb>
    (%3) = "pd_op.masked_select" (%0, %2) {{stop_gradient:[true]}} : ({t}, tensor<4xb>) -> tensor<-1xf32>
    (%4) = "pd_op.shape64" (%3) {{stop_gradient:[true]}} : (tensor<-1xf32>) -> tensor<1xi64>
    (%5) = "pd_op.full" () {INT64_0D.format(value=0)} : () -> tensor<i64>
    (%6) = "pd_op.full" () {INT64_0D.format(value=1)} : () -> tensor<i64>
    (%7) = "pd_op.arange" (%5, %4, %6) {{dtype:int64,place:Place(undefined:0),stop_gradient:[true]}} : (tensor<i64>, tensor<1xi64>, tensor<i64>) -> tensor<-1xi64>
"""
    )
    exe = Executor()
    for x in ([1.0, -1.0, 2.0, -3.0], [1.0, 1.0, 1.0, -1.0], [-1.0, -1.0, -1.0, -1.0]):
        (out,) = exe.run(p, {"x": np.array(x, "float32")}, [p.value("%7")])
        np.testing.assert_array_equal(out, np.arange(sum(v > 0 for v in x)))


def masked_select_program(then_exp: bool):
    t = "tensor<4xf32>"
    body = data_op(0, "x", "[4]", t) + f"""
    (%1) = "pd_op.full" () {{dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0}} : () -> tensor<1xf32>
    (%2) = "pd_op.greater_than" (%0, %1) {{stop_gradient:[true]}} : ({t}, tensor<1xf32>) -> tensor<4xb>
    (%3) = "pd_op.masked_select" (%0, %2) {{stop_gradient:[true]}} : ({t}, tensor<4xb>) -> tensor<-1xf32>
"""
    if then_exp:
        body += """    (%4) = "pd_op.exp" (%3) {stop_gradient:[true]} : (tensor<-1xf32>) -> tensor<-1xf32>\n"""
    return text_program(body)


def test_data_dependent_dims_can_be_fetched() -> None:
    p = masked_select_program(then_exp=False)
    x = np.array([1.0, -1.0, 2.0, -3.0], "float32")
    (selected,) = Executor().run(p, {"x": x}, [p.value("%3")], return_numpy=False)
    assert selected.shape == [2]
    np.testing.assert_array_equal(selected.numpy(), [1.0, 2.0])


@pytest.mark.parametrize("wrap", [lambda a: a, phi.to_tensor], ids=["ndarray", "Tensor"])
def test_an_op_updating_its_input_in_place_never_writes_the_callers_feed(wrap) -> None:
    """batch_norm (training) updates its running mean and variance in place, as PHI's kernel
    does; fed arrays are copied into the run as PaddlePaddle's feed copies into the scope."""
    phi.enable_static()
    try:
        main = phi.static.Program()
        with phi.static.program_guard(main, phi.static.Program()):
            x = phi.static.data("x", [4, 2, 3, 3], "float32")
            mean = phi.static.data("mean", [2], "float32")
            variance = phi.static.data("variance", [2], "float32")
            scale = phi.static.data("scale", [2], "float32")
            bias = phi.static.data("bias", [2], "float32")
            outputs = phi.batch_norm(
                x, mean, variance, scale, bias, False, 0.9, 1e-5, "NCHW", False, False
            )
    finally:
        phi.disable_static()
    running_mean = np.zeros(2, np.float32)
    feed = {
        "x": np.arange(72, dtype=np.float32).reshape(4, 2, 3, 3),
        "mean": wrap(running_mean),
        "variance": np.ones(2, np.float32),
        "scale": np.ones(2, np.float32),
        "bias": np.zeros(2, np.float32),
    }
    (mean_out,) = Executor().run(main, feed=feed, fetch_list=[outputs[1]], scope=Scope())
    assert np.all(running_mean == 0)  # the caller's array is as it was
    assert mean_out.shape == (2,) and np.all(mean_out != 0)  # the op did update its copy
