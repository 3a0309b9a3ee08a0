"""The sequence, NLP and graph ops of issue 24 (seq24 family): gather_tree, viterbi_decode,
edit_distance, ...: every registered dtype against a numpy reference written here from the ops'
definitions, the registrations against PaddlePaddle 3.3.1's, edges (one step, empty inputs,
sequences of length 0, non-contiguous inputs), bad input and the Python functions
(``paddle.nn.functional``, ``paddle.text``). tests/ops/test_seq24_paddle.py compares
PaddlePaddle 3.3.1's recorded results."""

from __future__ import annotations

import inspect
import itertools

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
import phiops.generated as phi
import phiops.nn.functional as F
import phiops.geometric
import phiops.incubate
import phiops.text
from phiops.generated import backward as B
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.kernels.coverage import paddle_data
from tests.ops.op_testing import cpu_dtypes, op_test

D = DataType
OPS = ("gather_tree", "viterbi_decode", "edit_distance", "ctc_align", "crf_decoding", "chunk_eval")
OPS += ("add_position_encoding", "bilinear", "cvm", "swiglu", "fused_softmax_mask", "segment_pool")
OPS += ("send_u_recv",)
GRADS = ("add_position_encoding_grad", "bilinear_grad", "cvm_grad", "swiglu_grad")
GRADS += ("fused_softmax_mask_grad", "segment_pool_grad", "send_u_recv_grad")


def t(values, dtype=None) -> phiops.Tensor:
    return phi.to_tensor(np.asarray(values, dtype))


def test_registrations_are_paddles() -> None:
    kernels = paddle_data()["kernels"]
    for op in OPS + GRADS:
        assert sorted(d.name.lower() for d in cpu_dtypes(op)) == sorted(kernels[op]), op


# -- gather_tree --------------------------------------------------------------------------------


def gather_tree_reference(ids: np.ndarray, parents: np.ndarray) -> np.ndarray:
    steps, batch, beam = ids.shape
    out = np.empty_like(ids)
    for b, k in itertools.product(range(batch), range(beam)):
        out[steps - 1, b, k] = ids[steps - 1, b, k]
        parent = parents[steps - 1, b, k]
        for step in range(steps - 2, -1, -1):
            out[step, b, k] = ids[step, b, parent]
            parent = parents[step, b, parent]
    return out


@op_test("gather_tree", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("gather_tree"), ids=lambda d: d.name.lower())
def test_gather_tree_traces_the_parents_back(dtype: DataType) -> None:
    rng = np.random.default_rng(0)
    ids = rng.integers(0, 50, (6, 3, 4)).astype(dtype.numpy_dtype)
    parents = rng.integers(0, 4, (6, 3, 4)).astype(dtype.numpy_dtype)
    out = C.gather_tree(t(ids), t(parents))
    assert out.dtype == dtype
    np.testing.assert_array_equal(out.numpy(), gather_tree_reference(ids, parents))
    np.testing.assert_array_equal(F.gather_tree(t(ids), t(parents)).numpy(), out.numpy())


@op_test("gather_tree", kind="edge")
def test_gather_tree_edges_and_bad_input() -> None:
    # one step: the ids themselves, the parents never read
    np.testing.assert_array_equal(
        C.gather_tree(t([[[4, 5]]], "int64"), t([[[7, -3]]], "int64")).numpy(), [[[4, 5]]]
    )
    assert C.gather_tree(
        t(np.zeros((0, 2, 3), "int64")), t(np.zeros((0, 2, 3), "int64"))
    ).shape == [0, 2, 3]
    # non-contiguous inputs: every other beam of a wider array
    ids = np.arange(40, dtype="int64").reshape(2, 2, 10)
    parents = np.zeros((2, 2, 10), "int64")
    got = C.gather_tree(t(ids)[:, :, ::2], t(parents)[:, :, ::2])
    np.testing.assert_array_equal(
        got.numpy(), gather_tree_reference(ids[:, :, ::2], parents[:, :, ::2])
    )
    with pytest.raises(InvalidArgumentError, match="parents.*beam indices in \\[0, 2\\)"):
        C.gather_tree(t([[[1, 2]], [[3, 4]]], "int64"), t([[[0, 0]], [[2, 0]]], "int64"))
    with pytest.raises(InvalidArgumentError, match="parents"):
        C.gather_tree(t([[[1, 2]], [[3, 4]]], "int64"), t([[[0, 0]], [[-1, 0]]], "int64"))
    with pytest.raises(InvalidArgumentError, match="'ids' must be a 3-D"):
        C.gather_tree(t([[1, 2]], "int64"), t([[0, 0]], "int64"))
    with pytest.raises(InvalidArgumentError, match="'parents' must have the shape"):
        C.gather_tree(t([[[1, 2]]], "int64"), t([[[0, 0, 0]]], "int64"))
    with pytest.raises(InvalidArgumentError, match="'parents' must have the dtype"):
        C.gather_tree(t([[[1, 2]]], "int64"), t([[[0, 0]]], "int32"))
    assert list(inspect.signature(F.gather_tree).parameters) == ["ids", "parents"]


