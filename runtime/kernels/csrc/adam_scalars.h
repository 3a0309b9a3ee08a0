/* One Adam step of merged_adam_ for one parameter, scalars included: AdamScalars
 * (runtime/kernels/impl/optimizer_functors.py) from the learning rate and beta powers, the step
 * of adam.h, then the beta powers' update of merged_adam_kernel, each operation in T and in the
 * numpy path's order, so both give the same bits. beta1, beta2, epsilon arrive in double and are
 * rounded to T first, as numpy's T(beta1) does. Included once per T after adam.h. */
static void NAME(adam_full_step)(T *restrict param, const T *restrict grad, T *restrict moment1,
                                 T *restrict moment2, Py_ssize_t n, const T *learning_rate,
                                 T *beta1_pow, T *beta2_pow, double beta1_d, double beta2_d,
                                 double epsilon_d, int update_pows)
{
    T one = (T)1, beta1 = (T)beta1_d, beta2 = (T)beta2_d, eps = (T)epsilon_d;
    T b1_pow = beta1_pow[0], b2_pow = beta2_pow[0], rate = learning_rate[0];
    T grad_weight1 = one - beta1;
    T grad_weight2 = one - beta2;
    T correction = SQRT(one - b2_pow);
    T bias = one - b1_pow;
    T step = rate * (correction / bias);
    T epsilon = eps * correction;
    NAME(adam_step)(param, grad, moment1, moment2, n, beta1, grad_weight1, beta2, grad_weight2,
                    step, epsilon);
    if (update_pows) {
        beta1_pow[0] = beta1_pow[0] * beta1;
        beta2_pow[0] = beta2_pow[0] * beta2;
    }
}
