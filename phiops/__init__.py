"""phiops: PaddlePaddle's PHI operator library for Python.

``import phiops as paddle`` gives PaddlePaddle's Python API for the ops phiops has: tensors,
autograd, the submodules below and the rest. The functions generated from the op specs, with the
YAML's own signatures, are in ``phiops._C_ops``, as PaddlePaddle keeps them in ``paddle._C_ops``.

Submodules, named and laid out as PaddlePaddle's (each one's docstring says what PaddlePaddle
has there that phiops lacks):

    phiops.nn                  layers, gradient clipping, ParamAttr
    phiops.nn.functional       the functions behind the layers
    phiops.nn.initializer      parameter initializers
    phiops.nn.utils            clip_grad_norm_, weight_norm, spectral_norm, parameters_to_vector
    phiops.nn.clip             the gradient-clipping classes and clip_by_norm
    phiops.optimizer           every optimizer of paddle.optimizer, their base class, state_dict
    phiops.optimizer.lr        learning-rate schedulers
    phiops.static              static programs: build, differentiate, run, save and load
    phiops.static.nn           static control flow: cond, while_loop
    phiops.static.initializer  phiops.nn.initializer's classes, for static code
    phiops.static.io           saved inference models
    phiops.jit                 save a Layer as an inference model, load one back
    phiops.autograd            grad and the grad mode
    phiops.io                  datasets, samplers and the DataLoader
    phiops.metric              Accuracy, Precision, Recall, Auc, accuracy()
    phiops.regularizer         L1Decay, L2Decay
    phiops.amp                 auto_cast, decorate, GradScaler (mixed precision)
    phiops.distributed         data-parallel training over MPI and NCCL, DataParallel, launch

``phiops.ir`` is phiops's own: PIR programs (parse, print, verify, JSON). ``phiops.Model``,
``phiops.summary``, ``phiops.flops`` and ``phiops.callbacks`` are PaddlePaddle's high-level API
(phiops/hapi.py), ``phiops.device`` and ``phiops.set_device`` its devices, custom ones included
(docs/extending.md).
``phiops.fft`` and ``phiops.signal`` are PaddlePaddle's ``paddle.fft`` (discrete Fourier
transforms, sample frequencies, shifts) and ``paddle.signal`` (``stft``, ``istft``), written over
the ops ``fft_c2c``, ``fft_r2c``, ``fft_c2r``, ``frame`` and ``overlap_add`` (phiops/fft.py,
phiops/signal.py).
``phiops.framework`` holds PaddlePaddle's ``paddle.framework.get_default_dtype`` and
``set_default_dtype`` (phiops/framework.py).

The package is one import name. In the wheel, ``runtime/``, ``generated/`` and ``codegen/`` are
its subpackages ``phiops.runtime``, ``phiops.generated`` and ``phiops.codegen``; in a checkout they
sit beside this folder at the repository root and are found there, installed or not.

The API loads on first use (``phiops.add``, ``from phiops import nn``), so that ``phiops
codegen`` runs even where ``generated/`` is missing or stale.
"""

from __future__ import annotations

import os as _os

__version__ = "0.1.0"


def _find_checkout_folders() -> None:
    here = _os.path.dirname(_os.path.abspath(__file__))
    if _os.path.isdir(_os.path.join(here, "runtime")):
        return  # the wheel: the folders are inside the package
    root = _os.path.dirname(here)
    if all(_os.path.isfile(_os.path.join(root, name, "__init__.py")) for name in _FOLDERS):
        __path__.append(root)


_FOLDERS = ("runtime", "codegen")
_find_checkout_folders()

_api_names: frozenset[str] | None = None


def _load_api() -> frozenset[str]:
    """Import the API (phiops/_api.py) and put its names here; returns them. The facade
    submodules call it too, so that ``import phiops.nn`` gives the same Tensor methods as
    ``import phiops``; while phiops/_api.py is still loading (it imports them) it does nothing."""
    global _api_names
    if _api_names is None:
        import importlib
        import sys

        loading = sys.modules.get("phiops._api")
        if loading is not None and not getattr(loading, "LOADED", False):
            return frozenset()
        _api = importlib.import_module("phiops._api")
        names = frozenset(_api.__all__)
        globals().update({name: getattr(_api, name) for name in names})
        _api_names = names
    return _api_names


def __getattr__(name: str) -> object:
    if name == "_C_ops":  # PaddlePaddle code reaches paddle._C_ops without importing it
        import importlib

        return importlib.import_module("phiops._C_ops")
    if name.startswith("_"):  # private names and submodules being imported
        raise AttributeError(f"module 'phiops' has no attribute {name!r}")
    if name in _load_api():
        return globals()[name]
    raise AttributeError(f"module 'phiops' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _load_api())
