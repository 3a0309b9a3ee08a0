"""`phi.load` of hostile `.pdparams` pickles: a named error, never
an object array, a hang, a raw exception from pickle or numpy."""

from __future__ import annotations

import pickle
import struct
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import phiops as phi
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.file_limits import MAX_PICKLE_DEPTH

_RECONSTRUCT = np.zeros(0).__reduce__()[0]


class _Reduce:
    def __init__(self, *reduced) -> None:
        self.reduced = reduced

    def __reduce__(self):
        return self.reduced


def _write(tmp_path: Path, obj, protocol: int = 4) -> Path:
    path = tmp_path / "bad.pdparams"
    path.write_bytes(pickle.dumps(obj, protocol=protocol))
    return path


def test_return_numpy_refuses_an_object_array_from_reconstruct(tmp_path: Path) -> None:
    path = _write(tmp_path, _Reduce(_RECONSTRUCT, (np.ndarray, (0,), b"O")), protocol=2)
    with pytest.raises(InvalidArgumentError, match="arrays of Python objects are not loaded"):
        phi.load(path, return_numpy=True)


def test_return_numpy_refuses_a_dtype_made_an_object_dtype_by_its_state(tmp_path: Path) -> None:
    data = pickle.dumps({"w": np.zeros(1, dtype="V8")}, protocol=2)
    # the dtype's BUILD state ends with its flags: 63 marks it as holding Python objects
    assert data.count(b"K\x08K\x01K\x00t") == 1
    path = tmp_path / "flags.pdparams"
    path.write_bytes(data.replace(b"K\x08K\x01K\x00t", b"K\x08K\x01K?t"))
    with pytest.raises(InvalidArgumentError, match="arrays of Python objects are not loaded"):
        phi.load(path, return_numpy=True)


def test_loading_leaves_numpys_own_dtypes_alone(tmp_path: Path) -> None:
    # `numpy.dtype("f4", False, False)` is numpy's shared float32; a BUILD must not reach it
    path = tmp_path / "shared.pdparams"
    path.write_bytes(
        b"\x80\x02cnumpy\ndtype\nX\x02\x00\x00\x00f4\x89\x89\x87R"  # dtype("f4", False, False)
        b"(K\x03X\x01\x00\x00\x00<NNNJ\xff\xff\xff\xffJ\xff\xff\xff\xffK?tb."  # flags 63
    )
    with pytest.raises(InvalidArgumentError):
        phi.load(path, return_numpy=True)
    assert not np.dtype("f4").hasobject


def test_loaded_arrays_are_plain_ndarrays(tmp_path: Path) -> None:
    path = _write(tmp_path, {"a": [np.arange(3.0)], "b": (np.ones(2),)})
    loaded = phi.load(path, return_numpy=True)
    assert type(loaded["a"][0]) is np.ndarray and type(loaded["b"][0]) is np.ndarray
    np.testing.assert_array_equal(loaded["a"][0], np.arange(3.0))


def test_a_shared_reference_bomb_is_refused(tmp_path: Path) -> None:
    bomb: list = [np.zeros(1)]
    for _ in range(40):
        bomb = [bomb, bomb]
    path = _write(tmp_path, bomb)
    assert path.stat().st_size < 1000
    with pytest.raises(InvalidArgumentError, match="MAX_PICKLE_NODES"):
        phi.load(path)


def test_a_list_containing_itself_is_refused(tmp_path: Path) -> None:
    loop: list = [np.zeros(1)]
    loop.append(loop)
    with pytest.raises(InvalidArgumentError, match="a list contains itself"):
        phi.load(_write(tmp_path, loop))


def test_deep_nesting_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deep.pdparams"
    # 5,000 MARKs, an empty list, then 5,000 LISTs each wrapping the one before
    path.write_bytes(b"\x80\x02" + b"(" * 5000 + b"]" + b"l" * 5000 + b".")
    with pytest.raises(InvalidArgumentError, match="MAX_PICKLE_DEPTH"):
        phi.load(path)


def test_nesting_within_the_limit_loads(tmp_path: Path) -> None:
    nested: list = [np.zeros(1)]
    for _ in range(MAX_PICKLE_DEPTH - 2):
        nested = [nested]
    assert phi.load(_write(tmp_path, nested), return_numpy=True) is not None


def test_a_length_field_of_2_to_the_40_is_an_error_naming_the_file(tmp_path: Path) -> None:
    data = pickle.dumps({"w": b"abc"}, protocol=4)
    at = data.index(b"C\x03abc")  # SHORT_BINBYTES 3 -> BINBYTES8 2**40
    path = tmp_path / "long.pdparams"
    path.write_bytes(data[:at] + b"\x8e" + struct.pack("<Q", 2**40) + data[at + 2 :])
    with pytest.raises(InvalidArgumentError, match=r"long\.pdparams is not a PaddlePaddle pickle"):
        phi.load(path)


