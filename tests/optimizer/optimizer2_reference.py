"""numpy references, in float64, of one step of PaddlePaddle 3.3.1's optimizer kernels
(paddle/phi/kernels/impl/<op>_kernel_impl.h, cpu/<op>_kernel.cc, funcs/lamb_functors.h) for
the ops of issues 24 and 25, written from PaddlePaddle's sources (not from phiops's kernels).
PHI stores a ``float`` attribute as float32: ``f32`` rounds it so first. Each function takes
the op's tensors (numpy arrays) and attributes in the op's order and returns the updated
tensors in the op's output order (without the master copy)."""

from __future__ import annotations

import numpy as np


def f32(value: float) -> float:
    """A ``float`` attribute as PHI reads it."""
    return float(np.float32(value))


def _f(array: np.ndarray) -> np.ndarray:
    return np.asarray(array, np.float64)


def adagrad(param, grad, moment, lr, epsilon=1e-6):
    param, grad, moment = _f(param), _f(grad), _f(moment)
    moment_out = moment + grad * grad
    return param - lr * grad / (np.sqrt(moment_out) + f32(epsilon)), moment_out


def rmsprop(param, mean_square, grad, moment, lr, mean_grad, epsilon, decay, momentum, centered):
    param, mean_square, grad, moment = map(_f, (param, mean_square, grad, moment))
    rho, eps = f32(decay), f32(epsilon)
    mean_square_out = rho * mean_square + (1 - rho) * grad * grad
    if centered:
        mean_grad_out = rho * _f(mean_grad) + (1 - rho) * grad
        root = np.sqrt(mean_square_out - mean_grad_out**2 + eps)
    else:
        mean_grad_out = mean_grad
        root = np.sqrt(mean_square_out + eps)
    moment_out = f32(momentum) * moment + lr * grad / root
    return param - moment_out, moment_out, mean_square_out, mean_grad_out


def adamax(param, grad, lr, moment, inf_norm, beta1_pow, beta1=0.9, beta2=0.999, epsilon=1e-8):
    param, grad, moment, inf_norm = map(_f, (param, grad, moment, inf_norm))
    b1, b2 = f32(beta1), f32(beta2)
    moment_out = b1 * moment + (1 - b1) * grad
    inf_norm_out = np.maximum(b2 * inf_norm + f32(epsilon), np.abs(grad))
    step = lr / (1 - float(np.reshape(beta1_pow, -1)[0]))
    return param - step * moment_out / inf_norm_out, moment_out, inf_norm_out


def adadelta(param, grad, avg_squared_grad, avg_squared_update, lr, rho=0.95, epsilon=1e-6):
    param, grad, sq_grad, sq_update = map(_f, (param, grad, avg_squared_grad, avg_squared_update))
    r, eps = f32(rho), f32(epsilon)
    sq_grad_out = r * sq_grad + (1 - r) * grad * grad
    update = -np.sqrt((sq_update + eps) / (sq_grad_out + eps)) * grad
    sq_update_out = r * sq_update + (1 - r) * update * update
    return param + lr * update, sq_grad_out, sq_update_out


def lamb(
    param,
    grad,
    lr,
    moment1,
    moment2,
    beta1_pow,
    beta2_pow,
    weight_decay,
    beta1=0.9,
    beta2=0.999,
    epsilon=1e-6,
    always_adapt=False,
):
    param, grad, moment1, moment2 = map(_f, (param, grad, moment1, moment2))
    b1, b2, decay = f32(beta1), f32(beta2), f32(weight_decay)
    moment1_out = b1 * moment1 + (1 - b1) * grad
    moment2_out = b2 * moment2 + (1 - b2) * grad * grad
    b1_pow, b2_pow = float(np.reshape(beta1_pow, -1)[0]), float(np.reshape(beta2_pow, -1)[0])
    direction = (moment1_out / (1 - b1_pow)) / (
        np.sqrt(moment2_out / (1 - b2_pow)) + f32(epsilon)
    ) + decay * param
    ratio = 1.0
    if weight_decay != 0 or always_adapt:
        p_norm, d_norm = np.linalg.norm(param), np.linalg.norm(direction)
        ratio = p_norm / d_norm if p_norm > 0 and d_norm > 0 else 1.0
    return (
        param - lr * ratio * direction,
        moment1_out,
        moment2_out,
        _f(beta1_pow) * b1,
        _f(beta2_pow) * b2,
    )


