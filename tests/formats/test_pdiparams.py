"""The `.pdiparams` tensor stream and its TensorDesc protobuf, against files PaddlePaddle 3.3.1
wrote (tests/data/saved_models, made by tests/tools/make_saved_models.py)."""

from __future__ import annotations

import struct
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.formats.tensor_desc import (
    TensorDesc,
    TensorDescError,
    decode_tensor_desc,
    encode_tensor_desc,
)
from phiops.runtime.formats.pdiparams import (
    TensorStreamError,
    load_combine,
    read_all_tensors,
    read_tensor,
    save_combine,
    tensor_to_bytes,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "saved_models"
MODELS = sorted(p for p in DATA.iterdir() if (p / "model.pdiparams").exists())


# -- TensorDesc --------------------------------------------------------------------------------
def test_tensor_desc_encodes_as_paddle_wrote_it() -> None:
    # the first tensor of cnn_jit/model.pdiparams (batch_norm2d_0.b_0): float32 (5), dims [4]
    raw = (DATA / "cnn_jit" / "model.pdiparams").read_bytes()
    size = struct.unpack_from("<i", raw, 16)[0]
    assert raw[20 : 20 + size] == encode_tensor_desc(TensorDesc(5, (4,)))
    assert decode_tensor_desc(raw[20 : 20 + size]) == TensorDesc(5, (4,))


def test_negative_dim_is_a_ten_byte_varint() -> None:
    encoded = encode_tensor_desc(TensorDesc(5, (-1, 3)))
    assert encoded == bytes.fromhex("0805") + bytes.fromhex("10ffffffffffffffffff01") + b"\x10\x03"
    assert decode_tensor_desc(encoded) == TensorDesc(5, (-1, 3))


def test_packed_dims_and_unknown_fields_are_read() -> None:
    # field 2 packed (wire type 2), then an unknown varint field 9 and an unknown bytes field 10
    data = bytes.fromhex("0806" "12020403" "4801" "5202abcd")
    assert decode_tensor_desc(data) == TensorDesc(6, (4, 3))


@pytest.mark.parametrize(
    "data, message",
    [
        (bytes.fromhex("08"), "truncated varint"),
        (bytes.fromhex("1004"), r"data_type \(1\) is missing"),
        (bytes.fromhex("0805120504"), "packed dims run past the end"),
        (bytes.fromhex("0805" + "0b"), "wire type 3"),
    ],
)
def test_bad_tensor_desc_is_an_error(data: bytes, message: str) -> None:
    with pytest.raises(TensorDescError, match=message):
        decode_tensor_desc(data)


# -- PaddlePaddle's files ----------------------------------------------------------------------
@pytest.mark.parametrize("model", MODELS, ids=lambda p: p.name)
def test_load_combine_gives_paddles_parameters_bit_exactly(model: Path) -> None:
    expected = np.load(model / "params.npz")
    arrays = load_combine(model / "model.pdiparams", list(expected.keys()))
    assert sorted(arrays) == sorted(expected.keys())
    for name in expected.keys():
        assert arrays[name].dtype == expected[name].dtype
        assert arrays[name].shape == expected[name].shape
        assert arrays[name].tobytes() == expected[name].tobytes(), name


@pytest.mark.parametrize("model", MODELS, ids=lambda p: p.name)
def test_save_combine_writes_paddles_bytes(model: Path, tmp_path: Path) -> None:
    expected = np.load(model / "params.npz")
    save_combine(tmp_path / "p.pdiparams", {k: expected[k] for k in expected.keys()})
    assert (tmp_path / "p.pdiparams").read_bytes() == (model / "model.pdiparams").read_bytes()


def test_read_all_tensors_reads_in_file_order() -> None:
    expected = np.load(DATA / "cnn_static" / "params.npz")
    arrays = read_all_tensors(DATA / "cnn_static" / "model.pdiparams")
    ordered = sorted(expected.keys())
    assert len(arrays) == len(ordered)
    for name, array in zip(ordered, arrays):
        np.testing.assert_array_equal(array, expected[name])


# -- round trips -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "dtype",
    ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16"]
    + ["float32", "float64", "complex64", "complex128"],
)
def test_every_element_type_round_trips(dtype: str, tmp_path: Path) -> None:
    array = (np.arange(12).reshape(3, 4) % 3).astype(dtype)
    save_combine(tmp_path / "p", {"a": array})
    loaded = load_combine(tmp_path / "p", ["a"])["a"]
    assert loaded.dtype == array.dtype and loaded.shape == (3, 4)
    np.testing.assert_array_equal(loaded, array)


