"""``import phiops as paddle`` against PaddlePaddle 3.3.1's own ``paddle.*`` on sample calls: the
same call, written once, runs in both, and the results agree in structure (Tensor, list, tuple,
named tuple), shape, dtype and values. Every function of ops/python_api.yaml and
phiops/_paddle_api.py has at least one call here (checked below). Runs only where PaddlePaddle is
installed.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops  # noqa: E402
from phiops import _paddle_api  # noqa: E402
from phiops.generated import python_api  # noqa: E402

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 7.5
M = np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], dtype=np.float32)
I32 = np.array([[1, -2, 3], [4, 5, -6]], dtype=np.int32)
COND = np.array([[True, False, True], [False, False, True]])


def _grad_case(p: Any, t: Callable[[np.ndarray], Any]) -> Any:
    x = t(M)
    x.stop_gradient = False
    return p.grad([p.sum(x * x)], [x], only_inputs=True, no_grad_vars=None)


# (case id, a call written against a module `p` and a tensor maker `t`)
Call = Callable[[Any, Callable[[np.ndarray], Any]], Any]
CASES: list[tuple[str, Call]] = [
    ("flatten", lambda p, t: p.flatten(t(X))),
    ("flatten-1", lambda p, t: p.flatten(t(X), 1)),
    ("flatten-method", lambda p, t: t(X).flatten(start_axis=0, stop_axis=1)),
    ("reshape", lambda p, t: p.reshape(t(X), [4, -1])),
    ("transpose", lambda p, t: p.transpose(t(X), [2, 0, 1])),
    ("squeeze", lambda p, t: p.squeeze(t(X[:1]))),
    ("unsqueeze", lambda p, t: p.unsqueeze(t(M), [0, 2])),
    ("cumsum", lambda p, t: p.cumsum(t(M))),
    ("cumsum-axis", lambda p, t: p.cumsum(t(M), axis=1)),
    ("cumsum-int32", lambda p, t: p.cumsum(t(I32), axis=0)),
    ("cumprod", lambda p, t: p.cumprod(t(M), dim=1)),
    ("split-3", lambda p, t: p.split(t(X), 2, 2)),
    ("split-sections", lambda p, t: p.split(t(X), [1, -1], axis=1)),
    ("argsort", lambda p, t: p.argsort(t(M), axis=1, descending=True)),
    ("sort", lambda p, t: p.sort(t(M), axis=0)),
    ("argmax", lambda p, t: p.argmax(t(M))),
    ("argmax-axis", lambda p, t: p.argmax(t(M), axis=1, keepdim=True)),
    ("argmin", lambda p, t: p.argmin(t(M), axis=0)),
    ("arange-1", lambda p, t: p.arange(5)),
    ("arange-3", lambda p, t: p.arange(1, 10, 3)),
    ("arange-float", lambda p, t: p.arange(0.5, 2.5, 0.5)),
    ("linspace", lambda p, t: p.linspace(0, 1, 5)),
    ("full", lambda p, t: p.full([2], fill_value=3)),
    ("full-float", lambda p, t: p.full([2, 2], 1.5)),
    ("full_like", lambda p, t: p.full_like(t(M), 7)),
    ("zeros", lambda p, t: p.zeros([2, 3])),
    ("ones-int", lambda p, t: p.ones([3], dtype="int64")),
    ("sum", lambda p, t: p.sum(t(X))),
    ("sum-axis", lambda p, t: p.sum(t(X), axis=[0, 2], keepdim=True)),
    ("sum-int32", lambda p, t: p.sum(t(I32))),
    ("mean", lambda p, t: p.mean(t(X), axis=1)),
    ("max", lambda p, t: p.max(t(X), axis=-1)),
    ("min", lambda p, t: p.min(t(X))),
    ("clip-min", lambda p, t: p.clip(t(M), min=2.0)),
    ("clip-both", lambda p, t: p.clip(t(M), 1.0, 4.0)),
    ("clamp-method", lambda p, t: t(M).clip(max=3.0)),
    ("where-3", lambda p, t: p.where(t(COND), t(M), t(-M))),
    ("where-1", lambda p, t: p.where(t(COND))),
    ("concat", lambda p, t: p.concat([t(M), t(M)], axis=1)),
    ("cat", lambda p, t: p.cat([t(M), t(M)])),
    ("concatenate", lambda p, t: p.concatenate([t(M), t(M)], axis=0)),
    ("stack", lambda p, t: p.stack([t(M), t(M)], axis=1)),
    ("gather", lambda p, t: p.gather(t(M), t(np.array([1, 0, 1])), axis=1)),
    ("topk", lambda p, t: p.topk(t(M), 2)),
    ("topk-method", lambda p, t: t(M).topk(1, axis=0, largest=False)),
    ("scale", lambda p, t: p.scale(t(M), 2.0, bias=1.0)),
    ("pow", lambda p, t: p.pow(t(M), 2.0)),
    ("matmul", lambda p, t: p.matmul(t(M), t(M), transpose_y=True)),
    ("softmax", lambda p, t: p.softmax(t(M), dim=1)),
    # out=: the result is written into out, which is returned
    ("sum-out", lambda p, t: p.sum(t(M), axis=0, out=p.zeros([3]))),
    ("gather-out", lambda p, t: p.gather(t(M), t(np.array([1])), 0, None, p.zeros([1, 3]))),
    ("cumsum-out", lambda p, t: p.cumsum(t(M), axis=1, out=p.zeros([2, 3]))),
    ("abs-out", lambda p, t: p.abs(t(M - 2), out=p.zeros([2, 3]))),
    ("add-out", lambda p, t: p.add(t(M), t(M), alpha=2, out=p.zeros([2, 3]))),
    # creation
    ("empty", lambda p, t: p.empty([2, 3]).shape),
    ("empty_like", lambda p, t: p.empty_like(t(M), dtype="int32").shape),
    ("zeros_like", lambda p, t: p.zeros_like(t(M))),
    ("ones_like", lambda p, t: p.ones_like(t(I32), "float64")),
    ("eye", lambda p, t: p.eye(3)),
    ("eye-2", lambda p, t: p.eye(2, 4, dtype="int64")),
    # shape and reduction
    ("tril", lambda p, t: p.tril(t(M))),
    ("triu", lambda p, t: p.triu(t(M), diagonal=1)),
    ("triu-method", lambda p, t: t(M).triu(-1)),
    ("tile", lambda p, t: p.tile(t(M), [2, 2])),
    ("flip", lambda p, t: p.flip(t(X), [0, 2])),
    ("roll", lambda p, t: p.roll(t(M), 2)),
    ("roll-axis", lambda p, t: p.roll(t(M), shifts=1, axis=1)),
    ("expand", lambda p, t: p.expand(t(M[:1]), [3, 3])),
    ("all", lambda p, t: p.all(t(COND))),
    ("any", lambda p, t: p.any(t(COND), axis=1, keepdim=True)),
    ("prod", lambda p, t: p.prod(t(M + 1))),
    ("prod-axis", lambda p, t: p.prod(t(I32), axis=1, dtype="int64")),
    ("logsumexp", lambda p, t: p.logsumexp(t(M))),
    ("logsumexp-axis", lambda p, t: p.logsumexp(t(X), axis=[0, 2], keepdim=True)),
    # elementwise
    *[
        (name, lambda p, t, name=name: getattr(p, name)(t(np.abs(M) + 0.5)))
        for name in ("exp", "log", "sqrt", "rsqrt")
    ],
    # the unary math functions with a keyword-only out=: in their domains, and with out= given
    *[
        (name, lambda p, t, name=name, low=low: getattr(p, name)(t(np.abs(M) / 8 + low)))
        for name, low in (
            ("acos", 0.1),
            ("acosh", 1.2),
            ("atanh", 0.1),
            ("cosh", 0.0),
            ("expm1", -0.5),
            ("log10", 0.5),
            ("log1p", 0.0),
            ("log2", 0.5),
            ("sinh", -0.3),
        )
    ],
    ("round", lambda p, t: p.round(t(M * 0.7 - 1.25))),
    ("dot", lambda p, t: p.dot(t(M[0]), t(M[1]))),
    ("dot-batch", lambda p, t: p.dot(t(M), t(M + 1))),
    ("diag_embed", lambda p, t: p.diag_embed(t(M))),
    ("diag_embed-offset", lambda p, t: p.diag_embed(t(M), offset=1, dim1=0, dim2=2)),
    ("unfold", lambda p, t: p.unfold(t(X), 2, 2, 1)),
    ("unfold-method", lambda p, t: t(X).unfold(0, 1, 1)),
    # the fftspecial family
    ("gammaincc", lambda p, t: p.gammaincc(t(M + 0.5), t(M * 2.0))),
    ("gammaincc-method", lambda p, t: t(M + 0.5).gammaincc(t(M))),
    ("gammainc", lambda p, t: p.gammainc(t(M + 0.5), t(M * 2.0))),
    ("logspace", lambda p, t: p.logspace(0, 2, 5)),
    ("logspace-base-dtype", lambda p, t: p.logspace(1.5, -2, 7, 3.0, "float64")),
    ("logspace-int", lambda p, t: p.logspace(0.5, 3.7, 4, 2.5, "int64")),
    ("round-decimals", lambda p, t: p.round(t(M * 0.77 - 1.25), decimals=1)),
    ("log1p-out", lambda p, t: (lambda out: (p.log1p(t(M), out=out), out)[1])(t(M * 0))),
    *[
        (name, lambda p, t, name=name: getattr(p, name)(t(M - 2.5)))
        for name in (
            "abs",
            "sin",
            "cos",
            "tanh",
            "floor",
            "ceil",
            "sign",
            "square",
            "sigmoid",
            "erf",
            "isnan",
            "isinf",
            "isfinite",
        )
    ],
    *[
        (name, lambda p, t, name=name: getattr(p, name)(t(M), t(M[::-1])))
        for name in (
            "multiply",
            "maximum",
            "minimum",
            "equal",
            "not_equal",
            "greater_than",
            "greater_equal",
            "less_than",
            "less_equal",
            "fmax",
            "fmin",
        )
    ],
    *[
        (name, lambda p, t, name=name: getattr(p, name)(t(COND), t(~COND[::-1])))
        for name in ("logical_and", "logical_or", "logical_xor")
    ],
    ("logical_not", lambda p, t: p.logical_not(t(COND))),
    ("floor_divide", lambda p, t: p.floor_divide(t(I32), t(np.abs(I32[::-1])))),
    ("remainder", lambda p, t: p.remainder(t(I32), t(I32[::-1]))),
    ("remainder-float", lambda p, t: p.remainder(t(M - 2), t(M * 0 + 1.5), out=p.zeros([2, 3]))),
    ("add", lambda p, t: p.add(t(M), t(M), alpha=3)),
    ("subtract", lambda p, t: p.subtract(t(M), t(M[::-1]))),
    ("divide", lambda p, t: p.divide(t(M), t(M + 1))),
    ("divide-floor", lambda p, t: p.divide(t(M - 2), t(M * 0 + 2), rounding_mode="floor")),
    ("divide-trunc", lambda p, t: p.divide(t(M - 2), t(M * 0 + 2), rounding_mode="trunc")),
    ("divide-trunc_int", lambda p, t: p.divide(t(I32), t(I32 * 0 + 4), rounding_mode="trunc")),
    # PaddlePaddle's signatures of ops that had the op's (docs/coming_from_paddle.md)
    ("flatten_", lambda p, t: t(X).flatten_()),
    ("flatten_-axes", lambda p, t: p.flatten_(t(X), 1)),
    ("cumsum_", lambda p, t: p.cumsum_(t(I32))),
    ("cumsum_-dtype", lambda p, t: t(I32).cumsum_(0, dtype="int64")),
    ("cumprod_", lambda p, t: p.cumprod_(t(M))),
    ("cumprod_-dtype", lambda p, t: t(M).cumprod_(1, dtype="float64")),
    ("squeeze_", lambda p, t: p.squeeze_(t(X[:1]))),
    ("squeeze_-axis", lambda p, t: t(X[:1, :1]).squeeze_(1)),
    ("unsqueeze_", lambda p, t: p.unsqueeze_(t(M), [0, 2])),
    ("tril_", lambda p, t: p.tril_(t(M))),
    ("triu_", lambda p, t: t(M).triu_(1)),
    ("pow_", lambda p, t: p.pow_(t(M), 2)),
    ("where_", lambda p, t: p.where_(t(COND), t(M), t(-M))),
    ("add_", lambda p, t: t(M).add_(t(M[::-1]), alpha=2)),
    ("subtract_", lambda p, t: p.subtract_(t(M), t(M[::-1]), alpha=3)),
    ("divide_", lambda p, t: p.divide_(t(M), t(M + 1))),
    ("divide_-floor", lambda p, t: t(M - 2).divide_(t(M * 0 + 2), rounding_mode="floor")),
    ("divide_-trunc", lambda p, t: p.divide_(t(M - 2), t(M * 0 + 2), rounding_mode="trunc")),
    ("clip_", lambda p, t: t(M).clip_(min=2.0)),
    ("scale_", lambda p, t: t(M).scale_(2.0, bias=1.0)),
    ("cast_", lambda p, t: p.cast_(t(M), "float64")),
    ("cast", lambda p, t: p.cast(t(M), "int32")),
    ("astype", lambda p, t: t(M).astype("int64")),
    ("unique", lambda p, t: p.unique(t(np.array([3, 1, 2, 3, 1])))),
    ("unique-all", lambda p, t: p.unique(t(np.array([3, 1, 2, 3, 1])), True, True, True)),
    ("unique-counts", lambda p, t: t(np.array([3, 1, 3])).unique(return_counts=True)),
    ("unique-axis", lambda p, t: p.unique(t(np.array([[1, 2], [1, 2], [0, 1]])), axis=0)),
    ("unique-unsorted", lambda p, t: p.unique(t(np.array([3, 1, 2])), sorted=False)),
    ("nonzero", lambda p, t: p.nonzero(t(COND))),
    ("nonzero-tuple", lambda p, t: p.nonzero(t(COND), as_tuple=True)),
    ("nonzero-out", lambda p, t: p.nonzero(t(COND), out=p.zeros([3, 2], dtype="int64"))),
    ("logit", lambda p, t: p.logit(t(np.array([0.0, 0.3, 1.0], dtype=np.float32)))),
    ("logit-eps", lambda p, t: t(np.array([0.0, 0.3, 1.0], dtype=np.float32)).logit(0.1)),
    ("take_along_axis", lambda p, t: p.take_along_axis(t(M), t(np.array([[0], [2]])), 1)),
    ("take_along_axis-bcast", lambda p, t: p.take_along_axis(t(M), t(np.array([[0, 1]])), 1)),
    (
        "take_along_axis-nobcast",
        lambda p, t: p.take_along_axis(t(M), t(np.array([[0, 1]])), 1, broadcast=False),
    ),
    (
        "take_along_axis-out",
        lambda p, t: p.take_along_axis(t(M), t(np.array([[2]])), 1, out=p.zeros([2, 1])),
    ),
    ("put_along_axis", lambda p, t: p.put_along_axis(t(M), t(np.array([[0], [2]])), 9.0, 1)),
    ("put_along_axis-bcast", lambda p, t: p.put_along_axis(t(M), t(np.array([[0, 1]])), 9.0, 1)),
    (
        "put_along_axis-nobcast",
        lambda p, t: p.put_along_axis(
            t(M), t(np.array([[0, 1]])), t(np.array([[9.0, 8.0]], np.float32)), 1, broadcast=False
        ),
    ),
    (
        "put_along_axis-add",
        lambda p, t: t(M).put_along_axis(t(np.array([[1], [1]])), 10.0, 1, reduce="add"),
    ),
    (
        "put_along_axis_",
        lambda p, t: t(M).put_along_axis_(t(np.array([[0, 1]])), 7.0, 1),
    ),
    ("slice", lambda p, t: p.slice(t(X), [0, 2], [1, 1], [2, 3])),
    ("slice-method", lambda p, t: t(X).slice([1], [-2], [10])),
    ("layer_norm", lambda p, t: p.layer_norm(t(X), [4])),
    ("layer_norm-2", lambda p, t: p.layer_norm(t(X), [3, 4], epsilon=1e-3)),
    ("group_norm", lambda p, t: p.group_norm(t(X[:, :2].reshape(2, 2, 2, 2)), 2)),
    ("conv2d", lambda p, t: p.conv2d(t(X.reshape(1, 2, 3, 4)), t(M.reshape(1, 2, 3, 1)))),
    (
        "conv2d-stride",
        lambda p, t: p.conv2d(
            t(X.reshape(2, 1, 3, 4)), t(M.reshape(1, 1, 2, 3)), stride=1, padding=1
        ),
    ),
    ("meshgrid", lambda p, t: p.meshgrid(t(np.arange(2)), t(np.arange(3)))),
    ("meshgrid-list", lambda p, t: p.meshgrid([t(np.arange(3.0)), t(np.arange(2.0))])),
    ("assign", lambda p, t: p.assign(t(M))),
    ("assign-numpy", lambda p, t: p.assign(np.ones([2], dtype=np.float64))),
    ("assign-list", lambda p, t: p.assign([1, 2])),
    ("assign-output", lambda p, t: p.assign(t(M), p.zeros([2, 3]))),
    ("diag", lambda p, t: p.diag(t(np.array([1, 2])))),
    ("diag-padding", lambda p, t: p.diag(t(np.array([1, 2])), padding_value=7)),
    ("diag-matrix", lambda p, t: p.diag(t(M), offset=1)),
    ("bmm", lambda p, t: p.bmm(t(X[:, :2, :3]), t(X[:, :3, :2]))),
    ("bmm-method", lambda p, t: t(X[:, :2, :3]).bmm(t(X[:, :3, :2]))),
    ("mm", lambda p, t: p.mm(t(M), t(M.T))),
    ("mm-method", lambda p, t: t(M).mm(t(M.T))),
    ("bitwise_and", lambda p, t: p.bitwise_and(t(I32), t(I32[::-1]))),
    ("bitwise_or", lambda p, t: p.bitwise_or(t(I32), t(I32[::-1]), p.zeros([2, 3], "int32"))),
    ("bitwise_xor", lambda p, t: p.bitwise_xor(t(I32), t(I32[::-1]))),
    ("bitwise_not", lambda p, t: p.bitwise_not(t(I32), out=p.zeros([2, 3], "int32"))),
    ("index_select", lambda p, t: p.index_select(t(M), t(np.array([2, 0])), axis=1)),
    (
        "index_select-out",
        lambda p, t: p.index_select(t(M), t(np.array([1])), out=p.zeros([1, 3])),
    ),
    ("masked_select", lambda p, t: p.masked_select(t(M), t(COND))),
    ("masked_select-out", lambda p, t: p.masked_select(t(M), t(COND), out=p.zeros([3]))),
    (
        "scatter",
        lambda p, t: p.scatter(t(M), t(np.array([1])), t(M[:1] * 0 + 9), overwrite=False),
    ),
    (
        "scatter-out",
        lambda p, t: p.scatter(t(M), t(np.array([0])), t(M[:1] + 1), True, None, p.zeros([2, 3])),
    ),
    ("neg", lambda p, t: p.neg(t(M))),
    ("negative", lambda p, t: t(I32).negative()),
    ("numel", lambda p, t: p.numel(t(X))),
    ("numel-method", lambda p, t: t(M).numel()),
    ("tolist", lambda p, t: t(np.array(p.tolist(t(M)), dtype=np.float32))),
    ("true_divide", lambda p, t: p.true_divide(t(I32), t(I32 * 0 + 4))),
    ("true_divide-method", lambda p, t: t(M).true_divide(t(M + 1), out=p.zeros([2, 3]))),
    ("permute", lambda p, t: p.permute(t(X), [2, 0, 1])),
    ("permute-varargs", lambda p, t: t(X).permute(1, 2, 0)),
    ("ravel", lambda p, t: p.ravel(t(X))),
    ("view", lambda p, t: p.view(t(X), [4, 6])),
    ("view-varargs", lambda p, t: t(X).view(6, 4)),
    ("expand_as", lambda p, t: p.expand_as(t(M[:1]), t(M))),
    ("normal_", lambda p, t: p.normal_(t(M), 1.0, 0.5)),
    ("uniform_", lambda p, t: t(M).uniform_()),
    ("item", lambda p, t: t(np.array(t(M).item(1, 2), dtype=np.float32))),
    ("item-flat", lambda p, t: t(np.array(t(I32).item(4), dtype=np.int64))),
    ("sub", lambda p, t: t(M).sub(t(M[::-1]), alpha=2)),
    ("div-floor", lambda p, t: t(M).div(t(M * 0 + 2), rounding_mode="floor")),
    ("mul-out", lambda p, t: t(M).mul(t(M), out=p.zeros([2, 3]))),
    ("eq-out", lambda p, t: t(M).eq(t(M[::-1]), out=p.zeros([2, 3], "bool"))),
    ("floor_mod", lambda p, t: t(I32).floor_mod(t(I32 * 0 + 4))),
    ("dim", lambda p, t: t(np.array(t(X).dim()))),
    # creation keywords: device= and requires_grad= (the flag compared as a bool tensor)
    (
        "zeros-device",
        lambda p, t: p.zeros([2, 3], device="cpu", requires_grad=True),
    ),
    (
        "arange-requires_grad",
        lambda p, t: t(np.array(p.arange(4.0, requires_grad=True).stop_gradient)),
    ),
    (
        "full_like-requires_grad",
        lambda p, t: t(np.array(p.full_like(t(M), 2, requires_grad=True).stop_gradient)),
    ),
    ("linspace-device", lambda p, t: p.linspace(0, 1, 4, device=p.CPUPlace())),
    (
        "conv3d",
        lambda p, t: p.conv3d(
            t(X.reshape(1, 2, 3, 2, 2)), t(M.reshape(1, 2, 3, 1, 1)), t(np.array([0.5], np.float32))
        ),
    ),
    (
        "conv3d-padding",
        lambda p, t: p.conv3d(
            t(X.reshape(1, 1, 2, 3, 4)), t(M.reshape(1, 1, 1, 2, 3)), padding=1, stride=[1, 2, 1]
        ),
    ),
    ("scatter_", lambda p, t: p.scatter_(t(M), t(np.array([1])), t(M[:1] + 1))),
    ("scatter_-method", lambda p, t: t(M).scatter_(t(np.array([0, 0])), t(M), overwrite=False)),
    # renamed parameters (seed, flags, place, grad's extras, save/load configs)
    ("seed", lambda p, t: (p.seed(seed=3), p.ones([1]))[1]),
    (
        "get_flags",
        lambda p, t: t(np.array(p.get_flags(flags=["FLAGS_check_nan_inf"])["FLAGS_check_nan_inf"])),
    ),
    ("set_flags", lambda p, t: (p.set_flags(flags={"FLAGS_check_nan_inf": False}), p.ones([1]))[1]),
    (
        "disable_static",
        lambda p, t: (p.disable_static(place="cpu"), t(np.array(p.in_dynamic_mode())))[1],
    ),
    ("grad", lambda p, t: _grad_case(p, t)),
    # random: compared in structure, shape and dtype only (RANDOM)
    ("rand", lambda p, t: p.rand([2, 3])),
    ("randn", lambda p, t: p.randn([4], dtype="float64")),
    ("standard_normal", lambda p, t: p.standard_normal([3, 1])),
    ("uniform", lambda p, t: p.uniform([5], min=-1.0, max=2.0)),
    ("normal", lambda p, t: p.normal(1.0, 2.0, [2, 2])),
    ("normal-tensor", lambda p, t: p.normal(t(M), 0.5)),
    ("randint", lambda p, t: p.randint(3, 9, [4])),
    ("randint-1", lambda p, t: p.randint(5)),
    ("randperm", lambda p, t: p.randperm(6)),
    ("bernoulli", lambda p, t: p.bernoulli(t(M * 0 + 0.5))),
    # math3: the paddle.* functions that broadcast or convert before their op
    ("atan2", lambda p, t: p.atan2(t(M), t(M[::-1].copy()))),
    ("atan2-broadcast", lambda p, t: p.atan2(t(M), t(M[:1]))),
    ("atan2-int32", lambda p, t: p.atan2(t(I32), t(I32[::-1].copy()))),
    ("atan2-method", lambda p, t: t(M).atan2(t(M - 2))),
    ("copysign", lambda p, t: p.copysign(t(M), t(M - 2))),
    ("copysign-number", lambda p, t: p.copysign(t(M), -1.0)),
    ("copysign-method", lambda p, t: t(I32).copysign(t(-I32))),
    ("lerp", lambda p, t: p.lerp(t(M), t(M * 2), t(M / 10))),
    ("lerp-float", lambda p, t: p.lerp(t(M), t(M[:1]), 0.25)),
    ("lerp-method", lambda p, t: t(M).lerp(t(M + 1), 0.5)),
    ("complex", lambda p, t: p.complex(t(M), t(M[:1]))),
    ("complex-out", lambda p, t: p.complex(t(M), t(M), out=p.zeros([2, 3], "complex64"))),
    ("shape", lambda p, t: p.shape(t(X))),
    ("shape-0d", lambda p, t: p.shape(t(np.float32(1.5)))),
    # linalg2's top-level names (tests/parity/test_linalg2_paddle.py compares paddle.linalg)
    ("dist", lambda p, t: p.dist(t(M), t(M[:1] * 0.5))),
    ("dist-p", lambda p, t: p.dist(t(M), t(M[::-1]), p=1)),
    ("norm", lambda p, t: p.norm(t(X), axis=-1)),
    ("norm-fro", lambda p, t: p.norm(t(M), p="fro", axis=[0, 1], keepdim=True)),
    ("renorm", lambda p, t: p.renorm(t(M), 2.0, 0, 4.0)),
    ("renorm_", lambda p, t: p.renorm_(t(M), 1.0, -1, 3.0)),
    ("eigvalsh", lambda p, t: p.eigvalsh(t(M @ M.T), UPLO="U")),
]
# the cumulative losscum ops of issue 24 (tests/parity/test_losscum_parity_paddle.py has more)
CASES += [
    ("logcumsumexp", lambda p, t: p.logcumsumexp(t(M))),
    ("logcumsumexp-axis-dtype", lambda p, t: p.logcumsumexp(t(M), axis=-1, dtype="float64")),
    ("logcumsumexp-method", lambda p, t: t(X).logcumsumexp(1)),
    ("cummax", lambda p, t: p.cummax(t(I32))),
    ("cummax-axis-int32", lambda p, t: p.cummax(t(M), axis=0, dtype="int32")),
    ("cummax-method", lambda p, t: t(X).cummax(-1)),
    ("cummin", lambda p, t: p.cummin(t(I32), 1)),
    ("cummin-method", lambda p, t: t(M).cummin(axis=0, dtype="int32")),
    ("equal_all", lambda p, t: p.equal_all(t(M), t(M))),
    ("equal_all-method", lambda p, t: t(I32).equal_all(t(-I32))),
    ("is_empty", lambda p, t: p.is_empty(t(X))),
    ("is_empty-method", lambda p, t: t(X[:0]).is_empty()),
]
# the linalg24 composites of issue 24 (tests/parity/test_linalg24_paddle.py has more)
CASES += [
    ("cdist", lambda p, t: p.cdist(t(X), t(X[0]))),
    ("cdist-p1-method", lambda p, t: t(M).cdist(t(M[::-1].copy()), p=1.0)),
    ("pdist", lambda p, t: p.pdist(t(X[0]))),
    ("vander", lambda p, t: p.vander(t(M[0]))),
    ("vander-method", lambda p, t: t(M[1]).vander(n=4, increasing=True)),
]

# the search24 ops of issue 24 (tests/parity/test_search24_parity_paddle.py has more)
_SORTED = np.array([-3.0, -1.0, 0.0, 0.0, 2.0, 5.0, 9.0], "float32")
CASES += [
    ("kthvalue", lambda p, t: p.kthvalue(t(M), 2)),
    ("kthvalue-method", lambda p, t: t(X).kthvalue(1, axis=0, keepdim=True)),
    ("nanmedian", lambda p, t: p.nanmedian(t(M))),
    ("nanmedian-min", lambda p, t: p.nanmedian(t(M), axis=1, mode="min")),
    ("nanmedian-method", lambda p, t: t(X).nanmedian(axis=[0, 2], keepdim=True)),
    ("searchsorted", lambda p, t: p.searchsorted(t(_SORTED), t(M))),
    ("searchsorted-side", lambda p, t: p.searchsorted(t(_SORTED), t(M), side="right")),
    ("histogram", lambda p, t: p.histogram(t(M), bins=4)),
    ("histogram-method", lambda p, t: t(M).histogram(3, min=-1, max=1)),
    ("repeat_interleave", lambda p, t: p.repeat_interleave(t(M), 2, axis=1)),
    ("repeat_interleave-flat", lambda p, t: p.repeat_interleave(t(I32), 2)),
    ("unstack", lambda p, t: p.unstack(t(X), axis=1)),
    ("unstack-method", lambda p, t: t(M).unstack()),
    ("amax", lambda p, t: p.amax(t(M))),
    ("amax-method", lambda p, t: t(X).amax(axis=[0, 1], keepdim=True)),
    ("amin", lambda p, t: p.amin(t(I32), axis=1)),
    ("reverse", lambda p, t: p.reverse(t(X), [0, 2])),
    ("reverse-method", lambda p, t: t(M).reverse(1)),
    ("unbind", lambda p, t: p.unbind(t(X), axis=-1)),
    ("unbind-method", lambda p, t: t(M).unbind()),
]

# the manip24 ops of issue 24 (tests/parity/test_manip24_parity_paddle.py has more)
_RUNS = np.array([1, 1, 2, 2, 2, 0, 1, 1], "int64")
_AT = np.array([1, 0, 1], "int64")
CASES += [
    ("unique_consecutive", lambda p, t: p.unique_consecutive(t(_RUNS))),
    (
        "unique_consecutive-all",
        lambda p, t: p.unique_consecutive(t(_RUNS), True, True, dtype="int32"),
    ),
    ("unique_consecutive-method", lambda p, t: t(M).unique_consecutive(return_counts=True, axis=1)),
    ("index_add", lambda p, t: p.index_add(t(M), t(_AT), 1, t(M[:, ::-1].copy()))),
    ("index_add-alpha-method", lambda p, t: t(X).index_add(t(_AT[:2]), 0, t(X), alpha=2)),
    ("index_add_", lambda p, t: p.index_add_(t(M), t(_AT), 1, t(M), alpha=-1)),
    ("index_add_-method", lambda p, t: t(M).index_add_(t(_AT[:1]), 0, t(M[:1]))),
    ("tril_indices", lambda p, t: p.tril_indices(4, 3)),
    ("tril_indices-offset-int32", lambda p, t: p.tril_indices(3, 5, -1, "int32")),
    ("triu_indices", lambda p, t: p.triu_indices(4)),
    ("triu_indices-offset", lambda p, t: p.triu_indices(3, 5, offset=2)),
    ("fill_diagonal_-method", lambda p, t: t(M).fill_diagonal_(7.0, offset=1)),
    ("fill_diagonal_-3d-method", lambda p, t: t(X[:, :, :3].copy()).fill_diagonal_(1.0)),
    ("bitwise_left_shift", lambda p, t: p.bitwise_left_shift(t(_RUNS), t(_RUNS))),
    ("bitwise_left_shift-method", lambda p, t: t(_AT).bitwise_left_shift(t(_AT), False)),
    ("bitwise_right_shift", lambda p, t: p.bitwise_right_shift(t(-_RUNS), t(_RUNS))),
    (
        "bitwise_right_shift-logical-method",
        lambda p, t: t(-_RUNS).bitwise_right_shift(t(_RUNS), is_arithmetic=False),
    ),
]
# the view24 ops of issue 24
CASES += [
    ("as_strided", lambda p, t: p.as_strided(t(X), [3, 3], [6, 2], 8)),
    ("as_strided-method", lambda p, t: t(M).as_strided(shape=[2, 2], stride=[1, 1])),
    ("view-dtype", lambda p, t: p.view(t(M), "int32")),
    ("view-varargs-method", lambda p, t: t(X).view(4, -1)),
    ("view_as", lambda p, t: p.view_as(t(X), t(np.zeros((6, 4), np.float32)))),
    ("view_as-method", lambda p, t: t(M).view_as(t(np.zeros(6, np.float32)))),
    ("einsum", lambda p, t: p.einsum("bij,jk->bik", t(X[:, :2, :3].copy()), t(M.T.copy()))),
    ("einsum-implicit", lambda p, t: p.einsum("ij,ij", t(M), t(M))),
    ("einsum-three", lambda p, t: p.einsum("ij,jk,k->i", t(M), t(M.T.copy()), t(M[:, 0].copy()))),
]
RANDOM = {
    "rand",
    "randn",
    "standard_normal",
    "uniform",
    "normal",
    "normal-tensor",
    "randint",
    "randint-1",
    "randperm",
    "bernoulli",
    "normal_",
    "uniform_",
}

# the random24 functions of issue 24: multinomial on weights that decide the draws, and the
# Tensor method exponential_ (random: structure only)
CASES += [
    ("multinomial", lambda p, t: p.multinomial(t(np.array([0.0, 2.0, 0.0], np.float32)), 3, True)),
    (
        "multinomial-method",
        lambda p, t: t(np.array([[0.0, 1.0, 0.0], [3.0, 0.0, 0.0]])).multinomial(1),
    ),
    ("exponential_-method", lambda p, t: (t(M) * 1).exponential_(2.0)),
]
RANDOM.add("exponential_-method")

# the basic24 functions of issue 24 (tests/parity/test_basic24_parity_paddle.py has more)
_SHARDED = np.array([[19], [0], [7], [10], [13]], np.int64)
CASES += [
    ("crop", lambda p, t: p.crop(t(X), shape=[1, -1, 2], offsets=[1, 1, 2])),
    ("crop-defaults", lambda p, t: p.crop(t(X))),
    ("crop-shape-only", lambda p, t: p.crop(t(M), [2, 2])),
    ("shard_index", lambda p, t: p.shard_index(t(_SHARDED), 20, 3, 1)),
    ("shard_index-method", lambda p, t: t(_SHARDED).shard_index(20, 2, 0, ignore_value=-5)),
]


def _structure(value: Any) -> Any:
    """(kind, shape, dtype, values) of a result, recursively for lists and tuples."""
    if isinstance(value, list) and all(isinstance(item, int) for item in value):
        return ("shape", value)  # a `.shape`: the values of `empty` are unspecified
    if isinstance(value, (list, tuple)):
        kind = type(value).__name__ if hasattr(value, "_fields") else type(value).__base__.__name__
        if type(value) in (list, tuple):
            kind = type(value).__name__
        return (kind, [_structure(item) for item in value])
    array = value.numpy()
    return ("Tensor", list(value.shape), str(array.dtype), array)


def _same(ours: Any, theirs: Any, values: bool = True) -> None:
    assert ours[0] == theirs[0]
    if ours[0] == "shape":
        assert ours == theirs
        return
    if ours[0] != "Tensor":
        assert len(ours[1]) == len(theirs[1])
        for a, b in zip(ours[1], theirs[1]):
            _same(a, b)
        return
    assert ours[1:3] == theirs[1:3]
    if values:
        np.testing.assert_allclose(ours[3], theirs[3], rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("case", [c for c, _ in CASES])
def test_phiops_gives_paddles_result(case: str) -> None:
    call = dict(CASES)[case]
    theirs = _structure(call(paddle, paddle.to_tensor))
    ours = _structure(call(phiops, phiops.to_tensor))
    _same(ours, theirs, values=case not in RANDOM)


def test_every_paddle_function_has_a_case() -> None:
    names = (set(python_api.__all__) | set(_paddle_api.__all__)) - {"TopKRetType"}
    covered = {case.split("-")[0] for case, _ in CASES}
    assert names - covered == set()


# In-place functions on a non-leaf: the gradient flows through the rebased graph as in PaddlePaddle.
IN_PLACE_GRADIENTS: list[tuple[str, Callable[[Any, Any, Any], Any]]] = [
    ("add_", lambda p, y, z: y.add_(z, alpha=2)),
    ("subtract_", lambda p, y, z: p.subtract_(y, z, alpha=3)),
    ("cumsum_", lambda p, y, z: p.cumsum_(y * z)),
    ("tril_", lambda p, y, z: p.tril_(y * z)),
    ("flatten_", lambda p, y, z: p.flatten_(y * z)),
    ("pow_", lambda p, y, z: (y * z).pow_(2)),
    ("where_", lambda p, y, z: p.where_(p.to_tensor(M > 1), y, z)),
    ("divide_", lambda p, y, z: p.divide_(y, z + 1)),
]


def _in_place_gradients(p: Any, call: Callable[[Any, Any, Any], Any]) -> list[np.ndarray]:
    x = p.to_tensor(M, stop_gradient=False)
    w = p.to_tensor(M[::-1].copy(), stop_gradient=False)
    out = call(p, x * 1.0, w)
    p.sum(out * out).backward()
    return [x.grad.numpy(), w.grad.numpy()]


@pytest.mark.parametrize("case", [case for case, _ in IN_PLACE_GRADIENTS])
def test_in_place_function_gives_paddles_gradients(case: str) -> None:
    call = dict(IN_PLACE_GRADIENTS)[case]
    for ours, theirs in zip(_in_place_gradients(phiops, call), _in_place_gradients(paddle, call)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-5)


# the default dtype of issue 25 (defdtype), set and restored within the case
def _with_default_dtype(p: Any, dtype: str, make: Callable[[], Any]) -> Any:
    before = p.get_default_dtype()
    p.set_default_dtype(dtype)
    try:
        return make()
    finally:
        p.set_default_dtype(before)


CASES += [
    (
        "set_default_dtype",
        lambda p, t: _with_default_dtype(p, "float64", lambda: p.to_tensor([1.5, 2.0])),
    ),
    (
        "get_default_dtype",
        lambda p, t: _with_default_dtype(
            p, "float16", lambda: t(np.array([p.get_default_dtype() == "float16"]))
        ),
    ),
]
