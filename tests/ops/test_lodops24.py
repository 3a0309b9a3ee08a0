"""The last LoD ops of issue 24 (lodops24 family): match_matrix_tensor (+ grad), pyramid_hash
(+ its in-place grad), attention_lstm and beam_search, for every registered dtype against numpy
references written here from the ops' definitions (an XXH32 of its own for pyramid_hash), with
their edges (empty sequences, ended beams, a one-id sequence) and bad input: a missing or
malformed LoD is a named error. tests/ops/test_lodops24_paddle.py compares PaddlePaddle 3.3.1's
recorded results."""

from __future__ import annotations

import struct

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
import phiops.generated.backward as backward
import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.dispatch.op_def import OP_DEFS
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.kernels.coverage import paddle_data
from phiops.runtime.kernels.impl.lodops24_kernel import rand_r_draws, xxh32_words
from tests.ops.op_testing import cpu_dtypes, op_test

OPS = ("match_matrix_tensor", "pyramid_hash", "attention_lstm", "beam_search")
GRADS = ("match_matrix_tensor_grad", "pyramid_hash_grad")


def lod_tensor(
    values: np.ndarray, lod: list[list[int]] | None, stop_gradient: bool = True
) -> phiops.Tensor:
    tensor = phi.to_tensor(values)
    tensor.stop_gradient = stop_gradient
    if lod:
        tensor.set_lod(lod)
    return tensor


def values(shape: tuple[int, ...], seed: int, dtype: str = "float32") -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype)


def all_outputs(op: str, inputs: tuple, attrs: tuple) -> tuple:
    """Every output of ``op``, intermediates included (the op's dispatcher gives them all)."""
    return OP_DEFS[op].dispatcher.call(inputs, attrs)


def test_registrations_are_paddles() -> None:
    kernels = paddle_data()["kernels"]
    for op in OPS + GRADS:
        assert sorted(d.name.lower() for d in cpu_dtypes(op)) == sorted(kernels[op]), op


# -- match_matrix_tensor ------------------------------------------------------------------------


def match_reference(x, y, w, x_offsets, y_offsets):
    blocks = []
    for b in range(len(x_offsets) - 1):
        xs, ys = x[x_offsets[b] : x_offsets[b + 1]], y[y_offsets[b] : y_offsets[b + 1]]
        for t in range(w.shape[1]):
            block = np.zeros((len(xs), len(ys)), np.float64)
            for i in range(len(xs)):
                for j in range(len(ys)):
                    block[i, j] = (
                        xs[i].astype(np.float64)
                        @ w[:, t, :].astype(np.float64)
                        @ ys[j].astype(np.float64)
                    )
            blocks.append(block.ravel())
    return np.concatenate(blocks).reshape(-1, 1)


def match_grad_reference(x, y, w, x_offsets, y_offsets, grad):
    x, y, w, grad = (a.astype(np.float64) for a in (x, y, w, grad.ravel()))
    gx, gy, gw = np.zeros_like(x), np.zeros_like(y), np.zeros_like(w)
    position = 0
    for b in range(len(x_offsets) - 1):
        for t in range(w.shape[1]):
            for i in range(x_offsets[b], x_offsets[b + 1]):
                for j in range(y_offsets[b], y_offsets[b + 1]):
                    g = grad[position]
                    position += 1
                    gx[i] += g * (w[:, t, :] @ y[j])
                    gy[j] += g * (x[i] @ w[:, t, :])
                    gw[:, t, :] += g * np.outer(x[i], y[j])
    return gx, gy, gw


MATCH_CASES = [
    ([[0, 2, 5]], [[0, 3, 4]], 3, 3, 2),
    ([[0, 0, 2, 3]], [[0, 2, 2, 4]], 2, 2, 3),  # empty sequences on each side
    ([[0, 1, 3]], [[0, 2, 3]], 2, 4, 1),  # y wider than x: the bilinear form of any widths
]


