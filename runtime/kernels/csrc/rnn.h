/* The rnn op's recurrent steps (runtime/kernels/impl/rnn_kernel.py has the math and the numpy
 * path these follow operation by operation), included once per element type T with NAME(f)
 * naming the function for it.
 *
 * rnn_cell: one time step's gate arithmetic, given the step's input projection `pre` (x W_ih^T
 * + b_ih, + b_hh but for GRU's candidate gate) and `mm` = h W_hh^T (from BLAS): the gate
 * activations, the new c and h written in place over c and h, the step's output row, and (when
 * the grad kernel asks for them) the values its backward pass reads.
 *
 * rnn_sequence: a layer's whole loop over time in one direction, its h W_hh^T products done
 * here (dot products of rows of h and W_hh), for the small hidden sizes where a BLAS call per step costs more in overhead
 * than the product itself.
 *
 * Modes: 0 LSTM (gates i, f, c~, o), 1 GRU (r, z, c~), 2 RNN_TANH, 3 RNN_RELU. */

#define RNN_G(mode) ((mode) == 0 ? 4 : (mode) == 1 ? 3 : 1)

static inline T NAME(rnn_sigmoid)(T a)
{
    return (T)1.0 / ((T)1.0 + EXP(-a));
}

/* One step for `batch` rows. pre, mm: batch x G*hidden; bhc: GRU's candidate bias of W_hh
 * (hidden); h, c: batch x hidden, updated in place; valid: batch entries (0: the row's step is
 * past its length: output 0, state kept) or NULL; out: the step's output rows, hidden values at
 * out[b * out_width]. The caches (each NULL or this step's rows): h_prev (h before the step),
 * gates (the activated gates; RNN: the new h), c_prev and c_new (LSTM), hc (GRU's h W_hc^T +
 * b_hc). */
static void NAME(rnn_cell)(int mode, Py_ssize_t batch, Py_ssize_t hidden, const T *pre,
                           const T *mm, const T *bhc, T *h, T *c, const T *valid, T *out,
                           Py_ssize_t out_width, T *h_prev, T *gates, T *c_prev, T *c_new,
                           T *hc)
{
    const Py_ssize_t gh = RNN_G(mode) * hidden;
    for (Py_ssize_t b = 0; b < batch; b++) {
        const T *p = pre + b * gh, *m = mm + b * gh;
        T *hb = h + b * hidden, *ob = out + b * out_width;
        const int keep_state = valid && valid[b] == (T)0;
        if (h_prev)
            memcpy(h_prev + b * hidden, hb, hidden * sizeof(T));
        if (mode == 0) {
            T *cb = c + b * hidden;
            T *g = gates ? gates + b * gh : NULL;
            if (c_prev)
                memcpy(c_prev + b * hidden, cb, hidden * sizeof(T));
            for (Py_ssize_t j = 0; j < hidden; j++) {
                T i = NAME(rnn_sigmoid)(p[j] + m[j]);
                T f = NAME(rnn_sigmoid)(p[hidden + j] + m[hidden + j]);
                T cc = TANH(p[2 * hidden + j] + m[2 * hidden + j]);
                T o = NAME(rnn_sigmoid)(p[3 * hidden + j] + m[3 * hidden + j]);
                T cn = f * cb[j] + i * cc;
                T hn = o * TANH(cn);
                if (g) {
                    g[j] = i;
                    g[hidden + j] = f;
                    g[2 * hidden + j] = cc;
                    g[3 * hidden + j] = o;
                }
                if (c_new)
                    c_new[b * hidden + j] = cn;
                if (keep_state) {
                    ob[j] = 0;
                } else {
                    ob[j] = hn;
                    hb[j] = hn;
                    cb[j] = cn;
                }
            }
        } else if (mode == 1) {
            T *g = gates ? gates + b * gh : NULL;
            for (Py_ssize_t j = 0; j < hidden; j++) {
                T r = NAME(rnn_sigmoid)(p[j] + m[j]);
                T z = NAME(rnn_sigmoid)(p[hidden + j] + m[hidden + j]);
                T hcj = m[2 * hidden + j] + bhc[j];
                T cc = TANH(p[2 * hidden + j] + r * hcj);
                T hn = z * hb[j] + ((T)1 - z) * cc;
                if (g) {
                    g[j] = r;
                    g[hidden + j] = z;
                    g[2 * hidden + j] = cc;
                }
                if (hc)
                    hc[b * hidden + j] = hcj;
                if (keep_state) {
                    ob[j] = 0;
                } else {
                    ob[j] = hn;
                    hb[j] = hn;
                }
            }
        } else {
            T *g = gates ? gates + b * hidden : NULL;
            for (Py_ssize_t j = 0; j < hidden; j++) {
                T a = p[j] + m[j];
                T hn = mode == 2 ? TANH(a) : (a < (T)0 ? (T)0 : a); /* NaN stays NaN */
                if (g)
                    g[j] = hn;
                if (keep_state) {
                    ob[j] = 0;
                } else {
                    ob[j] = hn;
                    hb[j] = hn;
                }
            }
        }
    }
}

