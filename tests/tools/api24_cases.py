"""The cases of tests/api/test_api24.py, run with either module as ``paddle``: PaddlePaddle 3.3.1
(tests/tools/make_api24_fixtures.py records them into tests/data/api24/paddle_3_3_1.npz) or
phiops. Issue 24's ``paddle.*`` functions and Tensor methods: the in-place variants (values, and
the gradient through a non-leaf written in place), the random in-place fills after a seed, the
Tensor conveniences and the other ``paddle.*`` names.

``INPLACE`` lists each in-place method with its input and other arguments (``"$y"``: the tensor
of ``SECOND``); everything else is a key of ``cases``' result. Values are numpy arrays; facts
that are not (a string, a bool, a dtype's name) are recorded as 0-D arrays of them.
"""

from __future__ import annotations

import warnings
from typing import Any, Callable

import numpy as np

_RNG = np.random.default_rng(24)
# values in (0.2, 0.8): inside every domain the unary ops below have (acos, atanh, logit, ...)
UNIT = np.round(_RNG.uniform(0.2, 0.8, (2, 3)), 4).astype("float32")
# values in (1.2, 3): for acosh, and away from lgamma's and polygamma's poles
ABOVE_ONE = np.round(_RNG.uniform(1.2, 3.0, (2, 3)), 4).astype("float32")
SIGNED = np.round(_RNG.uniform(-2.0, 2.0, (2, 3)), 4).astype("float32")
SECOND = np.round(_RNG.uniform(0.5, 1.5, (2, 3)), 4).astype("float32")
INTS = np.array([[12, -18, 7], [0, 9, 25]], dtype="int64")
INTS_SECOND = np.array([[8, 4, -21], [5, 0, 10]], dtype="int64")

# method -> (input, other arguments); "$y" is SECOND (INTS_SECOND for an integer input)
INPLACE: dict[str, tuple[np.ndarray, tuple]] = {
    **{
        name: (UNIT, ())
        for name in (
            "acos_ asin_ atan_ asinh_ atanh_ cosh_ sinh_ tan_ expm1_ log2_ log10_ log1p_ "
            "erfinv_ i0_ trunc_ reciprocal_ square_ neg_ frac_ sinc_ logit_ digamma_"
        ).split()
    },
    "acosh_": (ABOVE_ONE, ()),
    "lgamma_": (ABOVE_ONE, ()),
    "gammaln_": (ABOVE_ONE, ()),
    "round_": (SIGNED, ()),
    "polygamma_": (ABOVE_ONE, (1,)),
    "multigammaln_": (ABOVE_ONE, (2,)),
    "logit_/eps": (UNIT, (0.3,)),
    "copysign_": (UNIT, ("$signed",)),
    "copysign_/number": (UNIT, (-1.0,)),
    "lerp_": (UNIT, ("$y", 0.25)),
    "hypot_": (UNIT, ("$y",)),
    "ldexp_": (UNIT, ("$y",)),
    "gammaincc_": (ABOVE_ONE, ("$y",)),
    "gammainc_": (ABOVE_ONE, ("$y",)),
    "gcd_": (INTS, ("$y",)),
    "lcm_": (INTS, ("$y",)),
    "less_": (UNIT, ("$y",)),
    "t_": (UNIT, ()),
}
# the ones without a gradient (integer or bool results, or PaddlePaddle's having none)
NO_GRAD = {"gcd_", "lcm_", "less_", "round_", "trunc_", "frac_", "ldexp_"}


def _method(key: str) -> str:
    return key.split("/")[0]


def _operand(paddle: Any, value: Any, integer: bool) -> Any:
    if value == "$y":
        return paddle.to_tensor(INTS_SECOND if integer else SECOND)
    if value == "$signed":
        return paddle.to_tensor(SIGNED)
    return value


def inplace_call(paddle: Any, key: str, x: Any) -> Any:
    """``x.<method>(*arguments)`` of case ``key`` (``paddle.<method>(x, ...)`` where the Tensor
    has no such method: PaddlePaddle 3.3.1's ``expm1_``)."""
    data, rest = INPLACE[key]
    args = [_operand(paddle, value, data.dtype.kind == "i") for value in rest]
    method = getattr(x, _method(key), None)
    if method is None:
        return getattr(paddle, _method(key))(x, *args)
    return method(*args)


