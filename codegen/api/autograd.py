"""How an op's backward op is called: the GradSpec codegen writes next to the op's function."""

from __future__ import annotations

from phiops.codegen.api.python import GenerationError, default_literal, literal
from phiops.codegen.errors import Diagnostic
from phiops.codegen.model import OpSpec

__all__ = ["grad_spec_source"]


def grad_spec_source(op: OpSpec, backward: OpSpec) -> str:
    """Python source of the GradSpec of ``op`` whose backward op is ``backward``.

    ``backward.forward`` spells the forward op's signature with its own names (PaddlePaddle's
    files rename arguments there, e.g. ``grad_out`` for ``out_grad``); names are mapped to
    ``op``'s by position. Each backward argument is then a forward input, a forward output,
    ``<forward output>_grad``, a forward attribute, or an attribute of its own with a default.
    """
    signature = backward.forward
    if signature is None:
        raise _error(
            backward, "forward", f"backward op '{backward.name}' has no forward: signature"
        )
    sig_inputs = [a.name for a in signature.args if a.type.is_tensor_like]
    sig_attrs = [a.name for a in signature.args if not a.type.is_tensor_like]
    sig_outputs = list(signature.outputs.names)
    if (
        len(sig_inputs) != len(op.inputs)
        or len(sig_attrs) != len(op.attrs)
        or len(sig_outputs) != len(op.outputs)
    ):
        raise _error(
            backward,
            "forward",
            f"forward: {signature} does not have the arguments and outputs of op '{op.name}' ({op.args} -> "
            + ", ".join(str(o) for o in op.outputs)
            + ")",
        )
    inputs = {name: i for i, name in enumerate(sig_inputs)}
    attrs = {name: i for i, name in enumerate(sig_attrs)}
    outputs = {name: i for i, name in enumerate(sig_outputs)}
    args = []
    for arg in backward.args:
        name = arg.name
        if name in inputs:
            args.append(f"('input', {inputs[name]})")
        elif name in outputs:
            args.append(f"('output', {outputs[name]})")
        elif name.endswith("_grad") and name[: -len("_grad")] in outputs:
            args.append(f"('grad', {outputs[name[: -len('_grad')]]})")
        elif name in attrs:
            args.append(f"('attr', {attrs[name]})")
        elif arg.default is not None and not arg.type.is_tensor_like:
            args.append(f"('value', {default_literal(backward, arg)})")
        else:
            raise _error(
                backward,
                "args",
                f"argument '{name}' is neither an input, output, output gradient nor attribute of "
                f"'{signature.name}', and has no default",
            )
    input_grads = []
    for output in backward.outputs:
        stem = output.name[: -len("_grad")] if output.name.endswith("_grad") else None
        input_grads.append(str(inputs[stem]) if stem in inputs else "None")
    meta_only = sorted(inputs[name] for name in backward.no_need_buffer if name in inputs)
    return (
        f"GradSpec(op={op.name!r}, backward={backward.name!r}, args=({', '.join(args)}{',' if len(args) == 1 else ''}), "
        f"input_grads=({', '.join(input_grads)}{',' if len(input_grads) == 1 else ''}), "
        f"meta_only=frozenset({literal(tuple(meta_only)) if meta_only else '()'}), "
        f"double_grad={backward.backward is not None})"
    )


def _error(op: OpSpec, key: str, message: str) -> GenerationError:
    return GenerationError(Diagnostic(op.loc_of(key), op.name, message))
