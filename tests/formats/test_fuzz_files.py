"""Derandomized fuzzing of every file format phiops reads: mutants of the real
fixtures PaddlePaddle 3.3.1 wrote end in success or one of phiops's named errors (`PhiError`),
never a raw exception, a hang or unbounded memory.

Each format gets a few hundred mutants from a seeded `random.Random`, so a failure names a
case that reproduces. Work per case is bounded by the readers' own limits
(runtime/file_limits.py); the alarm below is a generous backstop (a minute for a case that
takes milliseconds) that turns a hang into a failure naming the case, and the process's peak
memory may grow by at most 1 GiB over a format's mutants.
"""

from __future__ import annotations

import contextlib
import copy
import json
import pickle
import random
import re
import resource
import shutil
import signal
import warnings
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np
import pytest

import phiops as phi
from phiops.runtime.errors import PhiError
from phiops.runtime.formats.framework_proto import ProgramDesc as ProgramDescProto
from phiops.runtime.formats.inference_model import read_inference_model
from phiops.runtime.formats.inference_model import read_legacy_inference_model
from phiops.runtime.formats.pdiparams import load_combine, read_all_tensors
from phiops.runtime.formats.pir_json import load_program_json
from phiops.runtime.ir import parse_program, verify
from phiops.runtime.static.__main__ import _read_npy

DATA = Path(__file__).resolve().parents[1] / "data"
SAVED = DATA / "saved_models"
LEGACY = DATA / "legacy"
_BACKSTOP_SECONDS = 60
_MAX_RSS_GROWTH_KB = 1 << 20
_INTERESTING_INTS = (0, 1, 2**31 - 1, 2**32 - 1, 2**40, 2**63 - 1, 2**64 - 1)


class _Hang(Exception):
    pass


