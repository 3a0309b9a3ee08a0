"""Sparse tensors in static programs (issue 28 part 5): phiops.sparse on Values builds
PaddlePaddle 3.3.1's ``*_sp`` ops with ``pd_op.sparsecootensor<...>`` results; the programs print,
parse and round-trip through .json as 3.3.1's; the executor runs them with the sparse kernels
eager phiops.sparse selects. Expected values: PaddlePaddle 3.3.1's programs and results
(tests/data/sparse_static/, recorded by tests/tools/make_sparse_static_fixtures.py) and eager
phiops.sparse."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.formats.pir_json import load_program_json, program_from_json, program_to_json
from phiops.runtime.ir import SparseCooTensorType, SparseCsrTensorType, parse_program, verify

DATA = Path(__file__).resolve().parents[1] / "data" / "sparse_static"
SPARSE = paddle.sparse
F = paddle.sparse.nn.functional
X = np.array([[0, -1.5, 0, 2], [3, 0, 0, -4], [0, 0.5, 6, 0]], dtype="float32")


@pytest.fixture
def static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


# -- the fixture programs, built by phiops (tests/tools/make_sparse_static_fixtures.py) ---------


def build_convert():
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [3, 4], "float32")
        c = x.to_sparse_coo(2)
        s = SPARSE.add(F.relu(c), c)
        fetch = [s.to_dense(), s.values(), s.indices()]
        ii = paddle.static.data("ii", [2, 3], "int64")
        vv = paddle.static.data("vv", [3], "float32")
        fetch.append(SPARSE.sparse_coo_tensor(ii, vv, [3, 4]).to_dense())
    return main, fetch


def build_unary():
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [3, 4], "float32")
        c = x.to_sparse_coo(2)
        a = SPARSE.abs(c)
        outs = [
            a,
            SPARSE.sin(c),
            SPARSE.tanh(c),
            SPARSE.sqrt(a),
            SPARSE.square(c),
            SPARSE.log1p(a),
            SPARSE.expm1(c),
            SPARSE.atan(c),
            SPARSE.pow(c, 2.0),
            SPARSE.neg(c),
            F.leaky_relu(c, 0.1),
            F.relu6(c),
            SPARSE.cast(c, "int32", "float64"),
            SPARSE.isnan(c),
        ]
        fetch = [o.to_dense() for o in outs]
    return main, fetch


def build_binary():
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        cx = paddle.static.data("x", [3, 4], "float32").to_sparse_coo(2)
        cy = paddle.static.data("y", [3, 4], "float32").to_sparse_coo(2)
        fetch = [
            SPARSE.subtract(cx, cy).to_dense(),
            SPARSE.multiply(cx, cy).to_dense(),
            SPARSE.divide(cx, cy).to_dense(),
        ]
    return main, fetch


def build_shape():
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        c = paddle.static.data("x", [3, 4], "float32").to_sparse_coo(2)
        fetch = [
            SPARSE.sum(c, axis=1).to_dense(),
            SPARSE.sum(c).to_dense(),
            SPARSE.transpose(c, [1, 0]).to_dense(),
            SPARSE.reshape(c, [4, 3]).to_dense(),
            F.softmax(c).to_dense(),
            SPARSE.coalesce(c).to_dense(),
            SPARSE.slice(c, [0], [0], [2]).to_dense(),
        ]
    return main, fetch


def build_add_dense():
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [3, 4], "float32")
        SPARSE.add(x.to_sparse_coo(2), x)
    return main, []


BUILDERS = {
    "convert": build_convert,
    "unary": build_unary,
    "binary": build_binary,
    "shape": build_shape,
    "add_dense": build_add_dense,
}
RUN = ("convert", "unary", "binary", "shape")


def recorded(name: str) -> tuple[dict, list[str], list[np.ndarray]]:
    """The feeds, the fetched values' printed names and PaddlePaddle's results."""
    data = np.load(DATA / f"{name}.npz")
    feed = {k[5:]: data[k] for k in data.files if k.startswith("feed_")}
    names = [k[6:] for k in data.files if k.startswith("fetch_")]
    return feed, names, [data[f"fetch_{n}"] for n in names]


def assert_same(got: list, want: list) -> None:
    assert len(got) == len(want)
    for position, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype, f"fetch {position}: {g.dtype}, PaddlePaddle {w.dtype}"
        assert g.shape == w.shape, f"fetch {position}: {g.shape}, PaddlePaddle {w.shape}"
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6, err_msg=f"fetch {position}")


# -- types: print, parse, JSON -------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_paddles_program_parses_and_prints_back(name: str) -> None:
    text = (DATA / f"{name}.txt").read_text(encoding="utf-8")
    program = parse_program(text, name)
    verify(program)
    assert str(program) + "\n" == text


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_paddles_json_reads_and_writes_back(name: str) -> None:
    data = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    program = program_from_json(data)
    assert str(program) + "\n" == (DATA / f"{name}.txt").read_text(encoding="utf-8")
    assert program_to_json(program) == data


def test_json_keeps_the_sparse_types_parts() -> None:
    """3.3.1 writes a COO type as [element, dims, non_zero_dims, layout, indices, values]."""
    data = json.loads((DATA / "convert.json").read_text(encoding="utf-8"))
    types = [
        result["TT"]
        for op in data["program"]["regions"][0]["blocks"][0]["ops"]
        for result in op["O"]
        if result["TT"]["#"] == "1.t_sparse_coo_tensor"
    ]
    program = program_from_json(data)
    coo = [
        r.type
        for op in program.block.ops
        for r in op.results
        if r.type.__class__ is SparseCooTensorType
    ]
    assert len(coo) == len(types) == 4
    assert coo[0] == SparseCooTensorType((3, 4), "f32")
    assert str(coo[0]) == "pd_op.sparsecootensor<3x4xf32>"
    assert program_to_json(program)["program"] == data["program"]


# -- building ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_built_program_prints_as_paddles(static_mode, name: str) -> None:
    main, _ = BUILDERS[name]()
    assert str(main) + "\n" == (DATA / f"{name}.txt").read_text(encoding="utf-8")


def _ops(data: dict) -> list:
    """Each op of a program file: its name, operands, results with their types, attributes (in
    name order: phiops writes pd_op.data's in another order than 3.3.1)."""
    ops = data["program"]["regions"][0]["blocks"][0]["ops"]
    return [
        (op["#"], op["I"], op["O"], sorted(op["A"], key=lambda a: a["N"]), op.get("OA"))
        for op in ops
    ]


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_built_program_writes_paddles_json(static_mode, name: str) -> None:
    main, _ = BUILDERS[name]()
    want = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    assert _ops(program_to_json(main)) == _ops(want)


def test_sparse_values_answer_paddles_value_methods(static_mode) -> None:
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [3, 4], "float32")
        c = x.to_sparse_coo(2)
        csr = x.to_sparse_csr()
    assert c.is_sparse_coo_tensor_type() and not c.is_sparse_csr_tensor_type()
    assert csr.is_sparse_csr_tensor_type() and not x.is_sparse_coo_tensor_type()
    assert c.shape == [3, 4] and c.dtype == paddle.float32
    assert c.to_sparse_coo(2) is c


