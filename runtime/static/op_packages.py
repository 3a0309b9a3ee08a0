"""The Tensor and Value methods of an out-of-tree op package's ops (docs/extending.md).

phiops's own generated package gives Tensor its methods all at once
(runtime/eager/tensor.py::install_operators); an op package's generated ``__init__.py`` adds its
own here, after phiops's: ``x.my_op(...)`` is ``my_op(x, ...)`` eagerly, and builds ``my_op`` on
a static ``Value``. A name Tensor already has (a phiops method, or another package's) is never
replaced: AlreadyExistsError names the package and the method.
"""

from __future__ import annotations

from types import ModuleType
from typing import Sequence

from phiops.runtime.eager.tensor import TENSOR_METHODS, Tensor
from phiops.runtime.errors import AlreadyExistsError
from phiops.runtime.static.value_api import install_value_methods

__all__ = ["install_op_package_methods"]


def install_op_package_methods(
    package: str,
    api: ModuleType,
    inplace: ModuleType | None,
    methods: Sequence[str],
    inplace_methods: Sequence[str] = (),
) -> None:
    """Give Tensor the methods ``methods`` (functions of ``api``) and ``inplace_methods``
    (functions of ``inplace``) of op package ``package``, and Value the first ones. Installing
    the same functions again (the package imported twice) changes nothing."""
    installed = [(name, getattr(api, name)) for name in methods]
    if inplace is not None:
        installed += [(name, getattr(inplace, name)) for name in inplace_methods]
    taken = [
        name
        for name, function in installed
        if hasattr(Tensor, name) and getattr(Tensor, name) is not function
    ]
    if taken:
        raise AlreadyExistsError(
            f"op package '{package}': Tensor already has the method(s) {', '.join(taken)}; an "
            "op package may not replace a Tensor method (rename its op)"
        )
    for name, function in installed:
        setattr(Tensor, name, function)
        if name not in TENSOR_METHODS:
            TENSOR_METHODS.append(name)
    install_value_methods(methods)
