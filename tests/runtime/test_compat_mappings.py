"""Legacy argument mapping: every mapping function through a table of contexts, the registry,
the eager context.

The generated functions are checked against an oracle written here from the raw YAML of
ops/op_compat.yaml and the kernel signatures of generated/signatures.py: each kernel argument by
its legacy name, a Scalar/IntArray from its `tensor_name` input when present, else from its
`tensors_name` list when not empty, else from the attribute; `extra` outputs dropped; a gradient
`<name>_grad` spelled `<legacy>@GRAD`.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from phiops import generated  # noqa: F401  (registers the generated mapping functions)
from phiops.generated.signatures import SIGNATURES
from phiops.runtime.compat import (
    GENERATED,
    HAND_WRITTEN,
    KernelSignature,
    LegacyCallContext,
    argument_mapping,
    legacy_op_types,
    mapping_entry,
    pd_op_name,
    register_argument_mapping,
    register_generated_mappings,
)
from phiops.runtime.dispatch import OP_DEFS
from phiops.runtime.errors import AlreadyExistsError, NotFoundError

REPO = Path(__file__).resolve().parents[2]
RAW = yaml.safe_load((REPO / "ops" / "op_compat.yaml").read_text(encoding="utf-8"))
GENERATED_OPS = [name for name in legacy_op_types() if mapping_entry(name).origin == GENERATED]
HAND_WRITTEN_OPS = [
    name for name in legacy_op_types() if mapping_entry(name).origin == HAND_WRITTEN
]


def _names(text: str) -> tuple[str, str]:
    match = re.fullmatch(r"\s*(\w+)\s*(?:\(\s*(\w+)\s*\))?\s*", text)
    return match[1], match[2] or match[1]


def _raw_entry(pd_op: str) -> dict | None:
    for raw in RAW:
        names = [_names(raw["op"])] + [
            _names(b) for b in str(raw.get("backward", "")).split(",") if b.strip()
        ]
        if any(name == pd_op for name, _ in names):
            return raw
    return None


def _forward_of(pd_op: str) -> str:
    return next(op.name for op in OP_DEFS.values() if op.backward == pd_op and not op.is_backward)


class Oracle:
    """What the mapping of legacy op ``legacy`` must answer, by the rules of the docstring."""

    def __init__(self, legacy: str) -> None:
        self.pd_op = pd_op_name(legacy)
        self.signature = SIGNATURES[self.pd_op]
        self.raw = _raw_entry(self.pd_op) or {}
        self.is_grad = OP_DEFS[self.pd_op].is_backward
        forward = OP_DEFS[_forward_of(self.pd_op) if self.is_grad else self.pd_op]
        self.forward_inputs = {i.name for i in forward.inputs}
        self.forward_outputs = {o.name for o in forward.outputs}
        self.optional = {i.name for i in OP_DEFS[self.pd_op].inputs if i.optional}
        self.mutable = {**(self.raw.get("scalar") or {}), **(self.raw.get("int_array") or {})}

    def tensor(self, name: str) -> str:
        # only a backward op's gradients are spelled @GRAD (a forward op's output named
        # weight_grad, embedding_grad_dense's, keeps its name, as codegen/api/compat.py does)
        if (
            self.is_grad
            and name.endswith("_grad")
            and name[:-5] in self.forward_inputs | self.forward_outputs
        ):
            return self.tensor(name[:-5]) + "@GRAD"
        if name in self.forward_inputs or name in (self.raw.get("inputs") or {}):
            return (self.raw.get("inputs") or {}).get(name, name)
        return (self.raw.get("outputs") or {}).get(name, name)

    def attr(self, name: str) -> str:
        return (self.raw.get("attrs") or {}).get(name, name)

    def expected(self, tensors: set[str], lists: set[str]) -> KernelSignature:
        attrs = []
        for name in self.signature.attrs:
            spec = self.mutable.get(name) or {}
            if spec.get("tensor_name") in tensors:
                attrs.append(spec["tensor_name"])
            elif spec.get("tensors_name") in lists:
                attrs.append(spec["tensors_name"])
            else:
                attrs.append(self.attr(name))
        extra = set((self.raw.get("extra") or {}).get("outputs") or ())
        outputs = [o for o in self.signature.outputs if self.is_grad or o not in extra]
        return KernelSignature(
            self.signature.name,
            tuple(self.tensor(i) for i in self.signature.inputs),
            tuple(attrs),
            tuple(self.tensor(o) for o in outputs),
        )

    def contexts(self):
        """(description, context, tensors given, lists given): attributes only; each
        tensor_name input; each tensors_name list (and an empty one); both; optional inputs
        absent."""
        inputs = {self.tensor(i): object() for i in self.signature.inputs}
        attrs = {self.attr(a): 1 for a in self.signature.attrs}
        yield "attributes", LegacyCallContext(inputs, attrs), set(), set()
        without = {
            k: v for k, v in inputs.items() if k not in {self.tensor(o) for o in self.optional}
        }
        yield "optional inputs absent", LegacyCallContext(without, attrs), set(), set()
        for spec in self.mutable.values():
            spec = spec or {}
            tensor, tensors = spec.get("tensor_name"), spec.get("tensors_name")
            if tensor:
                given = {**inputs, tensor: object()}
                yield f"{tensor} given", LegacyCallContext(given, attrs), {tensor}, set()
            if tensors:
                given = {**inputs, tensors: [object(), object()]}
                yield f"{tensors} given", LegacyCallContext(given, attrs), set(), {tensors}
                given = {**inputs, tensors: []}
                yield f"{tensors} empty", LegacyCallContext(given, attrs), set(), set()
            if tensor and tensors:
                given = {**inputs, tensor: object(), tensors: [object()]}
                yield "both given", LegacyCallContext(given, attrs), {tensor}, {tensors}


@pytest.mark.parametrize("legacy", GENERATED_OPS)
def test_generated_mapping_answers_every_context_as_op_compat_yaml_says(legacy: str) -> None:
    oracle = Oracle(legacy)
    mapping = argument_mapping(legacy)
    for description, ctx, tensors, lists in oracle.contexts():
        assert mapping(ctx) == oracle.expected(tensors, lists), description


def test_generated_mappings_cover_the_legacy_ops_of_common_models() -> None:
    assert {
        "matmul_v2",
        "reshape2",
        "transpose2",
        "lookup_table_v2",
        "conv2d",
        "depthwise_conv2d",
        "batch_norm",
        "pool2d",
        "softmax",
        "dropout",
        "layer_norm",
        "gelu",
        "relu",
        "scale",
        "slice",
        "concat",
        "unsqueeze2",
        "squeeze2",
        "arg_max",
        "top_k_v2",
        "range",
        "elementwise_add_grad",
        "matmul_v2_grad",
        "sum",
        "gather",
        "stack",
        "tanh",
        "sigmoid",
    } <= set(GENERATED_OPS)


def ctx(**inputs: object) -> "_Call":
    return _Call(inputs)


class _Call:
    def __init__(self, inputs: dict[str, object]) -> None:
        self.inputs = inputs

    def attrs(self, **attrs: object) -> LegacyCallContext:
        return LegacyCallContext(self.inputs, attrs)


T = object()
HAND_WRITTEN_CASES = [
    (
        "fill_constant",
        ctx().attrs(shape=[2], value=1.0, str_value="", dtype=5),
        KernelSignature("full", (), ("shape", "value", "dtype"), ("Out",)),
    ),
    (
        "fill_constant",
        ctx(ShapeTensor=T).attrs(value=1.0, str_value="", dtype=5),
        KernelSignature("full", (), ("ShapeTensor", "value", "dtype"), ("Out",)),
    ),
    (
        "fill_constant",
        ctx(ShapeTensorList=[T, T]).attrs(value=1.0, dtype=5),
        KernelSignature("full", (), ("ShapeTensorList", "value", "dtype"), ("Out",)),
    ),
    (
        "fill_constant",
        ctx(ShapeTensorList=[]).attrs(value=1.0, str_value="0.1", dtype=5),
        KernelSignature("full", (), ("shape", "str_value", "dtype"), ("Out",)),
    ),
    (
        "fill_constant",
        ctx(ShapeTensor=T, ValueTensor=T).attrs(str_value="2", dtype=5),
        KernelSignature("full", (), ("ShapeTensor", "ValueTensor", "dtype"), ("Out",)),
    ),
    (
        "elementwise_add",
        ctx(X=T, Y=T).attrs(axis=-1),
        KernelSignature("add", ("X", "Y"), (), ("Out",)),
    ),
    (
        "elementwise_add",
        ctx(X=T, Y=T).attrs(axis=1),
        KernelSignature("add_raw", ("X", "Y"), ("axis",), ("Out",)),
    ),
    (
        "elementwise_mul",
        ctx(X=T, Y=T).attrs(),
        KernelSignature("multiply", ("X", "Y"), (), ("Out",)),
    ),
    (
        "elementwise_mod",
        ctx(X=T, Y=T).attrs(axis=0),
        KernelSignature("remainder_raw", ("X", "Y"), ("axis",), ("Out",)),
    ),
    (
        "reduce_sum",
        ctx(X=T).attrs(dim=[0], keep_dim=False, reduce_all=False, out_dtype=-1),
        KernelSignature("sum", ("X",), ("dim", "out_dtype", "keep_dim"), ("Out",)),
    ),
    (
        "reduce_sum",
        ctx(X=T).attrs(dim=[0], keep_dim=False, reduce_all=True),
        KernelSignature(
            "sum_raw", ("X",), ("dim", "keep_dim", "reduce_all", "in_dtype", "out_dtype"), ("Out",)
        ),
    ),
    (
        "reduce_mean",
        ctx(X=T).attrs(dim=[1], keep_dim=True, reduce_all=False),
        KernelSignature("mean", ("X",), ("dim", "keep_dim"), ("Out",)),
    ),
    (
        "reduce_max",
        ctx(X=T).attrs(dim=[0], reduce_all=True),
        KernelSignature("max_raw", ("X",), ("dim", "keep_dim", "reduce_all"), ("Out",)),
    ),
    (
        "reduce_min",
        ctx(X=T).attrs(dim=[], keep_dim=False, reduce_all=True),
        KernelSignature("min", ("X",), ("dim", "keep_dim"), ("Out",)),
    ),
    (
        "reduce_sum",
        ctx(X=T).attrs(dim=[], keep_dim=True, reduce_all=True),
        KernelSignature("sum", ("X",), ("dim", "out_dtype", "keep_dim"), ("Out",)),
    ),
    (
        "reduce_prod",
        ctx(X=T).attrs(dim=[0], reduce_all=True),
        KernelSignature("prod", ("X",), ("dim", "keep_dim", "reduce_all"), ("Out",)),
    ),
    (
        "flatten_contiguous_range",
        ctx(X=T).attrs(start_axis=1, stop_axis=-1),
        KernelSignature("flatten", ("X",), ("start_axis", "stop_axis"), ("Out",)),
    ),
    (
        "cast",
        ctx(X=T).attrs(in_dtype=5, out_dtype=2),
        KernelSignature("cast", ("X",), ("out_dtype",), ("Out",)),
    ),
    (
        "hard_swish",
        ctx(X=T).attrs(threshold=6.0, scale=6.0, offset=3.0),
        KernelSignature("hardswish", ("X",), (), ("Out",)),
    ),
    (
        "expand_v2",
        ctx(X=T).attrs(shape=[2, 3]),
        KernelSignature("expand", ("X",), ("shape",), ("Out",)),
    ),
    (
        "expand_v2",
        ctx(X=T, Shape=T).attrs(shape=[]),
        KernelSignature("expand", ("X",), ("Shape",), ("Out",)),
    ),
    (
        "expand_v2",
        ctx(X=T, expand_shapes_tensor=[T, T]).attrs(shape=[]),
        KernelSignature("expand", ("X",), ("expand_shapes_tensor",), ("Out",)),
    ),
    (
        "split",
        ctx(X=T).attrs(num=2, sections=[], axis=0),
        KernelSignature("split_with_num", ("X",), ("num", "axis"), ("Out",)),
    ),
    (
        "split",
        ctx(X=T, AxisTensor=T).attrs(num=0, sections=[1, 2]),
        KernelSignature("split", ("X",), ("sections", "AxisTensor"), ("Out",)),
    ),
    (
        "split",
        ctx(X=T, SectionsTensorList=[T, T]).attrs(num=0, axis=1),
        KernelSignature("split", ("X",), ("SectionsTensorList", "axis"), ("Out",)),
    ),
    (
        "uniform_random",
        ctx().attrs(shape=[2, 3], dtype=5, min=-1.0, max=1.0, seed=0),
        KernelSignature("uniform", (), ("shape", "dtype", "min", "max", "seed"), ("Out",)),
    ),
    (
        "uniform_random",
        ctx(ShapeTensor=T).attrs(dtype=5, min=-1.0, max=1.0, seed=0, diag_num=0),
        KernelSignature("uniform", (), ("ShapeTensor", "dtype", "min", "max", "seed"), ("Out",)),
    ),
    (
        "uniform_random",
        ctx(ShapeTensorList=[T, T]).attrs(dtype=5, min=0.0, max=1.0, seed=0, diag_num=2),
        KernelSignature(
            "uniform_raw",
            (),
            ("ShapeTensorList", "dtype", "min", "max", "seed", "diag_num", "diag_step", "diag_val"),
            ("Out",),
        ),
    ),
    (
        "gaussian_random",
        ctx().attrs(shape=[2], mean=0.0, std=1.0, seed=0, dtype=5),
        KernelSignature("gaussian", (), ("shape", "mean", "std", "seed", "dtype"), ("Out",)),
    ),
    (
        "gaussian_random",
        ctx(ShapeTensorList=[T]).attrs(mean=0.0, std=1.0, seed=0, dtype=5),
        KernelSignature(
            "gaussian", (), ("ShapeTensorList", "mean", "std", "seed", "dtype"), ("Out",)
        ),
    ),
]


@pytest.mark.parametrize(
    "legacy, context, expected", HAND_WRITTEN_CASES, ids=lambda v: v if isinstance(v, str) else ""
)
def test_hand_written_mapping(
    legacy: str, context: LegacyCallContext, expected: KernelSignature
) -> None:
    assert argument_mapping(legacy)(context) == expected


def test_every_hand_written_mapping_has_a_case() -> None:
    assert set(HAND_WRITTEN_OPS) == {case[0] for case in HAND_WRITTEN_CASES} | {
        "elementwise_sub",
        "elementwise_div",
        "elementwise_max",
        "elementwise_min",
        "elementwise_pow",
        "elementwise_floordiv",
        "reduce_min",
        "reduce_all",
        "reduce_any",
    }


@pytest.mark.parametrize("legacy", HAND_WRITTEN_OPS)
def test_hand_written_mapping_names_a_kernel_with_the_arity_of_its_op(legacy: str) -> None:
    """Without axis / reduce_all, each maps to its op's own kernel with as many arguments."""
    entry = mapping_entry(legacy)
    context = LegacyCallContext({}, {"axis": -1, "reduce_all": False, "num": 0, "str_value": ""})
    got = entry.function(context)
    want = SIGNATURES[entry.pd_op]
    assert got.name == want.name
    assert (len(got.inputs), len(got.attrs), len(got.outputs)) == (
        len(want.inputs),
        len(want.attrs),
        len(want.outputs),
    )


