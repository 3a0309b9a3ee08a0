"""Every kernel phiops registers is registered on CPU for exactly the dtypes PaddlePaddle 3.3.1's
CPU build registers for the kernel of that name (runtime/kernels/paddle_3_3_1_cpu.json, recorded
from PaddlePaddle's kernel factory by tests/tools/make_paddle_coverage.py), less the float8 dtypes
numpy cannot hold, and less the gaps listed here with their reason. The kernels come from the
registry, so a new kernel is checked as soon as it is registered; a gap that gets closed fails
the test until it is taken off the list, so the list stays true."""

from __future__ import annotations

import pytest

from phiops import generated  # noqa: F401  (registers every kernel)
from phiops.runtime.common import Backend
from phiops.runtime.kernels.coverage import NUMPY_LACKS, paddle_data
from phiops.runtime.kernels.kernel_factory import KERNEL_FACTORY

TABLE = paddle_data()["kernels"]

# kernel -> (dtypes PaddlePaddle registers that phiops does not, the reverse, why)
_C = {"complex64", "complex128"}
_FLOAT16_GRAD = (
    "phiops also registers float16, so that its float16 forward kernel can be differentiated"
)
_WIDER_COLLECTIVES = "phiops's collective kernels take every dtype its MPI context carries"
KNOWN_GAPS: dict[str, tuple[set[str], set[str], str]] = {
    "exp_grad": (set(), {"float16"}, _FLOAT16_GRAD),
    "log_grad": (set(), {"float16"}, _FLOAT16_GRAD),
    # the collective kernels (runtime/comm) move every dtype the MPI context carries; PaddlePaddle
    # 3.3.1's CPU (Gloo) registrations are narrower
    **{
        name: (set(), extra, _WIDER_COLLECTIVES)
        for name, extra in {
            "all_gather": {"bfloat16"},
            "all_reduce": {"bfloat16"} | _C,
            "all_to_all": {"bfloat16"} | _C,
            "barrier": {
                "bfloat16",
                "bool",
                "float16",
                "float32",
                "float64",
                "int8",
                "int16",
                "int64",
                "uint8",
            }
            | _C,
            "broadcast": {"bfloat16"},
            "c_concat": {"bfloat16", "bool", "int8", "int16", "uint8"} | _C,
            "c_identity": {"bfloat16", "bool", "int8", "int16", "uint8"} | _C,
            "c_split": {"bfloat16", "bool", "int8", "int16", "uint8"} | _C,
            "reduce": {"bfloat16", "int16"} | _C,
            "reduce_scatter": {"bfloat16"} | _C,
        }.items()
    },
}

# kernels phiops registers that PaddlePaddle 3.3.1 has under no kernel of that name, and why
NOT_IN_PADDLE = {
    "add_n_grad": "PaddlePaddle differentiates add_n by a composite rule; phiops has a kernel",
    "exp_double_grad": "PaddlePaddle 3.3.1 registers exp_double_grad for GPU only",
    "fused_softmax_mask_upper_triangle_grad": "PaddlePaddle 3.3.1 registers it for GPU only (its "
    "CPU forward kernel raises); phiops computes the forward on CPU and differentiates it there",
    "correlation_grad": "PaddlePaddle 3.3.1 registers it for GPU only (its CPU forward kernel "
    "raises); phiops computes the forward on CPU and differentiates it there",
    **{
        name: "PaddlePaddle 3.3.1 registers the legacy c_* collectives for GPU (NCCL) only; "
        "phiops runs them on its MPI context too"
        for name in (
            "c_allgather",
            "c_allreduce_max",
            "c_allreduce_min",
            "c_allreduce_prod",
            "c_allreduce_sum",
            "c_broadcast",
        )
    },
    **{
        name: "PaddlePaddle 3.3.1 registers these sparse products for GPU only (cuSPARSE); phiops "
        "computes them on CPU too (runtime/kernels/impl/sparse_matmul_kernel.py)"
        for name in (
            "addmm_coo_coo",
            "addmm_coo_coo_grad",
            "addmm_csr_csr",
            "addmm_csr_csr_grad",
            "matmul_coo_coo",
            "matmul_coo_coo_grad",
            "matmul_coo_dense",
            "matmul_coo_dense_grad",
            "matmul_csr_csr",
            "matmul_csr_csr_grad",
        )
    },
}


def _kernels() -> list[str]:
    return sorted(name for name in KERNEL_FACTORY.kernels if name in TABLE)


def _ours(name: str) -> set[str]:
    return {
        "any" if key.dtype == 0 else key.dtype.name.lower()
        for key in KERNEL_FACTORY.kernels_of(name)
        if key.backend is Backend.CPU
    }


@pytest.mark.parametrize("name", _kernels())
def test_cpu_dtypes_are_paddles(name: str) -> None:
    ours = _ours(name)
    theirs = set(TABLE[name]) - NUMPY_LACKS
    if ours == {"any"}:  # a kernel for every dtype (reshape's): covers PaddlePaddle's
        return
    missing, extra, _ = KNOWN_GAPS.get(name, (set(), set(), ""))
    assert (theirs - ours, ours - theirs) == (missing, extra)


def test_every_kernel_is_one_paddle_registers() -> None:
    """No kernel escapes the comparison above because of a name PaddlePaddle does not use."""
    outside = sorted(name for name in KERNEL_FACTORY.kernels if name not in TABLE)
    assert outside == sorted(NOT_IN_PADDLE)


def test_known_gaps_name_registered_kernels() -> None:
    assert sorted(set(KNOWN_GAPS) - set(_kernels())) == []
