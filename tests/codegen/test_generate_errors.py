"""Spec errors that only generation finds: the runtime does not match the spec, or the spec uses
something the Python API cannot express. Each is reported as file:line:col with nothing written."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

from phiops.codegen.errors import SpecError
from phiops.codegen.generate import Project, build_files
from phiops.runtime.common import DataType
from phiops.runtime.infermeta import INFER_META_FUNCTIONS
from phiops.runtime.infermeta.unary import unchanged_infer_meta
from phiops.runtime.kernels import Array, KernelContext, register_kernel
from phiops.runtime.kernels.registration import unregister_kernel
from tests.codegen.project import make_project, run_codegen, snapshot


@dataclass(frozen=True)
class Case:
    name: str
    spec: str
    expected: str

    def __str__(self) -> str:
        return self.name


ADD_HEAD = """
- op : add
  args : (Tensor x, Tensor y)
  output : Tensor(out)
"""

CASES = [
    Case(
        "unknown InferMeta function",
        ADD_HEAD + "  infer_meta :\n    func : FooInferMeta\n  kernel :\n    func : add\n",
        "ops/api.yaml:5:5: op 'add': InferMeta function 'FooInferMeta' (Python name 'foo_infer_meta') does not exist in runtime/infermeta/",
    ),
    Case(
        "kernel registered with a different signature",
        "- op : add\n  args : (Tensor x, Tensor y, int axis = -1)\n  output : Tensor(out)\n"
        "  infer_meta :\n    func : ElementwiseInferMeta\n    param : [x, y]\n  kernel :\n    func : add\n",
        "ops/api.yaml:8:5: op 'add': kernel 'add' (phiops.runtime.kernels.impl.elementwise_kernel.add_kernel) takes 2 arguments (x, y), the spec passes 3 (x, y, axis)",
    ),
    Case(
        "kernel not registered",
        ADD_HEAD
        + "  infer_meta :\n    func : ElementwiseInferMeta\n  kernel :\n    func : no_such_kernel\n",
        "ops/api.yaml:7:5: op 'add': kernel 'no_such_kernel' is not registered for any backend or dtype",
    ),
    Case(
        "InferMeta takes other parameters than infer_meta.param gives",
        ADD_HEAD
        + "  infer_meta :\n    func : ElementwiseInferMeta\n    param : [x]\n  kernel :\n    func : add\n",
        "ops/api.yaml:5:5: op 'add': InferMeta ElementwiseInferMeta (phiops.runtime.infermeta.binary.elementwise_infer_meta) takes 3 arguments (x, y, out) besides config; the spec passes 2 (x, out)",
    ),
    Case(
        "kernel returns fewer outputs than the spec declares",
        "- op : exp\n  args : (Tensor x)\n  output : Tensor(out), Tensor(extra)\n"
        "  infer_meta :\n    func : UnchangedInferMeta\n    param : [x]\n  kernel :\n    func : exp\n",
        "ops/api.yaml:5:5: op 'exp': InferMeta UnchangedInferMeta (phiops.runtime.infermeta.unary.unchanged_infer_meta) takes 2 arguments (x, out) besides config; the spec passes 3 (x, out, extra)\n"
        "ops/api.yaml:8:5: op 'exp': kernel 'exp' (phiops.runtime.kernels.impl.activation_kernel.exp_kernel) must return tuple of 2 Arrays for outputs (out, extra)",
    ),
    Case(
        "kernel returns an Array where the spec declares a Tensor[] output",
        "- op : merged_momentum_\n"
        "  args : (Tensor[] param, Tensor[] grad, Tensor[] velocity, Tensor[] learning_rate, "
        "Tensor[] master_param, float mu, bool use_nesterov = false, "
        "str[] regularization_method = {}, float[] regularization_coeff = {}, "
        "bool multi_precision = false, float rescale_grad = 1.0f)\n"
        "  output : Tensor[](param_out){param.size()}, Tensor[](velocity_out){param.size()}, "
        "Tensor[](master_param_out){param.size()}\n"
        "  infer_meta :\n    func : MergedMomentumInferMeta\n"
        "  kernel :\n    func : momentum\n  optional : master_param, master_param_out\n",
        "ops/api.yaml:7:5: op 'merged_momentum_': kernel 'momentum' (phiops.runtime.kernels.impl.momentum_kernel.momentum_kernel) must return tuple[list[Array], list[Array], list[Array]] for outputs (param_out, velocity_out, master_param_out)\n"
        "ops/api.yaml:7:5: op 'merged_momentum_': kernel 'momentum' (phiops.runtime.kernels.impl.momentum_kernel.momentum_kernel) takes Tensor 'param' as argument 1, the spec passes Tensor[] 'param'",
    ),
    Case(
        "invoke of a C++ helper",
        "- op : copy\n  args : (Tensor x)\n  output : Tensor(out)\n  invoke : copy_to_impl(x)\n",
        "ops/api.yaml:4:12: op 'copy': invoke target 'copy_to_impl' (a C++ helper of PaddlePaddle) is not an op generated from these specs",
    ),
    Case(
        "Tensor[] size expression beyond the grammar (a product)",
        "- op : unbind\n  args : (Tensor input, int axis = 0)\n"
        "  output : Tensor[](out){input.dims()[axis] * 2}\n"
        "  infer_meta :\n    func : UnchangedInferMeta\n  kernel :\n    func : unbind\n",
        "ops/api.yaml:3:12: op 'unbind': size expression {input.dims()[axis] * 2} of output 'out' is not supported\n"
        "  hint: use name.size(), tensor.dims()[i], tensor.dims().size(), an int argument, integers, + and -, and one comparison as the condition of c ? a : b",
    ),
    Case(
        "Tensor[] size expression taking dims of a non-tensor",
        "- op : unbind\n  args : (Tensor input, int[] axis = {})\n"
        "  output : Tensor[](out){axis.dims()[0]}\n"
        "  infer_meta :\n    func : UnchangedInferMeta\n  kernel :\n    func : unbind\n",
        "ops/api.yaml:3:12: op 'unbind': size expression {axis.dims()[0]} of output 'out' is not supported\n"
        "  hint: use name.size(), tensor.dims()[i], tensor.dims().size(), an int argument, integers, + and -, and one comparison as the condition of c ? a : b",
    ),
    Case(
        "output named name",
        "- op : add\n  args : (Tensor x, Tensor y)\n  output : Tensor(name)\n"
        "  infer_meta :\n    func : ElementwiseInferMeta\n  kernel :\n    func : add\n",
        "ops/api.yaml:3:12: op 'add': output 'name' cannot be a Python parameter name\n"
        "  hint: use an identifier that is not a Python keyword and does not start with '_' "
        "(an output is never called 'name')",
    ),
    Case(
        "argument named with a Python keyword",
        "- op : add\n  args : (Tensor x, Tensor lambda)\n  output : Tensor(out)\n"
        "  infer_meta :\n    func : ElementwiseInferMeta\n  kernel :\n    func : add\n",
        "ops/api.yaml:2:21: op 'add': argument 'lambda' cannot be a Python parameter name\n"
        "  hint: use an identifier that is not a Python keyword and does not start with '_'",
    ),
    Case(
        "neither kernel nor invoke",
        ADD_HEAD + "  infer_meta :\n    func : ElementwiseInferMeta\n",
        "ops/api.yaml:1:8: op 'add': op needs both infer_meta and kernel, or invoke, to be generated",
    ),
    Case(
        "only a kernel mixing SelectedRows and a sparse kind",
        ADD_HEAD
        + "  infer_meta :\n    func : ElementwiseInferMeta\n  kernel :\n    func : add_sr {selected_rows, sparse_coo -> selected_rows}\n",
        "ops/api.yaml:7:12: op 'add': kernel.func has no dense or SelectedRows kernel (add_sr {selected_rows, sparse_coo -> selected_rows}); the ops of the sparse kinds are generated from sparse_ops.yaml\n"
        "  hint: list a dense kernel, or one whose kinds are dense and selected_rows",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_generation_error_is_reported_exactly_and_nothing_is_written(
    tmp_path: Path, case: Case
) -> None:
    root = make_project(tmp_path / "proj", case.spec)
    result = run_codegen(root)
    count = case.expected.count("ops/api.yaml:")
    plural = "s" if count != 1 else ""
    assert result.returncode == 1
    assert result.stderr == f"{case.expected}\n{count} error{plural}; nothing was written\n"
    assert snapshot(root / "generated") == {}


def test_several_generation_errors_are_reported_in_one_run(tmp_path: Path) -> None:
    spec = CASES[0].spec + CASES[2].spec.replace("op : add", "op : add2")
    root = make_project(tmp_path / "proj", spec)
    result = run_codegen(root)
    assert result.returncode == 1
    assert result.stderr.count("ops/api.yaml:") == 2
    assert "2 errors; nothing was written" in result.stderr


@pytest.fixture
def string_attribute_op(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A kernel and InferMeta function for a test op with a str attribute, unregistered after
    the test (the registry-wide tests see phiops's kernels only)."""
    name = "string_attribute_test_op"

    def kernel(ctx: KernelContext, x: Array, mode: str) -> Array:
        return x

    from phiops.runtime.kernels import KERNEL_FACTORY

    registered = not KERNEL_FACTORY.has_kernel(name)
    if registered:
        register_kernel(name, dtypes=(DataType.FLOAT32,), backends=("CPU",))(kernel)

    def string_attribute_test_infer_meta(x: object, out: object, config: object = None) -> None:
        unchanged_infer_meta(x, out)

    monkeypatch.setitem(
        INFER_META_FUNCTIONS, "string_attribute_test_infer_meta", string_attribute_test_infer_meta
    )
    yield name
    if registered:
        unregister_kernel(name, kernel)


