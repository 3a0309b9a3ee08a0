"""Hostile or broken specs end in a located error, exit code 1 and no traceback: never a hang, a
memory blow-up, a crash or a RecursionError. Each limit of codegen.limits is named in its message.
"""

from __future__ import annotations

import os
import textwrap
import time
from pathlib import Path

import pytest
import yaml

from phiops.codegen import loader

from tests.codegen.project import make_project

ADD = """- op : add
  args : (Tensor x, Tensor y{extra})
  output : Tensor(out)
  infer_meta :
    func : ElementwiseInferMeta
  kernel :
    func : add
"""


def _add_with(extra: str) -> str:
    return ADD.format(extra=extra)


_LAUGHS = "".join(
    f"{b}: &{b} [" + ", ".join([f"*{a}"] * 10) + "]\n" for a, b in zip("abcdefgh", "bcdefghi")
)
ALIAS_BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + _LAUGHS
ALIAS_BOMB_IN_OP = (
    "- op : add\n  args : (Tensor x)\n  output : Tensor(out)\n  x_bomb :\n"
    + textwrap.indent(ALIAS_BOMB, "    ")
)
ALIAS_BOMB_IN_LIST = "- [" + ", ".join(["*i"] * 3) + "]\n"

CASES = {
    "alias bomb at the top": (
        ALIAS_BOMB,
        "ops/api.yaml:6:8: the YAML expands to more than 200,000 nodes "
        "(codegen.limits.MAX_YAML_NODES)",
    ),
    "alias bomb inside an op": (
        ALIAS_BOMB_IN_OP,
        "ops/api.yaml:10:12: the YAML expands to more than 200,000 nodes "
        "(codegen.limits.MAX_YAML_NODES)",
    ),
    "alias bomb in a list": (
        "- &a [x, x, x, x, x, x, x, x, x, x]\n"
        + "".join(
            f"- &{b} [" + ", ".join([f"*{a}"] * 10) + "]\n" for a, b in zip("abcdefgh", "bcdefghi")
        ),
        "ops/api.yaml:6:7: the YAML expands to more than 200,000 nodes "
        "(codegen.limits.MAX_YAML_NODES)",
    ),
    "huge shift in a default": (
        _add_with(", int64_t a = 1 << 99999999999"),
        "ops/api.yaml:2:43: op 'add': args: default 1 << 99999999999 of argument 'a' is not a "
        "literal (shift by 99999999999 exceeds 1024 bits (codegen.limits.MAX_CONSTANT_BITS))",
    ),
    "50,000-deep flow sequence": (
        "[" * 50_000 + "]" * 50_000 + "\n",
        "ops/api.yaml:1:65: the YAML nests deeper than 64 levels (codegen.limits.MAX_YAML_DEPTH)",
    ),
    "1,000-deep flow mappings": (
        "{a: " * 1000 + "1" + "}" * 1000 + "\n",
        "ops/api.yaml:1:257: the YAML nests deeper than 64 levels (codegen.limits.MAX_YAML_DEPTH)",
    ),
    "1,000-deep block sequences": (
        "- " * 1000 + "x\n",
        "ops/api.yaml:1:129: the YAML nests deeper than 64 levels (codegen.limits.MAX_YAML_DEPTH)",
    ),
    "1,000-deep parentheses in a default": (
        _add_with(", int a = " + "(" * 1000 + "1" + ")" * 1000),
        "ops/api.yaml:2:70: op 'add': args: brackets nest deeper than 32 levels "
        "(codegen.limits.MAX_BRACKET_DEPTH)",
    ),
    "1,000-deep braces in a default": (
        _add_with(", int[] a = " + "{" * 1000 + "1" + "}" * 1000),
        "ops/api.yaml:2:72: op 'add': args: brackets nest deeper than 32 levels "
        "(codegen.limits.MAX_BRACKET_DEPTH)",
    ),
    "1,000-deep brackets in a type": (
        _add_with(", int" + "[" * 1000 + "]" * 1000 + " a"),
        "ops/api.yaml:2:65: op 'add': args: brackets nest deeper than 32 levels "
        "(codegen.limits.MAX_BRACKET_DEPTH)",
    ),
    "1,000-deep unary minus in a default": (
        _add_with(", int a = " + "-" * 1000 + "1"),
        "ops/api.yaml:2:39: op 'add': args: default ----------------------------------------..."
        "-----------1 of argument 'a' is not a literal (unary operators nest deeper than 32 "
        "levels (codegen.limits.MAX_BRACKET_DEPTH))",
    ),
    "an integer with thousands of digits": (
        _add_with(", Scalar a = " + "9" * 5000),
        "ops/api.yaml:2:42: op 'add': args: a number with 5000 digits; at most 400 are allowed "
        "(codegen.limits.MAX_NUMBER_DIGITS)",
    ),
    "an integer with thousands of digits in the YAML": (
        "- op : " + "9" * 5000 + "\n",
        "ops/api.yaml:1:8: a number with 5000 digits; at most 400 are allowed "
        "(codegen.limits.MAX_NUMBER_DIGITS)",
    ),
    "a float default too large for a float": (
        _add_with(", float a = " + "9" * 399),
        "ops/api.yaml:2:41: op 'add': args: default 9999999999999999999999999999999999999999"
        "...999999999999 of argument 'a' is too large for float",
    ),
    "an op name that is a mapping": (
        ADD.format(extra="").replace("op : add", "op : {a: 1}"),
        "ops/api.yaml:1:8: 'op' must be a string, not a mapping",
    ),
    "an op name that is a list": (
        ADD.format(extra="").replace("op : add", "op : [a, b]"),
        "ops/api.yaml:1:8: 'op' must be a string, not a list",
    ),
    "a second YAML document": (
        ADD.format(extra="") + "---\n- x\n",
        "ops/api.yaml:8:1: invalid YAML: expected a single document, found a second one",
    ),
}