def nadam(
    param,
    grad,
    lr,
    momentum_decay_pow,
    beta2_pow,
    mu_product,
    moment1,
    moment2,
    beta1=0.9,
    beta2=0.999,
    epsilon=1e-8,
    momentum_decay=0.004,
):
    arrays = (param, grad, momentum_decay_pow, beta2_pow, mu_product, moment1, moment2)
    param, grad, decay_pow, b2_pow, mu_product, moment1, moment2 = map(_f, arrays)
    b1, b2, md = f32(beta1), f32(beta2), f32(momentum_decay)
    decay_pow_out = decay_pow * 0.96
    b2_pow_out = b2_pow * b2
    mu_t = b1 * (1 - 0.5 * decay_pow_out**md)
    mu_t1 = b1 * (1 - 0.5 * decay_pow_out**md * 0.96**md)
    mu_product_out = mu_product * mu_t
    moment1_out = b1 * moment1 + (1 - b1) * grad
    moment2_out = b2 * moment2 + (1 - b2) * grad * grad
    m_hat = mu_t1 * moment1_out / (1 - mu_product_out * mu_t1) + (1 - mu_t) * grad / (
        1 - mu_product_out
    )
    v_hat = moment2_out / (1 - b2_pow_out)
    param_out = param - lr * m_hat / (np.sqrt(v_hat) + f32(epsilon))
    return param_out, decay_pow_out, b2_pow_out, mu_product_out, moment1_out, moment2_out


def radam(
    param,
    grad,
    lr,
    beta1_pow,
    beta2_pow,
    rho,
    moment1,
    moment2,
    beta1=0.9,
    beta2=0.999,
    epsilon=1e-8,
):
    arrays = (param, grad, beta1_pow, beta2_pow, rho, moment1, moment2)
    param, grad, b1_pow, b2_pow, rho, moment1, moment2 = map(_f, arrays)
    if param.size == 0:  # no per-element power or rho to read (PaddlePaddle reads past the end)
        return param, b1_pow, b2_pow, rho, moment1, moment2
    b1, b2 = f32(beta1), f32(beta2)
    rho_inf = 2 / (1 - b2) - 1
    b1_pow_out, b2_pow_out = b1_pow * b1, b2_pow * b2
    rho_out = (rho * (b2 - b2_pow_out) + b2_pow_out) / (1 - b2_pow_out)
    moment1_out = b1 * moment1 + (1 - b1) * grad
    moment2_out = b2 * moment2 + (1 - b2) * grad * grad
    m_hat = moment1_out / (1 - b1_pow_out.reshape(-1)[0])
    rho_t = rho_inf - 2 * rho_out.reshape(-1)[0]
    if rho_t > 5:
        l_t = np.sqrt(1 - b2_pow_out.reshape(-1)[0]) / (np.sqrt(moment2_out) + f32(epsilon))
        r_t = np.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
        param_out = param - lr * m_hat * r_t * l_t
    else:
        param_out = param - lr * m_hat
    return param_out, b1_pow_out, b2_pow_out, rho_out, moment1_out, moment2_out


def rprop(param, grad, prev, learning_rate, learning_rate_range, etas):
    param, grad, prev, rates = map(_f, (param, grad, prev, learning_rate))
    low, high = (float(v) for v in np.reshape(learning_rate_range, -1))
    eta_minus, eta_plus = (float(v) for v in np.reshape(etas, -1))
    product = grad * prev
    eta = np.where(product > 0, eta_plus, np.where(product < 0, eta_minus, 1.0))
    grad = np.where(product < 0, 0.0, grad)
    rates_out = np.clip(rates * eta, low, high)
    return param - np.sign(grad) * rates_out, grad, rates_out


def asgd(param, grad, lr, d, y, n):
    param, grad, d, y = map(_f, (param, grad, d, y))
    d_out = d - y + grad
    return param - lr / float(np.reshape(n, -1)[0]) * d_out, d_out, grad


def adam_amsgrad(
    param, grad, lr, moment1, moment2, moment2_max, beta1_pow, beta2_pow, beta1, beta2, epsilon
):
    """adam_ with amsgrad (paddle/phi/kernels/funcs/jit/refer: the root of the running maximum
    of the second moment)."""
    param, grad, moment1, moment2, moment2_max = map(
        _f, (param, grad, moment1, moment2, moment2_max)
    )
    b1_pow, b2_pow = float(np.reshape(beta1_pow, -1)[0]), float(np.reshape(beta2_pow, -1)[0])
    moment1_out = beta1 * moment1 + (1 - beta1) * grad
    moment2_out = beta2 * moment2 + (1 - beta2) * grad * grad
    maximum = np.maximum(moment2_max, moment2_out)
    step = lr * np.sqrt(1 - b2_pow) / (1 - b1_pow)
    eps = epsilon * np.sqrt(1 - b2_pow)
    param_out = param - step * moment1_out / (np.sqrt(maximum) + eps)
    return (
        param_out,
        moment1_out,
        moment2_out,
        maximum,
        _f(beta1_pow) * beta1,
        _f(beta2_pow) * beta2,
    )
