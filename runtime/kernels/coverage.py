"""``phiops kernels --coverage``: which of PaddlePaddle 3.3.1's ops phiops runs on CPU, forward and
backward, per dtype.

The yardstick is ``paddle_3_3_1_cpu.json`` beside this module, recorded from PaddlePaddle 3.3.1
itself by ``tests/tools/make_paddle_coverage.py``: the dtypes its CPU build registers for each PHI
kernel, and the kernel functions and backward ops of each op of its ``ops.yaml`` and
``dygraph_ops.yaml`` (``add``, ``matmul``, ``softmax``, ... whose static definitions differ).

An op is in scope when PaddlePaddle 3.3.1 registers a CPU kernel for it and it is
not a communication op. Out of scope, each with its reason: ops whose kernels exist only for GPU,
XPU, oneDNN or custom devices (flash attention, the fused GPU kernels, ...); communication ops
(``c_allreduce_sum``, ``all_gather``, ...), which belong to the distributed runtime; ops with no
kernel of their own (they invoke another op: ``ones``, ``zeros``, ...), which run when that op runs;
and ops whose registered CPU kernel refuses to run (its body raises "only supports GPU now", "Do not
support ... for cpu kernel now"), so that 3.3.1 has no CPU result to match. Those are recorded with
3.3.1's error, by calling each one, in ``paddle_3_3_1_cpu_refusals.json`` beside this module
(``tests/tools/make_paddle_cpu_refusals.py``).

phiops runs an op forward when it has the op (same name) and a CPU kernel for it; it runs a
backward op likewise. Dtypes compare the op's first (dense) kernel function in PaddlePaddle with
phiops' kernel for the op; further kernel functions PaddlePaddle lists for an op are its
SelectedRows or sparse variants (``*_sr``, ``*_dense_param_sparse_grad``), tensor kinds phiops does
not have.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from phiops.runtime.common import Backend
from phiops.runtime.kernels.kernel_factory import KernelFactory

__all__ = [
    "DATA_FILE",
    "REFUSALS_FILE",
    "COMMUNICATION_OPS",
    "OpCoverage",
    "Coverage",
    "paddle_data",
    "paddle_refusals",
    "coverage",
    "format_coverage",
]

DATA_FILE = Path(__file__).with_name("paddle_3_3_1_cpu.json")
REFUSALS_FILE = Path(__file__).with_name("paddle_3_3_1_cpu_refusals.json")

# ops.yaml's communication ops (PaddlePaddle runs them on a communication context, not as math)
COMMUNICATION_OPS = frozenset("""
    all_gather all_reduce all_to_all barrier broadcast reduce reduce_scatter p_send p_recv
    c_allgather c_allreduce_max c_allreduce_min c_allreduce_prod c_allreduce_sum c_broadcast
    c_concat c_identity c_reduce_sum c_scatter c_split c_embedding c_sync_calc_stream
    c_sync_comm_stream sync_calc_stream partial_send partial_recv partial_allgather
    """.split())

# float8 dtypes: numpy (and ml_dtypes' numpy arrays used as PHI tensors) cannot hold them
NUMPY_LACKS = frozenset({"float8_e4m3fn", "float8_e5m2"})


@lru_cache(maxsize=1)
def paddle_data() -> dict[str, Any]:
    """The recorded PaddlePaddle 3.3.1 tables (see the module docstring)."""
    return json.loads(DATA_FILE.read_text())


@lru_cache(maxsize=1)
def paddle_refusals() -> dict[str, dict[str, str]]:
    """op -> the error PaddlePaddle 3.3.1's registered CPU kernel raises when called (``call``,
    ``error``, ``message``, ``where``), recorded by tests/tools/make_paddle_cpu_refusals.py."""
    return json.loads(REFUSALS_FILE.read_text())["ops"]


@dataclass
class OpCoverage:
    """One op of PaddlePaddle's ops.yaml and what phiops runs of it."""

    op: str
    file: str  # the PaddlePaddle YAML file that defines it: ops.yaml or dygraph_ops.yaml
    scope: str  # "in", "no-cpu-kernel", "cpu-refuses", "communication", "composite"
    runs: bool = False
    paddle_dtypes: tuple[str, ...] = ()
    phiops_dtypes: tuple[str, ...] = ()
    # backward ops with a CPU kernel in PaddlePaddle, in order (grad, double grad, ...)
    backward: tuple[str, ...] = ()
    backward_runs: tuple[str, ...] = ()
    # backward op -> dtypes PaddlePaddle registers on CPU that phiops' kernel lacks
    backward_missing_dtypes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # scope "cpu-refuses": what PaddlePaddle's CPU kernel raises, and where
    refusal: str = ""

    @property
    def missing_dtypes(self) -> tuple[str, ...]:
        if not self.runs:
            return ()
        return tuple(d for d in self.paddle_dtypes if d not in self.phiops_dtypes)

    @property
    def extra_dtypes(self) -> tuple[str, ...]:
        return tuple(d for d in self.phiops_dtypes if d not in self.paddle_dtypes)

    def as_dict(self) -> dict[str, Any]:
        return {
            "op": self.op,
            "file": self.file,
            "scope": self.scope,
            "runs": self.runs,
            "paddle_dtypes": list(self.paddle_dtypes),
            "phiops_dtypes": list(self.phiops_dtypes),
            "missing_dtypes": list(self.missing_dtypes),
            "backward": list(self.backward),
            "backward_runs": list(self.backward_runs),
            "backward_missing_dtypes": {
                k: list(v) for k, v in self.backward_missing_dtypes.items()
            },
            "refusal": self.refusal,
        }


