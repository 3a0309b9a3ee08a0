"""PaddlePaddle's submodules, imported as PaddlePaddle users write them: each exists, is the same
module however it is reached, and holds exactly what its ``__all__`` lists, which are the
runtime's own objects (the facade re-exports, it does not wrap)."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

import phiops
from phiops import runtime

REPO = Path(__file__).resolve().parents[2]

# facade module -> the runtime modules whose objects it re-exports
SOURCES: dict[str, tuple[str, ...]] = {
    "phiops.nn": (
        "phiops.runtime.nn.layer",
        "phiops.runtime.nn.layers",
        "phiops.runtime.nn.clip",
        "phiops.runtime.nn.param_attr",
        "phiops.runtime.nn.transformer",
        "phiops.runtime.nn.rnn",
        "phiops.runtime.nn.activation",
        "phiops.runtime.nn.padding",

        "phiops.runtime.nn.losscum",
        "phiops.runtime.nn.norm_upsample",

        "phiops.runtime.nn.losses2",
        "phiops.runtime.nn.containers",

        "phiops.runtime.nn.conv_pool",
        "phiops.runtime.nn.seq24",
        "phiops.runtime.nn.nn25",

        "phiops.runtime.nn.pool24",


        "phiops.runtime.nn.misc24",

        "phiops.runtime.nn.loss24b",
        "phiops.runtime.nn.rnnt24",
    ),
    "phiops.nn.functional": (
        "phiops.runtime.nn.functional",
        "phiops.runtime.nn.vision_functional",
        "phiops.runtime.nn.activation",
        "phiops.runtime.nn.padding",

        "phiops.runtime.nn.losscum",
        "phiops.runtime.nn.norm_upsample",

        "phiops.runtime.nn.losses2",

        "phiops.runtime.nn.conv_pool",
        "phiops.runtime.nn.seq24",
        "phiops.runtime.nn.nn25",

        "phiops.runtime.nn.pool24",

        "phiops.runtime.nn.loss24b",
        "phiops.runtime.nn.rnnt24",
    ),
    "phiops.nn.initializer": ("phiops.runtime.nn.initializer",),
    "phiops.nn.utils": ("phiops.runtime.nn.utils",),
    "phiops.nn.clip": ("phiops.runtime.nn.clip",),
    "phiops.optimizer": ("phiops.runtime.optimizer",),
    "phiops.optimizer.lr": ("phiops.runtime.optimizer.lr",),
    "phiops.static": ("phiops.runtime.static", "phiops.runtime.metric.accuracy"),
    "phiops.static.nn": ("phiops.runtime.static.nn",),
    "phiops.static.initializer": ("phiops.runtime.static.initializer",),
    "phiops.static.io": ("phiops.runtime.static.io",),
    "phiops.jit": ("phiops.runtime.jit",),
    "phiops.autograd": ("phiops.runtime.autograd",),
    "phiops.io": (
        "phiops.runtime.io.dataset",
        "phiops.runtime.io.sampler",
        "phiops.runtime.io.batch_sampler",
        "phiops.runtime.io.dataloader",
        "phiops.runtime.io.worker",
    ),
    "phiops.metric": ("phiops.runtime.metric",),
    "phiops.regularizer": ("phiops.runtime.regularizer",),
    "phiops.amp": ("phiops.runtime.amp",),
    "phiops.distributed": ("phiops.runtime.distributed",),
}

# facade module -> the runtime module whose every public name it must hold too
MIRRORS = {
    "phiops.nn": "phiops.runtime.nn",
    "phiops.nn.functional": "phiops.runtime.nn.functional",
    "phiops.nn.initializer": "phiops.runtime.nn.initializer",
    "phiops.nn.clip": "phiops.runtime.nn.clip",
    "phiops.optimizer.lr": "phiops.runtime.optimizer.lr",
    "phiops.static": "phiops.runtime.static",
    "phiops.static.nn": "phiops.runtime.static.nn",
    "phiops.static.initializer": "phiops.runtime.static.initializer",
    "phiops.static.io": "phiops.runtime.static.io",
    "phiops.jit": "phiops.runtime.jit",
    "phiops.io": "phiops.runtime.io",
    "phiops.metric": "phiops.runtime.metric",
    "phiops.amp": "phiops.runtime.amp",
}

TOP_LEVEL = sorted(name for name in SOURCES if name.count(".") == 1)


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120
    )


def _docstring_modules() -> list[str]:
    doc = phiops.__doc__ or ""
    section = doc[doc.index("Submodules") :].split("\n\n")[1]
    return re.findall(r"^\s+(phiops(?:\.\w+)+)\s", section, re.MULTILINE)


def test_each_import_form_works_in_a_fresh_interpreter() -> None:
    result = _python(
        "import phiops.nn as nn\n"
        "from phiops.nn import functional as F\n"
        "import phiops.nn.functional as F2\n"
        "from phiops.nn import initializer\n"
        "import phiops.optimizer as opt\n"
        "from phiops.optimizer import lr\n"
        "import phiops.optimizer.lr\n"
        "from phiops.static import InputSpec\n"
        "import phiops.static.nn\n"
        "import phiops.jit, phiops.autograd, phiops.io, phiops.metric\n"
        "import phiops.regularizer, phiops.amp, phiops.distributed\n"
        "assert F is F2 is nn.functional\n"
        "assert lr is opt.lr is phiops.optimizer.lr\n"
        "print(phiops.optimizer.lr.StepDecay.__name__, InputSpec.__name__)"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["StepDecay", "InputSpec"]


def test_a_submodule_imported_first_registers_the_ops_its_layers_call() -> None:
    result = _python(
        "import phiops.nn as nn\n"
        "layer = nn.Linear(2, 3)\n"
        "print(layer(nn.functional.relu(layer.weight[:1, :2])).shape)"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[1, 3]"


@pytest.mark.parametrize("name", TOP_LEVEL)
def test_phiops_attribute_is_the_submodule(name: str) -> None:
    attribute = name.split(".", 1)[1]
    assert getattr(phiops, attribute) is importlib.import_module(name)


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_the_submodule_is_its_parents_attribute(name: str) -> None:
    parent, _, attribute = name.rpartition(".")
    assert getattr(importlib.import_module(parent), attribute) is importlib.import_module(name)


def test_nn_functional_is_one_module_however_it_is_reached() -> None:
    import phiops.nn.functional as by_import
    from phiops.nn import functional as by_from

    assert by_import is by_from is phiops.nn.functional is sys.modules["phiops.nn.functional"]


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_every_name_in_all_is_the_runtimes_own_object(name: str) -> None:
    module = importlib.import_module(name)
    sources = [importlib.import_module(source) for source in SOURCES[name]]
    assert len(module.__all__) == len(set(module.__all__))
    for public in module.__all__:
        value = getattr(module, public)
        if isinstance(value, types.ModuleType):
            assert value is importlib.import_module(f"{name}.{public}"), public
            continue
        defined_by = [source for source in sources if getattr(source, public, None) is value]
        assert defined_by, f"{name}.{public} is not an object of {SOURCES[name]}"
        assert value.__module__.startswith("phiops.runtime."), public


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_all_lists_exactly_the_public_names(name: str) -> None:
    module = importlib.import_module(name)
    public = {n for n in vars(module) if not n.startswith("_") and n != "annotations"}
    hidden = {"io"} if name == "phiops.static" else set()  # paddle.static.io: not in its __all__
    assert set(module.__all__) == public - hidden


@pytest.mark.parametrize("name", sorted(MIRRORS))
def test_the_facade_holds_every_public_name_of_its_runtime_module(name: str) -> None:
    module = importlib.import_module(name)
    runtime_module = importlib.import_module(MIRRORS[name])
    assert set(runtime_module.__all__) <= set(module.__all__)


def test_static_initializer_holds_nn_initializers_classes() -> None:
    for name in phiops.static.initializer.__all__:
        assert getattr(phiops.static.initializer, name) is getattr(phiops.nn.initializer, name)


def test_the_optimizers_are_the_runtimes_and_subclass_optimizer() -> None:
    assert phiops.optimizer.Adam is runtime.optimizer.Adam
    assert issubclass(phiops.optimizer.AdamW, phiops.optimizer.Optimizer)


def test_amp_is_no_longer_empty() -> None:
    import phiops.amp

    assert {"auto_cast", "decorate", "GradScaler"} <= set(phiops.amp.__all__)
    assert "empty so far" not in (phiops.amp.__doc__ or "")


def test_a_missing_name_is_an_import_error_not_a_stub() -> None:
    with pytest.raises(ImportError, match="cannot import name 'spawn'"):
        from phiops.distributed import spawn  # noqa: F401


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_each_submodule_has_a_docstring_naming_what_paddlepaddle_has_more(name: str) -> None:
    doc = importlib.import_module(name).__doc__ or ""
    assert doc.startswith(f"``{name}``"), doc[:80]
    assert "PaddlePaddle" in doc


def test_the_package_docstring_lists_every_submodule_and_each_exists() -> None:
    listed = _docstring_modules()
    assert sorted(listed) == sorted(SOURCES)
    for name in listed:
        importlib.import_module(name)


@pytest.mark.parametrize(
    "path",
    [
        "nn.Linear",
        "nn.Layer",
        "nn.ParamAttr",
        "nn.ClipGradByGlobalNorm",
        "nn.initializer.XavierUniform",
        "nn.functional.cross_entropy",
        "optimizer.SGD",
        "optimizer.Adam",
        "optimizer.lr.StepDecay",
        "optimizer.lr.CosineAnnealingDecay",
        "static.data",
        "static.create_parameter",
        "static.Program",
        "static.Value",
        "static.InputSpec",
        "static.nn.cond",
        "static.nn.while_loop",
        "static.initializer.Constant",
        "static.io.parameter_names",
        "jit.save",
        "jit.load",
        "ir.parse_program",
    ],
)
def test_names_used_before_the_facades_still_resolve(path: str) -> None:
    value: object = phiops
    for part in path.split("."):
        value = getattr(value, part)
    assert value is not None
