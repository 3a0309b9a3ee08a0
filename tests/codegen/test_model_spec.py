"""OpSpec/SpecSet: what the generator reads from a loaded spec."""

from __future__ import annotations

import dataclasses

import pytest

from phiops import codegen
from .spec_cases import write_files

API = """
- op : matmul
  args : (Tensor x, Tensor y, bool transpose_x = false, bool transpose_y = false)
  output : Tensor(out)
  infer_meta :
    func : MatmulInferMeta
  kernel :
    func : matmul
  backward : matmul_grad

- op : dropout
  args : (Tensor x, Tensor seed_tensor, Scalar p = 0.5f, bool is_test = false)
  output : Tensor(out), Tensor(mask)
  infer_meta :
    func : DropoutInferMeta
    param : [x, p]
  kernel :
    func : dropout
    param : [x, seed_tensor, p, is_test]
    data_type : x
  optional : seed_tensor
  intermediate : mask
  inplace : (x -> out)

- op : full_like
  args : (Tensor x, Scalar value, DataType dtype = DataType::UNDEFINED, Place place = {})
  output : Tensor(out)
  infer_meta :
    func : CreateLikeInferMeta
  kernel :
    func : full_like {dense -> dense}, full_like_sr {selected_rows -> selected_rows}
    data_type : dtype > x
    backend : place > x
"""

BACKWARD = """
- backward_op : matmul_grad
  forward : matmul (Tensor x, Tensor y, bool transpose_x=false, bool transpose_y=false) -> Tensor(out)
  args : (Tensor x, Tensor y, Tensor out_grad, bool transpose_x=false, bool transpose_y=false)
  output : Tensor(x_grad), Tensor(y_grad)
  infer_meta :
    func : GeneralBinaryGradInferMeta
    param : [x, y]
  kernel :
    func : matmul_grad
"""


@pytest.fixture
def spec_set(tmp_path) -> codegen.SpecSet:
    paths = write_files(tmp_path, {"ops/api.yaml": API, "ops/backward.yaml": BACKWARD})
    return codegen.load(paths, base=tmp_path)


def test_lookups(spec_set) -> None:
    assert [op.name for op in spec_set.ops] == ["matmul", "dropout", "full_like"]
    assert spec_set.backward_op("matmul_grad").is_backward
    assert spec_set.find("matmul_grad") is spec_set.backward_op("matmul_grad")
    assert spec_set.find("nothing") is None
    assert spec_set.files == ("ops/api.yaml", "ops/backward.yaml")
    with pytest.raises(KeyError):
        spec_set.op("matmul_grad")


def test_model_is_frozen(spec_set) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec_set.op("matmul").name = "other"
    assert isinstance(spec_set.op("matmul").args.args, tuple)


def test_inputs_and_attrs(spec_set) -> None:
    matmul = spec_set.op("matmul")
    assert [a.name for a in matmul.inputs] == ["x", "y"]
    assert [a.name for a in matmul.attrs] == ["transpose_x", "transpose_y"]


def test_params_default_to_all_args(spec_set) -> None:
    matmul = spec_set.op("matmul")
    assert matmul.kernel_params() == ("x", "y", "transpose_x", "transpose_y")
    assert matmul.infer_meta_params() == matmul.kernel_params()
    dropout = spec_set.op("dropout")
    assert dropout.kernel_params() == ("x", "seed_tensor", "p", "is_test")
    assert dropout.infer_meta_params() == ("x", "p")


def test_optional_intermediate_inplace(spec_set) -> None:
    dropout = spec_set.op("dropout")
    assert dropout.is_optional("seed_tensor") and not dropout.is_optional("x")
    assert [o.name for o in dropout.visible_outputs] == ["out"]
    assert [str(p) for p in dropout.inplace] == ["(x -> out)"]


def test_kernel_selectors(spec_set) -> None:
    kernel = spec_set.op("full_like").kernel
    assert str(kernel.data_type) == "dtype > x" and kernel.data_type.ordered
    assert kernel.backend.arg_names() == ("place", "x")
    assert kernel.dense_func.name == "full_like"
    assert spec_set.op("matmul").kernel.dense_func.name == "matmul"


def test_locations(spec_set) -> None:
    matmul = spec_set.op("matmul")
    assert str(matmul.loc) == "ops/api.yaml:1:8"
    assert str(matmul.loc_of("args")) == "ops/api.yaml:2:10"
    assert str(matmul.loc_of("kernel.func")) == "ops/api.yaml:7:12"
    assert str(matmul.loc_of("optional")) == str(matmul.loc)  # absent key: the entry
    assert str(spec_set.op("dropout").loc_of("infer_meta.param.1")) == "ops/api.yaml:15:17"


def test_forward_signature_of_backward(spec_set) -> None:
    grad = spec_set.backward_op("matmul_grad")
    assert grad.forward.name == "matmul"
    assert str(grad.forward.outputs) == "Tensor(out)"
    assert grad.key == "backward_op"


def test_defaults_are_python_values(spec_set) -> None:
    full_like = spec_set.op("full_like")
    dtype, place = full_like.args.args[2:]
    assert (dtype.default.kind, dtype.default.value) == ("datatype", "UNDEFINED")
    assert place.default.kind == "undefined"
    assert spec_set.op("dropout").args.get("p").default.value == 0.5