@dataclass
class Coverage:
    paddle: str
    ops: list[OpCoverage]

    def in_scope(self) -> list[OpCoverage]:
        return [op for op in self.ops if op.scope == "in"]

    def summary(self) -> dict[str, int]:
        scope = self.in_scope()
        return {
            "ops": len(self.ops),
            "ops_yaml": sum(op.file == "ops.yaml" for op in self.ops),
            "in_scope": len(scope),
            "in_scope_ops_yaml": sum(op.file == "ops.yaml" for op in scope),
            "forward_runs_ops_yaml": sum(op.runs for op in scope if op.file == "ops.yaml"),
            "no_cpu_kernel": sum(op.scope == "no-cpu-kernel" for op in self.ops),
            "cpu_refuses": sum(op.scope == "cpu-refuses" for op in self.ops),
            "communication": sum(op.scope == "communication" for op in self.ops),
            "composite": sum(op.scope == "composite" for op in self.ops),
            "forward_runs": sum(op.runs for op in scope),
            "forward_all_dtypes": sum(op.runs and not op.missing_dtypes for op in scope),
            "backward_ops": sum(len(op.backward) for op in scope),
            "backward_runs": sum(len(op.backward_runs) for op in scope),
        }

    def as_dict(self) -> dict[str, Any]:
        return {
            "paddle": self.paddle,
            "summary": self.summary(),
            "ops": [op.as_dict() for op in self.ops],
        }


_ORDER = (
    "bool uint8 int8 uint16 int16 int32 uint32 int64 uint64 bfloat16 float16 float32 float64 "
    "complex64 complex128".split()
)


def _sorted(dtypes: set[str]) -> tuple[str, ...]:
    return tuple(sorted(dtypes, key=lambda d: (_ORDER.index(d) if d in _ORDER else 99, d)))


def _phiops_dtypes(factory: KernelFactory, kernel: str) -> set[str] | None:
    """phiops' CPU dtypes for ``kernel`` (None: no CPU kernel); a kernel registered for any dtype
    counts as every dtype."""
    if not factory.has_kernel(kernel):
        return None
    dtypes = {
        "any" if key.dtype == 0 else key.dtype.name.lower()
        for key in factory.kernels_of(kernel)
        if key.backend is Backend.CPU
    }
    if not dtypes:
        return None
    if "any" in dtypes:
        return set(_ORDER)
    return dtypes


