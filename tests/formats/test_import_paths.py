"""The public paths of the file formats stay where users find them now that the formats live in
runtime/formats: ``phi.ir``'s JSON functions and ``translate_to_pir``, ``phi.save`` / ``phi.load``,
``phi.static.io``'s readers and writers."""

from __future__ import annotations

from pathlib import Path

import pytest

import phiops
import phiops.generated
from phiops.runtime.compat.translate import translate_program_desc
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.formats import inference_model, pdmodel, pdparams, pir_json

LEGACY = Path(__file__).resolve().parents[1] / "data" / "legacy"


@pytest.mark.parametrize("package", [phiops, phiops.generated], ids=["phiops", "generated"])
def test_phi_ir_has_the_json_functions_and_translate_to_pir(package) -> None:
    assert package.ir.load_program_json is pir_json.load_program_json
    assert package.ir.save_program_json is pir_json.save_program_json
    assert package.ir.translate_to_pir is pdmodel.translate_to_pir
    assert package.ir.parse_program is phiops.runtime.ir.parse_program


def test_phi_save_and_load_are_the_pickle_format() -> None:
    assert phiops.save is pdparams.save
    assert phiops.load is pdparams.load


def test_phi_static_io_reads_and_writes_with_the_inference_model_format() -> None:
    assert phiops.static.io.read_inference_model is inference_model.read_inference_model
    assert phiops.static.io.write_inference_model is inference_model.write_inference_model
    assert phiops.static.io.parameter_names is inference_model.parameter_names


def test_the_translation_takes_a_program_desc_not_a_file() -> None:
    with pytest.raises(InvalidArgumentError, match="expected a ProgramDesc .* got PosixPath"):
        translate_program_desc(LEGACY / "cnn" / "model.pdmodel")


def test_translate_to_pir_reads_the_file_first() -> None:
    path = LEGACY / "cnn" / "model.pdmodel"
    assert str(pdmodel.translate_to_pir(path)) == str(
        translate_program_desc(pdmodel.read_program_desc(path))
    )
