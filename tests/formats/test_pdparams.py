"""`phi.save` / `phi.load`: PaddlePaddle's `.pdparams` pickles, read from files `paddle.save`
wrote (tests/data/saved_models/pdparams), written back, and never executing code from a file."""

from __future__ import annotations

import io
import pickle
from pathlib import Path

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.formats.pdparams import NAME_TABLE_KEY, UNPACK_INFO_KEY

DATA = Path(__file__).resolve().parents[1] / "data" / "saved_models" / "pdparams"
EXPECTED = np.load(DATA / "expected.npz")


def _same(tensor: phi.Tensor, expected: np.ndarray) -> None:
    assert isinstance(tensor, phi.Tensor)
    assert tensor.numpy().dtype == expected.dtype
    assert tensor.numpy().tobytes() == expected.tobytes()


# -- files PaddlePaddle wrote ------------------------------------------------------------------
def test_loads_paddles_state_dict_with_names() -> None:
    state = phi.load(DATA / "state_dict.pdparams")
    assert sorted(state) == ["bias", "weight"]
    _same(state["weight"], EXPECTED["state.weight"])
    _same(state["bias"], EXPECTED["state.bias"])
    assert [state[k].name for k in sorted(state)] == list(EXPECTED["names"][:2])


def test_keep_name_table_keeps_paddles_table() -> None:
    state = phi.load(DATA / "state_dict.pdparams", keep_name_table=True)
    assert state[NAME_TABLE_KEY] == {"weight": "linear_0.w_0", "bias": "linear_0.b_0"}


@pytest.mark.parametrize("name", ["nested.pdparams", "nested_protocol2.pdparams"])
def test_loads_paddles_nested_structure(name: str) -> None:
    obj = phi.load(DATA / name)
    assert sorted(obj) == ["a", "inner", "lr"]
    assert obj["lr"] == 0.5
    _same(obj["a"], EXPECTED["nested.a"])
    b, seven, text = obj["inner"]["list"]
    _same(b, EXPECTED["nested.b"])
    assert (seven, text) == (7, "text")
    _same(obj["inner"]["flag"], EXPECTED["nested.c"])
    assert [obj["a"].name, b.name, obj["inner"]["flag"].name] == list(EXPECTED["names"][2:])


def test_return_numpy_gives_arrays() -> None:
    obj = phi.load(DATA / "nested.pdparams", return_numpy=True)
    assert isinstance(obj["a"], np.ndarray)
    np.testing.assert_array_equal(obj["inner"]["list"][0], EXPECTED["nested.b"])


# -- what save writes --------------------------------------------------------------------------
class _RecordingUnpickler(pickle.Unpickler):
    def __init__(self, data: bytes) -> None:
        super().__init__(io.BytesIO(data))
        self.globals: set[str] = set()

    def find_class(self, module: str, name: str):
        self.globals.add(f"{module}.{name}")
        return super().find_class(module, name)


def _globals(data: bytes) -> set[str]:
    unpickler = _RecordingUnpickler(data)
    unpickler.load()
    return unpickler.globals


def test_state_dict_is_saved_as_paddle_saves_one(tmp_path: Path) -> None:
    weight = phi.to_tensor(np.arange(6, dtype="float32").reshape(2, 3))
    weight.name = "linear_0.w_0"
    phi.save({"weight": weight}, tmp_path / "s.pdparams")
    raw = pickle.loads((tmp_path / "s.pdparams").read_bytes())
    assert sorted(raw) == [NAME_TABLE_KEY, "weight"]
    assert raw[NAME_TABLE_KEY] == {"weight": "linear_0.w_0"}
    np.testing.assert_array_equal(raw["weight"], weight.numpy())
    assert (tmp_path / "s.pdparams").read_bytes()[:2] == b"\x80\x04"  # protocol 4, as paddle


def test_nested_tensors_are_saved_as_name_array_tuples(tmp_path: Path) -> None:
    phi.save({"x": [phi.to_tensor([1, 2])], "n": 3}, tmp_path / "n.pdparams")
    data = (tmp_path / "n.pdparams").read_bytes()
    raw = pickle.loads(data)
    name, array = raw["x"][0]
    assert name == "generated_tensor_0"
    np.testing.assert_array_equal(array, [1, 2])
    assert _globals(data) <= {
        "builtins.tuple",
        "numpy._core.multiarray._reconstruct",
        "numpy.core.multiarray._reconstruct",
        "numpy.ndarray",
        "numpy.dtype",
    }


