"""PaddlePaddle's own op-spec files (copies in tests/data/paddle_yaml) load as expected.

They are real data with real defects, so the expected diagnostics below are the defects
themselves, each checked by hand against the files.  Only one of them makes a file malformed
(a duplicated key); the others are names or entries that disagree, so `lint` lists them and
passes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from phiops import codegen
from phiops.codegen.lexer import normalise
from phiops.codegen.lint import main as lint_main
from phiops.codegen.model import Location
from phiops.codegen.parse import parse_args, parse_forward, parse_outputs

DATA = Path(__file__).resolve().parent.parent / "data" / "paddle_yaml"
NOT_OP_SPECS = {"op_compat.yaml", "extra/op_version.yaml"}
SPEC_FILES = sorted(
    p.relative_to(DATA).as_posix()
    for p in DATA.rglob("*.yaml")
    if p.relative_to(DATA).as_posix() not in NOT_OP_SPECS
)

# Files that PaddlePaddle's generators read together; no op name is defined twice in a group.
# ops.yaml/backward.yaml are shared by the dygraph set (with the inconsistent/dygraph_* files)
# and the static/PIR set (with the inconsistent/static_* and update files).
GROUPS = {
    "dygraph": ["ops.yaml", "dygraph_ops.yaml", "backward.yaml", "dygraph_backward.yaml"],
    "static": [
        "ops.yaml",
        "backward.yaml",
        "extra/inconsistent_static_ops.yaml",
        "extra/inconsistent_static_backward.yaml",
        "extra/inconsistent_update_ops.yaml",
    ],
    "legacy_static": ["static_ops.yaml", "extra/legacy_static_backward.yaml"],
    "old_2022": ["old_api.yaml", "old_backward.yaml"],
    "fused": ["extra/fused_ops.yaml", "extra/fused_backward.yaml"],
    "sparse": ["extra/sparse_ops.yaml", "extra/sparse_backward.yaml"],
    "strings": ["extra/strings_ops.yaml"],
}

# Entries per file, as counted in SCHEMA.md section 1.
ENTRY_COUNTS = {
    "ops.yaml": 466,
    "dygraph_ops.yaml": 33,
    "static_ops.yaml": 92,
    "backward.yaml": 336,
    "dygraph_backward.yaml": 32,
    "old_api.yaml": 246,
    "old_backward.yaml": 218,
    "extra/fused_ops.yaml": 78,
    "extra/fused_backward.yaml": 9,
    "extra/sparse_ops.yaml": 51,
    "extra/sparse_backward.yaml": 45,
    "extra/strings_ops.yaml": 4,
    "extra/legacy_static_backward.yaml": 51,
    "extra/inconsistent_static_ops.yaml": 90,
    "extra/inconsistent_static_backward.yaml": 42,
    "extra/inconsistent_update_ops.yaml": 1,
}

# The one schema error in the files: `interfaces` given twice for `unique` (SCHEMA.md
# section 1), in the files of the "static" group.
SCHEMA_ERROR = (
    "extra/inconsistent_static_ops.yaml:926:3: op 'unique': duplicate key 'interfaces' "
    "(first given at line 925)\n"
    "  hint: YAML would silently keep only one of them; merge or remove one"
)

# Real defects that are disagreements, not malformed files (first line of each diagnostic).
INCONSISTENCIES = {
    "dygraph": [
        # Forward ops that exist only in the static files (see the "static" group).
        "backward.yaml:1327:13: op 'global_gather_grad': inconsistency: forward op "
        "'global_gather' is not defined in the loaded files",
        "backward.yaml:1330:12: op 'global_gather_grad': inconsistency: invoke target "
        "'global_scatter' is not defined in the loaded files",
        "backward.yaml:1333:13: op 'global_scatter_grad': inconsistency: forward op "
        "'global_scatter' is not defined in the loaded files",
        "backward.yaml:1336:12: op 'global_scatter_grad': inconsistency: invoke target "
        "'global_gather' is not defined in the loaded files",
        "backward.yaml:2400:13: op 'pull_sparse_v2_grad': inconsistency: forward op "
        "'pull_sparse_v2' is not defined in the loaded files",
        "backward.yaml:2403:12: op 'pull_sparse_v2_grad': inconsistency: invoke target "
        "'push_sparse_v2' is not defined in the loaded files",
        "backward.yaml:2406:13: op 'push_gpups_sparse': inconsistency: forward op "
        "'pull_gpups_sparse' is not defined in the loaded files",
        # The composite rule still passes the legacy `axis` that minimum_grad's args dropped.
        "dygraph_backward.yaml:228:15: op 'minimum_grad': inconsistency: composite: argument "
        "'axis' of minimum_grad(...) uses 'axis', which is not an argument or output of the op",
        # add_n_grad is defined in inconsistent/static_backward.yaml only (SCHEMA.md section 7).
        "dygraph_ops.yaml:19:14: op 'add_n': inconsistency: backward op 'add_n_grad' is not "
        "defined in the loaded files",
    ],
    "static": [
        "extra/inconsistent_static_backward.yaml:99:13: op 'c_embedding_grad': inconsistency: "
        "forward: c_embedding has 3 arguments here but 4 in 'c_embedding' at "
        "extra/inconsistent_static_ops.yaml:116:8: (Tensor weight, Tensor x, "
        "int64_t start_index = 0, int64_t vocab_size = -1)",
        "extra/inconsistent_static_backward.yaml:168:13: op 'embedding_grad': inconsistency: "
        "forward: embedding has 3 arguments here but 4 in 'embedding' at "
        "extra/inconsistent_static_ops.yaml:279:8: (Tensor x, Tensor weight, "
        "int64_t padding_idx = -1, bool sparse = false)",
        "extra/inconsistent_static_backward.yaml:368:13: op 'push_box_sparse': inconsistency: "
        "forward op 'pull_box_sparse' does not name 'push_box_sparse' as its backward (it has "
        "no 'backward' key; defined at extra/inconsistent_static_ops.yaml:639:8)",
        "extra/inconsistent_static_backward.yaml:369:25: op 'push_box_sparse': inconsistency: "
        "argument 'out_grad_in' is not an input, output or output gradient ('<out>_grad') of "
        "forward op 'pull_box_sparse'",
        "extra/inconsistent_static_backward.yaml:380:12: op 'row_conv_grad': inconsistency: "
        "forward op 'row_conv' does not name 'row_conv_grad' as its backward (it has no "
        "'backward' key; defined at extra/inconsistent_static_ops.yaml:732:8)",
        # `backend: place>`: a dangling '>', read as the single candidate `place`.
        "extra/inconsistent_static_ops.yaml:74:14: op 'assign_value': inconsistency: "
        "kernel.backend: empty candidate after '>' in 'place>'",
        # `data_type : PullGpupsSparseKernelKey` names a C++ function, not an argument.
        "extra/inconsistent_static_ops.yaml:655:17: op 'pull_gpups_sparse': inconsistency: "
        "kernel.data_type: candidate 'PullGpupsSparseKernelKey' is not an argument of the op",
    ],
    "legacy_static": [
        # pool2d/pool3d gained a 12th argument; their grads' `forward:` still lists 11.
        "extra/legacy_static_backward.yaml:350:13: op 'pool2d_grad': inconsistency: forward: "
        "pool2d has 11 arguments here but 12 in 'pool2d' at static_ops.yaml:670:8: (Tensor x, "
        "IntArray kernel_size, int[] strides = {1, 1}, int[] paddings = {0, 0}, "
        'bool ceil_mode = false, bool exclusive = true, str data_format = "NCHW", '
        'str pooling_type = "", bool global_pooling = false, bool adaptive = false, '
        'str padding_algorithm = "EXPLICIT", bool use_cudnn = false)',
        "extra/legacy_static_backward.yaml:362:13: op 'pool3d_grad': inconsistency: forward: "
        "pool3d has 11 arguments here but 12 in 'pool3d' at static_ops.yaml:681:8: (Tensor x, "
        "int[] kernel_size, int[] strides = {1, 1, 1}, int[] paddings = {0, 0, 0}, "
        'bool ceil_mode = false, bool exclusive = true, str data_format = "NCDHW", '
        'str pooling_type = "", bool global_pooling = false, bool adaptive = false, '
        'str padding_algorithm = "EXPLICIT", bool use_cudnn = false)',
        "extra/legacy_static_backward.yaml:363:50: op 'pool3d_grad': inconsistency: attribute "
        "'ksize' is not an attribute of forward op 'pool3d' and has no default",
        # kernel.param says `kernel_size`, the args call it `ksize`.
        "extra/legacy_static_backward.yaml:370:32: op 'pool3d_grad': inconsistency: "
        "kernel.param: 'kernel_size' is not an argument of the op",
    ],
    "old_2022": [
        # infer_meta.param [x] of an op whose args are (out_grad, axis, ...): dead because of
        # invoke.
        "old_backward.yaml:492:14: op 'cumsum_grad': inconsistency: infer_meta.param: 'x' is "
        "not an argument of the op",
        # `Tensor[](x_grad){x.size()}` while the args have x_shape, not x.
        "old_backward.yaml:632:12: op 'einsum_grad': inconsistency: size expression {x.size()} "
        "of output 'x_grad' uses 'x', which is not an argument of the op",
    ],
    "fused": [],
    "sparse": [],
    "strings": [],
}


def _first_lines(diagnostics) -> list[str]:
    return [str(d).split("\n", 1)[0] for d in diagnostics]


@pytest.fixture(scope="module")
def group_results() -> dict[str, list[codegen.Diagnostic]]:
    return {
        name: codegen.check([DATA / f for f in files], base=DATA, python_api=False)[1]
        for name, files in GROUPS.items()
    }


def test_every_op_spec_file_is_in_a_group() -> None:
    grouped = {f for files in GROUPS.values() for f in files}
    assert grouped == set(SPEC_FILES)


def test_the_only_schema_error_is_the_duplicate_interfaces_key(group_results) -> None:
    found = {
        group: [str(d) for d in diagnostics if d.is_error]
        for group, diagnostics in group_results.items()
    }
    assert found == {group: [SCHEMA_ERROR] if group == "static" else [] for group in GROUPS}


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_inconsistencies_are_exactly_the_real_ones(group_results, group: str) -> None:
    found = [
        line
        for line, d in zip(_first_lines(group_results[group]), group_results[group])
        if not d.is_error
    ]
    assert found == INCONSISTENCIES[group], "\n".join(found)


# `phiops lint` on each group: its last line, and its exit code.
LINT_SUMMARIES = {
    "dygraph": ("499 ops, 368 backward ops: 0 errors, 9 inconsistencies", 0),
    "static": ("557 ops, 378 backward ops: 1 error, 7 inconsistencies", 1),
    "legacy_static": ("92 ops, 51 backward ops: 0 errors, 4 inconsistencies", 0),
    "old_2022": ("246 ops, 218 backward ops: 0 errors, 2 inconsistencies", 0),
    "fused": ("78 ops, 9 backward ops: 0 errors, 0 inconsistencies", 0),
    "sparse": ("51 ops, 45 backward ops: 0 errors, 0 inconsistencies", 0),
    "strings": ("4 ops, 0 backward ops: 0 errors, 0 inconsistencies", 0),
}


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_lint_lists_the_inconsistencies_and_fails_only_on_the_schema_error(
    group: str, capsys, monkeypatch
) -> None:
    monkeypatch.chdir(DATA)  # so that lint names the files as the expectations above do
    exit_code = lint_main(["--paddle", "--no-fail-on-inconsistency", *GROUPS[group]])
    lines = capsys.readouterr().out.splitlines()
    summary, expected_exit = LINT_SUMMARIES[group]
    errors = [SCHEMA_ERROR.split("\n", 1)[0]] if group == "static" else []
    listed = [line for line in lines[:-1] if not line.startswith("  hint: ")]
    assert (exit_code, lines[-1]) == (expected_exit, summary)
    assert sorted(listed) == sorted(INCONSISTENCIES[group] + errors)


@pytest.mark.parametrize("name", SPEC_FILES)
def test_every_entry_becomes_an_op(name: str) -> None:
    specs, _, _ = codegen.collect([DATA / name], base=DATA, python_api=False)
    assert len(specs) == ENTRY_COUNTS[name]


_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@pytest.fixture(scope="module")
def raw_entries() -> list[tuple[str, dict]]:
    """Every entry of every spec file as plain `yaml.safe_load` data (not our loader)."""
    return [
        (name, entry)
        for name in SPEC_FILES
        for entry in yaml.load((DATA / name).read_text(), Loader=_SAFE_LOADER)
    ]


def _locate(offset: int) -> Location:
    return Location("f", 1, 1 + offset)


@pytest.mark.parametrize(
    "key, parser", [("args", parse_args), ("output", parse_outputs), ("forward", parse_forward)]
)
def test_every_string_round_trips_through_the_printer(raw_entries, key: str, parser) -> None:
    failures = []
    count = 0
    for name, entry in raw_entries:
        text = entry.get(key)
        if not isinstance(text, str):
            continue
        count += 1
        printed = str(parser(text, _locate))
        if normalise(printed) != normalise(text) or str(parser(printed, _locate)) != printed:
            failures.append(f"{name}: {text!r} -> {printed!r}")
    assert not failures, "\n".join(failures)
    assert count > 700


def test_param_literals_are_kept() -> None:
    spec_set = codegen.load(
        [DATA / "extra/sparse_ops.yaml", DATA / "extra/sparse_backward.yaml"], python_api=False
    )
    infer_meta = spec_set.op("masked_matmul").infer_meta
    assert infer_meta.param == ("x", "y", "false", "false")
    assert [lit and lit.value for lit in infer_meta.param_literals] == [None, None, False, False]


def test_paddle_set_loads_quickly() -> None:
    import time

    timings = []
    for _ in range(2):
        start = time.process_time()
        codegen.check([DATA / f for f in GROUPS["dygraph"]], base=DATA, python_api=False)
        timings.append(time.process_time() - start)
    # This process's CPU time, which other processes on the machine (a parallel test run, other
    # sessions) do not stretch as they stretch wall time: about 1 s on this 2-core machine.
    assert min(timings) < 6.0
