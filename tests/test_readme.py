"""What README.md states about the code comes from the code: the op count, and the quickstart runs
as written."""

from __future__ import annotations

import re
from pathlib import Path

import phiops.generated  # noqa: F401  (registers the ops)
from phiops.runtime.dispatch.op_def import op_defs

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def test_the_op_count_is_the_registrys() -> None:
    stated = re.search(r"^(\d+) ops \(`ops/api.yaml`\)", README, re.M)
    assert stated, "README.md no longer states the op count as 'N ops (`ops/api.yaml`)'"
    forward = [op for op in op_defs() if not op.is_backward]
    assert int(stated.group(1)) == len(forward)


def test_the_quickstart_runs() -> None:
    section = README.split("## Quickstart", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict[str, object] = {}
    exec(compile(code, "README.md (Quickstart)", "exec"), namespace)
    assert namespace["x"].shape == [2, 3]
