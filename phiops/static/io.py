"""``phiops.static.io`` (``paddle.static.io``): saved inference models in PaddlePaddle 3.3.1's
files, ``PREFIX.json`` (PIR JSON) and ``PREFIX.pdiparams`` (runtime/static/io.py over
runtime/formats/inference_model.py):
``save_inference_model``, ``load_inference_model`` and ``normalize_program`` as PaddlePaddle's;
and phiops's own ``write_inference_model`` / ``read_inference_model`` (a program and its
parameter arrays, to and from the files, without an executor or a scope) and ``parameter_names``
(a program's parameters, sorted as ``.pdiparams`` stores them).

PaddlePaddle's ``paddle.static.io`` also has what phiops lacks: ``serialize_program`` /
``deserialize_program``, ``serialize_persistables`` / ``deserialize_persistables``, ``save`` /
``load`` of program state and ``load_program_state`` / ``set_program_state``; phiops reads the
legacy ``.pdmodel`` files but writes only PIR JSON.
"""

from __future__ import annotations

from phiops.runtime.formats.inference_model import (
    parameter_names,
    read_inference_model,
    write_inference_model,
)
from phiops.runtime.static.io import load_inference_model, normalize_program, save_inference_model

__all__ = [
    "save_inference_model",
    "load_inference_model",
    "normalize_program",
    "read_inference_model",
    "write_inference_model",
    "parameter_names",
]
