"""An ArgumentMappingContext over a legacy-named eager call: dicts of inputs and attributes."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from phiops.runtime.dispatch.signature import ArgumentMappingContext
from phiops.runtime.errors import NotFoundError

__all__ = ["LegacyCallContext"]


def _is_list(value: Any) -> bool:
    return isinstance(value, (list, tuple))


class LegacyCallContext(ArgumentMappingContext):
    """A legacy op called with ``inputs`` (legacy name -> a tensor, a list of tensors for a
    duplicable input, or None when not given) and ``attrs`` (legacy name -> value); ``outputs``
    names the outputs the call asks for (a mapping's values are ignored).

    Any value other than None and a list counts as a dense tensor: phiops has no SelectedRows."""

    __slots__ = ("inputs", "attrs", "outputs", "for_infer_shape")

    def __init__(
        self,
        inputs: Mapping[str, Any] | None = None,
        attrs: Mapping[str, Any] | None = None,
        outputs: Iterable[str] | Mapping[str, Any] = (),
        *,
        for_infer_shape: bool = False,
    ) -> None:
        self.inputs = dict(inputs or {})
        self.attrs = dict(attrs or {})
        self.outputs = dict(outputs) if isinstance(outputs, Mapping) else dict.fromkeys(outputs)
        self.for_infer_shape = for_infer_shape

    def has_input(self, name: str) -> bool:
        return self.input_size(name) > 0

    def has_output(self, name: str) -> bool:
        return name in self.outputs

    def has_attr(self, name: str) -> bool:
        return name in self.attrs

    def attr(self, name: str) -> Any:
        try:
            return self.attrs[name]
        except KeyError:
            known = ", ".join(sorted(self.attrs)) or "none"
            raise NotFoundError(f"the call has no attribute '{name}' (it has: {known})") from None

    def input_size(self, name: str) -> int:
        value = self.inputs.get(name)
        if value is None:
            return 0
        return len(value) if _is_list(value) else 1

    def output_size(self, name: str) -> int:
        value = self.outputs.get(name)
        if name not in self.outputs:
            return 0
        return len(value) if _is_list(value) else 1

    def is_dense_tensor_input(self, name: str) -> bool:
        value = self.inputs.get(name)
        return value is not None and not _is_list(value)

    def is_dense_tensor_vector_input(self, name: str) -> bool:
        value = self.inputs.get(name)
        return _is_list(value) and all(v is not None and not _is_list(v) for v in value)

    def is_selected_rows_input(self, name: str) -> bool:
        return False

    def is_dense_tensor_output(self, name: str) -> bool:
        return name in self.outputs

    def is_for_infer_shape(self) -> bool:
        return self.for_infer_shape

    def __repr__(self) -> str:
        return (
            f"LegacyCallContext(inputs={sorted(k for k in self.inputs if self.has_input(k))}, "
            f"attrs={sorted(self.attrs)}, outputs={sorted(self.outputs)})"
        )
