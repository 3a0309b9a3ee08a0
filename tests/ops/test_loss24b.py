"""The sampling and structured losses of issue 24 (loss24b family): hsigmoid_loss and
class_center_sample: every registered dtype against a numpy reference written here from the
ops' definitions (class_center_sample: the properties of its centers), the registrations
against PaddlePaddle 3.3.1's, edges (custom trees, short paths, one sample, no samples, seeds,
non-contiguous inputs) and bad input. tests/ops/test_loss24b_paddle.py compares PaddlePaddle
3.3.1's recorded results (class_center_sample's seeded draws among them)."""

from __future__ import annotations

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
import phiops.nn.functional as F
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, NotFoundError, UnimplementedError
from phiops.runtime.kernels.coverage import paddle_data
from tests.ops.op_testing import cpu_dtypes, op_test

OPS = ("hsigmoid_loss", "class_center_sample")
GRADS = ("hsigmoid_loss_grad",)


def t(values, dtype=None) -> phiops.Tensor:
    return phiops.to_tensor(np.asarray(values, dtype))


def test_registrations_are_paddles() -> None:
    kernels = paddle_data()["kernels"]
    for op in OPS + GRADS:
        assert sorted(d.name.lower() for d in cpu_dtypes(op)) == sorted(kernels[op]), op


# -- hsigmoid_loss ------------------------------------------------------------------------------


def hsigmoid_reference(x, label, w, bias, num_classes, path=None, code=None):
    """(out, pre_out) in float64 by walking each sample's path in a loop: the default tree codes
    class c as c + num_classes, node (code >> (j + 1)) - 1 and bit (code >> j) & 1 at step j."""
    x, w = np.asarray(x, np.float64), np.asarray(w, np.float64)
    b = None if bias is None else np.asarray(bias, np.float64).reshape(-1)
    label = np.asarray(label).reshape(-1)
    width = path.shape[1] if path is not None else (num_classes - 1).bit_length()
    pre = np.zeros((len(x), width))
    taken = np.zeros(len(x))
    for i in range(len(x)):
        steps = []
        if path is None:
            c = int(label[i]) + num_classes
            j = 0
            while (c >> (j + 1)) > 0:
                steps.append(((c >> (j + 1)) - 1, (c >> j) & 1))
                j += 1
        else:
            for node, bit in zip(path[i], code[i]):
                if node < 0:
                    break
                steps.append((int(node), int(bit != 0)))
        for j, (node, bit) in enumerate(steps):
            v = x[i] @ w[node] + (0 if b is None else b[node])
            pre[i, j] = min(max(v, -40.0), 40.0)
            taken[i] += bit * pre[i, j]
    soft = np.log1p(np.exp(pre))
    return (soft.sum(axis=1) - taken).reshape(-1, 1), soft


def hsigmoid_inputs(dtype, batch=4, classes=6, features=3, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, (batch, features)).astype(dtype)
    w = rng.uniform(-1, 1, (classes - 1, features)).astype(dtype)
    b = rng.uniform(-1, 1, (classes - 1, 1)).astype(dtype)
    label = rng.integers(0, classes, batch).astype("int64")
    return x, label, w, b


@op_test("hsigmoid_loss", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("hsigmoid_loss"), ids=lambda d: d.name.lower())
def test_hsigmoid_loss_sums_the_binary_losses_on_each_path(dtype: DataType) -> None:
    x, label, w, b = hsigmoid_inputs(dtype.numpy_dtype, classes=7)
    out, pre_out, w_out = C.hsigmoid_loss(t(x), t(label), t(w), t(b), None, None, 7, False)
    want_out, want_pre = hsigmoid_reference(x, label, w, b, 7)
    assert out.dtype == dtype and out.shape == [4, 1] and pre_out.shape == [4, 3]
    assert w_out.shape == [0] and w_out.dtype == DataType.FLOAT32
    rtol = 1e-5 if dtype == DataType.FLOAT32 else 1e-12
    np.testing.assert_allclose(out.numpy(), want_out, rtol=rtol)
    np.testing.assert_allclose(pre_out.numpy(), want_pre, rtol=rtol)


def test_hsigmoid_loss_custom_tree_ends_each_path_at_its_first_negative_node() -> None:
    x, label, w, b = hsigmoid_inputs(np.float64, batch=3, classes=5)
    path = np.array([[0, 1, 3], [2, -1, 0], [-1, 0, 0]], "int64")
    code = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 1]], "int64")
    got = F.hsigmoid_loss(t(x), t(label), 5, t(w), t(b), t(path), t(code))
    np.testing.assert_allclose(
        got.numpy(), hsigmoid_reference(x, label, w, b, 5, path, code)[0], rtol=1e-12
    )
    # an empty path costs log 2 per column, as PaddlePaddle's kernel sums every column
    np.testing.assert_allclose(got.numpy()[2, 0], 3 * np.log(2.0), rtol=1e-12)


