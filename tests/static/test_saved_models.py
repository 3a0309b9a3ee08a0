"""Saved inference models: `phi.static.load_inference_model` on models PaddlePaddle 3.3.1 saved
with `paddle.jit.save` and `paddle.static.save_inference_model` (tests/data/saved_models, made by
tests/tools/make_saved_models.py), and `phi.static.save_inference_model` writing PaddlePaddle's
bytes, and running the loaded models with the Executor gives PaddlePaddle's outputs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.errors import InvalidArgumentError, NotFoundError, UnimplementedError
from phiops.runtime.ir import parse_program, print_program, verify
from phiops.runtime.formats.inference_model import read_inference_model
from phiops.runtime.formats.pdiparams import TensorStreamError, save_combine
from phiops.runtime.static.io import normalize_program

DATA = Path(__file__).resolve().parents[1] / "data" / "saved_models"
MODELS = sorted(p for p in DATA.iterdir() if (p / "model.json").exists())
ids = [p.name for p in MODELS]


@pytest.mark.parametrize("model", MODELS, ids=ids)
def test_loaded_program_prints_as_paddle_prints_it(model: Path) -> None:
    program, _, _ = phi.static.load_inference_model(model / "model", None, scope={})
    assert print_program(program) == (model / "program.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("model", MODELS, ids=ids)
def test_every_op_of_the_model_is_known_to_phiops(model: Path) -> None:
    program, _, _ = phi.static.load_inference_model(model / "model", None, scope={})
    verify(program)  # raises naming any op no dialect defines


@pytest.mark.parametrize("model", MODELS, ids=ids)
def test_feed_names_and_fetch_targets(model: Path) -> None:
    expected = json.loads((model / "feeds.json").read_text())
    program, feed_names, fetch_targets = phi.static.load_inference_model(
        model / "model", None, scope={}
    )
    assert feed_names == expected["feed_names"]
    assert len(fetch_targets) == expected["num_fetch"]
    fetch_ops = [op for op in program.block.ops if op.name == "pd_op.fetch"]
    assert [op.operands[0] for op in fetch_ops] == fetch_targets


@pytest.mark.parametrize("model", MODELS, ids=ids)
def test_parameters_arrive_in_the_scope_bit_exactly(model: Path) -> None:
    expected = np.load(model / "params.npz")
    scope: dict[str, np.ndarray] = {}
    phi.static.load_inference_model(model / "model", None, scope=scope)
    assert sorted(scope) == sorted(expected.keys())
    for name in expected.keys():
        assert scope[name].dtype == expected[name].dtype
        assert scope[name].tobytes() == expected[name].tobytes(), name


def _same_attribute(a, b) -> bool:
    if a.kind != b.kind:
        return False
    if a.kind in ("float", "double"):  # the text prints 6 significant digits
        return a.value == pytest.approx(b.value, rel=1e-5)
    if a.kind == "array":
        return len(a.value) == len(b.value) and all(map(_same_attribute, a.value, b.value))
    return a.value == b.value


@pytest.mark.parametrize("model", MODELS, ids=ids)
def test_paddles_printed_text_parses_to_the_files_typed_program(model: Path) -> None:
    # the parser types attributes from the pd_op table; the JSON file carries PaddlePaddle's types
    parsed = parse_program((model / "program.txt").read_text(encoding="utf-8"))
    loaded, _, _ = phi.static.load_inference_model(model / "model", None, scope={})
    pairs = list(zip(parsed.walk(), loaded.walk()))
    assert len(pairs) == len(list(loaded.walk()))
    for text_op, file_op in pairs:
        assert text_op.name == file_op.name
        assert sorted(text_op.attributes) == sorted(file_op.attributes), text_op.name
        for key, attribute in file_op.attributes.items():
            assert _same_attribute(text_op.attributes[key], attribute), (text_op.name, key)
        assert [v.type for v in text_op.results] == [v.type for v in file_op.results]


class _ScopeWithSet:
    """The executor's Scope interface: get/set of arrays by name."""

    def __init__(self) -> None:
        self.arrays: dict[str, np.ndarray] = {}

    def get(self, name: str) -> np.ndarray | None:
        return self.arrays.get(name)

    def set(self, name: str, array: np.ndarray) -> None:
        self.arrays[name] = array


