"""Writes tests/data/quant24/legacy/qat/: a small legacy program (ProgramDesc) of the kind a
PaddleSlim quantization-aware-training export holds, saved and run by PaddlePaddle 3.3.1 (issue
24, quant24 family). tests/ops/test_quant24_legacy.py loads it into phiops's Executor and checks
PaddlePaddle's outputs.

The program: the activation x goes through fake_quantize_dequantize_moving_average_abs_max (in
training mode, its scale, accumulator and state persistable) and fake_quantize_abs_max; the
weight w through fake_channel_wise_quantize_dequantize_abs_max; their matmul through
fake_quantize_range_abs_max (a persistable scale); the quantized x is dequantized by
fake_dequantize_max_abs, and a weight stored quantized with its scales, as exports keep them, by
fake_channel_wise_dequantize_max_abs. save_inference_model sets is_test on every op that has it,
so the exported ops quantize with their stored scales. The op types and input/output parameter names are the
legacy ones (X, InScale, OutScale, ...), as PaddlePaddle's Python layers append them.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_quant24_legacy_fixtures.py``.
"""

from __future__ import annotations

import os
import shutil

os.environ["FLAGS_enable_pir_api"] = "0"

from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import paddle  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "data" / "quant24" / "legacy" / "qat"
RNG = np.random.default_rng(2424)

# persistable values: positive scales, a state and accumulator as after some training steps
PERSISTABLE = {
    "act_scale": np.array([1.5], "float32"),
    "act_accum": np.array([6.0], "float32"),
    "act_state": np.array([4.0], "float32"),
    "out_scale": np.array([2.0], "float32"),
    "w_int": np.array([[-127, 3, 50], [64, -128, 0], [1, 127, -77], [12, -5, 127]], "float32"),
    "w_scales": np.array([0.25, 0.5, 1.75], "float32"),
}


def _op(op_type: str, inputs: dict, outputs: dict, **attrs):
    """One legacy OpDesc; ``outputs`` maps each output parameter to a dtype or a variable."""
    helper = paddle.base.layer_helper.LayerHelper(op_type)
    made = {
        param: [
            (
                value
                if not isinstance(value, str)
                else helper.create_variable_for_type_inference(value)
            )
        ]
        for param, value in outputs.items()
    }
    inputs = {n: v if isinstance(v, list) else [v] for n, v in inputs.items()}
    helper.append_op(type=op_type, inputs=inputs, outputs=made, attrs=attrs)
    return [made[p][0] for p in outputs]


def _persistable(name: str, shape: list[int]):
    return paddle.static.create_parameter(
        shape, "float32", name=name, default_initializer=paddle.nn.initializer.Constant(0.0)
    )


def build():
    x = paddle.static.data("x", [-1, 4], "float32")
    w = _persistable("w", [4, 3])
    scale, accum, state = (_persistable(n, [1]) for n in ("act_scale", "act_accum", "act_state"))
    out_scale = _persistable("out_scale", [1])
    x_qdq, x_scale, _, _ = _op(
        "fake_quantize_dequantize_moving_average_abs_max",
        {"X": x, "InScale": scale, "InAccum": accum, "InState": state},
        {"Out": "float32", "OutScale": scale, "OutState": state, "OutAccum": accum},
        moving_rate=0.9,
        bit_length=8,
        is_test=False,
        round_type=1,
    )
    w_qdq, w_scales = _op(
        "fake_channel_wise_quantize_dequantize_abs_max",
        {"X": w},
        {"Out": "float32", "OutScale": "float32"},
        bit_length=8,
        round_type=0,
        quant_axis=1,
    )
    (y,) = _op(
        "matmul_v2", {"X": x_qdq, "Y": w_qdq}, {"Out": "float32"}, trans_x=False, trans_y=False
    )
    y_q, _ = _op(
        "fake_quantize_range_abs_max",
        {"X": y, "InScale": out_scale},
        {"Out": "float32", "OutScale": "float32", "OutScales": "float32"},
        window_size=10000,
        bit_length=8,
        is_test=True,
        round_type=1,
    )[:2]
    x_q, x_abs_scale = _op(
        "fake_quantize_abs_max",
        {"X": x},
        {"Out": "float32", "OutScale": "float32"},
        bit_length=4,
        round_type=0,
    )
    (x_back,) = _op(
        "fake_dequantize_max_abs",
        {"X": x_q, "Scale": x_abs_scale},
        {"Out": "float32"},
        max_range=7.0,
    )
    w_q = _persistable("w_int", [4, 3])
    w_q_scales = _persistable("w_scales", [3])
    (w_back,) = _op(
        "fake_channel_wise_dequantize_max_abs",
        {"X": w_q, "Scales": [w_q_scales]},
        {"Out": "float32"},
        quant_bits=[8],
        quant_axis=1,
        x_num_col_dims=1,
    )
    fetches = [y_q, x_scale, x_back, w_back, w_scales]
    return [x], fetches, {"x": RNG.standard_normal((2, 4)).astype("float32")}


def main() -> None:
    paddle.enable_static()
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    main_program, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main_program, startup):
        feeds, fetches, inputs = build()
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        for name, value in PERSISTABLE.items():
            scope.find_var(name).get_tensor().set(value, paddle.CPUPlace())
        w = RNG.uniform(-0.5, 0.5, (4, 3)).astype("float32")
        scope.find_var("w").get_tensor().set(w, paddle.CPUPlace())
        prefix = str(OUT / "model")
        paddle.static.save_inference_model(prefix, feeds, fetches, exe, program=main_program)
    with paddle.static.scope_guard(paddle.static.Scope()):
        program, feed_names, fetch_targets = paddle.static.load_inference_model(prefix, exe)
        outputs = exe.run(program, feed=inputs, fetch_list=fetch_targets)
    np.savez(OUT / "inputs.npz", **{n: inputs[n] for n in feed_names})
    np.savez(OUT / "outputs.npz", **{f"out{i}": o for i, o in enumerate(outputs)})
    desc = paddle.base.core.ProgramDesc((OUT / "model.pdmodel").read_bytes())
    block = desc.block(0)
    (OUT / "ops.txt").write_text(
        "\n".join(block.op(i).type() for i in range(block.op_size())) + "\n"
    )
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
