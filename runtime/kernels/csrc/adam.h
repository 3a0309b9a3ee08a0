/* One Adam step in place over n elements of type T: the operations of adam_step_
 * (runtime/kernels/impl/optimizer_functors.py) in the same order and type, each rounded to T
 * (no contraction into fused multiply-adds on the baseline x86-64 target), so both paths give
 * the same bits. Included once per T by _native.c with T and NAME defined. */
static void NAME(adam_step)(T *restrict param, const T *restrict grad, T *restrict moment1,
                            T *restrict moment2, Py_ssize_t n, T beta1, T grad_weight1, T beta2,
                            T grad_weight2, T step, T epsilon)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        T g = grad[i];
        T m1 = moment1[i] * beta1;
        T s = g * grad_weight1;
        m1 = m1 + s;
        T m2 = moment2[i] * beta2;
        s = g * grad_weight2;
        s = s * g;
        m2 = m2 + s;
        moment1[i] = m1;
        moment2[i] = m2;
        s = SQRT(m2);
        s = s + epsilon;
        s = m1 / s;
        s = s * step;
        param[i] = param[i] - s;
    }
}