@pytest.mark.parametrize(
    "text, value",
    [
        (
            '"\\"\\"\\" + __import__(\'os\').system(\'echo pwned\') + \\"\\"\\""',
            '""" + __import__(\'os\').system(\'echo pwned\') + """',
        ),
        ('"\\\\"', "\\"),
        ('"end\\"\\"\\""', 'end"""'),
    ],
)
def test_string_defaults_stay_data_in_code_and_docstring(
    tmp_path: Path, string_attribute_op: str, text: str, value: str
) -> None:
    spec = f"""
- op : {string_attribute_op}
  args : (Tensor x, str mode = {text})
  output : Tensor(out)
  infer_meta :
    func : StringAttributeTestInferMeta
    param : [x]
  kernel :
    func : {string_attribute_op}
"""
    root = make_project(tmp_path / "proj", spec)
    try:
        manager = build_files(Project(root))
    except SpecError as error:
        pytest.fail(f"a string default must be accepted as data: {error}")
    module = ast.parse(manager.files["api.py"])
    function = next(
        n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == string_attribute_op
    )
    assert ast.literal_eval(function.args.defaults[0]) == value
    assert f"mode (str): attribute, default {value!r}." in ast.get_docstring(function)
    calls = [
        n
        for n in ast.walk(module)
        if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "__import__"
    ]
    assert calls == []


def test_a_template_failure_names_the_op_its_line_and_the_template(tmp_path: Path) -> None:
    root = make_project(tmp_path / "proj")
    template = root / "templates" / "_op_function.j2"
    template.write_text(
        template.read_text().replace(
            "def {{ op.name }}(",
            '{% if op.name == "ones" %}{{ op.no_such_field }}{% endif %}\ndef {{ op.name }}(',
            1,
        )
    )
    result = run_codegen(root)
    assert result.returncode == 1
    assert result.stderr.startswith(
        "ops/api.yaml:21:8: op 'ones': rendering templates/api.py.j2 failed: UndefinedError: "
        "'phiops.codegen.api.views.ApiView object' has no attribute 'no_such_field'\n"
    )
    assert "Traceback" not in result.stderr
    assert snapshot(root / "generated") == {}