# -- viterbi_decode -----------------------------------------------------------------------------


def viterbi_reference(
    potentials: np.ndarray, transition: np.ndarray, lengths: np.ndarray, bos_eos: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Brute force: the best-scoring path of each sequence over every tag sequence."""
    batch, _, tags = potentials.shape
    width = int(lengths.max()) if batch else 0
    scores = np.zeros(batch, potentials.dtype)
    paths = np.zeros((batch, width), np.int64)
    for b in range(batch):
        n = int(lengths[b])
        best, best_path = None, ()
        for path in itertools.product(range(tags), repeat=max(n, 1)):
            score = potentials[b, 0, path[0]] + (transition[tags - 1, path[0]] if bos_eos else 0)
            for i in range(1, n):
                score += transition[path[i - 1], path[i]] + potentials[b, i, path[i]]
            if bos_eos and n >= 1:
                score += transition[tags - 2, path[n - 1]]
            if best is None or score > best + 1e-9:
                best, best_path = score, path
        scores[b] = best
        paths[b, :n] = best_path[:n]
    return scores, paths


@op_test("viterbi_decode", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("viterbi_decode"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("bos_eos", [True, False], ids=["bos_eos", "plain"])
def test_viterbi_decode_finds_the_best_path(dtype: DataType, bos_eos: bool) -> None:
    rng = np.random.default_rng(1)
    potentials = rng.normal(size=(3, 4, 3)).astype(dtype.numpy_dtype)
    transition = rng.normal(size=(3, 3)).astype(dtype.numpy_dtype)
    lengths = np.array([4, 2, 3], np.int64)
    scores, path = C.viterbi_decode(t(potentials), t(transition), t(lengths), bos_eos)
    want_scores, want_path = viterbi_reference(potentials, transition, lengths, bos_eos)
    assert scores.dtype == dtype and path.dtype == D.INT64
    np.testing.assert_allclose(scores.numpy(), want_scores, rtol=1e-5)
    np.testing.assert_array_equal(path.numpy(), want_path)
    text_scores, text_path = phiops.text.viterbi_decode(
        t(potentials), t(transition), t(lengths), bos_eos
    )
    np.testing.assert_array_equal(text_path.numpy(), want_path)
    decoder = phiops.text.ViterbiDecoder(t(transition), bos_eos)
    np.testing.assert_array_equal(decoder(t(potentials), t(lengths))[1].numpy(), want_path)


@op_test("viterbi_decode", kind="edge")
def test_viterbi_decode_edges_and_bad_input() -> None:
    potentials = np.random.default_rng(2).normal(size=(2, 3, 4))
    transition = np.random.default_rng(3).normal(size=(4, 4))
    # a length of 0 gives an all-zero path; the path is as wide as the longest sequence
    lengths = np.array([0, 2], np.int64)
    scores, path = C.viterbi_decode(t(potentials), t(transition), t(lengths), False)
    assert path.shape == [2, 2]
    np.testing.assert_array_equal(path.numpy()[0], [0, 0])
    np.testing.assert_array_equal(
        path.numpy()[1], viterbi_reference(potentials, transition, lengths, False)[1][1]
    )
    np.testing.assert_allclose(scores.numpy()[0], potentials[0, 0].max())
    # non-contiguous potentials
    wide = np.random.default_rng(4).normal(size=(2, 3, 8))
    lengths = np.array([3, 1], np.int64)
    got = C.viterbi_decode(t(wide)[:, :, ::2], t(transition), t(lengths), True)
    want = viterbi_reference(wide[:, :, ::2], transition, lengths, True)
    np.testing.assert_allclose(got[0].numpy(), want[0])
    np.testing.assert_array_equal(got[1].numpy(), want[1])
    with pytest.raises(InvalidArgumentError, match="'lengths' must be in \\[0, 3\\]"):
        C.viterbi_decode(t(potentials), t(transition), t(np.array([4, 1])), True)
    with pytest.raises(InvalidArgumentError, match="'lengths' must be int64"):
        C.viterbi_decode(t(potentials), t(transition), t(np.array([2, 1], np.int32)), True)
    with pytest.raises(InvalidArgumentError, match="'transition_params' must be \\[4, 4\\]"):
        C.viterbi_decode(t(potentials), t(transition[:3, :3]), t(np.array([2, 1])), True)
    with pytest.raises(InvalidArgumentError, match="'potentials' must be a 3-D"):
        C.viterbi_decode(t(potentials[0]), t(transition), t(np.array([2, 1])), True)
    with pytest.raises(InvalidArgumentError, match="at least 2 tags"):
        C.viterbi_decode(t(potentials[:, :, :1]), t(transition[:1, :1]), t(np.array([2, 1])), True)
    assert list(inspect.signature(phiops.text.viterbi_decode).parameters) == [
        "potentials", "transition_params", "lengths", "include_bos_eos_tag", "name"
    ]  # fmt: skip


# -- edit_distance ------------------------------------------------------------------------------


def levenshtein(a: list[int], b: list[int]) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]


@op_test("edit_distance", kind="dtypes")
@pytest.mark.parametrize("normalized", [False, True])
def test_edit_distance_is_levenshteins(normalized: bool) -> None:
    # data_type float32: the float32 kernel is the one PaddlePaddle's dispatch (and phiops's) runs
    assert D.FLOAT32 in cpu_dtypes("edit_distance")
    rng = np.random.default_rng(5)
    hyps = rng.integers(0, 3, (5, 6))
    refs = rng.integers(0, 3, (5, 4))
    hl = np.array([6, 0, 3, 5, 1])
    rl = np.array([4, 2, 1, 4, 3])
    count, out = C.edit_distance(t(hyps), t(refs), t(hl), t(rl), normalized)
    want = np.array(
        [levenshtein(list(hyps[i, : hl[i]]), list(refs[i, : rl[i]])) for i in range(5)], np.float32
    )
    if normalized:
        want = want / rl.astype(np.float32)
    assert count.dtype == D.INT64 and out.dtype == D.FLOAT32
    np.testing.assert_array_equal(count.numpy(), [5])
    np.testing.assert_allclose(out.numpy(), want.reshape(5, 1), rtol=1e-6)


@op_test("edit_distance", kind="edge")
def test_edit_distance_edges_and_bad_input() -> None:
    empty = np.zeros((0, 3), np.int64)
    count, out = C.edit_distance(
        t(empty), t(empty), t(np.zeros(0, np.int64)), t(np.zeros(0, np.int64))
    )
    assert count.numpy().tolist() == [0] and out.shape == [0, 1]
    hyps, refs = np.array([[1, 2, 3]]), np.array([[3, 2, 1, 0]])
    # both empty, one empty
    for hl, rl, want in ((0, 0, 0.0), (0, 3, 3.0), (2, 0, 2.0), (3, 3, 2.0)):
        got = C.edit_distance(t(hyps), t(refs), t([hl]), t([rl]))[1]
        assert got.numpy().tolist() == [[want]]
    # non-contiguous
    wide = np.array([[1, 9, 2, 9, 3, 9]])
    got = C.edit_distance(t(wide)[:, ::2], t(refs), t([3]), t([3]), True)[1]
    np.testing.assert_allclose(got.numpy(), [[2 / 3]], rtol=1e-6)
    with pytest.raises(InvalidArgumentError, match="'refslength' must be positive"):
        C.edit_distance(t(hyps), t(refs), t([3]), t([0]), True)
    with pytest.raises(InvalidArgumentError, match="'hypslength' must be in \\[0, 3\\]"):
        C.edit_distance(t(hyps), t(refs), t([4]), t([1]))
    with pytest.raises(InvalidArgumentError, match="'refs' must have the first extent"):
        C.edit_distance(t(hyps), t(np.zeros((2, 2), np.int64)), t([1]), t([1]))
    with pytest.raises(InvalidArgumentError, match="'hyps' must be int64"):
        C.edit_distance(t(hyps.astype(np.int32)), t(refs), t([1]), t([1]))
    with pytest.raises(UnimplementedError, match="LoD"):
        C.edit_distance(t(hyps.reshape(3, 1)), t(refs.reshape(4, 1)), None, None)


# -- ctc_align ----------------------------------------------------------------------------------


def ctc_align_reference(tokens, lengths, blank, merge, padding):
    out = np.full_like(tokens, padding)
    counts = []
    for row, n in enumerate(lengths):
        kept, previous = [], -1
        for token in tokens[row, :n]:
            if token != blank and not (merge and token == previous):
                kept.append(token)
            previous = token
        out[row, : len(kept)] = kept
        counts.append(len(kept))
    return out, np.array(counts).reshape(-1, 1)


@op_test("ctc_align", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("ctc_align"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("merge", [True, False])
def test_ctc_align_drops_blanks_and_repeats(dtype: DataType, merge: bool) -> None:
    tokens = np.random.default_rng(6).integers(0, 4, (4, 8)).astype(dtype.numpy_dtype)
    lengths = np.array([8, 5, 0, 3], dtype.numpy_dtype)
    output, count = C.ctc_align(t(tokens), t(lengths), 1, merge, -2)
    want, want_count = ctc_align_reference(tokens, lengths, 1, merge, -2)
    assert output.dtype == dtype and count.dtype == dtype and count.shape == [4, 1]
    np.testing.assert_array_equal(output.numpy(), want)
    np.testing.assert_array_equal(count.numpy(), want_count)


@op_test("ctc_align", kind="edge")
def test_ctc_align_edges_and_bad_input() -> None:
    # a leading -1 is a repeat of PHI's initial previous token
    output, count = C.ctc_align(t([[-1, -1, 2, 2]], "int64"), t([[4]], "int64"), 0, True, 9)
    assert output.numpy().tolist() == [[2, 9, 9, 9]] and count.numpy().tolist() == [[1]]
    output, count = C.ctc_align(t(np.zeros((2, 0), "int32")), t([0, 0], "int32"), 0, True, 0)
    assert output.shape == [2, 0] and count.numpy().tolist() == [[0], [0]]
    wide = np.array([[1, 0, 1, 0, 2, 0, 2, 0]], "int64")
    output, _ = C.ctc_align(t(wide)[:, ::2], t([4], "int64"), 0, True, 0)
    assert output.numpy().tolist() == [[1, 2, 0, 0]]
    with pytest.raises(InvalidArgumentError, match="'input_length' must be in \\[0, 4\\]"):
        C.ctc_align(t([[1, 2, 3, 4]], "int64"), t([5], "int64"), 0, True, 0)
    with pytest.raises(InvalidArgumentError, match="'input_length' must have the dtype"):
        C.ctc_align(t([[1, 2]], "int64"), t([2], "int32"), 0, True, 0)
    with pytest.raises(InvalidArgumentError, match="'input_length' must be \\[1\\] or \\[1, 1\\]"):
        C.ctc_align(t([[1, 2]], "int64"), t([2, 2], "int64"), 0, True, 0)
    with pytest.raises(UnimplementedError, match="LoD"):
        C.ctc_align(t([[1, 2]], "int64"), None, 0, True, 0)


# -- crf_decoding -------------------------------------------------------------------------------


def crf_reference(emission, transition, lengths):
    """Brute force over every tag sequence, with the start row 0, end row 1, moves from row 2."""
    batch, steps, tags = emission.shape
    path = np.zeros((batch, steps), np.int64)
    for b in range(batch):
        n = int(lengths[b])
        if n == 0:
            continue
        best, best_tags = None, None
        for seq in itertools.product(range(tags), repeat=n):
            score = transition[0, seq[0]] + emission[b, 0, seq[0]] + transition[1, seq[-1]]
            for i in range(1, n):
                score += transition[2 + seq[i - 1], seq[i]] + emission[b, i, seq[i]]
            if best is None or score > best + 1e-9:
                best, best_tags = score, seq
        path[b, :n] = best_tags
    return path


@op_test("crf_decoding", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("crf_decoding"), ids=lambda d: d.name.lower())
def test_crf_decoding_finds_the_best_tags(dtype: DataType) -> None:
    rng = np.random.default_rng(7)
    emission = rng.normal(size=(3, 4, 3)).astype(dtype.numpy_dtype)
    transition = rng.normal(size=(5, 3)).astype(dtype.numpy_dtype)
    lengths = np.array([4, 0, 2], np.int64)
    path = C.crf_decoding(t(emission), t(transition), None, t(lengths))
    want = crf_reference(emission, transition, lengths)
    assert path.dtype == D.INT64
    np.testing.assert_array_equal(path.numpy(), want)
    label = rng.integers(0, 3, (3, 4))
    label[0] = want[0]
    marks = C.crf_decoding(t(emission), t(transition), t(label), t(lengths))
    valid = np.arange(4)[None, :] < lengths[:, None]
    np.testing.assert_array_equal(marks.numpy(), ((label == want) & valid).astype(np.int64))


@op_test("crf_decoding", kind="edge")
def test_crf_decoding_edges_and_bad_input() -> None:
    emission = np.random.default_rng(8).normal(size=(2, 3, 2))
    transition = np.random.default_rng(9).normal(size=(4, 2))
    lengths = np.array([[3], [1]], np.int64)
    wide = np.concatenate([emission, emission], axis=2)[:, :, [0, 2]]
    got = C.crf_decoding(t(np.ascontiguousarray(wide))[:, :, :], t(transition), None, t(lengths))
    np.testing.assert_array_equal(got.numpy(), crf_reference(emission, transition, lengths[:, 0]))
    assert C.crf_decoding(t(emission[:0]), t(transition), None, t(lengths[:0])).shape == [0, 3]
    with pytest.raises(InvalidArgumentError, match="'transition' must be \\[num_tags \\+ 2"):
        C.crf_decoding(t(emission), t(transition[:3]), None, t(lengths))
    with pytest.raises(InvalidArgumentError, match="'length' must be in \\[0, 3\\]"):
        C.crf_decoding(t(emission), t(transition), None, t([4, 1]))
    with pytest.raises(InvalidArgumentError, match="'label' must be \\[2, 3\\]"):
        C.crf_decoding(t(emission), t(transition), t(np.zeros((2, 2), np.int64)), t([1, 1]))
    with pytest.raises(UnimplementedError, match="LoD"):
        C.crf_decoding(t(emission[0]), t(transition), None, None)


# -- chunk_eval ---------------------------------------------------------------------------------


def chunks(tags: list[str]) -> set[tuple[int, int, str]]:
    """Chunks of IOB strings ("B-x", "I-x", "O") by the usual reading: B starts one, I continues
    one of its type or starts one after another type or O."""
    found, start, kind = set(), None, None
    for i, tag in enumerate(tags + ["O"]):
        head, _, name = tag.partition("-")
        if start is not None and (head != "I" or name != kind):
            found.add((start, i - 1, kind))
            start = None
        if head == "B" or (head == "I" and start is None):
            start, kind = i, name
    return found


def iob(values: list[int], types: int) -> list[str]:
    return [
        "O" if v // 2 == types else ("B-" if v % 2 == 0 else "I-") + str(v // 2) for v in values
    ]


@op_test("chunk_eval", kind="dtypes")
def test_chunk_eval_counts_iob_chunks() -> None:
    # data_type float32: the float32 kernel is the one PaddlePaddle's dispatch (and phiops's) runs
    assert D.FLOAT32 in cpu_dtypes("chunk_eval")
    rng = np.random.default_rng(10)
    inference = rng.integers(0, 7, (3, 8))
    label = inference.copy()
    label[rng.random((3, 8)) < 0.3] = rng.integers(0, 7, (3, 8))[rng.random((3, 8)) < 0.3][:1]
    lengths = np.array([8, 6, 3])
    got = C.chunk_eval(t(inference), t(label), t(lengths), 3, "IOB", [])
    found = wanted = correct = 0
    for row in range(3):
        a = chunks(iob(inference[row, : lengths[row]].tolist(), 3))
        b = chunks(iob(label[row, : lengths[row]].tolist(), 3))
        found, wanted, correct = found + len(a), wanted + len(b), correct + len(a & b)
    assert [int(x.numpy()[0]) for x in got[3:]] == [found, wanted, correct]
    precision, recall = correct / found, correct / wanted
    np.testing.assert_allclose(got[0].numpy(), [precision], rtol=1e-6)
    np.testing.assert_allclose(got[1].numpy(), [recall], rtol=1e-6)
    np.testing.assert_allclose(
        got[2].numpy(), [2 * precision * recall / (precision + recall)], rtol=1e-6
    )
    assert got[0].dtype == D.FLOAT32 and got[3].dtype == D.INT64


@op_test("chunk_eval", kind="edge")
def test_chunk_eval_edges_and_bad_input() -> None:
    outside = np.full((2, 4), 4)  # type 2 of 2 types: outside every chunk
    got = C.chunk_eval(t(outside), t(outside), t([4, 4]), 2, "IOB", [])
    assert [float(x.numpy()[0]) for x in got] == [0, 0, 0, 0, 0, 0]
    # plain: each run of one type is a chunk; excluded types are not counted
    plain = np.array([[0, 0, 1, 1, 2, 0]])
    got = C.chunk_eval(t(plain), t(plain), t([6]), 2, "plain", [1])
    assert [int(x.numpy()[0]) for x in got[3:]] == [2, 2, 2]
    with pytest.raises(InvalidArgumentError, match="'chunk_scheme' must be one of"):
        C.chunk_eval(t(plain), t(plain), t([6]), 2, "BIO", [])
    with pytest.raises(InvalidArgumentError, match="'label' must hold values in .* = \\[0, 2\\]"):
        C.chunk_eval(t(plain), t(plain + 1), t([6]), 2, "plain", [])
    with pytest.raises(InvalidArgumentError, match="'seq_length' must be in \\[0, 6\\]"):
        C.chunk_eval(t(plain), t(plain), t([7]), 2, "plain", [])
    with pytest.raises(InvalidArgumentError, match="'label' must have the shape"):
        C.chunk_eval(t(plain), t(plain[:, :3]), t([3]), 2, "plain", [])
    with pytest.raises(UnimplementedError, match="LoD"):
        C.chunk_eval(t(plain), t(plain), None, 2, "plain", [])


# -- add_position_encoding ----------------------------------------------------------------------


def position_reference(x: np.ndarray, alpha: float, beta: float) -> np.ndarray:
    _, steps, size = x.shape
    half = size // 2
    out = np.empty(x.shape, np.float64)
    for j in range(steps):
        for k in range(half):
            angle = j / 10000.0 ** (k / (half - 1)) if half > 1 else j / 10000.0
            out[:, j, k] = x[:, j, k] * alpha + np.sin(angle) * beta
            out[:, j, half + k] = x[:, j, half + k] * alpha + np.cos(angle) * beta
    return out


@op_test("add_position_encoding", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("add_position_encoding"), ids=lambda d: d.name.lower())
def test_add_position_encoding_adds_the_sinusoids(dtype: DataType) -> None:
    x = np.random.default_rng(11).normal(size=(2, 5, 6)).astype(dtype.numpy_dtype)
    out = C.add_position_encoding(t(x), 0.5, 2.0)
    assert out.dtype == dtype
    rtol = 1e-6 if dtype is D.FLOAT32 else 1e-12
    np.testing.assert_allclose(out.numpy(), position_reference(x, 0.5, 2.0), rtol=rtol, atol=rtol)


@op_test("add_position_encoding", kind="edge")
def test_add_position_encoding_edges_and_bad_input() -> None:
    # size 2: one sine and one cosine of j / 10000
    x = np.zeros((1, 3, 2))
    np.testing.assert_allclose(
        C.add_position_encoding(t(x), 1.0, 1.0).numpy(), position_reference(x, 1.0, 1.0)
    )
    assert C.add_position_encoding(t(np.zeros((0, 3, 4))), 1.0, 1.0).shape == [0, 3, 4]
    wide = np.random.default_rng(12).normal(size=(2, 3, 8))
    got = C.add_position_encoding(t(wide)[:, :, ::2], 1.5, 0.5)
    np.testing.assert_allclose(got.numpy(), position_reference(wide[:, :, ::2], 1.5, 0.5))
    with pytest.raises(InvalidArgumentError, match="'x' must have an even last extent"):
        C.add_position_encoding(t(np.zeros((1, 2, 3))), 1.0, 1.0)
    with pytest.raises(InvalidArgumentError, match="'x' must be a 3-D"):
        C.add_position_encoding(t(np.zeros((2, 4))), 1.0, 1.0)


# -- bilinear -----------------------------------------------------------------------------------


@op_test("bilinear", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("bilinear"), ids=lambda d: d.name.lower())
def test_bilinear_is_the_bilinear_form(dtype: DataType) -> None:
    rng = np.random.default_rng(13)
    x, y = rng.normal(size=(3, 4)), rng.normal(size=(3, 2))
    weight, bias = rng.normal(size=(5, 4, 2)), rng.normal(size=(1, 5))
    cast = lambda a: t(a.astype(dtype.numpy_dtype))  # noqa: E731
    out = C.bilinear(cast(x), cast(y), cast(weight), cast(bias))
    want = np.einsum("bi,kij,bj->bk", x, weight, y) + bias
    assert out.dtype == dtype
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(
        F.bilinear(cast(x), cast(y), cast(weight)).numpy(), want - bias, rtol=1e-5, atol=1e-5
    )
    layer = phiops.nn.Bilinear(4, 2, 5)
    assert layer.weight.shape == [5, 4, 2] and layer.bias.shape == [1, 5]
    np.testing.assert_allclose(
        layer(t(x.astype("float32")), t(y.astype("float32"))).numpy(),
        np.einsum("bi,kij,bj->bk", x, layer.weight.numpy(), y) + layer.bias.numpy(),
        rtol=1e-5, atol=1e-5,
    )  # fmt: skip


@op_test("bilinear", kind="edge")
def test_bilinear_edges_and_bad_input() -> None:
    weight = np.ones((2, 3, 4))
    assert C.bilinear(t(np.zeros((0, 3))), t(np.zeros((0, 4))), t(weight), None).shape == [0, 2]
    x = np.arange(12.0).reshape(2, 6)[:, ::2]
    got = C.bilinear(t(np.arange(12.0).reshape(2, 6))[:, ::2], t(np.ones((2, 4))), t(weight), None)
    np.testing.assert_allclose(got.numpy(), np.einsum("bi,kij,bj->bk", x, weight, np.ones((2, 4))))
    assert phiops.nn.Bilinear(3, 4, 2, bias_attr=False).bias is None
    with pytest.raises(InvalidArgumentError, match="'weight' must be \\[out_features, 3, 5\\]"):
        C.bilinear(t(np.ones((2, 3))), t(np.ones((2, 5))), t(weight), None)
    with pytest.raises(InvalidArgumentError, match="'y' must have the batch of x"):
        C.bilinear(t(np.ones((2, 3))), t(np.ones((3, 4))), t(weight), None)
    with pytest.raises(InvalidArgumentError, match="'bias' must be \\[1, 2\\]"):
        C.bilinear(t(np.ones((2, 3))), t(np.ones((2, 4))), t(weight), t(np.ones((1, 3))))


# -- cvm ----------------------------------------------------------------------------------------


@op_test("cvm", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("cvm"), ids=lambda d: d.name.lower())
def test_cvm_logs_or_drops_show_and_click(dtype: DataType) -> None:
    x = np.abs(np.random.default_rng(14).normal(size=(3, 5))).astype(dtype.numpy_dtype)
    counts = x[:, :2].copy()
    out = C.cvm(t(x), t(counts), True)
    want = x.astype(np.float64).copy()
    want[:, 0] = np.log(x[:, 0] + 1.0)
    want[:, 1] = np.log(x[:, 1] + 1.0) - want[:, 0]
    assert out.dtype == dtype
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-5)
    np.testing.assert_array_equal(C.cvm(t(x), t(counts), False).numpy(), x[:, 2:])
    # the gradient's first two columns are the cvm input (PHI's), the rest out_grad
    grad = B.cvm_grad(t(x), t(counts), t(np.ones((3, 3), dtype.numpy_dtype)), False)
    np.testing.assert_array_equal(grad.numpy(), np.concatenate([counts, np.ones((3, 3))], axis=1))


@op_test("cvm", kind="edge")
def test_cvm_edges_and_bad_input() -> None:
    assert C.cvm(t(np.ones((0, 4))), t(np.ones((0, 2))), False).shape == [0, 2]
    assert C.cvm(t(np.ones((2, 2))), t(np.ones((2, 2))), False).shape == [2, 0]
    wide = np.arange(16.0).reshape(2, 8)
    np.testing.assert_array_equal(
        C.cvm(t(wide)[:, ::2], t(np.ones((2, 2))), False).numpy(), wide[:, ::2][:, 2:]
    )
    with pytest.raises(InvalidArgumentError, match="'x' must have at least 2 columns"):
        C.cvm(t(np.ones((2, 1))), t(np.ones((2, 2))), True)
    with pytest.raises(InvalidArgumentError, match="'cvm' must be \\[2, 2\\]"):
        C.cvm(t(np.ones((2, 4))), t(np.ones((2, 3))), True)


# -- swiglu -------------------------------------------------------------------------------------


def silu(x: np.ndarray) -> np.ndarray:
    return x / (1.0 + np.exp(-x))


@op_test("swiglu", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("swiglu"), ids=lambda d: d.name.lower())
def test_swiglu_gates_with_silu(dtype: DataType) -> None:
    rng = np.random.default_rng(15)
    x, y = rng.normal(size=(2, 3, 4)), rng.normal(size=(2, 3, 4))
    cast = lambda a: t(a.astype(dtype.numpy_dtype))  # noqa: E731
    out = C.swiglu(cast(x), cast(y))
    assert out.dtype == dtype
    np.testing.assert_allclose(out.numpy(), silu(x) * y, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(
        C.swiglu(cast(x), None).numpy(), silu(x[..., :2]) * x[..., 2:], rtol=1e-5, atol=1e-6
    )
    assert phiops.incubate.nn.functional.swiglu is F.swiglu


@op_test("swiglu", kind="edge")
def test_swiglu_edges_and_bad_input() -> None:
    np.testing.assert_allclose(C.swiglu(t(np.array(2.0)), t(np.array(3.0))).numpy(), silu(2.0) * 3)
    # exp(-x) overflowing for x << 0 gives 0, not NaN
    assert C.swiglu(t(np.array([-1000.0, 1.0])), None).numpy().tolist() == [-0.0]
    assert C.swiglu(t(np.zeros((0, 4))), None).shape == [0, 2]
    with pytest.raises(InvalidArgumentError, match="'x' must have an even last extent"):
        C.swiglu(t(np.ones((2, 3))), None)
    with pytest.raises(InvalidArgumentError, match="'y' must have the shape of x"):
        C.swiglu(t(np.ones((2, 3))), t(np.ones((3, 2))))


# -- fused_softmax_mask -------------------------------------------------------------------------


@op_test("fused_softmax_mask", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("fused_softmax_mask"), ids=lambda d: d.name.lower())
def test_fused_softmax_mask_is_the_masked_softmax(dtype: DataType) -> None:
    rng = np.random.default_rng(16)
    x = rng.normal(size=(2, 3, 4, 5))
    mask = np.where(rng.random((2, 1, 4, 5)) < 0.3, -1e4, 0.0)
    out = C.fused_softmax_mask(t(x.astype(dtype.numpy_dtype)), t(mask.astype(dtype.numpy_dtype)))
    shifted = np.exp(x + mask - (x + mask).max(axis=-1, keepdims=True))
    assert out.dtype == dtype
    np.testing.assert_allclose(
        out.numpy(), shifted / shifted.sum(-1, keepdims=True), rtol=1e-5, atol=1e-7
    )
    np.testing.assert_array_equal(
        phiops.incubate.softmax_mask_fuse(t(x), t(mask)).numpy(),
        C.fused_softmax_mask(t(x), t(mask)).numpy(),
    )


@op_test("fused_softmax_mask", kind="edge")
def test_fused_softmax_mask_edges_and_bad_input() -> None:
    assert C.fused_softmax_mask(t(np.zeros((1, 2, 3, 0))), t(np.zeros((1, 1, 3, 0)))).shape == [
        1,
        2,
        3,
        0,
    ]
    with pytest.raises(InvalidArgumentError, match="'mask' must be \\[1, 1, 3, 4\\]"):
        C.fused_softmax_mask(t(np.zeros((1, 2, 3, 4))), t(np.zeros((1, 2, 3, 4))))
    with pytest.raises(InvalidArgumentError, match="'x' must be a 4-D"):
        C.fused_softmax_mask(t(np.zeros((2, 3, 4))), t(np.zeros((2, 1, 3, 4))))


# -- segment_pool -------------------------------------------------------------------------------


def segment_reference(x: np.ndarray, ids: np.ndarray, pool: str) -> np.ndarray:
    out = np.zeros((ids.max() + 1,) + x.shape[1:], x.dtype)
    for segment in range(ids.max() + 1):
        rows = x[ids == segment]
        if len(rows):
            if pool == "MEAN" and x.dtype.kind in "iu":  # C++'s division truncates
                out[segment] = np.trunc(rows.sum(0) / len(rows))
            else:
                out[segment] = {"SUM": np.sum, "MEAN": np.mean, "MAX": np.max, "MIN": np.min}[pool](
                    rows, 0
                )
    return out


@op_test("segment_pool", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("segment_pool"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("pool", ["SUM", "MEAN", "MAX", "MIN"])
def test_segment_pool_pools_each_segment(dtype: DataType, pool: str) -> None:
    x = np.random.default_rng(17).integers(-5, 6, (6, 3)).astype(dtype.numpy_dtype)
    ids = np.array([0, 0, 1, 3, 3, 3])
    out = C.segment_pool(t(x), t(ids), pool)
    assert out.dtype == dtype
    np.testing.assert_allclose(
        out.numpy().astype(float), segment_reference(x, ids, pool).astype(float), rtol=1e-3
    )
    function = getattr(phiops.geometric, f"segment_{pool.lower()}")
    np.testing.assert_array_equal(function(t(x), t(ids)).numpy(), out.numpy())
    assert getattr(phiops.incubate, f"segment_{pool.lower()}") is function


@op_test("segment_pool", kind="edge")
def test_segment_pool_edges_and_bad_input() -> None:
    assert C.segment_pool(t(np.zeros((0, 2))), t(np.zeros(0, np.int64)), "SUM").shape == [0, 2]
    np.testing.assert_array_equal(
        C.segment_pool(t(np.array([1.0, -2.0, 3.0])), t(np.array([2, 2, 2])), "MAX").numpy(),
        [0, 0, 3],
    )
    wide = np.arange(12.0).reshape(4, 3)
    np.testing.assert_array_equal(
        C.segment_pool(t(wide)[:, ::2], t(np.array([0, 0, 1, 1])), "SUM").numpy(),
        [wide[:2, ::2].sum(0), wide[2:, ::2].sum(0)],
    )
    with pytest.raises(InvalidArgumentError, match="'segment_ids' must be sorted"):
        C.segment_pool(t(wide), t(np.array([1, 0, 2, 2])), "SUM")
    with pytest.raises(InvalidArgumentError, match="'segment_ids' must be >= 0"):
        C.segment_pool(t(wide), t(np.array([-1, 0, 2, 2])), "SUM")
    with pytest.raises(InvalidArgumentError, match="'pooltype' must be one of"):
        C.segment_pool(t(wide), t(np.array([0, 0, 2, 2])), "PROD")
    with pytest.raises(InvalidArgumentError, match="'segment_ids' must hold one id per row"):
        C.segment_pool(t(wide), t(np.array([0, 0, 2])), "SUM")


# -- send_u_recv --------------------------------------------------------------------------------


def send_u_recv_reference(x, src, dst, reduce, rows):
    out = np.zeros((rows,) + x.shape[1:], x.dtype)
    for node in range(rows):
        messages = x[src[dst == node]]
        if len(messages):
            if reduce == "MEAN" and x.dtype.kind in "iu":
                out[node] = np.trunc(messages.sum(0) / len(messages))
            else:
                out[node] = {"SUM": np.sum, "MEAN": np.mean, "MAX": np.max, "MIN": np.min}[reduce](
                    messages, 0
                )
    return out


@op_test("send_u_recv", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("send_u_recv"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("reduce", ["SUM", "MEAN", "MAX", "MIN"])
def test_send_u_recv_reduces_the_messages(dtype: DataType, reduce: str) -> None:
    x = np.random.default_rng(18).integers(-5, 6, (4, 3)).astype(dtype.numpy_dtype)
    src, dst = np.array([0, 1, 2, 0, 3, 3]), np.array([1, 2, 1, 0, 1, 4])
    out = C.send_u_recv(t(x), t(src), t(dst), reduce, [5])
    assert out.dtype == dtype and out.shape == [5, 3]
    np.testing.assert_allclose(
        out.numpy().astype(float), send_u_recv_reference(x, src, dst, reduce, 5).astype(float)
    )
    np.testing.assert_array_equal(
        phiops.geometric.send_u_recv(t(x), t(src), t(dst), reduce.lower(), out_size=5).numpy(),
        out.numpy(),
    )


@op_test("send_u_recv", kind="edge")
def test_send_u_recv_edges_and_bad_input() -> None:
    x = np.arange(8.0).reshape(4, 2)
    # no edges: zeros of x's rows
    none = np.zeros(0, np.int64)
    assert C.send_u_recv(t(x), t(none), t(none), "MAX", [0]).numpy().tolist() == [[0, 0]] * 4
    wide = np.arange(16.0).reshape(4, 4)
    got = C.send_u_recv(t(wide)[:, ::2], t(np.array([3, 0])), t(np.array([0, 0])), "SUM", [0])
    np.testing.assert_array_equal(got.numpy()[0], wide[3, ::2] + wide[0, ::2])
    with pytest.raises(InvalidArgumentError, match="'dst_index' must be in \\[0, 2\\)"):
        C.send_u_recv(t(x), t(np.array([0, 1])), t(np.array([0, 3])), "SUM", [2])
    with pytest.raises(InvalidArgumentError, match="'src_index' must be in \\[0, 4\\)"):
        C.send_u_recv(t(x), t(np.array([0, 4])), t(np.array([0, 1])), "SUM", [0])
    with pytest.raises(InvalidArgumentError, match="'reduce_op' must be one of"):
        C.send_u_recv(t(x), t(np.array([0])), t(np.array([0])), "PROD", [0])
    with pytest.raises(InvalidArgumentError, match="'dst_index' must have one index per edge"):
        C.send_u_recv(t(x), t(np.array([0, 1])), t(np.array([0])), "SUM", [0])
    with pytest.raises(ValueError, match="reduce_op should be"):
        phiops.geometric.send_u_recv(t(x), t(np.array([0])), t(np.array([0])), "prod")
