"""sgd and adam kernels (the ops sgd_ and adam_) and their InferMeta functions: the kernels are
called directly and compared with a hand-written numpy version of PaddlePaddle's formulas over
several steps."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.tensor.dense_tensor import DenseTensorMeta
from phiops.runtime.tensor.meta_tensor import MetaTensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.multiary import adam_infer_meta, sgd_infer_meta
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance
from tests.ops.test_elementwise_grad import grad_kernel

D = DataType
F32, F64 = D.FLOAT32, D.FLOAT64


def assert_close(actual, expected, dtype):
    assert actual.dtype == dtype.numpy_dtype
    assert np.shape(actual) == np.shape(expected)
    np.testing.assert_allclose(actual, expected, **tolerance(dtype))


# -- sgd -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", cpu_dtypes("sgd"))
@pytest.mark.parametrize("shape", [(3, 4), (), (0, 2)])
def test_sgd_steps_against_the_gradient(dtype, shape):
    param = sample(shape, dtype)
    grad = sample(shape, dtype, seed=1)
    param_out, master_out = grad_kernel("sgd", dtype)(param, np.array([0.1]), grad, None, False)
    assert_close(param_out, param.astype(np.float64) - 0.1 * grad, dtype)
    assert master_out is None


def test_sgd_does_not_modify_its_inputs():
    param, grad = np.ones(3), np.ones(3)
    grad_kernel("sgd", F64)(param, np.array([0.5]), grad, None, False)
    assert param.tolist() == [1.0, 1.0, 1.0]


def test_sgd_with_multi_precision_steps_the_master_copy():
    param = np.array([1.0, 2.0], np.float32)
    master = np.array([1.5, 2.5], np.float32)
    param_out, master_out = grad_kernel("sgd", F32)(
        param, np.array([0.5]), np.array([1.0, -1.0], np.float32), master, True
    )
    assert master_out.tolist() == [1.0, 3.0]
    assert param_out.tolist() == [1.0, 3.0] and not np.shares_memory(param_out, master_out)
    # Without multi_precision the master copy is ignored, as on PaddlePaddle's CPU.
    param_out, master_out = grad_kernel("sgd", F32)(
        param, np.array([0.5]), np.array([1.0, -1.0], np.float32), master, False
    )
    assert param_out.tolist() == [0.5, 2.5] and master_out is None


# -- adam ----------------------------------------------------------------------------------------


def reference_adam(param, grad, lr, m1, m2, b1_pow, b2_pow, beta1, beta2, epsilon):
    """One step of paddle/phi/kernels/funcs/adam_functors.h, in float64."""
    m1 = beta1 * m1 + (1 - beta1) * grad
    m2 = beta2 * m2 + (1 - beta2) * grad * grad
    b1, b2 = b1_pow.reshape(-1)[0], b2_pow.reshape(-1)[0]
    lr_t = lr * np.sqrt(1 - b2) / (1 - b1)
    param = param - lr_t * (m1 / (np.sqrt(m2) + epsilon * np.sqrt(1 - b2)))
    return param, m1, m2, b1_pow * beta1, b2_pow * beta2


def adam(
    dtype,
    param,
    grad,
    lr,
    m1,
    m2,
    b1_pow,
    b2_pow,
    master=None,
    skip=None,
    *,
    beta1=0.9,
    beta2=0.999,
    epsilon=1e-8,
    multi_precision=False,
    use_global_beta_pow=False,
):
    kernel = grad_kernel("adam", dtype)
    outputs = kernel(
        param,
        grad,
        lr,
        m1,
        m2,
        None,
        b1_pow,
        b2_pow,
        master,
        skip,
        beta1,
        beta2,
        epsilon,
        False,
        1000,
        multi_precision,
        use_global_beta_pow,
        False,
    )
    # without amsgrad there is no moment2_max_out; the other outputs, in order
    assert outputs[3] is None
    return outputs[:3] + outputs[4:]


@pytest.mark.parametrize("dtype", cpu_dtypes("adam"))
@pytest.mark.parametrize("shape", [(3, 4), ()])
def test_adam_follows_paddle_formula_over_several_steps(dtype, shape):
    nd = dtype.numpy_dtype
    beta1, beta2, epsilon, lr = 0.8, 0.95, 1e-3, 0.05
    state = [
        sample(shape, dtype),
        np.zeros(shape, nd),
        np.zeros(shape, nd),
        np.array([beta1], nd),
        np.array([beta2], nd),
    ]
    expected = [a.astype(np.float64) for a in state]
    for step in range(4):
        grad = sample(shape, dtype, seed=step + 1)
        param, m1, m2, b1_pow, b2_pow = state
        *state, master_out = adam(
            dtype,
            param,
            grad,
            np.array([lr], nd),
            m1,
            m2,
            b1_pow,
            b2_pow,
            beta1=beta1,
            beta2=beta2,
            epsilon=epsilon,
        )
        assert master_out is None
        expected = list(reference_adam(expected[0], grad, lr, *expected[1:], beta1, beta2, epsilon))
        for actual, want in zip(state, expected):
            assert_close(np.asarray(actual), want, dtype)
    assert state[3][0] == pytest.approx(beta1**5) and state[4][0] == pytest.approx(beta2**5)


def adam_inputs(dtype=F64, shape=(2, 3)):
    nd = dtype.numpy_dtype
    return [
        sample(shape, dtype),
        sample(shape, dtype, seed=1),
        np.array([0.01], nd),
        sample(shape, dtype, seed=2),
        sample(shape, dtype, seed=3, low=0.1, high=1.0),
        np.array([0.9**3], nd),
        np.array([0.999**3], nd),
    ]


def test_adam_with_global_beta_pow_leaves_the_powers_unchanged():
    inputs = adam_inputs()
    outputs = adam(F64, *inputs, use_global_beta_pow=True)
    assert outputs[3].tolist() == inputs[5].tolist() and outputs[4].tolist() == inputs[6].tolist()
    expected = reference_adam(inputs[0], inputs[1], 0.01, *inputs[3:], 0.9, 0.999, 1e-8)
    np.testing.assert_allclose(outputs[0], expected[0], rtol=1e-12)


def test_adam_skip_update_returns_every_input_unchanged():
    inputs = adam_inputs()
    outputs = adam(F64, *inputs, skip=np.array([True]))
    for output, original in zip(outputs[:5], [inputs[0]] + inputs[3:]):
        np.testing.assert_array_equal(output, original)
        assert not np.shares_memory(output, original)
    assert outputs[5] is None
    stepped = adam(F64, *inputs, skip=np.array([False]))
    assert not np.array_equal(stepped[0], inputs[0])


def test_adam_with_multi_precision_steps_the_master_copy():
    inputs = adam_inputs(F32)
    master = inputs[0] + np.float32(0.25)
    outputs = adam(F32, *inputs, master, multi_precision=True)
    expected = reference_adam(
        master.astype(np.float64), inputs[1], 0.01, *inputs[3:], 0.9, 0.999, 1e-8
    )
    assert_close(outputs[5], expected[0], F32)
    assert_close(outputs[0], expected[0], F32)
    assert adam(F32, *inputs, master, multi_precision=False)[5] is None


def test_adam_outputs_keep_their_inputs_dtypes():
    inputs = adam_inputs(F64)
    for index in (3, 4, 5, 6):
        inputs[index] = inputs[index].astype(np.float32)
    outputs = adam(F64, *inputs)
    assert [o.dtype for o in outputs[:5]] == [np.float64] + [np.float32] * 4


def test_adam_of_an_empty_parameter_only_advances_the_powers():
    empty = np.zeros((0, 3))
    outputs = adam(
        F64, empty, empty, np.array([0.1]), empty, empty, np.array([0.9]), np.array([0.999])
    )
    assert [o.shape for o in outputs[:3]] == [(0, 3)] * 3
    assert outputs[3].tolist() == [pytest.approx(0.81)]


# -- InferMeta -----------------------------------------------------------------------------------


def meta(dims, dtype=F32):
    return MetaTensor(DenseTensorMeta.get(dtype, tuple(dims)), "t")


def infer_sgd(lr_dims=(1,), grad_dims=(2, 3), master=None, multi_precision=False):
    param_out, master_out = MetaTensor(), MetaTensor()
    sgd_infer_meta(
        meta((2, 3)),
        meta(lr_dims, F64),
        meta(grad_dims),
        master,
        multi_precision,
        param_out,
        master_out,
    )
    return param_out, master_out


def test_sgd_infer_meta_gives_param_out_like_param_and_no_master_without_one():
    param_out, master_out = infer_sgd()
    assert (param_out.dims, param_out.dtype) == ((2, 3), F32)
    assert not master_out.is_initialized
    _, master_out = infer_sgd(master=meta((2, 3)), multi_precision=True)
    assert (master_out.dims, master_out.dtype) == ((2, 3), F32)


@pytest.mark.parametrize(
    "options, message",
    [
        (
            {"lr_dims": (2,)},
            r"argument 'learning_rate' must hold exactly one element, got dims \[2\] \(2 elements\)",
        ),
        ({"lr_dims": (0,)}, r"argument 'learning_rate' must hold exactly one element"),
        (
            {"grad_dims": (3, 2)},
            r"argument 'grad' with dims \[3, 2\] must have the dims of argument 'param' \[2, 3\]",
        ),
        ({"master": meta((6,))}, r"argument 'master_param' with dims \[6\]"),
    ],
)
def test_sgd_infer_meta_rejects_bad_inputs(options, message):
    with pytest.raises(InvalidArgumentError, match=message):
        infer_sgd(**options)


def infer_adam(*, beta1_pow=(1,), moment2=(2, 3), master=None, skip=None, multi_precision=False):
    outs = [MetaTensor() for _ in range(7)]
    adam_infer_meta(
        meta((2, 3)),
        meta((2, 3)),
        meta((1,)),
        meta((2, 3), F64),
        meta(moment2),
        None,
        meta(beta1_pow),
        meta((1,)),
        master,
        skip,
        0.9,
        0.999,
        1e-8,
        False,
        1000,
        multi_precision,
        False,
        False,
        *outs,
    )
    assert not outs[3].is_initialized  # moment2_max_out: no amsgrad
    return outs[:3] + outs[4:]


def test_adam_infer_meta_gives_every_output_its_inputs_meta():
    outs = infer_adam()
    assert [o.dims for o in outs[:5]] == [(2, 3), (2, 3), (2, 3), (1,), (1,)]
    assert outs[1].dtype is F64 and outs[0].dtype is F32
    assert not outs[5].is_initialized
    assert infer_adam(master=meta((2, 3)), multi_precision=True)[5].dims == (2, 3)


@pytest.mark.parametrize(
    "options, message",
    [
        (
            {"beta1_pow": (2,)},
            r"argument 'beta1_pow' must hold exactly one element, got dims \[2\]",
        ),
        (
            {"moment2": (2, 4)},
            r"argument 'moment2' with dims \[2, 4\] must have the dims of argument 'param'",
        ),
        ({"skip": meta((2,), D.BOOL)}, r"argument 'skip_update' must hold exactly one element"),
        ({"master": meta((3, 2))}, r"argument 'master_param' with dims \[3, 2\]"),
    ],
)
def test_adam_infer_meta_rejects_bad_inputs(options, message):
    with pytest.raises(InvalidArgumentError, match=message):
        infer_adam(**options)


# -- through the generated API (in place) --------------------------------------------------------


@op_test("sgd_", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("sgd"))
def test_sgd_op_updates_param_in_place(dtype):
    param = sample((2, 3), dtype)
    grad = sample((2, 3), dtype, seed=1)
    tensor = phi.to_tensor(param)
    lr = phi.to_tensor(np.array([0.25], np.float32))
    param_out, master_out = phi.sgd_(tensor, lr, phi.to_tensor(grad), None)
    assert param_out is tensor and master_out is None
    assert_close(tensor.numpy(), param.astype(np.float64) - 0.25 * grad, dtype)


@op_test("sgd_", kind="edge")
def test_sgd_op_on_0d_and_empty_params_and_a_bad_learning_rate():
    scalar = phi.to_tensor(np.array(1.0))
    phi.sgd_(scalar, phi.to_tensor(np.array(0.5)), phi.to_tensor(np.array(4.0)), None)
    assert scalar.numpy().tolist() == -1.0
    empty = phi.to_tensor(np.zeros((0, 2)))
    assert phi.sgd_(empty, phi.to_tensor(np.array([0.5])), empty, None)[0].shape == [0, 2]
    with pytest.raises(InvalidArgumentError, match=r"sgd_\(\): argument 'learning_rate'"):
        phi.sgd_(scalar, phi.to_tensor(np.ones(2)), phi.to_tensor(np.array(4.0)), None)


@op_test("adam_", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("adam"))
def test_adam_op_updates_every_state_in_place_over_several_steps(dtype):
    nd = dtype.numpy_dtype
    start = [
        sample((3,), dtype),
        np.zeros(3, nd),
        np.zeros(3, nd),
        np.array([0.9], nd),
        np.array([0.999], nd),
    ]
    param, m1, m2, b1_pow, b2_pow = (phi.to_tensor(a) for a in start)
    lr = phi.to_tensor(np.array([0.01], nd))
    expected = [a.astype(np.float64) for a in start]
    for step in range(3):
        grad = sample((3,), dtype, seed=step + 1)
        outputs = phi.adam_(
            param, phi.to_tensor(grad), lr, m1, m2, None, b1_pow, b2_pow, None, None
        )
        assert outputs[0] is param and outputs[3] is None and outputs[6] is None
        expected = list(reference_adam(expected[0], grad, 0.01, *expected[1:], 0.9, 0.999, 1e-8))
        for tensor, want in zip((param, m1, m2, b1_pow, b2_pow), expected):
            assert_close(tensor.numpy(), want, dtype)


@op_test("adam_", kind="edge")
def test_adam_op_skips_on_request_and_rejects_bad_beta_powers():
    inputs = [phi.to_tensor(a) for a in adam_inputs()]
    before = [t.numpy().copy() for t in inputs]
    phi.adam_(*inputs[:5], None, *inputs[5:], None, phi.to_tensor(np.array([True])))
    for tensor, original in zip(inputs, before):
        np.testing.assert_array_equal(tensor.numpy(), original)
    inputs[5] = phi.to_tensor(np.array([0.9, 0.9]))
    with pytest.raises(InvalidArgumentError, match=r"adam_\(\): argument 'beta1_pow'"):
        phi.adam_(*inputs[:5], None, *inputs[5:], None, None)


# -- momentum_ and merged_momentum_ --------------------------------------------------------------


def reference_momentum(param, grad, velocity, lr, mu, nesterov, l2_coeff=None, rescale=1.0):
    """One step of paddle/phi/kernels/impl/momentum_kernel_impl.h, in float64."""
    g = rescale * grad
    if l2_coeff is not None:
        g = param * l2_coeff + g
    velocity = velocity * mu + g
    if nesterov:
        return param - (g + velocity * mu) * lr, velocity
    return param - lr * velocity, velocity


MOMENTUM_VARIANTS = [
    pytest.param(False, "", 1.0, id="plain"),
    pytest.param(True, "", 1.0, id="nesterov"),
    pytest.param(False, "l2_decay", 1.0, id="l2"),
    pytest.param(True, "l2_decay", 0.5, id="nesterov-l2-rescaled"),
]


@op_test("momentum_", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("momentum"))
@pytest.mark.parametrize("nesterov, method, rescale", MOMENTUM_VARIANTS)
def test_momentum_op_follows_paddle_formula_in_place(dtype, nesterov, method, rescale):
    param = phi.to_tensor(sample((3, 4), dtype))
    velocity = phi.to_tensor(np.zeros((3, 4), dtype.numpy_dtype))
    storage = param._impl.array, velocity._impl.array
    lr = phi.to_tensor(np.array([0.05], dtype.numpy_dtype))
    expected = param.numpy().astype(np.float64), np.zeros((3, 4))
    coeff = 0.1 if method else None
    for step in range(3):
        grad = sample((3, 4), dtype, seed=step + 1)
        outputs = phi.momentum_(
            param,
            phi.to_tensor(grad),
            velocity,
            lr,
            None,
            0.9,
            nesterov,
            method,
            0.1,
            False,
            rescale,
        )
        assert outputs[0] is param and outputs[1] is velocity and outputs[2] is None
        expected = reference_momentum(
            *expected[:1], grad, expected[1], 0.05, 0.9, nesterov, coeff, rescale
        )
        assert_close(param.numpy(), expected[0], dtype)
        assert_close(velocity.numpy(), expected[1], dtype)
    assert (param._impl.array, velocity._impl.array) == storage


@op_test("momentum_", kind="edge")
def test_momentum_op_on_0d_and_empty_params_and_bad_attributes():
    scalar, velocity = phi.to_tensor(np.array(1.0)), phi.to_tensor(np.array(0.5))
    phi.momentum_(
        scalar, phi.to_tensor(np.array(2.0)), velocity, phi.to_tensor(np.array(0.1)), None, 0.5
    )
    assert velocity.numpy().tolist() == 2.25 and scalar.numpy().tolist() == pytest.approx(0.775)
    empty = phi.to_tensor(np.zeros((0, 2)))
    assert phi.momentum_(empty, empty, empty, phi.to_tensor(np.array([0.1])), None, 0.9)[
        0
    ].shape == [0, 2]
    with pytest.raises(
        InvalidArgumentError,
        match=r"momentum_\(\): argument 'regularization_method' must be '' \(none\) or 'l2_decay', got 'l1_decay'",
    ):
        phi.momentum_(
            scalar,
            scalar,
            velocity,
            phi.to_tensor(np.array(0.1)),
            None,
            0.9,
            False,
            "l1_decay",
            0.1,
        )
    with pytest.raises(
        InvalidArgumentError, match=r"momentum_\(\): argument 'velocity' with dims \[2\]"
    ):
        phi.momentum_(
            scalar, scalar, phi.to_tensor(np.ones(2)), phi.to_tensor(np.array(0.1)), None, 0.9
        )


def test_momentum_with_multi_precision_steps_the_master_copy():
    param = phi.to_tensor(np.array([1.0, 2.0], np.float32))
    master = phi.to_tensor(np.array([1.5, 2.5], np.float32))
    velocity = phi.to_tensor(np.zeros(2, np.float32))
    grad, lr = phi.to_tensor(np.array([1.0, -1.0], np.float32)), phi.to_tensor(np.array([0.5]))
    outputs = phi.momentum_(param, grad, velocity, lr, master, 0.9, False, "", 0.0, True)
    assert outputs[2] is master and master.numpy().tolist() == [1.0, 3.0]
    assert param.numpy().tolist() == [1.0, 3.0]


def merged_momentum_state(dtype, shapes, seed=0):
    params = [phi.to_tensor(sample(s, dtype, seed=seed + i)) for i, s in enumerate(shapes)]
    velocities = [phi.to_tensor(sample(s, dtype, seed=seed + 10 + i)) for i, s in enumerate(shapes)]
    return params, velocities


SHAPES = [(3, 4), (4,), (), (0, 2)]


@op_test("merged_momentum_", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("merged_momentum"))
@pytest.mark.parametrize("nesterov", [False, True])
def test_merged_momentum_gives_the_bits_of_one_momentum_per_parameter(dtype, nesterov):
    nd = dtype.numpy_dtype
    merged, merged_v = merged_momentum_state(dtype, SHAPES)
    single, single_v = merged_momentum_state(dtype, SHAPES)
    storage = [p._impl.array for p in merged + merged_v]
    rates = [phi.to_tensor(np.array([0.1 * (i + 1)], nd)) for i in range(len(SHAPES))]
    methods, coeffs = ["l2_decay", "", "l2_decay", ""], [0.1, 0.0, 0.2, 0.0]
    for step in range(3):
        grads = [phi.to_tensor(sample(s, dtype, seed=20 + step + i)) for i, s in enumerate(SHAPES)]
        outputs = phi.merged_momentum_(
            merged, grads, merged_v, rates, None, 0.9, nesterov, methods, coeffs, False, 0.5
        )
        assert outputs[0] == merged and outputs[1] == merged_v and outputs[2] is None
        for i in range(len(SHAPES)):
            phi.momentum_(
                single[i],
                grads[i],
                single_v[i],
                rates[i],
                None,
                0.9,
                nesterov,
                methods[i],
                coeffs[i],
                False,
                0.5,
            )
    for fused, alone in zip(merged + merged_v, single + single_v):
        np.testing.assert_array_equal(fused.numpy(), alone.numpy())
    assert [p._impl.array for p in merged + merged_v] == storage
    fresh, fresh_v = merged_momentum_state(dtype, SHAPES)
    grads = [phi.to_tensor(sample(s, dtype, seed=20 + i)) for i, s in enumerate(SHAPES)]
    phi.merged_momentum_(fresh, grads, fresh_v, rates, None, 0.9, nesterov, [], [], False, 0.5)
    param, velocity = reference_momentum(
        sample((4,), dtype, seed=1).astype(np.float64),
        grads[1].numpy().astype(np.float64),
        sample((4,), dtype, seed=11).astype(np.float64),
        0.2,
        0.9,
        nesterov,
        rescale=0.5,
    )
    assert_close(fresh[1].numpy(), param, dtype)
    assert_close(fresh_v[1].numpy(), velocity, dtype)


@op_test("merged_momentum_", kind="edge")
def test_merged_momentum_rejects_mismatched_lists():
    params, velocities = merged_momentum_state(F64, [(2,), (3,)])
    rate = [phi.to_tensor(np.array([0.1]))]
    with pytest.raises(
        InvalidArgumentError,
        match=r"merged_momentum_\(\): argument 'grad' must hold 2 tensors \(one per tensor of argument 'param'\), got 1",
    ):
        phi.merged_momentum_(params, params[:1], velocities, rate, None, 0.9)
    with pytest.raises(
        InvalidArgumentError,
        match=r"argument 'regularization_method' must be empty or hold 2 entries",
    ):
        phi.merged_momentum_(
            params, params, velocities, rate, None, 0.9, False, ["l2_decay"], [0.1]
        )
    with pytest.raises(
        InvalidArgumentError, match=r"argument 'learning_rate' must hold 1 tensor or 2"
    ):
        phi.merged_momentum_(params, params, velocities, rate * 3, None, 0.9)
    with pytest.raises(
        InvalidArgumentError,
        match=r"argument 'velocity\[0\]' with dims \[3\] must have the dims of argument 'param\[0\]' \[2\]",
    ):
        phi.merged_momentum_(params, params, velocities[::-1], rate, None, 0.9)
    with pytest.raises(
        InvalidArgumentError, match=r"argument 'param' must hold at least one tensor"
    ):
        phi.merged_momentum_([], [], [], rate, None, 0.9)


# -- adamw_ and merged_adam_ ---------------------------------------------------------------------


def adam_state(dtype, shape, seed=0):
    nd = dtype.numpy_dtype
    return [
        phi.to_tensor(sample(shape, dtype, seed=seed)),
        phi.to_tensor(np.zeros(shape, nd)),
        phi.to_tensor(np.zeros(shape, nd)),
        phi.to_tensor(np.array([0.9], nd)),
        phi.to_tensor(np.array([0.999], nd)),
    ]


@op_test("adamw_", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("adamw"))
def test_adamw_op_decays_then_takes_adams_step_in_place(dtype):
    param, m1, m2, b1_pow, b2_pow = state = adam_state(dtype, (3, 4))
    storage = [t._impl.array for t in state]
    lr = phi.to_tensor(np.array([0.01], dtype.numpy_dtype))
    expected = [t.numpy().astype(np.float64) for t in state]
    for step in range(3):
        grad = sample((3, 4), dtype, seed=step + 1)
        outputs = phi.adamw_(
            param,
            phi.to_tensor(grad),
            lr,
            m1,
            m2,
            None,
            b1_pow,
            b2_pow,
            None,
            None,
            lr_ratio=0.5,
            coeff=0.2,
            with_decay=True,
        )
        assert list(outputs[:3] + outputs[4:6]) == state
        assert outputs[3] is None and outputs[6] is None
        # lr_ratio and coeff are float attributes: PHI's kernel takes their float32 roundings
        decay = 0.01 * float(np.float32(0.5)) * float(np.float32(0.2))
        decayed = expected[0] - decay * expected[0]
        expected = list(reference_adam(decayed, grad, 0.01, *expected[1:], 0.9, 0.999, 1e-8))
        for tensor, want in zip(state, expected):
            assert_close(tensor.numpy(), want, dtype)
    assert [t._impl.array for t in state] == storage


@op_test("adamw_", kind="edge")
def test_adamw_op_without_decay_or_skipped_is_adam():
    adamw_state, adam_state_ = adam_state(F64, ()), adam_state(F64, ())
    grad, lr = phi.to_tensor(np.array(0.5)), phi.to_tensor(np.array([0.1]))
    phi.adamw_(grad=grad, learning_rate=lr, **adam_arguments(adamw_state), coeff=0.5)
    phi.adam_(grad=grad, learning_rate=lr, **adam_arguments(adam_state_))
    for a, b in zip(adamw_state, adam_state_):
        assert a.numpy().tolist() == b.numpy().tolist()
    before = [t.numpy().copy() for t in adamw_state]
    skip = phi.to_tensor(np.array([True]))
    phi.adamw_(
        grad=grad,
        learning_rate=lr,
        **adam_arguments(adamw_state, skip_update=skip),
        with_decay=True,
    )
    assert [t.numpy().tolist() for t in adamw_state] == [b.tolist() for b in before]
    empty = adam_state(F64, (0, 3))
    outputs = phi.adamw_(grad=empty[1], learning_rate=lr, **adam_arguments(empty), with_decay=True)
    assert outputs[0].shape == [0, 3] and outputs[4].numpy().tolist() == [pytest.approx(0.81)]


def adam_arguments(state, **given):
    """adam_state's tensors as adam_'s / adamw_'s keyword arguments, the optional tensors None
    unless ``given``."""
    names = ("param", "moment1", "moment2", "beta1_pow", "beta2_pow")
    optional = {"moment2_max": None, "master_param": None, "skip_update": None}
    return {**dict(zip(names, state)), **optional, **given}


ADAM_SHAPES = [(3, 4), (4,), (), (0, 2)]


@op_test("merged_adam_", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("merged_adam"))
@pytest.mark.parametrize("shared_rate", [True, False])
def test_merged_adam_gives_the_bits_of_one_adam_per_parameter(dtype, shared_rate):
    nd = dtype.numpy_dtype
    merged = [adam_state(dtype, s, seed=i) for i, s in enumerate(ADAM_SHAPES)]
    single = [adam_state(dtype, s, seed=i) for i, s in enumerate(ADAM_SHAPES)]
    storage = [t._impl.array for state in merged for t in state]
    rates = [phi.to_tensor(np.array([0.01 * (i + 1)], nd)) for i in range(len(ADAM_SHAPES))]
    if shared_rate:
        rates = rates[:1]
    columns = [[state[k] for state in merged] for k in range(5)]
    for step in range(3):
        grads = [
            phi.to_tensor(sample(s, dtype, seed=20 + step + i)) for i, s in enumerate(ADAM_SHAPES)
        ]
        outputs = phi.merged_adam_(columns[0], grads, rates, *columns[1:], None, 0.8, 0.95, 1e-3)
        assert list(outputs[:5]) == columns and outputs[5] is None
        for i, state in enumerate(single):
            rate = rates[0] if shared_rate else rates[i]
            phi.adam_(
                grad=grads[i],
                learning_rate=rate,
                **adam_arguments(state),
                beta1=0.8,
                beta2=0.95,
                epsilon=1e-3,
            )
    for fused, alone in zip(merged, single):
        for a, b in zip(fused, alone):
            np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert [t._impl.array for state in merged for t in state] == storage


def test_merged_adam_follows_paddle_formula():
    dtype = F32
    state = adam_state(dtype, (3, 4))
    expected = [t.numpy().astype(np.float64) for t in state]
    lr = phi.to_tensor(np.array([0.01], np.float32))
    for step in range(3):
        grad = sample((3, 4), dtype, seed=step + 1)
        phi.merged_adam_([state[0]], [phi.to_tensor(grad)], [lr], *([t] for t in state[1:]), None)
        expected = list(reference_adam(expected[0], grad, 0.01, *expected[1:], 0.9, 0.999, 1e-8))
    for tensor, want in zip(state, expected):
        assert_close(tensor.numpy(), want, dtype)


def test_merged_adam_with_multi_precision_steps_the_master_copies():
    state = adam_state(F32, (3,))
    master = phi.to_tensor(state[0].numpy() + np.float32(0.25))
    single = adam_state(F32, (3,))
    single_master = phi.to_tensor(master.numpy())
    grad, lr = phi.to_tensor(sample((3,), F32, seed=5)), phi.to_tensor(np.array([0.01]))
    outputs = phi.merged_adam_(
        [state[0]], [grad], [lr], *([t] for t in state[1:]), [master], multi_precision=True
    )
    phi.adam_(
        grad=grad,
        learning_rate=lr,
        **adam_arguments(single, master_param=single_master),
        multi_precision=True,
    )
    assert outputs[5] == [master]
    np.testing.assert_array_equal(master.numpy(), single_master.numpy())
    np.testing.assert_array_equal(state[0].numpy(), single[0].numpy())


def test_merged_ops_read_an_empty_master_param_list_as_none():
    with_none, with_empty = adam_state(F64, (3,)), adam_state(F64, (3,))
    grad, rate = [phi.to_tensor(np.ones(3))], [phi.to_tensor(np.array([0.1]))]
    for master in (None, []):
        state = with_none if master is None else with_empty
        outputs = phi.merged_adam_([state[0]], grad, rate, *([t] for t in state[1:]), master)
        assert outputs[5] in (None, [])
    for a, b in zip(with_none, with_empty):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    params = merged_momentum_state(F64, [(3,)])
    before = params[0][0].numpy().copy()
    outputs = phi.merged_momentum_(params[0], grad, params[1], rate, [], 0.9)
    assert outputs[2] == [] and not np.array_equal(params[0][0].numpy(), before)


@op_test("merged_adam_", kind="edge")
def test_merged_adam_rejects_mismatched_lists_and_keeps_global_beta_powers():
    states = [adam_state(F64, (2,)), adam_state(F64, (3,))]
    columns = [[state[k] for state in states] for k in range(5)]
    grads, rate = [phi.to_tensor(np.ones(2)), phi.to_tensor(np.ones(3))], [
        phi.to_tensor(np.array([0.1]))
    ]
    phi.merged_adam_(columns[0], grads, rate, *columns[1:], None, use_global_beta_pow=True)
    assert [t.numpy().tolist() for t in columns[3]] == [[0.9], [0.9]]
    assert not np.array_equal(columns[1][0].numpy(), np.zeros(2))
    with pytest.raises(
        InvalidArgumentError, match=r"merged_adam_\(\): argument 'moment2' must hold 2 tensors"
    ):
        phi.merged_adam_(
            columns[0], grads, rate, columns[1], columns[2][:1], columns[3], columns[4], None
        )
    with pytest.raises(
        InvalidArgumentError, match=r"argument 'beta1_pow\[1\]' must hold exactly one element"
    ):
        phi.merged_adam_(
            columns[0],
            grads,
            rate,
            columns[1],
            columns[2],
            [columns[3][0], grads[0]],
            columns[4],
            None,
        )
    with pytest.raises(
        InvalidArgumentError,
        match=r"argument 'grad\[0\]' with dims \[3\] must have the dims of argument 'param\[0\]' \[2\]",
    ):
        phi.merged_adam_(columns[0], grads[::-1], rate, *columns[1:], None)
