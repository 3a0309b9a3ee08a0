"""Kernels of the loss24b ops of issue 24 (PaddlePaddle's sampling and structured losses), for the
dtypes PaddlePaddle 3.3.1 registers on CPU.

hsigmoid_loss (paddle/phi/kernels/cpu/hsigmoid_loss_kernel.cc, funcs/matrix_bit_code.*): the
hierarchical sigmoid over a binary tree of ``w``'s rows. Sample i walks a path of tree nodes
index(i, j) with branch bits bit(i, j), for j below its path length. The default tree encodes
class c as c + num_classes: index(i, j) = (c >> (j + 1)) - 1, bit(i, j) = (c >> j) & 1, the path
as long as the bits under the leading one. A custom tree reads index and bit from ``path`` and
``code``, the path ending at the first negative node. pre(i, j) = bias[index] + x[i] . w[index]
on the path (0 off it), clipped to [-40, 40]; out[i] = sum_j log(1 + exp(pre(i, j))) - sum over
the path's set bits of pre(i, j). The sum runs over every column, so each column past a short
path adds log 2, as PHI's kernel does (its TODO says so). pre_out keeps log(1 + exp(pre)).

class_center_sample (paddle/phi/kernels/cpu/class_center_sample_kernel.cc): the distinct labels
in ascending order are the positive centers; negative centers are then drawn one at a time
from std::uniform_int_distribution(0, num_classes - 1) over a std::mt19937_64
(runtime/kernels/mt19937.py's randint, libstdc++'s nearly divisionless method), a draw kept
when it is not a center yet, until num_samples centers. The engine is PaddlePaddle's: a new one
seeded with ``seed`` (``engine.seed(seed)``) for fix_seed and a nonzero seed, the process engine
(``paddle.seed``) for fix_seed and seed 0, and without fix_seed a new one seeded from the OS as
PaddlePaddle's std::random_device. Labels outside [0, num_classes) are an InvalidArgumentError
(3.3.1 takes them as centers).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from phiops.runtime.backends import to_numpy
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels import mt19937
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel
from phiops.runtime.random import engine_for, engine_state

D = DataType
FLOATS = (D.FLOAT32, D.FLOAT64)


def hsigmoid_paths(
    xp: Any, label: Array, path: Array | None, code: Array | None, num_classes: int, nodes: int
) -> tuple[Array, Array, Array]:
    """(node index [N, L] with 0 off the path, on-path mask [N, L], branch bit [N, L]) of PHI's
    SimpleCode (default tree) or CustomCode (``path``/``code``); labels and nodes outside the
    tree are InvalidArgumentErrors (PHI reads outside ``w`` there)."""
    if path is None or code is None:
        classes = label.reshape(-1).astype(xp.int64)
        if classes.size and (int(classes.min()) < 0 or int(classes.max()) >= num_classes):
            raise InvalidArgumentError(
                f"argument 'label' must hold classes in [0, {num_classes}) (num_classes), got "
                f"values in [{int(classes.min())}, {int(classes.max())}]"
            )
        width = (num_classes - 1).bit_length()
        encoded = (classes + num_classes)[:, None]
        shifts = xp.arange(width, dtype=xp.int64)[None, :]
        index = (encoded >> (shifts + 1)) - 1
        on_path = index >= 0
        bit = ((encoded >> shifts) & 1) != 0
    else:
        on_path = xp.cumsum(path < 0, axis=1) == 0
        index = path
        bit = code != 0
    index = xp.where(on_path, index, 0)
    if index.size and int(index.max()) >= nodes:
        raise InvalidArgumentError(
            f"the tree's nodes must be rows of 'w' (in [0, {nodes})), got node {int(index.max())}"
        )
    return index, on_path, bit


def keep_dtypes(inputs: tuple[int, ...], float32_outputs: tuple[int, ...] = ()) -> Any:
    """A registration body leaving the integer ``inputs`` (labels, paths) in their own dtypes
    and giving ``float32_outputs`` float32, as PHI's kernels read and write them."""

    def configure(kernel: Any) -> None:
        for index in inputs:
            kernel.input_at(index).set_dtype(DataType.ALL_DTYPE)
        for index in float32_outputs:
            kernel.output_at(index).set_dtype(DataType.FLOAT32)

    return configure


@register_kernel("hsigmoid_loss", dtypes=FLOATS, configure=keep_dtypes((1, 4, 5), (2,)))
def hsigmoid_loss_kernel(
    ctx: KernelContext,
    x: Array,
    label: Array,
    w: Array,
    bias: Array | None,
    path: Array | None,
    code: Array | None,
    num_classes: int,
    is_sparse: bool,
) -> tuple[Array, Array, Array]:
    xp = ctx.xp
    dtype = x.dtype
    index, on_path, bit = hsigmoid_paths(xp, label, path, code, num_classes, w.shape[0])
    pre = xp.einsum("nd,nld->nl", x, w[index])
    if bias is not None:
        pre = bias.reshape(-1)[index] + pre
    pre = xp.clip(xp.where(on_path, pre, dtype.type(0)), dtype.type(-40), dtype.type(40))
    taken = xp.where(on_path & bit, pre, dtype.type(0)).sum(axis=1)
    pre_out = xp.log(dtype.type(1) + xp.exp(pre))
    out = (pre_out.sum(axis=1) - taken).reshape(-1, 1)
    return out.astype(dtype), pre_out.astype(dtype), xp.zeros((0,), np.float32)


def draw_negative_centers(state: np.ndarray, centers: list[int], num_classes: int, wanted: int) -> None:
    """Append to ``centers`` the classes drawn from ``state`` until it holds ``wanted`` distinct
    ones, as PHI's loop draws them; ``state`` is left exactly as many draws on as the loop took
    (draws are made in batches on a copy, then the engine advanced by the number used)."""
    taken = set(centers)
    while len(centers) < wanted:
        batch = 2 * (wanted - len(centers)) + 8
        draws = mt19937.randint(state.copy(), batch, 0, num_classes)
        used = 0
        for value in draws.tolist():
            used += 1
            if value not in taken:
                taken.add(value)
                centers.append(value)
                if len(centers) == wanted:
                    break
        mt19937.randint(state, used, 0, num_classes)


@register_kernel("class_center_sample", dtypes=(D.INT32, D.INT64))
def class_center_sample_kernel(
    ctx: KernelContext,
    label: Array,
    num_classes: int,
    num_samples: int,
    ring_id: int,
    rank: int,
    nranks: int,
    fix_seed: bool,
    seed: int,
) -> tuple[Array, Array]:
    xp = ctx.xp
    host = to_numpy(label).reshape(-1)
    if host.size and (int(host.min()) < 0 or int(host.max()) >= num_classes):
        raise InvalidArgumentError(
            f"argument 'label' must hold classes in [0, {num_classes}) (num_classes), got values "
            f"in [{int(host.min())}, {int(host.max())}]"
        )
    positive = np.unique(host)
    if fix_seed:
        state = engine_for(ctx.place, seed)
    else:
        state = engine_state(int.from_bytes(os.urandom(4), "little") or 1, sequence=False)
    centers = positive.tolist()
    draw_negative_centers(state, centers, num_classes, num_samples)
    remapped = np.searchsorted(positive, host).astype(host.dtype).reshape(label.shape)
    return xp.asarray(remapped), xp.asarray(np.asarray(centers, dtype=host.dtype))
