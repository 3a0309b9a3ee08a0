"""Tensor arrays in static programs: built as PaddlePaddle 3.3.1 builds them (text and JSON
types), run by the executor from the text, the JSON and a saved model with PaddlePaddle's
results (tests/data/tarray/, recorded by tests/tools/make_tarray_fixtures.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.formats.pir_json import load_program_json, program_to_json
from phiops.runtime.ir import parse_program
from phiops.tensor.manipulation import tensor_array_to_tensor

DATA = Path(__file__).resolve().parents[1] / "data"
TARRAY = DATA / "tarray"


@pytest.fixture(autouse=True)
def static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


def build_write_read_length():
    """tests/tools/make_tarray_fixtures.py's write_read_length, in phiops."""
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2, 3], "float32")
        arr = paddle.tensor.create_array("float32", [x])
        y = paddle.scale(x, 2.0)
        paddle.tensor.array_write(y, paddle.full([1], 2, "int64"), arr)
        first = paddle.tensor.array_read(arr, paddle.full([1], 0, "int64"))
        last = paddle.tensor.array_read(arr, paddle.full([1], 2, "int64"))
        length = paddle.tensor.array_length(arr)
        stacked, stacked_index = tensor_array_to_tensor(
            paddle.tensor.create_array("float32", [x, y]), axis=1, use_stack=True
        )
        concat, concat_index = tensor_array_to_tensor(
            paddle.tensor.create_array("float32", [x, y]), axis=0
        )
    return main, [first, last, length, stacked, stacked_index, concat, concat_index]


def build_while_write():
    """tests/tools/make_tarray_fixtures.py's while_write, in phiops."""
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2, 3], "float32")
        arr = paddle.tensor.create_array("float32")
        i = paddle.zeros([1], "int64")
        n = paddle.full([1], 3, "int64")

        def cond(i, x):
            return i < n

        def body(i, x):
            paddle.tensor.array_write(paddle.tanh(x) * (i.astype("float32") + 1.0), i, arr)
            return [i + 1, x + 1.0]

        i, x2 = paddle.static.nn.while_loop(cond, body, [i, x])
        out, index = tensor_array_to_tensor(arr, axis=0)
        length = paddle.tensor.array_length(arr)
        last = paddle.tensor.array_read(arr, paddle.full([1], 2, "int64"))
    return main, [out, index, length, last, x2]


BUILDERS = {"write_read_length": build_write_read_length, "while_write": build_while_write}


def expected_fetches(name: str) -> list[np.ndarray]:
    recorded = np.load(TARRAY / f"{name}.npz")
    keys = [k for k in recorded.files if k.startswith("fetch_")]
    if name == "while_write":
        keys.sort(key=lambda k: int(k[6:]))
    return [recorded[k] for k in keys]


def assert_same(got: list, want: list) -> None:
    assert len(got) == len(want)
    for position, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype, f"fetch {position}: {g.dtype}, PaddlePaddle {w.dtype}"
        assert g.shape == w.shape, f"fetch {position}: {g.shape}, PaddlePaddle {w.shape}"
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6, err_msg=f"fetch {position}")


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_built_program_prints_as_paddles(name: str) -> None:
    main, _ = BUILDERS[name]()
    assert str(main).strip() == (TARRAY / f"{name}.txt").read_text(encoding="utf-8").strip()


def _array_types(data: dict) -> list:
    found = []

    def walk(node):
        if isinstance(node, dict):
            if node.get("#") == "1.t_dense_tensor_array":
                found.append(node["D"])
            for item in node.values():
                walk(item)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(data)
    return found


def test_built_program_json_has_paddles_tensor_array_types() -> None:
    """The JSON keeps the array type's dims, which PaddlePaddle sets from the items written."""
    import json

    main, _ = build_write_read_length()
    want = json.loads((TARRAY / "write_read_length.json").read_text(encoding="utf-8"))
    got = _array_types(program_to_json(main))
    assert got == _array_types(want)
    assert got[0] == [{"#": "0.t_f32"}, [2, 3], "NCHW"]


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_built_program_runs_with_paddles_results(name: str) -> None:
    main, fetch = BUILDERS[name]()
    feed = {"x": np.load(TARRAY / f"{name}.npz")["feed_x"]}
    assert_same(paddle.static.Executor().run(main, feed, fetch), expected_fetches(name))


@pytest.mark.parametrize("name", ["write_read_length", "slice_pop"])
@pytest.mark.parametrize("form", ["txt", "json"])
def test_paddles_program_runs_with_paddles_results(name: str, form: str) -> None:
    """slice_pop: slice_array, slice_array_dense and array_pop, which PaddlePaddle builds only
    through ``paddle._pir_ops``."""
    path = TARRAY / f"{name}.{form}"
    if form == "txt":
        program = parse_program(path.read_text(encoding="utf-8"), str(path))
    else:
        program = load_program_json(path)
    recorded = np.load(TARRAY / f"{name}.npz")
    names = [k[6:] for k in recorded.files if k.startswith("fetch_")]
    fetched = paddle.static.Executor().run(
        program, {"x": recorded["feed_x"]}, [program.value(n) for n in names]
    )
    assert_same(fetched, [recorded[f"fetch_{n}"] for n in names])