def test_hsigmoid_loss_gradients_are_sigmoid_minus_bit_along_the_path() -> None:
    x, label, w, b = hsigmoid_inputs(np.float64, batch=3, classes=6, seed=3)
    xs, ws, bs = t(x), t(w), t(b)
    for v in (xs, ws, bs):
        v.stop_gradient = False
    out = F.hsigmoid_loss(xs, t(label), 6, ws, bs)
    scale = np.array([[1.0], [-0.5], [2.0]])
    gx, gw, gb = phiops.grad([out], [xs, ws, bs], grad_outputs=[t(scale)])
    want_x, want_w, want_b = np.zeros_like(x), np.zeros_like(w), np.zeros(len(w))
    for i, c in enumerate(label + 6):
        j = 0
        while (c >> (j + 1)) > 0:
            node, bit = (c >> (j + 1)) - 1, (c >> j) & 1
            g = scale[i, 0] * (1 / (1 + np.exp(-(x[i] @ w[node] + b[node, 0]))) - bit)
            want_x[i] += g * w[node]
            want_w[node] += g * x[i]
            want_b[node] += g
            j += 1
    np.testing.assert_allclose(gx.numpy(), want_x, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(gw.numpy(), want_w, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(gb.numpy(), want_b.reshape(-1, 1), rtol=1e-12, atol=1e-14)


@op_test("hsigmoid_loss", kind="edge")
def test_hsigmoid_loss_edges() -> None:
    x, label, w, b = hsigmoid_inputs(np.float64, batch=3, classes=4)
    # no bias, [N, 1] labels, two classes (one node), one sample, no samples
    got = F.hsigmoid_loss(t(x), t(label.reshape(-1, 1)), 4, t(w))
    np.testing.assert_allclose(got.numpy(), hsigmoid_reference(x, label, w, None, 4)[0], rtol=1e-12)
    two = F.hsigmoid_loss(t(x), t(label % 2), 2, t(w[:1]), t(b[:1]))
    np.testing.assert_allclose(two.numpy(), hsigmoid_reference(x, label % 2, w[:1], b[:1], 2)[0], rtol=1e-12)
    one = F.hsigmoid_loss(t(x[:1]), t(label[:1]), 4, t(w), t(b))
    np.testing.assert_allclose(one.numpy(), hsigmoid_reference(x[:1], label[:1], w, b, 4)[0], rtol=1e-12)
    none = F.hsigmoid_loss(t(x[:0]), t(label[:0]), 4, t(w), t(b))
    assert none.shape == [0, 1]
    # large logits are clipped to [-40, 40]
    big = F.hsigmoid_loss(t(x * 1e3), t(label), 4, t(w), t(b))
    # (log(1 + exp(40)) - 40 cancels to 0 in float64, as in PaddlePaddle's kernel)
    np.testing.assert_allclose(
        big.numpy(), hsigmoid_reference(x * 1e3, label, w, b, 4)[0], rtol=1e-12, atol=1e-12
    )
    # non-contiguous x and w
    wide = np.repeat(x, 2, axis=1)
    got = F.hsigmoid_loss(t(wide)[:, ::2], t(label), 4, t(np.repeat(w, 2, axis=0))[::2], t(b))
    np.testing.assert_allclose(got.numpy(), hsigmoid_reference(x, label, w, b, 4)[0], rtol=1e-12)


def test_hsigmoid_loss_rejects_bad_input() -> None:
    x, label, w, b = hsigmoid_inputs(np.float64, batch=3, classes=4)
    ok = (t(x), t(label), t(w), t(b))
    with pytest.raises(InvalidArgumentError, match="hsigmoid_loss.*'label' must hold classes in \\[0, 4\\)"):
        C.hsigmoid_loss(t(x), t(np.array([0, 4, 1])), t(w), t(b), None, None, 4, False)
    with pytest.raises(InvalidArgumentError, match="hsigmoid_loss.*'label' must be a int64"):
        C.hsigmoid_loss(t(x), t(label.astype("int32")), t(w), t(b), None, None, 4, False)
    with pytest.raises(InvalidArgumentError, match="hsigmoid_loss.*'label' must have x's batch"):
        C.hsigmoid_loss(t(x), t(label[:2]), t(w), t(b), None, None, 4, False)
    with pytest.raises(InvalidArgumentError, match="hsigmoid_loss.*'w' must have x's width"):
        C.hsigmoid_loss(t(x), t(label), t(w[:, :2]), t(b), None, None, 4, False)
    with pytest.raises(InvalidArgumentError, match="hsigmoid_loss.*'w' must have x's dtype"):
        C.hsigmoid_loss(t(x), t(label), t(w.astype("float32")), t(b), None, None, 4, False)
    with pytest.raises(InvalidArgumentError, match="hsigmoid_loss.*'bias' must have w's rows"):
        C.hsigmoid_loss(*ok[:3], t(b[:2]), None, None, 4, False)
    with pytest.raises(InvalidArgumentError, match="hsigmoid_loss.*'num_classes' must be at least 2"):
        C.hsigmoid_loss(*ok, None, None, 1, False)
    with pytest.raises(InvalidArgumentError, match="hsigmoid_loss.*'path' and 'code'.*got path alone"):
        C.hsigmoid_loss(*ok, t(np.zeros((3, 2), "int64")), None, 4, False)
    with pytest.raises(InvalidArgumentError, match="hsigmoid_loss.*'code' must have path's shape"):
        C.hsigmoid_loss(*ok, t(np.zeros((3, 2), "int64")), t(np.zeros((3, 1), "int64")), 4, False)
    with pytest.raises(InvalidArgumentError, match="hsigmoid_loss.*nodes must be rows of 'w'.*got node 5"):
        C.hsigmoid_loss(*ok, t(np.array([[0, 5]] * 3)), t(np.zeros((3, 2), "int64")), 4, False)
    with pytest.raises(InvalidArgumentError, match="hsigmoid_loss.*'x' must be a 2-D"):
        C.hsigmoid_loss(t(x[0]), t(label), t(w), t(b), None, None, 4, False)
    with pytest.raises(InvalidArgumentError, match="hsigmoid_loss: argument 'num_classes' must be an int of at least 2"):
        F.hsigmoid_loss(*ok[:2], 1, t(w))


def test_hsigmoid_loss_sparse_gradient_is_unimplemented() -> None:
    x, label, w, b = hsigmoid_inputs(np.float64, batch=2, classes=4)
    xs = t(x)
    xs.stop_gradient = False
    out = F.hsigmoid_loss(xs, t(label), 4, t(w), t(b), is_sparse=True)
    with pytest.raises(UnimplementedError, match="is_sparse=True"):
        out.sum().backward()


def test_hsigmoid_loss_layer_makes_weight_and_bias_of_the_tree() -> None:
    phiops.seed(5)
    layer = phiops.nn.HSigmoidLoss(3, 6)
    assert layer.weight.shape == [5, 3] and layer.bias.shape == [5, 1]
    x, label, _, _ = hsigmoid_inputs(np.float32, classes=6)
    got = layer(t(x), t(label))
    want = hsigmoid_reference(x, label, layer.weight.numpy(), layer.bias.numpy(), 6)[0]
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5)
    custom = phiops.nn.HSigmoidLoss(3, 4, bias_attr=False, is_custom=True, is_sparse=True)
    assert custom.weight.shape == [4, 3] and custom.bias is None and custom._is_sparse
    path = np.array([[0, 1, -1], [2, 3, 1], [3, -1, -1], [1, 0, 2]], "int64")
    code = np.array([[1, 0, 0], [0, 1, 1], [1, 0, 0], [0, 0, 1]], "int64")
    got = custom(t(x), t(label), t(path), t(code))
    want = hsigmoid_reference(x, label, custom.weight.numpy(), None, 4, path, code)[0]
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5)
    with pytest.raises(InvalidArgumentError, match="HSigmoidLoss: argument 'num_classes'"):
        phiops.nn.HSigmoidLoss(3, 1)