def test_a_scope_object_with_get_and_set_is_filled_and_read(tmp_path: Path) -> None:
    scope = _ScopeWithSet()
    program, _, fetches = phi.static.load_inference_model(
        DATA / "cnn_jit" / "model", None, scope=scope
    )
    assert len(scope.arrays) == 8
    feed = program.block.ops[8].results[0]
    phi.static.save_inference_model(tmp_path / "m", [feed], fetches, None, program, scope=scope)
    assert (tmp_path / "m.pdiparams").read_bytes() == (
        DATA / "cnn_jit" / "model.pdiparams"
    ).read_bytes()


@pytest.mark.parametrize("model", MODELS, ids=ids)
def test_saving_a_loaded_model_writes_paddles_bytes(model: Path, tmp_path: Path) -> None:
    scope: dict[str, np.ndarray] = {}
    program, feed_names, fetches = phi.static.load_inference_model(
        model / "model", None, scope=scope
    )
    feeds = [op.results[0] for op in program.block.ops if op.name == "pd_op.data"]
    phi.static.save_inference_model(tmp_path / "out" / "m", feeds, fetches, None, scope=scope)
    assert (tmp_path / "out" / "m.json").read_bytes() == (model / "model.json").read_bytes()
    assert (tmp_path / "out" / "m.pdiparams").read_bytes() == (
        model / "model.pdiparams"
    ).read_bytes()


# -- normalize_program: what save_inference_model keeps ----------------------------------------
PROGRAM = """{
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<4x3xf32>
    (%1) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"unused_w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<3xf32>
    (%2) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<-1x4xf32>
    (%3) = "pd_op.data" () {dtype:float32,name:"other",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xf32>
    (%4) = "pd_op.matmul" (%2, %0) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<-1x4xf32>, tensor<4x3xf32>) -> tensor<-1x3xf32>
    (%5) = "pd_op.relu" (%4) {stop_gradient:[false]} : (tensor<-1x3xf32>) -> tensor<-1x3xf32>
    (%6) = "pd_op.add" (%3, %1) {stop_gradient:[false]} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    (%7) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
    (%8) = "pd_op.scale" (%2, %7) {bias:0,bias_after_scale:true,stop_gradient:[true]} : (tensor<-1x4xf32>, tensor<1xf32>) -> tensor<-1x4xf32>
    (%9) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%10, %11) = "pd_op.dropout" (%5, <<NULL VALUE>>, %9) {fix_seed:false,is_test:false,mode:"upscale_in_train",seed:0,stop_gradient:[false,true]} : (tensor<-1x3xf32>, <<NULL TYPE>>, tensor<1xf32>) -> tensor<-1x3xf32>, tensor<-1x3xu8>
    (%12) = "pd_op.fetch" (%6) {col:0,name:"fetch_name_0",persistable:[true],stop_gradient:[false]} : (tensor<3xf32>) -> tensor<3xf32>
}
"""


def _program():
    program = parse_program(PROGRAM)
    return program, {name: program.value(name) for name in ("%2", "%3", "%5", "%8", "%10")}


def _op_names(program) -> list[str]:
    return [op.name for op in program.block.ops]


def test_normalize_keeps_only_what_the_fetches_need() -> None:
    program, v = _program()
    normalized = normalize_program(program, [v["%2"]], [v["%5"]])
    assert _op_names(normalized) == [
        "builtin.parameter",
        "pd_op.data",
        "pd_op.matmul",
        "pd_op.relu",
        "pd_op.fetch",
    ]
    assert print_program(program) == PROGRAM  # the original is untouched


def test_normalize_replaces_old_fetches_and_names_new_ones() -> None:
    program, v = _program()
    normalized = normalize_program(program, [v["%2"]], [v["%5"]])
    fetch = normalized.block.ops[-1]
    assert str(fetch.attributes["name"]) == '"fetch_name_0"'
    assert str(fetch.attributes["col"]) == "0"
    assert (
        print_program(normalized)
        .splitlines()[-2]
        .endswith(
            '{col:0,name:"fetch_name_0",persistable:[true],stop_gradient:[false]} : '
            "(tensor<-1x3xf32>) -> tensor<-1x3xf32>"
        )
    )


def test_a_fetch_of_scale_by_one_fetches_the_named_input() -> None:
    program, v = _program()
    normalized = normalize_program(program, [v["%2"]], [v["%5"], v["%8"]])
    fetches = [op for op in normalized.block.ops if op.name == "pd_op.fetch"]
    assert [str(op.attributes["name"]) for op in fetches] == ['"fetch_name_0"', '"x"']
    assert fetches[1].operands[0].define_op.name == "pd_op.data"


