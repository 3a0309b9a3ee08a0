"""Which inference passes run, and on which programs: the ``inference_passes`` flag, the mark
``load_inference_model`` puts on the programs it loads, and the check that keeps the passes off
training programs."""

from __future__ import annotations

import weakref

from phiops.runtime import flags
from phiops.runtime.dispatch.op_def import OP_DEFS
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.ir.core import Block, Operation, Program

__all__ = [
    "LAYOUT_CHOICE",
    "LAYOUT_MODES",
    "PASS_NAMES",
    "enabled_passes",
    "is_marked_for_inference",
    "layout_mode",
    "mark_inference_program",
    "passes_key",
    "training_reason",
]

# in the order they run
PASS_NAMES = (
    "layout_choice",
    "dead_code_elimination",
    "constant_folding",
    "batch_norm_folding",
    "tap_pruning",
    "bias_activation_fusion",
    "memory_planning",
)

INFERENCE_PASSES = flags.define_string(
    "inference_passes",
    ",".join(PASS_NAMES),
    "The passes the executor runs on inference programs (those load_inference_model loads) when "
    "it compiles them, comma-separated (runtime/static/passes, docs/executor.md): "
    + ", ".join(PASS_NAMES)
    + "; empty: none.",
)

LAYOUT_MODES = ("auto", "NHWC", "NCHW")
LAYOUT_CHOICE = flags.define_string(
    "layout_choice",
    "auto",
    "How the layout_choice inference pass picks the convolution chains that run channels last "
    "(runtime/static/passes/layout.py): auto (where timed faster), NHWC (every chain, untimed), "
    "NCHW (none).",
)

_MARKED: weakref.WeakSet = weakref.WeakSet()
_PARSED: dict[str, tuple[str, ...]] = {}


def mark_inference_program(program: Program) -> None:
    """Let the executor run the inference passes on ``program`` (``load_inference_model`` marks
    the programs it loads; a program built with ``phiops.static`` may be marked too)."""
    if not isinstance(program, Program):
        raise InvalidArgumentError(
            f"mark_inference_program(): program must be a Program, got {type(program).__name__}"
        )
    _MARKED.add(program.module)


def is_marked_for_inference(module: Operation) -> bool:
    """Whether the program whose module op is ``module`` was marked for the passes."""
    return module in _MARKED


def layout_mode() -> str:
    """The ``layout_choice`` flag's mode; another value is an InvalidArgumentError."""
    value = LAYOUT_CHOICE.value
    if value not in LAYOUT_MODES:
        raise InvalidArgumentError(
            f"FLAGS_layout_choice: {value!r} is not one of {list(LAYOUT_MODES)}"
        )
    return value


def passes_key() -> tuple[str, str]:
    """The flags a plan compiled by the passes depends on (a change compiles it anew); checked
    at every run of a plan, so a tuple of the two values, not text made from them."""
    return INFERENCE_PASSES.value, LAYOUT_CHOICE.value


def enabled_passes() -> tuple[str, ...]:
    """The passes the ``inference_passes`` flag names, in the order they run; an unknown name is
    an InvalidArgumentError naming the known ones."""
    text = INFERENCE_PASSES.value
    found = _PARSED.get(text)
    if found is None:
        names = [name.strip() for name in text.split(",") if name.strip()]
        unknown = [name for name in names if name not in PASS_NAMES]
        if unknown:
            raise InvalidArgumentError(
                f"FLAGS_inference_passes: unknown pass(es) {unknown}; the passes are "
                f"{list(PASS_NAMES)}"
            )
        found = _PARSED[text] = tuple(name for name in PASS_NAMES if name in names)
    return found


def training_reason(block: Block, parameters: set) -> str | None:
    """Why the program of ``block`` is a training program (the passes then leave it alone), or
    None: a gradient op, an op run with ``is_test`` false, a parameter written by
    ``builtin.set_parameter``, or an in-place op on a parameter outside test mode (an
    optimizer's update)."""
    for op in block.walk():
        name = op.name
        short = name.partition(".")[2]
        if short.endswith("_grad") or short.endswith("_grad_"):
            return f"it has the gradient op {name}"
        is_test = op.attributes.get("is_test")
        if is_test is not None and is_test.value is False:
            return f"{name} runs with is_test false"
        if name == "builtin.set_parameter":
            return "it writes a parameter (builtin.set_parameter)"
        if short.endswith("_") and _writes_in_place(short) and _test_mode(op) is not True:
            if any(operand in parameters for operand in op.operands):
                return f"{name} writes a parameter in place"
    return None


def _writes_in_place(short: str) -> bool:
    op_def = OP_DEFS.get(short) or OP_DEFS.get(short[:-1])
    return op_def is not None and bool(op_def.info.inplace)


def _test_mode(op: Operation) -> bool | None:
    for key in ("is_test", "use_global_stats"):
        attribute = op.attributes.get(key)
        if attribute is not None and attribute.value is True:
            return True
    return None
