"""Loading spec files: YAML with locations, key consumption, both spellings, speed."""

from __future__ import annotations

import time

import pytest

from phiops import codegen
from phiops.codegen.loader import YMap, YScalar, read_entries
from .spec_cases import load_case, write_files


def test_nodes_carry_one_based_locations() -> None:
    entries, diagnostics = read_entries("- op : abs\n  args : (Tensor x)\n", "a.yaml")
    assert diagnostics == []
    (entry,) = entries
    assert isinstance(entry, YMap) and str(entry.loc) == "a.yaml:1:3"
    key, value = entry.items["args"]
    assert isinstance(value, YScalar)
    assert (str(key.loc), str(value.loc), value.value) == (
        "a.yaml:2:3",
        "a.yaml:2:10",
        "(Tensor x)",
    )


def test_yaml_never_constructs_python_objects() -> None:
    for text in (
        "- op : !!python/object/apply:os.system ['ls']\n",
        "- op : !!python/name:os.system\n",
        "- !!python/object:os.X {a: 1}\n",
    ):
        _, diagnostics = read_entries(text, "a.yaml")
        assert [d.message.split(":")[0] for d in diagnostics] == ["invalid YAML"], text


def test_duplicate_keys_are_all_reported_and_first_value_kept() -> None:
    entries, _ = read_entries("- op : a\n  op : b\n  args : ()\n  args : (x)\n", "a.yaml")
    assert [(k, loc.line, first.line) for k, loc, first in entries[0].duplicates] == [
        ("op", 2, 1),
        ("args", 4, 3),
    ]
    assert entries[0].items["op"][1].value == "a"


def test_folded_multi_line_args(tmp_path) -> None:
    files = {"ops/api.yaml": """
        - op : foo
          args : (Tensor x, Tensor y,
                  int axis = -1)
          output : Tensor
          infer_meta :
            func : F
          kernel :
            func : foo
        """}
    spec = codegen.load(write_files(tmp_path, files), base=tmp_path).op("foo")
    assert str(spec.args) == "(Tensor x, Tensor y, int axis = -1)"


def test_folded_multi_line_error_points_at_value_start(tmp_path) -> None:
    files = {"ops/api.yaml": """
        - op : foo
          args : (Tensor x, Tensor y,
                  int axis = "a")
          output : Tensor
          infer_meta :
            func : F
          kernel :
            func : foo
        """}
    assert load_case(tmp_path, files) == [
        "ops/api.yaml:2:10: op 'foo': args: default \"a\" of argument 'axis' does not fit "
        "type int"
    ]


def test_old_spellings_api_and_backward_api(tmp_path) -> None:
    files = {
        "api.yaml": """
            - api : abs
              args : (Tensor x)
              output : Tensor
              infer_meta :
                func : RealAndImagInferMeta
              kernel :
                func : abs
                use_gpudnn : true
                dtype : x
              backward : abs_grad
            """,
        "backward.yaml": """
            - backward_api : abs_grad
              forward : abs (Tensor x) -> Tensor(out)
              args : (Tensor x, Tensor out_grad)
              output : Tensor(x_grad)
              infer_meta :
                func : UnchangedInferMeta
                param : [x]
                dtype : x
              kernel :
                func : abs_grad
            """,
    }
    spec_set = codegen.load(write_files(tmp_path, files), base=tmp_path)
    abs_op = spec_set.op("abs")
    assert abs_op.key == "api" and not abs_op.is_backward
    assert abs_op.kernel.use_gpudnn == "true" and str(abs_op.kernel.data_type) == "x"
    grad = spec_set.backward_op("abs_grad")
    assert grad.key == "backward_api" and grad.infer_meta.dtype == "x"


def test_cpp_only_keys_are_kept(tmp_path) -> None:
    files = {"ops/api.yaml": """
        - op : arange
          args : (Tensor x, Scalar start, Scalar end, bool force_cpu = false)
          output : Tensor(out), Tensor(xshape)
          infer_meta :
            func : strings::ArangeInferMeta
            spmd_rule : ArangeInferSpmd
            local_shape : out
            global_shape : out
          kernel :
            func : arange
            force_backend : force_cpu
            layout : x
          traits : pir::SideEffectTrait
          interfaces : paddle::dialect::InferSymbolicShapeInterface, paddle::dialect::X
          support_dygraph_mode : true
          support_tensor : [start, end]
          data_transform :
            skip_transform : x
            support_trans_dtype : x
          view : (x -> out)
          no_need_buffer : x
        """}
    op = codegen.load(write_files(tmp_path, files), base=tmp_path).op("arange")
    assert op.infer_meta.func == "strings::ArangeInferMeta"
    assert (op.infer_meta.spmd_rule, op.infer_meta.local_shape) == ("ArangeInferSpmd", "out")
    assert op.kernel.force_backend == "force_cpu" and str(op.kernel.layout) == "x"
    assert op.traits == ("pir::SideEffectTrait",)
    assert op.interfaces == ("paddle::dialect::InferSymbolicShapeInterface", "paddle::dialect::X")
    assert op.support_dygraph_mode and op.support_tensor == ("start", "end")
    assert op.data_transform == codegen.DataTransform(("x",), ("x",))
    assert [str(p) for p in op.view] == ["(x -> out)"] and op.no_need_buffer == ("x",)