# -- class_center_sample ------------------------------------------------------------------------


def check_centers(label: np.ndarray, remapped, sampled, num_classes: int, num_samples: int) -> None:
    """The sampled centers are the sorted distinct labels, then distinct other classes up to
    num_samples, and each label is remapped to its center's index."""
    positive = np.unique(label)
    centers = sampled.numpy()
    assert sampled.dtype == remapped.dtype and remapped.shape == list(label.shape)
    assert len(centers) == max(len(positive), num_samples)
    np.testing.assert_array_equal(centers[: len(positive)], positive)
    assert len(set(centers.tolist())) == len(centers)
    assert ((centers >= 0) & (centers < num_classes)).all()
    np.testing.assert_array_equal(centers[remapped.numpy()], label)


@op_test("class_center_sample", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("class_center_sample"), ids=lambda d: d.name.lower())
def test_class_center_sample_keeps_the_labels_and_draws_other_classes(dtype: DataType) -> None:
    label = np.array([7, 2, 7, 11, 0], dtype.numpy_dtype)
    remapped, sampled = C.class_center_sample(t(label), 30, 9, 0, 0, 1, True, 17)
    assert remapped.dtype == dtype
    check_centers(label, remapped, sampled, 30, 9)
    np.testing.assert_array_equal(remapped.numpy(), [2, 1, 2, 3, 0])
    # a fixed nonzero seed draws the same centers each time
    again = C.class_center_sample(t(label), 30, 9, 0, 0, 1, True, 17)[1]
    np.testing.assert_array_equal(again.numpy(), sampled.numpy())


