"""Reading PaddlePaddle's legacy ProgramDesc (.pdmodel): the fixtures PaddlePaddle 3.3.1 wrote
(tests/tools/make_legacy_fixtures.py) and hand-built messages for the cases it never writes."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from phiops.runtime.formats.framework_proto import (
    ATTR_TYPES,
    VAR_TYPES,
    ProgramDesc as ProgramDescProto,
)
from phiops.runtime.compat.program_desc import BlockRef
from phiops.runtime.errors import InvalidArgumentError, NotFoundError
from phiops.runtime.formats.pdmodel import (
    LegacyProgramWarning,
    parse_program_desc,
    read_program_desc,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "legacy"


def _message() -> ProgramDescProto:
    """A two-block program: block 0 holds `x` (float32 [-1, 3]) and a `while`-like op whose
    BLOCK attribute names block 1."""
    message = ProgramDescProto()
    message.version.version = 3003001
    block = message.blocks.add(idx=0, parent_idx=-1)
    var = block.vars.add(name="x", persistable=False, stop_gradient=True)
    var.type.type = VAR_TYPES["DENSE_TENSOR"]
    var.type.dense_tensor.tensor.data_type = VAR_TYPES["FP32"]
    var.type.dense_tensor.tensor.dims.extend([-1, 3])
    op = block.ops.add(type="loop")
    op.inputs.add(parameter="X", arguments=["x", "x"])
    op.outputs.add(parameter="Out", arguments=["x"])
    op.attrs.add(name="sub_block", type=ATTR_TYPES["BLOCK"], block_idx=1)
    op.attrs.add(name="blocks", type=ATTR_TYPES["BLOCKS"], blocks_idx=[1, 1])
    op.attrs.add(name="axes", type=ATTR_TYPES["LONGS"], longs=[0, -1])
    op.attrs.add(name="scale", type=ATTR_TYPES["FLOAT64"], float64=0.25)
    message.blocks.add(idx=1, parent_idx=0)
    return message


def test_a_fixture_has_its_vars_with_type_shape_dtype_and_persistable() -> None:
    desc = read_program_desc(DATA / "cnn" / "model.pdmodel")
    assert desc.version == 3003001
    variables = desc.global_block.vars
    assert variables["img"].kind == "DENSE_TENSOR"
    assert (variables["img"].dtype, variables["img"].shape) == ("float32", (-1, 2, 6, 6))
    assert variables["conv2d_0.w_0"].persistable and variables["conv2d_0.w_0"].shape == (3, 2, 3, 3)
    assert not variables["img"].persistable
    assert variables["feed"].kind == "FEED_MINIBATCH" and variables["feed"].dtype is None


def test_a_fixture_has_its_ops_with_parameters_arguments_and_attributes() -> None:
    ops = read_program_desc(DATA / "cnn" / "model.pdmodel").global_block.ops
    assert [op.type for op in ops] == (DATA / "cnn" / "ops.txt").read_text().split()
    batch_norm = ops[3]
    assert batch_norm.input("Mean") == ("batch_norm_0.w_1",)
    assert batch_norm.output("MeanOut") == ("batch_norm_0.w_1",)
    assert batch_norm.input("MomentumTensor") == ()
    assert batch_norm.attrs["is_test"] is True and batch_norm.attr_types["is_test"] == "BOOLEAN"
    pool = ops[5]
    assert pool.attrs["ksize"] == (2, 2) and pool.attr_types["ksize"] == "INTS"
    assert pool.attrs["pooling_type"] == "max"


def test_block_and_vector_attributes_are_read() -> None:
    desc = parse_program_desc(_message().SerializeToString())
    op = desc.global_block.ops[0]
    assert op.inputs == {"X": ("x", "x")}
    assert op.attrs["sub_block"] == BlockRef(1)
    assert op.attrs["blocks"] == (BlockRef(1), BlockRef(1))
    assert op.attrs["axes"] == (0, -1) and op.attr_types["axes"] == "LONGS"
    assert op.attrs["scale"] == 0.25
    assert len(desc.blocks) == 2 and desc.blocks[1].parent_idx == 0
    assert desc.blocks[1].find_var("x", desc).shape == (-1, 3)


def test_the_messages_reserialize_to_paddlepaddles_bytes() -> None:
    data = (DATA / "mlp" / "model.pdmodel").read_bytes()
    message = ProgramDescProto()
    message.ParseFromString(data)
    assert message.SerializeToString() == data


def test_an_unknown_field_is_skipped_with_a_warning() -> None:
    message = _message()
    # field 99 (varint 7) of OpDesc, which a newer PaddlePaddle might add
    op_bytes = message.blocks[0].ops[0].SerializeToString() + bytes([0x98, 0x06, 0x07])
    del message.blocks[0].ops[:]
    message.blocks[0].ops.add().MergeFromString(op_bytes)
    with pytest.warns(LegacyProgramWarning, match=r"OpDesc has field\(s\) \[99\]"):
        desc = parse_program_desc(message.SerializeToString(), "new.pdmodel")
    assert desc.global_block.ops[0].type == "loop"


def test_a_newer_version_is_read_with_a_warning() -> None:
    message = _message()
    message.version.version = 4000000
    with pytest.warns(LegacyProgramWarning, match="newer PaddlePaddle .*4000000"):
        desc = parse_program_desc(message.SerializeToString(), "new.pdmodel")
    assert desc.global_block.vars["x"].shape == (-1, 3)


def test_an_unknown_variable_type_skips_the_variable_with_a_warning() -> None:
    message = _message()
    var = message.blocks[0].vars.add(name="future")
    var.type.type = VAR_TYPES["RAW"]
    data = message.SerializeToString().replace(
        var.type.SerializeToString(), bytes([0x08, 0x63])  # VarType.type = 99
    )
    with pytest.warns(LegacyProgramWarning, match="variable 'future' has a variable type"):
        desc = parse_program_desc(data, "new.pdmodel")
    assert "future" not in desc.global_block.vars and "x" in desc.global_block.vars


def test_a_known_file_reads_without_warnings() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_program_desc(DATA / "lookup_table_v2" / "model.pdmodel")


def test_a_corrupt_file_is_an_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "broken.pdmodel"
    path.write_bytes((DATA / "mlp" / "model.pdmodel").read_bytes()[:-7])
    with pytest.raises(InvalidArgumentError, match=r"broken\.pdmodel: not a PaddlePaddle"):
        read_program_desc(path)


def test_a_file_without_blocks_is_an_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "empty.pdmodel"
    path.write_bytes(b"")
    with pytest.raises(InvalidArgumentError, match=r"empty\.pdmodel: the ProgramDesc has no block"):
        read_program_desc(path)


def test_a_missing_required_field_is_an_error() -> None:
    message = ProgramDescProto()
    block = message.blocks.add(idx=0, parent_idx=-1)
    block.ops.add().inputs.add(parameter="X", arguments=["x"])  # an op without its type
    data = message.SerializePartialToString()
    with pytest.raises(InvalidArgumentError, match="op 0 lacks its required field 'type'"):
        parse_program_desc(data, "m.pdmodel")


def test_a_missing_file_is_not_found(tmp_path: Path) -> None:
    with pytest.raises(NotFoundError, match=r"no file .*nothing\.pdmodel"):
        read_program_desc(tmp_path / "nothing.pdmodel")