# libyaml where PyYAML has it (the lock's PyYAML 6.0.4 bundles a libyaml with a nesting limit of
# its own), and the pure-Python parser, which has no such limit: phiops must say the same on both
PARSERS = {"libyaml": getattr(yaml, "CSafeLoader", None), "pure-Python": yaml.SafeLoader}


@pytest.fixture(params=sorted(PARSERS))
def parser(request, monkeypatch) -> type:
    """The YAML parser the loader uses for this test."""
    parser_class = PARSERS[request.param]
    if parser_class is None:
        pytest.skip("this PyYAML was built without libyaml")
    monkeypatch.setattr(loader, "_ParserLoader", parser_class)
    return parser_class


@pytest.mark.parametrize("case", sorted(CASES))
def test_hostile_spec_gives_a_located_error(
    tmp_path: Path, case: str, parser: type, monkeypatch, capsys
) -> None:
    spec, expected = CASES[case]
    root = make_project(tmp_path)
    (root / "ops" / "api.yaml").write_text(spec, encoding="utf-8")
    code, stderr = _codegen(root, monkeypatch, capsys)
    assert code == 1
    assert stderr.splitlines()[0] == expected
    assert not (root / "generated").exists()


def _codegen(root: Path, monkeypatch, capsys, *args: str) -> tuple[int, str]:
    """``phiops codegen --root root`` in this process: (exit code, stderr)."""
    from phiops.codegen.__main__ import main

    monkeypatch.chdir(root)
    code = main(["--root", str(root), *args])
    return code, capsys.readouterr().err


def _replace_spec(root: Path, kind: str) -> None:
    spec = root / "ops" / "api.yaml"
    spec.unlink()
    if kind == "/dev/zero":
        spec.symlink_to("/dev/zero")
    elif kind == "a FIFO":
        os.mkfifo(spec)
    elif kind == "a directory":
        spec.mkdir()
    elif kind == "too big":
        spec.write_bytes(b"#" * (16 * 1024 * 1024 + 1))


@pytest.mark.parametrize(
    "kind, reason",
    [
        ("/dev/zero", "it is not a regular file (a device, FIFO or socket)"),
        ("a FIFO", "it is not a regular file (a device, FIFO or socket)"),
        ("a directory", "it is a directory, not a spec file"),
    ],
)
def test_a_spec_path_that_is_not_a_file_is_refused(
    tmp_path: Path, kind: str, reason: str, monkeypatch, capsys
) -> None:
    root = make_project(tmp_path)
    _replace_spec(root, kind)
    code, stderr = _codegen(root, monkeypatch, capsys)
    assert code == 1
    assert stderr.splitlines()[0] == f"ops/api.yaml:1:1: cannot read the file: {reason}"


def test_a_spec_file_over_the_size_limit_is_refused(tmp_path: Path, monkeypatch, capsys) -> None:
    root = make_project(tmp_path)
    _replace_spec(root, "too big")
    code, stderr = _codegen(root, monkeypatch, capsys)
    assert code == 1
    assert stderr.splitlines()[0] == (
        "ops/api.yaml:1:1: the file has 16,777,217 bytes; spec files are at most 16,777,216 "
        "(codegen.limits.MAX_SPEC_FILE_BYTES)"
    )


