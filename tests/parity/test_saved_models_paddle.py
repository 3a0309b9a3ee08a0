"""Saved files in both directions against PaddlePaddle 3.3.1: `paddle.load` reads `phi.save`'s
files, `phi.load` reads `paddle.save`'s, PaddlePaddle loads and runs the models
`phi.static.save_inference_model` writes, and phiops' `normalize_program` writes the bytes
PaddlePaddle's `save_inference_model` writes for the same program. Runs only where PaddlePaddle is
installed."""

from __future__ import annotations

import collections
from pathlib import Path

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops.generated as phi  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "data" / "saved_models"
MODELS = sorted(p for p in DATA.iterdir() if (p / "model.json").exists())


def _tensor(array: np.ndarray, name: str | None = None) -> phi.Tensor:
    tensor = phi.to_tensor(array)
    tensor.name = name
    return tensor


# -- phi.save -> paddle.load -------------------------------------------------------------------
@pytest.mark.parametrize("protocol", [2, 3, 4])
def test_paddle_loads_a_state_dict_phi_saved(protocol: int, tmp_path: Path) -> None:
    weight = np.arange(6, dtype="float32").reshape(2, 3)
    bias = np.array([0.5, -1.5], dtype="float32")
    state = {"weight": _tensor(weight, "fc.w_0"), "bias": _tensor(bias, "fc.b_0")}
    phi.save(state, tmp_path / "s.pdparams", protocol=protocol)
    loaded = paddle.load(str(tmp_path / "s.pdparams"))
    assert sorted(loaded) == ["bias", "weight"]
    assert loaded["weight"].numpy().tobytes() == weight.tobytes()
    assert loaded["bias"].numpy().tobytes() == bias.tobytes()
    assert (loaded["weight"].name, loaded["bias"].name) == ("fc.w_0", "fc.b_0")


@pytest.mark.parametrize("protocol", [2, 4])
def test_paddle_loads_a_nested_structure_phi_saved(protocol: int, tmp_path: Path) -> None:
    a = np.array([[1.0, 2.0]], dtype="float64")
    b = np.array([1, 2, 3], dtype="int32")
    obj = {"a": _tensor(a, "t_a"), "inner": [_tensor(b), 3, "s"], "lr": 0.1}
    phi.save(obj, tmp_path / "n.pdparams", protocol=protocol)
    loaded = paddle.load(str(tmp_path / "n.pdparams"))
    assert loaded["a"].name == "t_a" and loaded["a"].numpy().tobytes() == a.tobytes()
    assert loaded["inner"][0].numpy().tobytes() == b.tobytes()
    assert loaded["inner"][1:] == [3, "s"] and loaded["lr"] == 0.1


def test_paddle_loads_a_single_tensor_phi_saved(tmp_path: Path) -> None:
    phi.save(_tensor(np.array([True, False])), tmp_path / "t.pdtensor")
    assert paddle.load(str(tmp_path / "t.pdtensor")).numpy().tolist() == [True, False]


# -- paddle.save -> phi.load -------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int8", "uint8", "int64"])
@pytest.mark.parametrize("protocol", [2, 4])
def test_phi_loads_what_paddle_saves(dtype: str, protocol: int, tmp_path: Path) -> None:
    array = (np.arange(6).reshape(2, 3) - 2).astype(dtype)
    tensor = paddle.to_tensor(array)
    obj = collections.OrderedDict(x=tensor, rest=(tensor, {"k": [tensor]}))
    paddle.save(obj, str(tmp_path / "p.pdparams"), protocol=protocol)
    paddle.save({"w": tensor}, str(tmp_path / "s.pdparams"), protocol=protocol)
    loaded = phi.load(tmp_path / "p.pdparams")
    assert isinstance(loaded, collections.OrderedDict)
    for got in (loaded["x"], loaded["rest"][0], loaded["rest"][1]["k"][0]):
        assert got.numpy().dtype == array.dtype and got.numpy().tobytes() == array.tobytes()
        assert got.name == tensor.name
    state = phi.load(tmp_path / "s.pdparams")
    assert state["w"].numpy().tobytes() == array.tobytes() and state["w"].name == tensor.name


# -- phi.static.save_inference_model -> paddle.static.load_inference_model ---------------------
def _paddle_load_and_run(prefix: Path, x: np.ndarray):
    paddle.enable_static()
    try:
        exe = paddle.static.Executor(paddle.CPUPlace())
        with paddle.static.scope_guard(paddle.static.Scope()):
            program, feeds, fetches = paddle.static.load_inference_model(str(prefix), exe)
            scope = paddle.static.global_scope()
            params = {
                op.attrs()["parameter_name"]: np.array(
                    scope.find_var(op.attrs()["parameter_name"]).get_tensor()
                )
                for op in program.global_block().ops
                if op.name() == "builtin.parameter"
            }
            (out,) = exe.run(program, feed={feeds[0]: x}, fetch_list=fetches)
        return str(program), params, out
    finally:
        paddle.disable_static()


