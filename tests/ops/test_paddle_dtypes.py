"""Every issue-8 kernel is registered on CPU for exactly the dtypes PaddlePaddle 3.3.1's CPU
build registers (tests/data/paddle_cpu_kernel_dtypes.json, written from PaddlePaddle's kernel
factory by tests/tools/make_paddle_kernel_dtypes.py), less the float8 dtypes numpy cannot hold, and
less the gaps listed here with their reason. A gap that gets closed fails the test until it
is taken off the list, so the list stays true."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from phiops import generated  # noqa: F401  (registers every kernel)
from phiops.runtime.common import Backend
from phiops.runtime.kernels.kernel_factory import KERNEL_FACTORY

TABLE = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "paddle_cpu_kernel_dtypes.json").read_text()
)

# numpy has no float8 types (bfloat16 comes from ml_dtypes)
NUMPY_LACKS = {"float8_e4m3fn", "float8_e5m2"}

ISSUE_8_OPS = """
conv2d depthwise_conv2d conv3d pool2d max_pool2d_with_index pool3d batch_norm layer_norm
group_norm instance_norm relu relu6 hardswish hardsigmoid swish elu selu softplus softsign mish
hardtanh logsigmoid prelu erf logsumexp embedding gather gather_nd index_select scatter
scatter_nd_add take_along_axis put_along_axis one_hot topk argsort masked_select nonzero unique
slice strided_slice split_with_num add_n tile flip roll pad pad3d tril triu cumsum cumprod arange
linspace eye full_int_array meshgrid diag nearest_interp bilinear_interp uniform gaussian
bernoulli randint randperm dropout all any isnan isinf isfinite bitwise_and bitwise_or
bitwise_xor bitwise_not allclose isclose set_value set_value_with_tensor index_put
""".split()

# kernel -> (dtypes PaddlePaddle registers that phiops does not, the reverse, why)
KNOWN_GAPS: dict[str, tuple[set[str], set[str], str]] = {}


def _kernels() -> list[str]:
    names = []
    for op in ISSUE_8_OPS:
        for name in (op, f"{op}_grad"):
            if KERNEL_FACTORY.has_kernel(name) and name in TABLE:
                names.append(name)
    return names


@pytest.mark.parametrize("name", _kernels())
def test_cpu_dtypes_are_paddles(name: str) -> None:
    ours = {
        key.dtype.name.lower()
        for key in KERNEL_FACTORY.kernels_of(name)
        if key.backend is Backend.CPU
    }
    theirs = set(TABLE[name]) - NUMPY_LACKS
    missing, extra, _ = KNOWN_GAPS.get(name, (set(), set(), ""))
    assert (theirs - ours, ours - theirs) == (missing, extra)


def test_every_issue_8_op_has_a_kernel_paddle_registers() -> None:
    """The comparison above covers each op: none drops out because of a name mismatch."""
    covered = {name.removesuffix("_grad") for name in _kernels()}
    assert covered == set(ISSUE_8_OPS)
