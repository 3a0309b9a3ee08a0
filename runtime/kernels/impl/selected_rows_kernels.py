"""SelectedRows kernels (PHI's ``paddle/phi/kernels/selected_rows/``): the weight gradient of
``embedding(sparse=True)`` and the optimizer updates that take one.

Each is registered under PHI's name with the SelectedRows kind in its key (the ``SelectedRows``
annotation, runtime/kernels/kernel.py) as the variant of its op's dense kernel
(``variant_of``); dispatch selects it when the call's gradient is a SelectedRows (or, for
``embedding_grad``, when ``sparse`` is true). The updates cost O(touched rows) where PHI's do (SGD, Adagrad,
lazy Adam/AdamW): they write the touched rows of the parameter and state in place and return
those very arrays, which the in-place op then has nothing to copy from. Non-lazy Adam/AdamW and
Momentum update every row, as PHI's do (a row without gradient still has its moments decay),
by running the dense kernel on the merged gradient made dense.

PHI's CPU Adam kernel for a SelectedRows gradient advances the beta powers before it updates,
and the in-place op's beta power outputs are its inputs: the update reads the advanced powers
(``beta1_pow * beta1``), one step ahead of the dense kernel's. PaddlePaddle 3.3.1 trains with
that, so these kernels do the same (tests/kinds/test_selected_rows_training.py).
"""

from __future__ import annotations

from types import ModuleType

from phiops.runtime.backends import scatter_at
from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.adam_kernel import ADAM_DTYPES, adam_kernel
from phiops.runtime.kernels.impl.adam_kernel import _keep_state_dtypes as _adam_state_dtypes
from phiops.runtime.kernels.impl.adamw_kernel import _keep_state_dtypes as _adamw_state_dtypes
from phiops.runtime.kernels.impl.index_grad_kernel import _any_dtype
from phiops.runtime.kernels.impl.momentum_kernel import (
    MOMENTUM_DTYPES,
    _keep_learning_rate_dtype,
    momentum_kernel,
)
from phiops.runtime.kernels.impl.optimizer2_kernel import OPTIMIZER2_DTYPES, _keep_dtypes
from phiops.runtime.kernels.impl.optimizer_functors import (
    AdamScalars,
    adam_step_,
    decay_factor,
    decay_step_,
    first_element,
)
from phiops.runtime.kernels.impl.sgd_kernel import SGD_DTYPES, _learning_rate_in_float64
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel
from phiops.runtime.tensor.dense_tensor import DenseTensor
from phiops.runtime.tensor.selected_rows import SelectedRows, merge_rows

__all__ = [
    "embedding_sparse_grad_kernel",
    "sgd_dense_param_sparse_grad_kernel",
    "adam_dense_param_sparse_grad_kernel",
    "adamw_dense_param_sparse_grad_kernel",
    "momentum_dense_param_sparse_grad_kernel",
    "adagrad_dense_param_sparse_grad_kernel",
    "merge_selected_rows_kernel",
    "merged",
    "densified",
]


D = DataType
# PaddlePaddle 3.3.1's CPU registration of embedding_sparse_grad (no float16, unlike the dense one)
EMBEDDING_SPARSE_GRAD_DTYPES = (D.BFLOAT16, D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)


def merged(grad: SelectedRows) -> tuple[Array, Array]:
    """(rows, values) of ``grad`` with each row once, sorted (PHI's ``MergeAdd``)."""
    return merge_rows(grad.rows, grad.value.array)


def densified(xp: ModuleType, grad: SelectedRows, dtype: object) -> Array:
    """The ``[height, ...]`` dense array ``grad`` stands for (repeated rows added)."""
    values = grad.value.array
    dense = xp.zeros((grad.height,) + tuple(values.shape[1:]), dtype=dtype)
    if values.shape[0]:
        scatter_at("add", dense, grad.rows, values.astype(dtype, copy=False))
    return dense


@register_kernel(
    "embedding_sparse_grad",
    dtypes=EMBEDDING_SPARSE_GRAD_DTYPES,
    configure=_any_dtype(0, 1),
    variant_of="embedding_grad",
)
def embedding_sparse_grad_kernel(
    ctx: KernelContext, x: Array, weight: Array, out_grad: Array, padding_idx: int
) -> SelectedRows:
    """PHI's ``embedding_sparse_grad``: rows are the ids as they come (repeats kept, in
    order), the value is ``out_grad`` as ``[ids, width]``, the height the table's row count.
    As PHI's, ``padding_idx`` leaves its rows in (PaddlePaddle 3.3.1's SelectedRows gradient
    has them; only the dense gradient zeroes them)."""
    height, width = weight.shape
    rows = x.reshape(-1).astype("int64", copy=False)
    value = out_grad.reshape(-1, width)
    return SelectedRows(rows, height, DenseTensor(value), check=False)