def test_normalize_sets_is_test() -> None:
    program, v = _program()
    normalized = normalize_program(program, [v["%2"]], [v["%10"]])
    (dropout,) = [op for op in normalized.block.ops if op.name == "pd_op.dropout"]
    assert str(dropout.attributes["is_test"]) == "true"


def test_a_feed_the_fetches_do_not_need_is_an_error() -> None:
    program, v = _program()
    with pytest.raises(
        InvalidArgumentError,
        match=r"feed var of 'pd_op.data' \('other'\) is not " r"used to compute fetch_vars",
    ):
        normalize_program(program, [v["%2"], v["%3"]], [v["%5"]])


def test_a_feed_that_is_not_a_data_op_is_unimplemented() -> None:
    program, v = _program()
    with pytest.raises(UnimplementedError, match="computed by pd_op.relu is not supported"):
        normalize_program(program, [v["%5"]], [v["%10"]])


def test_vars_must_be_values() -> None:
    program, v = _program()
    with pytest.raises(
        InvalidArgumentError, match="fetch_vars must be a Value or a list of " "Values, got str"
    ):
        normalize_program(program, [v["%2"]], ["out"])


def test_vars_of_another_program_are_an_error() -> None:
    program, v = _program()
    other, w = _program()
    with pytest.raises(InvalidArgumentError, match="not a value of the program"):
        normalize_program(program, [v["%2"]], [w["%5"]])


# -- saving ------------------------------------------------------------------------------------
def test_save_writes_only_the_needed_parameters(tmp_path: Path) -> None:
    program, v = _program()
    w = np.arange(12, dtype="float32").reshape(4, 3)
    scope = {"w": w, "unused_w": np.zeros(3, "float32")}
    phi.static.save_inference_model(
        tmp_path / "m", [v["%2"]], [v["%5"]], None, program, scope=scope
    )
    loaded, feeds, fetches, params = read_inference_model(tmp_path / "m")
    assert feeds == ["x"] and len(fetches) == 1
    assert list(params) == ["w"]
    np.testing.assert_array_equal(params["w"], w)


def test_program_defaults_to_the_one_holding_the_vars(tmp_path: Path) -> None:
    program, v = _program()
    scope = {"w": np.ones((4, 3), "float32")}
    phi.static.save_inference_model(tmp_path / "m", v["%2"], v["%5"], None, scope=scope)
    loaded, *_ = read_inference_model(tmp_path / "m")
    assert _op_names(loaded)[-1] == "pd_op.fetch"


def test_a_parameter_missing_from_the_scope_is_an_error(tmp_path: Path) -> None:
    program, v = _program()
    with pytest.raises(NotFoundError, match="parameter 'w' of the program has no value"):
        phi.static.save_inference_model(tmp_path / "m", [v["%2"]], [v["%5"]], None, scope={})


@pytest.mark.parametrize(
    "array, message",
    [
        (np.ones((3, 4), "float32"), r"declared with shape \[4, 3\] .* has shape \[3, 4\]"),
        (np.ones((4, 3), "float64"), "declared float32 in the program but its array is float64"),
    ],
)
def test_a_parameter_array_unlike_its_declaration_is_an_error(
    array: np.ndarray, message: str, tmp_path: Path
) -> None:
    program, v = _program()
    with pytest.raises(InvalidArgumentError, match=message):
        phi.static.save_inference_model(
            tmp_path / "m", [v["%2"]], [v["%5"]], None, scope={"w": array}
        )


def test_a_program_without_parameters_writes_no_params_file(tmp_path: Path) -> None:
    program, v = _program()
    phi.static.save_inference_model(tmp_path / "m", [v["%2"]], [v["%8"]], None, scope={})
    assert not (tmp_path / "m.pdiparams").exists()
    loaded, feeds, fetches = phi.static.load_inference_model(tmp_path / "m", None, scope={})
    assert feeds == ["x"] and len(fetches) == 1


@pytest.mark.parametrize("prefix", ["", "dir/"])
def test_a_prefix_without_a_model_name_is_an_error(prefix: str, tmp_path: Path) -> None:
    program, v = _program()
    with pytest.raises(InvalidArgumentError, match="path_prefix must be a directory plus a model"):
        phi.static.save_inference_model(prefix, [v["%2"]], [v["%5"]], None, scope={})


# -- loading errors ----------------------------------------------------------------------------
def _copy_model(tmp_path: Path, name: str = "cnn_jit") -> Path:
    for suffix in (".json", ".pdiparams"):
        shutil.copyfile(DATA / name / f"model{suffix}", tmp_path / f"m{suffix}")
    return tmp_path / "m"