def test_null_output_is_an_empty_output_list(tmp_path) -> None:
    files = {"ops/api.yaml": """
        - op : barrier
          args : (Tensor x)
          output :
          kernel :
            func : barrier
        """}
    # PaddlePaddle's schema: phiops cannot generate an op without InferMeta (python_api=False)
    specs = codegen.load(write_files(tmp_path, files), base=tmp_path, python_api=False)
    op = specs.op("barrier")
    assert len(op.outputs) == 0 and op.infer_meta is None


def test_composite_backward(tmp_path) -> None:
    files = {
        "ops/api.yaml": """
            - op : exp
              args : (Tensor x)
              output : Tensor(out)
              infer_meta :
                func : UnchangedInferMeta
              kernel :
                func : exp
              backward : exp_grad
            """,
        "ops/backward.yaml": """
            - backward_op : exp_grad
              forward : exp (Tensor x) -> Tensor(out)
              args : (Tensor out, Tensor out_grad)
              output : Tensor(x_grad)
              composite : exp_grad(out, out_grad, x_grad)
            """,
    }
    # PaddlePaddle's schema: phiops generates no composite-only backward op (python_api=False)
    specs = codegen.load(write_files(tmp_path, files), base=tmp_path, python_api=False)
    grad = specs.backward_op("exp_grad")
    assert str(grad.composite) == "exp_grad(out, out_grad, x_grad)" and grad.kernel is None


def test_unreadable_file_is_a_diagnostic(tmp_path) -> None:
    spec_set, diagnostics = codegen.check([tmp_path / "missing.yaml"], base=tmp_path)
    assert spec_set is None
    assert [str(d) for d in diagnostics] == [
        "missing.yaml:1:1: cannot read the file: No such file or directory"
    ]


def test_single_path_and_no_base(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.yaml").write_text("- op : foo\n  args : (Tensr x)\n  output : Tensor\n")
    with pytest.raises(codegen.SpecError) as info:
        codegen.load("a.yaml")
    assert str(info.value).startswith("a.yaml:2:11: op 'foo': args: unknown type 'Tensr'")


def _many_ops(count: int) -> str:
    return "".join(
        f"- op : op{i}\n  args : (Tensor x, Tensor y, int axis = -1, bool keepdim = false)\n"
        f"  output : Tensor(out)\n  infer_meta :\n    func : ElementwiseInferMeta\n"
        f"    param : [x, y]\n  kernel :\n    func : op{i}\n    data_type : x\n"
        f"  inplace : (x -> out)\n  backward : op{i}_grad\n\n"
        for i in range(count)
    )


@pytest.mark.parametrize("python_api", [False, True])
def test_loading_scales_linearly_with_the_op_count(tmp_path, python_api: bool) -> None:
    """Eight times the ops must cost well under sixty-four times the time (a quadratic step in
    the loader); the best of three runs each, measured side by side, so machine load cancels.
    With python_api, loading also builds each op's views once, as generation does
    (codegen.api.views.generation_problems)."""

    def best_time(count: int) -> float:
        (path,) = write_files(tmp_path / str(count), {"ops/api.yaml": _many_ops(count)})
        timings = []
        for _ in range(3):
            start = time.perf_counter()
            spec_set = codegen.load([path], strict=False, python_api=python_api)
            timings.append(time.perf_counter() - start)
        assert len(spec_set.ops) == count
        return min(timings)

    small, large = best_time(70), best_time(560)
    assert large < 20 * small, f"70 ops: {small * 1000:.0f} ms, 560 ops: {large * 1000:.0f} ms"


def test_loading_is_deterministic(tmp_path) -> None:
    paths = write_files(tmp_path, {"ops/api.yaml": _many_ops(5)})
    first = codegen.check(paths, base=tmp_path)
    second = codegen.check(paths, base=tmp_path)
    assert first == second