/* mm (batch x gh) = h (batch x hidden) times W_hh^T, W_hh (gh x hidden) as the op has it: each
 * entry a dot product of two contiguous rows, in LANES partial sums that -O3 vectorises (a
 * weight row is read once for all the batch's rows, from L1). */
static void NAME(rnn_hidden_product)(Py_ssize_t batch, Py_ssize_t hidden, Py_ssize_t gh,
                                     const T *h, const T *w_hh, T *mm)
{
    const Py_ssize_t body = hidden - hidden % LANES;
    for (Py_ssize_t j = 0; j < gh; j++) {
        const T *w = w_hh + j * hidden;
        for (Py_ssize_t b = 0; b < batch; b++) {
            const T *hb = h + b * hidden;
            T lanes[LANES] = {0};
            for (Py_ssize_t k = 0; k < body; k += LANES)
                for (int l = 0; l < LANES; l++)
                    lanes[l] += hb[k + l] * w[k + l];
            T sum = 0;
            for (Py_ssize_t k = body; k < hidden; k++)
                sum += hb[k] * w[k];
            for (int width = LANES / 2; width > 0; width /= 2)
                for (int l = 0; l < width; l++)
                    lanes[l] += lanes[l + width];
            mm[b * gh + j] = lanes[0] + sum;
        }
    }
}

/* The whole loop of one layer in one direction: steps x batch rows of pre, w_hh (gh x hidden,
 * as the op's weight comes), h and c the initial state overwritten with the last one, valid
 * (steps x batch, or NULL), out the output's first row at this direction's column, out_width
 * its row length; the caches (NULL or steps x ... as rnn_cell's, indexed by time step).
 * scratch: batch * gh elements. Step t runs at position t of every array, in
 * the order t = 0.. (forward) or t = steps - 1..0 (reverse). */
static void NAME(rnn_sequence)(int mode, Py_ssize_t steps, Py_ssize_t batch, Py_ssize_t hidden,
                               const T *pre, const T *w_hh, const T *bhc, T *h, T *c,
                               const T *valid, int reverse, T *out, Py_ssize_t out_width,
                               T *h_prev, T *gates, T *c_prev, T *c_new, T *hc, T *scratch)
{
    const Py_ssize_t gh = RNN_G(mode) * hidden, bh = batch * hidden, bg = batch * gh;
    T *mm = scratch;
    for (Py_ssize_t s = 0; s < steps; s++) {
        const Py_ssize_t t = reverse ? steps - 1 - s : s;
        NAME(rnn_hidden_product)(batch, hidden, gh, h, w_hh, mm);
        NAME(rnn_cell)(mode, batch, hidden, pre + t * bg, mm, bhc, h, c,
                       valid ? valid + t * batch : NULL, out + t * batch * out_width, out_width,
                       h_prev ? h_prev + t * bh : NULL,
                       gates ? gates + t * (mode >= 2 ? bh : bg) : NULL,
                       c_prev ? c_prev + t * bh : NULL, c_new ? c_new + t * bh : NULL,
                       hc ? hc + t * bh : NULL);
    }
}

/* The backward of rnn_sequence (rnn_grad_kernel.py's _direction_grad has the math and the numpy
 * path): walking the steps in the reverse of the forward's order, from the forward's caches
 * (h_prev, gates, c_prev, c_new, hc as rnn_cell writes them), d_out (the output's gradient, this
 * direction's hidden values at d_out[row * d_width]), dh and dc (the last state's gradients, in
 * place: they end as the initial state's), write d_pre (steps x batch x gh: the gradient of the
 * step's gate pre-activations, x W_ih^T + b_ih + ...) and for GRU d_hh (the same, with the
 * candidate's scaled by r: the gradient of h W_hh^T + b_hh). dh W_hh is done here (axpy over the
 * rows of W_hh). scratch: 3 * hidden elements. */
