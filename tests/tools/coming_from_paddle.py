"""Write docs/coming_from_paddle.md: for each PaddlePaddle 3.3.1 module, which of its names phiops
has with PaddlePaddle's signature, which it has with another signature, and which it lacks,
from phiops's code and tests/data/paddle_api_3_3_1.json (tests/tools/record_paddle_api.py).

    .venv/bin/python -m tests.tools.coming_from_paddle          # rewrite the page
    .venv/bin/python -m tests.tools.coming_from_paddle --check  # exit 1 if it is stale

tests/api/test_coming_from_paddle_doc.py fails when the committed page is not what this writes, so
the page cannot go stale. The deliberate differences at the top are kept here, by hand.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import sys
from pathlib import Path

from tests import paddle_api

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "coming_from_paddle.md"

INTRO = """\
# Coming from PaddlePaddle

`import phiops as paddle` gives PaddlePaddle 3.3.1's Python API for what phiops has. This page is
written by `tests/tools/coming_from_paddle.py` from phiops's code and PaddlePaddle 3.3.1's API as
recorded in `tests/data/paddle_api_3_3_1.json`; `tests/api/test_coming_from_paddle_doc.py` fails
when it is stale. For each module: the names phiops has with PaddlePaddle's signature (parameter
names, order, kinds and defaults), those it has with another signature (both shown), and those it
lacks.

## Differences on purpose

- `x.numpy()` of a CPU tensor is a read-only view of its storage, not a copy: writing into it
  raises numpy's "assignment destination is read-only" instead of silently changing values a grad
  node saved. `x.numpy().copy()` gives an array to modify.
- Attributes are checked against what PHI stores: an `int` attribute is int32 and a `float` one
  float32, so `leaky_relu(x, 1e39)` is an error where PaddlePaddle silently uses inf.
- A complex number in a plain `Scalar` attribute needs a complex computation: `scale(x, 1 + 2j)` on
  a float32 `x` is an error, where PaddlePaddle's `_C_ops` silently drop the imaginary part.
- `phiops._C_ops` holds the functions generated from the op specs, with the specs' signatures, as
  PaddlePaddle's `paddle._C_ops` does; they are not meant to match `paddle.*`.
- `paddle.Tensor(data, dtype=None, place=None, stop_gradient=True)` is the data form of
  PaddlePaddle's constructor, whose `(*args, **kwargs)` also takes its internal overloads (a C++
  tensor, a dims-and-dtype pair); `paddle.to_tensor` is the way to make tensors in both.
- `paddle.no_grad` and `paddle.enable_grad` take `fn=None` so that they also work as bare
  decorators (`@paddle.no_grad`); PaddlePaddle's are classes without arguments, used as
  `@paddle.no_grad()` or `with paddle.no_grad():`, which phiops takes too.
- The creation functions' `pin_memory=True` raises UnimplementedError (phiops has no pinned
  memory; PaddlePaddle's CPU build raises a RuntimeError for it), and `device=` moves the tensor
  made on the default place there, a copy PaddlePaddle does not make.
- `paddle.seed(seed)` returns None, not PaddlePaddle's Generator object. `paddle.grad`'s
  `only_inputs=False`, `no_grad_vars` and `dump_backward_graph_path`, a dtype `Tensor.view`, the torch-style form
  of `scatter_` and `disable_static` with a place other than the default one raise
  UnimplementedError.