def test_an_unreadable_spec_file_is_refused(tmp_path: Path) -> None:
    from phiops.codegen.loader import read_spec_file

    path = tmp_path / "api.yaml"
    path.write_bytes(b"- op : \xff\n")
    text, diagnostics = read_spec_file(path, "api.yaml")
    assert text is None
    assert [str(d) for d in diagnostics] == [
        "api.yaml:1:1: cannot read the file: it is not UTF-8 (invalid start byte at byte 7)"
    ]


def test_a_spec_file_without_read_permission_is_refused(tmp_path: Path, monkeypatch) -> None:
    """As root a chmod 000 file stays readable, so the open is made to fail as it would."""
    from phiops.codegen.loader import read_spec_file

    path = tmp_path / "api.yaml"
    path.write_text(ADD.format(extra=""))

    def denied(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "open", denied)
    text, diagnostics = read_spec_file(path, "api.yaml")
    assert text is None
    assert [str(d) for d in diagnostics] == [
        "api.yaml:1:1: cannot read the file: Permission denied"
    ]


def test_no_spec_files_is_one_clear_error(tmp_path: Path, monkeypatch, capsys) -> None:
    root = make_project(tmp_path)
    (root / "ops" / "api.yaml").unlink()
    code, stderr = _codegen(root, monkeypatch, capsys)
    assert code == 1
    assert stderr.splitlines()[0] == (f"no spec files: expected ops/api.yaml under {root}")


def test_paddle_files_stay_within_the_limits() -> None:
    from phiops import codegen

    data = Path(__file__).resolve().parents[1] / "data" / "paddle_yaml"
    _, diagnostics = codegen.check([data / "ops.yaml", data / "backward.yaml"], base=data)
    assert not [d for d in diagnostics if "phiops.codegen.limits" in d.message]


class _CountingParser:
    """Wraps the parser under test, counting the events the loader takes from it."""

    events = 0

    def __init__(self, parser_class: type, text: str) -> None:
        self._parser = parser_class(text)

    def get_event(self) -> object:
        _CountingParser.events += 1
        return self._parser.get_event()

    def dispose(self) -> None:
        self._parser.dispose()


@pytest.mark.parametrize("megabytes", [0.1, 1])
def test_deep_nesting_is_refused_in_bounded_work(
    tmp_path: Path, megabytes: float, parser: type, monkeypatch, capsys
) -> None:
    """50,000 and 500,000 nested '[': refused at level 65 after a few hundred events, whichever
    parser, never by parsing the whole file (the pure-Python parser takes about a millisecond
    per level of such nesting)."""
    levels = int(megabytes * 1_000_000) // 2
    spec = tmp_path / "deep.yaml"
    spec.write_text("[" * levels + "]" * levels + "\n", encoding="utf-8")
    _CountingParser.events = 0
    monkeypatch.setattr(loader, "_ParserLoader", lambda text: _CountingParser(parser, text))
    from phiops.codegen.lint import main as lint

    monkeypatch.chdir(tmp_path)
    started = time.process_time()
    code = lint(["deep.yaml"])
    cpu = time.process_time() - started
    assert code == 1
    assert capsys.readouterr().out.splitlines()[0] == (
        "deep.yaml:1:65: the YAML nests deeper than 64 levels (codegen.limits.MAX_YAML_DEPTH)"
    )
    assert _CountingParser.events < 200
    assert cpu < 5.0, f"{cpu:.2f} s of CPU"


def test_libyamls_own_nesting_limit_reads_as_phiops_limit(tmp_path: Path) -> None:
    """Where libyaml refuses the nesting itself (while scanning ahead, before the loader has seen
    the 65th level), the loader still names codegen.limits at the 65th level."""
    if PARSERS["libyaml"] is None:
        pytest.skip("this PyYAML was built without libyaml")
    text = "- " + "[" * 2000
    with pytest.raises(yaml.MarkedYAMLError) as raised:
        for _ in yaml.parse(text, Loader=PARSERS["libyaml"]):
            pass
    if raised.value.problem != "exceeded maximum nesting depth":
        pytest.skip("this libyaml has no nesting limit of its own (PyYAML before 6.0.4)")
    _, diagnostics = loader.read_entries(text, "a.yaml")
    assert [str(d) for d in diagnostics] == [
        "a.yaml:1:66: the YAML nests deeper than 64 levels (codegen.limits.MAX_YAML_DEPTH)\n"
        "  hint: op entries need at most 4 levels of lists and mappings"
    ]


