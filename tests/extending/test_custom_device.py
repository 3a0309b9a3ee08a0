"""Custom device types without a real second library: their backends, how a package's entry
point is found and checked, and the errors for what is wrong (test_custom_device_jax.py runs a
real one)."""

from __future__ import annotations

import pickle
from importlib.metadata import EntryPoint
from typing import Any, Iterator

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime import device as device_module
from phiops.runtime.backends import BACKENDS
from phiops.runtime.common import (
    Backend,
    CustomBackend,
    CustomPlace,
    backend_named,
    custom_backend,
    to_place,
)
from phiops.runtime.device import (
    CustomDevice,
    register_custom_device,
    registered_custom_devices,
    unregister_custom_device,
)
from phiops.runtime.errors import AlreadyExistsError, InvalidArgumentError, UnimplementedError

GROUP = "phiops.devices"


def _no_module() -> Any:
    raise UnimplementedError("device type 'absent' needs the absent package: pip install absent")


# what the entry points below name
ABSENT = CustomDevice(device_type="absent", priority=3, load_module=_no_module)
NOT_A_DEVICE = object()
MISNAMED = CustomDevice(device_type="other", priority=4, load_module=lambda: np)


def make_device() -> CustomDevice:
    return CustomDevice(device_type="made", priority=6, load_module=_no_module)


@pytest.fixture
def entry_points(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The phiops.devices entry points of this module, instead of the installed ones."""
    entries = [
        EntryPoint(name, f"{__name__}:{target}", GROUP)
        for name, target in [
            ("absent", "ABSENT"),
            ("bogus", "NOT_A_DEVICE"),
            ("misnamed", "MISNAMED"),
            ("made", "make_device"),
        ]
    ]
    monkeypatch.setattr(device_module, "entry_points", lambda group: entries)
    try:
        yield
    finally:
        paddle.set_device("cpu")
        for name in list(registered_custom_devices()):
            if name in ("absent", "made"):
                unregister_custom_device(name)


def test_each_device_type_gets_one_backend_after_the_built_in_ones() -> None:
    backend = custom_backend("sample")
    assert backend is custom_backend("sample") and isinstance(backend, CustomBackend)
    assert backend.name == "SAMPLE" and backend.device_type == "sample"
    assert int(backend) >= 16 and backend not in set(Backend)
    assert custom_backend("sample2") != backend
    assert backend_named("SAMPLE") is backend and backend_named("sample") is backend
    assert backend_named("CPU") is Backend.CPU
    assert pickle.loads(pickle.dumps(backend)) is backend


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("gpu", r"custom device type 'gpu' is a built-in device name; choose another"),
        ("Jax", r"custom device type must be lower-case letters, digits and '_' starting with a "
         r"letter, got 'Jax'"),
        ("1x", r"got '1x'"),
    ],
)  # fmt: skip
def test_a_bad_device_type_name_is_refused(name: str, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        custom_backend(name)


def test_an_unknown_backend_name_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match=r"unknown backend 'TPU'; known: UNDEFINED, CPU"):
        backend_named("TPU")


def test_a_device_type_is_registered_from_its_entry_point_on_first_use(entry_points: None) -> None:
    assert "made" not in registered_custom_devices()
    place = to_place("made:0")
    assert place == CustomPlace("made", 0) and repr(place) == "Place(made:0)"
    assert "made" in registered_custom_devices() and place.backend in BACKENDS
    assert paddle.device.get_all_custom_device_type() == ["absent", "bogus", "made", "misnamed"]


def test_a_device_whose_array_module_does_not_load_names_what_to_install(
    entry_points: None,
) -> None:
    with pytest.raises(
        InvalidArgumentError,
        match=r"set_device\(\): place absent:0 is not available on this machine; available: cpu "
        r"only \(device type 'absent' needs the absent package: pip install absent\)",
    ):
        paddle.set_device("absent")
    assert paddle.get_device() == "cpu"


def test_an_entry_point_that_is_no_custom_device_is_refused(entry_points: None) -> None:
    with pytest.raises(
        InvalidArgumentError,
        match=r"entry point 'bogus' = '.*:NOT_A_DEVICE' of group 'phiops.devices' must give a "
        r"CustomDevice with device_type 'bogus', got <object",
    ):
        CustomPlace("bogus", 0)


def test_an_entry_point_naming_another_device_type_is_refused(entry_points: None) -> None:
    with pytest.raises(InvalidArgumentError, match=r"must give a CustomDevice with device_type "
                       r"'misnamed', got CustomDevice\(device_type='other'"):  # fmt: skip
        CustomPlace("misnamed")


def test_a_device_type_no_package_declares_is_unknown(entry_points: None) -> None:
    with pytest.raises(
        InvalidArgumentError,
        match=r"CustomPlace: unknown device type 'tpu'; registered device types: absent, bogus, "
        r"made, misnamed",
    ):
        CustomPlace("tpu", 0)
    with pytest.raises(InvalidArgumentError, match=r"CustomPlace: device_id must be an int >= 0"):
        CustomPlace("made", -1)


def test_registering_a_device_type_twice_is_refused(entry_points: None) -> None:
    CustomPlace("made")
    with pytest.raises(AlreadyExistsError, match=r"device type 'made' is registered twice"):
        register_custom_device(make_device())


def test_a_device_may_not_take_the_priority_of_another_backend() -> None:
    clash = CustomDevice(device_type="clash", priority=10, load_module=_no_module)
    with pytest.raises(
        AlreadyExistsError, match=r"backend CLASH would share priority 10 with GPU"
    ):
        register_custom_device(clash)
    assert "clash" not in registered_custom_devices()