def test_saved_model_with_a_while_loop_writing_an_array_runs() -> None:
    """save_inference_model's files from PaddlePaddle 3.3.1, loaded and run by phiops."""
    exe = paddle.static.Executor()
    program, feeds, fetches = paddle.static.load_inference_model(
        str(TARRAY / "while_write_model" / "model"), exe
    )
    assert feeds == ["x"]
    feed = {"x": np.load(TARRAY / "while_write.npz")["feed_x"]}
    assert_same(exe.run(program, feed, fetches), expected_fetches("while_write"))


def test_ir_fixture_28_reads_back_what_it_wrote() -> None:
    path = DATA / "ir" / "28_tensor_array.txt"
    program = parse_program(path.read_text(encoding="utf-8"), str(path))
    x = np.arange(6, dtype="float32").reshape(2, 3)
    read, length = paddle.static.Executor().run(
        program, {"x": x}, [program.value("%5"), program.value("%6")]
    )
    np.testing.assert_array_equal(read, x)
    np.testing.assert_array_equal(length, np.array([1], dtype="int64"))


def test_each_run_starts_from_an_empty_array() -> None:
    main, fetch = build_while_write()
    exe = paddle.static.Executor()
    feed = {"x": np.zeros((2, 3), "float32")}
    first = exe.run(main, feed, [fetch[2]])
    second = exe.run(main, feed, [fetch[2]])
    assert first[0].tolist() == second[0].tolist() == [3]


def test_reading_past_the_end_names_the_op_and_index() -> None:
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2], "float32")
        arr = paddle.tensor.create_array("float32", [x])
        out = paddle.tensor.array_read(arr, paddle.full([1], 4, "int64"))
    with pytest.raises(InvalidArgumentError, match=r"pd_op.array_read.*index 4 is outside"):
        paddle.static.Executor().run(main, {"x": np.ones(2, "float32")}, [out])


def test_writing_grows_the_array_with_empty_items() -> None:
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2], "float32")
        arr = paddle.tensor.array_write(x, paddle.full([1], 3, "int64"))
        length = paddle.tensor.array_length(arr)
        gap = paddle.tensor.array_read(arr, paddle.full([1], 1, "int64"))
    got_length, got_gap = paddle.static.Executor().run(
        main, {"x": np.ones(2, "float32")}, [length, gap]
    )
    assert got_length.tolist() == [4]
    assert got_gap.size == 0 and got_gap.dtype == np.float32


def test_array_write_casts_to_the_arrays_dtype() -> None:
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2], "int32")
        arr = paddle.tensor.create_array("float64")
        paddle.tensor.array_write(x, paddle.full([1], 0, "int64"), arr)
        out = paddle.tensor.array_read(arr, paddle.full([1], 0, "int64"))
    (got,) = paddle.static.Executor().run(main, {"x": np.array([1, 2], "int32")}, [out])
    assert got.dtype == np.float64 and got.tolist() == [1.0, 2.0]


def test_index_must_be_int64() -> None:
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2], "float32")
        with pytest.raises(InvalidArgumentError, match=r"array_write\(\): argument 'i' must be int64"):
            paddle.tensor.array_write(x, paddle.full([1], 0, "int32"))


@pytest.mark.parametrize(
    "call",
    [
        lambda x, i: paddle.tensor.array_read(x, i),
        lambda x, i: paddle.tensor.array_length(x),
        lambda x, i: paddle.tensor.array_write(x, i, x),
        lambda x, i: tensor_array_to_tensor(x),
    ],
    ids=["array_read", "array_length", "array_write", "tensor_array_to_tensor"],
)
def test_a_dense_value_is_not_an_array(call) -> None:
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2], "float32")
        with pytest.raises(InvalidArgumentError, match="must be a tensor array Value"):
            call(x, paddle.full([1], 0, "int64"))


def test_a_while_loop_can_carry_an_array_it_replaces() -> None:
    """The body returns a new array each iteration (item 0 doubled): 1 -> 8 after 3 steps."""
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2, 3], "float32")
        arr = paddle.tensor.array_write(x, paddle.zeros([1], "int64"))
        n = paddle.full([1], 3, "int64")

        def body(i, a):
            item = paddle.tensor.array_read(a, paddle.zeros([1], "int64"))
            return [i + 1, paddle.tensor.create_array("float32", [item * 2.0])]

        _, out = paddle.static.nn.while_loop(
            lambda i, a: i < n, body, [paddle.zeros([1], "int64"), arr]
        )
        result = paddle.tensor.array_read(out, paddle.zeros([1], "int64"))
    (got,) = paddle.static.Executor().run(main, {"x": np.ones((2, 3), "float32")}, [result])
    np.testing.assert_array_equal(got, np.full((2, 3), 8.0, "float32"))