@pytest.mark.parametrize("shape", [(), (0,), (2, 0, 3)])
def test_zero_d_and_empty_tensors_round_trip(shape: tuple, tmp_path: Path) -> None:
    array = np.ones(shape, dtype="float32")
    save_combine(tmp_path / "p", {"a": array})
    assert load_combine(tmp_path / "p", ["a"])["a"].shape == shape


def test_names_are_stored_in_sorted_order(tmp_path: Path) -> None:
    save_combine(tmp_path / "p", {"b": np.zeros(2, "int32"), "a": np.ones(3, "float64")})
    first, second = read_all_tensors(tmp_path / "p")
    assert first.dtype == np.float64 and second.dtype == np.int32


def test_big_endian_arrays_are_written_little_endian(tmp_path: Path) -> None:
    array = np.arange(4, dtype=">i4")
    assert tensor_to_bytes(array) == tensor_to_bytes(array.astype("<i4"))


def test_a_dtype_paddle_lacks_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(InvalidArgumentError, match="parameter 's'.*no PaddlePaddle tensor"):
        save_combine(tmp_path / "p", {"s": np.array(["x"])})


def test_lod_is_read_and_dropped() -> None:
    lod = struct.pack("<QQQQ", 1, 16, 0, 2)  # one level, offsets [0, 2]
    plain = tensor_to_bytes(np.array([1.0, 2.0], "float32"))
    with_lod = plain[:4] + lod + plain[12:]
    array, end = read_tensor(with_lod)
    assert end == len(with_lod)
    np.testing.assert_array_equal(array, [1.0, 2.0])