def test_a_missing_model_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(NotFoundError, match=r"no model file .*nothing\.json"):
        phi.static.load_inference_model(tmp_path / "nothing", None, scope={})


def test_a_corrupt_legacy_pdmodel_is_an_error_naming_it(tmp_path: Path) -> None:
    # without old.json, old.pdmodel is read as a legacy ProgramDesc (tests/compat/ for good ones)
    (tmp_path / "old.pdmodel").write_bytes(b"\x0a\xa0\x1d\x08\x00")
    with pytest.raises(InvalidArgumentError, match=r"old\.pdmodel: not a PaddlePaddle ProgramDesc"):
        phi.static.load_inference_model(tmp_path / "old", None, scope={})


def test_a_missing_params_file_is_an_error(tmp_path: Path) -> None:
    prefix = _copy_model(tmp_path)
    (tmp_path / "m.pdiparams").unlink()
    with pytest.raises(NotFoundError, match=r"has 8 parameter\(s\) but there is no .*m\.pdiparams"):
        phi.static.load_inference_model(prefix, None, scope={})


def test_params_of_another_model_are_an_error_naming_the_file(tmp_path: Path) -> None:
    prefix = _copy_model(tmp_path)
    shutil.copyfile(DATA / "transformer_jit" / "model.pdiparams", tmp_path / "m.pdiparams")
    with pytest.raises(
        TensorStreamError,
        match=r"m\.pdiparams: at byte 2884: 7714 byte\(s\) left " r"after the 8 tensor\(s\)",
    ):
        phi.static.load_inference_model(prefix, None, scope={})


def test_a_parameter_of_another_shape_is_an_error_naming_it(tmp_path: Path) -> None:
    prefix = _copy_model(tmp_path)
    arrays = dict(np.load(DATA / "cnn_jit" / "params.npz"))
    arrays["conv2d_0.w_0"] = np.zeros((2, 2), "float32")
    save_combine(tmp_path / "m.pdiparams", arrays)
    with pytest.raises(
        InvalidArgumentError,
        match=r"m\.pdiparams: parameter 'conv2d_0.w_0' is "
        r"declared with shape \[4, 3, 3, 3\] in the program but its array has shape "
        r"\[2, 2\]",
    ):
        phi.static.load_inference_model(prefix, None, scope={})


def test_a_truncated_params_file_is_an_error_naming_file_and_offset(tmp_path: Path) -> None:
    prefix = _copy_model(tmp_path)
    data = (tmp_path / "m.pdiparams").read_bytes()
    (tmp_path / "m.pdiparams").write_bytes(data[:100])
    with pytest.raises(TensorStreamError, match=r"m\.pdiparams: at byte \d+: truncated"):
        phi.static.load_inference_model(prefix, None, scope={})
    assert (tmp_path / "m.json").exists()


def test_a_params_file_with_an_extra_tensor_is_an_error(tmp_path: Path) -> None:
    prefix = _copy_model(tmp_path)
    data = (tmp_path / "m.pdiparams").read_bytes()
    (tmp_path / "m.pdiparams").write_bytes(data + data[:40])
    with pytest.raises(TensorStreamError, match=f"at byte {len(data)}: 40 byte"):
        phi.static.load_inference_model(prefix, None, scope={})


def test_vars_of_two_programs_without_program_is_an_error(tmp_path: Path) -> None:
    program, v = _program()
    other, w = _program()
    with pytest.raises(InvalidArgumentError, match="must belong to one program; pass program="):
        phi.static.save_inference_model(tmp_path / "m", [v["%2"]], [w["%5"]], None, scope={})


@pytest.mark.parametrize("model", MODELS, ids=ids)
def test_loaded_model_runs_with_paddles_outputs(model: Path) -> None:
    """The CNN (conv2d/batch_norm/relu/pool2d/linear) and the transformer encoder layer, as
    PaddlePaddle saved them, run in the phiops Executor on PaddlePaddle's input and give the
    output PaddlePaddle computed (output.npy)."""
    from phiops.runtime.static import Executor, Scope

    scope, executor = Scope(), Executor()
    program, feeds, fetches = phi.static.load_inference_model(
        str(model / "model"), executor, scope=scope
    )
    (feed,) = feeds
    (out,) = executor.run(
        program, feed={feed: np.load(model / "input.npy")}, fetch_list=fetches, scope=scope
    )
    expected = np.load(model / "output.npy")
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