@pytest.mark.parametrize(
    "legacy, pd_op",
    [
        ("elementwise_add", "add"),
        ("matmul_v2", "matmul"),
        ("reshape2", "reshape"),
        ("lookup_table_v2", "embedding"),
        ("fill_constant", "full"),
        ("flatten_contiguous_range", "flatten"),
        ("hard_swish", "hardswish"),
        ("reduce_sum", "sum"),
        ("sum", "add_n"),
        ("matmul_v2_grad", "matmul_grad"),
        ("softmax", "softmax"),
    ],
)
def test_pd_op_name(legacy: str, pd_op: str) -> None:
    assert pd_op_name(legacy) == pd_op


def test_unknown_legacy_op_is_named_with_the_nearest_known_one() -> None:
    with pytest.raises(NotFoundError) as raised:
        argument_mapping("elementwise_addd")
    assert str(raised.value) == (
        "no argument-mapping function for legacy op 'elementwise_addd'; the nearest known legacy "
        "op is 'elementwise_add'"
    )
    with pytest.raises(NotFoundError, match="'reshape2'"):
        pd_op_name("reshape3")


def test_a_generated_and_a_hand_written_mapping_for_one_op_is_an_error() -> None:
    with pytest.raises(AlreadyExistsError) as raised:
        register_generated_mappings({"elementwise_add": lambda ctx: KernelSignature("add")}, {})
    assert (
        "legacy op 'elementwise_add' has both a generated argument-mapping function and a "
        "hand-written one" in str(raised.value)
    )
    assert "manual_signature" in str(raised.value)
    with pytest.raises(AlreadyExistsError, match="legacy op 'reshape2' has both"):
        register_argument_mapping("reshape2")(lambda ctx: KernelSignature("reshape"))
    assert mapping_entry("reshape2").origin == GENERATED