def _inplace_cases(paddle: Any, out: dict[str, np.ndarray]) -> None:
    for key, (data, _) in INPLACE.items():
        x = paddle.to_tensor(data)
        inplace_call(paddle, key, x)
        out[f"inplace/{key}"] = x.numpy()
        if key in NO_GRAD:
            continue
        leaf = paddle.to_tensor(data, stop_gradient=False)
        written = leaf * 1.0
        try:
            inplace_call(paddle, key, written)
            (written * written).sum().backward()
        except Exception as error:  # PaddlePaddle's refusal, recorded by its first line
            out[f"grad_refused/{key}"] = np.array(str(error).strip().splitlines()[0])
            continue
        if leaf.grad is None:  # phiops's gammaincc has no gradient for x: it gives none
            out[f"grad_none/{key}"] = np.array(True)
            continue
        out[f"grad/{key}"] = leaf.grad.numpy()


def _random_cases(paddle: Any, out: dict[str, np.ndarray]) -> None:
    fills: dict[str, Callable[[Any], Any]] = {
        "bernoulli_": lambda x: x.bernoulli_(0.3),
        "bernoulli_/tensor": lambda x: paddle.bernoulli_(x, paddle.full([3, 4], 0.7)),
        "cauchy_": lambda x: x.cauchy_(1.0, 2.0),
        "geometric_": lambda x: x.geometric_(0.4),
        "log_normal_": lambda x: x.log_normal_(0.5, 0.25),
        "log_normal_/default": lambda x: paddle.log_normal_(x),
    }
    for name, dtype, fill in (
        ("random_/3,50", "int64", lambda x: x.random_(3, 50)),
        ("random_/default", "int32", lambda x: x.random_()),
        ("random_/default", "int64", lambda x: x.random_()),
        ("random_/default", "float32", lambda x: x.random_()),
        ("random_/default", "float64", lambda x: x.random_()),
        ("random_/2**40", "int64", lambda x: x.random_(0, 2**40)),
        ("random_/-5,5", "int64", lambda x: x.random_(-5, 5)),
        ("random_/to", "float32", lambda x: x.random_(10)),
    ):
        paddle.seed(7)
        x = paddle.zeros([3, 4], dtype=dtype)
        fill(x)
        out[f"random/{name}/{dtype}"] = x.numpy()
    for name, fill in fills.items():
        for dtype in ("float32", "float64"):
            paddle.seed(7)
            x = paddle.zeros([3, 4], dtype=dtype)
            fill(x)
            out[f"random/{name}/{dtype}"] = x.numpy()


def _fact(value: Any) -> np.ndarray:
    return np.array(value if not hasattr(value, "name") else str(value))


def _dtype_name(tensor: Any) -> np.ndarray:
    return np.array(str(tensor.dtype).split(".")[-1])


CASTS = (
    "float16 half bfloat16 float32 float float64 double int8 char int16 short int32 int int64 "
    "long bool complex64 complex128 cfloat cdouble byte uint8"
).split()


