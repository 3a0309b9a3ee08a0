"""paddle.static's remaining API (runtime/static/persist.py, compiled.py, framework_api.py and
control_flow.py's case / switch_case), against PaddlePaddle 3.3.1's records
(tests/tools/make_static_api_fixtures.py): ``case`` and ``switch_case`` print 3.3.1's program and
compute its results; ``save`` / ``load`` / ``load_program_state`` / ``set_program_state`` read
3.3.1's files and round-trip phiops's own; ``serialize_*`` / ``deserialize_*``; CompiledProgram,
name_scope, device_guard, the places and create_global_var."""

from __future__ import annotations

import json
import pickle
import shutil
from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime import device
from phiops.runtime.errors import (
    InvalidArgumentError,
    NotFoundError,
    PreconditionNotMetError,
)
from tests.static import static_api_cases as cases

DATA = Path(__file__).resolve().parents[1] / "data" / "static_api"
RECORD = json.loads((DATA / "paddle_3_3_1.json").read_text())
S = paddle.static


@pytest.fixture(autouse=True)
def static_mode():
    paddle.enable_static()
    with paddle.static.unique_name_guard(), S.scope_guard(S.Scope()):
        yield
    paddle.disable_static()


def test_case_and_switch_case_build_and_compute_paddles_program() -> None:
    assert RECORD["paddle_version"] == "3.3.1"
    text, results = cases.run_case_program(paddle)
    assert text == RECORD["case_program"]
    assert results == RECORD["case_results"]


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda x, i: S.nn.case([]), "must not be empty"),
        (lambda x, i: S.nn.case([(x < 1.0, 3)]), "pred_fn_pairs[0] must be callable"),
        (lambda x, i: S.nn.case((x < 1.0, lambda: x)), "must be a (pred, fn) tuple"),
        (lambda x, i: S.nn.case([(x, lambda: x)]), "must be a bool Value"),
        (lambda x, i: S.nn.case([(x < 1.0, lambda: x)], default=1), "'default' must be callable"),
        (lambda x, i: S.nn.switch_case(x, [lambda: x]), "must be uint8, int32 or int64"),
        (lambda x, i: S.nn.switch_case(3, [lambda: x]), "must be an int Value"),
        (lambda x, i: S.nn.switch_case(i, {1: lambda: x, 1.5: lambda: x}), "must be ints"),
        (lambda x, i: S.nn.switch_case(i, [(1, lambda: x), (1, lambda: x)]), "more than once"),
        (lambda x, i: S.nn.switch_case(i, [(1, lambda: x), (2, 5)]), "key 2 must be callable"),
        (lambda x, i: S.nn.switch_case(i, {}), "must not be empty"),
        (lambda x, i: S.nn.switch_case(i, "abc"), "must be a dict, list or tuple"),
    ],
)
def test_case_and_switch_case_name_bad_arguments(build, message) -> None:
    with S.program_guard(S.Program(), S.Program()):
        x = S.data("x", [1], "float32")
        i = S.data("i", [1], "int32")
        with pytest.raises(InvalidArgumentError) as error:
            build(x, i)
    assert message in str(error.value)


def test_case_needs_static_mode() -> None:
    paddle.disable_static()
    with pytest.raises(PreconditionNotMetError, match="enable_static"):
        S.nn.case([(paddle.to_tensor([True]), lambda: 1)])


def test_training_gives_paddles_losses() -> None:
    *_, losses = cases.train(paddle, 3)
    np.testing.assert_allclose(losses, RECORD["losses"], rtol=1e-6)


def test_load_reads_paddles_files_and_training_goes_on_as_paddles() -> None:
    program, startup, x, loss = cases.build_training_program(paddle)
    exe = S.Executor(paddle.CPUPlace())
    exe.run(startup)
    S.load(program, str(DATA / "trained"), exe)
    losses = [float(exe.run(program, feed={"x": cases.BATCH}, fetch_list=[loss])[0]) for _ in range(2)]
    np.testing.assert_allclose(losses, RECORD["losses_after_load"], rtol=1e-6)


