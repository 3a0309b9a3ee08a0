"""``phiops flags``: the table and the JSON listing of every defined flag."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from phiops.runtime.flags import FlagRegistry, FlagType
from phiops.runtime.flags.listing import format_json, format_table

REPOSITORY = Path(__file__).resolve().parents[2]

# sitecustomize runs at interpreter start-up, before -m runs the CLI: it stands in for the
# runtime's own flag definitions, so the listing's content is known exactly.
SITECUSTOMIZE = textwrap.dedent("""\
    import phiops.runtime.flags
    phiops.runtime.flags.define_int32("test_cli_size", 32, "Examples per batch.")
    phiops.runtime.flags.define_string("test_cli_mode", "", "How to run.")
    phiops.runtime.flags.define_double("test_cli_limit", float("inf"), "Upper bound.")
    """)


def run_cli(
    tmp_path: Path, *arguments: str, **environment: str
) -> subprocess.CompletedProcess[str]:
    (tmp_path / "sitecustomize.py").write_text(SITECUSTOMIZE)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPOSITORY)]),
        **environment,
    }
    return subprocess.run(
        [sys.executable, "-m", "phiops.runtime.flags", *arguments],
        cwd=REPOSITORY,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_cli_prints_an_aligned_table_of_every_flag(tmp_path):
    result = run_cli(tmp_path, FLAGS_test_cli_size="0x40")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    header = lines[0]
    rows = {line.split()[0]: line for line in lines[1:]}
    assert header.split() == ["NAME", "TYPE", "DEFAULT", "CURRENT", "DEFINED", "AT", "HELP"]
    size = rows["test_cli_size"]
    assert size.split() == [
        "test_cli_size",
        "int32",
        "32",
        "64",
        f"{tmp_path / 'sitecustomize.py'}:2",
        "Examples",
        "per",
        "batch.",
    ]
    assert rows["test_cli_mode"].split()[1:4] == ["string", '""', '""']
    for column in ("TYPE", "DEFAULT", "CURRENT", "DEFINED AT", "HELP"):
        starts = {
            line[header.index(column) - 2 : header.index(column)]
            for line in [header, *rows.values()]
        }
        assert starts == {"  "}, f"column {column} is not aligned"


def test_the_cli_prints_json_with_one_object_per_flag(tmp_path):
    result = run_cli(tmp_path, "--json")
    assert result.returncode == 0, result.stderr
    records = {record["name"]: record for record in json.loads(result.stdout)}
    assert records["test_cli_size"] == {
        "name": "test_cli_size",
        "type": "int32",
        "default": "32",
        "current": "32",
        "help": "Examples per batch.",
        "defined_at": f"{tmp_path / 'sitecustomize.py'}:2",
    }
    assert records["test_cli_limit"]["current"] == "inf"


def test_the_cli_lists_what_importing_the_bare_runtime_defines():
    result = subprocess.run(
        [sys.executable, "-m", "phiops.runtime.flags", "--json"],
        cwd=REPOSITORY,
        env={**os.environ, "PYTHONPATH": str(REPOSITORY)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert all(record["name"] and record["defined_at"] for record in json.loads(result.stdout))


def test_the_cli_rejects_an_unknown_option(tmp_path):
    result = run_cli(tmp_path, "--yaml")
    assert result.returncode == 2
    assert "unrecognized arguments: --yaml" in result.stderr


# The listing functions behind the CLI --------------------------------------------------------


@pytest.fixture
def registry() -> FlagRegistry:
    registry = FlagRegistry()
    registry.define_uint64("big", 2**64 - 1, "Largest.")
    registry.define_double("ratio", math.nan, "Not a number.")
    registry.define_string("text", "a\nb", "Two\nlines.")
    return registry


def test_the_table_quotes_strings_and_keeps_each_flag_on_one_line(registry):
    lines = format_table(registry.all_flags()).splitlines()
    assert len(lines) == 4
    assert lines[3].split()[:4] == ["text", "string", '"a\\nb"', '"a\\nb"']
    assert lines[3].endswith("Two lines.")


def test_an_empty_table_says_no_flags_are_defined():
    assert format_table(()) == "No flags are defined.\n"


def test_json_holds_each_value_as_canonical_text_that_parses_back_exactly(registry):
    records = json.loads(format_json(registry.all_flags()))
    for record in records:
        flag_type = FlagType(record["type"])
        assert flag_type.format(flag_type.parse(record["current"])) == record["current"]
    assert [record["current"] for record in records] == ["18446744073709551615", "nan", "a\nb"]