def _tensor_cases(paddle: Any, out: dict[str, np.ndarray]) -> None:
    x = paddle.to_tensor(np.arange(6, dtype="float32").reshape(2, 3) - 2.5)
    for name in ("itemsize", "device", "is_cuda", "strides", "offset", "requires_grad"):
        out[f"tensor/{name}"] = np.array(getattr(x, name))
    out["tensor/layout"] = np.array(str(x.layout))
    for name in ("get_device", "is_contiguous", "get_strides", "dense_dim", "sparse_dim", "stride"):
        out[f"tensor/{name}()"] = np.array(getattr(x, name)())
    out["tensor/stride(1)"] = np.array(x.stride(1))
    transposed = x.t()
    out["tensor/t.strides"] = np.array(transposed.strides)
    out["tensor/t.is_contiguous"] = np.array(transposed.is_contiguous())
    out["tensor/t.contiguous"] = transposed.contiguous().numpy()
    out["tensor/t.contiguous.strides"] = np.array(transposed.contiguous().strides)
    for name in CASTS:
        cast = getattr(x, name)()
        # PaddlePaddle's bfloat16 numpy() gives the raw uint16 bits: compared in float32
        out[f"cast/{name}"] = (cast.astype("float32") if name == "bfloat16" else cast).numpy()
        out[f"cast/{name}/dtype"] = _dtype_name(cast)
        out[f"cast/{name}/same"] = np.array(getattr(cast, name)() is cast)
    out["type_as"] = x.type_as(paddle.to_tensor([1], dtype="int32")).numpy()
    out["repeat/2"] = x.repeat(2).numpy()
    out["repeat/2,1"] = x.repeat(2, 1).numpy()
    out["repeat/[1,2]"] = x.repeat([1, 2]).numpy()
    out["new_full"] = x.new_full([2], 7).numpy()
    out["new_full/int32"] = x.new_full([2, 1], 3, dtype="int32").numpy()
    out["new_zeros"] = x.new_zeros(2, 3).numpy()
    out["new_ones"] = x.new_ones([1]).numpy()
    out["new_empty/shape"] = np.array(x.new_empty((2,)).shape)
    out["new_empty/dtype"] = _dtype_name(x.new_empty((2,), dtype="float64"))
    out["split_with_sizes"] = np.concatenate(
        [piece.numpy().ravel() for piece in x.split_with_sizes([2, 1], dim=1)]
    )
    out["is_same_shape"] = np.array(
        [x.is_same_shape(paddle.ones([2, 3])), x.is_same_shape(paddle.ones([3, 2]))]
    )
    version = paddle.to_tensor([1.0, 2.0])
    before = version.inplace_version
    version.exp_()
    version.tan_()
    out["inplace_version"] = np.array([before, version.inplace_version])
    copied = paddle.ones([2, 3])
    copied.copy_(paddle.zeros([3]), True)
    out["copy_"] = copied.numpy()
    resized = paddle.to_tensor([1.0, 2.0, 3.0])
    out["resize_/shrink"] = resized.resize_([2, 1]).numpy()
    out["resize_/grow"] = paddle.to_tensor([1.0, 2.0, 3.0]).resize_([2, 2], fill_zero=True).numpy()
    target = paddle.to_tensor([1.0, 2.0])
    out["set_"] = target.set_(paddle.to_tensor([5.0, 6.0, 7.0])).numpy()
    out["set_/empty"] = np.array(paddle.to_tensor([1.0, 2.0]).set_().shape)
    leaf = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    hidden = leaf * 2
    hidden.retain_grads()
    (hidden * hidden).sum().backward()
    out["retain_grads"] = hidden.grad.numpy()
    out["gradient"] = leaf.gradient()
    detached = leaf * 3
    detached.detach_()
    out["detach_"] = np.array([detached.stop_gradient, detached.is_leaf])
    flag = paddle.to_tensor([1.0])
    flag.requires_grad = True
    toggled = flag.stop_gradient
    flag.requires_grad_(False)
    out["requires_grad_"] = np.array([toggled, flag.stop_gradient, flag.requires_grad])
    out["greater"] = x.greater(paddle.zeros([2, 3])).numpy()
    out["less"] = x.less(paddle.zeros([2, 3])).numpy()


def _paddle_cases(paddle: Any, out: dict[str, np.ndarray]) -> None:
    for name in (
        "FloatTensor DoubleTensor HalfTensor BFloat16Tensor ByteTensor CharTensor ShortTensor "
        "IntTensor LongTensor BoolTensor"
    ).split():
        factory = getattr(paddle, name)
        out[f"factory/{name}/list"] = _dtype_name(factory([1, 0, 2]))
        out[f"factory/{name}/shape"] = np.array(factory(2, 3).shape)
        out[f"factory/{name}/empty"] = np.array(factory().shape)
    out["factory/values"] = paddle.LongTensor([1, 2, 3]).numpy()
    size = paddle.Size([2, 3, 4])
    out["Size"] = np.array([repr(size), str(size.numel()), str(size == [2, 3, 4])])
    out["newaxis"] = np.array(paddle.newaxis is None)
    out["ger"] = paddle.ger(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0, 4.0, 5.0])).numpy()
    source = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    index = paddle.to_tensor([[0, 0, 1], [1, 0, 0]])
    for reduce in ("sum", "prod", "mean", "amin", "amax"):
        for include_self in (True, False):
            result = paddle.scatter_reduce(
                paddle.ones([2, 3]) * 2, 0, index, source, reduce, include_self=include_self
            )
            out[f"scatter_reduce/{reduce}/{include_self}"] = result.numpy()
    out["scatter_reduce/method"] = (
        (paddle.ones([2, 3])).scatter_reduce(1, index, source, "sum").numpy()
    )
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    out["dlpack/roundtrip"] = paddle.from_dlpack(paddle.to_dlpack(x)).numpy()
    out["dlpack/numpy"] = paddle.from_dlpack(np.arange(3, dtype="int32")).numpy()
    out["autocast"] = np.array(
        [
            paddle.get_autocast_dtype(),
            paddle.get_autocast_cpu_dtype(),
            paddle.get_autocast_gpu_dtype(),
            str(paddle.is_autocast_enabled()),
        ]
    )
    # both warn that auto_cast does nothing on the CPU
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with paddle.autocast("cpu", dtype="bfloat16"):
            out["autocast/inside"] = np.array(
                [str(paddle.is_autocast_enabled()), paddle.get_autocast_dtype()]
            )
    out["batch"] = np.array(
        [len(b) for b in paddle.batch(lambda: iter(range(7)), 3)()]
        + [-1]
        + [len(b) for b in paddle.batch(lambda: iter(range(7)), 3, drop_last=True)()]
    )
    signal = paddle.to_tensor(np.sin(np.arange(12, dtype="float32")).reshape(1, 2, 6))
    weight = paddle.to_tensor(np.linspace(-1, 1, 12, dtype="float32").reshape(3, 2, 2))
    out["conv1d"] = paddle.conv1d(signal, weight, stride=2, padding=1).numpy()
    out["adaptive_avg_pool1d"] = paddle.adaptive_avg_pool1d(signal, 4).numpy()
    rng = np.random.default_rng(5)
    points = paddle.to_tensor(np.round(rng.normal(size=(4, 5, 2)), 3).astype("float32"))
    weights = paddle.to_tensor(np.round(rng.random((4, 5)), 3).astype("float32"))
    for key, kwargs in {
        "default": {},
        "bins": {"bins": [3, 4]},
        "ranges/density/weights": {
            "bins": 3,
            "ranges": [-1.0, 1.0, -2.0, 2.0],
            "density": True,
            "weights": weights,
        },
        "edges": {
            "bins": (
                paddle.to_tensor([-2.0, 0.0, 0.5, 2.0]),
                paddle.to_tensor([-1.0, 1.0]),
            )
        },
    }.items():
        hist, edges = points.histogramdd(**kwargs)
        out[f"histogramdd/{key}"] = hist.numpy()
        out[f"histogramdd/{key}/edges"] = np.concatenate([edge.numpy() for edge in edges])