def test_an_array_reconstructed_with_a_huge_shape_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, _Reduce(_RECONSTRUCT, (np.ndarray, (2**40,), b"b")), protocol=2)
    with pytest.raises(InvalidArgumentError, match="other than as numpy pickles one"):
        phi.load(path, return_numpy=True)


@pytest.mark.parametrize(
    "info",
    [
        {"w": {"slices": ["w@@.0"]}},
        {"w": {"OriginShape": (2,), "slices": ["missing@@.0"]}},
        {"w": {"OriginShape": (3,), "slices": ["w@@.0"]}},
        {"w": {"OriginShape": "x", "slices": 5}},
        {"w": 7},
        ["not", "a", "dict"],
    ],
    ids=["no-shape", "missing-slice", "wrong-shape", "bad-types", "not-a-dict", "a-list"],
)
def test_a_bad_unpack_big_param_entry_is_an_error(info, tmp_path: Path) -> None:
    saved = {"w@@.0": np.zeros(2, dtype=np.float32), "UnpackBigParamInfor@@": info}
    with pytest.raises(InvalidArgumentError, match="UnpackBigParamInfor@@"):
        phi.load(_write(tmp_path, saved))


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.pdparams"
    import os

    os.mkfifo(fifo)
    with pytest.raises(InvalidArgumentError, match="not a regular file"):
        phi.load(fifo)


def _dict_keyed_by(key_ops: bytes) -> bytes:
    """A protocol 2 pickle of {KEY: 1}, KEY given as the opcodes that build it: the file is
    written without ever hashing the key here."""
    return b"\x80\x02}" + key_ops + b"K\x01s."


def test_a_shared_reference_bomb_used_as_a_dict_key_is_refused(tmp_path: Path) -> None:
    bomb: tuple = ()
    for _ in range(64):  # hashing it would visit 2**64 tuples
        bomb = (bomb, bomb)
    path = tmp_path / "key.pdparams"
    path.write_bytes(_dict_keyed_by(pickle.dumps(bomb, protocol=2)[2:-1]))
    assert path.stat().st_size < 1000
    with pytest.raises(
        InvalidArgumentError,
        match=r"key\.pdparams .* the tuple built at byte \d+ unfolds to .*MAX_PICKLE_NODES",
    ):
        phi.load(path)


def test_a_key_bomb_built_by_tuple_of_a_list_is_refused(tmp_path: Path) -> None:
    level: Any = ()
    for _ in range(64):
        level = _Reduce(tuple, ([level, level],))  # unpickles as tuple([t, t]) == (t, t)
    path = tmp_path / "listkey.pdparams"
    path.write_bytes(pickle.dumps({level: 1}, protocol=2))
    assert path.stat().st_size < 2000
    with pytest.raises(InvalidArgumentError, match="MAX_PICKLE_NODES"):
        phi.load(path)


def test_tuple_keys_within_the_limit_load(tmp_path: Path) -> None:
    key: tuple = ()
    for _ in range(10):
        key = (key, key)
    path = tmp_path / "fine.pdparams"
    path.write_bytes(pickle.dumps({key: np.arange(3.0)}, protocol=2))
    loaded = phi.load(path, return_numpy=True)
    np.testing.assert_array_equal(loaded[key], np.arange(3.0))


@pytest.mark.parametrize("length", [2**63 - 1, 2**62, 2**40])
def test_a_huge_bytearray8_length_is_a_named_error_with_nothing_on_stderr(
    length: int, tmp_path: Path, capfd
) -> None:
    data = pickle.dumps({"w": bytearray(b"abc")}, protocol=5)
    at = data.index(b"\x96\x03" + b"\x00" * 7)  # BYTEARRAY8, length 3
    path = tmp_path / "bytearray.pdparams"
    path.write_bytes(data[:at] + b"\x96" + struct.pack("<Q", length) + data[at + 9 :])
    with pytest.raises(
        InvalidArgumentError,
        match=rf"bytearray\.pdparams is not a PaddlePaddle pickle file phiops can read: expected "
        rf"{length} bytes in a bytearray8, but only \d+ remain",
    ):
        phi.load(path)
    assert capfd.readouterr().err == ""


def test_a_file_object_is_left_just_past_the_pickle(tmp_path: Path) -> None:
    path = tmp_path / "two.pdparams"
    with open(path, "wb") as f:
        pickle.dump({"a": np.arange(2.0)}, f, protocol=4)
        pickle.dump({"b": np.arange(3.0)}, f, protocol=4)
    with open(path, "rb") as f:
        first = phi.load(f, return_numpy=True)
        second = phi.load(f, return_numpy=True)
    np.testing.assert_array_equal(first["a"], np.arange(2.0))
    np.testing.assert_array_equal(second["b"], np.arange(3.0))
