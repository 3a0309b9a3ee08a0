"""``phiops.ir``: phiops's own PIR API: the IR core and its text form (runtime/ir/), with the
`.json` programs (``load_program_json`` / ``save_program_json``, runtime/formats/pir_json.py) and
``translate_to_pir`` of legacy ``.pdmodel`` programs (runtime/formats/pdmodel.py) beside them.
"""

from __future__ import annotations

from phiops.runtime.formats.pdmodel import translate_to_pir
from phiops.runtime.formats.pir_json import load_program_json, save_program_json
from phiops.runtime.ir import *  # noqa: F401,F403
from phiops.runtime.ir import __all__ as _runtime_names

__all__ = [*_runtime_names, "load_program_json", "save_program_json", "translate_to_pir"]