@contextlib.contextmanager
def _backstop(case: str) -> Iterator[None]:
    def alarm(signum: int, frame: Any) -> None:
        raise _Hang(f"{case} ran past {_BACKSTOP_SECONDS} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(_BACKSTOP_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _max_rss_kb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _run_cases(name: str, count: int, case: Callable[[random.Random, int], None]) -> None:
    """``count`` cases of ``case(rng, index)``, each expected to succeed or raise a PhiError."""
    rng = random.Random(f"phiops-fuzz-{name}")
    start_rss = _max_rss_kb()
    failures = []
    for index in range(count):
        label = f"{name} mutant {index}"
        try:
            with _backstop(label), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                case(rng, index)
        except PhiError:
            pass
        except Exception as error:  # noqa: BLE001 - what the test is looking for
            failures.append(f"{label}: {type(error).__name__}: {str(error)[:200]}")
    assert not failures, "\n".join(failures[:20])
    assert _max_rss_kb() - start_rss < _MAX_RSS_GROWTH_KB, f"{name}: peak memory grew past 1 GiB"


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    """1 to 3 of: a flipped bit, an interesting byte, a deleted, duplicated or random range, a
    truncation, an interesting little-endian integer written over 4 or 8 bytes."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        if not out:
            out += bytes([rng.randrange(256)])
        at = rng.randrange(len(out))
        kind = rng.randrange(7)
        if kind == 0:
            out[at] ^= 1 << rng.randrange(8)
        elif kind == 1:
            out[at] = rng.choice((0x00, 0x01, 0x7F, 0x80, 0xFF))
        elif kind == 2:
            del out[at : at + rng.randint(1, 16)]
        elif kind == 3:
            chunk = out[at : at + rng.randint(1, 32)]
            out[at:at] = chunk
        elif kind == 4:
            out[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif kind == 5:
            del out[at:]
        else:
            width = rng.choice((4, 8))
            value = rng.choice(_INTERESTING_INTS) % (1 << (8 * width))
            out[at : at + width] = value.to_bytes(width, "little")
    return bytes(out)


# -- pickles (.pdparams) -----------------------------------------------------------------------
def _pickle_values(rng: random.Random, nodes: list) -> Any:
    """A value a hostile pickle may hold where a fixture holds another: arrays phiops refuses
    (objects, records) or accepts, a shared or self-containing container, a name table entry."""
    choices: list[Callable[[], Any]] = [
        lambda: np.zeros(3, dtype=object),
        lambda: np.zeros(2, dtype=[("a", "i4"), ("b", "O")]),
        lambda: np.zeros((2, 2), dtype=rng.choice(("f4", "i8", "U3", "V4", "c8", "?"))),
        lambda: np.float32(1.5),
        lambda: np.dtype("f8"),
        lambda: rng.choice(nodes)[0],  # a shared reference to another container
        lambda: ("name", np.ones(2)),
        lambda: {"StructuredToParameterName@@": {"w": 5}},
        lambda: {"UnpackBigParamInfor@@": {"w": {"OriginShape": [4], "slices": ["w@@.0"]}}},
        lambda: [[[[]]]],
        lambda: None,
        lambda: 2**100,
    ]
    return rng.choice(choices)()


def mutate_pickled(obj: Any, rng: random.Random) -> Any:
    obj = copy.deepcopy(obj)
    for _ in range(rng.randint(1, 3)):
        nodes = [(p, k) for p, k in _nodes(obj, []) if not isinstance(p, tuple)]
        if not nodes:
            break
        parent, key = rng.choice(nodes)
        if rng.randrange(4) == 0:
            parent[key] = parent  # a container inside itself
        else:
            parent[key] = _pickle_values(rng, nodes)
    return obj


def test_fuzz_pdparams_pickles(tmp_path: Path) -> None:
    paths = sorted((SAVED / "pdparams").glob("*.pdparams"))
    seeds = [p.read_bytes() for p in paths]
    # the fixtures are trusted: plain pickle gives the objects to mutate and pickle again
    objects = [pickle.loads(data) for data in seeds]
    path = tmp_path / "m.pdparams"

    def case(rng: random.Random, index: int) -> None:
        if index % 2:
            path.write_bytes(mutate_bytes(rng.choice(seeds), rng))
        else:
            obj = mutate_pickled(rng.choice(objects), rng)
            path.write_bytes(pickle.dumps(obj, protocol=rng.choice((2, 3, 4))))
        phi.load(path, return_numpy=bool(index % 3))

    _run_cases("pdparams", 300, case)


# -- .pdiparams --------------------------------------------------------------------------------
def test_fuzz_pdiparams(tmp_path: Path) -> None:
    seeds = [(SAVED / m / "model.pdiparams").read_bytes() for m in ("cnn_jit", "cnn_static")]
    path = tmp_path / "m.pdiparams"

    def case(rng: random.Random, index: int) -> None:
        path.write_bytes(mutate_bytes(rng.choice(seeds), rng))
        if index % 2:
            read_all_tensors(path)
        else:
            load_combine(path, [f"p{i}" for i in range(rng.randint(1, 12))])

    _run_cases("pdiparams", 200, case)


# -- PIR .json ---------------------------------------------------------------------------------
_JSON_VALUES = (None, 0, -1, 1, 2**31, 2**70, 1.5, True, "", "x", "1.relu", [], {}, [[[]]])


def _nodes(data: Any, found: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """Every (container, key or index) of the tree, in a stable order."""
    stack = [data]
    while stack:
        node = stack.pop()
        keys = list(node) if isinstance(node, dict) else range(len(node))
        for key in keys:
            found.append((node, key))
            if isinstance(node[key], (dict, list, tuple)) and len(found) < 10_000:
                stack.append(node[key])
    return found


def mutate_json(data: Any, rng: random.Random) -> Any:
    data = copy.deepcopy(data)
    for _ in range(rng.randint(1, 3)):
        nodes = _nodes(data, [])
        if not nodes:
            break
        parent, key = rng.choice(nodes)
        kind = rng.randrange(4)
        if kind == 0:
            parent[key] = rng.choice(_JSON_VALUES)
        elif kind == 1:
            del parent[key]
        elif kind == 2:
            other_parent, other_key = rng.choice(nodes)
            parent[key] = copy.deepcopy(other_parent[other_key])
        elif isinstance(parent[key], int) and not isinstance(parent[key], bool):
            parent[key] = rng.choice((parent[key] + 1, -parent[key], 0, 2**63))
        else:
            parent[key] = [parent[key]]
    return data


def test_fuzz_pir_json(tmp_path: Path) -> None:
    paths = [SAVED / "cnn_jit" / "model.json", DATA / "ir" / "18_cond.json"]
    paths += [DATA / "ir" / "19_while_loop.json", DATA / "ir" / "22_attribute_zoo.json"]
    seeds = [(p.read_text(), json.loads(p.read_text())) for p in paths]
    model = tmp_path / "model"
    shutil.copy(SAVED / "cnn_jit" / "model.pdiparams", tmp_path / "model.pdiparams")

    def case(rng: random.Random, index: int) -> None:
        text, data = rng.choice(seeds)
        if index % 4 == 0:
            content = mutate_bytes(text.encode(), rng)
        else:
            content = json.dumps(mutate_json(data, rng)).encode()
        (tmp_path / "model.json").write_bytes(content)
        if index % 2:
            read_inference_model(model)
        else:
            verify(load_program_json(tmp_path / "model.json"))

    _run_cases("json", 300, case)


# -- .pdmodel ----------------------------------------------------------------------------------
_MODELS = ("mlp", "cnn", "cond_in_while", "while_accumulate", "switch_case", "assorted")


def mutate_program_desc(message: ProgramDescProto, rng: random.Random) -> None:
    """One structural change a corrupt or hand-made file could hold."""
    block = rng.choice(message.blocks)
    kind = rng.randrange(8)
    if kind == 0:
        block.parent_idx = rng.choice((-1, 0, 1, block.idx, len(message.blocks), 2**31 - 1))
    elif kind == 1:
        block.idx = rng.choice((0, 1, len(message.blocks), -5))
    elif not block.ops:
        return
    op = rng.choice(block.ops)
    if kind == 2:
        field = rng.choice((op.inputs, op.outputs))
        if field:
            del rng.choice(field).arguments[:]
    elif kind == 3 and op.attrs:
        attr = rng.choice(op.attrs)
        attr.type = rng.randrange(18)
    elif kind == 4 and op.attrs:
        attr = rng.choice(op.attrs)
        attr.block_idx = rng.choice((0, 1, 2, block.idx, 99))
        attr.i = rng.choice((-1, 0, 2**31 - 1))
        attr.ints[:] = [rng.choice((-1, 0, 2**31 - 1)) for _ in range(rng.randint(0, 3))]
    elif kind == 5 and block.vars:
        var = rng.choice(block.vars)
        dims = var.type.dense_tensor.tensor.dims
        dims[:] = [rng.choice((-1, 0, 1, 2**40, 2**62)) for _ in range(rng.randint(0, 70))]
    elif kind == 6:
        other = rng.choice(rng.choice(message.blocks).ops or [op])
        op.type = other.type
    elif kind == 7 and block.vars:
        del block.vars[rng.randrange(len(block.vars))]


def test_fuzz_pdmodel(tmp_path: Path) -> None:
    seeds = []
    for name in _MODELS:
        message = ProgramDescProto()
        message.ParseFromString((LEGACY / name / "model.pdmodel").read_bytes())
        params = LEGACY / name / "model.pdiparams"
        seeds.append((message, params.read_bytes() if params.exists() else None))
    prefix = tmp_path / "model"

    def case(rng: random.Random, index: int) -> None:
        message, params = rng.choice(seeds)
        if index % 5 == 0:
            content = mutate_bytes(message.SerializeToString(), rng)
        else:
            mutant = ProgramDescProto()
            mutant.CopyFrom(message)
            for _ in range(rng.randint(1, 2)):
                mutate_program_desc(mutant, rng)
            content = mutant.SerializePartialToString()
        (tmp_path / "model.pdmodel").write_bytes(content)
        params_path = tmp_path / "model.pdiparams"
        if params is None:
            params_path.unlink(missing_ok=True)
        else:
            params_path.write_bytes(params)
        read_legacy_inference_model(str(prefix))

    _run_cases("pdmodel", 250, case)


# -- PIR text ----------------------------------------------------------------------------------
_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|%\w+|[\w.<>-]+|\S')
_TEXT_TOKENS = ("{", "}", "(", ")", "[", "]", ":", ",", "=", "->", "%0", "%999", '"pd_op.add"',
                "9" * 500, "-1", "tensor<2x3xf32>", "tensor<" + "9" * 450 + "xf32>", "1e999",
                "<<NULL VALUE>>", "Place", "\"", "^", "pd_op.if")  # fmt: skip


def mutate_text(text: str, rng: random.Random) -> str:
    tokens = [(m.start(), m.end()) for m in _TOKEN.finditer(text)]
    pieces = list(text)
    for _ in range(rng.randint(1, 3)):
        start, end = rng.choice(tokens)
        kind = rng.randrange(3)
        replacement = "" if kind == 0 else rng.choice(_TEXT_TOKENS)
        if kind == 2:
            replacement = text[start:end] + " " + replacement
        pieces[start:end] = [replacement] + [""] * (end - start - 1)
    return "".join(pieces)


def test_fuzz_pir_text() -> None:
    seeds = [p.read_text() for p in sorted((DATA / "ir").glob("*.txt"))]

    def case(rng: random.Random, index: int) -> None:
        text = rng.choice(seeds)
        if index % 4 == 0:
            mutated = mutate_bytes(text.encode(), rng).decode("utf-8", "replace")
        else:
            mutated = mutate_text(text, rng)
        parse_program(mutated, "fuzz.txt")

    _run_cases("text", 300, case)


# -- .npy inputs of phiops run -----------------------------------------------------------------
def test_fuzz_npy_inputs(tmp_path: Path) -> None:
    seeds = [(SAVED / m / "input.npy").read_bytes() for m in ("cnn_jit", "transformer_jit")]
    path = tmp_path / "x.npy"

    def case(rng: random.Random, index: int) -> None:
        path.write_bytes(mutate_bytes(rng.choice(seeds), rng))
        _read_npy(path, "--input x")

    _run_cases("npy", 200, case)
