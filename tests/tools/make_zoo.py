"""Writes the model zoo with PaddlePaddle 3.3.1: the models of ``tests/tools/zoo_models.py``,
each saved by ``paddle.jit.save`` in PIR form and in legacy form, with PaddlePaddle's outputs.

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_zoo.py`` writes every
model (small ones under ``tests/data/zoo/``, big ones in the cache directory) and the manifest;
``make zoo`` runs ``make_zoo.py --big``, which writes only the big ones, into the cache directory
(``$PHIOPS_ZOO_DIR``, else ``~/.cache/phiops/zoo``). ``--only NAME,...`` limits the models.

For each model, its folder ``NAME/`` holds:

- ``pir/model.json`` + ``pir/model.pdiparams``: ``paddle.jit.save`` in this (PIR) process;
- ``legacy/model.pdmodel`` + ``legacy/model.pdiparams``: ``paddle.jit.save`` in a second
  process started with ``FLAGS_enable_pir_api=0`` (PaddlePaddle 3.3.1 writes a ProgramDesc
  there), the layer rebuilt with the same weights (a ``paddle.save`` state dict passed over);
- ``inputs_0.npz``, ``inputs_1.npz``: the feeds at the model's two input sizes (its dynamic
  extents, the batch and for NLP/OCR the sequence, take different values);
- ``outputs_pir_K.npz``, ``outputs_legacy_K.npz``: what PaddlePaddle's
  ``paddle.static.load_inference_model`` + ``Executor`` give for ``inputs_K`` from each form
  (``out0``, ``out1``... in fetch order).

Weights are seeded (``paddle.seed`` and a numpy generator per model): the default initialisers,
then every batch-norm statistic, batch-norm affine parameter and bias drawn again so that none
is trivial. Models whose two forms together exceed ``SMALL_BYTES`` are big. The manifest
(``tests/data/zoo/manifest.json``) lists every model, big, small and pending, with its task,
inputs, sizes, location (``committed`` or ``cache``) and, for a model whose op phiops lacks,
``pending``: the ops it waits for. The script runs itself with ``PYTHONHASHSEED=0`` so that a rerun writes
the same files.
"""

from __future__ import annotations

import os
import sys

if os.environ.get("PYTHONHASHSEED") != "0":
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable, *sys.argv])

if "--worker=legacy" in sys.argv:
    os.environ["FLAGS_enable_pir_api"] = "0"

import argparse  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import zlib  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import paddle  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from zoo_models import ZOO, ZooModel  # noqa: E402

COMMITTED = Path(__file__).resolve().parents[1] / "data" / "zoo"
MANIFEST = COMMITTED / "manifest.json"
SMALL_BYTES = 2 * 1024 * 1024


def cache_dir() -> Path:
    return Path(os.environ.get("PHIOPS_ZOO_DIR") or Path.home() / ".cache" / "phiops" / "zoo")


def _seed(name: str) -> int:
    return zlib.crc32(name.encode())


def build(model: ZooModel) -> paddle.nn.Layer:
    paddle.seed(_seed(model.name))
    layer = model.build()
    rng = np.random.default_rng(_seed(model.name))
    for name, tensor in list(layer.named_parameters()) + list(layer.named_buffers()):
        shape = tensor.shape
        if name.endswith("_variance"):
            value = rng.uniform(0.5, 1.5, shape)
        elif name.endswith("_mean") or name.endswith("bias"):
            value = rng.normal(0.0, 0.2, shape)
        elif len(shape) == 1 and name.endswith("weight"):  # a norm's scale
            value = rng.uniform(0.5, 1.5, shape)
        else:
            continue
        tensor.set_value(value.astype(tensor.numpy().dtype))
    layer.eval()
    return layer


def input_spec(model: ZooModel) -> list:
    return [
        paddle.static.InputSpec([-1 if d is None else d for d in i.shape], i.dtype, i.name)
        for i in model.inputs
    ]