# -- running ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", RUN)
@pytest.mark.parametrize("form", ["txt", "json", "built"])
def test_program_runs_with_paddles_results(static_mode, name: str, form: str) -> None:
    feed, names, want = recorded(name)
    if form == "built":
        program, fetch = BUILDERS[name]()
    else:
        path = DATA / f"{name}.{form}"
        if form == "txt":
            program = parse_program(path.read_text(encoding="utf-8"), str(path))
        else:
            program = load_program_json(path)
        fetch = [program.value(n) for n in names]
    assert_same(paddle.static.Executor().run(program, feed, fetch), want)


def test_paddles_saved_model_runs(static_mode) -> None:
    exe = paddle.static.Executor()
    program, feeds, fetches = paddle.static.load_inference_model(
        str(DATA / "convert_model" / "model"), exe
    )
    data = np.load(DATA / "convert_model.npz")
    feed = {name: data[f"feed_{name}"] for name in feeds}
    want = [data[f"fetch_{i}"] for i in range(len(fetches))]
    assert_same(exe.run(program, feed, fetches), want)


def test_saved_and_loaded_program_runs(static_mode, tmp_path) -> None:
    main, fetch = build_convert()
    feed, _, want = recorded("convert")
    exe = paddle.static.Executor()
    feeds = [op.results[0] for op in main.block.ops if op.name == "pd_op.data"]
    prefix = str(tmp_path / "model")
    paddle.static.save_inference_model(prefix, feeds, fetch, exe, program=main)
    program, feed_names, fetches = paddle.static.load_inference_model(prefix, exe)
    assert_same(exe.run(program, {n: feed[n] for n in feed_names}, fetches), want)