def test_save_writes_paddles_layout_and_load_restores_it(tmp_path: Path) -> None:
    program, exe, x, loss, _ = cases.train(paddle, 3)
    prefix = str(tmp_path / "sub" / "m")
    S.save(program, prefix)
    assert sorted(p.name for p in (tmp_path / "sub").iterdir()) == ["m.json", "m.pdopt", "m.pdparams"]
    for suffix in (".pdparams", ".pdopt"):
        with open(prefix + suffix, "rb") as f:
            ours = pickle.load(f)
        with open(DATA / ("trained" + suffix), "rb") as f:
            paddles = pickle.load(f)
        assert sorted(ours) == sorted(paddles)
        for name in ours:
            assert ours[name].dtype == paddles[name].dtype and ours[name].shape == paddles[name].shape
            np.testing.assert_allclose(ours[name], paddles[name], rtol=1e-5, atol=1e-7)
    state = S.load_program_state(prefix)
    assert sorted(state) == sorted(
        ["fc_0.w_0", "fc_0.b_0", "learning_rate_0"]
        + [f"fc_0.{p}_0_{k}_0" for p in ("w", "b") for k in ("moment1", "moment2", "beta1_pow_acc", "beta2_pow_acc")]
    )
    assert S.load_program_state(prefix + ".pdparams").keys() == state.keys()
    # a program of the same construction in a new scope continues from the saved state
    expected = [float(exe.run(program, feed={"x": cases.BATCH}, fetch_list=[loss])[0]) for _ in range(2)]
    with paddle.static.unique_name_guard(), S.scope_guard(S.Scope()):
        fresh, startup, _, fresh_loss = cases.build_training_program(paddle)
        exe.run(startup)
        S.load(fresh, prefix, exe)
        got = [float(exe.run(fresh, feed={"x": cases.BATCH}, fetch_list=[fresh_loss])[0]) for _ in range(2)]
        np.testing.assert_allclose(got, expected, rtol=1e-6)
    with paddle.static.unique_name_guard(), S.scope_guard(S.Scope()):
        fresh, startup, _, fresh_loss = cases.build_training_program(paddle)
        exe.run(startup)
        S.set_program_state(fresh, state)
        got = [float(exe.run(fresh, feed={"x": cases.BATCH}, fetch_list=[fresh_loss])[0]) for _ in range(2)]
        np.testing.assert_allclose(got, expected, rtol=1e-6)
    loaded = S.deserialize_program(Path(prefix + ".json").read_bytes())
    assert str(loaded) == str(program)


def test_load_and_set_program_state_name_what_is_wrong(tmp_path: Path) -> None:
    program, startup, _, _ = cases.build_training_program(paddle)
    exe = S.Executor(paddle.CPUPlace())
    exe.run(startup)
    with pytest.raises(NotFoundError, match="no such file"):
        S.load(program, str(tmp_path / "missing"))
    with pytest.raises(NotFoundError, match="no such file"):
        S.load_program_state(str(tmp_path / "missing"))
    # a parameter missing from the file
    state = pickle.loads((DATA / "trained.pdparams").read_bytes())
    del state["fc_0.b_0"]
    shutil.copy(DATA / "trained.pdopt", tmp_path / "partial.pdopt")
    (tmp_path / "partial.pdparams").write_bytes(pickle.dumps(state))
    with pytest.raises(NotFoundError, match="cannot find 'fc_0.b_0'"):
        S.load(program, str(tmp_path / "partial"))
    with pytest.raises(InvalidArgumentError, match=r"'fc_0.w_0' has shape \[3, 4\].*\[2, 2\]"):
        S.set_program_state(program, {"fc_0.w_0": np.zeros((2, 2), np.float32)})
    with pytest.raises(InvalidArgumentError, match="dtype float32.*float64"):
        S.set_program_state(program, {"fc_0.w_0": np.zeros((3, 4), np.float64)})
    with pytest.warns(UserWarning, match="not found in program. There are: other"):
        S.set_program_state(program, {"other": np.zeros(2, np.float32)})
    with pytest.raises(InvalidArgumentError, match="empty file prefix"):
        S.save(program, str(tmp_path) + "/")
    with pytest.raises(InvalidArgumentError, match="protocol"):
        S.save(program, str(tmp_path / "m"), protocol=5)
    (tmp_path / "junk.pdparams").write_bytes(pickle.dumps([1, 2]))
    with pytest.raises(InvalidArgumentError, match="does not hold a dict"):
        S.load_program_state(str(tmp_path / "junk"))


def test_save_before_the_startup_program_ran_is_refused(tmp_path: Path) -> None:
    program, _, _, _ = cases.build_training_program(paddle)
    with pytest.raises(PreconditionNotMetError, match="run the startup program"):
        S.save(program, str(tmp_path / "m"))


def test_serialize_and_deserialize_program_and_persistables() -> None:
    program, exe, x, loss, _ = cases.train(paddle, 1)
    fetch = loss
    program_bytes = S.serialize_program([x], [fetch], program=program)
    params_bytes = S.serialize_persistables([x], [fetch], exe, program=program)
    assert isinstance(program_bytes, bytes) and isinstance(params_bytes, bytes)
    expected = exe.run(program, feed={"x": cases.BATCH}, fetch_list=[fetch])[0]
    inference = S.deserialize_program(program_bytes)
    assert "adam_" not in str(inference) and "pd_op.fetch" in str(inference)
    with S.scope_guard(S.Scope()):
        S.deserialize_persistables(inference, params_bytes, exe)
        got = exe.run(inference, feed={"x": cases.BATCH})[0]
    # the training run computed its loss from the values the bytes hold, then updated them
    np.testing.assert_allclose(got, expected, rtol=1e-6)
    with S.scope_guard(S.Scope()):
        S.deserialize_persistables(inference, params_bytes, exe)
        again = exe.run(inference, feed={"x": cases.BATCH})[0]
    np.testing.assert_array_equal(got, again)
    with pytest.raises(InvalidArgumentError, match="not a serialized program"):
        S.deserialize_program(b"\x00garbage")
    with pytest.raises(InvalidArgumentError, match="not what serialize_persistables returns"):
        S.deserialize_persistables(inference, b"garbage", exe)
    with pytest.raises(InvalidArgumentError, match="truncated or corrupt|bytes left"):
        S.deserialize_persistables(inference, params_bytes[:-3], exe)