@pytest.mark.parametrize("protocol", [2, 3, 4])
def test_save_then_load_round_trips(protocol: int, tmp_path: Path) -> None:
    a = phi.to_tensor(np.array([[1.5, -2.0]], dtype="float64"))
    a.name = "a_name"
    obj = {"a": a, "more": ({"k": phi.to_tensor([True])}, [1, "s", None]), "f": 0.25}
    phi.save(obj, tmp_path / "o.pdparams", protocol=protocol)
    back = phi.load(tmp_path / "o.pdparams")
    assert back["a"].name == "a_name"
    np.testing.assert_array_equal(back["a"].numpy(), a.numpy())
    assert back["more"][0]["k"].numpy().tolist() == [True]
    assert back["more"][1] == [1, "s", None] and back["f"] == 0.25


def test_save_and_load_a_single_tensor_via_a_file_object() -> None:
    buffer = io.BytesIO()
    phi.save(phi.to_tensor([3, 4], dtype="int32"), buffer)
    buffer.seek(0)
    back = phi.load(buffer)
    assert back.numpy().dtype == np.int32 and back.numpy().tolist() == [3, 4]


def test_bad_protocol_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(InvalidArgumentError, match="protocol must be 2, 3 or 4, got 5"):
        phi.save({}, tmp_path / "x", protocol=5)


def test_unpicklable_values_are_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InvalidArgumentError, match="save: cannot save dict"):
        phi.save({"f": lambda: 1}, tmp_path / "x")


def test_sliced_big_arrays_are_joined(tmp_path: Path) -> None:
    # protocols 2/3: PaddlePaddle splits arrays over 1 GB into "<key>@@.<i>" slices
    saved = {
        "w@@.0": np.arange(4, dtype="float32"),
        "w@@.1": np.arange(4, 6, dtype="float32"),
        UNPACK_INFO_KEY: {"w": {"OriginShape": (2, 3), "slices": ["w@@.0", "w@@.1"]}},
        NAME_TABLE_KEY: {"w": "fc.w_0"},
    }
    (tmp_path / "big").write_bytes(pickle.dumps(saved, protocol=2))
    loaded = phi.load(tmp_path / "big")
    assert sorted(loaded) == ["w"]
    np.testing.assert_array_equal(loaded["w"].numpy(), np.arange(6).reshape(2, 3))


# -- refusing what is not PaddlePaddle's -------------------------------------------------------
class _RemoveFile:
    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self):
        import os

        return (os.remove, (self.path,))