@op_test("match_matrix_tensor", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("match_matrix_tensor"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("x_lod, y_lod, width_x, width_y, dim_t", MATCH_CASES)
def test_match_matrix_tensor_and_its_grad_match_the_definition(
    dtype, x_lod, y_lod, width_x, width_y, dim_t
) -> None:
    name = dtype.name.lower()
    x = values((x_lod[0][-1], width_x), 1, name)
    y = values((y_lod[0][-1], width_y), 2, name)
    w = values((width_x, dim_t, width_y), 3, name)
    out, tmp = all_outputs(
        "match_matrix_tensor",
        (lod_tensor(x, x_lod), lod_tensor(y, y_lod), lod_tensor(w, None)),
        (dim_t,),
    )
    want = match_reference(x, y, w, x_lod[0], y_lod[0])
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-5, atol=1e-6)
    assert out.numpy().dtype == np.dtype(name)
    sizes = [
        dim_t * (x_lod[0][b + 1] - x_lod[0][b]) * (y_lod[0][b + 1] - y_lod[0][b])
        for b in range(len(x_lod[0]) - 1)
    ]
    assert out.lod() == [list(np.concatenate([[0], np.cumsum(sizes)]).astype(int))]
    np.testing.assert_allclose(
        tmp.numpy().reshape(len(x), -1),
        x.astype(np.float64) @ w.reshape(width_x, -1),
        rtol=1e-5,
        atol=1e-6,
    )
    grad = values(out.shape, 4, name)
    got = backward.match_matrix_tensor_grad(
        lod_tensor(x, x_lod),
        lod_tensor(y, y_lod),
        lod_tensor(w, None),
        tmp,
        phi.to_tensor(grad),
        dim_t,
    )
    for g, want_g in zip(got, match_grad_reference(x, y, w, x_lod[0], y_lod[0], grad)):
        np.testing.assert_allclose(g.numpy(), want_g, rtol=1e-5, atol=1e-6)


@op_test("match_matrix_tensor", kind="edge")
def test_match_matrix_tensor_gradients_flow_through_autograd() -> None:
    x = lod_tensor(values((3, 2), 5), [[0, 1, 3]], stop_gradient=False)
    y = lod_tensor(values((3, 2), 6), [[0, 2, 3]], stop_gradient=False)
    w = lod_tensor(values((2, 2, 2), 7), None, stop_gradient=False)
    out, _ = phi.match_matrix_tensor(x, y, w, 2)
    grads = phi.grad([out], [x, y, w])
    want = match_grad_reference(
        x.numpy(), y.numpy(), w.numpy(), [0, 1, 3], [0, 2, 3], np.ones(out.shape)
    )
    for g, want_g in zip(grads, want):
        np.testing.assert_allclose(g.numpy(), want_g, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "x_lod, y_lod, w_shape, dim_t, message",
    [
        (None, [[0, 3]], (2, 1, 2), 1, "argument 'x' carries no LoD"),
        ([[0, 3]], None, (2, 1, 2), 1, "argument 'y' carries no LoD"),
        (
            [[0, 1, 2], [0, 1, 3]],
            [[0, 3]],
            (2, 1, 2),
            1,
            "argument 'x': its LoD's first level ends at 2, but it has 3 rows",
        ),
        ([[0, 1, 3]], [[0, 3]], (2, 1, 2), 1, "as many sequences, got 2 and 1"),
        ([[0, 3]], [[0, 3]], (2, 2, 2), 1, "argument 'w' must have shape"),
        ([[0, 3]], [[0, 3]], (2, 1, 2), 0, "argument 'dim_t' must be >= 1"),
    ],
)
def test_match_matrix_tensor_refuses_bad_input(x_lod, y_lod, w_shape, dim_t, message: str) -> None:
    x, y = lod_tensor(values((3, 2), 8), x_lod), lod_tensor(values((3, 2), 9), y_lod)
    with pytest.raises(InvalidArgumentError, match=message):
        phi.match_matrix_tensor(x, y, phi.to_tensor(values(w_shape, 10)), dim_t)


# -- pyramid_hash -------------------------------------------------------------------------------


def xxh32_reference(data: bytes, seed: int) -> int:
    """XXH32 from its specification (xxhash_spec.md), byte string by byte string."""
    p1, p2, p3, p4, p5 = 2654435761, 2246822519, 3266489917, 668265263, 374761393
    mask = 0xFFFFFFFF

    def rotl(v: int, r: int) -> int:
        return ((v << r) | (v >> (32 - r))) & mask

    def round_(acc: int, lane: int) -> int:
        return (rotl((acc + lane * p2) & mask, 13) * p1) & mask

    position, length = 0, len(data)
    if length >= 16:
        acc = [(seed + p1 + p2) & mask, (seed + p2) & mask, seed & mask, (seed - p1) & mask]
        while position + 16 <= length:
            for lane in range(4):
                acc[lane] = round_(
                    acc[lane], struct.unpack_from("<I", data, position + 4 * lane)[0]
                )
            position += 16
        h = (rotl(acc[0], 1) + rotl(acc[1], 7) + rotl(acc[2], 12) + rotl(acc[3], 18)) & mask
    else:
        h = (seed + p5) & mask
    h = (h + length) & mask
    while position + 4 <= length:
        h = (rotl((h + struct.unpack_from("<I", data, position)[0] * p3) & mask, 17) * p4) & mask
        position += 4
    while position < length:
        h = (rotl((h + data[position] * p5) & mask, 11) * p1) & mask
        position += 1
    h ^= h >> 15
    h = (h * p2) & mask
    h ^= h >> 13
    h = (h * p3) & mask
    return h ^ (h >> 16)


def test_xxh32_gives_the_published_values() -> None:
    # xxHash's own sanity checks: the empty input with seed 0 and with seed PRIME32_1
    assert int(xxh32_words(np, np.zeros((1, 0), np.uint32), 0)[0]) == 0x02CC5D05
    assert int(xxh32_words(np, np.zeros((1, 0), np.uint32), 2654435761)[0]) == 0x36B78AE7
    words = np.random.default_rng(11).integers(0, 2**32, (5, 9), dtype=np.uint32)
    for length in (1, 3, 4, 5, 9):  # below and above one 16-byte stripe
        for seed in (0, 4, 2**31 + 7):
            got = xxh32_words(np, words[:, :length], seed)
            want = [xxh32_reference(row[:length].astype("<u4").tobytes(), seed) for row in words]
            assert got.tolist() == want, (length, seed)


def test_rand_r_draws_are_glibcs() -> None:
    def reference(seed: int, count: int) -> list[int]:  # glibc's stdlib/rand_r.c, step by step
        out, state = [], seed
        for _ in range(count):
            state = (state * 1103515245 + 12345) & 0xFFFFFFFF
            result = (state // 65536) % 2048
            state = (state * 1103515245 + 12345) & 0xFFFFFFFF
            result = (result << 10) ^ ((state // 65536) % 1024)
            state = (state * 1103515245 + 12345) & 0xFFFFFFFF
            result = (result << 10) ^ ((state // 65536) % 1024)
            out.append(result)
        return out

    assert rand_r_draws(1, 6) == reference(1, 6)
    assert rand_r_draws(12345, 3) == reference(12345, 3)


def pyramid_reference(ids, offsets, w, num_emb, space_len, pyramid_layer, rand_len, scale):
    rows, top = [], [0]
    for start, end in zip(offsets, offsets[1:]):
        seq = np.asarray(ids[start:end], np.float32)
        kept = 0
        for layer in range(1, min(pyramid_layer, len(seq))):
            for first in range(len(seq) - layer):
                data = seq[first : first + layer + 1].tobytes()
                row = []
                for j in range(0, num_emb, rand_len):
                    pos = xxh32_reference(data, j) % space_len
                    row.extend(w[pos : pos + rand_len, 0])
                rows.append(row)
                kept += 1
        if not kept:
            rows.append([0.0] * num_emb)
        top.append(top[-1] + max(kept, 1))
    return np.asarray(rows, w.dtype) * scale, top


def pyramid_call(
    x, w, num_emb=4, space_len=16, pyramid_layer=2, rand_len=2, drop=0.0, training=1, seed=0, lr=0.0
):
    filters = phi.to_tensor(np.zeros((1, 1), np.float32))
    attrs = (num_emb, space_len, pyramid_layer, rand_len, drop, training, False, 0, 0, seed, lr, "")
    return all_outputs("pyramid_hash", (x, w, filters, filters), attrs)


@op_test("pyramid_hash", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("pyramid_hash"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("training", [1, 0])
def test_pyramid_hash_matches_the_definition(dtype: DataType, training: int) -> None:
    ids, offsets = [4, 8, 15, 16, 23, 42, 7], [
        0,
        4,
        5,
        7,
    ]  # the middle sequence has one id: a zero row
    if dtype is DataType.INT8:
        w = np.random.default_rng(12).integers(-100, 100, (20, 1)).astype(np.int8)
    else:
        w = values((20, 1), 12)
    # training keeps every term with drop_out_percent 0; inference scales a float w's rows by it
    drop = 0.0 if training else 0.5
    out, drop_pos, x_temp = pyramid_call(
        lod_tensor(np.asarray(ids, np.int32).reshape(-1, 1), [offsets]), phi.to_tensor(w),
        num_emb=6, space_len=17, pyramid_layer=3, rand_len=3, drop=drop, training=training,
    )  # fmt: skip
    scale = 0.5 if training == 0 and dtype is not DataType.INT8 else 1
    want, top = pyramid_reference(ids, offsets, w, 6, 17, 3, 3, 1)
    assert out.numpy().dtype == w.dtype
    np.testing.assert_allclose(
        out.numpy().astype(np.float64), want.astype(np.float64) * scale, rtol=1e-6
    )
    assert out.lod() == [top]
    assert (
        drop_pos.numpy().ravel().tolist() == [1] * 6 + [0] * 15
    )  # 5 + 0 + 1 terms, of 7 * 3 places
    assert drop_pos.lod() == [[0, 5, 5, 6]]
    np.testing.assert_array_equal(x_temp.numpy().ravel(), np.asarray(ids, np.float32))


@op_test("pyramid_hash", kind="edge")
def test_pyramid_hash_of_single_id_sequences_gives_zero_rows() -> None:
    x = lod_tensor(np.asarray([[3], [5]], np.int32), [[0, 1, 2]])
    out, drop_pos, _ = pyramid_call(x, phi.to_tensor(values((18, 1), 13)))
    np.testing.assert_array_equal(out.numpy(), np.zeros((2, 4), np.float32))
    assert out.lod() == [[0, 1, 2]]
    assert drop_pos.lod() == [[0, 0, 0]]


def test_pyramid_hash_grad_steps_w_in_place() -> None:
    ids, offsets = [1, 2, 3, 9], [0, 3, 4]
    x = lod_tensor(np.asarray(ids, np.int32).reshape(-1, 1), [offsets])
    w0 = values((18, 1), 14)
    w = phi.to_tensor(w0.copy())
    out, drop_pos, x_temp = pyramid_call(x, w, lr=0.5)
    grad = values(tuple(out.shape), 15)
    x_grad = backward.pyramid_hash_grad(
        x, w, drop_pos, x_temp, phi.to_tensor(grad), 4, 16, 2, 2, 0.0, 1, False, 0, 0, 0, 0.5, ""
    )
    want = w0.astype(np.float64).copy()
    seq = np.asarray(ids[:3], np.float32)
    for row, first in enumerate(
        (0, 1)
    ):  # the terms (1, 2) and (2, 3); the one-id sequence has none
        data = seq[first : first + 2].tobytes()
        for j in range(0, 4, 2):
            pos = xxh32_reference(data, j) % 16
            want[pos : pos + 2, 0] -= 0.5 * grad[row, j : j + 2]
    np.testing.assert_allclose(w.numpy(), want, rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(x_grad.numpy(), np.zeros((4, 1), np.int32))


@pytest.mark.parametrize(
    "ids, lod, w_rows, kwargs, error, message",
    [
        (
            np.zeros((3, 1), np.int32),
            None,
            18,
            {},
            InvalidArgumentError,
            "argument 'x' carries no LoD",
        ),
        (
            np.zeros((3, 1), np.int32),
            [[0, 1, 2], [0, 2, 3]],
            18,
            {},
            InvalidArgumentError,
            "first level ends at 2, but it has 3 rows",
        ),
        (
            np.zeros((3, 1), np.int64),
            [[0, 3]],
            18,
            {},
            InvalidArgumentError,
            "argument 'x' must hold int32 ids",
        ),
        (np.zeros((3, 2), np.int32), [[0, 3]], 18, {}, InvalidArgumentError, "one id per row"),
        (
            np.zeros((3, 1), np.int32),
            [[0, 3]],
            17,
            {},
            InvalidArgumentError,
            "space_len \\+ rand_len, 1\\] = \\[18, 1\\]",
        ),
        (
            np.zeros((3, 1), np.int32),
            [[0, 3]],
            19,
            {"num_emb": 5, "rand_len": 3},
            InvalidArgumentError,
            "multiple of rand_len",
        ),
        (
            np.zeros((3, 1), np.int32),
            [[0, 3]],
            18,
            {"pyramid_layer": 1},
            InvalidArgumentError,
            "'pyramid_layer' must be >= 2",
        ),
    ],
)
def test_pyramid_hash_refuses_bad_input(ids, lod, w_rows, kwargs, error, message: str) -> None:
    with pytest.raises(error, match=message):
        pyramid_call(lod_tensor(ids, lod), phi.to_tensor(values((w_rows, 1), 16)), **kwargs)


def test_pyramid_hash_bloom_filters_are_unimplemented() -> None:
    x = lod_tensor(np.zeros((2, 1), np.int32), [[0, 2]])
    filters = phi.to_tensor(np.zeros((1, 1), np.float32))
    with pytest.raises(UnimplementedError, match="bloom filters"):
        C.pyramid_hash(
            x,
            phi.to_tensor(values((18, 1), 17)),
            filters,
            filters,
            4,
            16,
            2,
            2,
            0.0,
            0,
            True,
            1,
            0,
            0,
            0.0,
            "",
        )


# -- attention_lstm -----------------------------------------------------------------------------


def attention_lstm_reference(
    x, offsets, c0, h0, att_w, att_b, scalar, scalar_b, lstm_w, lstm_b, acts
):
    act = {
        "sigmoid": lambda v: 1 / (1 + np.exp(-v)),
        "tanh": np.tanh,
        "relu": lambda v: np.maximum(v, 0),
        "identity": lambda v: v,
    }
    m, d = x.shape[1], lstm_w.shape[1] // 4
    hidden, cell = np.zeros((len(x), d)), np.zeros((len(x), d))
    scores = x @ att_w[:m, 0] + (att_b[0, 0] if att_b is not None else 0)
    for s, (start, end) in enumerate(zip(offsets, offsets[1:])):
        c, h = c0[s], (h0[s] if h0 is not None else None)
        for t in range(start, end):
            e = np.maximum(scores[start:end] + c @ att_w[m:, 0], 0)
            if scalar is not None:
                e = np.maximum(
                    e * scalar[0, 0] + (scalar_b[0, 0] if scalar_b is not None else 0), 0
                )
            a = np.exp(e - e.max()) / np.exp(e - e.max()).sum()
            z = (
                (a @ x[start:end]) @ lstm_w[d:]
                + lstm_b[0]
                + (h @ lstm_w[:d] if h is not None else 0)
            )
            f, i, o = (act[acts[0]](z[k * d : (k + 1) * d]) for k in range(3))
            c = f * c + i * act[acts[2]](z[3 * d :])
            h = act[acts[1]](c) * o
            cell[t], hidden[t] = c, h
    return hidden, cell


ATTENTION_CASES = [
    ([[0, 2, 5]], True, True, False, ("sigmoid", "tanh", "tanh")),
    ([[0, 0, 1, 4]], False, False, True, ("sigmoid", "relu", "identity")),  # an empty sequence
]


@op_test("attention_lstm", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("attention_lstm"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("lod, with_h0, with_bias, with_scalar, acts", ATTENTION_CASES)
def test_attention_lstm_matches_the_definition(
    dtype, lod, with_h0, with_bias, with_scalar, acts
) -> None:
    name, m, d = dtype.name.lower(), 3, 2
    count = len(lod[0]) - 1
    x = values((lod[0][-1], m), 20, name)
    c0, h0 = values((count, d), 21, name), (values((count, d), 22, name) if with_h0 else None)
    att_w, att_b = values((m + d, 1), 23, name), (values((1, 1), 24, name) if with_bias else None)
    scalar = values((1, 1), 25, name) + 1.5 if with_scalar else None
    scalar_b = values((1, 1), 26, name) if with_scalar else None
    lstm_w, lstm_b = values((d + m, 4 * d), 27, name), values((1, 4 * d), 28, name)
    wrap = lambda a: None if a is None else phi.to_tensor(a)  # noqa: E731
    hidden, cell, attentioned, fc_out, lstm_x, lstm_out = all_outputs(
        "attention_lstm",
        (
            lod_tensor(x, lod),
            wrap(c0),
            wrap(h0),
            wrap(att_w),
            wrap(att_b),
            wrap(scalar),
            wrap(scalar_b),
            wrap(lstm_w),
            wrap(lstm_b),
        ),
        acts,
    )
    want_h, want_c = attention_lstm_reference(
        x, lod[0], c0, h0, att_w, att_b, scalar, scalar_b, lstm_w, lstm_b, acts
    )
    tol = {"rtol": 1e-5, "atol": 1e-6} if name == "float32" else {"rtol": 1e-10, "atol": 1e-12}
    np.testing.assert_allclose(hidden.numpy(), want_h, **tol)
    np.testing.assert_allclose(cell.numpy(), want_c, **tol)
    assert hidden.lod() == lod and cell.lod() == lod
    assert hidden.numpy().dtype == np.dtype(name)
    want_scores = x @ att_w[:m] + (att_b[0, 0] if att_b is not None else 0)
    np.testing.assert_allclose(attentioned.numpy(), want_scores, **tol)
    assert (
        fc_out.shape == [max(np.diff(lod[0])), 1]
        and lstm_x.shape == [1, m]
        and lstm_out.shape == [1, 4 * d]
    )


@op_test("attention_lstm", kind="edge")
@pytest.mark.parametrize(
    "lod, c0_rows, activation, message",
    [
        (None, 2, "tanh", "argument 'x' carries no LoD"),
        ([[0, 1, 3], [0, 1, 3, 4]], 2, "tanh", "a LoD of one level, got 2"),
        ([[0, 1, 4]], 3, "tanh", "argument 'c0' must have a row for each of x's 2 sequences"),
        ([[0, 1, 4]], 2, "softplus", "argument 'cell_activation' must be one of"),
    ],
)
def test_attention_lstm_refuses_bad_input(lod, c0_rows, activation, message: str) -> None:
    m, d = 3, 2
    args = (
        lod_tensor(values((4, m), 30), lod), phi.to_tensor(values((c0_rows, d), 31)), None,
        phi.to_tensor(values((m + d, 1), 32)), None, None, None,
        phi.to_tensor(values((d + m, 4 * d), 33)), phi.to_tensor(values((1, 4 * d), 34)),
    )  # fmt: skip
    with pytest.raises(InvalidArgumentError, match=message):
        phi.attention_lstm(*args, "sigmoid", activation, "tanh")


# -- beam_search --------------------------------------------------------------------------------


def beam_reference(pre_ids, pre_scores, ids, scores, sources, beam_size, end_id, accumulated):
    """Per source, the beam_size best (score, prefix) candidates (no ties in these inputs),
    grouped by prefix; a source whose every pick is end_id after an ended prefix is dropped."""
    picked = {p: [] for p in range(len(pre_ids))}
    for start, end in zip(sources, sources[1:]):
        candidates = []
        for p in range(start, end):
            if pre_ids[p] == end_id:
                candidates.append((pre_scores[p], p, end_id))
            else:
                for k in range(scores.shape[1]):
                    score = (
                        scores[p, k]
                        if accumulated
                        else np.float32(pre_scores[p] + np.log(scores[p, k]))
                    )
                    candidates.append((score, p, ids[p, k]))
        best = sorted(candidates, key=lambda c: (c[0], c[1]), reverse=True)[:beam_size]
        if all(c[2] == end_id and pre_ids[c[1]] == end_id for c in best):
            continue
        for c in best:
            picked[c[1]].append(c)
    flat = [c for p in range(len(pre_ids)) for c in picked[p]]
    low = np.concatenate([[0], np.cumsum([len(picked[p]) for p in range(len(pre_ids))])]).tolist()
    return [c[2] for c in flat], [c[0] for c in flat], [c[1] for c in flat], low


BEAM_CASES = [
    # two sources of two prefixes, the second prefix ended; log-probabilities
    ([[0, 2, 4], [0, 1, 2, 3, 4]], [3, 0, 5, 6], 3, False),
    # the first source ended entirely (pruned); accumulated scores
    ([[0, 2, 3], [0, 1, 2, 3]], [0, 0, 4], 2, True),
]


@op_test("beam_search", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("beam_search"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("lod, prefix_ids, beam_size, accumulated", BEAM_CASES)
def test_beam_search_matches_the_definition(dtype, lod, prefix_ids, beam_size, accumulated) -> None:
    # the kernel is chosen by pre_ids' dtype in PaddlePaddle: every registered one reads int64 ids
    # and float32 scores, so the dtype only selects the kernel here
    rows = len(prefix_ids)
    pre_ids = np.asarray(prefix_ids, np.int64).reshape(-1, 1)
    pre_scores = np.asarray([-0.5, -0.2, -1.0, -0.7][:rows], np.float32).reshape(-1, 1)
    ids = np.arange(10, 10 + 3 * rows, dtype=np.int64).reshape(rows, 3)
    scores = (
        np.random.default_rng(40)
        .permutation(np.linspace(0.05, 0.95, 3 * rows))
        .astype(np.float32)
        .reshape(rows, 3)
    )
    kernel = OP_DEFS["beam_search"].dispatcher
    selected_ids, selected_scores, parent = kernel.call(
        (
            lod_tensor(pre_ids, lod),
            lod_tensor(pre_scores, lod),
            lod_tensor(ids, lod),
            lod_tensor(scores, lod),
        ),
        (0, beam_size, 0, accumulated),
    )
    sources = [lod[1][o] for o in lod[0]]
    want_ids, want_scores, want_parent, low = beam_reference(
        pre_ids[:, 0], pre_scores[:, 0], ids, scores, sources, beam_size, 0, accumulated
    )
    assert selected_ids.numpy().ravel().tolist() == want_ids
    np.testing.assert_allclose(selected_scores.numpy().ravel(), want_scores, rtol=1e-6)
    assert parent.numpy().tolist() == want_parent
    assert selected_ids.lod() == [sources, low] and selected_scores.lod() == [sources, low]
    assert (selected_ids.numpy().dtype, selected_scores.numpy().dtype, parent.numpy().dtype) == (
        np.int64, np.float32, np.int32,
    )  # fmt: skip
    assert dtype in cpu_dtypes("beam_search")


@op_test("beam_search", kind="edge")
def test_beam_search_without_ids_takes_the_column_as_the_id() -> None:
    lod = [[0, 1], [0, 1]]
    scores = lod_tensor(np.asarray([[0.1, 0.7, 0.2]], np.float32), lod)
    selected_ids, selected_scores, parent = phi.beam_search(
        lod_tensor(np.asarray([[5]], np.int64), lod),
        lod_tensor(np.asarray([[0.0]], np.float32), lod),
        None,
        scores,
        0,
        2,
        0,
    )
    assert selected_ids.numpy().ravel().tolist() == [1, 2]
    np.testing.assert_allclose(selected_scores.numpy().ravel(), [0.7, 0.2])
    assert parent.numpy().tolist() == [0, 0]


@pytest.mark.parametrize(
    "lod, level, beam_size, message",
    [
        (None, 0, 2, "argument 'scores' carries no LoD"),
        ([[0, 1], [0, 1]], 2, 2, "argument 'level' must be in \\[0, 2\\)"),
        ([[0, 1], [0, 1]], 0, 0, "argument 'beam_size' must be >= 1"),
    ],
)
def test_beam_search_refuses_bad_input(lod, level, beam_size, message: str) -> None:
    make = lambda a: lod_tensor(a, lod)  # noqa: E731
    with pytest.raises(InvalidArgumentError, match=message):
        phi.beam_search(
            make(np.asarray([[5]], np.int64)), make(np.asarray([[0.0]], np.float32)), None,
            make(np.asarray([[0.1, 0.7, 0.2]], np.float32)), level, beam_size, 0,
        )  # fmt: skip


# -- static programs ----------------------------------------------------------------------------


def test_a_static_program_runs_the_ops_on_fed_lod_tensors() -> None:
    x, y, w = values((3, 2), 50), values((4, 2), 51), values((2, 2, 2), 52)
    ids = np.asarray([[2], [7], [1], [8]], np.int32)
    table = values((18, 1), 53)
    phiops.enable_static()
    try:
        main = phiops.static.Program()
        with phiops.static.program_guard(main, phiops.static.Program()):
            xs = phiops.static.data("x", [-1, 2], "float32")
            ys = phiops.static.data("y", [-1, 2], "float32")
            ws = phiops.static.data("w", [2, 2, 2], "float32")
            id_values = phiops.static.data("ids", [-1, 1], "int32")
            table_value = phiops.static.data("table", [18, 1], "float32")
            filters = phiops.static.data("filters", [1, 1], "float32")
            matched, _ = C.match_matrix_tensor(xs, ys, ws, 2)
            hashed, _ = C.pyramid_hash(
                id_values,
                table_value,
                filters,
                filters,
                4,
                16,
                2,
                2,
                0.0,
                1,
                False,
                0,
                0,
                0,
                0.0,
                "",
            )
        exe = phiops.static.Executor(phiops.CPUPlace())
        feed = {
            "x": lod_tensor(x, [[0, 1, 3]]), "y": lod_tensor(y, [[0, 2, 4]]), "w": w,
            "ids": lod_tensor(ids, [[0, 3, 4]]), "table": table, "filters": np.zeros((1, 1), np.float32),
        }  # fmt: skip
        got, hashed_got = exe.run(main, feed=feed, fetch_list=[matched, hashed], return_numpy=False)
    finally:
        phiops.disable_static()
    np.testing.assert_allclose(
        got.numpy(), match_reference(x, y, w, [0, 1, 3], [0, 2, 4]), rtol=1e-5, atol=1e-6
    )
    assert got.lod() == [[0, 4, 12]]
    want, top = pyramid_reference([2, 7, 1, 8], [0, 3, 4], table, 4, 16, 2, 2, 1)
    np.testing.assert_allclose(hashed_got.numpy(), want, rtol=1e-6)
    assert hashed_got.lod() == [top]
