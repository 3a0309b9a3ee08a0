"""Hostile legacy files: a `.pdmodel` whose blocks do not form a
tree, ops lacking their inputs, `.pdiparams` dims past int64 or past 64 of them; each a named
error, never a hang, RecursionError, IndexError or numpy's ValueError."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from phiops.runtime.compat.translate import translate_program_desc
from phiops.runtime.errors import InvalidArgumentError, NotFoundError
from phiops.runtime.formats.framework_proto import ProgramDesc as ProgramDescProto
from phiops.runtime.formats.pdiparams import TensorStreamError, load_combine
from phiops.runtime.formats.pdmodel import parse_program_desc, read_program_desc
from phiops.runtime.formats.tensor_desc import TensorDesc, encode_tensor_desc

LEGACY = Path(__file__).resolve().parents[1] / "data" / "legacy"


def _model(name: str) -> ProgramDescProto:
    message = ProgramDescProto()
    message.ParseFromString((LEGACY / name / "model.pdmodel").read_bytes())
    return message


def _translate(message: ProgramDescProto):
    return translate_program_desc(parse_program_desc(message.SerializeToString(), "m.pdmodel"))


def _sub_block_attr(message: ProgramDescProto):
    for block in message.blocks:
        for op in block.ops:
            for attr in op.attrs:
                if attr.name == "sub_block":
                    return op, attr
    raise AssertionError("no sub_block")


def test_a_block_that_is_its_own_parent_is_refused() -> None:
    message = _model("while_accumulate")
    message.blocks[1].parent_idx = 1
    with pytest.raises(InvalidArgumentError, match="block 1 has parent_idx 1"):
        _translate(message)


def test_an_out_of_range_parent_is_refused() -> None:
    message = _model("while_accumulate")
    message.blocks[1].parent_idx = 99
    with pytest.raises(InvalidArgumentError, match="block 1 has parent_idx 99"):
        _translate(message)


def test_a_while_whose_sub_block_is_its_own_block_is_refused() -> None:
    message = _model("cond_in_while")
    # an op of block 1 whose sub_block is block 1: the translation would recurse without end
    for op in message.blocks[1].ops:
        for attr in op.attrs:
            if attr.name == "sub_block":
                attr.block_idx = 1
                break
        else:
            continue
        break
    else:
        raise AssertionError("no control-flow op in block 1")
    with pytest.raises(InvalidArgumentError, match="names block 1; an op's sub-block is a later"):
        _translate(message)


def test_a_block_index_that_is_not_its_position_is_refused() -> None:
    message = _model("while_accumulate")
    message.blocks[1].idx = 0
    with pytest.raises(InvalidArgumentError, match="block 1 has idx 0, expected 1"):
        _translate(message)


def _fixtures() -> list[Path]:
    """Every legacy fixture's folder, those of tests/data/legacy/ops/ among them."""
    return sorted(path.parent for path in LEGACY.rglob("model.pdmodel"))


def test_the_block_tree_of_every_fixture_is_accepted() -> None:
    for model in _fixtures():
        read_program_desc(model / "model.pdmodel")


@pytest.mark.parametrize("dropped", ["inputs", "outputs"])
def test_an_op_that_lost_its_arguments_is_a_named_error(dropped: str) -> None:
    message = _model("mlp")
    failures = 0
    for index in range(len(message.blocks[0].ops)):
        broken = _model("mlp")
        del getattr(broken.blocks[0].ops[index], dropped)[:]
        try:
            _translate(broken)
        except InvalidArgumentError as error:
            assert "m.pdmodel: op" in str(error)
            failures += 1
        except NotFoundError:
            failures += 1
    assert failures


def test_dropping_any_input_of_any_fixture_is_never_a_raw_error() -> None:
    for model in _fixtures():
        name = str(model.relative_to(LEGACY))
        message = _model(name)
        for b, block in enumerate(message.blocks):
            for i, op in enumerate(block.ops):
                for k in range(len(op.inputs)):
                    broken = _model(name)
                    broken.blocks[b].ops[i].inputs[k].ClearField("arguments")
                    try:
                        _translate(broken)
                    except (InvalidArgumentError, NotFoundError, NotImplementedError):
                        pass


def test_a_missing_file_and_a_directory_are_named_errors(tmp_path: Path) -> None:
    with pytest.raises(NotFoundError):
        read_program_desc(tmp_path / "none.pdmodel")
    (tmp_path / "dir.pdmodel").mkdir()
    with pytest.raises(InvalidArgumentError, match="is a directory"):
        read_program_desc(tmp_path / "dir.pdmodel")


def _stream(dims: tuple[int, ...], data: bytes = b"") -> bytes:
    desc = encode_tensor_desc(TensorDesc(5, dims))  # float32
    return (
        (0).to_bytes(4, "little")
        + (0).to_bytes(8, "little")
        + (0).to_bytes(4, "little")
        + len(desc).to_bytes(4, "little", signed=True)
        + desc
        + data
    )


def test_pdiparams_dims_whose_product_overflows_int64_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.pdiparams"
    path.write_bytes(_stream((2**40, 2**40, 2**40), b"\0" * 16))
    with pytest.raises(TensorStreamError, match=r"big\.pdiparams: at byte \d+: truncated"):
        load_combine(path, ["w"])


def test_pdiparams_with_more_than_64_dims_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "rank.pdiparams"
    path.write_bytes(_stream((1,) * 65, np.zeros(1, np.float32).tobytes()))
    with pytest.raises(TensorStreamError, match="65 dims.*MAX_TENSOR_DIMS"):
        load_combine(path, ["w"])


def test_pdiparams_from_dev_zero_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "zero.pdiparams"
    link.symlink_to("/dev/zero")
    with pytest.raises(InvalidArgumentError, match="not a regular file"):
        load_combine(link, ["w"])