def test_save_to_file_and_load_from_file(tmp_path: Path) -> None:
    S.save_to_file(tmp_path / "blob", b"abc")
    assert S.load_from_file(tmp_path / "blob") == b"abc"
    with pytest.raises(InvalidArgumentError, match="must be bytes"):
        S.save_to_file(tmp_path / "blob", "text")
    with pytest.raises(NotFoundError):
        S.load_from_file(tmp_path / "nothing")


def test_compiled_program_runs_its_program() -> None:
    program, exe, x, loss, _ = cases.train(paddle, 1)
    compiled = S.CompiledProgram(program, S.BuildStrategy())
    assert compiled.program is program and compiled.global_block() is program.global_block()
    before = exe.run(program, feed={"x": cases.BATCH}, fetch_list=[loss])[0]
    after = exe.run(compiled, feed={"x": cases.BATCH}, fetch_list=[loss])[0]
    assert after < before  # the Adam step ran through the wrapper too
    with pytest.raises(InvalidArgumentError, match="must be a Program"):
        S.CompiledProgram("program")
    with pytest.raises(InvalidArgumentError, match="BuildStrategy"):
        S.CompiledProgram(program, build_strategy=3)


def test_executor_run_defaults_to_the_default_main_program() -> None:
    main, startup = S.Program(), S.Program()
    with S.program_guard(main, startup):
        x = S.data("x", [2], "float32")
        y = x * 3
    with S.program_guard(main, startup):
        out = S.Executor().run(feed={"x": np.array([1, 2], "float32")}, fetch_list=[y])
    np.testing.assert_array_equal(out[0], [3, 6])


def test_name_scope_and_device_guard() -> None:
    from phiops.runtime.static.framework_api import current_name_scope

    with S.program_guard(S.Program(), S.Program()):
        with S.name_scope("outer"):
            with S.name_scope("inner"):
                assert current_name_scope() == "outer/inner/"
                x = S.data("x", [2], "float32")
        assert current_name_scope() == ""
        with S.device_guard("cpu"), S.device_guard("gpu:1"), S.device_guard(None):
            y = x + 1
    assert isinstance(y, S.Variable)
    with pytest.raises(InvalidArgumentError, match="device_guard.*'tpu!'"):
        with S.device_guard("tpu!"):
            pass
    with pytest.raises(InvalidArgumentError, match="'cpu' takes no device index"):
        with S.device_guard("cpu:1"):
            pass
    with pytest.raises(InvalidArgumentError, match="prefix"):
        with S.name_scope(3):
            pass


def test_places(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CPU_NUM", raising=False)
    assert S.cpu_places() == [paddle.CPUPlace()]
    assert S.cpu_places(3) == [paddle.CPUPlace()] * 3
    monkeypatch.setenv("CPU_NUM", "2")
    assert len(S.cpu_places()) == 2
    with pytest.raises(InvalidArgumentError, match="count >= 1"):
        S.cpu_places(0)
    with pytest.raises(PreconditionNotMetError, match="no XPU backend"):
        S.xpu_places()
    if device.gpu_available():
        assert S.cuda_places([0])[0].is_gpu_place()
    else:
        with pytest.raises(PreconditionNotMetError, match="no GPU is available"):
            S.cuda_places()


def test_create_global_var() -> None:
    main, startup = S.Program(), S.Program()
    with S.program_guard(main, startup):
        step = S.create_global_var([2], 1.5, "float32", persistable=True, name="step")
        counter = S.create_global_var([], 7, "int64")
        total = paddle.sum(step) + paddle.cast(counter, "float32")
    assert "global_var_0" in str(main) and '"step"' in str(main)
    exe = S.Executor()
    exe.run(startup)
    np.testing.assert_allclose(exe.run(main, fetch_list=[total])[0], 10.0)
    assert step.stop_gradient
    with S.program_guard(S.Program(), S.Program()):
        with pytest.raises(InvalidArgumentError, match="dtype"):
            S.create_global_var([1], 1, "complex64")
        with pytest.raises(InvalidArgumentError, match=r"shape\[0\]"):
            S.create_global_var([-1], 1, "float32")
        with pytest.raises(InvalidArgumentError, match="value"):
            S.create_global_var([1], "one", "float32")