def _eager(function, *arrays):
    paddle.disable_static()
    try:
        return function(*[paddle.to_tensor(a) for a in arrays]).numpy()
    finally:
        paddle.enable_static()


# each: (arguments' shapes, the function of dense tensors built and run in both modes)
EAGER_CASES = {
    "csr_relu": ([(3, 4)], lambda x: F.relu(x.to_sparse_csr()).to_dense()),
    "csr_values": ([(3, 4)], lambda x: SPARSE.sin(x.to_sparse_csr()).values()),
    "csr_sum_last": ([(3, 4)], lambda x: SPARSE.sum(x.to_sparse_csr(), axis=-1).to_dense()),
    "csr_softmax": ([(3, 4)], lambda x: F.softmax(x.to_sparse_csr()).to_dense()),
    "csr_to_coo": ([(3, 4)], lambda x: x.to_sparse_csr().to_sparse_coo(2).to_dense()),
    "coo_to_csr": ([(3, 4)], lambda x: x.to_sparse_coo(2).to_sparse_csr().to_dense()),
    "coo_matmul_dense": ([(3, 4), (4, 2)], lambda x, y: SPARSE.matmul(x.to_sparse_coo(2), y)),
    "csr_matmul_dense": ([(3, 4), (4, 2)], lambda x, y: SPARSE.matmul(x.to_sparse_csr(), y)),
    "coo_mv": ([(3, 4), (4,)], lambda x, v: SPARSE.mv(x.to_sparse_coo(2), v)),
    "coo_dense_dims": ([(3, 4)], lambda x: F.relu(x.to_sparse_coo(1)).values()),
    "coo_addmm_dense": (
        [(3, 3), (3, 4), (4, 3)],
        lambda i, x, y: SPARSE.addmm(i, x.to_sparse_coo(2), y, 0.5, 2.0),
    ),
    "csr_addmm_csr": (
        [(3, 3), (3, 4), (4, 3)],
        lambda i, x, y: SPARSE.addmm(
            i.to_sparse_csr(), x.to_sparse_csr(), y.to_sparse_csr()
        ).to_dense(),
    ),
    "csr_masked_matmul": (
        [(3, 4), (4, 3), (3, 3)],
        lambda x, y, m: SPARSE.masked_matmul(x, y, m.to_sparse_csr()).to_dense(),
    ),
    "coo_mask_as": (
        [(3, 4), (3, 4)],
        lambda x, m: SPARSE.mask_as(x, m.to_sparse_coo(2)).to_dense(),
    ),
    "coo_matmul_coo": (
        [(3, 4), (4, 3)],
        lambda x, y: SPARSE.matmul(x.to_sparse_coo(2), y.to_sparse_coo(2)).to_dense(),
    ),
    "coo_rad2deg": ([(3, 4)], lambda x: SPARSE.rad2deg(x.to_sparse_coo(2)).to_dense()),
}