def test_loading_never_runs_code_from_the_file(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("still here")
    (tmp_path / "evil.pdparams").write_bytes(pickle.dumps({"w": _RemoveFile(str(victim))}))
    with pytest.raises(
        InvalidArgumentError,
        match=r"evil\.pdparams is not a PaddlePaddle pickle "
        r"file .*refusing to load the global 'posix\.remove'",
    ):
        phi.load(tmp_path / "evil.pdparams")
    assert victim.read_text() == "still here"


@pytest.mark.parametrize(
    "obj, message",
    [
        (np.array([1, "a"], dtype=object), "arrays of Python objects are not loaded"),
        (np.array([(1, 2)], dtype=[("a", "i4"), ("b", "O")]), "arrays of Python objects"),
        (np.ma.array([1, 2]), "refusing to load the global 'numpy.ma.core._mareconstruct'"),
        (np.recarray((1,), dtype=[("a", "i4")]), "the global 'numpy.rec.recarray'"),
    ],
    ids=["object", "structured-object", "masked", "recarray"],
)
def test_numpy_objects_beyond_plain_arrays_are_refused(obj, message: str, tmp_path: Path) -> None:
    (tmp_path / "x").write_bytes(pickle.dumps(obj))
    with pytest.raises(InvalidArgumentError, match=message):
        phi.load(tmp_path / "x")


def test_truncated_pickle_is_an_error_naming_the_file(tmp_path: Path) -> None:
    data = (DATA / "nested.pdparams").read_bytes()
    (tmp_path / "cut.pdparams").write_bytes(data[: len(data) // 2])
    with pytest.raises(InvalidArgumentError, match=r"cut\.pdparams is not a PaddlePaddle pickle"):
        phi.load(tmp_path / "cut.pdparams")


def test_an_array_phiops_has_no_tensor_for_is_an_error_unless_return_numpy(tmp_path: Path) -> None:
    (tmp_path / "s").write_bytes(pickle.dumps({"names": np.array(["ab", "c"])}))
    with pytest.raises(InvalidArgumentError, match="load: an array of the file cannot be a tensor"):
        phi.load(tmp_path / "s")
    assert phi.load(tmp_path / "s", return_numpy=True)["names"].tolist() == ["ab", "c"]


# -- use_binary_format: one tensor as a tensor stream ------------------------------------------
def test_loads_a_binary_tensor_file_paddle_wrote() -> None:
    tensor = phi.load(DATA / "tensor.bin")
    _same(tensor, EXPECTED["nested.a"])
    assert isinstance(phi.load(DATA / "tensor.bin", return_numpy=True), np.ndarray)


def test_binary_format_writes_paddles_bytes(tmp_path: Path) -> None:
    phi.save(phi.to_tensor(EXPECTED["nested.a"]), tmp_path / "t.bin", use_binary_format=True)
    assert (tmp_path / "t.bin").read_bytes() == (DATA / "tensor.bin").read_bytes()


def test_binary_format_takes_one_tensor(tmp_path: Path) -> None:
    with pytest.raises(InvalidArgumentError, match="saves a single Tensor, got dict"):
        phi.save({}, tmp_path / "t.bin", use_binary_format=True)


def test_a_file_that_is_neither_pickle_nor_tensor_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "junk").write_bytes(b"GIF89a not a model")
    with pytest.raises(
        InvalidArgumentError,
        match=r"neither a PaddlePaddle pickle .* nor a binary "
        r"tensor file: .*junk: at byte 0: tensor: version \d+, expected 0",
    ):
        phi.load(tmp_path / "junk")


def test_bytes_after_a_binary_tensor_are_an_error(tmp_path: Path) -> None:
    data = (DATA / "tensor.bin").read_bytes()
    (tmp_path / "t.bin").write_bytes(data + b"\0\0")
    with pytest.raises(InvalidArgumentError, match=rf"at byte {len(data)}: 2 byte\(s\) after"):
        phi.load(tmp_path / "t.bin")


def test_save_and_load_take_paddles_configs(tmp_path) -> None:
    # PaddlePaddle 3.3.1: paddle.save(obj, path, protocol=4, **configs) and
    # paddle.load(path, **configs); an unknown config is an error naming it.
    import inspect

    import phiops as paddle
    from phiops.runtime.errors import InvalidArgumentError, UnimplementedError

    def shape(function):
        return [
            (p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()
        ]

    keyword, positional = inspect.Parameter.VAR_KEYWORD, inspect.Parameter.POSITIONAL_OR_KEYWORD
    empty = inspect.Parameter.empty
    assert shape(paddle.save) == [
        ("obj", positional, empty),
        ("path", positional, empty),
        ("protocol", positional, 4),
        ("configs", keyword, empty),
    ]
    assert shape(paddle.load) == [("path", positional, empty), ("configs", keyword, empty)]
    path = tmp_path / "t.pdparams"
    paddle.save({"w": paddle.to_tensor([1.0, 2.0])}, str(path))
    loaded = paddle.load(str(path), return_numpy=True, keep_name_table=True)
    assert loaded["w"].tolist() == [1.0, 2.0] and "StructuredToParameterName@@" in loaded
    with pytest.raises(InvalidArgumentError, match="unknown config 'retrun_numpy'"):
        paddle.load(str(path), retrun_numpy=True)
    with pytest.raises(InvalidArgumentError, match="unknown config 'binary'"):
        paddle.save({}, str(path), binary=True)
    with pytest.raises(UnimplementedError, match="params_filename"):
        paddle.load(str(path), params_filename="x.pdiparams")
