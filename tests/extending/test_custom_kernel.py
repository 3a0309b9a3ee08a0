"""Kernels registered from outside phiops for an existing op: an explicit priority decides
between them and the built-in kernel, ``phiops kernels OP`` shows every candidate and the
winner, and a kernel whose arguments are not the op's is refused at registration."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any, Iterator

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.common import Backend, DataLayout, DataType
from phiops.runtime.errors import AlreadyExistsError, InvalidArgumentError, NotFoundError
from phiops.runtime.kernels import (
    KERNEL_FACTORY,
    Array,
    KernelContext,
    KernelKey,
    register_kernel,
    unregister_kernel,
)
from phiops.runtime.kernels.__main__ import main as kernels_main
from phiops.runtime.kernels.impl.activation_kernel import exp_kernel  # the built-in kernel

F32 = DataType.FLOAT32
CPU_F32 = KernelKey(Backend.CPU, DataLayout.ALL_LAYOUT, F32)
CALLS: list[tuple[int, ...]] = []


def fast_exp(ctx: KernelContext, x: Array) -> Array:
    """A replacement exp that records its calls (and computes exp itself)."""
    CALLS.append(tuple(x.shape))
    return ctx.xp.exp(x)


@pytest.fixture
def custom_exp() -> Iterator[Any]:
    """fast_exp registered for CPU float32 at priority 1, removed after the test."""
    CALLS.clear()
    register_kernel("exp", dtypes=(F32,), backends=("CPU",), priority=1)(fast_exp)
    try:
        yield fast_exp
    finally:
        unregister_kernel("exp", fast_exp)


def test_a_custom_kernel_of_higher_priority_replaces_the_built_in_one(custom_exp: Any) -> None:
    x = paddle.to_tensor([0.0, 1.0, 2.0])
    out = paddle.exp(x)
    assert CALLS == [(3,)]
    np.testing.assert_allclose(out.numpy(), np.exp([0.0, 1.0, 2.0]).astype(np.float32))
    assert KERNEL_FACTORY.select("exp", CPU_F32).fn is fast_exp


def test_the_custom_kernel_serves_only_the_dtypes_it_registered(custom_exp: Any) -> None:
    paddle.exp(paddle.to_tensor([1.0], dtype="float64"))
    assert CALLS == []


def test_plans_made_before_the_override_are_dropped() -> None:
    x = paddle.to_tensor([1.0, 2.0])
    paddle.exp(x)  # planned and cached with the built-in kernel
    CALLS.clear()
    register_kernel("exp", dtypes=(F32,), backends=("CPU",), priority=1)(fast_exp)
    try:
        paddle.exp(x)
        assert CALLS == [(2,)]
    finally:
        unregister_kernel("exp", fast_exp)
    paddle.exp(x)
    assert CALLS == [(2,)]  # the built-in kernel again
    assert KERNEL_FACTORY.select("exp", CPU_F32).fn is exp_kernel


def test_a_kernel_of_lower_priority_is_a_candidate_that_does_not_win() -> None:
    register_kernel("exp", dtypes=(F32,), backends=("CPU",), priority=-1)(fast_exp)
    try:
        CALLS.clear()
        paddle.exp(paddle.to_tensor([1.0]))
        assert CALLS == []
        candidates = KERNEL_FACTORY.candidates_of("exp")[CPU_F32]
        assert [(k.fn, k.priority) for k in candidates] == [(exp_kernel, 0), (fast_exp, -1)]
    finally:
        unregister_kernel("exp", fast_exp)


def test_the_same_priority_as_the_built_in_kernel_is_refused() -> None:
    with pytest.raises(
        AlreadyExistsError,
        match=r"kernel 'exp' is already registered for \(CPU, UNDEFINED, FLOAT32\) by "
        r"phiops\.runtime\.kernels\.impl\.activation_kernel\.exp_kernel at priority 0; register "
        r"with another priority to override it",
    ):
        register_kernel("exp", dtypes=(F32,), backends=("CPU",))(fast_exp)
    assert KERNEL_FACTORY.select("exp", CPU_F32).fn is exp_kernel


def test_a_kernel_with_another_argument_name_is_refused_naming_it() -> None:
    def exp_of_input(ctx: KernelContext, input: Array) -> Array:  # noqa: A002
        return ctx.xp.exp(input)

    with pytest.raises(
        InvalidArgumentError,
        match=r"kernel 'exp' from .*exp_of_input does not match the op's signature \(as "
        r"phiops\.runtime\.kernels\.impl\.activation_kernel\.exp_kernel takes it\): argument 1 "
        r"is Tensor 'input', the op passes Tensor 'x'",
    ):
        register_kernel("exp", dtypes=(F32,), backends=("CPU",), priority=1)(exp_of_input)
    assert KERNEL_FACTORY.select("exp", CPU_F32).fn is exp_kernel


def test_a_kernel_with_an_extra_attribute_is_refused_naming_the_counts() -> None:
    def exp_scaled(ctx: KernelContext, x: Array, scale: float) -> Array:
        return ctx.xp.exp(x) * scale

    with pytest.raises(
        InvalidArgumentError,
        match=r"it takes 2 arguments \(x, scale\), the op passes 1 \(x\)",
    ):
        register_kernel("exp", dtypes=(F32,), backends=("CPU",), priority=1)(exp_scaled)


def test_a_kernel_returning_other_outputs_is_refused() -> None:
    def exp_twice(ctx: KernelContext, x: Array) -> tuple[Array, Array]:
        return ctx.xp.exp(x), ctx.xp.exp(x)

    with pytest.raises(
        InvalidArgumentError,
        match=r"it returns tuple\[Array, Array\], the op's outputs need Array",
    ):
        register_kernel("exp", dtypes=(F32,), backends=("CPU",), priority=1)(exp_twice)


def test_a_tensor_list_input_must_stay_a_list() -> None:
    def concat_one(ctx: KernelContext, x: Array, axis: Any) -> Array:
        return x

    with pytest.raises(
        InvalidArgumentError, match=r"argument 1 is Tensor 'x', the op passes Tensor\[\] 'x'"
    ):
        register_kernel("concat", dtypes=(F32,), backends=("CPU",), priority=1)(concat_one)


def test_priority_must_be_an_int() -> None:
    with pytest.raises(
        InvalidArgumentError, match=r"register_kernel\('exp'\): priority must be an int, got str"
    ):
        register_kernel("exp", dtypes=(F32,), backends=("CPU",), priority="high")  # type: ignore[arg-type]


def test_an_unknown_backend_name_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="unknown backend or layout 'TPU'"):
        register_kernel("exp", dtypes=(F32,), backends=("TPU",), priority=1)


def test_unregistering_what_is_not_registered_is_an_error() -> None:
    with pytest.raises(NotFoundError, match=r"fast_exp is not registered as kernel 'exp'"):
        unregister_kernel("exp", fast_exp)


def test_phiops_kernels_op_shows_every_candidate_and_the_winner(
    custom_exp: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert kernels_main(["exp"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["BACKEND", "LAYOUT", "DTYPE", "PRIORITY", "FUNCTION"]
    float32 = [line.split() for line in lines if line.split()[:3] == ["CPU", "any", "float32"]]
    assert float32 == [
        ["CPU", "any", "float32", "1", f"{__name__}.fast_exp", "wins"],
        ["CPU", "any", "float32", "0", "phiops.runtime.kernels.impl.activation_kernel.exp_kernel"],
    ]
    float64 = [line.split() for line in lines if line.split()[:3] == ["CPU", "any", "float64"]]
    assert float64 == [
        ["CPU", "any", "float64", "0", "phiops.runtime.kernels.impl.activation_kernel.exp_kernel", "wins"]
    ]  # fmt: skip


def test_phiops_kernels_op_as_json(custom_exp: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert kernels_main(["exp", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    winners = {(r["dtype"], r["function"].rsplit(".", 1)[1]) for r in rows if r["wins"]}
    assert ("float32", "fast_exp") in winners and ("float64", "exp_kernel") in winners
    assert {r["priority"] for r in rows if r["function"].endswith("fast_exp")} == {1}


def test_phiops_kernels_takes_an_op_name_whose_kernel_is_named_otherwise() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "phiops", "kernels", "sgd_"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    rows = [line.split() for line in result.stdout.splitlines()[1:]]
    assert rows and all(row[-1] == "wins" and row[3] == "0" for row in rows)
    assert all(row[4] == "phiops.runtime.kernels.impl.sgd_kernel.sgd_kernel" for row in rows)


def test_phiops_kernels_of_an_unknown_op_is_a_clear_error() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "phiops", "kernels", "no_such_op"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert "phiops kernels: no op named 'no_such_op' is registered" in result.stderr


def test_unregistering_a_new_kernel_names_last_registration_forgets_the_name() -> None:
    """A kernel of a name phiops does not have, once unregistered, leaves no empty entry: the
    name is no kernel (registry-wide checks see phiops's kernels only)."""
    name = "custom_only_kernel_for_this_test"
    register_kernel(name, dtypes=(F32,), backends=("CPU",))(fast_exp)
    assert KERNEL_FACTORY.has_kernel(name)
    unregister_kernel(name, fast_exp)
    assert not KERNEL_FACTORY.has_kernel(name)
    assert name not in KERNEL_FACTORY.kernels and name not in KERNEL_FACTORY.candidates