@op_test("class_center_sample", kind="edge")
def test_class_center_sample_edges() -> None:
    label = np.array([1, 4, 9, 2, 7])
    # more distinct labels than num_samples: all kept, nothing drawn
    remapped, sampled = C.class_center_sample(t(label), 10, 3, 0, 0, 1, True, 3)
    np.testing.assert_array_equal(sampled.numpy(), [1, 2, 4, 7, 9])
    np.testing.assert_array_equal(remapped.numpy(), [0, 2, 4, 1, 3])
    # every class sampled
    remapped, sampled = C.class_center_sample(t(label), 10, 10, 0, 0, 1, True, 3)
    assert sorted(sampled.numpy().tolist()) == list(range(10))
    check_centers(label, remapped, sampled, 10, 10)
    # no labels: negatives only
    remapped, sampled = C.class_center_sample(t(label[:0]), 10, 4, 0, 0, 1, True, 3)
    assert remapped.shape == [0] and sampled.shape == [4]
    # seed 0 with fix_seed draws from the process engine that seed() resets
    phiops.seed(2024)
    first = C.class_center_sample(t(label[:2]), 1000, 20, 0, 0, 1, True, 0)[1].numpy()
    phiops.seed(2024)
    np.testing.assert_array_equal(C.class_center_sample(t(label[:2]), 1000, 20, 0, 0, 1, True, 0)[1].numpy(), first)
    # without fix_seed each call draws anew (two equal draws of 20 from 10**6 classes: ~never)
    a = F.class_center_sample(t(label), 10**6, 25)[1].numpy()
    b = F.class_center_sample(t(label), 10**6, 25)[1].numpy()
    check_centers(label, *F.class_center_sample(t(label), 10**6, 25), 10**6, 25)
    assert a[:5].tolist() == b[:5].tolist() and a[5:].tolist() != b[5:].tolist()
    # non-contiguous label
    wide = t(np.repeat(label, 2))[::2]
    check_centers(label, *C.class_center_sample(wide, 10, 6, 0, 0, 1, True, 1), 10, 6)


def test_class_center_sample_rejects_bad_input() -> None:
    label = t(np.array([1, 4, 2]))
    with pytest.raises(InvalidArgumentError, match="class_center_sample.*'label' must be a 1-D"):
        C.class_center_sample(t(np.zeros((2, 2), "int64")), 10, 3, 0, 0, 1, True, 1)
    with pytest.raises(NotFoundError, match="class_center_sample.*FLOAT32.*registered: .*INT32.*INT64"):
        C.class_center_sample(t(np.zeros(3, "float32")), 10, 3, 0, 0, 1, True, 1)
    with pytest.raises(InvalidArgumentError, match="class_center_sample.*'num_samples' must be in \\[1, num_classes\\]"):
        C.class_center_sample(label, 10, 11, 0, 0, 1, True, 1)
    with pytest.raises(InvalidArgumentError, match="class_center_sample.*'num_classes' must be positive"):
        C.class_center_sample(label, 0, 1, 0, 0, 1, True, 1)
    with pytest.raises(InvalidArgumentError, match="class_center_sample.*'label' must hold classes in \\[0, 4\\)"):
        C.class_center_sample(label, 4, 3, 0, 0, 1, True, 1)
    with pytest.raises(UnimplementedError, match="nranks=2"):
        C.class_center_sample(label, 10, 3, 0, 0, 2, True, 1)
    with pytest.raises(InvalidArgumentError, match="class_center_sample: argument 'num_samples' must be at most"):
        F.class_center_sample(label, 10, 11)
    with pytest.raises(InvalidArgumentError, match="class_center_sample: argument 'label' must be a non-empty 1-D"):
        F.class_center_sample(t(np.zeros(0, "int64")), 10, 3)
    with pytest.raises(InvalidArgumentError, match="class_center_sample: argument 'group'"):
        F.class_center_sample(label, 10, 3, group="world")