def coverage(
    factory: KernelFactory,
    phiops_ops: Mapping[str, str | None],
    data: Mapping[str, Any] | None = None,
    refusals: Mapping[str, Any] | None = None,
) -> Coverage:
    """What phiops runs of PaddlePaddle's ops.yaml.

    ``phiops_ops`` maps each op phiops has (forward and backward) to its kernel function, or None
    for an op that invokes another op instead of running a kernel of its own. ``refusals`` names
    the ops whose CPU kernel refuses to run (default: the recorded file when ``data`` is the
    recorded data too, else none).
    """
    if refusals is None:
        refusals = paddle_refusals() if data is None else {}
    data = paddle_data() if data is None else data
    kernels: Mapping[str, list[str]] = data["kernels"]
    backward_kernels: Mapping[str, list[str]] = data["backward_ops"]

    def runs(op: str) -> tuple[bool, set[str]]:
        if op not in phiops_ops:
            return False, set()
        kernel = phiops_ops[op]
        if kernel is None:  # invokes another op: runs when that one does
            return True, set()
        dtypes = _phiops_dtypes(factory, kernel)
        return dtypes is not None, dtypes or set()

    result = []
    for op, entry in data["ops"].items():
        functions = entry["kernels"]
        cpu = [f for f in functions if f in kernels]
        if not functions:
            scope = "composite"
        elif op in COMMUNICATION_OPS:
            scope = "communication"
        elif not cpu:
            scope = "no-cpu-kernel"
        elif op in refusals:
            scope = "cpu-refuses"
        else:
            scope = "in"
        item = OpCoverage(op=op, file=entry["file"], scope=scope)
        if scope == "cpu-refuses":
            found = refusals[op]
            item.refusal = f"{found['error']}: {found['message']}" + (
                f" ({found['where']})" if found.get("where") else ""
            )
        if scope == "in":
            item.paddle_dtypes = _sorted(set(kernels[cpu[0]]) - NUMPY_LACKS)
            item.runs, ours = runs(op)
            item.phiops_dtypes = _sorted(ours)
            backward, backward_runs = [], []
            for name in entry["backward"]:
                cpu_backward = [f for f in backward_kernels.get(name, []) if f in kernels]
                if not cpu_backward:
                    continue  # composite or GPU-only backward: nothing to run on CPU
                backward.append(name)
                ran, ours_backward = runs(name)
                if ran:
                    backward_runs.append(name)
                    theirs = set(kernels[cpu_backward[0]]) - NUMPY_LACKS
                    missing = _sorted(theirs - ours_backward) if ours_backward else ()
                    if missing:
                        item.backward_missing_dtypes[name] = missing
            item.backward, item.backward_runs = tuple(backward), tuple(backward_runs)
        result.append(item)
    return Coverage(paddle=str(data["paddle"]), ops=result)


def format_coverage(report: Coverage, *, missing_only: bool = False) -> str:
    """The report as a table, one line per in-scope op, then the out-of-scope ops and a summary."""
    header = ("OP", "FORWARD", "BACKWARD", "MISSING DTYPES")
    lines = []
    for op in report.in_scope():
        complete = (
            op.runs
            and not op.missing_dtypes
            and len(op.backward_runs) == len(op.backward)
            and not op.backward_missing_dtypes
        )
        if missing_only and complete:
            continue
        forward = "runs" if op.runs else "missing"
        backward = f"{len(op.backward_runs)}/{len(op.backward)}" if op.backward else "-"
        lacking = [b for b in op.backward if b not in op.backward_runs]
        if lacking:
            backward += " (lacks " + ", ".join(lacking) + ")"
        dtypes = []
        if op.missing_dtypes:
            dtypes.append(", ".join(op.missing_dtypes))
        for name, missing in op.backward_missing_dtypes.items():
            dtypes.append(f"{name}: {', '.join(missing)}")
        lines.append((op.op, forward, backward, "; ".join(dtypes)))
    widths = [max(len(row[i]) for row in [header, *lines]) for i in range(3)]
    out = [
        "  ".join(cell.ljust(width) for cell, width in zip(row[:3], widths)) + "  " + row[3]
        for row in [header, *lines]
    ]
    reasons = {
        "no-cpu-kernel": "kernels only for GPU, XPU, oneDNN or custom devices in PaddlePaddle "
        + report.paddle,
        "cpu-refuses": f"PaddlePaddle {report.paddle} registers a CPU kernel that refuses to run",
        "communication": "communication ops: the distributed runtime's, not math kernels",
        "composite": "no kernel of their own: they invoke another op",
    }
    for scope, why in reasons.items():
        names = [op.op for op in report.ops if op.scope == scope]
        out.append("")
        out.append(f"out of scope, {why} ({len(names)}): {' '.join(names)}")
        out.extend(f"  {op.op}: {op.refusal}" for op in report.ops if op.scope == scope and op.refusal)
    s = report.summary()
    out.append("")
    out.append(
        f"PaddlePaddle {report.paddle}: {s['ops']} ops ({s['ops_yaml']} in ops.yaml, the rest in "
        f"dygraph_ops.yaml), {s['in_scope']} in scope (a CPU kernel that runs, not communication), "
        f"{s['in_scope_ops_yaml']} of them in ops.yaml"
    )
    out.append(
        f"phiops runs {s['forward_runs']} of {s['in_scope']} forward "
        f"({s['forward_all_dtypes']} for every dtype PaddlePaddle registers on CPU), "
        f"and {s['backward_runs']} of their {s['backward_ops']} backward ops; of ops.yaml's "
        f"{s['in_scope_ops_yaml']}, {s['forward_runs_ops_yaml']}"
    )
    return "\n".join(out)
