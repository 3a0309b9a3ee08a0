"""InferMeta functions by number of tensor inputs, and the lookup by PHI name.

PHI names them in CamelCase (``MatmulInferMeta``); here they are snake_case
(``matmul_infer_meta``). ``infer_meta_python_name`` owns that rule.
"""

from __future__ import annotations

import re
from typing import Callable

from phiops.runtime.errors import NotFoundError
from phiops.runtime.infermeta import (
    backward,
    binary,
    convpool,
    detect,
    dist30,
    fftspecial,
    grad2,

    graph24,
    linalg,
    losscum,
    nnmisc,
    linalg2,
    linalg24,
    manip24,
    basic24,
    math3,
    misc24,
    misc24c,
    vision,
    multiary,
    nan24,
    normup,
    nullary,
    quant24,

    random24,

    quant24b,
    search24,
    train24,
    detect24,
    sample24,

    dgrad24,

    seq24,

    lod24,

    lstm24,

    legacy24,
    loss24b,
    ternary,
    unary,
    view24,
    pool24,

    frame24,
    rnnt24,

    deform24,

    corr24,

    lodops24,
)

__all__ = [
    "infer_meta_python_name",
    "get_infer_meta",
    "register_infer_meta",
    "INFER_META_FUNCTIONS",
]

_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def infer_meta_python_name(phi_name: str) -> str:
    """``MatmulInferMeta`` -> ``matmul_infer_meta``; ``UnchangedInferMetaCheckAxis`` ->
    ``unchanged_infer_meta_check_axis``."""
    return _BOUNDARY.sub("_", phi_name).lower()


INFER_META_FUNCTIONS: dict[str, Callable[..., None]] = {
    name: value
    for module in (
        nullary,
        unary,
        binary,
        ternary,
        multiary,
        backward,
        math3,
        linalg,
        linalg2,
        linalg24,
        vision,
        detect,
        losscum,
        nnmisc,
        fftspecial,
        graph24,
        normup,
        convpool,
        search24,
        dist30,
        quant24,

        detect24,

        seq24,

        lod24,

        lstm24,

        random24,

        manip24,

        quant24b,
        view24,


        grad2,


        legacy24,


        train24,
        sample24,


        basic24,
        pool24,



        misc24,
        misc24c,


        loss24b,

        dgrad24,


        nan24,


        frame24,
        rnnt24,

        deform24,

        corr24,

        lodops24,
    )
    for name, value in vars(module).items()
    if "infer_meta" in name and callable(value) and not name.startswith("_")
}


def get_infer_meta(phi_name: str) -> Callable[..., None]:
    """The runtime function for a YAML ``infer_meta.func`` name; NotFoundError if missing."""
    python_name = infer_meta_python_name(phi_name)
    try:
        return INFER_META_FUNCTIONS[python_name]
    except KeyError:
        raise NotFoundError(
            f"InferMeta function {phi_name!r} (Python name {python_name!r}) does not exist in "
            "runtime/infermeta/"
        ) from None


def register_infer_meta(function: Callable[..., None]) -> Callable[..., None]:
    """Decorator adding an InferMeta function defined outside runtime/infermeta/ (by an op
    package, docs/extending.md) under its own name, which must end in ``_infer_meta``
    (``FancyReluInferMeta`` in a spec finds ``fancy_relu_infer_meta``). A name already taken by
    another function is an AlreadyExistsError naming both."""
    from phiops.runtime.errors import AlreadyExistsError, InvalidArgumentError

    name = getattr(function, "__name__", "")
    if not callable(function) or not name.endswith("_infer_meta"):
        raise InvalidArgumentError(
            f"register_infer_meta: {name or function!r} is not a function named '<op>_infer_meta'"
        )
    previous = INFER_META_FUNCTIONS.get(name)
    if previous is not None and previous is not function:
        if (previous.__module__, previous.__qualname__) != (
            function.__module__,
            function.__qualname__,
        ):
            raise AlreadyExistsError(
                f"InferMeta function {name!r} of {function.__module__} is already defined by "
                f"{previous.__module__}; give it another name"
            )
    INFER_META_FUNCTIONS[name] = function
    return function
