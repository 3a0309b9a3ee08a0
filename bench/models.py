"""Whole models: phiops's executor (inference passes on and off) against PaddlePaddle 3.3.1's
``paddle.inference`` Predictor (default CPU config) and onnxruntime (the model converted with
paddle2onnx), on paddle.vision's CNNs with seeded weights, in one process; and the GFLOP/s each
reaches against this CPU's single-precision GEMM rate (numpy float32 1024^3 matmul), the floor.

Run it with the side venv's python (PaddlePaddle, onnxruntime and paddle2onnx installed there)
and phiops on the path, with OpenBLAS's core-type overrides unset (on this machine they halve
numpy's GEMM speed)::

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE PYTHONPATH=$PWD \\
        /work/paddle-venv/bin/python bench/models.py [--size 64] [--repeat 10] [MODEL ...]

The models are exported by this script (``paddle.jit.save``, seeded weights, no downloads) and
converted once into ``--cache`` (default ``$XDG_CACHE_HOME/phiops-bench``, else
``~/.cache/phiops-bench``). Each figure is the median wall time of ``--repeat`` runs after two
warm-up runs, the runtimes taking turns run by run (in a rotating order) so that a change in the machine's
load touches them alike; onnxruntime's threads do not spin between runs. Each run is timed in wall
time and in CPU time of the process (all its threads): on a machine other processes load, the
CPU time is the steadier measure of a runtime's cost. Outputs are compared with the Predictor's (largest difference relative to
the output's largest magnitude). Not a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

MODELS = (
    "resnet18",
    "resnet50",
    "mobilenet_v2",
    "mobilenet_v3_small",
    "shufflenet_v2_x1_0",
    "densenet121",
    "squeezenet1_1",
    "vgg11",
)


def gemm_rate() -> tuple[float, float]:
    """numpy's float32 1024x1024 @ 1024x1024: GFLOP per wall second and per CPU second of this
    process (all its threads), each the best of 7."""
    a = np.random.default_rng(0).standard_normal((1024, 1024), dtype=np.float32)
    b = np.random.default_rng(1).standard_normal((1024, 1024), dtype=np.float32)
    a @ b
    timings = [_seconds(lambda: a @ b) for _ in range(7)]
    flop = 2 * 1024**3
    return flop / min(w for w, _ in timings) / 1e9, flop / min(c for _, c in timings) / 1e9


def _seconds(fn: Callable[[], Any]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) of one call."""
    start, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - start, time.process_time() - cpu


def export(name: str, size: int, cache: Path) -> tuple[Path, float]:
    """``cache/name_size/model`` (.json, .pdiparams) exported with seeded weights, and the
    model's GFLOP per run (2 x the multiply-adds of its convolutions and linear layers)."""
    import paddle

    folder = cache / f"{name}_{size}"
    prefix = folder / "model"
    flops_file = folder / "gflop.txt"
    if not prefix.with_suffix(".json").exists() or not flops_file.exists():
        paddle.seed(2026)
        model = getattr(paddle.vision.models, name)(pretrained=False)
        model.eval()
        spec = [paddle.static.InputSpec([1, 3, size, size], "float32", "x")]
        folder.mkdir(parents=True, exist_ok=True)
        paddle.jit.save(model, str(prefix), input_spec=spec)
        flops_file.write_text(f"{2 * multiply_adds(model, size) / 1e9}\n")
    return prefix, float(flops_file.read_text())


def multiply_adds(model: Any, size: int) -> int:
    """The multiply-adds of the model's convolutions and linear layers on one 3 x size x size
    image (paddle.flops fails on some of these models in 3.3.1)."""
    import paddle

    total = [0]

    def conv(layer: Any, inputs: Any, output: Any) -> None:
        kernel = int(np.prod(layer.weight.shape[1:]))  # in_channels / groups * kh * kw
        total[0] += int(np.prod(output.shape)) * kernel

    def linear(layer: Any, inputs: Any, output: Any) -> None:
        total[0] += int(np.prod(output.shape)) * int(layer.weight.shape[0])

    hooks = []
    for layer in model.sublayers():
        if isinstance(layer, paddle.nn.Conv2D):
            hooks.append(layer.register_forward_post_hook(conv))
        elif isinstance(layer, paddle.nn.Linear):
            hooks.append(layer.register_forward_post_hook(linear))
    with paddle.no_grad():
        model(paddle.zeros([1, 3, size, size]))
    for hook in hooks:
        hook.remove()
    return total[0]


