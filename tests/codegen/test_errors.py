"""Malformed op specs -> exact diagnostics.  Append a `Case` to CASES for each new check."""

from __future__ import annotations

import pytest

from .spec_cases import Case, compare, load_case

API = "ops/api.yaml"
BACKWARD = "ops/backward.yaml"


def op(
    args: str = "(Tensor x, int axis = -1)",
    output: str = "Tensor(out)",
    extra: str = "",
    name: str = "foo",
    kernel: str = "",
) -> str:
    """A valid forward entry (7 lines: op, args, output, infer_meta x2, kernel x2) + `extra`."""
    return (
        f"- op : {name}\n  args : {args}\n  output : {output}\n"
        f"  infer_meta :\n    func : UnchangedInferMeta\n"
        f"  kernel :\n    func : {name}\n{kernel}{extra}"
    )


def invoke_op(invoke: str) -> str:
    return f"- op : foo\n  args : (Tensor x)\n  output : Tensor(out)\n  invoke : {invoke}\n"


FORWARD = op(args="(Tensor x, Tensor y, int axis = -1)", extra="  backward : foo_grad\n")


def grad(
    forward: str = "foo (Tensor x, Tensor y, int axis) -> Tensor(out)",
    args: str = "(Tensor x, Tensor out_grad, int axis)",
    extra: str = "",
) -> str:
    """A backward entry for FORWARD: backward_op, forward, args, output, infer_meta, kernel."""
    return (
        f"- backward_op : foo_grad\n  forward : {forward}\n  args : {args}\n"
        f"  output : Tensor(x_grad)\n  infer_meta :\n    func : UnchangedInferMeta\n"
        f"  kernel :\n    func : foo_grad\n{extra}"
    )


