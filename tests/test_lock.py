"""requirements.lock, from which `make demo`, `make test` and CI install, stays in step with
pyproject.toml's ranges: every package pinned exactly, with hashes, and every requirement the
development venv needs satisfied by its pin."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
# the extras and the dependency group that the Makefile's lock target compiles
LOCKED_EXTRAS = ("dev", "examples", "distributed")
LOCKED_GROUPS = ("build",)

_PIN = re.compile(
    r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>\S+)(?: ; (?P<marker>.+?))?$"
)


def _lock_entries() -> list[tuple[str, Version, str | None, list[str]]]:
    """(name, version, marker, hashes) for each requirement of the lock."""
    entries: list[tuple[str, Version, str | None, list[str]]] = []
    text = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    for block in re.split(r"\n(?=\S)", text):
        logical = block.split("\n    # via")[0].replace("\\\n", " ")
        first = logical.strip().split("  ")[0].strip()
        if not first or first.startswith("#"):
            continue
        pin = _PIN.match(first.split(" --hash")[0].strip())
        assert pin, f"requirements.lock: not an exact pin: {first!r}"
        hashes = re.findall(r"--hash=sha256:([0-9a-f]{64})", logical)
        entries.append(
            (canonicalize_name(pin["name"]), Version(pin["version"]), pin["marker"], hashes)
        )
    return entries


def _pins_here() -> dict[str, Version]:
    """The lock's pins that apply to this interpreter and platform."""
    environment = default_environment()
    pins: dict[str, Version] = {}
    for name, version, marker, _ in _lock_entries():
        if marker is None or Requirement(f"x; {marker}").marker.evaluate(environment):
            assert name not in pins, f"requirements.lock pins {name} twice for this Python"
            pins[name] = version
    return pins


def _development_requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    specs = list(project["project"]["dependencies"])
    for extra in LOCKED_EXTRAS:
        specs += project["project"]["optional-dependencies"][extra]
    for group in LOCKED_GROUPS:
        specs += project["dependency-groups"][group]
    specs += project["build-system"]["requires"]
    return [Requirement(spec) for spec in specs]


def test_every_lock_entry_is_an_exact_pin_with_hashes() -> None:
    entries = _lock_entries()
    assert len(entries) > 20
    for name, _, _, hashes in entries:
        assert hashes, f"requirements.lock: {name} has no --hash"


@pytest.mark.parametrize("requirement", _development_requirements(), ids=str)
def test_the_lock_satisfies_pyproject(requirement: Requirement) -> None:
    if requirement.marker is not None and not requirement.marker.evaluate():
        pytest.skip(f"{requirement} does not apply to this Python")
    pins = _pins_here()
    name = canonicalize_name(requirement.name)
    assert name in pins, f"requirements.lock has no pin for {requirement}: run make lock"
    assert requirement.specifier.contains(pins[name], prereleases=True), (
        f"requirements.lock pins {name}=={pins[name]}, outside pyproject.toml's {requirement}: "
        "run make lock"
    )


def test_this_venv_runs_the_locked_versions() -> None:
    """`make test` installs from the lock: what runs the suite is what the lock says."""
    from importlib import metadata

    if Path(sys.prefix).resolve() != ROOT / ".venv":
        pytest.skip("not running in the checkout's .venv (make test-latest, a side venv)")
    pins = _pins_here()
    for name in ("numpy", "pyyaml", "jinja2", "black", "protobuf", "ml-dtypes", "pytest"):
        assert Version(metadata.version(name)) == pins[name], name
