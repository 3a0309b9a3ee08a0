"""Meta-test: every op phiops specs, forward and backward, has a case compared with PaddlePaddle
3.3.1.

tests/data/parity_kernels.json records the kernels the parity tests (tests/parity/ and
tests/**/test_*_paddle.py) run while passing, written by tests/tools/record_parity_kernels.py in
the side venv where PaddlePaddle is installed. An op whose kernel is not in the record fails here
unless NO_PARITY_CASE gives the reason; a new op therefore needs a parity test and a new record.
"""

from __future__ import annotations

import json
from pathlib import Path

import phiops.generated  # noqa: F401  (registers every op and kernel)
from phiops.runtime.dispatch.op_def import op_defs
from phiops.runtime.kernels import KERNEL_FACTORY

RECORD = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "parity_kernels.json").read_text()
)

# op -> why no parity test runs its kernel
NO_PARITY_CASE: dict[str, str] = {
    name: "a communication op: checked against numpy on 2 and 3 MPI ranks (tests/distributed), "
    "and in PaddlePaddle 3.3.1's saved data-parallel program run on 2 ranks; PaddlePaddle's "
    "CPU build runs collectives only under its own multi-process launcher"
    for name in (
        "all_reduce",
        "all_gather",
        "all_to_all",
        "broadcast",
        "reduce",
        "reduce_scatter",
        "barrier",
        "c_allreduce_sum",
        "c_allreduce_max",
        "c_allreduce_min",
        "c_allreduce_prod",
        "c_broadcast",
        "c_allgather",
        "c_identity",
        "c_concat",
        "c_split",
    )
}
# the dist30 family (issue 30)
NO_PARITY_CASE.update(
    {
        name: "PaddlePaddle 3.3.1's CPU kernel raises 'Do not support ... for cpu kernel now'; "
        "checked against numpy on 2 MPI ranks (tests/distributed/test_dist30_ops.py)"
        for name in ("p_send", "p_recv")
    }
)
# the frame24 family (issue 24)
NO_PARITY_CASE["depend"] = (
    "PaddlePaddle 3.3.1 runs depend only where a program pass made its output x itself, and "
    "refuses every call it can be given from Python, eager or in a program ('Input(X) and "
    "Output(Out) variable should be the same'); checked against numpy (tests/ops/test_frame24.py)"
)

NO_PARITY_CASE["get_tensor_from_selected_rows"] = (
    "PaddlePaddle 3.3.1 has it in programs only, on a SelectedRows value its Python API cannot "
    "make (only its translator of legacy programs does); compared with 3.3.1's results for its "
    "translated program (tests/kinds/test_selected_rows_static.py, recorded by "
    "tests/tools/make_kinds_selected_rows_static.py)"
)

# the corr24 family (issue 24)
NO_PARITY_CASE.update(
    {
        name: "PaddlePaddle 3.3.1's CPU kernel raises 'Correlation only supports GPU now', so no "
        "CPU values exist to compare; values checked against a transcription of 3.3.1's GPU "
        "kernel (tests/ops/test_corr24.py), output shapes, dtypes and errors against 3.3.1's "
        "InferMeta (tests/parity/test_corr24_parity_paddle.py)"
        for name in ("correlation", "correlation_grad")
    }
)


def _ops_with_kernels() -> dict[str, str]:
    return {op.name: op.kernel for op in op_defs() if op.kernel is not None}


def test_every_op_has_a_parity_case() -> None:
    missing = sorted(
        name
        for name, kernel in _ops_with_kernels().items()
        if kernel not in RECORD and name not in NO_PARITY_CASE
    )
    assert missing == [], (
        "ops no parity test runs: add a case comparing them with PaddlePaddle 3.3.1, then "
        "rewrite tests/data/parity_kernels.json with tests/tools/record_parity_kernels.py"
    )


def test_ops_without_a_parity_case_are_listed_truly() -> None:
    ops = _ops_with_kernels()
    assert sorted(set(NO_PARITY_CASE) - set(ops)) == []
    assert sorted(name for name in NO_PARITY_CASE if ops[name] in RECORD) == []


def test_the_record_names_registered_kernels() -> None:
    assert sorted(set(RECORD) - set(KERNEL_FACTORY.kernels)) == []
    assert all(isinstance(count, int) and count > 0 for count in RECORD.values())
