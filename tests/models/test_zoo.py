"""The model zoo (tests/tools/make_zoo.py, docs/zoo.md) runs in phiops with PaddlePaddle 3.3.1's
outputs: every model of the manifest, in PIR form (``model.json``) and legacy form
(``model.pdmodel``), at both recorded input sizes, through ``phiops.static.load_inference_model``
+ ``Executor`` and through ``phiops run``.

Small models are committed under tests/data/zoo/; big ones are in the cache ``make zoo`` writes
(``$PHIOPS_ZOO_DIR``, else ``~/.cache/phiops/zoo``) and are skipped, naming ``make zoo``, where it
is absent. A model the manifest marks ``pending`` waits for ops phiops lacks: its test expects the
error naming one of them, and fails the day the last lands (then remove its ``pending`` in
tests/tools/zoo_models.py and rerun make_zoo.py: the model moves to the running tests).
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
import phiops.runtime.static.passes.config  # noqa: F401  (defines FLAGS_layout_choice)
from phiops.runtime import flags
from phiops.runtime.errors import NotFoundError, UnimplementedError
from phiops.runtime.static.__main__ import main as phiops_run

COMMITTED = Path(__file__).resolve().parents[1] / "data" / "zoo"
MANIFEST = json.loads((COMMITTED / "manifest.json").read_text())
MODELS = {entry["name"]: entry for entry in MANIFEST["models"]}
FORMS = ("pir", "legacy")
RTOL = 1e-4


def cache_dir() -> Path:
    return Path(os.environ.get("PHIOPS_ZOO_DIR") or Path.home() / ".cache" / "phiops" / "zoo")


def model_dir(entry: dict) -> Path:
    if entry["location"] == "committed":
        return COMMITTED / entry["name"]
    folder = cache_dir() / entry["name"]
    if not (folder / "outputs_legacy_1.npz").is_file():
        pytest.skip(
            f"big model {entry['name']!r} is not in {cache_dir()}: run `make zoo` to make it"
        )
    return folder


def cases(location: str, pending: bool) -> list:
    return [
        pytest.param(name, form, k, id=f"{name}-{form}-{k}")
        for name, entry in MODELS.items()
        if entry["location"] == location and ("pending" in entry) == pending
        for form in FORMS
        for k in range(2)
    ]


def run_model(folder: Path, form: str, k: int) -> tuple[list[np.ndarray], dict]:
    exe = paddle.static.Executor()
    program, feed_names, fetch_targets = paddle.static.load_inference_model(
        str(folder / form / "model"), exe
    )
    feeds = dict(np.load(folder / f"inputs_{k}.npz"))
    assert sorted(feed_names) == sorted(feeds)
    outputs = exe.run(
        program, feed={name: feeds[name] for name in feed_names}, fetch_list=fetch_targets
    )
    expected = np.load(folder / f"outputs_{form}_{k}.npz")
    return [np.asarray(o) for o in outputs], {key: expected[key] for key in expected.files}


def assert_matches(actual: list[np.ndarray], expected: dict, what: str) -> None:
    assert len(actual) == len(
        expected
    ), f"{what}: {len(actual)} outputs, PaddlePaddle gave {len(expected)}"
    for i, out in enumerate(actual):
        want = expected[f"out{i}"]
        assert (
            out.shape == want.shape
        ), f"{what} out{i}: shape {out.shape}, PaddlePaddle {want.shape}"
        assert (
            out.dtype == want.dtype
        ), f"{what} out{i}: dtype {out.dtype}, PaddlePaddle {want.dtype}"
        scale = float(np.abs(want).max()) if want.size else 0.0
        np.testing.assert_allclose(
            out, want, rtol=RTOL, atol=RTOL * scale, err_msg=f"{what} out{i}"
        )


def ctc_greedy(probs: np.ndarray, blank: int = 0) -> list[list[int]]:
    """CTC greedy decoding, outside the model as PaddleOCR's CTCLabelDecode does it: the best
    class per step, repeats merged, blanks dropped."""
    decoded = []
    for row in probs.argmax(axis=-1):
        keep = np.concatenate([[True], row[1:] != row[:-1]]) & (row != blank)
        decoded.append(row[keep].tolist())
    return decoded


def check(name: str, form: str, k: int) -> None:
    entry = MODELS[name]
    actual, expected = run_model(model_dir(entry), form, k)
    assert_matches(actual, expected, f"{name} ({form}, inputs_{k})")
    if entry.get("postprocess") == "ctc_greedy":
        assert ctc_greedy(actual[0]) == ctc_greedy(expected["out0"])


@pytest.mark.parametrize(("name", "form", "k"), cases("committed", pending=False))
def test_committed_model_gives_paddlepaddles_outputs(name: str, form: str, k: int) -> None:
    check(name, form, k)


@pytest.mark.parametrize(("name", "form", "k"), cases("cache", pending=False))
def test_big_model_gives_paddlepaddles_outputs(name: str, form: str, k: int) -> None:
    """The PIR form's first input runs as a user's would (the layout pass times its choice,
    ``FLAGS_layout_choice=auto``); the other three cases run channels first, as exported: the
    timing runs of 30 big models would cost a minute of ``make test`` for what those checks
    test (translation, the other passes). tests/static/passes/test_layout.py checks every
    channels-last plan of the committed zoo against the own plan."""
    mode = "auto" if (form, k) == ("pir", 0) else "NCHW"
    with flags.flags_guard({"layout_choice": mode}):
        check(name, form, k)


@pytest.mark.parametrize(
    ("name", "form", "k"),
    [
        c
        for c in cases("committed", pending=True) + cases("cache", pending=True)
        if c.values[2] == 0
    ],
)
def test_pending_model_stops_at_the_op_it_waits_for(name: str, form: str, k: int) -> None:
    entry = MODELS[name]
    waits_for = "|".join(re.escape(op) for op in entry["pending"])
    with pytest.raises((NotFoundError, UnimplementedError), match=rf"'({waits_for})'"):
        run_model(model_dir(entry), form, k)


def _cli_summary(prefix: Path, feeds: dict, tmp_path: Path) -> str:
    args = ["run", str(prefix)]
    for feed_name, value in feeds.items():
        np.save(tmp_path / f"{feed_name}.npy", value)
        args += ["--input", f"{feed_name}={tmp_path / f'{feed_name}.npy'}"]
    out = io.StringIO()
    with redirect_stdout(out):
        assert phiops_run(args) == 0
    return out.getvalue()


_SUMMARY = re.compile(
    r"^(\S+): shape \[([\d, ]*)\] (\w+)(?:  min (\S+) max (\S+) mean (\S+))?", re.M
)


def assert_summary_matches(text: str, expected: dict, what: str) -> None:
    """``phiops run`` prints each output's shape, dtype, min, max and mean (6 significant
    digits): each must be PaddlePaddle's, relative to the output's scale."""
    lines = _SUMMARY.findall(text)
    assert len(lines) == len(expected), f"{what}: {text}"
    for i, (_, shape, dtype, lo, hi, mean) in enumerate(lines):
        want = expected[f"out{i}"]
        assert [int(d) for d in shape.split(",") if d.strip()] == list(want.shape), f"{what} out{i}"
        assert dtype == str(want.dtype), f"{what} out{i}"
        if lo:
            values = want.astype(np.float64)
            scale = float(np.abs(values).max())
            got = [float(lo), float(hi), float(mean)]
            np.testing.assert_allclose(
                got,
                [values.min(), values.max(), values.mean()],
                rtol=1e-5,
                atol=RTOL * scale,
                err_msg=f"{what} out{i}",
            )


@pytest.mark.parametrize(
    ("name", "form"),
    [(c.values[0], c.values[1]) for c in cases("committed", False) if c.values[2] == 1],
)
def test_phiops_run_gives_paddlepaddles_outputs(name: str, form: str, tmp_path: Path) -> None:
    folder = model_dir(MODELS[name])
    for k in range(2):
        feeds = dict(np.load(folder / f"inputs_{k}.npz"))
        expected = dict(np.load(folder / f"outputs_{form}_{k}.npz"))
        text = _cli_summary(folder / form / "model", feeds, tmp_path)
        assert_summary_matches(text, expected, f"phiops run {name} ({form}, inputs_{k})")


def test_phiops_run_command_runs_a_zoo_model(tmp_path: Path) -> None:
    """The command itself, in its own process, on a committed model's legacy form (the other
    tests call its ``main`` in this process, for every model and form)."""
    name = next(n for n, e in MODELS.items() if e["location"] == "committed" and "pending" not in e)
    folder = COMMITTED / name
    feeds = dict(np.load(folder / "inputs_0.npz"))
    for form in ("legacy",):
        args = [sys.executable, "-m", "phiops", "run", str(folder / form / "model")]
        for feed_name, value in feeds.items():
            np.save(tmp_path / f"{feed_name}.npy", value)
            args += ["--input", f"{feed_name}={tmp_path / f'{feed_name}.npy'}"]
        result = subprocess.run(args, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        assert_summary_matches(
            result.stdout, dict(np.load(folder / f"outputs_{form}_0.npz")), f"{name} {form}"
        )


def test_the_zoo_has_at_least_thirty_architectures_across_the_tasks() -> None:
    assert len(MODELS) >= 30
    tasks = {entry["task"] for entry in MODELS.values()}
    assert tasks >= {
        "classification",
        "detection",
        "segmentation",
        "ocr_detection",
        "ocr_recognition",
        "nlp",
    }


def test_committed_models_are_small_and_big_ones_are_not_committed() -> None:
    for name, entry in MODELS.items():
        committed = (COMMITTED / name).is_dir()
        assert committed == (entry["location"] == "committed"), name
        if committed:
            assert entry["bytes"] <= MANIFEST["small_bytes"], name