- `paddle.seed(n)` seeds the CPU engine as PaddlePaddle's (std::mt19937_64 through
  std::seed_seq), and `uniform`/`rand`, `gaussian`/`randn`/`normal`/`standard_normal`, `randint`,
  `bernoulli`, `dropout` and the initializers built on uniform and gaussian (the default
  `Linear`/`Conv` weights, `Normal`, `Uniform`, `XavierUniform`, `KaimingNormal`...) draw through
  libstdc++'s distributions as PaddlePaddle 3.3.1's CPU kernels: the same seed gives PaddlePaddle's
  numbers bit for bit. `truncated_gaussian_random` (and the `TruncatedNormal` initializer) and the
  `Orthogonal` initializer take the same draws, and give PaddlePaddle's numbers to float rounding
  (their inverse CDF and QR differ in the last bits). `randperm` (libstdc++'s std::shuffle),
  `multinomial`, `binomial`, `poisson`, `standard_gamma`, `dirichlet`, `exponential_`,
  `uniform_`, `normal_`, `gumbel_softmax`, `rrelu`, `uniform_random_batch_size_like` and the
  dropout between `rnn` layers also give PaddlePaddle's CPU numbers after the same seed
  (integers exactly, floats to float rounding). So do complex `uniform`, `gaussian` and
  `normal_`. The remaining random ops (`shuffle_batch`, the graph sampling ops: PaddlePaddle
  seeds theirs from std::random_device) draw from phiops's own
  generator (numpy's PCG64, also replayed by `paddle.seed(n)`), so a seed gives other numbers
  than in PaddlePaddle there; their distributions and edges are PaddlePaddle's. Where
  PaddlePaddle's sampler never returns or overflows, phiops raises InvalidArgumentError:
  `binomial` with a NaN or infinite count or a NaN probability where a draw is needed, `poisson`
  with a rate of 2e9 or more. `uniform_inplace` does not read `diag_*`, as PaddlePaddle's CPU
  kernel does not.
"""


# what _phiops_object returns for a name phiops lacks (None is a value: paddle.newaxis)
MISSING = object()


def _phiops_object(qualname: str) -> object:
    """The phiops object for PaddlePaddle's ``qualname`` (``paddle.nn.functional.relu``), or
    ``MISSING``."""
    parts = qualname.split(".")
    parts[0] = "phiops"
    if parts[1:2] == ["Tensor"]:
        import phiops

        return getattr(phiops.Tensor, parts[2], MISSING) if len(parts) == 3 else phiops.Tensor
    for split in range(len(parts), 0, -1):
        try:
            target: object = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for name in parts[split:]:
            target = getattr(target, name, MISSING)
            if target is MISSING:
                return MISSING
        return target
    return MISSING


def _parameters(target: object) -> list[dict] | None:
    try:
        signature = inspect.signature(target)  # a class: its constructor's, less self
    except (TypeError, ValueError):
        return None
    recorded = []
    for parameter in signature.parameters.values():
        if parameter.name == "self":
            continue  # the receiver, as PaddlePaddle's recorded methods leave it out
        entry = {"name": parameter.name, "kind": parameter.kind.name}
        if parameter.default is not inspect.Parameter.empty:
            entry["default"] = repr(parameter.default)
        recorded.append(entry)
    return recorded


def _paddle_parameters(qualname: str) -> list[dict] | None:
    parameters = paddle_api.parameters(qualname)
    if parameters is None:
        return None
    return [p for p in parameters if p["name"] != "self"]


def _spelled(parameters: list[dict] | None) -> str:
    if parameters is None:
        return "(?)"
    words = []
    keyword_only = False
    for p in parameters:
        if p["kind"] == "KEYWORD_ONLY" and not keyword_only:
            words.append("*")
            keyword_only = True
        prefix = {"VAR_POSITIONAL": "*", "VAR_KEYWORD": "**"}.get(p["kind"], "")
        keyword_only |= p["kind"] == "VAR_POSITIONAL"
        default = f"={p['default']}" if "default" in p else ""
        words.append(f"{prefix}{p['name']}{default}")
    return "(" + ", ".join(words) + ")"


def _compare(qualname: str, target: object) -> str | None:
    """None when phiops's signature is PaddlePaddle's, else both spelled out."""
    record = paddle_api.entry(qualname)
    if record.get("kind") not in ("function", "class", "method"):
        return None
    ours, theirs = _parameters(target), _paddle_parameters(qualname)
    if theirs is None or ours == theirs:
        return None
    return f"phiops `{_spelled(ours)}`, PaddlePaddle `{_spelled(theirs)}`"


def _section(title: str, qualnames: list[str]) -> list[str]:
    same, differ, missing = [], [], []
    for qualname in qualnames:
        name = qualname.rsplit(".", 1)[1]
        target = _phiops_object(qualname)
        if target is MISSING:
            missing.append(name)
            continue
        difference = _compare(qualname, target)
        (differ if difference else same).append((name, difference))
    lines = [
        f"## `{title}`",
        "",
        f"{len(qualnames)} names in PaddlePaddle 3.3.1: phiops has {len(same)} with PaddlePaddle's "
        f"signature, {len(differ)} with another, and lacks {len(missing)}.",
        "",
    ]
    if same:
        lines += ["As in PaddlePaddle: " + ", ".join(f"`{n}`" for n, _ in same) + ".", ""]
    if differ:
        lines += ["Another signature:", ""]
        lines += [f"- `{n}`: {d}" for n, d in differ]
        lines.append("")
    if missing:
        lines += ["Missing: " + ", ".join(f"`{n}`" for n in missing) + ".", ""]
    return lines


def render() -> str:
    """The page, from the code and the recorded API."""
    lines = [INTRO]
    for module in paddle_api.modules():
        qualnames = [f"{module}.{name}" for name in paddle_api.names(module)]
        lines += _section(module, qualnames)
    methods = [f"paddle.Tensor.{name}" for name in sorted(paddle_api.load()["tensor"])]
    lines += _section("paddle.Tensor", methods)
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the page is stale")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        if PAGE.read_text(encoding="utf-8") != text:
            print(f"{PAGE} is stale: run python -m tests.tools.coming_from_paddle", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