# Broken YAML, each with the one diagnostic that both parsers must give
SYNTAX_ERRORS = {
    "a key at the wrong indentation": (
        "- op : foo\n  args : (Tensor x)\n output : Tensor(out)\n",
        "a.yaml:3:2: invalid YAML: expected '-' indicator, but found 'output' "
        "(while parsing a block collection)",
    ),
    "an unclosed flow list": (
        "- op : foo\n  param : [x, axis\n",
        "a.yaml:3:1: invalid YAML: expected ',' or ']', but found the end of the file "
        "(while parsing a flow sequence)",
    ),
    "an unclosed flow mapping": (
        "- {op : foo, args : x\n",
        "a.yaml:2:1: invalid YAML: expected ',' or '}', but found the end of the file "
        "(while parsing a flow mapping)",
    ),
    "a mapping value on a key's line": (
        "- op : foo: bar\n",
        "a.yaml:1:11: invalid YAML: mapping values are not allowed here",
    ),
    "a key without ':'": (
        "- op : foo\n  args\n  output : x\n",
        "a.yaml:2:3: invalid YAML: could not find expected ':', but found 'args' "
        "(while scanning a simple key)",
    ),
    "an unclosed quoted string": (
        '- op : "foo\n',
        "a.yaml:2:1: invalid YAML: found unexpected end of stream "
        "(while scanning a quoted scalar)",
    ),
    "a character that starts no token": (
        "- op : foo\n  args : @x\n",
        "a.yaml:2:10: invalid YAML: found '@', which cannot start any token "
        "(while scanning for the next token)",
    ),
    "a missing list item": (
        "- op : foo\n- , x\n",
        "a.yaml:2:3: invalid YAML: expected the node content, but found ',' "
        "(while parsing a block node)",
    ),
    "a wrong closing bracket before deep nesting": (
        "- {a: 1, b: 2]" + "[" * 2000,
        "a.yaml:1:14: invalid YAML: expected ',' or '}', but found ']' "
        "(while parsing a flow mapping)",
    ),
    "a wrong closing brace before deep nesting": (
        "- [a, b}, " + "[" * 2000,
        "a.yaml:1:8: invalid YAML: expected ',' or ']', but found '}' "
        "(while parsing a flow sequence)",
    ),
}


@pytest.mark.parametrize("case", sorted(SYNTAX_ERRORS))
def test_syntax_errors_read_the_same_on_every_parser(case: str, parser: type) -> None:
    text, expected = SYNTAX_ERRORS[case]
    _, diagnostics = loader.read_entries(text, "a.yaml")
    assert [str(d) for d in diagnostics] == [expected]


def test_a_large_file_of_many_nodes_stops_at_the_node_limit(
    tmp_path: Path, parser: type, monkeypatch
) -> None:
    """Valid YAML of more nodes than MAX_YAML_NODES (here 1.8 MB of two-item lists) is refused
    where the count passes the limit, so the work per file is bounded whatever its size."""
    text = "- [x, y]\n" * 200_000
    _CountingParser.events = 0
    monkeypatch.setattr(loader, "_ParserLoader", lambda text: _CountingParser(parser, text))
    _, diagnostics = loader.read_entries(text, "a.yaml")
    assert [str(d) for d in diagnostics] == [
        "a.yaml:66667:4: the YAML expands to more than 200,000 nodes "
        "(codegen.limits.MAX_YAML_NODES)\n"
        "  hint: PaddlePaddle's largest spec file has about 12,000; split the file"
    ]
    assert _CountingParser.events < 300_000  # of the 800,002 the whole file holds


def test_pd_op_yaml_files_are_read_within_the_limits(tmp_path: Path, parser: type) -> None:
    """The pd_op dialect's copies of PaddlePaddle's YAML go through the same loader: a hostile
    file there is a located error, not a crash inside PyYAML."""
    from phiops.codegen.errors import SpecError
    from phiops.codegen.pd_op import _load

    path = tmp_path / "ops.yaml"
    path.write_text("- " + "[" * 50_000 + "\n", encoding="utf-8")
    with pytest.raises(SpecError) as raised:
        _load(path, "ops/paddle/ops.yaml")
    assert [str(d) for d in raised.value.diagnostics] == [
        "ops/paddle/ops.yaml:1:66: the YAML nests deeper than 64 levels "
        "(codegen.limits.MAX_YAML_DEPTH)\n"
        "  hint: op entries need at most 4 levels of lists and mappings"
    ]
    path.write_text("a: 1\n", encoding="utf-8")
    with pytest.raises(SpecError) as raised:
        _load(path, "ops/paddle/ops.yaml")
    assert [str(d) for d in raised.value.diagnostics] == [
        "ops/paddle/ops.yaml:1:1: expected a list of ops"
    ]