@pytest.mark.parametrize("model", MODELS, ids=lambda p: p.name)
def test_paddle_loads_and_runs_a_model_phi_saved(model: Path, tmp_path: Path) -> None:
    scope: dict[str, np.ndarray] = {}
    program, _, fetches = phi.static.load_inference_model(model / "model", None, scope=scope)
    # new parameter values, so PaddlePaddle can only get them from phiops' file
    scope = {name: (array * 1.25).astype(array.dtype) for name, array in scope.items()}
    feeds = [op.results[0] for op in program.block.ops if op.name == "pd_op.data"]
    phi.static.save_inference_model(tmp_path / "m", feeds, fetches, None, scope=scope)
    x = np.load(model / "input.npy")
    text, params, out = _paddle_load_and_run(tmp_path / "m", x)
    assert text == (model / "program.txt").read_text(encoding="utf-8")
    assert sorted(params) == sorted(scope)
    for name, array in scope.items():
        assert params[name].tobytes() == array.tobytes(), name
    _, _, original_out = _paddle_load_and_run(model / "model", x)
    assert out.shape == original_out.shape and np.isfinite(out).all()
    assert not np.allclose(out, original_out)  # the scaled parameters were used


@pytest.mark.parametrize("model", MODELS, ids=lambda p: p.name)
def test_paddle_runs_phi_saved_model_to_paddles_outputs(model: Path, tmp_path: Path) -> None:
    scope: dict[str, np.ndarray] = {}
    program, _, fetches = phi.static.load_inference_model(model / "model", None, scope=scope)
    feeds = [op.results[0] for op in program.block.ops if op.name == "pd_op.data"]
    phi.static.save_inference_model(tmp_path / "m", feeds, fetches, None, scope=scope)
    _, _, out = _paddle_load_and_run(tmp_path / "m", np.load(model / "input.npy"))
    np.testing.assert_array_equal(out, np.load(model / "output.npy"))


# -- normalize_program against PaddlePaddle's --------------------------------------------------
def _position(program, value) -> tuple[int, int]:
    for i, op in enumerate(program.global_block().ops):
        for j in range(op.num_results()):
            if op.result(j).is_same(value):
                return i, j
    raise AssertionError("value not found")


def test_save_inference_model_writes_paddles_files_for_the_same_program(tmp_path: Path) -> None:
    from paddle.base import core

    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [-1, 4], "float32")
            unused = paddle.tanh(x)  # pruned away
            hidden = paddle.nn.Linear(4, 3)(x)
            normed = paddle.nn.BatchNorm1D(3)(hidden)  # training mode: is_test false
            out = paddle.nn.functional.relu(normed)
            same = paddle.scale(x, 1.0)  # fetched as "x"
        exe = paddle.static.Executor(paddle.CPUPlace())
        with paddle.static.scope_guard(paddle.static.Scope()):
            exe.run(startup)
            scope = paddle.static.global_scope()
            params = {
                op.attrs()["parameter_name"]: np.array(
                    scope.find_var(op.attrs()["parameter_name"]).get_tensor()
                )
                for op in main.global_block().ops
                if op.name() == "builtin.parameter"
            }
            core.serialize_pir_program(main, str(tmp_path / "main.json"), True, False, True)
            paddle.static.save_inference_model(
                str(tmp_path / "paddle"), [x], [out, same], exe, program=main
            )
        positions = [_position(main, v) for v in (x, out, same)]
        assert unused is not None
    finally:
        paddle.disable_static()
    program = phi.ir.load_program_json(tmp_path / "main.json")
    x_v, out_v, same_v = (program.block.ops[i].results[j] for i, j in positions)
    phi.static.save_inference_model(
        tmp_path / "phi", [x_v], [out_v, same_v], None, program, scope=params
    )
    for suffix in (".json", ".pdiparams"):
        ours = (tmp_path / f"phi{suffix}").read_bytes()
        assert ours == (tmp_path / f"paddle{suffix}").read_bytes(), suffix


def test_binary_tensor_files_move_both_ways(tmp_path: Path) -> None:
    array = np.arange(6, dtype="int64").reshape(3, 2)
    phi.save(phi.to_tensor(array), tmp_path / "phi.bin", use_binary_format=True)
    assert paddle.load(str(tmp_path / "phi.bin")).numpy().tobytes() == array.tobytes()
    paddle.save(paddle.to_tensor(array), str(tmp_path / "paddle.bin"), use_binary_format=True)
    assert phi.load(tmp_path / "paddle.bin").numpy().tobytes() == array.tobytes()
