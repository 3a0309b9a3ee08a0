"""Convolution and pooling per layer shape of ResNet50, MobileNetV2 and ShuffleNetV2 (issue 26).

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE .venv/bin/python bench/conv.py \
        [--size 64] [--batches 1 8] [--repeats 7] [--models resnet50 mobilenet_v2 shufflenet_v2] \
        [--end-to-end] [--json out.json] [--layouts]

For every distinct convolution of each model (input ``size`` x ``size``) at each batch size it
prints the median time and the GFLOP/s (2 * multiply-adds / time) of

- phiops's conv2d (``phiops.nn.functional.conv2d``, NCHW, float32, eager);
- a plain numpy floor: the column matrix through ``as_strided`` windows copied once, then one
  ``matmul`` per group (a 1x1 convolution: the ``matmul`` alone);
- PyTorch's ``conv2d`` when ``torch`` imports (a CPU build in a side venv, run as
  ``/work/torch-venv/bin/python`` with PYTHONPATH set to the checkout);

beside numpy's float32 GEMM rate on this machine (a 1024^3 product: the floor no kernel beats),
and the pooling layers the models have (max 3x3/2, global average). ``--end-to-end`` times an eager
forward pass of ResNet50 and MobileNetV2 built from phiops's functional ops (conv2d, batch_norm in
inference mode, relu/relu6, pooling, linear) with seeded weights.
``--layouts`` times, instead of the tables, the pooling and depthwise convolutions that have
compiled kernels for both layouts (a max pool of [N,64,40,40] 3x3/2, depthwise [N,144,16,16]
3x3 at strides 1 and 2) channels first, channels last, and channels last on the numpy path
(FLAGS_use_native_kernels off).

OPENBLAS_CORETYPE/OPENBLAS_L2_SIZE must be unset (see issue 26: they halve numpy's GEMM speed on
this machine): the bench warns when they are set. Timings are medians of ``--repeats`` runs
(wall clock); on a shared machine note the load average it prints. Not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from typing import Any, Callable

import numpy as np

import phiops as phi
import phiops.nn.functional as F

Layer = tuple[int, int, int, int, int, int, int]  # (C, H, M, k, stride, pad, groups); W == H


def conv_out(size: int, k: int, stride: int, pad: int) -> int:
    return (size + 2 * pad - k) // stride + 1


def resnet50_layers(size: int) -> list[Layer]:
    layers: list[Layer] = [(3, size, 64, 7, 2, 3, 1)]
    h = conv_out(conv_out(size, 7, 2, 3), 3, 2, 1)
    channels = 64
    for width, blocks, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
        for block in range(blocks):
            s = stride if block == 0 else 1
            layers.append((channels, h, width, 1, 1, 0, 1))
            layers.append((width, h, width, 3, s, 1, 1))
            out_h = conv_out(h, 3, s, 1)
            layers.append((width, out_h, width * 4, 1, 1, 0, 1))
            if block == 0:
                layers.append((channels, h, width * 4, 1, s, 0, 1))
            channels, h = width * 4, out_h
    return layers


MOBILENET_V2 = ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1),
                (6, 160, 3, 2), (6, 320, 1, 1))  # fmt: skip


def mobilenet_v2_layers(size: int) -> list[Layer]:
    layers: list[Layer] = [(3, size, 32, 3, 2, 1, 1)]
    h, channels = conv_out(size, 3, 2, 1), 32
    for t, c, n, s in MOBILENET_V2:
        for block in range(n):
            stride = s if block == 0 else 1
            hidden = channels * t
            if t != 1:
                layers.append((channels, h, hidden, 1, 1, 0, 1))
            layers.append((hidden, h, hidden, 3, stride, 1, hidden))
            h = conv_out(h, 3, stride, 1)
            layers.append((hidden, h, c, 1, 1, 0, 1))
            channels = c
    layers.append((channels, h, 1280, 1, 1, 0, 1))
    return layers


def shufflenet_v2_layers(size: int) -> list[Layer]:
    layers: list[Layer] = [(3, size, 24, 3, 2, 1, 1)]
    h, channels = conv_out(conv_out(size, 3, 2, 1), 3, 2, 1), 24
    for out, repeats in ((116, 4), (232, 8), (464, 4)):
        mid = out // 2
        out_h = conv_out(h, 3, 2, 1)
        layers += [(channels, h, channels, 3, 2, 1, channels), (channels, out_h, mid, 1, 1, 0, 1)]
        layers += [(channels, h, mid, 1, 1, 0, 1), (mid, h, mid, 3, 2, 1, mid)]
        layers.append((mid, out_h, mid, 1, 1, 0, 1))
        h, channels = out_h, out
        for _ in range(repeats - 1):
            layers += [(mid, h, mid, 1, 1, 0, 1), (mid, h, mid, 3, 1, 1, mid)]
            layers.append((mid, h, mid, 1, 1, 0, 1))
    layers.append((channels, h, 1024, 1, 1, 0, 1))
    return layers


MODELS = {
    "resnet50": resnet50_layers,
    "mobilenet_v2": mobilenet_v2_layers,
    "shufflenet_v2": shufflenet_v2_layers,
}


def median_time(fn: Callable[[], Any], repeats: int, budget: float = 0.2) -> float:
    fn()
    start = time.perf_counter()
    fn()
    once = time.perf_counter() - start
    number = max(1, int(budget / max(once, 1e-6) / repeats))
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - start) / number)
    return statistics.median(samples)


def numpy_floor(x: np.ndarray, w: np.ndarray, layer: Layer) -> Callable[[], Any]:
    """im2col through as_strided windows, copied once, and one matmul per group (batched)."""
    c, h, m, k, stride, pad, groups = layer
    n = x.shape[0]
    out = conv_out(h, k, stride, pad)
    cg, mg = c // groups, m // groups
    wmat = w.reshape(groups, mg, cg * k * k)
    if k == 1 and pad == 0:
        def run() -> Any:  # fmt: skip
            xs = x[:, :, ::stride, ::stride] if stride > 1 else x
            cols = np.ascontiguousarray(xs).reshape(n, groups, cg, out * out)
            return np.matmul(wmat, cols)

        return run

    def run() -> Any:
        padded = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
        s = padded.strides
        view = np.lib.stride_tricks.as_strided(
            padded,
            (n, groups, cg, k, k, out, out),
            (s[0], s[1] * cg, s[1], s[2], s[3], s[2] * stride, s[3] * stride),
        )
        cols = np.ascontiguousarray(view).reshape(n, groups, cg * k * k, out * out)
        return np.matmul(wmat, cols)

    return run


def gemm_rate(repeats: int) -> float:
    a = np.random.default_rng(0).standard_normal((1024, 1024)).astype(np.float32)
    seconds = median_time(lambda: a @ a, repeats, budget=0.5)
    return 2 * 1024**3 / seconds / 1e9


def try_torch() -> Any:
    try:
        import torch
    except ImportError:
        return None
    return torch


def bench_layers(args: argparse.Namespace, torch: Any, rate: float) -> list[dict[str, Any]]:
    rng = np.random.default_rng(0)
    rows = []
    header = (
        f"{'model':<14}{'layer (C,H,M,k,s,p,g)':<30}{'N':>3}{'count':>6}"
        f"{'phiops ms':>11}{'GF/s':>7}{'numpy ms':>10}{'GF/s':>7}"
        + (f"{'torch ms':>10}{'GF/s':>7}" if torch else "")
        + f"{'% gemm':>8}"
    )
    print(header)
    for model in args.models:
        layers = MODELS[model](args.size)
        seen: dict[Layer, int] = {}
        for layer in layers:
            seen[layer] = seen.get(layer, 0) + 1
        for n in args.batches:
            for layer, count in seen.items():
                c, h, m, k, stride, pad, groups = layer
                out = conv_out(h, k, stride, pad)
                x = rng.standard_normal((n, c, h, h)).astype(np.float32)
                w = (rng.standard_normal((m, c // groups, k, k)) * 0.05).astype(np.float32)
                flops = 2 * n * m * (c // groups) * k * k * out * out
                xt, wt = phi.to_tensor(x), phi.to_tensor(w)
                t_phi = median_time(
                    lambda: F.conv2d(xt, wt, stride=stride, padding=pad, groups=groups),
                    args.repeats,
                )
                t_np = median_time(numpy_floor(x, w, layer), args.repeats)
                row = {
                    "model": model,
                    "layer": layer,
                    "batch": n,
                    "count": count,
                    "phiops_s": t_phi,
                    "numpy_s": t_np,
                    "flops": flops,
                }
                line = (
                    f"{model:<14}{str(layer):<30}{n:>3}{count:>6}"
                    f"{t_phi * 1e3:>11.3f}{flops / t_phi / 1e9:>7.1f}"
                    f"{t_np * 1e3:>10.3f}{flops / t_np / 1e9:>7.1f}"
                )
                if torch:
                    tx, tw = torch.from_numpy(x), torch.from_numpy(w)
                    with torch.no_grad():
                        t_torch = median_time(
                            lambda: torch.nn.functional.conv2d(
                                tx, tw, stride=stride, padding=pad, groups=groups
                            ),
                            args.repeats,
                        )
                    row["torch_s"] = t_torch
                    line += f"{t_torch * 1e3:>10.3f}{flops / t_torch / 1e9:>7.1f}"
                line += f"{100 * flops / t_phi / 1e9 / rate:>7.0f}%"
                print(line, flush=True)
                rows.append(row)
        for n in args.batches:
            total = {
                key: sum(
                    r[key] * r["count"] for r in rows if r["model"] == model and r["batch"] == n
                )
                for key in ("phiops_s", "numpy_s", "flops")
            }
            print(
                f"{model:<14}{'all convolutions':<30}{n:>3}{'':>6}"
                f"{total['phiops_s'] * 1e3:>11.3f}{total['flops'] / total['phiops_s'] / 1e9:>7.1f}"
                f"{total['numpy_s'] * 1e3:>10.3f}{total['flops'] / total['numpy_s'] / 1e9:>7.1f}"
            )
    return rows


def bench_pools(args: argparse.Namespace, torch: Any) -> None:
    rng = np.random.default_rng(0)
    cases = [
        ("max 3x3/2 pad 1", (64, args.size // 2), lambda t: F.max_pool2d(t, 3, 2, 1)),
        ("global avg", (2048, max(args.size // 32, 1)), lambda t: F.adaptive_avg_pool2d(t, 1)),
        ("avg 2x2/2", (256, args.size // 4), lambda t: F.avg_pool2d(t, 2, 2)),
    ]
    print(
        f"\n{'pooling':<20}{'N':>3}{'phiops ms':>11}{'numpy ms':>10}"
        + ("  torch ms" if torch else "")
    )
    for name, (c, h), call in cases:
        for n in args.batches:
            x = rng.standard_normal((n, c, h, h)).astype(np.float32)
            xt = phi.to_tensor(x)
            t_phi = median_time(lambda: call(xt), args.repeats)
            if name.startswith("max"):
                def floor() -> Any:  # fmt: skip
                    p = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=-np.inf)
                    o = (h + 2 - 3) // 2 + 1
                    s = p.strides
                    v = np.lib.stride_tricks.as_strided(
                        p, (n, c, o, o, 3, 3), (s[0], s[1], s[2] * 2, s[3] * 2, s[2], s[3])
                    )
                    return v.max(axis=(4, 5))
            elif name.startswith("global"):
                def floor() -> Any:  # fmt: skip
                    return x.mean(axis=(2, 3), keepdims=True)
            else:
                def floor() -> Any:  # fmt: skip
                    return x.reshape(n, c, h // 2, 2, h // 2, 2).mean(axis=(3, 5))
            t_np = median_time(floor, args.repeats)
            line = f"{name:<20}{n:>3}{t_phi * 1e3:>11.3f}{t_np * 1e3:>10.3f}"
            if torch:
                tx = torch.from_numpy(x)
                tcall = {
                    "max 3x3/2 pad 1": lambda: torch.nn.functional.max_pool2d(tx, 3, 2, 1),
                    "global avg": lambda: torch.nn.functional.adaptive_avg_pool2d(tx, 1),
                    "avg 2x2/2": lambda: torch.nn.functional.avg_pool2d(tx, 2, 2),
                }[name]
                line += f"{median_time(tcall, args.repeats) * 1e3:>10.3f}"
            print(line, flush=True)


def bench_layouts(args: argparse.Namespace) -> None:
    """NCHW against NHWC (compiled, and numpy's path) for the ops with kernels for both."""
    rng = np.random.default_rng(0)
    w = phi.to_tensor(rng.standard_normal((144, 1, 3, 3)).astype(np.float32))
    cases = [
        ("max pool 3x3/2 pad 1", 64, 40, lambda t, f: F.max_pool2d(t, 3, 2, 1, data_format=f)),
        ("avg pool 3x3/2 pad 1", 64, 40, lambda t, f: F.avg_pool2d(t, 3, 2, 1, data_format=f)),
        ("depthwise 3x3/1", 144, 16, lambda t, f: F.conv2d(t, w, None, 1, 1, 1, 144, f)),
        ("depthwise 3x3/2", 144, 16, lambda t, f: F.conv2d(t, w, None, 2, 1, 1, 144, f)),
    ]
    print(f"\n{'op':<22}{'input (NCHW)':<18}{'NCHW ms':>9}{'NHWC ms':>9}{'NHWC numpy ms':>15}")
    for name, c, h, call in cases:
        for n in args.batches:
            x = rng.standard_normal((n, c, h, h)).astype(np.float32)
            first = phi.to_tensor(x)
            last = phi.to_tensor(np.ascontiguousarray(x.transpose(0, 2, 3, 1)))
            t_first = median_time(lambda: call(first, "NCHW"), args.repeats)
            t_last = median_time(lambda: call(last, "NHWC"), args.repeats)
            phi.set_flags({"use_native_kernels": False})
            try:
                t_numpy = median_time(lambda: call(last, "NHWC"), args.repeats)
            finally:
                phi.set_flags({"use_native_kernels": True})
            shape = str([n, c, h, h])
            print(
                f"{name:<22}{shape:<18}{t_first * 1e3:>9.3f}{t_last * 1e3:>9.3f}"
                f"{t_numpy * 1e3:>15.3f}",
                flush=True,
            )


def end_to_end(args: argparse.Namespace) -> None:
    """Eager forward passes of ResNet50 and MobileNetV2 from functional ops."""
    rng = np.random.default_rng(0)
    params: dict[tuple[int, ...], Any] = {}

    def conv_bn(x: Any, c: int, m: int, k: int, s: int, groups: int = 1, act: str = "relu") -> Any:
        key = (len(params),)
        w = phi.to_tensor((rng.standard_normal((m, c // groups, k, k)) * 0.05).astype(np.float32))
        stats = [phi.to_tensor(rng.uniform(0.5, 1.5, m).astype(np.float32)) for _ in range(4)]
        params[key] = (w, stats)
        return key, (c, m, k, s, groups, act)

    def build(model: str) -> list[tuple[Any, ...]]:
        layers = []
        if model == "resnet50":
            layers.append(("conv", conv_bn(None, 3, 64, 7, 2)))
            layers.append(("maxpool",))
            channels = 64
            for width, blocks, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
                for block in range(blocks):
                    s = stride if block == 0 else 1
                    body = [
                        conv_bn(None, channels, width, 1, 1),
                        conv_bn(None, width, width, 3, s),
                        conv_bn(None, width, width * 4, 1, 1, act="none"),
                    ]
                    short = (
                        conv_bn(None, channels, width * 4, 1, s, act="none") if block == 0 else None
                    )
                    layers.append(("block", body, short))
                    channels = width * 4
        else:
            layers.append(("conv", conv_bn(None, 3, 32, 3, 2, act="relu6")))
            channels = 32
            for t, c, n, s in MOBILENET_V2:
                for block in range(n):
                    stride = s if block == 0 else 1
                    hidden = channels * t
                    body = []
                    if t != 1:
                        body.append(conv_bn(None, channels, hidden, 1, 1, act="relu6"))
                    body.append(conv_bn(None, hidden, hidden, 3, stride, hidden, act="relu6"))
                    body.append(conv_bn(None, hidden, c, 1, 1, act="none"))
                    layers.append(("inverted", body, stride == 1 and channels == c))
                    channels = c
            layers.append(("conv", conv_bn(None, channels, 1280, 1, 1, act="relu6")))
            channels = 1280
        fc = phi.to_tensor((rng.standard_normal((channels, 1000)) * 0.01).astype(np.float32))
        layers.append(("head", fc))
        return layers

    def apply(x: Any, spec: Any) -> Any:
        key, (c, m, k, s, groups, act) = spec
        w, (mean, var, scale, bias) = params[key]
        y = F.conv2d(x, w, stride=s, padding=k // 2, groups=groups)
        y = F.batch_norm(y, mean, var, scale, bias, training=False)
        if act == "relu":
            return F.relu(y)
        if act == "relu6":
            return phi.clip(y, 0.0, 6.0)
        return y

    def forward(layers: list[tuple[Any, ...]], x: Any) -> Any:
        for layer in layers:
            kind = layer[0]
            if kind == "conv":
                x = apply(x, layer[1])
            elif kind == "maxpool":
                x = F.max_pool2d(x, 3, 2, 1)
            elif kind == "block":
                y = x
                for spec in layer[1]:
                    y = apply(y, spec)
                x = F.relu(y + (apply(x, layer[2]) if layer[2] else x))
            elif kind == "inverted":
                y = x
                for spec in layer[1]:
                    y = apply(y, spec)
                x = x + y if layer[2] else y
            else:
                x = phi.matmul(phi.flatten(F.adaptive_avg_pool2d(x, 1), 1), layer[1])
        return x

    print(f"\n{'end to end (eager forward)':<30}{'N':>3}{'median ms':>11}")
    for model in ("resnet50", "mobilenet_v2"):
        layers = build(model)
        for n in args.batches:
            x = phi.to_tensor(rng.standard_normal((n, 3, args.size, args.size)).astype(np.float32))
            with phi.no_grad():
                seconds = median_time(lambda: forward(layers, x), args.repeats, budget=1.0)
            print(f"{model:<30}{n:>3}{seconds * 1e3:>11.2f}", flush=True)


def _defined_flags() -> list[str]:
    """The thread flags this phiops has (an older checkout, benched for a comparison, may lack
    intra_op_threads)."""
    from phiops.runtime import flags

    defined = {flag.name for flag in flags.all_flags()}
    return [name for name in ("blas_threads", "intra_op_threads") if name in defined]


def load_kernels_at(rev: str) -> dict[str, Any]:
    """conv_kernel.py and pool_kernel.py as they are at git revision ``rev``, loaded as private
    modules whose registrations are skipped (the registry keeps this checkout's kernels): the
    other side of an interleaved comparison (``--compare-with``)."""
    import subprocess
    import types

    from phiops.runtime.kernels import registration

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    modules: dict[str, Any] = {}
    real = registration.register_kernel
    registration.register_kernel = lambda *a, **k: (lambda fn: fn)  # type: ignore[assignment]
    try:
        for name in ("conv_kernel", "pool_kernel"):
            path = f"runtime/kernels/impl/{name}.py"
            source = subprocess.run(
                ["git", "show", f"{rev}:{path}"],
                cwd=root,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            module = types.ModuleType(f"bench_{name}_at_{rev}")
            module.__file__ = path
            exec(compile(source, f"{rev}:{path}", "exec"), module.__dict__)
            modules[name] = module
    finally:
        registration.register_kernel = real
    return modules


def compare_with(args: argparse.Namespace, rate: float) -> None:
    """This checkout's conv and pool kernels against ``--compare-with``'s, called directly
    (no dispatch), interleaved call by call so that both see the same machine load."""
    from phiops.runtime.common import CPUPlace
    from phiops.runtime.kernels.impl import conv_kernel, pool_kernel
    from phiops.runtime.kernels.kernel import KernelContext

    old = load_kernels_at(args.compare_with)
    ctx = KernelContext(np, CPUPlace())
    rng = np.random.default_rng(0)

    def interleaved(new_fn: Callable[[], Any], old_fn: Callable[[], Any]) -> tuple[float, float]:
        new_fn(), old_fn()
        start = time.perf_counter()
        new_fn()
        number = max(1, int(0.05 / max(time.perf_counter() - start, 1e-6)))
        samples: dict[int, list[float]] = {0: [], 1: []}
        for _ in range(args.repeats):
            for side, fn in ((0, new_fn), (1, old_fn)):
                start = time.perf_counter()
                for _ in range(number):
                    fn()
                samples[side].append((time.perf_counter() - start) / number)
        return statistics.median(samples[0]), statistics.median(samples[1])

    print(f"\nkernels of this checkout vs {args.compare_with} (interleaved, median ms, GFLOP/s)")
    print(
        f"{'model':<14}{'layer (C,H,M,k,s,p,g)':<30}{'N':>3}{'count':>6}{'before':>9}{'GF/s':>7}{'after':>9}{'GF/s':>7}{'speedup':>9}"
    )
    totals: dict[tuple[str, int], list[float]] = {}
    for model in args.models:
        seen: dict[Layer, int] = {}
        for layer in MODELS[model](args.size):
            seen[layer] = seen.get(layer, 0) + 1
        for n in args.batches:
            for layer, count in seen.items():
                c, h, m, k, stride, pad, groups = layer
                out = conv_out(h, k, stride, pad)
                x = rng.standard_normal((n, c, h, h)).astype(np.float32)
                w = (rng.standard_normal((m, c // groups, k, k)) * 0.05).astype(np.float32)
                flops = 2 * n * m * (c // groups) * k * k * out * out
                call = (x, w, (stride, stride), (pad, pad), "EXPLICIT", (1, 1), groups, "NCHW")
                t_new, t_old = interleaved(
                    lambda: conv_kernel.convolve(ctx, *call),
                    lambda: old["conv_kernel"].convolve(ctx, *call),
                )
                total = totals.setdefault((model, n), [0.0, 0.0, 0.0])
                total[0] += t_old * count
                total[1] += t_new * count
                total[2] += flops * count
                print(
                    f"{model:<14}{str(layer):<30}{n:>3}{count:>6}{t_old * 1e3:>9.3f}{flops / t_old / 1e9:>7.1f}"
                    f"{t_new * 1e3:>9.3f}{flops / t_new / 1e9:>7.1f}{t_old / t_new:>8.2f}x",
                    flush=True,
                )
    for (model, n), (t_old, t_new, flops) in totals.items():
        print(
            f"{model:<14}{'all convolutions':<30}{n:>3}{'':>6}{t_old * 1e3:>9.3f}{flops / t_old / 1e9:>7.1f}"
            f"{t_new * 1e3:>9.3f}{flops / t_new / 1e9:>7.1f}{t_old / t_new:>8.2f}x"
            f"   ({100 * flops / t_new / 1e9 / rate:.0f}% of the GEMM rate)"
        )
    pools = [
        ("max 3x3/2 pad 1", (64, args.size // 2), ((3, 3), (2, 2), (1, 1), "max", False, False)),
        (
            "global avg",
            (2048, max(args.size // 32, 1)),
            ((1, 1), (1, 1), (0, 0), "avg", False, True),
        ),
        ("avg 2x2/2", (256, args.size // 4), ((2, 2), (2, 2), (0, 0), "avg", False, False)),
    ]
    print(f"\n{'pooling kernel':<20}{'N':>3}{'before ms':>11}{'after ms':>10}{'speedup':>9}")
    for name, (c, h), (ksize, strides, pads, kind, global_, adaptive) in pools:
        for n in args.batches:
            x = rng.standard_normal((n, c, h, h)).astype(np.float32)
            call = (
                x,
                ksize,
                strides,
                pads,
                False,
                True,
                "NCHW",
                kind,
                global_,
                adaptive,
                "EXPLICIT",
            )
            t_new, t_old = interleaved(
                lambda: pool_kernel.pool2d_kernel(ctx, *call),
                lambda: old["pool_kernel"].pool2d_kernel(ctx, *call),
            )
            print(
                f"{name:<20}{n:>3}{t_old * 1e3:>11.3f}{t_new * 1e3:>10.3f}{t_old / t_new:>8.2f}x",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=64)
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--models", nargs="+", default=list(MODELS), choices=list(MODELS))
    parser.add_argument("--end-to-end", action="store_true")
    parser.add_argument("--no-layers", action="store_true", help="skip the per-layer table")
    parser.add_argument("--json", help="write the per-layer rows to this file")
    parser.add_argument(
        "--layouts",
        action="store_true",
        help="instead of the tables, time pooling and depthwise convolution NCHW against NHWC",
    )
    parser.add_argument(
        "--compare-with",
        metavar="REV",
        help="instead of the tables, time this checkout's conv/pool kernels against those at git "
        "revision REV, interleaved (e.g. the commit before issue 26's kernels)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        help="set FLAGS_blas_threads and FLAGS_intra_op_threads to this (default: theirs)",
    )
    args = parser.parse_args()
    known = _defined_flags()
    if args.threads is not None:
        phi.set_flags({name: args.threads for name in known})
    for name in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        if name in os.environ:
            print(f"warning: {name} is set; it slows numpy's GEMM on this machine")
    print(f"load average: {os.getloadavg()}, cpus: {os.cpu_count()}")
    print(
        "flags:",
        {name: phi.get_flags(name)["FLAGS_" + name] for name in known},
    )
    torch = try_torch()
    rate = gemm_rate(args.repeats)
    print(f"numpy float32 GEMM 1024^3: {rate:.1f} GFLOP/s")
    if args.layouts:
        bench_layouts(args)
        print(f"load average: {os.getloadavg()}")
        return
    if args.compare_with:
        compare_with(args, rate)
        print(f"load average: {os.getloadavg()}")
        return
    rows = [] if args.no_layers else bench_layers(args, torch, rate)
    if not args.no_layers:
        bench_pools(args, torch)
    if args.end_to_end:
        end_to_end(args)
    print(f"load average: {os.getloadavg()}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"gemm_gflops": rate, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
