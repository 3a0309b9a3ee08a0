"""PaddlePaddle 3.3.1's op lists for automatic mixed precision (python/paddle/amp/amp_lists.py).

White-listed ops run in the low-precision dtype, black-listed ones in float32; the rest (gray)
follow their inputs. The names are PaddlePaddle's, legacy ones included ("matmul_v2",
"reduce_sum"): they are matched against phiops's op names as they are, as PaddlePaddle's eager
mode matches them against its PHI op names, so a legacy name in a list changes nothing.
"""

from __future__ import annotations

__all__ = ["black_list", "white_list", "LEVELS", "AMP_DTYPES"]

LEVELS = ("O0", "OD", "O1", "O2")
AMP_DTYPES = ("float16", "bfloat16")

WHITE_LIST = frozenset(
    {
        "conv2d",
        "einsum",
        "matmul",
        "matmul_v2",
        "linear_v2",
        "max_pool2d_with_index",
        "mul",
        "fused_gemm_epilogue",
        "fused_rotary_position_embedding",
        "flash_attn",
    }
)

ONLY_FP16_WHITE_LIST = frozenset(
    {
        "fake_quantize_dequantize_abs_max",
        "fake_quantize_dequantize_moving_average_abs_max",
        "fused_attention",
        "fused_feedforward",
    }
)

FP16_WHITE_LIST = WHITE_LIST | ONLY_FP16_WHITE_LIST

FP16_BLACK_LIST = frozenset(
    {
        "tan", "acos", "asin", "sinh", "cosh", "atanh", "tanh_shrink", "erfinv", "exp", "expm1",
        "log", "log10", "log2", "reciprocal", "rsqrt", "pow", "square", "reduce_sum", "mean",
        "reduce_mean", "reduce_prod", "cumprod", "cumsum", "dist", "pnorm", "frobenius_norm",
        "renorm", "group_norm", "layer_norm", "softmax", "softmin", "softplus", "log_softmax",
        "softmax_with_cross_entropy", "sigmoid_cross_entropy_with_logits",
        "c_softmax_with_cross_entropy", "c_softmax_with_multi_label_cross_entropy",
        "cross_entropy", "cross_entropy2", "nll_loss", "huber_loss", "triplet_margin_loss",
        "log_loss", "hsigmoid_loss", "margin_cross_entropy",
    }
)  # fmt: skip

EXTRA_BLACK_LIST = frozenset(
    {
        "linear_interp_v2",
        "nearest_interp_v2",
        "bilinear_interp_v2",
        "bicubic_interp_v2",
        "trilinear_interp_v2",
        "lookup_table",
        "lookup_table_v2",
        "scatter",
    }
)

BF16_WHITE_LIST = WHITE_LIST
BF16_BLACK_LIST = FP16_BLACK_LIST


def white_list() -> dict[str, dict[str, set[str]]]:
    """PaddlePaddle's ``paddle.amp.white_list()``: per dtype and level, the ops run in low
    precision."""
    return {
        "float16": {level: set(FP16_WHITE_LIST) for level in ("OD", "O1", "O2")},
        "bfloat16": {level: set(BF16_WHITE_LIST) for level in ("OD", "O1", "O2")},
    }


def black_list() -> dict[str, dict[str, set[str]]]:
    """PaddlePaddle's ``paddle.amp.black_list()``: per dtype and level, the ops kept in
    float32."""
    return {
        "float16": {
            "OD": set(),
            "O1": set(FP16_BLACK_LIST | EXTRA_BLACK_LIST),
            "O2": set(EXTRA_BLACK_LIST),
        },
        "bfloat16": {
            "OD": set(),
            "O1": set(BF16_BLACK_LIST | EXTRA_BLACK_LIST),
            "O2": set(EXTRA_BLACK_LIST),
        },
    }