@pytest.mark.parametrize("case", sorted(EAGER_CASES))
def test_program_runs_as_eager_phiops_sparse(static_mode, case: str) -> None:
    """What PaddlePaddle 3.3.1 cannot build or run (CSR ops, CPU matmul/mv) against eager
    phiops.sparse."""
    shapes, function = EAGER_CASES[case]
    rng = np.random.default_rng(0)
    arrays = [(rng.standard_normal(s) * (rng.random(s) < 0.6)).astype("float32") for s in shapes]
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        values = [paddle.static.data(f"a{i}", list(s), "float32") for i, s in enumerate(shapes)]
        out = function(*values)
    (got,) = paddle.static.Executor().run(main, {f"a{i}": a for i, a in enumerate(arrays)}, [out])
    want = _eager(function, *arrays)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_dense_ops_on_values_run_though_typed_as_paddle_types_them(static_mode) -> None:
    """values_coo_sp is typed [-1, 4] (3.3.1's sparse::ValuesInferMeta) but gives [nnz]: the
    dense ops reading it are planned when they run, their declared types not checked."""
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        c = paddle.static.data("x", [3, 4], "float32").to_sparse_coo(2)
        doubled = paddle.scale(c.values(), 2.0)
        total = paddle.sum(doubled)
        count = paddle.sum(paddle.ones_like(c.indices()))
    assert str(doubled.type) == "tensor<-1x4xf32>"
    got = paddle.static.Executor().run(main, {"x": X}, [doubled, total, count])
    np.testing.assert_allclose(got[0], 2 * X[X != 0])
    np.testing.assert_allclose(got[1], 2 * X.sum())
    assert int(got[2]) == 2 * np.count_nonzero(X)


def test_coo_plus_a_dense_bias_runs_as_numpy(static_mode) -> None:
    """add_coo_dense_sp (3.3.1 builds it, its CPU kernel takes a 1-D bias over the dense dim):
    the bias added to each stored row; eager phiops.sparse.add refuses a dense y."""
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [3, 4], "float32")
        b = paddle.static.data("b", [4], "float32")
        out = SPARSE.add(x.to_sparse_coo(1), b).to_dense()
    x_value = X.copy()
    x_value[1] = 0  # a row without entries stays empty
    bias = np.array([1, 2, 3, 4], dtype="float32")
    (got,) = paddle.static.Executor().run(main, {"x": x_value, "b": bias}, [out])
    want = np.where(x_value.any(axis=1, keepdims=True), x_value + bias, 0)
    np.testing.assert_allclose(got, want)


def test_csr_program_round_trips_in_phiops_spelling(static_mode) -> None:
    """3.3.1 has a CSR type (and its JSON tag) but no text for it; phiops prints
    pd_op.sparsecsrtensor<...>."""
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        F.relu(paddle.static.data("x", [3, 4], "float32").to_sparse_csr()).to_dense()
    text = str(main)
    assert '"pd_op.dense_to_csr_sp" (%0) {stop_gradient:[true]} : (tensor<3x4xf32>) -> ' in text
    assert "pd_op.relu_csr_sp" in text and "pd_op.csr_to_dense_sp" in text
    assert str(parse_program(text)) == text
    data = program_to_json(main)
    assert str(program_from_json(data)) == text
    csr = data["program"]["regions"][0]["blocks"][0]["ops"][1]["O"][0]["TT"]
    part = {"#": "0.t_dtensor", "D": [{"#": "0.t_f32"}, [], "Undefined(AnyLayout)", [], 0]}
    assert csr == {
        "#": "1.t_sparse_csr_tensor",
        "D": [{"#": "0.t_f32"}, [3, 4], "NCHW", part, part, part],
    }
    assert program_from_json(data).block.ops[1].results[0].type == SparseCsrTensorType(
        (3, 4), "f32"
    )


# -- errors -------------------------------------------------------------------------------------


def test_dense_op_given_a_sparse_value_names_op_argument_and_kinds(static_mode) -> None:
    with paddle.static.program_guard(paddle.static.Program()):
        c = paddle.static.data("x", [3, 4], "float32").to_sparse_coo(2)
        with pytest.raises(InvalidArgumentError) as error:
            paddle.nn.functional.relu(c)
    message = str(error.value)
    assert "relu(): argument 'x' is a SparseCooTensor" in message
    assert "takes a DenseTensor" in message