CASES = [
    # ---- keys
    Case(
        "missing_args",
        {
            API: "- op : foo\n  output : Tensor(out)\n  infer_meta :\n    func : F\n"
            "  kernel :\n    func : foo\n"
        },
        [
            "ops/api.yaml:1:3: op 'foo': missing required key 'args'\n"
            "  hint: write 'args : ()' for none"
        ],
    ),
    Case(
        "missing_output",
        {
            API: "- op : foo\n  args : (Tensor x)\n  infer_meta :\n    func : F\n"
            "  kernel :\n    func : foo\n"
        },
        ["ops/api.yaml:1:3: op 'foo': missing required key 'output'"],
    ),
    Case(
        "unknown_key",
        {API: op(extra="  colour : red\n")},
        ["ops/api.yaml:8:3: op 'foo': unknown key 'colour'"],
    ),
    Case(
        "typo_in_key_has_hint",
        {API: op(extra="  optinal : x\n")},
        ["ops/api.yaml:8:3: op 'foo': unknown key 'optinal'\n" "  hint: did you mean 'optional'?"],
    ),
    Case(
        "typo_in_sub_key_has_hint",
        {
            API: "- op : foo\n  args : (Tensor x)\n  output : Tensor(out)\n  infer_meta :\n"
            "    func : F\n  kernel :\n    fucn : foo\n"
        },
        [
            "ops/api.yaml:7:5: op 'foo': missing required key 'kernel.func'",
            "ops/api.yaml:7:5: op 'foo': unknown key 'kernel.fucn'\n"
            "  hint: did you mean 'func'?",
        ],
    ),
    Case(
        "duplicate_key",
        {API: op(extra="  optional : x\n  optional : x\n")},
        [
            "ops/api.yaml:9:3: op 'foo': duplicate key 'optional' (first given at line 8)\n"
            "  hint: YAML would silently keep only one of them; merge or remove one"
        ],
    ),
    Case(
        "infer_meta_without_func",
        {
            API: "- op : foo\n  args : (Tensor x)\n  output : Tensor(out)\n  infer_meta :\n"
            "    param : [x]\n  kernel :\n    func : foo\n"
        },
        ["ops/api.yaml:5:5: op 'foo': missing required key 'infer_meta.func'"],
    ),
    Case(
        "forward_key_on_forward_op",
        {API: op(extra="  forward : bar (Tensor x) -> Tensor(out)\n")},
        [
            "ops/api.yaml:8:13: op 'foo': 'forward' is only allowed on backward ops "
            "('backward_op' entries)"
        ],
    ),
    Case(
        "entry_without_op_key",
        {API: "- args : (Tensor x)\n  output : Tensor(out)\n"},
        [
            "ops/api.yaml:1:3: entry has no 'op' key\n"
            "  hint: start the entry with '- op : name' (or 'backward_op' in a backward file)"
        ],
    ),
    Case(
        "invoke_and_kernel",
        {API: op(extra="  invoke : foo_impl(x)\n")},
        ["ops/api.yaml:8:12: op 'foo': an op has either 'invoke' or 'kernel', not both"],
    ),
    # ---- YAML and file structure
    Case(
        "yaml_syntax_error",
        {API: "- op : foo\n  args : (Tensor x)\n output : Tensor(out)\n"},
        [
            "ops/api.yaml:3:2: invalid YAML: expected '-' indicator, but found 'output' "
            "(while parsing a block collection)"
        ],
    ),
    Case(
        "yaml_unclosed_flow_list",
        {API: op(kernel="    param : [x, axis\n")},
        [
            "ops/api.yaml:9:1: invalid YAML: expected ',' or ']', but found the end of the file "
            "(while parsing a flow sequence)"
        ],
    ),
    Case(
        "entry_not_a_mapping",
        {API: op() + "- just a string\n"},
        ["ops/api.yaml:8:3: entry 2 is a string, expected a mapping with an 'op' key"],
    ),
    Case(
        "empty_file",
        {API: "# nothing here\n"},
        ["ops/api.yaml:1:1: the file is empty; expected a list of op entries"],
    ),
    Case(
        "top_level_mapping",
        {API: "op : foo\nargs : (Tensor x)\n"},
        [
            "ops/api.yaml:1:1: expected a list of op entries at the top level, got a mapping\n"
            "  hint: start each entry with '- op : name'"
        ],
    ),
    Case(
        "args_not_a_string",
        {API: op(args="[x, y]")},
        ["ops/api.yaml:2:10: op 'foo': 'args' must be a string, not a list"],
    ),
    # ---- types and defaults
    Case(
        "unknown_type_has_hint",
        {API: op(args="(Tensr x)")},
        [
            "ops/api.yaml:2:11: op 'foo': args: unknown type 'Tensr'\n"
            "  hint: did you mean 'Tensor'?"
        ],
    ),
    Case(
        "unknown_scalar_type",
        {API: op(args="(Tensor x, Scalar(int32) axis)")},
        ["ops/api.yaml:2:28: op 'foo': args: unknown Scalar type 'Scalar(int32)'"],
    ),
    Case(
        "int_array_list",
        {API: op(args="(Tensor x, IntArray[] axis)")},
        ["ops/api.yaml:2:29: op 'foo': args: type 'IntArray' cannot be a list"],
    ),
    Case(
        "string_default_on_int",
        {API: op(args='(Tensor x, int axis = "abc")')},
        [
            "ops/api.yaml:2:32: op 'foo': args: default \"abc\" of argument 'axis' does not fit "
            "type int"
        ],
    ),
    Case(
        "float_default_on_int",
        {API: op(args="(Tensor x, int axis = 1.5)")},
        [
            "ops/api.yaml:2:32: op 'foo': args: default 1.5 of argument 'axis' does not fit "
            "type int"
        ],
    ),
    Case(
        "bool_default_on_float",
        {API: op(args="(Tensor x, float eps = true)")},
        [
            "ops/api.yaml:2:33: op 'foo': args: default true of argument 'eps' does not fit "
            "type float"
        ],
    ),
    Case(
        "default_out_of_range",
        {API: op(args="(Tensor x, int n = INT64_MAX)")},
        [
            "ops/api.yaml:2:29: op 'foo': args: default INT64_MAX of argument 'n' is out of "
            "range for int"
        ],
    ),
    Case(
        "unknown_datatype_default",
        {API: op(args="(Tensor x, DataType dtype = DataType::FLOAT)")},
        [
            "ops/api.yaml:2:48: op 'foo': args: unknown DataType 'FLOAT' in default "
            "DataType::FLOAT of argument 'dtype'"
        ],
    ),
    Case(
        "function_call_default",
        {
            API: op(
                args="(Tensor x, int mb = phi::backends::gpu::GetDefaultConvWorkspaceSizeLimitMB())"
            )
        },
        [
            "ops/api.yaml:2:30: op 'foo': args: default "
            "phi::backends::gpu::GetDefaultConvWorkspaceSizeLimitMB() of argument 'mb' is not a "
            "literal or constant expression"
        ],
    ),
    Case(
        "tensor_with_default",
        {API: op(args="(Tensor x, Tensor y = 0)")},
        [
            "ops/api.yaml:2:32: op 'foo': args: Tensor argument 'y' cannot have a default\n"
            "  hint: list it in 'optional' to make it optional"
        ],
    ),
    Case(
        "malformed_string_default",
        {API: op(args='(Tensor x, str s = "\\x")')},
        [
            "ops/api.yaml:2:29: op 'foo': args: default \"\\x\" of argument 's' is not a literal "
            "(malformed string literal)"
        ],
    ),
    Case(
        "nul_in_string_default",
        {API: op(args='"(Tensor x, str s = \\"\\0\\")"')},
        [
            "ops/api.yaml:2:30: op 'foo': args: default \"\x00\" of argument 's' is not a literal "
            "(malformed string literal)"
        ],
    ),
    # ---- argument and output lists
    Case(
        "attribute_before_tensor",
        {API: op(args="(Tensor x, int axis, Tensor y)")},
        [
            "ops/api.yaml:2:31: op 'foo': Tensor argument 'y' comes after attribute 'axis'\n"
            "  hint: list all Tensor arguments first"
        ],
    ),
    Case(
        "attribute_without_default_after_default",
        {API: op(args="(Tensor x, int axis = 0, bool keepdim)")},
        [
            "ops/api.yaml:2:35: op 'foo': attribute 'keepdim' has no default but follows 'axis', "
            "which has one"
        ],
    ),
    Case(
        "duplicate_arg_names",
        {API: op(args="(Tensor x, Tensor x)")},
        ["ops/api.yaml:2:21: op 'foo': duplicate argument name 'x'"],
    ),
    Case(
        "duplicate_output_names",
        {API: op(output="Tensor(out), Tensor(out)")},
        ["ops/api.yaml:3:25: op 'foo': duplicate output name 'out'"],
    ),
    Case(
        "unbalanced_parentheses",
        {API: op(args="(Tensor x, int axis = -1")},
        ["ops/api.yaml:2:34: op 'foo': args: unbalanced '(': the argument list is not closed"],
    ),
    Case(
        "args_without_parentheses",
        {API: op(args="Tensor x")},
        [
            "ops/api.yaml:2:10: op 'foo': args: expected '(' to open the argument list, "
            "found 'Tensor'"
        ],
    ),
    Case(
        "output_of_non_tensor_type",
        {API: op(output="int(out)")},
        [
            "ops/api.yaml:3:12: op 'foo': output: output type must be Tensor or Tensor[], "
            "not 'int'"
        ],
    ),
    Case(
        "output_name_not_closed",
        {API: op(output="Tensor(out")},
        [
            "ops/api.yaml:3:22: op 'foo': output: expected ')' after the output name, "
            "found end of text"
        ],
    ),
    Case(
        "size_on_plain_tensor",
        {API: op(output="Tensor(out){x.size()}")},
        [
            "ops/api.yaml:3:23: op 'foo': output: a size expression {x.size()} is only allowed "
            "on a Tensor[] output"
        ],
    ),
    # ---- kernel and pair syntax
    Case(
        "kernel_unknown_tensor_kind",
        {API: op(args="(Tensor x)").replace("func : foo", "func : foo {dense -> sparse}")},
        ["ops/api.yaml:7:26: op 'foo': kernel.func: unknown tensor kind 'sparse'"],
    ),
    Case(
        "view_without_parentheses",
        {API: op(extra="  view : x -> out\n")},
        [
            "ops/api.yaml:8:10: op 'foo': view: expected '(' to open an 'input -> output' pair, "
            "found 'x'"
        ],
    ),
    Case(
        "data_type_unknown_constant",
        {API: op(kernel="    data_type : DataType::FLOAT\n")},
        ["ops/api.yaml:8:27: op 'foo': kernel.data_type: unknown DataType 'FLOAT'"],
    ),
    Case(
        "backend_datatype_constant",
        {API: op(kernel="    backend : DataType::FLOAT32\n")},
        [
            "ops/api.yaml:8:15: op 'foo': kernel.backend: a DataType constant (DataType::FLOAT32) "
            "can only select the data type"
        ],
    ),
    Case(
        "backend_without_candidates",
        {API: op(kernel='    backend : ">"\n')},
        ["ops/api.yaml:8:16: op 'foo': kernel.backend: expected an argument name, found '>'"],
    ),
    # ---- names that do not resolve within the entry: inconsistencies, still rejected
    Case(
        "size_expression_names_unknown",
        {API: op(output="Tensor[](out){y.size()}")},
        [
            "ops/api.yaml:3:12: op 'foo': inconsistency: size expression {y.size()} of output "
            "'out' uses 'y', which is not an argument of the op\n"
            "  hint: choose from: axis, x"
        ],
    ),
    Case(
        "infer_meta_param_unknown",
        {
            API: "- op : foo\n  args : (Tensor x)\n  output : Tensor(out)\n  infer_meta :\n"
            "    func : F\n    param : [x, y]\n  kernel :\n    func : foo\n"
        },
        [
            "ops/api.yaml:6:17: op 'foo': inconsistency: infer_meta.param: 'y' is not an argument "
            "of the op"
        ],
    ),
    Case(
        "infer_meta_local_shape_not_an_output",
        {
            API: "- op : foo\n  args : (Tensor x)\n  output : Tensor(out)\n  infer_meta :\n"
            "    func : F\n    local_shape : x\n  kernel :\n    func : foo\n"
        },
        [
            "ops/api.yaml:6:19: op 'foo': inconsistency: infer_meta.local_shape: 'x' is not an "
            "output of the op"
        ],
    ),
    Case(
        "kernel_param_unknown",
        {API: op(args="(Tensor x)", kernel="    param : [x, axis]\n")},
        [
            "ops/api.yaml:8:17: op 'foo': inconsistency: kernel.param: 'axis' is not an argument "
            "of the op\n"
            "  hint: choose from: x"
        ],
    ),
    Case(
        "optional_unknown",
        {API: op(extra="  optional : x, z\n")},
        [
            "ops/api.yaml:8:17: op 'foo': inconsistency: optional: 'z' is not an argument or "
            "output of the op\n"
            "  hint: choose from: axis, out, x"
        ],
    ),
    Case(
        "intermediate_not_an_output",
        {API: op(extra="  intermediate : x\n")},
        [
            "ops/api.yaml:8:18: op 'foo': inconsistency: intermediate: 'x' is not an output of "
            "the op"
        ],
    ),
    Case(
        "no_need_buffer_not_a_tensor",
        {API: op(extra="  no_need_buffer : axis\n")},
        [
            "ops/api.yaml:8:20: op 'foo': inconsistency: no_need_buffer: 'axis' is not a Tensor "
            "argument of the op"
        ],
    ),
    Case(
        "data_transform_not_a_tensor",
        {API: op(extra="  data_transform :\n    skip_transform : axis\n")},
        [
            "ops/api.yaml:9:22: op 'foo': inconsistency: data_transform.skip_transform: 'axis' is "
            "not a Tensor argument of the op"
        ],
    ),
    Case(
        "support_tensor_not_an_attribute",
        {API: op(extra="  support_tensor : [x]\n")},
        [
            "ops/api.yaml:8:21: op 'foo': inconsistency: support_tensor: 'x' is not an attribute "
            "of the op"
        ],
    ),
    Case(
        "inplace_unknown_input",
        {API: op(extra="  inplace : (y -> out)\n")},
        [
            "ops/api.yaml:8:14: op 'foo': inconsistency: inplace: 'y' in (y -> out) is not a "
            "Tensor argument of the op"
        ],
    ),
    Case(
        "inplace_unknown_output",
        {API: op(extra="  inplace : (x -> y)\n")},
        [
            "ops/api.yaml:8:14: op 'foo': inconsistency: inplace: 'y' in (x -> y) is not an "
            "output of the op"
        ],
    ),
    Case(
        "view_unknown_output",
        {API: op(extra="  view : (x -> y)\n")},
        [
            "ops/api.yaml:8:11: op 'foo': inconsistency: view: 'y' in (x -> y) is not an output "
            "of the op"
        ],
    ),
    Case(
        "data_type_not_an_arg",
        {API: op(kernel="    data_type : y\n")},
        [
            "ops/api.yaml:8:17: op 'foo': inconsistency: kernel.data_type: candidate 'y' is not "
            "an argument of the op\n"
            "  hint: choose from: axis, x"
        ],
    ),
    Case(
        "force_backend_not_an_attribute",
        {API: op(kernel="    force_backend : x\n")},
        [
            "ops/api.yaml:8:21: op 'foo': inconsistency: kernel.force_backend: 'x' is not an "
            "attribute of the op"
        ],
    ),
    Case(
        "use_gpudnn_not_an_attribute",
        {API: op(kernel="    use_gpudnn : cudnn\n")},
        [
            "ops/api.yaml:8:18: op 'foo': inconsistency: kernel.use_gpudnn: 'cudnn' is neither "
            "true/false nor an attribute"
        ],
    ),
    Case(
        "invoke_argument_unknown",
        {API: invoke_op("foo_impl(x, y)")},
        [
            "ops/api.yaml:4:12: op 'foo': inconsistency: invoke: argument 'y' of foo_impl(...) "
            "uses 'y', which is not an argument or output of the op"
        ],
    ),
    # ---- empty kernel candidates are dropped, as PaddlePaddle's generator reads them
    Case(
        "backend_trailing_separator",
        {API: op(kernel="    backend : x >\n")},
        [
            "ops/api.yaml:8:15: op 'foo': inconsistency: kernel.backend: empty candidate after "
            "'>' in 'x >'\n"
            "  hint: remove the stray separator"
        ],
    ),
    Case(
        "layout_trailing_comma",
        {API: op(kernel="    layout : x,\n")},
        [
            "ops/api.yaml:8:14: op 'foo': inconsistency: kernel.layout: empty candidate after ',' "
            "in 'x,'"
        ],
    ),
    Case(
        "data_type_leading_separator",
        {API: op(kernel='    data_type : "> x"\n')},
        [
            "ops/api.yaml:8:18: op 'foo': inconsistency: kernel.data_type: empty candidate "
            "before '>' in '> x'"
        ],
    ),
    # ---- injection attempts never reach the model
    Case(
        "injection_in_default",
        {API: op(args="(Tensor x, int n = __import__('os').system('x'))")},
        [
            "ops/api.yaml:2:29: op 'foo': args: default __import__('os').system('x') of argument "
            "'n' is not a literal or constant expression"
        ],
    ),
    Case(
        "injection_in_arg_name",
        {API: op(args="(Tensor x; import os)")},
        ["ops/api.yaml:2:19: op 'foo': args: unexpected character ';'"],
    ),
    Case(
        "injection_in_op_name",
        {API: op().replace("- op : foo", "- op : os.system")},
        ["ops/api.yaml:1:8: op name 'os.system' is not an identifier [A-Za-z_][A-Za-z0-9_]*"],
    ),
    Case(
        "injection_invoke_expression",
        {API: invoke_op("foo_impl(x + 1)")},
        [
            "ops/api.yaml:4:21: op 'foo': invoke: call argument 'x + 1' is not a name, literal, "
            "method call (x.dtype()) or negation (!x)"
        ],
    ),
    Case(
        "injection_invoke_call",
        {API: invoke_op("foo_impl(eval(x))")},
        [
            "ops/api.yaml:4:21: op 'foo': invoke: call argument 'eval(x)' is not a name, literal, "
            "method call (x.dtype()) or negation (!x)"
        ],
    ),
    Case(
        "single_quoted_string_default",
        {API: op(args="(Tensor x, str s = 'x')")},
        [
            "ops/api.yaml:2:29: op 'foo': args: default 'x' of argument 's' is not a literal "
            "(string literals use double quotes)"
        ],
    ),
    # ---- across ops
    Case(
        "duplicate_op_names",
        {API: op() + op()},
        ["ops/api.yaml:8:8: op 'foo': op defined twice; first definition at ops/api.yaml:1:8"],
    ),
    Case(
        "backward_target_missing",
        {API: op(extra="  backward : foo_grad\n")},
        [
            "ops/api.yaml:8:14: op 'foo': inconsistency: backward op 'foo_grad' is not defined in "
            "the loaded files"
        ],
    ),
    Case(
        "backward_target_is_a_forward_op",
        {API: op(extra="  backward : bar\n") + op(name="bar")},
        [
            "ops/api.yaml:8:14: op 'foo': inconsistency: backward: 'bar' is a forward op, not a "
            "backward op"
        ],
    ),
    Case(
        "invoke_target_missing",
        {API: invoke_op("bar(x)")},
        [
            "ops/api.yaml:4:12: op 'foo': inconsistency: invoke target 'bar' is not defined in the "
            "loaded files"
        ],
    ),
    Case(
        "invoke_with_too_many_arguments",
        {API: invoke_op("bar(x, 1)") + op(name="bar", args="(Tensor x)")},
        [
            "ops/api.yaml:4:12: op 'foo': inconsistency: invoke: bar(...) is given 2 arguments "
            "but takes 1 (defined at ops/api.yaml:5:8)"
        ],
    ),
    Case(
        "forward_op_missing",
        {
            API: op(),
            BACKWARD: grad(
                forward="baz (Tensor x) -> Tensor(out)", args="(Tensor x, Tensor out_grad)"
            ),
        },
        [
            "ops/backward.yaml:2:13: op 'foo_grad': inconsistency: forward op 'baz' is not defined "
            "in the loaded files"
        ],
    ),
    Case(
        "forward_op_does_not_name_backward",
        {API: op(args="(Tensor x, Tensor y, int axis = -1)"), BACKWARD: grad()},
        [
            "ops/backward.yaml:2:13: op 'foo_grad': inconsistency: forward op 'foo' does not name "
            "'foo_grad' as its backward (it has no 'backward' key; defined at ops/api.yaml:1:8)"
        ],
    ),
    Case(
        "forward_type_mismatch",
        {
            API: FORWARD,
            BACKWARD: grad(forward="foo (Tensor x, Tensor[] y, int axis) -> Tensor(out)"),
        },
        [
            "ops/backward.yaml:2:28: op 'foo_grad': inconsistency: forward: argument 2 is "
            "'Tensor[] y' here but 'Tensor y' in 'foo' at ops/api.yaml:1:8"
        ],
    ),
    Case(
        "forward_wrong_arity",
        {
            API: FORWARD,
            BACKWARD: grad(
                forward="foo (Tensor x, Tensor y) -> Tensor(out)",
                args="(Tensor x, Tensor out_grad)",
            ),
        },
        [
            "ops/backward.yaml:2:13: op 'foo_grad': inconsistency: forward: foo has 2 arguments "
            "here but 3 in 'foo' at ops/api.yaml:1:8: (Tensor x, Tensor y, int axis = -1)"
        ],
    ),
    Case(
        "forward_output_mismatch",
        {
            API: FORWARD,
            BACKWARD: grad(forward="foo (Tensor x, Tensor y, int axis) -> Tensor[](out)"),
        },
        [
            "ops/backward.yaml:2:51: op 'foo_grad': inconsistency: forward: output 1 is "
            "'Tensor[](out)' here but 'Tensor(out)' in 'foo' at ops/api.yaml:1:8"
        ],
    ),
    Case(
        "backward_arg_not_from_forward",
        {API: FORWARD, BACKWARD: grad(args="(Tensor x, Tensor z, Tensor out_grad, int axis)")},
        [
            "ops/backward.yaml:3:21: op 'foo_grad': inconsistency: argument 'z' is not an input, "
            "output or output gradient ('<out>_grad') of forward op 'foo'\n"
            "  hint: choose from: out, out_grad, x, y"
        ],
    ),
    Case(
        "backward_extra_attribute_without_default",
        {API: FORWARD, BACKWARD: grad(args="(Tensor x, Tensor out_grad, int axis, bool flag)")},
        [
            "ops/backward.yaml:3:48: op 'foo_grad': inconsistency: attribute 'flag' is not an "
            "attribute of forward op 'foo' and has no default"
        ],
    ),
    Case(
        "backward_arg_type_differs",
        {API: FORWARD, BACKWARD: grad(args="(Tensor[] x, Tensor out_grad, int axis)")},
        [
            "ops/backward.yaml:3:11: op 'foo_grad': inconsistency: argument 'Tensor[] x' is "
            "Tensor in forward op 'foo'"
        ],
    ),
    Case(
        "composite_names_unknown",
        {API: FORWARD, BACKWARD: grad(extra="  composite : foo_grad(x, out_grad, y, x_grad)\n")},
        [
            "ops/backward.yaml:9:15: op 'foo_grad': inconsistency: composite: argument 'y' of "
            "foo_grad(...) uses 'y', which is not an argument or output of the op"
        ],
    ),
    # ---- everything in one run
    Case(
        "several_errors_in_one_file",
        {
            API: op(args="(Tensr x)")
            + op(name="bar", extra="  optional : q\n  kernal : {}\n")
            + op(name="baz", output="Tensor(out){n}")
        },
        [
            "ops/api.yaml:2:11: op 'foo': args: unknown type 'Tensr'",
            "ops/api.yaml:15:14: op 'bar': inconsistency: optional: 'q' is not an argument or "
            "output of the op",
            "ops/api.yaml:16:3: op 'bar': unknown key 'kernal'",
            "ops/api.yaml:19:23: op 'baz': output: a size expression {n} is only allowed on a "
            "Tensor[] output",
        ],
    ),
    Case(
        "errors_in_two_files_sorted_by_file",
        {BACKWARD: grad(args="(Tensr x)"), API: FORWARD.replace("= -1", "= 1.5")},
        [
            "ops/api.yaml:2:42: op 'foo': args: default 1.5 of argument 'axis' does not fit "
            "type int",
            "ops/backward.yaml:3:11: op 'foo_grad': args: unknown type 'Tensr'",
        ],
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_malformed_spec_is_reported_exactly(tmp_path, case: Case) -> None:
    actual = load_case(tmp_path, case.files)
    assert compare(actual, case.expected) == case.expected, "\n".join(actual)


def test_case_names_are_unique() -> None:
    names = [case.name for case in CASES]
    assert len(names) == len(set(names))


def test_valid_snippets_load(tmp_path) -> None:
    files = {API: FORWARD, BACKWARD: grad()}
    assert load_case(tmp_path, files) == []


def test_inconsistencies_do_not_raise_when_not_strict(tmp_path) -> None:
    files = {API: op(extra="  backward : foo_grad\n")}
    assert load_case(tmp_path, files, strict=False) == []


def test_unresolved_names_do_not_raise_when_not_strict(tmp_path) -> None:
    files = {API: op(kernel="    param : [x, y]\n    backend : x >\n", extra="  optional : z\n")}
    assert load_case(tmp_path, files, strict=False) == []


def test_spec_error_lists_every_diagnostic(tmp_path) -> None:
    from phiops import codegen
    from .spec_cases import write_files

    paths = write_files(
        tmp_path, {API: op(args="(Tensr x)") + op(name="bar", args="(int[] x = 1)")}
    )
    with pytest.raises(codegen.SpecError) as info:
        codegen.load(paths, base=tmp_path)
    assert str(info.value) == (
        "ops/api.yaml:2:11: op 'foo': args: unknown type 'Tensr'\n"
        "  hint: did you mean 'Tensor'?\n"
        "ops/api.yaml:9:21: op 'bar': args: default 1 of argument 'x' does not fit type int[]"
    )
    assert [d.severity for d in info.value.diagnostics] == ["error", "error"]
