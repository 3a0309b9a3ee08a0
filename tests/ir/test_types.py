"""The IR's types: dense tensors keep layout, LoD and offset without printing
them (GRAMMAR.md §4), selected rows and tensor arrays print with their dialect prefix, and the
JSON form keeps what the text drops."""

from __future__ import annotations

from pathlib import Path

import phiops.generated as phi
from phiops.runtime.ir import Builder, DenseTensorType, Program, SelectedRowsType, TensorArrayType
from phiops.runtime.ir.types import NULL_TYPE, SimpleDialectType, VectorType


def test_a_dense_type_prints_dims_with_unknowns_and_its_element_only() -> None:
    t = DenseTensorType((-1, 3), "f32", layout="NHWC", lod=((0, 2, 5),), offset=7)
    assert str(t) == "tensor<-1x3xf32>"
    assert str(DenseTensorType((), "b")) == "tensor<b>"
    assert str(DenseTensorType((0,), "i64")) == "tensor<0xi64>"


def test_dense_types_differing_only_in_layout_lod_or_offset_are_different() -> None:
    base = DenseTensorType((2, 3), "f32")
    assert base == DenseTensorType((2, 3), "f32", "NCHW", (), 0)
    assert base != DenseTensorType((2, 3), "f32", layout="NHWC")
    assert base != DenseTensorType((2, 3), "f32", lod=((0, 1, 2),))
    assert base != DenseTensorType((2, 3), "f32", offset=4)


def test_the_other_types_print_as_paddle_spells_them() -> None:
    assert str(NULL_TYPE) == "<<NULL TYPE>>"
    f32 = DenseTensorType((2, 3), "f32")
    assert str(VectorType((f32, DenseTensorType((2, 1), "f32")))) == (
        "vec[tensor<2x3xf32>,tensor<2x1xf32>]"
    )
    assert str(SelectedRowsType((-1, 8), "f32")) == "pd_op.selectedrows<-1x8xf32>"
    assert str(TensorArrayType("f32", (2, 3))) == "pd_op.tensor_array<f32>"
    assert [str(SimpleDialectType(n)) for n in ("cf.stack", "cf.inlet", "cf.outlet")] == [
        "cf.stack",
        "cf.inlet",
        "cf.outlet",
    ]


def test_selected_rows_and_tensor_array_types_parse_and_print_back() -> None:
    text = (
        "{\n"
        '    (%0) = "pd_op.data" () {dtype:float32,name:"g",place:Place(cpu),shape:[-1,8],'
        "stop_gradient:[true]} : () -> pd_op.selectedrows<-1x8xf32>\n"
        '    (%1) = "pd_op.create_array" () {dtype:float32,stop_gradient:[true]} : () -> '
        "pd_op.tensor_array<f32>\n"
        "}\n"
    )
    program = phi.ir.parse_program(text)
    assert str(program) == text
    assert program.value("%0").type == SelectedRowsType((-1, 8), "f32")
    assert program.value("%1").type == TensorArrayType("f32")


def test_json_keeps_layout_lod_and_offset_that_the_text_drops(tmp_path: Path) -> None:
    program = Program()
    odd = DenseTensorType((-1, 4), "f64", layout="NHWC", lod=((0, 1, 3),), offset=2)
    Builder(program.block).create(
        "pd_op.data",
        result_types=[odd],
        attributes={
            "dtype": phi.ir.Attribute("dtype", "float64"),
            "name": "x",
            "place": phi.ir.Attribute("place", "cpu"),
            "shape": [-1, 4],
            "stop_gradient": [True],
        },
    )
    phi.ir.save_program_json(program, tmp_path / "p.json")
    loaded = phi.ir.load_program_json(tmp_path / "p.json")
    assert loaded.block.ops[0].results[0].type == odd
    # the text has no place for them
    assert phi.ir.parse_program(str(program)).block.ops[0].results[0].type == DenseTensorType(
        (-1, 4), "f64"
    )