def onnx_file(prefix: Path, target: Path | None = None) -> Path | None:
    """The model converted by paddle2onnx (once, into ``target``, by default next to the
    model), or None when the conversion fails."""
    target = target or prefix.with_suffix(".onnx")
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.exists():
        # in a child process: paddle2onnx exits the process on some models it cannot convert
        script = (
            "import sys, paddle2onnx\n"
            "paddle2onnx.export(sys.argv[1], sys.argv[2], sys.argv[3], opset_version=13,\n"
            # the model as converted: the default tool, polygraphy, pip-installs packages of
            # its own; onnxruntime optimises the graph when it loads it
            "                   optimize_tool='none')\n"
        )
        import subprocess

        done = subprocess.run(
            [sys.executable, "-c", script, str(prefix.with_suffix(".json")),
             str(prefix.with_suffix(".pdiparams")), str(target)],
            capture_output=True, text=True,
        )  # fmt: skip
        if done.returncode != 0 or not target.exists():
            print(f"  paddle2onnx failed (exit {done.returncode})", file=sys.stderr)
            return None
    return target if target.exists() else None


def runners(
    prefix: Path, feeds: dict[str, np.ndarray], onnx_target: Path | None = None
) -> dict[str, Callable[[], np.ndarray]]:
    """name -> a function running the model once on ``feeds`` (input name -> array) and
    returning its first output."""
    import paddle.inference as paddle_infer

    import phiops  # noqa: F401  (registers phiops's ops)
    from phiops.runtime import flags
    from phiops.runtime.static import Executor, Scope, load_inference_model

    found: dict[str, Callable[[], np.ndarray]] = {}
    config = paddle_infer.Config(
        str(prefix.with_suffix(".json")), str(prefix.with_suffix(".pdiparams"))
    )
    config.disable_glog_info()
    predictor = paddle_infer.create_predictor(config)
    input_handles = {name: predictor.get_input_handle(name) for name in predictor.get_input_names()}
    output_handle = predictor.get_output_handle(predictor.get_output_names()[0])

    def run_predictor() -> np.ndarray:
        for name, handle in input_handles.items():
            handle.copy_from_cpu(feeds[name])
        predictor.run()
        return output_handle.copy_to_cpu()

    found["predictor"] = run_predictor
    onnx_path = onnx_file(prefix, onnx_target)
    if onnx_path is not None:
        import onnxruntime

        options = onnxruntime.SessionOptions()
        # its idle threads would otherwise spin after each run, taking a core from the runtime
        # timed next in this process
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            session = onnxruntime.InferenceSession(
                str(onnx_path), options, providers=["CPUExecutionProvider"]
            )
        except Exception as error:  # a conversion onnxruntime refuses: no onnxruntime column
            print(f"  onnxruntime cannot load the converted model: {error}", file=sys.stderr)
        else:
            names = [i.name for i in session.get_inputs()]
            onnx_feeds = {name: feeds[name] for name in names}
            found["onnxruntime"] = lambda: session.run(None, onnx_feeds)[0]
    for label, passes in (("phiops", None), ("phiops_nopass", "")):
        scope, executor = Scope(), Executor()
        program, feed_names, fetches = load_inference_model(str(prefix), executor, scope=scope)
        feed = {name: feeds[name] for name in feed_names}

        def run_phiops(
            program=program,
            feed=feed,
            fetches=fetches,
            scope=scope,
            executor=executor,
            passes=passes,
        ) -> np.ndarray:
            if passes is None:
                return executor.run(program, feed, fetches, scope)[0]
            with flags.flags_guard({"inference_passes": passes}):
                return executor.run(program, feed, fetches, scope)[0]

        found[label] = run_phiops
    return found


def bench_model(name: str, size: int, repeat: int, cache: Path) -> dict[str, Any]:
    prefix, gflop = export(name, size, cache)
    x = np.random.default_rng(7).standard_normal((1, 3, size, size), dtype=np.float32)
    return measure(name, gflop, runners(prefix, {"x": x}), repeat)


