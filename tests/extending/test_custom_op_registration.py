"""Registering an op package's parts beside phiops's own (runtime/dispatch/op_packages.py,
runtime/ir/plugins.py, runtime/infermeta, runtime/static/op_packages.py): a package may not
shadow an op, a dialect, an InferMeta function or a Tensor method, and the error names both.
Nothing here is left registered."""

from __future__ import annotations

import re

import pytest

import phiops as phi
import phiops.generated  # noqa: F401  (phiops's own ops)
from phiops.runtime.dispatch.op_def import OP_DEFS, OpDef, get_op_def
from phiops.runtime.dispatch.op_info import InputInfo, OpInfo, OutputInfo
from phiops.runtime.dispatch.op_packages import (
    op_def_of_operation,
    op_packages,
    register_op_package,
)
from phiops.runtime.errors import AlreadyExistsError, InvalidArgumentError
from phiops.runtime.infermeta import INFER_META_FUNCTIONS, register_infer_meta
from phiops.runtime.ir.dialect import get_dialect, unregister_dialect
from phiops.runtime.ir.plugins import OpPackageDialect, register_op_package_dialect
from phiops.runtime.static.op_packages import install_op_package_methods


def _op(name: str, dialect: str, location: str = "fake_pkg/ops.yaml:1") -> OpDef:
    info = OpInfo(
        name=name,
        location=location,
        inputs=(InputInfo("x"),),
        attrs=(),
        outputs=(OutputInfo("out"),),
        dialect=dialect,
    )
    return OpDef(info)


def test_a_package_op_may_not_shadow_a_phiops_op() -> None:
    relu = get_op_def("relu")
    with pytest.raises(AlreadyExistsError) as caught:
        register_op_package(
            "fake_pkg",
            "fake_pkg",
            {
                "fake_pkg_ok": _op("fake_pkg_ok", "fake_pkg", "fake_pkg/ops.yaml:1"),
                "relu": _op("relu", "fake_pkg", "fake_pkg/ops.yaml:9"),
            },
        )
    assert str(caught.value) == (
        "op package 'fake_pkg' cannot register its ops: op 'relu' (fake_pkg/ops.yaml:9) is "
        f"already registered by phiops ({relu.location}); an op package may not redefine an "
        "op, rename the package's op"
    )
    assert re.fullmatch(r"ops/api\.yaml:\d+", relu.location)
    assert get_op_def("relu") is relu and "fake_pkg_ok" not in OP_DEFS
    assert [p.name for p in op_packages()] == []


def test_a_package_op_must_be_built_in_the_package_dialect() -> None:
    with pytest.raises(
        InvalidArgumentError,
        match="op 'fake_op' is built in dialect 'pd_op', the package's dialect is 'fake_pkg'",
    ):
        register_op_package("fake_pkg", "fake_pkg", {"fake_op": _op("fake_op", "pd_op")})
    assert "fake_op" not in OP_DEFS


def test_operations_find_their_op_by_dialect() -> None:
    assert op_def_of_operation("pd_op.relu") is get_op_def("relu")
    assert op_def_of_operation("fake_pkg.relu") is None
    assert op_def_of_operation("pd_op.no_such_op") is None


def test_dialect_names_of_phiops_and_of_other_packages_are_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="dialect name 'pd_op' is phiops's own"):
        register_op_package_dialect("pd_op", "fake_pkg", {})
    with pytest.raises(InvalidArgumentError, match="not a lower-case identifier"):
        register_op_package_dialect("Fake-Pkg", "fake_pkg", {})
    try:
        dialect = register_op_package_dialect("fake_dialect", "fake_pkg", {"op": ("x", "", "out")})
        assert isinstance(dialect, OpPackageDialect) and get_dialect("fake_dialect") is dialect
        assert dialect.lookup("fake_dialect.op").operands[0].name == "x"
        with pytest.raises(AlreadyExistsError) as caught:
            register_op_package_dialect("fake_dialect", "other_pkg", {})
        assert str(caught.value) == (
            "op package 'other_pkg': dialect 'fake_dialect' is already registered by op package "
            "'fake_pkg'; give the package another dialect name (its op_package.yaml 'dialect')"
        )
    finally:
        unregister_dialect("fake_dialect")


def test_infer_meta_functions_may_not_shadow_phiops_ones() -> None:
    def unchanged_infer_meta(x, out, config=None):  # noqa: ANN001
        out.share_meta(x)

    phiops_own = INFER_META_FUNCTIONS["unchanged_infer_meta"]
    with pytest.raises(AlreadyExistsError) as caught:
        register_infer_meta(unchanged_infer_meta)
    assert str(caught.value) == (
        f"InferMeta function 'unchanged_infer_meta' of {__name__} is already defined by "
        "phiops.runtime.infermeta.unary; give it another name"
    )
    assert INFER_META_FUNCTIONS["unchanged_infer_meta"] is phiops_own

    def badly_named(x, out):  # noqa: ANN001
        pass

    with pytest.raises(InvalidArgumentError, match="'badly_named' is not a function named"):
        register_infer_meta(badly_named)


def test_package_methods_may_not_replace_tensor_methods() -> None:
    import types

    api = types.SimpleNamespace(abs=lambda x: x)
    with pytest.raises(AlreadyExistsError) as caught:
        install_op_package_methods("fake_pkg", api, None, ["abs"])
    assert str(caught.value) == (
        "op package 'fake_pkg': Tensor already has the method(s) abs; an op package may not "
        "replace a Tensor method (rename its op)"
    )
    assert phi.Tensor.abs is not api.abs
