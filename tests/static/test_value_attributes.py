"""IntArray and Scalar arguments given as Values in static mode (tests/data/value_attributes/,
written by tests/tools/make_value_attribute_fixtures.py with PaddlePaddle 3.3.1): phiops builds
PaddlePaddle's text (the Value is the op's operand, ints of a mixed list become `pd_op.full`s
stacked into [N, 1], results typed -1 where the value decides the extent), the executor fetches
PaddlePaddle's values, which are eager phiops' for the same numbers; bad Values are clear errors.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError

DATA = Path(__file__).parents[1] / "data" / "value_attributes"
PROGRAMS = json.loads((DATA / "programs.json").read_text("utf-8"))
TWINS: dict[str, Callable[..., list[Any]]] = {}


def twin(fn: Callable[..., list[Any]]) -> Callable[..., list[Any]]:
    TWINS[fn.__name__] = fn
    return fn


def data(name: str, shape: list[int], dtype: str = "float32") -> Any:
    return phi.static.data(name, shape, dtype)


# Each twin builds on Values in static mode; called with eager tensors for its feeds, the same
# function runs eagerly (the Values' numbers as plain arguments or 1-element tensors).
@twin
def slice_mixed_lists(x: Any, i: Any) -> list[Any]:
    return [phi.slice(x, [0, 1], [i, 0], [i + 2, 2], [-1, -1], [])]


@twin
def reshape_by_values(x: Any, s: Any, i: Any) -> list[Any]:
    return [phi.reshape(x, s), phi.reshape(x, [i, 15])]


@twin
def expand_and_tile_by_values(z: Any, i: Any) -> list[Any]:
    return [phi.expand(z, [i, 3]), phi.tile(z, [i, 2])]


@twin
def scale_by_value(x: Any, f: Any) -> list[Any]:
    return [phi.scale(x, f, 1.0, True)]


@twin
def full_by_values(s: Any, v: Any, i: Any) -> list[Any]:
    # pd_op.full has no operands: PaddlePaddle builds pd_op.full_with_tensor
    return [phi.full(s, 1.5, "float32"), phi.full([2, 3], v, "float32"), phi.full([i, 3], 2.0)]


def _feed(name: str) -> dict[str, np.ndarray]:
    return {k: np.array(v, dtype) for k, (dtype, v) in PROGRAMS[name]["feed"].items()}


def _build(name: str) -> tuple[Any, list[Any]]:
    main, startup = phi.static.Program(), phi.static.Program()
    with phi.static.program_guard(main, startup), phi.static.unique_name_guard():
        feed = _feed(name)
        values = {k: data(k, list(v.shape), str(v.dtype)) for k, v in feed.items()}
        fetch = TWINS[name](**values)
    return main, fetch


def test_every_fixture_has_a_twin() -> None:
    assert sorted(PROGRAMS) == sorted(TWINS)


@pytest.mark.parametrize("name", sorted(TWINS))
def test_builds_paddles_text_and_runs_to_paddles_and_eager_values(name: str) -> None:
    main, fetch = _build(name)
    assert str(main) == PROGRAMS[name]["text"]
    got = phi.static.Executor().run(main, _feed(name), fetch)
    phi.disable_static()
    try:
        eager = TWINS[name](**{k: phi.to_tensor(v) for k, v in _feed(name).items()})
    finally:
        phi.enable_static()
    for array, tensor, (dtype, shape, flat) in zip(got, eager, PROGRAMS[name]["fetch"]):
        want = np.array(flat, dtype).reshape(shape)
        assert array.dtype == want.dtype and array.shape == want.shape
        np.testing.assert_array_equal(array, want)
        np.testing.assert_array_equal(tensor.numpy(), want)


def test_a_full_value_in_a_list_is_read_while_building() -> None:
    # as PaddlePaddle: an entry made by pd_op.full is known (reshape [k, -1] infers nothing, but
    # a known 5 types the result)
    main = phi.static.Program()
    with phi.static.program_guard(main, phi.static.Program()):
        x = data("x", [5, 3])
        five = phi.full([1], 5, "int64", place=phi.Place())
        i = data("i", [1], "int64")
        out = phi.reshape(x, [five, i])
    assert out.type.dims == (5, -1)


def _building(fn: Callable[[], Any]) -> None:
    with phi.static.program_guard(phi.static.Program(), phi.static.Program()):
        fn()


def test_a_float_value_for_an_int_array_is_an_error() -> None:
    def build() -> None:
        phi.reshape(data("x", [5, 3]), data("s", [2], "float32"))

    with pytest.raises(InvalidArgumentError, match=r"reshape\(\): argument 'shape' expects a 0-D"):
        _building(build)


def test_a_value_of_several_elements_in_a_list_is_an_error() -> None:
    def build() -> None:
        phi.tile(data("x", [5, 3]), [data("r", [2], "int64"), 1])

    with pytest.raises(
        InvalidArgumentError, match=r"tile\(\): argument 'repeat_times\[0\]' expects an int or a 1"
    ):
        _building(build)


def test_a_scalar_value_of_several_elements_is_an_error() -> None:
    def build() -> None:
        phi.scale(data("x", [5, 3]), data("f", [2], "float32"))

    with pytest.raises(InvalidArgumentError, match=r"scale\(\): argument 'scale' expects a number"):
        _building(build)


def test_an_op_without_a_value_case_says_so() -> None:
    def build() -> None:
        phi.pow(data("x", [5, 3]), data("y", [1], "float32"))

    with pytest.raises(UnimplementedError, match=r"pow\(\): argument 'y' is given as a Value"):
        _building(build)


def test_a_value_outside_static_mode_is_an_error() -> None:
    with phi.static.program_guard(phi.static.Program(), phi.static.Program()):
        shape = data("s", [2], "int64")
    phi.disable_static()
    try:
        with pytest.raises(InvalidArgumentError, match=r"reshape\(\): argument 'shape' is a Value"):
            phi.reshape(phi.to_tensor(np.zeros((5, 3), "float32")), shape)
    finally:
        phi.enable_static()
