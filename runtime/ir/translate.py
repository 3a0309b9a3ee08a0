"""``translate_to_pir``: PaddlePaddle's legacy ProgramDesc as a PIR program (``phi.ir``)."""

from __future__ import annotations

from typing import Any

from phiops.runtime.ir.core import Program

__all__ = ["translate_to_pir"]


def translate_to_pir(program_desc: Any) -> Program:
    """The PIR program PaddlePaddle 3.3.1's ``paddle.pir.translate_to_pir`` builds for a legacy
    ``ProgramDesc`` (`phiops.runtime.compat.program_desc.ProgramDesc`, the bytes of a ``.pdmodel`` file
    or its path): its printed text is PaddlePaddle's."""
    from phiops.runtime.compat.translate import translate_program_desc

    return translate_program_desc(program_desc)