@register_kernel(
    "sgd_dense_param_sparse_grad",
    dtypes=SGD_DTYPES,
    configure=_learning_rate_in_float64,
    variant_of="sgd",
)
def sgd_dense_param_sparse_grad_kernel(
    ctx: KernelContext,
    param: Array,
    learning_rate: Array,
    grad: SelectedRows,
    master_param: Array | None,
    multi_precision: bool,
) -> tuple[Array, Array]:
    """PHI's ``sgd_dense_param_sparse_grad``: ``param[row] -= learning_rate * value`` for each
    row of ``grad`` (a repeated row takes each of its updates), in place."""
    values = grad.value.array
    if values.shape[0]:
        rate = first_element(learning_rate, param.dtype)
        step = values.astype(param.dtype, copy=False) * -rate
        scatter_at("add", param, grad.rows, step)
    return param, None


def _lazy_adam_(
    xp: ModuleType,
    param: Array,
    rows: Array,
    grad: Array,
    moment1: Array,
    moment2: Array,
    moment2_max: Array | None,
    scalars: AdamScalars,
) -> None:
    """Adam on the rows ``rows`` (each once) of ``param`` and its moments, in place."""
    p, m1, m2 = param[rows], moment1[rows], moment2[rows]
    g = grad.astype(param.dtype, copy=False)
    if moment2_max is None:
        adam_step_(xp, p, g, m1, m2, scalars, None)
    else:
        m1 = m1 * scalars.beta1 + g * scalars.grad_weight1
        m2 = m2 * scalars.beta2 + g * g * scalars.grad_weight2
        m2_max = xp.maximum(moment2_max[rows], m2)
        p = p - scalars.step * (m1 / (xp.sqrt(m2_max) + scalars.epsilon))
        moment2_max[rows] = m2_max
    param[rows], moment1[rows], moment2[rows] = p, m1, m2


def _advanced_powers(
    xp: ModuleType,
    beta1_pow: Array,
    beta2_pow: Array,
    beta1: float,
    beta2: float,
    use_global_beta_pow: bool,
) -> tuple[Array, Array]:
    """The beta powers PHI's SelectedRows Adam updates with and returns: advanced one step
    first (unless ``use_global_beta_pow``), see the module docstring."""
    if use_global_beta_pow:
        return beta1_pow, beta2_pow
    return (
        (beta1_pow * xp.asarray(beta1, dtype=beta1_pow.dtype)).astype(beta1_pow.dtype, copy=False),
        (beta2_pow * xp.asarray(beta2, dtype=beta2_pow.dtype)).astype(beta2_pow.dtype, copy=False),
    )


def _sparse_adam(
    ctx: KernelContext,
    param: Array,
    grad: SelectedRows,
    learning_rate: Array,
    moment1: Array,
    moment2: Array,
    moment2_max: Array | None,
    beta1_pow: Array,
    beta2_pow: Array,
    beta1: float,
    beta2: float,
    epsilon: float,
    use_global_beta_pow: bool,
    amsgrad: bool,
) -> tuple[Array, Array, Array, Array | None, Array, Array, None]:
    """The lazy update of PHI's AdamDenseParamSparseGradKernel: only the merged gradient's
    rows of the parameter and moments change; the beta powers advance."""
    xp = ctx.xp
    if grad.value.array.shape[0] == 0:  # PHI returns before touching anything
        return param, moment1, moment2, moment2_max if amsgrad else None, beta1_pow, beta2_pow, None
    beta1_pow_out, beta2_pow_out = _advanced_powers(
        xp, beta1_pow, beta2_pow, beta1, beta2, use_global_beta_pow
    )
    rows, values = merged(grad)
    scalars = AdamScalars(
        xp, param.dtype, learning_rate, beta1_pow_out, beta2_pow_out, beta1, beta2, epsilon
    )
    _lazy_adam_(
        xp, param, rows, values, moment1, moment2, moment2_max if amsgrad else None, scalars
    )
    return (
        param,
        moment1,
        moment2,
        moment2_max if amsgrad else None,
        beta1_pow_out,
        beta2_pow_out,
        None,
    )