def _function_method_cases(paddle: Any, out: dict[str, np.ndarray]) -> None:
    """``paddle.*`` functions PaddlePaddle 3.3.1 also has as Tensor methods, and ``apply``/``data``."""
    a = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    b = paddle.to_tensor([[0.5, -1.0], [2.0, 0.0]])
    out["method/add_n"] = paddle.Tensor.add_n([a, b]).numpy()
    out["method/stack"] = paddle.Tensor.stack([a, b], 1).numpy()
    out["method/concat"] = paddle.Tensor.concat([a, b], 1).numpy()
    out["method/argwhere"] = b.argwhere().numpy()
    out["method/atleast_3d"] = np.array(a.atleast_3d().shape)
    out["method/block_diag"] = paddle.Tensor.block_diag([a, b]).numpy()
    out["method/broadcast_tensors"] = np.array(
        [t.shape for t in paddle.Tensor.broadcast_tensors([a, paddle.ones([1, 2])])]
    )
    out["method/combinations"] = paddle.to_tensor([1, 2, 3]).combinations(2).numpy()
    out["method/multi_dot"] = paddle.Tensor.multi_dot([a, b, a]).numpy()
    out["method/polar"] = a.polar(b).numpy()
    out["method/view_as_real"] = a.astype("complex64").view_as_real().numpy()
    out["method/histogram_bin_edges"] = a.histogram_bin_edges(4).numpy()
    out["method/is_tensor"] = np.array(a.is_tensor())
    out["method/scatter_add"] = a.scatter_add(0, paddle.to_tensor([[1, 0]]), b[:1]).numpy()
    factor = paddle.to_tensor([[2.0, 0.0, 0.0], [0.5, 1.5, 0.0], [-1.0, 0.25, 3.0]])
    out["method/cholesky_inverse"] = factor.cholesky_inverse().numpy()
    out["method/cholesky_inverse/upper"] = factor.t().cholesky_inverse(upper=True).numpy()
    out["linalg/vecdot"] = paddle.linalg.vecdot(a, b).numpy()
    out["linalg/matrix_transpose"] = paddle.linalg.matrix_transpose(a).numpy()
    out["apply"] = a.apply(lambda t: t * 2).numpy()
    applied = paddle.to_tensor([1.0, 2.0])
    applied.apply_(lambda t: t * 3)
    out["apply_"] = applied.numpy()
    held = paddle.to_tensor([1.0, 2.0])
    view = held.data
    held.data = paddle.to_tensor([7.0, 8.0, 9.0])
    out["data"] = np.concatenate([view.numpy(), held.numpy()])


def cases(paddle: Any) -> dict[str, np.ndarray]:
    out: dict[str, np.ndarray] = {}
    _inplace_cases(paddle, out)
    _random_cases(paddle, out)
    _tensor_cases(paddle, out)
    _paddle_cases(paddle, out)
    _function_method_cases(paddle, out)
    return out