ZOO_COMMITTED = Path(__file__).resolve().parent.parent / "tests" / "data" / "zoo"


def zoo_entries(zoo_cache: Path) -> list[tuple[str, Path | None]]:
    """(name, folder) of every model of the zoo's manifest, the folder None when the model is
    neither committed nor in ``zoo_cache`` (make zoo writes it there)."""
    import json

    manifest = json.loads((ZOO_COMMITTED / "manifest.json").read_text())
    entries = []
    for model in manifest["models"]:
        folder = ZOO_COMMITTED / model["name"]
        if model["location"] != "committed":
            folder = zoo_cache / model["name"]
        ready = (folder / "pir" / "model.json").exists() and (folder / "inputs_0.npz").exists()
        entries.append((model["name"], folder if ready else None))
    return entries


def bench_zoo_model(name: str, folder: Path, repeat: int, cache: Path) -> dict[str, Any]:
    """A zoo model in its PIR form on its first recorded inputs (batch 1); its GFLOP is not
    counted (nan)."""
    with np.load(folder / "inputs_0.npz") as data:
        feeds = {key: data[key] for key in data.files}
    fns = runners(folder / "pir" / "model", feeds, cache / "zoo" / name / "model.onnx")
    return measure(name, float("nan"), fns, repeat)


def measure(
    name: str, gflop: float, fns: dict[str, Callable[[], np.ndarray]], repeat: int
) -> dict[str, Any]:
    """Each runner's median wall and CPU time over ``repeat`` runs, taken in turns, and its
    first output's largest difference from the Predictor's relative to the output's scale."""
    reference = fns["predictor"]()
    scale = float(np.abs(reference).max()) or 1.0
    errors = {}
    for label, fn in fns.items():
        fn()  # warm up: phiops plans (and runs the passes) here
        out = fn()
        errors[label] = float(np.abs(np.asarray(out) - reference).max()) / scale
    times: dict[str, list[tuple[float, float]]] = {label: [] for label in fns}
    order = list(fns)
    for turn in range(repeat):
        for label in order[turn % len(order) :] + order[: turn % len(order)]:
            times[label].append(_seconds(fns[label]))
    wall = {label: statistics.median(w for w, _ in values) for label, values in times.items()}
    cpu = {label: statistics.median(c for _, c in values) for label, values in times.items()}
    return {"name": name, "gflop": gflop, "median": wall, "cpu": cpu, "error": errors}


LABELS = ("phiops", "phiops_nopass", "predictor", "onnxruntime")