@register_kernel(
    "adam_dense_param_sparse_grad",
    dtypes=ADAM_DTYPES,
    configure=_adam_state_dtypes,
    variant_of="adam",
)
def adam_dense_param_sparse_grad_kernel(
    ctx: KernelContext,
    param: Array,
    grad: SelectedRows,
    learning_rate: Array,
    moment1: Array,
    moment2: Array,
    moment2_max: Array | None,
    beta1_pow: Array,
    beta2_pow: Array,
    master_param: Array | None,
    skip_update: Array | None,
    beta1: bool | int | float,
    beta2: bool | int | float,
    epsilon: bool | int | float,
    lazy_mode: bool,
    min_row_size_to_use_multithread: int,
    multi_precision: bool,
    use_global_beta_pow: bool,
    amsgrad: bool,
) -> tuple[Array, Array, Array, Array, Array, Array, Array]:
    """PHI's ``adam_dense_param_sparse_grad``: the gradient's rows merged; with ``lazy_mode``
    only those rows are updated, else every row (a row without gradient takes a zero gradient:
    its moments decay and it still moves), as the dense kernel on the merged gradient made
    dense. ``master_param`` is not used (PHI's kernel marks it UNUSED)."""
    skip = skip_update is not None and bool(skip_update.reshape(-1)[0])
    if lazy_mode and not skip:
        return _sparse_adam(
            ctx, param, grad, learning_rate, moment1, moment2, moment2_max, beta1_pow,
            beta2_pow, beta1, beta2, epsilon, use_global_beta_pow, amsgrad,
        )  # fmt: skip
    return _dense_adam(
        ctx, param, grad, learning_rate, moment1, moment2, moment2_max, beta1_pow, beta2_pow,
        skip_update, beta1, beta2, epsilon, min_row_size_to_use_multithread,
        use_global_beta_pow, amsgrad,
    )  # fmt: skip


def _dense_adam(
    ctx: KernelContext,
    param: Array,
    grad: SelectedRows,
    learning_rate: Array,
    moment1: Array,
    moment2: Array,
    moment2_max: Array | None,
    beta1_pow: Array,
    beta2_pow: Array,
    skip_update: Array | None,
    beta1: float,
    beta2: float,
    epsilon: float,
    min_row_size_to_use_multithread: int,
    use_global_beta_pow: bool,
    amsgrad: bool,
) -> tuple[Array, Array, Array, Array | None, Array, Array, None]:
    """The non-lazy update (every row; or a skipped one): the dense kernel on the merged
    gradient made dense, with the advanced beta powers of PHI's SelectedRows kernel."""
    skip = skip_update is not None and bool(skip_update.reshape(-1)[0])
    if skip or grad.value.array.shape[0] == 0:  # PHI returns before touching anything
        return param, moment1, moment2, moment2_max if amsgrad else None, beta1_pow, beta2_pow, None
    xp = ctx.xp
    pow1, pow2 = _advanced_powers(xp, beta1_pow, beta2_pow, beta1, beta2, use_global_beta_pow)
    dense = densified(xp, grad, param.dtype)
    param_out, m1, m2, m2_max, _, _, _ = adam_kernel(
        ctx, param, dense, learning_rate, moment1, moment2, moment2_max, pow1, pow2,
        None, None, beta1, beta2, epsilon, False, min_row_size_to_use_multithread,
        False, True, amsgrad,
    )  # fmt: skip
    return param_out, m1, m2, m2_max, pow1, pow2, None


@register_kernel(
    "adamw_dense_param_sparse_grad",
    dtypes=ADAM_DTYPES,
    configure=_adamw_state_dtypes,
    variant_of="adamw",
)
def adamw_dense_param_sparse_grad_kernel(
    ctx: KernelContext,
    param: Array,
    grad: SelectedRows,
    learning_rate: Array,
    moment1: Array,
    moment2: Array,
    moment2_max: Array | None,
    beta1_pow: Array,
    beta2_pow: Array,
    master_param: Array | None,
    skip_update: Array | None,
    beta1: bool | int | float,
    beta2: bool | int | float,
    epsilon: bool | int | float,
    lr_ratio: float,
    coeff: float,
    with_decay: bool,
    lazy_mode: bool,
    min_row_size_to_use_multithread: int,
    multi_precision: bool,
    use_global_beta_pow: bool,
    amsgrad: bool,
) -> tuple[Array, Array, Array, Array, Array, Array, Array]:
    """PHI's ``adamw_dense_param_sparse_grad``: with ``with_decay`` (and no skip) every row of
    the parameter decays first, ``param -= learning_rate * lr_ratio * coeff * param`` (even
    in lazy mode, as PHI's), then the Adam update of ``adam_dense_param_sparse_grad``."""
    xp = ctx.xp
    skip = skip_update is not None and bool(skip_update.reshape(-1)[0])
    if with_decay and not skip:
        factor = decay_factor(xp, learning_rate, lr_ratio, coeff, param.dtype)
        decay_step_(xp, param, factor, xp.empty_like(param))
    if lazy_mode and not skip:
        return _sparse_adam(
            ctx, param, grad, learning_rate, moment1, moment2, moment2_max, beta1_pow,
            beta2_pow, beta1, beta2, epsilon, use_global_beta_pow, amsgrad,
        )  # fmt: skip
    return _dense_adam(
        ctx, param, grad, learning_rate, moment1, moment2, moment2_max, beta1_pow, beta2_pow,
        skip_update, beta1, beta2, epsilon, min_row_size_to_use_multithread,
        use_global_beta_pow, amsgrad,
    )  # fmt: skip