def test_legacy_call_context_answers_from_its_dicts() -> None:
    context = LegacyCallContext(
        {"X": T, "Seed": None, "List": [T, T], "Empty": []}, {"axis": 1}, outputs=["Out"]
    )
    assert [context.has_input(n) for n in ("X", "Seed", "List", "Empty", "Nope")] == [
        True,
        False,
        True,
        False,
        False,
    ]
    assert [context.input_size(n) for n in ("X", "Seed", "List", "Empty")] == [1, 0, 2, 0]
    assert context.is_dense_tensor_input("X") and not context.is_dense_tensor_input("List")
    assert context.is_dense_tensor_vector_input(
        "List"
    ) and not context.is_dense_tensor_vector_input("X")
    assert not context.is_selected_rows_input("X")
    assert context.has_output("Out") and context.output_size("Out") == 1
    assert context.is_dense_tensor_output("Out") and not context.has_output("XShape")
    assert context.has_attr("axis") and context.attr("axis") == 1
    assert not context.is_for_infer_shape()
    with pytest.raises(NotFoundError, match="the call has no attribute 'dim' \\(it has: axis\\)"):
        context.attr("dim")


def test_kernel_signature_takes_phi_style_lists() -> None:
    signature = KernelSignature("full", [], ["ShapeTensor", "value"], ["Out"])
    assert signature == KernelSignature("full", (), ("ShapeTensor", "value"), ("Out",))
    assert str(signature) == 'KernelSignature("full", {}, {"ShapeTensor", "value"}, {"Out"})'


def test_runtime_compat_finds_the_generated_mappings_without_import_generated() -> None:
    import subprocess
    import sys

    code = (
        "import phiops.runtime.compat as compat; "
        "print(compat.pd_op_name('matmul_v2'), compat.mapping_entry('reshape2').origin)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO
    )
    assert result.stdout.split() == ["matmul", "generated"], result.stderr