def table(rows: list[dict[str, Any]], rates: tuple[float, float], title: str) -> str:
    """The markdown table: per model and runtime, median wall ms / median CPU ms (all threads
    of the process) and the GFLOP per CPU second as a share of numpy's GEMM's; the ratios of
    phiops (passes on) to the Predictor and onnxruntime, in wall and in CPU time."""
    lines = [
        f"{title}; each cell: median wall ms / median CPU ms (the process's "
        f"CPU time, all threads) / GFLOP per CPU second as % of numpy's float32 GEMM "
        f"({rates[1]:.1f} GFLOP per CPU second; {rates[0]:.1f} GFLOP/s wall)",
        "",
        "| model | GFLOP | phiops | phiops, no passes | Predictor | onnxruntime "
        "| phiops / Predictor (wall, CPU) | phiops / onnxruntime (wall, CPU) | max rel. diff |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        cells = []
        for label in LABELS:
            wall, cpu = row["median"].get(label), row["cpu"].get(label)
            if wall is None:
                cells.append("n/a")
                continue
            share = 100 * row["gflop"] / cpu / rates[1] if cpu > 0 else float("nan")
            shown = "n/a" if share != share else f"{share:.0f}%"
            cells.append(f"{wall * 1e3:.1f} / {cpu * 1e3:.1f} / {shown}")
        ratios = []
        for other in ("predictor", "onnxruntime"):
            if other not in row["median"]:
                ratios.append("n/a")
                continue
            ratios.append(
                f"{row['median']['phiops'] / row['median'][other]:.2f}, "
                f"{row['cpu']['phiops'] / row['cpu'][other]:.2f}"
            )
        gflop = "n/a" if row["gflop"] != row["gflop"] else f"{row['gflop']:.3f}"
        lines.append(
            f"| {row['name']} | {gflop} | "
            + " | ".join(cells)
            + " | "
            + " | ".join(ratios)
            + f" | {row['error']['phiops']:.1e} |"
        )
    lines.append("")
    for kind in ("median", "cpu"):
        to_p = [r[kind]["phiops"] / r[kind]["predictor"] for r in rows]
        to_o = [
            r[kind]["phiops"] / r[kind]["onnxruntime"] for r in rows if "onnxruntime" in r[kind]
        ]
        passes = [r[kind]["phiops_nopass"] / r[kind]["phiops"] for r in rows]
        lines.append(
            f"{'wall' if kind == 'median' else 'CPU'} time: median phiops/Predictor "
            f"{statistics.median(to_p):.2f}, median phiops/onnxruntime "
            f"{statistics.median(to_o):.2f} (worst {max(to_o):.2f}), median speed-up of the "
            f"passes {statistics.median(passes):.2f}x"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    cli.add_argument("models", nargs="*", default=list(MODELS), help=f"of {', '.join(MODELS)}")
    cli.add_argument("--size", type=int, default=64, help="input height and width (64)")
    cli.add_argument("--repeat", type=int, default=10, help="timed runs per runtime (10)")
    default_cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "phiops-bench"
    cli.add_argument("--cache", type=Path, default=default_cache, help="exported models")
    cli.add_argument(
        "--zoo",
        action="store_true",
        help="time the model zoo's models (docs/zoo.md; the committed ones and those `make zoo` "
        "wrote into PHIOPS_ZOO_DIR, else ~/.cache/phiops/zoo) in their PIR form, in place of "
        "paddle.vision's CNNs; MODEL names pick some of them",
    )
    options = cli.parse_args(argv)
    if options.zoo:
        zoo_cache = Path(
            os.environ.get("PHIOPS_ZOO_DIR", Path.home() / ".cache" / "phiops" / "zoo")
        )
        entries = zoo_entries(zoo_cache)
        if options.models == list(MODELS):  # none named: the whole zoo
            chosen = entries
        else:
            known = {name for name, _ in entries}
            unknown = [m for m in options.models if m not in known]
            if unknown:
                cli.error(f"unknown zoo model(s) {unknown}; the zoo has {sorted(known)}")
            chosen = [entry for entry in entries if entry[0] in options.models]
        missing = [name for name, folder in chosen if folder is None]
        if missing:
            print(f"not in {zoo_cache} (run make zoo): {', '.join(missing)}", file=sys.stderr)
        jobs = [
            (name, lambda n=name, f=folder: bench_zoo_model(n, f, options.repeat, options.cache))
            for name, folder in chosen
            if folder is not None
        ]
        title = "the model zoo's models (PIR form, batch 1, their recorded inputs)"
    else:
        unknown = [m for m in options.models if m not in MODELS]
        if unknown:
            cli.error(f"unknown model(s) {unknown}; the models are {list(MODELS)}")
        jobs = [
            (name, lambda n=name: bench_model(n, options.size, options.repeat, options.cache))
            for name in options.models
        ]
        title = f"1x3x{options.size}x{options.size} float32"
    for variable in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        if variable in os.environ:
            print(f"warning: {variable} is set (run with env -u {variable})", file=sys.stderr)
    rates = gemm_rate()
    print(
        f"numpy float32 GEMM 1024^3: {rates[0]:.1f} GFLOP/s wall, {rates[1]:.1f} GFLOP per CPU "
        f"second; load average {os.getloadavg()}"
    )
    rows = []
    for name, job in jobs:
        try:
            row = job()
        except Exception as error:  # a model one runtime cannot run: say so and go on
            print(f"{name}: {type(error).__name__}: {error}", file=sys.stderr, flush=True)
            continue
        rows.append(row)
        print(
            name,
            {k: f"{v * 1e3:.1f} ms" for k, v in row["median"].items()},
            {k: f"{v * 1e3:.1f} ms CPU" for k, v in row["cpu"].items()},
            {k: f"{v:.1e}" for k, v in row["error"].items()},
            flush=True,
        )
    print(f"load average after: {os.getloadavg()}")
    print(table(rows, rates, title))
    return 0


if __name__ == "__main__":
    sys.exit(main())