def make_inputs(model: ZooModel, k: int) -> dict:
    rng = np.random.default_rng(_seed(model.name) + k)
    feeds = {}
    for spec in model.inputs:
        shape = spec.sizes[k]
        kind, _, arg = spec.values.partition(":")
        if kind == "normal":
            value = rng.standard_normal(shape)
        elif kind == "ids":
            value = rng.integers(1, int(arg), shape)
        elif kind == "mask":
            lengths = rng.integers(shape[1] // 2, shape[1] + 1, shape[0])
            value = (np.arange(shape[1])[None, :] < lengths[:, None]).astype("int64")
        elif kind == "const":
            row = np.array([float(v) for v in arg.split(",")])
            value = np.broadcast_to(row, shape)
        else:
            raise ValueError(f"{model.name}: unknown input values {spec.values!r}")
        feeds[spec.name] = np.ascontiguousarray(value).astype(spec.dtype)
    return feeds


def run_saved(prefix: str, feeds: dict) -> dict:
    paddle.enable_static()
    try:
        exe = paddle.static.Executor(paddle.CPUPlace())
        with paddle.static.scope_guard(paddle.static.Scope()):
            program, feed_names, fetch_targets = paddle.static.load_inference_model(prefix, exe)
            outs = exe.run(
                program, feed={n: feeds[n] for n in feed_names}, fetch_list=fetch_targets
            )
    finally:
        paddle.disable_static()
    return {f"out{i}": np.asarray(o) for i, o in enumerate(outs)}


def _initialise_dropout_states(layer: paddle.nn.Layer) -> None:
    """In legacy mode an RNN layer's ``dropout_state`` buffer is a tensor without storage, which
    ``paddle.jit.save`` cannot trace (``Unknown place type: Place(undefined:0)``): it becomes an
    empty uint8 CPU tensor of the same (non-persistable) name."""
    for sub in layer.sublayers(include_self=True):
        state = getattr(sub, "_dropout_state", None)
        if state is not None and not state._is_initialized():
            fresh = paddle.to_tensor(np.zeros([0], "uint8"), place=paddle.CPUPlace())
            fresh.name = state.name
            fresh.stop_gradient = True
            sub._dropout_state = fresh


def export(model: ZooModel, folder: Path, form: str, state: Path) -> None:
    layer = build(model)
    if form == "legacy":
        layer.set_state_dict(paddle.load(str(state)))
        _initialise_dropout_states(layer)
    else:
        paddle.save(layer.state_dict(), str(state))
    (folder / form).mkdir(parents=True, exist_ok=True)
    static = paddle.jit.to_static(layer, input_spec=input_spec(model), full_graph=True)
    paddle.jit.save(static, str(folder / form / "model"))
    for k in range(2):
        feeds = dict(np.load(folder / f"inputs_{k}.npz"))
        np.savez(
            folder / f"outputs_{form}_{k}.npz", **run_saved(str(folder / form / "model"), feeds)
        )


def _legacy_static_ops() -> None:
    """PaddlePaddle 3.3.1 binds ``paddle.matmul``, ``F.gelu``, ``tanh``, ``sigmoid``, ``triu``... to
    ``_C_ops`` functions that take PIR values only, so a layer using them cannot be traced in
    legacy mode (``matmul(): argument (position 1) must be Value, but got Variable``). In the
    legacy worker they are wrapped: in legacy static mode they append the legacy op PaddlePaddle
    2.x's layers wrote (``matmul_v2``, ``gelu``, ``tanh``, ``sigmoid``, ``tril_triu``)."""
    from paddle.base.layer_helper import LayerHelper
    from paddle.framework import in_dynamic_or_pir_mode

    def legacy(op_type, inputs, attrs):
        helper = LayerHelper(op_type)
        out = helper.create_variable_for_type_inference(inputs["X"].dtype)
        helper.append_op(
            type=op_type,
            inputs={k: [v] for k, v in inputs.items()},
            outputs={"Out": [out]},
            attrs=attrs,
        )
        return out

    def matmul(x, y, transpose_x=False, transpose_y=False, name=None):
        return legacy(
            "matmul_v2", {"X": x, "Y": y}, {"trans_x": transpose_x, "trans_y": transpose_y}
        )

    def gelu(x, approximate=False, name=None):
        return legacy("gelu", {"X": x}, {"approximate": approximate})

    def tanh(x, name=None):
        return legacy("tanh", {"X": x}, {})

    def sigmoid(x, name=None):
        return legacy("sigmoid", {"X": x}, {})

    def triu(x, diagonal=0, name=None):
        return legacy("tril_triu", {"X": x}, {"diagonal": diagonal, "lower": False})

    for replacement in (matmul, gelu, tanh, sigmoid, triu):
        name = replacement.__name__
        patch = sys.modules["paddle.base.dygraph.generated_tensor_methods_patch"]
        originals = {
            id(getattr(source, attr, None))
            for source, attr in (
                (paddle._C_ops, name),
                (paddle, name),
                (paddle.nn.functional, name),
                (patch, "_" + name),
            )
        } - {id(None)}
        for module in list(sys.modules.values()):
            original = (
                getattr(module, name, None)
                if module and module.__name__.startswith("paddle")
                else None
            )
            if original is None or id(original) not in originals or module is paddle._C_ops:
                continue

            def wrapped(*args, _original=original, _replacement=replacement, **kwargs):
                if in_dynamic_or_pir_mode():
                    return _original(*args, **kwargs)
                return _replacement(*args, **kwargs)

            setattr(module, name, wrapped)


def worker(form: str, name: str, staging: Path) -> None:
    """One form of one model, in a process of its own: PaddlePaddle's dy2static state left by
    one model can break the next one's export (a GRU after an LSTM fails in pool2d)."""
    if form == "legacy":
        _legacy_static_ops()
    (model,) = [m for m in ZOO if m.name == name]
    export(model, staging / name, form, staging / f"{name}.pdparams")


def check_forms_agree(model: ZooModel, folder: Path) -> None:
    """Both forms hold the same weights: PaddlePaddle's outputs for them must agree."""
    for k in range(2):
        pir, legacy = np.load(folder / f"outputs_pir_{k}.npz"), np.load(
            folder / f"outputs_legacy_{k}.npz"
        )
        for key in pir.files:
            scale = float(np.abs(pir[key]).max()) if pir[key].size else 0.0
            np.testing.assert_allclose(
                legacy[key],
                pir[key],
                rtol=1e-4,
                atol=1e-4 * scale,
                err_msg=f"{model.name}: legacy and PIR forms disagree",
            )


def manifest_entry(model: ZooModel, folder: Path | None, location: str) -> dict:
    entry = {
        "name": model.name,
        "task": model.task,
        "location": location,
        "inputs": [
            {
                "name": i.name,
                "shape": list(i.shape),
                "dtype": i.dtype,
                "sizes": [list(s) for s in i.sizes],
            }
            for i in model.inputs
        ],
        "forms": ["pir", "legacy"],
    }
    if model.postprocess:
        entry["postprocess"] = model.postprocess
    if model.pending:
        entry["pending"] = list(model.pending)
    if folder is not None:
        files = sorted(p for p in folder.rglob("*") if p.is_file())
        entry["bytes"] = sum(p.stat().st_size for p in files if p.parent.name in ("pir", "legacy"))
        entry["outputs"] = len(np.load(folder / "outputs_pir_0.npz").files)
        entry["sha256"] = {
            str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in files
            if p.parent.name in ("pir", "legacy")
        }
    return entry


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--big", action="store_true", help="only the big models, into the cache")
    parser.add_argument("--only", default="", help="comma-separated model names")
    parser.add_argument("--worker", choices=["pir", "legacy"], help=argparse.SUPPRESS)
    parser.add_argument("--staging", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.only, Path(args.staging))
        return

    previous = json.loads(MANIFEST.read_text()) if MANIFEST.exists() else {"models": []}
    known = {m["name"]: m for m in previous["models"]}
    names = [m.name for m in ZOO]
    if args.only:
        names = args.only.split(",")
    if args.big:
        names = [n for n in names if known.get(n, {}).get("location") == "cache"]
        if not names:
            sys.exit("make_zoo.py --big: the manifest lists no big model; run make_zoo.py first")
    models = [m for m in ZOO if m.name in names]

    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        staging = Path(tmp)
        for model in models:
            folder = staging / model.name
            folder.mkdir()
            for k in range(2):
                np.savez(folder / f"inputs_{k}.npz", **make_inputs(model, k))
            try:
                for form in ("pir", "legacy"):
                    subprocess.run(
                        [
                            sys.executable,
                            __file__,
                            f"--worker={form}",
                            "--only",
                            model.name,
                            "--staging",
                            tmp,
                        ],
                        check=True,
                    )
                check_forms_agree(model, folder)
            except (subprocess.CalledProcessError, AssertionError) as error:
                print(f"{model.name}: FAILED ({error})", flush=True)
                failed.append(model.name)
                continue
            size = sum(
                p.stat().st_size for form in ("pir", "legacy") for p in (folder / form).iterdir()
            )
            location = "committed" if size <= SMALL_BYTES else "cache"
            if args.big and location != "cache":
                sys.exit(
                    f"{model.name} is no longer big ({size} bytes): rerun make_zoo.py without --big"
                )
            target = (COMMITTED if location == "committed" else cache_dir()) / model.name
            shutil.rmtree(target, ignore_errors=True)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copytree(folder, target)
            known[model.name] = manifest_entry(model, target, location)
            print(f"{model.name}: {location} ({size} bytes)", flush=True)

    if not args.big:
        ordered = [known[m.name] for m in ZOO if m.name in known]
        MANIFEST.parent.mkdir(parents=True, exist_ok=True)
        MANIFEST.write_text(
            json.dumps(
                {"paddle": paddle.__version__, "small_bytes": SMALL_BYTES, "models": ordered},
                indent=1,
            )
            + "\n"
        )
    if failed:
        sys.exit(f"make_zoo.py: {len(failed)} model(s) failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
