"""The programs that static-mode API calls build into: the default main and startup programs,
``program_guard`` to switch them, and the unique names given to unnamed parameters.

``Program`` is the IR's (runtime/ir/core.py): one top-level block, printed as PaddlePaddle 3.3.1
prints it. Calls build into the *main* program; parameter initializers into the *startup* one.
"""

from __future__ import annotations

import contextlib
from typing import Iterator

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.ir.core import Block, Program

__all__ = [
    "Program",
    "program_guard",
    "default_main_program",
    "default_startup_program",
    "current_block",
    "building_block",
    "unique_name",
    "unique_name_guard",
]


class _Programs:
    """The programs calls build into now; ``building`` is the one ops are appended to (the main
    program, or the startup program while an initializer builds)."""

    def __init__(self) -> None:
        self.main = Program()
        self.startup = Program()
        self.building = self.main
        # the region blocks (of `pd_op.if` / `pd_op.while`) being built, innermost last
        self.region_blocks: list[Block] = []
        self.name_counts: dict[str, int] = {}


_PROGRAMS = _Programs()


def default_main_program() -> Program:
    """The program that static-mode API calls append operations to."""
    return _PROGRAMS.main


def default_startup_program() -> Program:
    """The program that parameter initializers are recorded in."""
    return _PROGRAMS.startup


def current_block() -> Block:
    """The block operations are appended to now: the innermost region block being built, else
    the top-level block of the program being built."""
    if _PROGRAMS.region_blocks:
        return _PROGRAMS.region_blocks[-1]
    return _PROGRAMS.building.block


@contextlib.contextmanager
def building_block(block: Block) -> Iterator[Block]:
    """Append operations to ``block`` (a branch of `pd_op.if`, the body of `pd_op.while`) inside
    the ``with`` block."""
    _PROGRAMS.region_blocks.append(block)
    try:
        yield block
    finally:
        _PROGRAMS.region_blocks.pop()


@contextlib.contextmanager
def program_guard(main_program: Program, startup_program: Program | None = None) -> Iterator[None]:
    """Build into ``main_program`` (and record initializers in ``startup_program``, when given)
    inside the ``with`` block; the previous programs are restored afterwards."""
    for argument, value in (("main_program", main_program), ("startup_program", startup_program)):
        if value is not None and not isinstance(value, Program):
            raise InvalidArgumentError(
                f"program_guard(): argument '{argument}' expects a phi.static.Program, got "
                f"{type(value).__name__}"
            )
    saved = (_PROGRAMS.main, _PROGRAMS.startup, _PROGRAMS.building, _PROGRAMS.region_blocks)
    _PROGRAMS.main = main_program
    if startup_program is not None:
        _PROGRAMS.startup = startup_program
    _PROGRAMS.building = main_program
    _PROGRAMS.region_blocks = []
    try:
        yield
    finally:
        (
            _PROGRAMS.main,
            _PROGRAMS.startup,
            _PROGRAMS.building,
            _PROGRAMS.region_blocks,
        ) = saved


@contextlib.contextmanager
def building_startup() -> Iterator[Program]:
    """Append operations to the startup program inside the ``with`` block (initializers)."""
    saved = (_PROGRAMS.building, _PROGRAMS.region_blocks)
    _PROGRAMS.building = _PROGRAMS.startup
    _PROGRAMS.region_blocks = []
    try:
        yield _PROGRAMS.startup
    finally:
        _PROGRAMS.building, _PROGRAMS.region_blocks = saved


def unique_name(key: str) -> str:
    """``key_0``, ``key_1``, ...: one counter per key for the whole process, as PaddlePaddle's
    ``unique_name.generate``."""
    count = _PROGRAMS.name_counts.get(key, 0)
    _PROGRAMS.name_counts[key] = count + 1
    return f"{key}_{count}"


@contextlib.contextmanager
def unique_name_guard() -> Iterator[None]:
    """Count unique names from 0 inside the ``with`` block (PaddlePaddle's
    ``paddle.utils.unique_name.guard()``); the previous counts come back afterwards."""
    saved = _PROGRAMS.name_counts
    _PROGRAMS.name_counts = {}
    try:
        yield
    finally:
        _PROGRAMS.name_counts = saved