@register_kernel(
    "momentum_dense_param_sparse_grad",
    dtypes=MOMENTUM_DTYPES,
    configure=_keep_learning_rate_dtype,
    variant_of="momentum",
)
def momentum_dense_param_sparse_grad_kernel(
    ctx: KernelContext,
    param: Array,
    grad: SelectedRows,
    velocity: Array,
    learning_rate: Array,
    master_param: Array | None,
    mu: float,
    use_nesterov: bool,
    regularization_method: str,
    regularization_coeff: float,
    multi_precision: bool,
    rescale_grad: float,
) -> tuple[Array, Array, Array]:
    """PHI's ``momentum_dense_param_sparse_grad``: every row is updated, a row without
    gradient with a zero one (its velocity decays, it keeps moving), so it is the dense
    kernel on the merged gradient made dense."""
    dense = densified(ctx.xp, grad, param.dtype)
    return momentum_kernel(
        ctx, param, dense, velocity, learning_rate, master_param, mu, use_nesterov,
        regularization_method, regularization_coeff, multi_precision, rescale_grad,
    )  # fmt: skip


@register_kernel(
    "adagrad_dense_param_sparse_grad",
    dtypes=OPTIMIZER2_DTYPES,
    configure=_keep_dtypes(2, 3),
    variant_of="adagrad",
)
def adagrad_dense_param_sparse_grad_kernel(
    ctx: KernelContext,
    param: Array,
    grad: SelectedRows,
    moment: Array,
    learning_rate: Array,
    master_param: Array | None,
    epsilon: float,
    multi_precision: bool,
) -> tuple[Array, Array, Array]:
    """PHI's ``adagrad_dense_param_sparse_grad``: the gradient's rows merged, then for those
    rows only ``moment += g * g`` and ``param -= learning_rate * g / (sqrt(moment) +
    epsilon)``, in place; other rows keep their values and moments."""
    xp = ctx.xp
    if grad.value.array.shape[0] == 0:
        return param, moment, None
    rows, values = merged(grad)
    dtype = param.dtype
    g = values.astype(dtype, copy=False)
    m = moment[rows].astype(dtype, copy=False) + g * g
    rate = first_element(learning_rate, dtype)
    eps = xp.asarray(DataType.FLOAT32.numpy_dtype.type(epsilon), dtype=dtype)
    param[rows] = param[rows] - rate * g / (xp.sqrt(m) + eps)
    moment[rows] = m.astype(moment.dtype, copy=False)
    return param, moment, None


# PaddlePaddle 3.3.1 registers get_tensor_from_selected_rows on CPU for these
@register_kernel(
    "get_tensor_from_selected_rows", dtypes=(D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)
)
def get_tensor_from_selected_rows_kernel(ctx: KernelContext, x: SelectedRows) -> Array:
    """PHI's ``get_tensor_from_selected_rows``: a copy of x's value, one row per entry of its
    rows (repeats kept, nothing merged or placed)."""
    return x.value.array.copy()


# PaddlePaddle 3.3.1 registers merge_selected_rows on CPU for float32 and float64
@register_kernel("merge_selected_rows", dtypes=(D.FLOAT32, D.FLOAT64))
def merge_selected_rows_kernel(ctx: KernelContext, x: SelectedRows) -> SelectedRows:
    """PHI's ``merge_selected_rows``: each row once, sorted, a repeated row's values added."""
    rows, values = merged(x)
    return SelectedRows(rows, x.height, DenseTensor(values), check=False)