static void NAME(rnn_sequence_grad)(int mode, Py_ssize_t steps, Py_ssize_t batch,
                                    Py_ssize_t hidden, const T *w_hh, const T *valid,
                                    int reverse, const T *d_out, Py_ssize_t d_width,
                                    const T *h_prev, const T *gates, const T *c_prev,
                                    const T *c_new, const T *hc, T *dh, T *dc, T *d_pre,
                                    T *d_hh, T *scratch)
{
    const Py_ssize_t gh = RNN_G(mode) * hidden, bh = batch * hidden, bg = batch * gh;
    T *dhn = scratch, *keep = scratch + hidden, *acc = scratch + 2 * hidden;
    for (Py_ssize_t s = 0; s < steps; s++) {
        const Py_ssize_t t = reverse ? s : steps - 1 - s;
        for (Py_ssize_t b = 0; b < batch; b++) {
            const int valid_row = !valid || valid[t * batch + b] != (T)0;
            const T *dout = d_out + (t * batch + b) * d_width;
            const T *g = gates + t * bg + b * gh;
            T *dhb = dh + b * hidden, *dp = d_pre + t * bg + b * gh;
            for (Py_ssize_t j = 0; j < hidden; j++) {
                dhn[j] = valid_row ? dhb[j] + dout[j] : (T)0;
                keep[j] = valid_row ? (T)0 : dhb[j];
            }
            const T *e = dp; /* the row multiplied by W_hh */
            if (mode == 0) {
                T *dcb = dc + b * hidden;
                const T *cp = c_prev + t * bh + b * hidden, *cn = c_new + t * bh + b * hidden;
                for (Py_ssize_t j = 0; j < hidden; j++) {
                    T i = g[j], f = g[hidden + j], cc = g[2 * hidden + j], o = g[3 * hidden + j];
                    T tc = TANH(cn[j]);
                    T dc_new = valid_row ? dcb[j] : (T)0, dc_keep = valid_row ? (T)0 : dcb[j];
                    T total = dc_new + dhn[j] * o * ((T)1 - tc * tc);
                    dp[j] = total * cc * i * ((T)1 - i);
                    dp[hidden + j] = total * cp[j] * f * ((T)1 - f);
                    dp[2 * hidden + j] = total * i * ((T)1 - cc * cc);
                    dp[3 * hidden + j] = dhn[j] * tc * o * ((T)1 - o);
                    dcb[j] = total * f + dc_keep;
                }
            } else if (mode == 1) {
                const T *hp = h_prev + t * bh + b * hidden, *hcb = hc + t * bh + b * hidden;
                T *dq = d_hh + t * bg + b * gh;
                for (Py_ssize_t j = 0; j < hidden; j++) {
                    T r = g[j], z = g[hidden + j], cc = g[2 * hidden + j];
                    T da_c = dhn[j] * ((T)1 - z) * ((T)1 - cc * cc);
                    T da_r = da_c * hcb[j] * r * ((T)1 - r);
                    T da_z = dhn[j] * (hp[j] - cc) * z * ((T)1 - z);
                    dp[j] = dq[j] = da_r;
                    dp[hidden + j] = dq[hidden + j] = da_z;
                    dp[2 * hidden + j] = da_c;
                    dq[2 * hidden + j] = da_c * r;
                }
                e = dq;
            } else {
                for (Py_ssize_t j = 0; j < hidden; j++)
                    dp[j] = mode == 2 ? dhn[j] * ((T)1 - g[j] * g[j])
                                      : (g[j] > (T)0 ? dhn[j] : (T)0);
            }
            for (Py_ssize_t k = 0; k < hidden; k++)
                acc[k] = 0;
            for (Py_ssize_t j = 0; j < gh; j++) {
                const T ej = e[j];
                const T *w = w_hh + j * hidden;
                for (Py_ssize_t k = 0; k < hidden; k++)
                    acc[k] += ej * w[k];
            }
            for (Py_ssize_t k = 0; k < hidden; k++)
                dhb[k] = (mode == 1 ? dhn[k] * g[hidden + k] + acc[k] : acc[k]) + keep[k];
        }
    }
}