# -- errors ------------------------------------------------------------------------------------
def _write(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "bad.pdiparams"
    path.write_bytes(data)
    return path


def test_truncated_file_names_file_and_offset(tmp_path: Path) -> None:
    data = tensor_to_bytes(np.zeros((2, 3), "float32"))
    path = _write(tmp_path, data[:-5])
    with pytest.raises(
        TensorStreamError,
        match=r"bad\.pdiparams: at byte 26: truncated: the "
        r"data of tensor 0 \('w'\) \(\[2, 3\] float32\) needs 24 byte\(s\), only "
        r"19 left",
    ) as info:
        load_combine(path, ["w"])
    assert info.value.offset == 26


@pytest.mark.parametrize("cut", [1, 3, 11, 15, 19, 22])
def test_file_cut_anywhere_is_a_clear_error(cut: int, tmp_path: Path) -> None:
    data = tensor_to_bytes(np.zeros((2, 3), "float32")) * 2
    path = _write(tmp_path, data[: len(data) // 2 + cut])
    with pytest.raises(TensorStreamError, match=r"bad\.pdiparams: at byte \d+: truncated"):
        load_combine(path, ["a", "b"])


def test_wrong_version_is_an_error(tmp_path: Path) -> None:
    data = tensor_to_bytes(np.zeros(2, "float32"))
    path = _write(tmp_path, struct.pack("<I", 7) + data[4:])
    with pytest.raises(
        TensorStreamError,
        match=r"at byte 0: tensor 0 \('a'\): version 7, "
        r"expected 0 \(is this a PaddlePaddle parameter file\?\)",
    ):
        load_combine(path, ["a"])


def test_wrong_tensor_version_is_an_error(tmp_path: Path) -> None:
    data = tensor_to_bytes(np.zeros(2, "float32"))
    path = _write(tmp_path, data[:12] + struct.pack("<I", 1) + data[16:])
    with pytest.raises(TensorStreamError, match=r"at byte 12: .*tensor version 1, expected 0"):
        load_combine(path, ["a"])


def test_a_non_paddle_file_is_an_error(tmp_path: Path) -> None:
    path = _write(tmp_path, b"PK\x03\x04 this is a zip file, not a parameter file")
    with pytest.raises(TensorStreamError, match="at byte 0: .*version 67324752, expected 0"):
        load_combine(path, ["a"])


def test_fewer_tensors_than_names_is_an_error(tmp_path: Path) -> None:
    save_combine(tmp_path / "p", {"a": np.zeros(2, "float32")})
    with pytest.raises(
        TensorStreamError,
        match=r"at byte 32: the file ends after 1 tensor\(s\),"
        r" the program has 3 parameter\(s\); missing: b, c",
    ):
        load_combine(tmp_path / "p", ["c", "a", "b"])


def test_more_tensors_than_names_is_an_error(tmp_path: Path) -> None:
    save_combine(tmp_path / "p", {"a": np.zeros(2, "float32"), "b": np.zeros(1, "int64")})
    with pytest.raises(
        TensorStreamError,
        match=r"at byte 32: 32 byte\(s\) left after the 1 "
        r"tensor\(s\) .*holds more tensors than the program names",
    ):
        load_combine(tmp_path / "p", ["a"])


def test_negative_dims_in_a_file_are_an_error(tmp_path: Path) -> None:
    desc = encode_tensor_desc(TensorDesc(5, (-1, 2)))
    data = struct.pack("<IQIi", 0, 0, 0, len(desc)) + desc
    with pytest.raises(TensorStreamError, match=r"at byte 20: .*dims \[-1, 2\] are not all known"):
        load_combine(_write(tmp_path, data), ["a"])


def test_corrupt_tensor_desc_names_its_byte(tmp_path: Path) -> None:
    data = struct.pack("<IQIi", 0, 0, 0, 2) + bytes.fromhex("0885")  # varint cut short
    with pytest.raises(TensorStreamError, match=r"at byte 21: .*bad TensorDesc: truncated varint"):
        load_combine(_write(tmp_path, data), ["a"])


def test_bfloat16_reads_as_ml_dtypes_bfloat16(tmp_path: Path) -> None:
    """VarType code 22 is bfloat16: 2 bytes per element, the upper half of a float32."""
    desc = encode_tensor_desc(TensorDesc(22, (2,)))
    payload = np.array([1.5, -2.0], np.float32).view(np.uint32) >> 16
    data = struct.pack("<IQIi", 0, 0, 0, len(desc)) + desc + payload.astype("<u2").tobytes()
    (array,) = load_combine(_write(tmp_path, data), ["a"]).values()
    assert array.dtype == np.dtype(ml_dtypes.bfloat16)
    np.testing.assert_array_equal(array.astype(np.float32), [1.5, -2.0])


def test_bfloat16_round_trips_through_save_combine(tmp_path: Path) -> None:
    path = tmp_path / "bf16.pdiparams"
    values = np.array([[0.5, 3.0]], ml_dtypes.bfloat16)
    save_combine(path, {"w": values})
    loaded = load_combine(path, ["w"])["w"]
    assert loaded.dtype == values.dtype
    np.testing.assert_array_equal(loaded.astype(np.float32), values.astype(np.float32))


def test_float8_is_unimplemented(tmp_path: Path) -> None:
    desc = encode_tensor_desc(TensorDesc(32, (2,)))
    data = struct.pack("<IQIi", 0, 0, 0, len(desc)) + desc + b"\0" * 2
    with pytest.raises(
        UnimplementedError, match=r"bad\.pdiparams: at byte 20: tensor 0 \('a'\): .*float8"
    ):
        load_combine(_write(tmp_path, data), ["a"])


def test_odd_lod_size_is_an_error() -> None:
    data = struct.pack("<IQQ", 0, 1, 5) + b"\0" * 5
    with pytest.raises(TensorStreamError, match="at byte 12: .*LoD level 0 has 5 bytes"):
        read_tensor(data)