def test_sparse_op_given_a_kind_it_has_no_kernel_for_names_the_kinds(static_mode) -> None:
    with paddle.static.program_guard(paddle.static.Program()):
        x = paddle.static.data("x", [3, 4], "float32")
        with pytest.raises(InvalidArgumentError) as error:
            F.relu(x)
        assert "relu(): no kernel of sparse op 'relu' takes 'x' a DenseTensor" in str(error.value)
        assert "relu_coo {sparse_coo -> sparse_coo}" in str(error.value)
        with pytest.raises(
            InvalidArgumentError, match="'x' a SparseCooTensor, 'y' a SparseCsrTensor"
        ):
            SPARSE.add(x.to_sparse_coo(2), x.to_sparse_csr())
        with pytest.raises(
            InvalidArgumentError, match=r"indices\(\): argument 'x' must be a SparseCooTensor"
        ):
            x.indices()
        with pytest.raises(
            InvalidArgumentError, match=r"argument 'sparse_dim' must be an int in \[1, 2\]"
        ):
            x.to_sparse_coo(3)
        with pytest.raises(InvalidArgumentError, match="'shape' is required"):
            SPARSE.sparse_coo_tensor(paddle.static.data("i", [2, 3], "int64"), x, None)


def test_sparse_functions_not_built_are_unimplemented(static_mode) -> None:
    with paddle.static.program_guard(paddle.static.Program()):
        p = paddle.static.data("p", [1, 2, 2, 2, 1], "float32").to_sparse_coo(4)
        w = paddle.static.data("w", [1, 1, 1, 1, 1], "float32")
        with pytest.raises(
            UnimplementedError, match=r"conv3d\(\): building it into a static program"
        ):
            F.conv3d(p, w)
        crows = paddle.static.data("crows", [4], "int64")
        cols = paddle.static.data("cols", [3], "int64")
        values = paddle.static.data("values", [3], "float32")
        with pytest.raises(UnimplementedError, match=r"sparse_csr_tensor\(\): building a CSR"):
            SPARSE.sparse_csr_tensor(crows, cols, values, [3, 4])


def test_sparse_op_infer_meta_error_names_the_op(static_mode) -> None:
    with paddle.static.program_guard(paddle.static.Program()):
        c = paddle.static.data("x", [3, 4], "float32").to_sparse_coo(2)
        with pytest.raises(InvalidArgumentError, match=r"^reshape\(\)"):
            SPARSE.reshape(c, [5, 3])


def test_fetching_a_sparse_value_is_refused(static_mode) -> None:
    """As PaddlePaddle 3.3.1's executor refuses it: only dense tensors are fetched."""
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        c = paddle.static.data("x", [3, 4], "float32").to_sparse_coo(2)
    with pytest.raises(InvalidArgumentError, match="is a sparse tensor; fetch a dense Value"):
        paddle.static.Executor().run(main, {"x": X}, [c])


def test_sparse_values_outside_static_mode_are_refused() -> None:
    paddle.enable_static()
    with paddle.static.program_guard(paddle.static.Program()):
        c = paddle.static.data("x", [3, 4], "float32").to_sparse_coo(2)
    paddle.disable_static()
    with pytest.raises(InvalidArgumentError, match="static mode is off"):
        SPARSE.sin(c)


@pytest.mark.parametrize("how", ["gradients", "append_backward"])
def test_backward_through_sparse_ops_is_unimplemented(static_mode, how: str) -> None:
    """PaddlePaddle 3.3.1 has none either (its backward takes dense tensor types only)."""
    with paddle.static.program_guard(paddle.static.Program()):
        x = paddle.static.data("x", [3, 4], "float32")
        x.stop_gradient = False
        loss = paddle.sum(SPARSE.sin(x.to_sparse_coo(2)).to_dense())
        with pytest.raises(
            UnimplementedError, match="pd_op.coo_to_dense_sp: the backward of sparse ops"
        ):
            if how == "gradients":
                paddle.static.gradients([loss], [x])
            else:
                paddle.static.append_backward(loss)
