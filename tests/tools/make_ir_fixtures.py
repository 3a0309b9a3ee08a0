"""Writes the PIR text/JSON fixtures under tests/data/ir/ with PaddlePaddle 3.3.1.

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_ir_fixtures.py``.
Each program NN_name gets NN_name.txt (``str(program)``), and where PaddlePaddle can serialize it
NN_name.json (readable form of ``serialize_pir_program``). ``attr_types.json`` records the typed
attributes PaddlePaddle itself reports for every op seen (used by tests/tools/check_pd_op_defs.py).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import numpy as np
import paddle
from paddle.base import core, libpaddle

OUT = Path(__file__).resolve().parents[1] / "data" / "ir"
PROGRAMS = []
# the rest are written in the one-line form, as save_inference_model writes it
READABLE_JSON = {"11_mlp", "18_cond", "19_while_loop"}
ATTR_TYPES: dict[str, dict[str, str]] = {}


def program(name, json_ok=True):
    def deco(fn):
        PROGRAMS.append((name, fn, json_ok))
        return fn

    return deco


def data(name, shape, dtype="float32"):
    return paddle.static.data(name, shape, dtype)


@program("01_elementwise_broadcast")
def _p01():
    x, y = data("x", [2, 3, 4]), data("y", [3, 1])
    z = paddle.add(x, y)
    z = paddle.subtract(z, data("w", [4]))
    z = paddle.multiply(z, y)
    z = paddle.divide(z, x)
    paddle.maximum(paddle.minimum(z, x), paddle.pow(x, 2.5))
    x**x


@program("02_matmul_transpose")
def _p02():
    a, b = data("a", [3, 4]), data("b", [5, 4])
    c = paddle.matmul(a, b, transpose_y=True)
    paddle.matmul(c, a, transpose_x=True)
    paddle.matmul(data("v", [-1, 2, 3]), data("m", [3, 2]))


@program("03_activations")
def _p03():
    x = data("x", [2, 3])
    for f in (
        paddle.nn.functional.relu,
        paddle.tanh,
        paddle.nn.functional.sigmoid,
        paddle.exp,
        paddle.log,
        paddle.sqrt,
        paddle.rsqrt,
        paddle.abs,
        paddle.sin,
        paddle.erf,
        paddle.floor,
        paddle.square,
        paddle.nn.functional.silu,
    ):
        x = f(x)
    paddle.nn.functional.gelu(x, approximate=True)
    paddle.nn.functional.leaky_relu(x, 0.1)


@program("04_reductions")
def _p04():
    x = data("x", [2, 3, 4])
    paddle.sum(x)
    paddle.sum(x, axis=[0, 2], keepdim=True)
    paddle.mean(x, axis=1)
    paddle.max(x, axis=-1)
    paddle.min(x)
    paddle.prod(x, axis=0)
    paddle.all(data("b", [3], "bool"))
    paddle.sum(data("i", [3], "int32"), dtype="int64")


@program("05_shape_ops")
def _p05():
    x = data("x", [2, 3, 4])
    r = paddle.reshape(x, [0, -1])
    paddle.transpose(x, [2, 0, 1])
    u = paddle.unsqueeze(x, [0, 2])
    paddle.squeeze(u, [0])
    paddle.flatten(x, 1, 2)
    c = paddle.concat([x, x], axis=1)
    paddle.split(c, [2, 4], axis=1)
    paddle.split(x, 2, axis=0)
    paddle.stack([r, r], axis=0)
    paddle.expand(data("e", [1, 4]), [3, 4])


@program("06_slicing")
def _p06():
    x = data("x", [4, 5, 6])
    x[1:3]
    x[:, 1:, ::2]
    x[0, :, -1]
    paddle.slice(x, axes=[0, 2], starts=[0, 1], ends=[2, 4])
    paddle.strided_slice(x, axes=[1], starts=[0], ends=[5], strides=[2])


@program("07_creation")
def _p07():
    paddle.full([2, 3], 1.5)
    paddle.zeros([4], "int64")
    paddle.ones([], "bool")
    paddle.arange(0, 10, 2, "int64")
    paddle.linspace(0.0, 1.0, 5)
    paddle.full_like(data("x", [2, 2]), 7.0)
    paddle.to_tensor([1, 2, 3]) if False else None
    paddle.assign(np.array([1.5, -2.0, 3.25], "float32"))


@program("08_casts")
def _p08():
    x = data("x", [3])
    for dt in (
        "float64",
        "float16",
        "bfloat16",
        "int8",
        "uint8",
        "int16",
        "int32",
        "int64",
        "bool",
        "complex64",
        "complex128",
        "float8_e4m3fn",
        "float8_e5m2",
    ):
        paddle.cast(x, dt)


@program("09_scale")
def _p09():
    x = data("x", [3], "float32")
    paddle.scale(x, 2.0, 1.0)
    paddle.scale(x, 0.5, -1.0, bias_after_scale=False)
    x - 1.0
    1.0 - x
    data("i", [3], "int64") * 3


@program("10_compare_where_clip")
def _p10():
    x, y = data("x", [3]), data("y", [3])
    m = paddle.less_than(x, y)
    paddle.greater_than(x, y)
    paddle.greater_equal(x, y)
    paddle.equal(x, y)
    paddle.logical_and(m, paddle.logical_not(m))
    paddle.where(m, x, y)
    paddle.clip(x, -1.0, 1.0)


def _mlp():
    x = data("x", [-1, 8])
    h = paddle.nn.functional.relu(paddle.nn.Linear(8, 16)(x))
    return x, paddle.nn.Linear(16, 4)(h)


@program("11_mlp")
def _p11():
    _mlp()


@program("12_conv_pool_bn")
def _p12():
    x = data("x", [2, 3, 8, 8])
    y = paddle.nn.Conv2D(3, 4, 3, padding=1)(x)
    y = paddle.nn.BatchNorm2D(4)(y)
    y = paddle.nn.functional.max_pool2d(y, 2, 2)
    y = paddle.nn.functional.avg_pool2d(y, 2)
    paddle.nn.Conv2D(4, 4, 1, groups=4)(y)


@program("13_layer_norm_no_affine")
def _p13():
    x = data("x", [-1, 3])
    paddle.nn.functional.layer_norm(x, 3)
    paddle.nn.LayerNorm(3)(x)


@program("14_embedding_gather")
def _p14():
    ids = data("ids", [4], "int64")
    e = paddle.nn.Embedding(10, 3, padding_idx=0)(ids)
    paddle.gather(e, data("idx", [2], "int64"), axis=0)
    paddle.index_select(e, data("j", [2], "int64"), axis=1)
    paddle.nn.functional.one_hot(ids, 10)


@program("15_cross_entropy")
def _p15():
    logits, label = data("logits", [4, 10]), data("label", [4, 1], "int64")
    paddle.nn.functional.cross_entropy(logits, label)
    paddle.nn.functional.cross_entropy(logits, label, reduction="sum")


@program("16_sgd_minimize")
def _p16():
    x, out = _mlp()
    loss = paddle.mean(out)
    paddle.optimizer.SGD(0.1).minimize(loss)


@program("17_append_backward")
def _p17():
    x = data("x", [-1, 4])
    x.stop_gradient = False
    w = paddle.create_parameter([4, 8], "float32")
    y = paddle.tanh(paddle.matmul(x, w))
    loss = paddle.mean(y * y)
    paddle.static.append_backward(loss)


@program("18_cond")
def _p18():
    x = data("x", [2, 3])
    p = paddle.mean(x) > 0.0
    paddle.static.nn.cond(p, lambda: paddle.exp(x) * 2.0, lambda: paddle.log(x) + 1.0)


@program("19_while_loop")
def _p19():
    x = data("x", [2, 3])
    i = paddle.full([1], 0, "int64")
    n = paddle.full([1], 5, "int64")
    paddle.static.nn.while_loop(lambda i, x: i < n, lambda i, x: [i + 1, x * 2.0], [i, x])


@program("20_control_flow_backward", json_ok=False)
def _p20():
    x = data("x", [2, 3])
    x.stop_gradient = False
    i = paddle.full([1], 0, "int64")
    n = paddle.full([1], 3, "int64")
    _, y = paddle.static.nn.while_loop(
        lambda i, y: i < n, lambda i, y: [i + 1, paddle.tanh(y)], [i, x]
    )
    paddle.static.append_backward(paddle.mean(y))


@program("21_cond_backward", json_ok=False)
def _p21():
    x = data("x", [2, 3])
    x.stop_gradient = False
    p = paddle.mean(x) > 0.0
    y = paddle.static.nn.cond(p, lambda: paddle.tanh(x), lambda: x * x)
    paddle.static.append_backward(paddle.mean(y))


@program("22_attribute_zoo")
def _p22():
    paddle.full([1], float("inf"))
    paddle.full([1], float("-inf"))
    paddle.full([1], float("nan"))
    paddle.full([1], 1e-07)
    paddle.full([1], 123456789.0, "float64")
    paddle.full([1], 9007199254740993, "int64")
    paddle.full([2], 2147483647, "int64")
    paddle.full([1], 3.4028234663852886e38)
    paddle.full([1], True, "bool")
    paddle.assign(np.array([1, 0], "bool"))
    paddle.assign(np.array([[1, 2], [3, 4]], "int64"))
    paddle.assign(np.array([0.1, -0.654653670707977], "float64"))
    paddle.nn.functional.dropout(data("x", [3]), 0.5, training=False)


@program("23_topk_argmax_cumsum")
def _p23():
    x = data("x", [3, 5])
    paddle.topk(x, 2)
    paddle.argmax(x, axis=1)
    paddle.cumsum(x, axis=1)
    paddle.nn.functional.softmax(x)
    paddle.nn.functional.log_softmax(x, axis=0)
    paddle.tril(x, -1)


@program("24_initializers_startup")
def _p24():
    paddle.create_parameter(
        [3, 4], "float32", default_initializer=paddle.nn.initializer.Normal(0.0, 0.272166)
    )
    paddle.create_parameter(
        [4], "float32", default_initializer=paddle.nn.initializer.Uniform(-0.5, 0.5)
    )
    paddle.create_parameter([2], "float64", default_initializer=paddle.nn.initializer.Constant(3.0))


@program("25_interp_add_n")
def _p25():
    x = data("x", [1, 2, 4, 4])
    paddle.nn.functional.interpolate(x, scale_factor=2, mode="nearest")
    paddle.add_n([x, x, x])


@program("26_batch_norm_test")
def _p26():
    x = data("x", [2, 3, 4, 4])
    bn = paddle.nn.BatchNorm2D(3, use_global_stats=True)
    bn.eval()
    bn(x)


@program("27_mixed_dtypes")
def _p27():
    x = data("x", [-1, -1], "float64")
    y = paddle.cast(x, "float16")
    paddle.cast(y, "int32")
    paddle.logical_not(data("b", [2], "bool"))
    data("c", [2], "complex64")
    data("u", [2], "uint8")


@program("28_tensor_array")
def _p28():
    x = data("x", [2, 3])
    arr = paddle.tensor.create_array("float32")
    i = paddle.zeros([1], "int64")
    paddle.tensor.array_write(x, i, arr)
    paddle.tensor.array_read(arr, i)
    paddle.tensor.array_length(arr)


@program("29_sgd_mse")
def _p29():
    x, y = data("x", [-1, 3]), data("y", [-1, 1])
    pred = paddle.nn.Linear(3, 1)(x)
    loss = paddle.nn.functional.mse_loss(pred, y)
    paddle.optimizer.SGD(0.05).minimize(loss)


@program("30_empty_and_zero_size")
def _p30():
    paddle.full([0], 1.0)
    paddle.to_tensor(np.zeros([0], "int64")) if False else None
    paddle.reshape(data("x", [2, 3]), []) if False else None
    x = data("x", [6])
    paddle.reshape(x, [2, 3])
    paddle.sum(x, axis=[])


def dump_attr_types(prog):
    def walk(block):
        for op in block.ops:
            name = op.name()
            entry = ATTR_TYPES.setdefault(name, {})
            try:
                attrs = json.loads(libpaddle.pir.get_attrs_map_json(op))
            except Exception:
                attrs = {}
            for item in attrs:
                key, typed = item["N"], item["AT"]
                if key == "op_callstack":
                    continue
                tag = typed["#"]
                if tag == "0.a_array" and typed.get("D"):
                    tag += "<" + typed["D"][0]["#"] + ">"
                if tag != "0.a_array" or key not in entry:
                    entry[key] = tag
            for b in op.blocks():
                walk(b)

    walk(prog.global_block())


def write(name, prog, json_ok, suffix=""):
    (OUT / f"{name}{suffix}.txt").write_text(str(prog), encoding="utf-8")
    if json_ok:
        readable = name in READABLE_JSON
        core.serialize_pir_program(prog, str(OUT / f"{name}{suffix}.json"), True, readable, True)
    dump_attr_types(prog)


def record_json_prints() -> None:
    """Where PaddlePaddle prints a program loaded from its .json differently from the original
    (block-argument attributes are not stored), keep what it prints as NN.from_json.txt."""
    for path in sorted(OUT.glob("*.json")):
        if path.name == "attr_types.json":
            continue
        loaded = paddle.static.Program()
        try:
            core.deserialize_pir_program(str(path), loaded, -1)
        except Exception as error:  # PaddlePaddle cannot read some of its own files
            print(
                f"{path.name}: PaddlePaddle cannot load it: {error}".splitlines()[0],
                file=sys.stderr,
            )
            continue
        if str(loaded) != path.with_suffix(".txt").read_text(encoding="utf-8"):
            path.with_suffix(".from_json.txt").write_text(str(loaded), encoding="utf-8")


def record_op_strings() -> None:
    """`str(op)` and `repr(value)` of every top-level op of a small program, as PaddlePaddle
    prints them, with the program's text."""
    main_p = paddle.static.Program()
    with paddle.static.program_guard(main_p, paddle.static.Program()):
        x = data("x", [2, 3])
        paddle.sum(x, axis=0)
        paddle.static.nn.cond(paddle.mean(x) > 0, lambda: x + 1.0, lambda: x - 1.0)
    ops = main_p.global_block().ops
    record = {
        "program": str(main_p),
        "block": str(main_p.global_block()),
        "ops": [str(op) for op in ops],
        "values": [[repr(v) for v in op.results()] for op in ops],
        "types": [[str(v.type()) for v in op.results()] for op in ops],
    }
    (OUT / "op_strings.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    paddle.enable_static()
    paddle.seed(1)
    for name, fn, json_ok in PROGRAMS:
        main_p, start_p = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main_p, start_p):
            fn()
        write(name, main_p, json_ok)
        if name in ("11_mlp", "24_initializers_startup"):
            write(name, start_p, True, "_startup")
    # FLAGS_print_ir variant
    main_p = paddle.static.Program()
    with paddle.static.program_guard(main_p, paddle.static.Program()):
        _p09()
    paddle.set_flags({"FLAGS_print_ir": True})
    (OUT / "31_print_ir_ids.txt").write_text(str(main_p), encoding="utf-8")
    paddle.set_flags({"FLAGS_print_ir": False})
    # save_inference_model and jit.save: the one-line JSON as PaddlePaddle writes it
    with tempfile.TemporaryDirectory() as tmp:
        main_p, start_p = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main_p, start_p):
            x, out = _mlp()
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(start_p)
        prefix = os.path.join(tmp, "inf")
        paddle.static.save_inference_model(prefix, [x], [out], exe, program=main_p)
        (OUT / "32_save_inference_model.json").write_bytes(Path(prefix + ".json").read_bytes())
        loaded, _, _ = paddle.static.load_inference_model(prefix, exe)
        (OUT / "32_save_inference_model.txt").write_text(str(loaded), encoding="utf-8")
        dump_attr_types(loaded)

        paddle.disable_static()
        layer = paddle.nn.Sequential(paddle.nn.Linear(4, 3), paddle.nn.Tanh())
        static_layer = paddle.jit.to_static(
            layer, input_spec=[paddle.static.InputSpec([-1, 4], "float32", "x")], full_graph=True
        )
        jprefix = os.path.join(tmp, "jit")
        paddle.jit.save(static_layer, jprefix)
        (OUT / "33_jit_save.json").write_bytes(Path(jprefix + ".json").read_bytes())
        paddle.enable_static()
        loaded, _, _ = paddle.static.load_inference_model(jprefix, exe)
        (OUT / "33_jit_save.txt").write_text(str(loaded), encoding="utf-8")
        dump_attr_types(loaded)
    (OUT / "attr_types.json").write_text(
        json.dumps({k: dict(sorted(v.items())) for k, v in sorted(ATTR_TYPES.items())}, indent=1)
        + "\n",
        encoding="utf-8",
    )
    record_json_prints()
    record_op_strings()
    print(f"wrote {len(list(OUT.glob('*.txt')))} programs to {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
