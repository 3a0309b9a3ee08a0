"""``InputSpec``: the shape, dtype and name of a program input (PaddlePaddle's
``paddle.static.InputSpec``), used by ``phi.jit.save`` to make the program's `pd_op.data` ops."""

from __future__ import annotations

from typing import Any, Sequence

from phiops.runtime.common import DataType, to_data_type
from phiops.runtime.errors import InvalidArgumentError

__all__ = ["InputSpec"]


class InputSpec:
    """An input of ``shape`` (``None`` or -1 for an unknown extent), ``dtype`` and ``name``."""

    def __init__(
        self, shape: Sequence[int | None], dtype: Any = "float32", name: str | None = None
    ) -> None:
        if isinstance(shape, int) and not isinstance(shape, bool):
            shape = [shape]
        if not isinstance(shape, (list, tuple)):
            raise InvalidArgumentError(
                f"InputSpec(): argument 'shape' expects a list of ints, got "
                f"{type(shape).__name__} {shape!r}"
            )
        dims = []
        for position, extent in enumerate(shape):
            if extent is None:
                extent = -1
            if isinstance(extent, bool) or not isinstance(extent, int) or extent < -1:
                raise InvalidArgumentError(
                    f"InputSpec(): argument 'shape[{position}]' expects an int >= 0, or -1 or "
                    f"None for an unknown extent, got {extent!r}"
                )
            dims.append(extent)
        if name is not None and (not isinstance(name, str) or not name):
            raise InvalidArgumentError(f"InputSpec(): argument 'name' expects a str, got {name!r}")
        self.shape: tuple[int, ...] = tuple(dims)
        self.dtype: DataType = to_data_type(dtype, "InputSpec(): argument 'dtype'")
        self.name = name

    def __repr__(self) -> str:
        return f"InputSpec(shape={self.shape}, dtype={self.dtype}, name={self.name})"
