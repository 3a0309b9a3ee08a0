/* runtime.kernels._native: optional fused CPU kernels (README, "Native kernels").
 *
 * layer_norm and layer_norm_grad over the rows of C-contiguous float32 or float64 arrays: each
 * row is read from memory once and then worked on in L1, where numpy needs a pass over the
 * whole array per step. im2col and col2im for 2-D convolutions: one pass over the columns,
 * where numpy pads the input and copies (or adds) one strided slice of it per kernel tap. Arrays arrive through the buffer protocol, so the module needs no numpy
 * headers. runtime/kernels/native.py chooses the dtype and makes the arrays contiguous; the
 * checks here only keep a wrong call from reading or writing memory it does not own. The loops
 * run without the GIL. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Partial sums along a row: 16 float32 lanes hold 4 SSE or 2 AVX registers; each lane sums
 * n / 16 terms (48 for a row of 768), so float32 partial sums stay within the float32
 * tolerance of the results (tests/ops/test_layer_norm_native.py) at twice the speed of double
 * ones. */
#define LANES 16

/* The kernel widths whose column spans the depthwise convolution works out once per call (any
 * wider kernel, rare, works them out per plane). */
#define DEPTHWISE_SPANS 16

/* Output rows narrower than this (or any strided depthwise convolution) take the pixel-major
 * depthwise kernel (conv_fast.h's depthwise_pixels) */
#define DEPTHWISE_PIXELS_WIDTH 16

/* Output planes of at most this many pixels take im2col through a table of source offsets
 * (conv_fast.h's im2col_folded_table) */
#define IM2COL_TABLE_PIXELS 256

/* Unit-stride pooling of planes whose padded copy has at most this many pixels runs tap by
 * tap over the whole plane (conv_fast.h's pool_plane_flat) */
#define POOL_FLAT_PIXELS 65536

/* The geometry of a 2-D convolution: input h x w, kernel kh x kw, output oh x ow, strides,
 * dilations and the leading (top, left) paddings. */
struct conv2d {
    Py_ssize_t h, w, kh, kw, oh, ow, sy, sx, dy, dx, py, px;
};

#define T float
#define ACC float
#define SQRT sqrtf
#define NAME(f) f##_float32
#include "layer_norm.h"
#include "conv2d.h"
#include "conv_fast.h"
#include "channels_last.h"
#include "adam.h"
#include "adam_scalars.h"
#include "nms.h"
#include "roi_align.h"
#define LOG logf
#define NEXTAFTER nextafterf
#define MANT_DIG FLT_MANT_DIG
#define POW powf
#define LOG1P log1pf
#define FLOOR floorf
#define CEIL ceilf
#define FABS fabsf
#include "mt19937.h"
#include "mt_samplers.h"
#undef LOG
#undef NEXTAFTER
#undef MANT_DIG
#undef POW
#undef LOG1P
#undef FLOOR
#undef CEIL
#undef FABS
#undef T
#undef ACC
#undef SQRT
#undef NAME

#include "conv_direct.h"

#define T double
#define ACC double
#define SQRT sqrt
#define NAME(f) f##_float64
#include "layer_norm.h"
#include "conv2d.h"
#include "conv_fast.h"
#include "channels_last.h"
#include "adam.h"
#include "adam_scalars.h"
#include "nms.h"
#include "roi_align.h"
#define LOG log
#define NEXTAFTER nextafter
#define MANT_DIG DBL_MANT_DIG
#define POW pow
#define LOG1P log1p
#define FLOOR floor
#define CEIL ceil
#define FABS fabs
#include "mt19937.h"
#include "mt_samplers.h"
#undef LOG
#undef NEXTAFTER
#undef MANT_DIG
#undef POW
#undef LOG1P
#undef FLOOR
#undef CEIL
#undef FABS
#undef T
#undef ACC
#undef SQRT
#undef NAME

/* Fill `view` from `obj`, a C-contiguous buffer of `items` elements of format `format` ("f" or
 * "d"), writable when `writable`. None gives view->buf == NULL when `optional`. */
static int get_array(PyObject *obj, const char *argument, const char *format, Py_ssize_t items,
                     int writable, int optional, Py_buffer *view)
{
    view->buf = NULL;
    view->obj = NULL;
    if (obj == Py_None && optional)
        return 0;
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0)
        return -1;
    if (strcmp(view->format, format) != 0) {
        PyErr_Format(PyExc_TypeError, "%s: expected buffer format '%s', got '%s'", argument,
                     format, view->format);
    } else if (view->len != items * view->itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd elements, got %zd", argument, items,
                     view->len / view->itemsize);
    } else {
        return 0;
    }
    PyBuffer_Release(view);
    view->buf = NULL;
    view->obj = NULL;
    return -1;
}

static void release_all(Py_buffer *views, int count)
{
    for (int k = 0; k < count; k++)
        if (views[k].obj)
            PyBuffer_Release(&views[k]);
}

/* The element format of x: "f" or "d", else NULL with TypeError set. */
static const char *float_format(PyObject *x)
{
    Py_buffer view;
    if (PyObject_GetBuffer(x, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    const char *format = strcmp(view.format, "f") == 0   ? "f"
                         : strcmp(view.format, "d") == 0 ? "d"
                                                         : NULL;
    if (!format)
        PyErr_Format(PyExc_TypeError, "x: expected a float32 or float64 buffer, got format '%s'",
                     view.format);
    PyBuffer_Release(&view);
    return format;
}

static int check_shape(Py_ssize_t rows, Py_ssize_t n)
{
    if (rows < 0 || n < 1) {
        PyErr_Format(PyExc_ValueError, "expected rows >= 0 and row length >= 1, got %zd and %zd",
                     rows, n);
        return -1;
    }
    return 0;
}

/* gelu (exact): PHI's GeluFunctor, x * 0.5 * (1 + erf(x * M_SQRT1_2)) in the element type, with
 * the C library's erf (std::erf, as PHI's CPU kernel), where numpy has none and the numpy path
 * evaluates Cody's rational approximations in a dozen passes over the array. */
static void gelu_float32(const float *x, float *out, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++)
        out[i] = x[i] * 0.5f * (1.0f + erff(x[i] * (float)M_SQRT1_2));
}

static void gelu_float64(const double *x, double *out, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++)
        out[i] = x[i] * 0.5 * (1.0 + erf(x[i] * M_SQRT1_2));
}

PyDoc_STRVAR(gelu_doc, "gelu(x, out, n)\n\n"
                       "Write the exact GELU of the n elements of x (float32 or float64) into out.");

/* The binding of an elementwise kernel f(x, out, n) over float32 or float64 buffers, named
 * `name` in argument errors (gelu, hardswish). */
typedef void (*unary_float32)(const float *, float *, Py_ssize_t);
typedef void (*unary_float64)(const double *, double *, Py_ssize_t);

static PyObject *elementwise_unary(PyObject *args, const char *name, unary_float32 f32,
                                   unary_float64 f64)
{
    PyObject *x, *out;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "OOn", &x, &out, &n))
        return NULL;
    const char *format;
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "%s: expected n >= 0, got %zd", name, n);
        return NULL;
    }
    if (!(format = float_format(x)))
        return NULL;
    Py_buffer v[2];
    memset(v, 0, sizeof v);
    if (get_array(x, "x", format, n, 0, 0, &v[0]) < 0 ||
        get_array(out, "out", format, n, 1, 0, &v[1]) < 0) {
        release_all(v, 2);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS;
    if (format[0] == 'f')
        f32(v[0].buf, v[1].buf, n);
    else
        f64(v[0].buf, v[1].buf, n);
    Py_END_ALLOW_THREADS;
    release_all(v, 2);
    Py_RETURN_NONE;
}

static PyObject *gelu(PyObject *self, PyObject *args)
{
    return elementwise_unary(args, "gelu", gelu_float32, gelu_float64);
}

/* hardswish: PHI's HardSwishFunctor, x * min(max(x + 3, 0), 6) / 6 in the element type, in one
 * pass where the numpy path makes five. max and min as numpy's maximum and minimum (a NaN wins;
 * x + 3 is never -0.0), and no product is followed by an add, so nothing fuses into an FMA: the
 * same bits as the numpy path. */
#define HARDSWISH(T, NAME_)                                                                     \
    static void NAME_(const T *x, T *out, Py_ssize_t n)                                        \
    {                                                                                          \
        for (Py_ssize_t i = 0; i < n; i++) {                                                   \
            T shifted = x[i] + (T)3;                                                           \
            T low = (shifted >= (T)0 || shifted != shifted) ? shifted : (T)0;                  \
            T clipped = (low <= (T)6 || low != low) ? low : (T)6;                              \
            out[i] = x[i] * clipped / (T)6;                                                    \
        }                                                                                      \
    }
HARDSWISH(float, hardswish_float32)
HARDSWISH(double, hardswish_float64)
#undef HARDSWISH

PyDoc_STRVAR(hardswish_doc,
             "hardswish(x, out, n)\n\n"
             "Write the hardswish of the n elements of x (float32 or float64) into out.");

static PyObject *hardswish(PyObject *self, PyObject *args)
{
    return elementwise_unary(args, "hardswish", hardswish_float32, hardswish_float64);
}

/* softmax along the last axis of C-contiguous rows: each row's maximum (a NaN wins, as numpy's
 * max), exp(x - max) in the element type with the C library's exp, their sum in double, each
 * exponential divided by the sum rounded to the element type: one pass per step over a row in
 * L1, where the numpy path makes five passes and four arrays. The C library's exp and the
 * numpy path's SIMD one, and the double sum and numpy's pairwise one in the element type, round
 * differently: the results agree to a few units of the element type's epsilon. */
#define SOFTMAX_ROWS(T, EXP, NAME_)                                                              \
    static void NAME_(const T *x, T *out, Py_ssize_t rows, Py_ssize_t n)                         \
    {                                                                                           \
        for (Py_ssize_t r = 0; r < rows; r++) {                                                 \
            const T *in = x + r * n;                                                            \
            T *o = out + r * n;                                                                 \
            T top = in[0];                                                                      \
            for (Py_ssize_t i = 1; i < n; i++)                                                  \
                if (in[i] > top || in[i] != in[i])                                              \
                    top = top != top ? top : in[i];                                             \
            double sum = 0;                                                                     \
            for (Py_ssize_t i = 0; i < n; i++) {                                                \
                o[i] = EXP(in[i] - top);                                                        \
                sum += o[i];                                                                    \
            }                                                                                   \
            const T total = (T)sum;                                                             \
            for (Py_ssize_t i = 0; i < n; i++)                                                  \
                o[i] /= total;                                                                  \
        }                                                                                       \
    }
SOFTMAX_ROWS(float, expf, softmax_rows_float32)
SOFTMAX_ROWS(double, exp, softmax_rows_float64)
#undef SOFTMAX_ROWS

PyDoc_STRVAR(softmax_rows_doc,
             "softmax_rows(x, out, rows, n)\n\n"
             "Write the softmax of each of the `rows` rows of length `n` of x (float32 or\n"
             "float64) into out.");

static PyObject *softmax_rows(PyObject *self, PyObject *args)
{
    PyObject *x, *out;
    Py_ssize_t rows, n;
    if (!PyArg_ParseTuple(args, "OOnn:softmax_rows", &x, &out, &rows, &n))
        return NULL;
    if (check_shape(rows, n) < 0)
        return NULL;
    const char *format;
    if (!(format = float_format(x)))
        return NULL;
    Py_buffer v[2];
    memset(v, 0, sizeof v);
    if (get_array(x, "x", format, rows * n, 0, 0, &v[0]) < 0 ||
        get_array(out, "out", format, rows * n, 1, 0, &v[1]) < 0) {
        release_all(v, 2);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS;
    if (format[0] == 'f')
        softmax_rows_float32(v[0].buf, v[1].buf, rows, n);
    else
        softmax_rows_float64(v[0].buf, v[1].buf, rows, n);
    Py_END_ALLOW_THREADS;
    release_all(v, 2);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(layer_norm_doc,
             "layer_norm(x, scale, bias, epsilon, rows, n, out, mean, variance)\n\n"
             "Normalise each of the `rows` rows of length `n` of x into out, writing each row's\n"
             "mean and biased variance. scale and bias (length n) may be None.");

static PyObject *layer_norm(PyObject *self, PyObject *args)
{
    PyObject *x, *scale, *bias, *out, *mean, *variance;
    double epsilon;
    Py_ssize_t rows, n;
    if (!PyArg_ParseTuple(args, "OOOdnnOOO:layer_norm", &x, &scale, &bias, &epsilon, &rows, &n,
                          &out, &mean, &variance))
        return NULL;
    const char *format;
    if (check_shape(rows, n) < 0 || !(format = float_format(x)))
        return NULL;
    Py_buffer v[6];
    memset(v, 0, sizeof v);
    if (get_array(x, "x", format, rows * n, 0, 0, &v[0]) < 0 ||
        get_array(scale, "scale", format, n, 0, 1, &v[1]) < 0 ||
        get_array(bias, "bias", format, n, 0, 1, &v[2]) < 0 ||
        get_array(out, "out", format, rows * n, 1, 0, &v[3]) < 0 ||
        get_array(mean, "mean", format, rows, 1, 0, &v[4]) < 0 ||
        get_array(variance, "variance", format, rows, 1, 0, &v[5]) < 0) {
        release_all(v, 6);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS;
    if (format[0] == 'f')
        forward_float32(v[0].buf, v[1].buf, v[2].buf, epsilon, rows, n, v[3].buf, v[4].buf,
                        v[5].buf);
    else
        forward_float64(v[0].buf, v[1].buf, v[2].buf, epsilon, rows, n, v[3].buf, v[4].buf,
                        v[5].buf);
    Py_END_ALLOW_THREADS;
    release_all(v, 6);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(layer_norm_grad_doc,
             "layer_norm_grad(x, scale, mean, variance, out_grad, epsilon, rows, n, x_grad,\n"
             "                scale_grad, bias_grad)\n\n"
             "Write layer_norm's gradients into x_grad (rows x n), scale_grad and bias_grad\n"
             "(length n); a None output is not computed, a None scale counts as ones.");

static PyObject *layer_norm_grad(PyObject *self, PyObject *args)
{
    PyObject *x, *scale, *mean, *variance, *dy, *x_grad, *scale_grad, *bias_grad;
    double epsilon;
    Py_ssize_t rows, n;
    if (!PyArg_ParseTuple(args, "OOOOOdnnOOO:layer_norm_grad", &x, &scale, &mean, &variance, &dy,
                          &epsilon, &rows, &n, &x_grad, &scale_grad, &bias_grad))
        return NULL;
    const char *format;
    if (check_shape(rows, n) < 0 || !(format = float_format(x)))
        return NULL;
    Py_buffer v[8];
    memset(v, 0, sizeof v);
    if (get_array(x, "x", format, rows * n, 0, 0, &v[0]) < 0 ||
        get_array(scale, "scale", format, n, 0, 1, &v[1]) < 0 ||
        get_array(mean, "mean", format, rows, 0, 0, &v[2]) < 0 ||
        get_array(variance, "variance", format, rows, 0, 0, &v[3]) < 0 ||
        get_array(dy, "out_grad", format, rows * n, 0, 0, &v[4]) < 0 ||
        get_array(x_grad, "x_grad", format, rows * n, 1, 1, &v[5]) < 0 ||
        get_array(scale_grad, "scale_grad", format, n, 1, 1, &v[6]) < 0 ||
        get_array(bias_grad, "bias_grad", format, n, 1, 1, &v[7]) < 0) {
        release_all(v, 8);
        return NULL;
    }
    double *columns = PyMem_RawMalloc(2 * n * sizeof(double));
    if (!columns) {
        release_all(v, 8);
        return PyErr_NoMemory();
    }
    Py_BEGIN_ALLOW_THREADS;
    if (format[0] == 'f')
        backward_float32(v[0].buf, v[1].buf, v[2].buf, v[3].buf, v[4].buf, epsilon, rows, n,
                         v[5].buf, v[6].buf, v[7].buf, columns);
    else
        backward_float64(v[0].buf, v[1].buf, v[2].buf, v[3].buf, v[4].buf, epsilon, rows, n,
                         v[5].buf, v[6].buf, v[7].buf, columns);
    Py_END_ALLOW_THREADS;
    PyMem_RawFree(columns);
    release_all(v, 8);
    Py_RETURN_NONE;
}

/* Parse (source, planes, geometry..., target) and run im2col (to_columns) or col2im. */
static PyObject *convert_columns(PyObject *args, int to_columns)
{
    PyObject *source, *target;
    Py_ssize_t planes;
    struct conv2d g;
    if (!PyArg_ParseTuple(args, "OnnnnnnnnnnnnnO", &source, &planes, &g.h, &g.w, &g.kh, &g.kw,
                          &g.oh, &g.ow, &g.sy, &g.sx, &g.dy, &g.dx, &g.py, &g.px, &target))
        return NULL;
    if (planes < 0 || g.h < 0 || g.w < 0 || g.kh < 1 || g.kw < 1 || g.oh < 0 || g.ow < 0 ||
        g.sy < 1 || g.sx < 1 || g.dy < 1 || g.dx < 1) {
        /* any paddings are safe: only pixels inside the input are read or written */
        PyErr_SetString(PyExc_ValueError,
                        "negative sizes, or kernel, strides or dilations below 1");
        return NULL;
    }
    const char *format = float_format(source);
    if (!format)
        return NULL;
    const Py_ssize_t image = planes * g.h * g.w, columns = planes * g.kh * g.kw * g.oh * g.ow;
    Py_buffer v[2];
    memset(v, 0, sizeof v);
    if (get_array(source, to_columns ? "x" : "cols", format, to_columns ? image : columns, 0, 0,
                  &v[0]) < 0 ||
        get_array(target, to_columns ? "cols" : "out", format, to_columns ? columns : image, 1, 0,
                  &v[1]) < 0) {
        release_all(v, 2);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS;
    if (format[0] == 'f')
        (to_columns ? im2col_float32 : col2im_float32)(v[0].buf, planes, &g, v[1].buf);
    else
        (to_columns ? im2col_float64 : col2im_float64)(v[0].buf, planes, &g, v[1].buf);
    Py_END_ALLOW_THREADS;
    release_all(v, 2);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(im2col_doc,
             "im2col_2d(x, planes, h, w, kh, kw, oh, ow, sy, sx, dy, dx, py, px, cols)\n\n"
             "Write into cols (planes x kh x kw x oh x ow) the input pixels of x\n"
             "(planes x h x w) that each kernel tap reads for each output pixel, 0 in the\n"
             "padding.");

static PyObject *im2col_2d(PyObject *self, PyObject *args)
{
    return convert_columns(args, 1);
}

PyDoc_STRVAR(col2im_doc,
             "col2im_2d(cols, planes, h, w, kh, kw, oh, ow, sy, sx, dy, dx, py, px, out)\n\n"
             "Write into out (planes x h x w) the sums of cols (planes x kh x kw x oh x ow)\n"
             "over the kernel taps and output pixels that each input pixel feeds.");

static PyObject *col2im_2d(PyObject *self, PyObject *args)
{
    return convert_columns(args, 0);
}

PyDoc_STRVAR(adam_step_doc,
             "adam_step(param, grad, moment1, moment2, beta1, grad_weight1, beta2, grad_weight2,\n"
             "          step, epsilon)\n\n"
             "One Adam step in place on param, moment1 and moment2 (grad read), all of one float\n"
             "format and size, with the step's scalars (AdamScalars) given as numbers.");

static PyObject *adam_step(PyObject *self, PyObject *args)
{
    PyObject *param, *grad, *moment1, *moment2;
    double beta1, grad_weight1, beta2, grad_weight2, step, epsilon;
    if (!PyArg_ParseTuple(args, "OOOOdddddd:adam_step", &param, &grad, &moment1, &moment2, &beta1,
                          &grad_weight1, &beta2, &grad_weight2, &step, &epsilon))
        return NULL;
    const char *format = float_format(param);
    if (!format)
        return NULL;
    /* the element count is param's; the others must match it */
    Py_buffer probe;
    if (PyObject_GetBuffer(param, &probe, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    Py_ssize_t n = probe.len / probe.itemsize;
    PyBuffer_Release(&probe);
    Py_buffer v[4];
    memset(v, 0, sizeof v);
    if (get_array(param, "param", format, n, 1, 0, &v[0]) < 0 ||
        get_array(grad, "grad", format, n, 0, 0, &v[1]) < 0 ||
        get_array(moment1, "moment1", format, n, 1, 0, &v[2]) < 0 ||
        get_array(moment2, "moment2", format, n, 1, 0, &v[3]) < 0) {
        release_all(v, 4);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS;
    if (format[0] == 'f')
        adam_step_float32(v[0].buf, v[1].buf, v[2].buf, v[3].buf, n, (float)beta1,
                          (float)grad_weight1, (float)beta2, (float)grad_weight2, (float)step,
                          (float)epsilon);
    else
        adam_step_float64(v[0].buf, v[1].buf, v[2].buf, v[3].buf, n, beta1, grad_weight1, beta2,
                          grad_weight2, step, epsilon);
    Py_END_ALLOW_THREADS;
    release_all(v, 4);
    Py_RETURN_NONE;
}

/* wrap_tensor(array, meta): runtime.core.tensor's wrap_array in C, the dispatch hot path's
 * one allocation per output. configure_tensor(cls, names) records the class and the offsets of
 * its slots `names` (array, meta, _version, _base, stop_gradient, _grad, _grad_node, name),
 * read from their member descriptors, so the new object's slots are filled directly. */
#define TENSOR_SLOTS 8
static PyTypeObject *tensor_type = NULL;
static Py_ssize_t tensor_offsets[TENSOR_SLOTS];

PyDoc_STRVAR(configure_tensor_doc,
             "configure_tensor(cls, names)\n\n"
             "Make wrap_tensor build instances of cls, whose __slots__ names (8 of them, in\n"
             "wrap_tensor's order) are given.");

static PyObject *configure_tensor(PyObject *self, PyObject *args)
{
    PyObject *cls, *names;
    if (!PyArg_ParseTuple(args, "O!O!:configure_tensor", &PyType_Type, &cls, &PyTuple_Type,
                          &names))
        return NULL;
    if (PyTuple_GET_SIZE(names) != TENSOR_SLOTS) {
        PyErr_Format(PyExc_ValueError, "names: expected %d slot names, got %zd", TENSOR_SLOTS,
                     PyTuple_GET_SIZE(names));
        return NULL;
    }
    Py_ssize_t offsets[TENSOR_SLOTS];
    for (int k = 0; k < TENSOR_SLOTS; k++) {
        PyObject *descr = PyObject_GetAttr(cls, PyTuple_GET_ITEM(names, k));
        if (!descr)
            return NULL;
        int ok = Py_IS_TYPE(descr, &PyMemberDescr_Type) &&
                 ((PyMemberDescrObject *)descr)->d_member->type == T_OBJECT_EX;
        if (ok)
            offsets[k] = ((PyMemberDescrObject *)descr)->d_member->offset;
        Py_DECREF(descr);
        if (!ok) {
            PyErr_Format(PyExc_TypeError, "names[%d]: %R is not an object slot of the class", k,
                         PyTuple_GET_ITEM(names, k));
            return NULL;
        }
    }
    Py_INCREF(cls);
    Py_XSETREF(tensor_type, (PyTypeObject *)cls);
    memcpy(tensor_offsets, offsets, sizeof offsets);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(wrap_tensor_doc,
             "wrap_tensor(array, meta)\n\n"
             "A new instance of the configured class with array and meta set, _version 0,\n"
             "stop_gradient True and _base, _grad, _grad_node and name None.");

static PyObject *wrap_tensor(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "wrap_tensor() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    if (!tensor_type) {
        PyErr_SetString(PyExc_RuntimeError, "wrap_tensor: configure_tensor was not called");
        return NULL;
    }
    static PyObject *zero = NULL;
    if (!zero && !(zero = PyLong_FromLong(0)))
        return NULL;
    PyObject *obj = tensor_type->tp_alloc(tensor_type, 0);
    if (!obj)
        return NULL;
    PyObject *values[TENSOR_SLOTS] = {args[0], args[1], zero,    Py_None,
                                      Py_True, Py_None, Py_None, Py_None};
    for (int k = 0; k < TENSOR_SLOTS; k++) {
        PyObject **slot = (PyObject **)((char *)obj + tensor_offsets[k]);
        Py_INCREF(values[k]);
        *slot = values[k];
    }
    return obj;
}

/* ---- adam_steps: merged_adam_'s whole step over lists of parameters (issue 16) ---- */

PyDoc_STRVAR(adam_steps_doc,
             "adam_steps(params, grads, moments1, moments2, beta1_pows, beta2_pows,\n"
             "           learning_rates, beta1, beta2, epsilon, update_pows)\n\n"
             "merged_adam_'s step in place on each parameter in turn: its Adam scalars from\n"
             "learning_rates[i] (or learning_rates[0] when it holds one) and its beta powers,\n"
             "the step of adam_step, then (update_pows) beta1_pows[i] *= beta1 and\n"
             "beta2_pows[i] *= beta2. Lists of buffers of one float format (params[0]'s): each\n"
             "grad and moment of its parameter's size, learning rates and powers of 1 element.");

/* The 7 buffers of one parameter: param, grad, moment1, moment2, beta1_pow, beta2_pow, rate. */
#define ADAM_BUFFERS 7

static PyObject *adam_steps(PyObject *self, PyObject *args)
{
    PyObject *lists[7];
    double beta1, beta2, epsilon;
    int update_pows;
    static const char *names[7] = {"params",     "grads",      "moments1",      "moments2",
                                   "beta1_pows", "beta2_pows", "learning_rates"};
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!O!dddp:adam_steps", &PyList_Type, &lists[0],
                          &PyList_Type, &lists[1], &PyList_Type, &lists[2], &PyList_Type,
                          &lists[3], &PyList_Type, &lists[4], &PyList_Type, &lists[5],
                          &PyList_Type, &lists[6], &beta1, &beta2, &epsilon, &update_pows))
        return NULL;
    Py_ssize_t count = PyList_GET_SIZE(lists[0]);
    for (int k = 1; k < 7; k++) {
        Py_ssize_t size = PyList_GET_SIZE(lists[k]);
        if (size != count && !(k == 6 && size == 1)) {
            PyErr_Format(PyExc_ValueError, "%s: expected %zd buffers%s, got %zd", names[k],
                         count, k == 6 ? " (or 1)" : "", size);
            return NULL;
        }
    }
    if (count == 0)
        Py_RETURN_NONE;
    int shared_rate = PyList_GET_SIZE(lists[6]) == 1;
    const char *format = float_format(PyList_GET_ITEM(lists[0], 0));
    if (!format)
        return NULL;
    Py_buffer *views = PyMem_Calloc((size_t)count * ADAM_BUFFERS, sizeof(Py_buffer));
    Py_ssize_t *sizes = PyMem_Calloc((size_t)count, sizeof(Py_ssize_t));
    if (!views || !sizes) {
        PyMem_Free(views);
        PyMem_Free(sizes);
        return PyErr_NoMemory();
    }
    /* every buffer is checked before any is written */
    int failed = 0;
    char argument[64];
    for (Py_ssize_t i = 0; i < count && !failed; i++) {
        Py_buffer *v = views + i * ADAM_BUFFERS;
        PyObject *param = PyList_GET_ITEM(lists[0], i);
        Py_buffer probe;
        if (PyObject_GetBuffer(param, &probe, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
            failed = 1;
            break;
        }
        sizes[i] = probe.len / probe.itemsize;
        PyBuffer_Release(&probe);
        for (int k = 0; k < ADAM_BUFFERS; k++) {
            if (k == 6 && shared_rate && i > 0)
                break;
            PyObject *obj = PyList_GET_ITEM(lists[k], k == 6 && shared_rate ? 0 : i);
            PyOS_snprintf(argument, sizeof argument, "%s[%zd]", names[k],
                          k == 6 && shared_rate ? (Py_ssize_t)0 : i);
            Py_ssize_t items = k < 4 ? sizes[i] : 1;
            int writable = k != 1 && k != 6 && (k < 4 || update_pows);
            if (get_array(obj, argument, format, items, writable, 0, &v[k]) < 0) {
                failed = 1;
                break;
            }
        }
    }
    if (!failed) {
        Py_BEGIN_ALLOW_THREADS;
        for (Py_ssize_t i = 0; i < count; i++) {
            Py_buffer *v = views + i * ADAM_BUFFERS;
            void *rate = shared_rate ? views[6].buf : v[6].buf;
            if (format[0] == 'f')
                adam_full_step_float32(v[0].buf, v[1].buf, v[2].buf, v[3].buf, sizes[i], rate,
                                       v[4].buf, v[5].buf, beta1, beta2, epsilon, update_pows);
            else
                adam_full_step_float64(v[0].buf, v[1].buf, v[2].buf, v[3].buf, sizes[i], rate,
                                       v[4].buf, v[5].buf, beta1, beta2, epsilon, update_pows);
        }
        Py_END_ALLOW_THREADS;
    }
    release_all(views, (int)(count * ADAM_BUFFERS));
    PyMem_Free(views);
    PyMem_Free(sizes);
    if (failed)
        return NULL;
    Py_RETURN_NONE;
}

/* ---- end adam_steps ---- */

/* ---- issue 26: forward convolution and pooling kernels over a row range (conv_fast.h) ---- */

/* Check the geometry and the row range [r0, r1) of `rows` rows; -1 with ValueError set. */
static int check_fast_geometry(const struct conv2d *g, Py_ssize_t r0, Py_ssize_t r1,
                               Py_ssize_t rows)
{
    if (g->h < 0 || g->w < 0 || g->kh < 1 || g->kw < 1 || g->oh < 0 || g->ow < 0 || g->sy < 1 ||
        g->sx < 1 || g->dy < 1 || g->dx < 1) {
        PyErr_SetString(PyExc_ValueError,
                        "negative sizes, or kernel, strides or dilations below 1");
        return -1;
    }
    if (r0 < 0 || r1 < r0 || r1 > rows) {
        PyErr_Format(PyExc_ValueError, "rows [%zd, %zd) outside [0, %zd)", r0, r1, rows);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(im2col_folded_doc,
             "im2col_folded_2d(x, n, c, h, w, kh, kw, oh, ow, sy, sx, dy, dx, py, px, r0, r1,\n"
             "                 cols)\n\n"
             "Write input channels [r0, r1) of the column matrix cols (c x kh x kw x n x oh x ow)\n"
             "of the channels-first batch x (n x c x h x w): the batch folded into the columns.");

static PyObject *im2col_folded_2d(PyObject *self, PyObject *args)
{
    PyObject *x, *cols;
    Py_ssize_t n, c, r0, r1;
    struct conv2d g;
    if (!PyArg_ParseTuple(args, "OnnnnnnnnnnnnnnnnO:im2col_folded_2d", &x, &n, &c, &g.h, &g.w,
                          &g.kh, &g.kw, &g.oh, &g.ow, &g.sy, &g.sx, &g.dy, &g.dx, &g.py, &g.px,
                          &r0, &r1, &cols))
        return NULL;
    if (n < 0 || c < 0 || check_fast_geometry(&g, r0, r1, c) < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "negative n or c");
        return NULL;
    }
    const char *format = float_format(x);
    if (!format)
        return NULL;
    Py_buffer v[2];
    memset(v, 0, sizeof v);
    if (get_array(x, "x", format, n * c * g.h * g.w, 0, 0, &v[0]) < 0 ||
        get_array(cols, "cols", format, c * g.kh * g.kw * n * g.oh * g.ow, 1, 0, &v[1]) < 0) {
        release_all(v, 2);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS;
    if (format[0] == 'f')
        im2col_folded_float32(v[0].buf, n, c, r0, r1, &g, v[1].buf);
    else
        im2col_folded_float64(v[0].buf, n, c, r0, r1, &g, v[1].buf);
    Py_END_ALLOW_THREADS;
    release_all(v, 2);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(im2col_nhwc_doc,
             "im2col_nhwc_2d(x, n, c, h, w, kh, kw, oh, ow, sy, sx, dy, dx, py, px, r0, r1, cols)\n\n"
             "Write rows [r0, r1) (output pixels) of the column matrix cols\n"
             "(n x oh x ow x kh x kw x c) of the channels-last batch x (n x h x w x c).");

static PyObject *im2col_nhwc_2d(PyObject *self, PyObject *args)
{
    PyObject *x, *cols;
    Py_ssize_t n, c, r0, r1;
    struct conv2d g;
    if (!PyArg_ParseTuple(args, "OnnnnnnnnnnnnnnnnO:im2col_nhwc_2d", &x, &n, &c, &g.h, &g.w,
                          &g.kh, &g.kw, &g.oh, &g.ow, &g.sy, &g.sx, &g.dy, &g.dx, &g.py, &g.px,
                          &r0, &r1, &cols))
        return NULL;
    if (n < 0 || c < 0 || check_fast_geometry(&g, r0, r1, n * g.oh * g.ow) < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "negative n or c");
        return NULL;
    }
    const char *format = float_format(x);
    if (!format)
        return NULL;
    Py_buffer v[2];
    memset(v, 0, sizeof v);
    if (get_array(x, "x", format, n * g.h * g.w * c, 0, 0, &v[0]) < 0 ||
        get_array(cols, "cols", format, n * g.oh * g.ow * g.kh * g.kw * c, 1, 0, &v[1]) < 0) {
        release_all(v, 2);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS;
    if (format[0] == 'f')
        im2col_nhwc_float32(v[0].buf, c, r0, r1, &g, v[1].buf);
    else
        im2col_nhwc_float64(v[0].buf, c, r0, r1, &g, v[1].buf);
    Py_END_ALLOW_THREADS;
    release_all(v, 2);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(depthwise_doc,
             "depthwise_conv2d(x, filter, n, c, mult, h, w, kh, kw, oh, ow, sy, sx, dy, dx, py,\n"
             "                 px, r0, r1, out)\n\n"
             "Write output planes [r0, r1) (b * c * mult + m) of out (n x c*mult x oh x ow), the\n"
             "convolution of x (n x c x h x w) with groups == c and filter (c*mult x kh x kw):\n"
             "output channel m reads input channel m / mult.");

/* The body of depthwise_conv2d and depthwise_conv2d_nhwc, which take the same arguments (parsed
 * by `parse`, which names the function): channels first the rows are output planes (image,
 * output channel), channels last output rows (image, oy); `weights` names the filter argument. */
static PyObject *depthwise_call(PyObject *args, const char *parse, int channels_last,
                                const char *weights)
{
    PyObject *x, *filter, *out;
    Py_ssize_t n, c, mult, r0, r1;
    struct conv2d g;
    if (!PyArg_ParseTuple(args, parse, &x, &filter, &n, &c, &mult, &g.h, &g.w, &g.kh, &g.kw,
                          &g.oh, &g.ow, &g.sy, &g.sx, &g.dy, &g.dx, &g.py, &g.px, &r0, &r1, &out))
        return NULL;
    const Py_ssize_t rows = channels_last ? n * g.oh : n * c * mult;
    if (n < 0 || c < 0 || mult < 1 || check_fast_geometry(&g, r0, r1, rows) < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "negative n or c, or mult below 1");
        return NULL;
    }
    const char *format = float_format(x);
    if (!format)
        return NULL;
    Py_buffer v[3];
    memset(v, 0, sizeof v);
    if (get_array(x, "x", format, n * c * g.h * g.w, 0, 0, &v[0]) < 0 ||
        get_array(filter, weights, format, c * mult * g.kh * g.kw, 0, 0, &v[1]) < 0 ||
        get_array(out, "out", format, n * c * mult * g.oh * g.ow, 1, 0, &v[2]) < 0) {
        release_all(v, 3);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS;
    if (channels_last && format[0] == 'f')
        depthwise_nhwc_float32(v[0].buf, v[1].buf, c, mult, r0, r1, &g, v[2].buf);
    else if (channels_last)
        depthwise_nhwc_float64(v[0].buf, v[1].buf, c, mult, r0, r1, &g, v[2].buf);
    else if (format[0] == 'f')
        depthwise_float32(v[0].buf, v[1].buf, c, mult, r0, r1, &g, v[2].buf);
    else
        depthwise_float64(v[0].buf, v[1].buf, c, mult, r0, r1, &g, v[2].buf);
    Py_END_ALLOW_THREADS;
    release_all(v, 3);
    Py_RETURN_NONE;
}

static PyObject *depthwise_conv2d(PyObject *self, PyObject *args)
{
    return depthwise_call(args, "OOnnnnnnnnnnnnnnnnnO:depthwise_conv2d", 0, "filter");
}

PyDoc_STRVAR(conv_direct_doc,
             "conv_direct_2d(x, filter, n, c, m, h, w, kh, kw, oh, ow, sy, sx, dy, dx, py, px,\n"
             "               r0, r1, out)\n\n"
             "Write rows [r0, r1) ((image, block of 4 output channels) pairs b * ceil(m / 4) +\n"
             "block) of out (n x m x oh x ow), the convolution (groups 1) of the float32 batch x\n"
             "(n x c x h x w) with filter (m x c x kh x kw), computed directly (conv_direct.h).\n"
             "Only where conv_direct_available() is true.");

static PyObject *conv_direct_2d(PyObject *self, PyObject *args)
{
    PyObject *x, *filter, *out;
    Py_ssize_t n, c, m, r0, r1;
    struct conv2d g;
    if (!PyArg_ParseTuple(args, "OOnnnnnnnnnnnnnnnnnO:conv_direct_2d", &x, &filter, &n, &c, &m,
                          &g.h, &g.w, &g.kh, &g.kw, &g.oh, &g.ow, &g.sy, &g.sx, &g.dy, &g.dx,
                          &g.py, &g.px, &r0, &r1, &out))
        return NULL;
#if CONV_DIRECT
    if (!conv_direct_supported()) {
#endif
        PyErr_SetString(PyExc_RuntimeError,
                        "conv_direct_2d: this CPU (or build) has no AVX2 and FMA; check "
                        "conv_direct_available() first");
        return NULL;
#if CONV_DIRECT
    }
    if (n < 0 || c < 1 || m < 1 || g.oh < 1 || g.ow < 1 || g.py < 0 || g.px < 0 ||
        check_fast_geometry(&g, r0, r1, n * ((m + 3) / 4)) < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError,
                            "negative n, no channels, an empty output or negative paddings");
        return NULL;
    }
    Py_buffer v[3];
    memset(v, 0, sizeof v);
    if (get_array(x, "x", "f", n * c * g.h * g.w, 0, 0, &v[0]) < 0 ||
        get_array(filter, "filter", "f", m * c * g.kh * g.kw, 0, 0, &v[1]) < 0 ||
        get_array(out, "out", "f", n * m * g.oh * g.ow, 1, 0, &v[2]) < 0) {
        release_all(v, 3);
        return NULL;
    }
    int status;
    Py_BEGIN_ALLOW_THREADS;
    status = conv_direct_f32(v[0].buf, v[1].buf, n, c, m, &g, r0, r1, v[2].buf);
    Py_END_ALLOW_THREADS;
    release_all(v, 3);
    if (status < 0)
        return PyErr_NoMemory();
    Py_RETURN_NONE;
#endif
}

PyDoc_STRVAR(conv_direct_available_doc,
             "conv_direct_available()\n\n"
             "Whether conv_direct_2d runs here (an x86 CPU with AVX2 and FMA, a GCC or Clang "
             "build).");

static PyObject *conv_direct_available(PyObject *self, PyObject *unused)
{
#if CONV_DIRECT
    return PyBool_FromLong(conv_direct_supported());
#else
    Py_RETURN_FALSE;
#endif
}

PyDoc_STRVAR(pool2d_doc,
             "pool2d(x, planes, h, w, kh, kw, oh, ow, sy, sx, py, px, is_max, exclusive, low,\n"
             "       r0, r1, out)\n\n"
             "Write planes [r0, r1) of out (planes x oh x ow): max (is_max) or average pooling\n"
             "of x (planes x h x w) over windows clipped to the input, a max starting at low,\n"
             "an average divided by the clipped window (exclusive) or by the window up to the\n"
             "input's end plus the leading padding.");

static PyObject *pool2d(PyObject *self, PyObject *args)
{
    PyObject *x, *out;
    Py_ssize_t planes, r0, r1;
    int is_max, exclusive;
    double low;
    struct conv2d g;
    g.dy = g.dx = 1;
    if (!PyArg_ParseTuple(args, "OnnnnnnnnnnnppdnnO:pool2d", &x, &planes, &g.h, &g.w, &g.kh,
                          &g.kw, &g.oh, &g.ow, &g.sy, &g.sx, &g.py, &g.px, &is_max, &exclusive,
                          &low, &r0, &r1, &out))
        return NULL;
    if (planes < 0 || check_fast_geometry(&g, r0, r1, planes) < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "negative planes");
        return NULL;
    }
    const char *format = float_format(x);
    if (!format)
        return NULL;
    Py_buffer v[2];
    memset(v, 0, sizeof v);
    if (get_array(x, "x", format, planes * g.h * g.w, 0, 0, &v[0]) < 0 ||
        get_array(out, "out", format, planes * g.oh * g.ow, 1, 0, &v[1]) < 0) {
        release_all(v, 2);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS;
    if (format[0] == 'f')
        pool2d_float32(v[0].buf, is_max, exclusive, (float)low, r0, r1, &g, v[1].buf);
    else
        pool2d_float64(v[0].buf, is_max, exclusive, low, r0, r1, &g, v[1].buf);
    Py_END_ALLOW_THREADS;
    release_all(v, 2);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(pool2d_nhwc_doc,
             "pool2d_nhwc(x, n, c, h, w, kh, kw, oh, ow, sy, sx, py, px, is_max, exclusive, low,\n"
             "            r0, r1, out)\n\n"
             "Write output rows [r0, r1) (b * oh + oy) of out (n x oh x ow x c): pool2d of the\n"
             "channels-last batch x (n x h x w x c), each output pixel's c channels at once, the\n"
             "same windows, order and bits as pool2d's.");

static PyObject *pool2d_nhwc(PyObject *self, PyObject *args)
{
    PyObject *x, *out;
    Py_ssize_t n, c, r0, r1;
    int is_max, exclusive;
    double low;
    struct conv2d g;
    g.dy = g.dx = 1;
    if (!PyArg_ParseTuple(args, "OnnnnnnnnnnnnppdnnO:pool2d_nhwc", &x, &n, &c, &g.h, &g.w,
                          &g.kh, &g.kw, &g.oh, &g.ow, &g.sy, &g.sx, &g.py, &g.px, &is_max,
                          &exclusive, &low, &r0, &r1, &out))
        return NULL;
    if (n < 0 || c < 0 || check_fast_geometry(&g, r0, r1, n * g.oh) < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "negative n or c");
        return NULL;
    }
    const char *format = float_format(x);
    if (!format)
        return NULL;
    Py_buffer v[2];
    memset(v, 0, sizeof v);
    if (get_array(x, "x", format, n * g.h * g.w * c, 0, 0, &v[0]) < 0 ||
        get_array(out, "out", format, n * g.oh * g.ow * c, 1, 0, &v[1]) < 0) {
        release_all(v, 2);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS;
    if (format[0] == 'f')
        pool2d_nhwc_float32(v[0].buf, c, is_max, exclusive, (float)low, r0, r1, &g, v[1].buf);
    else
        pool2d_nhwc_float64(v[0].buf, c, is_max, exclusive, low, r0, r1, &g, v[1].buf);
    Py_END_ALLOW_THREADS;
    release_all(v, 2);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(depthwise_nhwc_doc,
             "depthwise_conv2d_nhwc(x, weights, n, c, mult, h, w, kh, kw, oh, ow, sy, sx, dy, dx,\n"
             "                      py, px, r0, r1, out)\n\n"
             "Write output rows [r0, r1) (b * oh + oy) of out (n x oh x ow x c*mult), the\n"
             "convolution of the channels-last batch x (n x h x w x c) with groups == c and the\n"
             "filter packed tap-major, weights (kh*kw x c*mult): output channel m reads input\n"
             "channel m / mult. The same sums in the same order as depthwise_conv2d's.");

static PyObject *depthwise_conv2d_nhwc(PyObject *self, PyObject *args)
{
    return depthwise_call(args, "OOnnnnnnnnnnnnnnnnnO:depthwise_conv2d_nhwc", 1, "weights");
}

/* ---- end issue 26 kernels ---- */

/* ---- issue 26: the rnn op's recurrent steps (rnn.h) ---- */

#define T float
#define EXP expf
#define TANH tanhf
#define NAME(f) f##_float32
#include "rnn.h"
#undef T
#undef EXP
#undef TANH
#undef NAME

#define T double
#define EXP exp
#define TANH tanh
#define NAME(f) f##_float64
#include "rnn.h"
#undef T
#undef EXP
#undef TANH
#undef NAME

/* The mode and sizes of an rnn call; -1 with ValueError set. */
static int rnn_check(int mode, Py_ssize_t steps, Py_ssize_t batch, Py_ssize_t hidden,
                     Py_ssize_t out_offset, Py_ssize_t out_width)
{
    if (mode < 0 || mode > 3) {
        PyErr_Format(PyExc_ValueError, "mode: expected 0 (LSTM), 1 (GRU), 2 (RNN_TANH) or 3 "
                                       "(RNN_RELU), got %d", mode);
        return -1;
    }
    if (steps < 0 || batch < 0 || hidden < 1) {
        PyErr_Format(PyExc_ValueError,
                     "expected steps >= 0, batch >= 0 and hidden >= 1, got %zd, %zd and %zd",
                     steps, batch, hidden);
        return -1;
    }
    if (out_offset < 0 || out_width < out_offset + hidden) {
        PyErr_Format(PyExc_ValueError,
                     "out_offset %zd and hidden %zd do not fit in rows of out_width %zd",
                     out_offset, hidden, out_width);
        return -1;
    }
    return 0;
}

/* The 12 arrays of rnn_cell and rnn_sequence, in their argument order. */
#define RNN_ARRAYS 12

/* Check the sizes and get the buffers of objs (pre, mm or w_hh, bhc, h, c, valid, out, h_prev,
 * gates, c_prev, c_new, hc) for `steps` steps (rnn_cell: 1); the format is pre's. 0 on success,
 * else -1 with an exception set and nothing held. */
static int rnn_arrays(int mode, Py_ssize_t steps, Py_ssize_t batch, Py_ssize_t hidden,
                      Py_ssize_t out_offset, Py_ssize_t out_width, int sequence, PyObject **objs,
                      Py_buffer *v, const char **format)
{
    memset(v, 0, RNN_ARRAYS * sizeof(Py_buffer));
    if (rnn_check(mode, steps, batch, hidden, out_offset, out_width) < 0)
        return -1;
    if (!(*format = float_format(objs[0])))
        return -1;
    const Py_ssize_t gh = RNN_G(mode) * hidden, bh = batch * hidden;
    const Py_ssize_t sizes[RNN_ARRAYS] = {
        steps * batch * gh, sequence ? gh * hidden : batch * gh, hidden, bh, bh,
        steps * batch, steps * batch * out_width, steps * bh, steps * batch * gh, steps * bh,
        steps * bh, steps * bh};
    static const char *names[RNN_ARRAYS] = {"pre", "mm", "bhc", "h", "c", "valid", "out",
                                            "h_prev", "gates", "c_prev", "c_new", "hc"};
    /* writable: h, c, out and the caches; required: pre, mm/w_hh, h, out, bhc for GRU, c for
     * LSTM */
    for (int k = 0; k < RNN_ARRAYS; k++) {
        int writable = k == 3 || k == 4 || k >= 6;
        int optional = k == 5 || k >= 7 || (k == 2 && mode != 1) || (k == 4 && mode != 0);
        const char *name = k == 1 && sequence ? "w_hh" : names[k];
        if (get_array(objs[k], name, *format, sizes[k], writable, optional, &v[k]) < 0) {
            release_all(v, RNN_ARRAYS);
            return -1;
        }
    }
    return 0;
}

PyDoc_STRVAR(rnn_cell_doc,
             "rnn_cell(mode, batch, hidden, pre, mm, bhc, h, c, valid, out, out_offset,\n"
             "         out_width, h_prev, gates, c_prev, c_new, hc)\n\n"
             "One time step of the rnn op for `batch` rows (mode 0 LSTM, 1 GRU, 2 RNN_TANH,\n"
             "3 RNN_RELU; G = 4, 3, 1 gates): from the step's input projection pre and\n"
             "mm = h W_hh^T (batch x G*hidden), GRU's candidate bias bhc (hidden), update h and\n"
             "(LSTM) c (batch x hidden) in place and write the step's output at column\n"
             "out_offset of out's rows of out_width (batch x out_width). valid (batch, or None):\n"
             "0 where the row's step is past its length (output 0, state kept). The caches\n"
             "(None, or this step's rows) receive h before the step, the activated gates,\n"
             "c before and after (LSTM) and h W_hc^T + b_hc (GRU).");

static PyObject *rnn_cell(PyObject *self, PyObject *args)
{
    int mode;
    Py_ssize_t batch, hidden, out_offset, out_width;
    PyObject *o[RNN_ARRAYS];
    if (!PyArg_ParseTuple(args, "innOOOOOOOnnOOOOO:rnn_cell", &mode, &batch, &hidden, &o[0],
                          &o[1], &o[2], &o[3], &o[4], &o[5], &o[6], &out_offset, &out_width,
                          &o[7], &o[8], &o[9], &o[10], &o[11]))
        return NULL;
    Py_buffer v[RNN_ARRAYS];
    const char *format;
    if (rnn_arrays(mode, 1, batch, hidden, out_offset, out_width, 0, o, v, &format) < 0)
        return NULL;
    void *p[RNN_ARRAYS];
    for (int k = 0; k < RNN_ARRAYS; k++)
        p[k] = v[k].buf;
    if (mode != 0)
        p[4] = p[9] = p[10] = NULL;
    Py_BEGIN_ALLOW_THREADS;
    if (format[0] == 'f')
        rnn_cell_float32(mode, batch, hidden, p[0], p[1], p[2], p[3], p[4], p[5],
                         (float *)p[6] + out_offset, out_width, p[7], p[8], p[9], p[10],
                         p[11]);
    else
        rnn_cell_float64(mode, batch, hidden, p[0], p[1], p[2], p[3], p[4], p[5],
                         (double *)p[6] + out_offset, out_width, p[7], p[8], p[9], p[10],
                         p[11]);
    Py_END_ALLOW_THREADS;
    release_all(v, RNN_ARRAYS);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(rnn_sequence_doc,
             "rnn_sequence(mode, steps, batch, hidden, pre, w_hh, bhc, h, c, valid, reverse,\n"
             "             out, out_offset, out_width, h_prev, gates, c_prev, c_new, hc)\n\n"
             "rnn_cell over all `steps` time steps of one layer in one direction (in reverse\n"
             "order when reverse), the products h W_hh^T done here from w_hh (G*hidden x\n"
             "hidden): pre, out, valid and the caches gain a leading steps axis (step t at\n"
             "index t in both orders); h and c end as the last state.");

static PyObject *rnn_sequence(PyObject *self, PyObject *args)
{
    int mode, reverse;
    Py_ssize_t steps, batch, hidden, out_offset, out_width;
    PyObject *o[RNN_ARRAYS];
    if (!PyArg_ParseTuple(args, "innnOOOOOOpOnnOOOOO:rnn_sequence", &mode, &steps, &batch,
                          &hidden, &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &reverse, &o[6],
                          &out_offset, &out_width, &o[7], &o[8], &o[9], &o[10], &o[11]))
        return NULL;
    Py_buffer v[RNN_ARRAYS];
    const char *format;
    if (rnn_arrays(mode, steps, batch, hidden, out_offset, out_width, 1, o, v, &format) < 0)
        return NULL;
    void *p[RNN_ARRAYS];
    for (int k = 0; k < RNN_ARRAYS; k++)
        p[k] = v[k].buf;
    if (mode != 0)
        p[4] = p[9] = p[10] = NULL;
    const Py_ssize_t gh = RNN_G(mode) * hidden;
    void *scratch = PyMem_RawMalloc((size_t)(batch * gh) * v[0].itemsize + 1);
    if (!scratch) {
        release_all(v, RNN_ARRAYS);
        return PyErr_NoMemory();
    }
    Py_BEGIN_ALLOW_THREADS;
    if (format[0] == 'f')
        rnn_sequence_float32(mode, steps, batch, hidden, p[0], p[1], p[2], p[3], p[4], p[5],
                             reverse, (float *)p[6] + out_offset, out_width, p[7], p[8], p[9],
                             p[10], p[11], scratch);
    else
        rnn_sequence_float64(mode, steps, batch, hidden, p[0], p[1], p[2], p[3], p[4], p[5],
                             reverse, (double *)p[6] + out_offset, out_width, p[7], p[8], p[9],
                             p[10], p[11], scratch);
    Py_END_ALLOW_THREADS;
    PyMem_RawFree(scratch);
    release_all(v, RNN_ARRAYS);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(rnn_sequence_grad_doc,
             "rnn_sequence_grad(mode, steps, batch, hidden, w_hh, valid, reverse, d_out,\n"
             "                  d_offset, d_width, h_prev, gates, c_prev, c_new, hc, dh, dc,\n"
             "                  d_pre, d_hh)\n\n"
             "The backward of rnn_sequence over all steps, in the reverse of the forward's\n"
             "order: from the forward's caches (steps x batch x ..., as rnn_sequence writes them;\n"
             "c_prev, c_new for LSTM, hc for GRU, else None) and the output's gradient d_out\n"
             "(steps x batch x d_width, this direction at column d_offset), write d_pre and\n"
             "(GRU) d_hh (steps x batch x G*hidden) and turn dh and (LSTM) dc (batch x hidden)\n"
             "from the last state's gradients into the initial state's.");

static PyObject *rnn_sequence_grad(PyObject *self, PyObject *args)
{
    int mode, reverse;
    Py_ssize_t steps, batch, hidden, d_offset, d_width;
    PyObject *o[12];
    if (!PyArg_ParseTuple(args, "innnOOpOnnOOOOOOOOO:rnn_sequence_grad", &mode, &steps, &batch,
                          &hidden, &o[0], &o[1], &reverse, &o[2], &d_offset, &d_width, &o[3],
                          &o[4], &o[5], &o[6], &o[7], &o[8], &o[9], &o[10], &o[11]))
        return NULL;
    if (rnn_check(mode, steps, batch, hidden, d_offset, d_width) < 0)
        return NULL;
    const char *format = float_format(o[4]);
    if (!format)
        return NULL;
    const Py_ssize_t gh = RNN_G(mode) * hidden, bh = batch * hidden;
    const Py_ssize_t sizes[12] = {gh * hidden,         steps * batch, steps * batch * d_width,
                                  steps * bh,          steps * batch * gh, steps * bh,
                                  steps * bh,          steps * bh,    bh,
                                  bh,                  steps * batch * gh, steps * batch * gh};
    static const char *names[12] = {"w_hh", "valid", "d_out", "h_prev", "gates", "c_prev",
                                    "c_new", "hc", "dh", "dc", "d_pre", "d_hh"};
    Py_buffer v[12];
    memset(v, 0, sizeof v);
    for (int k = 0; k < 12; k++) {
        int writable = k >= 8;
        int lstm_only = k == 5 || k == 6 || k == 9, gru_only = k == 7 || k == 11;
        int optional = k == 1 || (lstm_only && mode != 0) || (gru_only && mode != 1);
        if (get_array(o[k], names[k], format, sizes[k], writable, optional, &v[k]) < 0) {
            release_all(v, 12);
            return NULL;
        }
    }
    void *p[12];
    for (int k = 0; k < 12; k++)
        p[k] = v[k].buf;
    if (mode != 0)
        p[5] = p[6] = p[9] = NULL;
    if (mode != 1)
        p[7] = p[11] = NULL;
    void *scratch = PyMem_RawMalloc((size_t)(3 * hidden) * v[4].itemsize);
    if (!scratch) {
        release_all(v, 12);
        return PyErr_NoMemory();
    }
    Py_BEGIN_ALLOW_THREADS;
    if (format[0] == 'f')
        rnn_sequence_grad_float32(mode, steps, batch, hidden, p[0], p[1], reverse,
                                  (float *)p[2] + d_offset, d_width, p[3], p[4], p[5], p[6],
                                  p[7], p[8], p[9], p[10], p[11], scratch);
    else
        rnn_sequence_grad_float64(mode, steps, batch, hidden, p[0], p[1], reverse,
                                  (double *)p[2] + d_offset, d_width, p[3], p[4], p[5], p[6],
                                  p[7], p[8], p[9], p[10], p[11], scratch);
    Py_END_ALLOW_THREADS;
    PyMem_RawFree(scratch);
    release_all(v, 12);
    Py_RETURN_NONE;
}

/* ---- end rnn ---- */

PyDoc_STRVAR(nms_greedy_doc,
             "nms_greedy(x1, y1, x2, y2, area, n, norm, threshold, eta, kept) -> count\n\n"
             "PHI's NMSFast over n candidates in score order (corners and areas: float32 or\n"
             "float64 arrays of one format): writes the kept positions into kept (int64, n)\n"
             "and returns how many.");

static PyObject *nms_greedy(PyObject *self, PyObject *args)
{
    PyObject *arrays[5], *kept_obj;
    Py_ssize_t n;
    double norm, threshold, eta;
    if (!PyArg_ParseTuple(args, "OOOOOndddO:nms_greedy", &arrays[0], &arrays[1], &arrays[2],
                          &arrays[3], &arrays[4], &n, &norm, &threshold, &eta, &kept_obj))
        return NULL;
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "expected n >= 0, got %zd", n);
        return NULL;
    }
    const char *format;
    if (!(format = float_format(arrays[0])))
        return NULL;
    static const char *names[5] = {"x1", "y1", "x2", "y2", "area"};
    Py_buffer v[6];
    memset(v, 0, sizeof v);
    for (int k = 0; k < 5; k++)
        if (get_array(arrays[k], names[k], format, n, 0, 0, &v[k]) < 0) {
            release_all(v, 6);
            return NULL;
        }
    if (get_array(kept_obj, "kept", "q", n, 1, 0, &v[5]) < 0 &&
        (PyErr_Clear(), get_array(kept_obj, "kept", "l", n, 1, 0, &v[5]) < 0)) {
        release_all(v, 6);
        return NULL;
    }
    if (v[5].itemsize != (Py_ssize_t)sizeof(long long)) {
        PyErr_SetString(PyExc_TypeError, "kept: expected an int64 buffer");
        release_all(v, 6);
        return NULL;
    }
    Py_ssize_t count;
    Py_BEGIN_ALLOW_THREADS;
    if (format[0] == 'f')
        count = nms_greedy_float32(v[0].buf, v[1].buf, v[2].buf, v[3].buf, v[4].buf, n,
                                   (float)norm, (float)threshold, (float)eta, v[5].buf);
    else
        count = nms_greedy_float64(v[0].buf, v[1].buf, v[2].buf, v[3].buf, v[4].buf, n, norm,
                                   threshold, eta, v[5].buf);
    Py_END_ALLOW_THREADS;
    release_all(v, 6);
    return PyLong_FromSsize_t(count);
}

/* ---- roi_align (runtime/kernels/impl/detect_kernel.py roi_align_kernel) ---- */

PyDoc_STRVAR(roi_align_doc,
             "roi_align(x, boxes, images, rois, channels, height, width, pooled_h, pooled_w,\n"
             "          spatial_scale, sampling_ratio, aligned, out)\n\n"
             "roi_align's forward: x [N, C, H, W] and boxes [rois, 4] float32 or float64\n"
             "(one format), images [rois] int64 (each box's image), out [rois, C, pooled_h,\n"
             "pooled_w] written.");

static PyObject *roi_align(PyObject *self, PyObject *args)
{
    PyObject *x_obj, *boxes_obj, *images_obj, *out_obj;
    Py_ssize_t rois, channels, height, width, pooled_h, pooled_w;
    double spatial_scale;
    long long sampling_ratio;
    int aligned;
    if (!PyArg_ParseTuple(args, "OOOnnnnnndLpO:roi_align", &x_obj, &boxes_obj, &images_obj,
                          &rois, &channels, &height, &width, &pooled_h, &pooled_w,
                          &spatial_scale, &sampling_ratio, &aligned, &out_obj))
        return NULL;
    if (rois < 0 || channels < 0 || height < 0 || width < 0 || pooled_h < 1 || pooled_w < 1) {
        PyErr_SetString(PyExc_ValueError, "roi_align: expected non-negative extents and pooled "
                                          "sizes of at least 1");
        return NULL;
    }
    const char *format;
    if (!(format = float_format(x_obj)))
        return NULL;
    Py_buffer v[4];
    memset(v, 0, sizeof v);
    /* x holds whole images: its batch is its element count over one image's */
    Py_buffer probe;
    if (PyObject_GetBuffer(x_obj, &probe, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    Py_ssize_t plane = channels * height * width;
    Py_ssize_t batch = plane > 0 ? probe.len / probe.itemsize / plane : 0;
    PyBuffer_Release(&probe);
    if (get_array(x_obj, "x", format, batch * plane, 0, 0, &v[0]) < 0 ||
        get_array(boxes_obj, "boxes", format, 4 * rois, 0, 0, &v[1]) < 0 ||
        ((get_array(images_obj, "images", "q", rois, 0, 0, &v[2]) < 0) &&
         (PyErr_Clear(), get_array(images_obj, "images", "l", rois, 0, 0, &v[2]) < 0)) ||
        get_array(out_obj, "out", format, rois * channels * pooled_h * pooled_w, 1, 0, &v[3]) <
            0) {
        release_all(v, 4);
        return NULL;
    }
    if (v[2].itemsize != (Py_ssize_t)sizeof(long long)) {
        PyErr_SetString(PyExc_TypeError, "images: expected an int64 buffer");
        release_all(v, 4);
        return NULL;
    }
    const long long *images = v[2].buf;
    for (Py_ssize_t r = 0; r < rois; r++)
        if (images[r] < 0 || images[r] >= batch) {
            PyErr_Format(PyExc_ValueError, "images: box %zd names image %lld of %zd", r,
                         images[r], batch);
            release_all(v, 4);
            return NULL;
        }
    Py_ssize_t sums_count = pooled_h * height > pooled_w * width ? pooled_h * height
                                                                 : pooled_w * width;
    Py_ssize_t scratch_count = (pooled_h + pooled_w) * (height + width);
    double *sums = PyMem_RawMalloc((size_t)(sums_count > 0 ? sums_count : 1) * sizeof(double));
    void *scratch = PyMem_RawMalloc((size_t)(scratch_count > 0 ? scratch_count : 1) *
                                    (size_t)v[0].itemsize);
    Py_ssize_t *used = PyMem_RawMalloc((size_t)(height + width + 1) * sizeof(Py_ssize_t));
    if (!sums || !scratch || !used) {
        PyMem_RawFree(sums);
        PyMem_RawFree(scratch);
        PyMem_RawFree(used);
        release_all(v, 4);
        return PyErr_NoMemory();
    }
    Py_BEGIN_ALLOW_THREADS;
    if (format[0] == 'f')
        roi_align_float32(v[0].buf, v[1].buf, images, rois, channels, height, width, pooled_h,
                          pooled_w, spatial_scale, sampling_ratio, aligned, v[3].buf, sums,
                          scratch, used);
    else
        roi_align_float64(v[0].buf, v[1].buf, images, rois, channels, height, width, pooled_h,
                          pooled_w, spatial_scale, sampling_ratio, aligned, v[3].buf, sums,
                          scratch, used);
    Py_END_ALLOW_THREADS;
    PyMem_RawFree(sums);
    PyMem_RawFree(scratch);
    PyMem_RawFree(used);
    release_all(v, 4);
    Py_RETURN_NONE;
}

/* ---- mt19937_64 (runtime/kernels/mt19937.py) ---- */

/* Fill `view` from `obj`, a C-contiguous writable buffer of `items` 8-byte unsigned ints
 * (numpy's uint64: format "L" or "Q"). */
static int get_uint64_array(PyObject *obj, const char *argument, Py_ssize_t items,
                            Py_buffer *view)
{
    if (get_array(obj, argument, "L", items, 1, 0, view) == 0 && view->itemsize == 8)
        return 0;
    if (view->obj)
        PyBuffer_Release(view);
    PyErr_Clear();
    if (get_array(obj, argument, "Q", items, 1, 0, view) < 0)
        return -1;
    return 0;
}

PyDoc_STRVAR(mt_raw_doc, "mt_raw(state, out, n)\n\n"
                         "Write the engine's next n 64-bit words into out (uint64), advancing\n"
                         "state (uint64, 313: the 312 words and the position).");

static PyObject *mt_raw(PyObject *self, PyObject *args)
{
    PyObject *state_obj, *out_obj;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "OOn:mt_raw", &state_obj, &out_obj, &n))
        return NULL;
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "expected n >= 0, got %zd", n);
        return NULL;
    }
    Py_buffer v[2];
    memset(v, 0, sizeof v);
    if (get_uint64_array(state_obj, "state", MT_N + 1, &v[0]) < 0 ||
        get_uint64_array(out_obj, "out", n, &v[1]) < 0) {
        release_all(v, 2);
        return NULL;
    }
    uint64_t *state = v[0].buf, *out = v[1].buf;
    Py_BEGIN_ALLOW_THREADS;
    for (Py_ssize_t i = 0; i < n; i++)
        out[i] = mt_next(state);
    Py_END_ALLOW_THREADS;
    release_all(v, 2);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(mt_real_doc,
             "mt_uniform(state, out, n, a, b) / mt_normal(state, out, n, mean, stddev)\n\n"
             "Fill out (float32 or float64, n) as std::uniform_real_distribution(a, b) or\n"
             "std::normal_distribution(mean, stddev) of that type draw from the engine state.");

static PyObject *mt_real(PyObject *args, int normal)
{
    PyObject *state_obj, *out_obj;
    Py_ssize_t n;
    double p1, p2;
    if (!PyArg_ParseTuple(args, "OOndd", &state_obj, &out_obj, &n, &p1, &p2))
        return NULL;
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "expected n >= 0, got %zd", n);
        return NULL;
    }
    const char *format;
    if (!(format = float_format(out_obj)))
        return NULL;
    Py_buffer v[2];
    memset(v, 0, sizeof v);
    if (get_uint64_array(state_obj, "state", MT_N + 1, &v[0]) < 0 ||
        get_array(out_obj, "out", format, n, 1, 0, &v[1]) < 0) {
        release_all(v, 2);
        return NULL;
    }
    uint64_t *state = v[0].buf;
    Py_BEGIN_ALLOW_THREADS;
    if (format[0] == 'f') {
        if (normal)
            mt_normal_float32(state, v[1].buf, n, (float)p1, (float)p2);
        else
            mt_uniform_float32(state, v[1].buf, n, (float)p1, (float)p2);
    } else {
        if (normal)
            mt_normal_float64(state, v[1].buf, n, p1, p2);
        else
            mt_uniform_float64(state, v[1].buf, n, p1, p2);
    }
    Py_END_ALLOW_THREADS;
    release_all(v, 2);
    Py_RETURN_NONE;
}

static PyObject *mt_uniform(PyObject *self, PyObject *args)
{
    return mt_real(args, 0);
}

static PyObject *mt_normal(PyObject *self, PyObject *args)
{
    return mt_real(args, 1);
}

PyDoc_STRVAR(mt_randint_doc,
             "mt_randint(state, out, n, low, range)\n\n"
             "Fill out (int64, n) as std::uniform_int_distribution(low, low + range - 1) of a\n"
             "64-bit engine draws (libstdc++ 11+: Lemire's method); range in [1, 2**64).");

static PyObject *mt_randint(PyObject *self, PyObject *args)
{
    PyObject *state_obj, *out_obj;
    Py_ssize_t n;
    long long low;
    unsigned long long range;
    if (!PyArg_ParseTuple(args, "OOnLK:mt_randint", &state_obj, &out_obj, &n, &low, &range))
        return NULL;
    if (n < 0 || range == 0) {
        PyErr_Format(PyExc_ValueError, "expected n >= 0 and range >= 1, got %zd and %llu", n,
                     range);
        return NULL;
    }
    Py_buffer v[2];
    memset(v, 0, sizeof v);
    if (get_uint64_array(state_obj, "state", MT_N + 1, &v[0]) < 0 ||
        get_array(out_obj, "out", "l", n, 1, 0, &v[1]) < 0) {
        release_all(v, 2);
        return NULL;
    }
    uint64_t *state = v[0].buf;
    int64_t *out = v[1].buf;
    Py_BEGIN_ALLOW_THREADS;
    for (Py_ssize_t i = 0; i < n; i++)
        out[i] = (int64_t)((uint64_t)low + mt_below(state, range));
    Py_END_ALLOW_THREADS;
    release_all(v, 2);
    Py_RETURN_NONE;
}

/* libstdc++'s std::poisson_distribution<int> of one mean, a new distribution (and so a new
 * normal_distribution<double> member) per element as PHI's CPU poisson kernel makes them:
 * the product of uniforms below exp(-mean) for a mean below 12, else Devroye's rejection
 * method, its exponentials -log(1 - u) as in the libstdc++ PaddlePaddle 3.3.1 was built with
 * (runtime/kernels/mt19937.py's _poisson_one is the Python form). */
static int64_t mt_poisson_one(uint64_t *state, double mean)
{
    if (!(mean >= 12)) {
        const double threshold = exp(-mean);
        int64_t x = 0;
        double product = 1.0;
        do {
            product *= mt_canonical_float64(state);
            x += 1;
        } while (product > threshold);
        return x - 1;
    }
    const double pi_4 = 0.7853981633974483096156608458198757;
    const double spi_2 = 1.2533141373155002512078826424055226;
    const double e178 = 1.0129030479320018583185514777512983;
    const double naf = (1 - 2.220446049250313080847263336181640625e-16) / 2;
    const double m = floor(mean);
    const double lm_thr = log(mean);
    const double lfm = lgamma(m + 1);
    const double sm = sqrt(m);
    const double dx = sqrt(2 * m * log(32 * m / pi_4));
    const double smaller = dx < m ? dx : m;
    const double d = round(6.0 < smaller ? smaller : 6.0);
    const double cx = 2 * m + d;
    const double scx = sqrt(cx / 2);
    const double one_cx = 1 / cx;
    const double c2b = sqrt(pi_4 * cx) * exp(one_cx);
    const double cb = 2 * cx * exp(-d * one_cx * (1 + d / 2)) / d;
    const double thr = 2147483647.0 + naf;
    const double c1 = sm * spi_2;
    const double c2 = c2b + c1;
    const double c3 = c2 + 1;
    const double c4 = c3 + 1;
    const double c5 = c4 + e178;
    const double c = cb + c5;
    const double two_cx = 2 * (2 * m + d);
    int saved_available = 0;
    double saved = 0;
    for (;;) {
        const double u = c * mt_canonical_float64(state);
        const double e = -log(1.0 - mt_canonical_float64(state));
        double w = 0.0, x, n, y;
        if (u <= c1) {
            if (saved_available) {
                n = saved;
                saved_available = 0;
            } else {
                n = mt_polar_float64(state, &saved);
                saved_available = 1;
            }
            y = -fabs(n) * sm - 1;
            x = floor(y);
            w = -n * n / 2;
            if (x < -m)
                continue;
        } else if (u <= c2) {
            if (saved_available) {
                n = saved;
                saved_available = 0;
            } else {
                n = mt_polar_float64(state, &saved);
                saved_available = 1;
            }
            y = 1 + fabs(n) * scx;
            x = ceil(y);
            w = y * (2 - y) * one_cx;
            if (x > d)
                continue;
        } else if (u <= c3) {
            x = -1;
        } else if (u <= c4) {
            x = 0;
        } else if (u <= c5) {
            x = 1;
        } else {
            const double v = -log(1.0 - mt_canonical_float64(state));
            y = d + v * two_cx / d;
            x = ceil(y);
            w = -d * one_cx * (1 + y / 2);
        }
        int reject = w - e - x * lm_thr > lfm - lgamma(x + m + 1);
        reject |= x + m >= thr;
        if (!reject)
            return (int64_t)(int)(x + m + naf);
    }
}

/* The samplers' arguments: state, the input arrays (float32 or float64, n each; `second` may
 * be NULL), out (float32/float64 like the input when `out_like_input`, else int64). */
static int mt_sampler_views(PyObject *state_obj, PyObject *x_obj, PyObject *y_obj,
                            PyObject *out_obj, const char *format, int out_like_input,
                            Py_ssize_t *n, Py_buffer *v)
{
    memset(v, 0, 4 * sizeof(Py_buffer));
    Py_buffer probe;
    if (PyObject_GetBuffer(x_obj, &probe, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    *n = probe.len / probe.itemsize;
    PyBuffer_Release(&probe);
    if (get_uint64_array(state_obj, "state", MT_N + 1, &v[0]) < 0 ||
        get_array(x_obj, "x", format, *n, 0, 0, &v[1]) < 0 ||
        (y_obj && get_array(y_obj, "y", format, *n, 0, 0, &v[2]) < 0) ||
        get_array(out_obj, "out", out_like_input ? format : "l", *n, 1, 0, &v[3]) < 0) {
        release_all(v, 4);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(mt_gamma_doc,
             "mt_gamma(state, alpha, out)\n\n"
             "Fill out (alpha's dtype, float32 or float64) with PHI's CPU gamma draws of shape\n"
             "alpha (scale 1), one element after another over the engine state.");

static PyObject *mt_gamma(PyObject *self, PyObject *args)
{
    PyObject *state_obj, *alpha_obj, *out_obj;
    if (!PyArg_ParseTuple(args, "OOO:mt_gamma", &state_obj, &alpha_obj, &out_obj))
        return NULL;
    const char *format;
    if (!(format = float_format(alpha_obj)))
        return NULL;
    Py_buffer v[4];
    Py_ssize_t n;
    if (mt_sampler_views(state_obj, alpha_obj, NULL, out_obj, format, 1, &n, v) < 0)
        return NULL;
    Py_BEGIN_ALLOW_THREADS;
    if (format[0] == 'f')
        mt_gamma_float32(v[0].buf, v[1].buf, v[3].buf, n, FLT_MIN);
    else
        mt_gamma_float64(v[0].buf, v[1].buf, v[3].buf, n, DBL_MIN);
    Py_END_ALLOW_THREADS;
    release_all(v, 4);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(mt_poisson_doc,
             "mt_poisson(state, rates, out)\n\n"
             "Fill out (int64) with a std::poisson_distribution<int> draw of each rate\n"
             "(float64; each below 2**31), one element after another over the engine state.");

static PyObject *mt_poisson(PyObject *self, PyObject *args)
{
    PyObject *state_obj, *rates_obj, *out_obj;
    if (!PyArg_ParseTuple(args, "OOO:mt_poisson", &state_obj, &rates_obj, &out_obj))
        return NULL;
    Py_buffer v[4];
    Py_ssize_t n;
    if (mt_sampler_views(state_obj, rates_obj, NULL, out_obj, "d", 0, &n, v) < 0)
        return NULL;
    const double *rates = v[1].buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (rates[i] >= 2147483647.0) {
            release_all(v, 4);
            PyErr_Format(PyExc_ValueError, "rates: expected each below 2**31, got %g", rates[i]);
            return NULL;
        }
    }
    Py_BEGIN_ALLOW_THREADS;
    uint64_t *state = v[0].buf;
    int64_t *out = v[3].buf;
    for (Py_ssize_t i = 0; i < n; i++)
        out[i] = mt_poisson_one(state, rates[i]);
    Py_END_ALLOW_THREADS;
    release_all(v, 4);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(mt_binomial_doc,
             "mt_binomial(state, count, prob, out)\n\n"
             "Fill out (int64) with PHI's CPU BinomialFunctor draw of each (count, prob) pair\n"
             "(both float32 or both float64; count finite and below 2**63 and prob not NaN\n"
             "where a draw is needed), one element after another over the engine state.");

static PyObject *mt_binomial(PyObject *self, PyObject *args)
{
    PyObject *state_obj, *count_obj, *prob_obj, *out_obj;
    if (!PyArg_ParseTuple(args, "OOOO:mt_binomial", &state_obj, &count_obj, &prob_obj, &out_obj))
        return NULL;
    const char *format;
    if (!(format = float_format(count_obj)))
        return NULL;
    Py_buffer v[4];
    Py_ssize_t n;
    if (mt_sampler_views(state_obj, count_obj, prob_obj, out_obj, format, 0, &n, v) < 0)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        double count = format[0] == 'f' ? ((float *)v[1].buf)[i] : ((double *)v[1].buf)[i];
        double prob = format[0] == 'f' ? ((float *)v[2].buf)[i] : ((double *)v[2].buf)[i];
        int drawn = !(count <= 0) && !(prob <= 0) && !(prob >= 1);
        if (drawn && !(count < 9223372036854775808.0 && prob == prob)) {
            release_all(v, 4);
            PyErr_Format(PyExc_ValueError,
                         "count and prob: expected a finite count below 2**63 and a prob that "
                         "is not NaN where a draw is needed, got %g and %g at %zd",
                         count, prob, i);
            return NULL;
        }
    }
    Py_BEGIN_ALLOW_THREADS;
    if (format[0] == 'f')
        mt_binomial_float32(v[0].buf, v[1].buf, v[2].buf, v[3].buf, n);
    else
        mt_binomial_float64(v[0].buf, v[1].buf, v[2].buf, v[3].buf, n);
    Py_END_ALLOW_THREADS;
    release_all(v, 4);
    Py_RETURN_NONE;
}

/* ---- a test-mode batch_norm as a per-channel affine map (channel_affine.h) ---- */

#define T float
#define NAME(f) f##_float32
#include "channel_affine.h"
#undef T
#undef NAME

#define T double
#define NAME(f) f##_float64
#include "channel_affine.h"
#undef T
#undef NAME

/* The row arguments of channel_affine and bias_activation: rows of n elements (rows x n valid),
 * channels >= 1 (the row length itself with columns), 0 <= r0 <= r1 <= rows. */
static int check_channel_rows(const char *name, Py_ssize_t rows, Py_ssize_t n,
                              Py_ssize_t channels, int columns, Py_ssize_t r0, Py_ssize_t r1)
{
    if (check_shape(rows, n) < 0)
        return -1;
    if (channels < 1 || (columns && channels != n)) {
        PyErr_Format(PyExc_ValueError,
                     "%s: expected channels >= 1%s, got %zd channels and rows of %zd", name,
                     columns ? " and equal to the row length" : "", channels, n);
        return -1;
    }
    if (r0 < 0 || r0 > r1 || r1 > rows) {
        PyErr_Format(PyExc_ValueError,
                     "%s: expected 0 <= r0 <= r1 <= rows (%zd), got r0 %zd, r1 %zd", name, rows,
                     r0, r1);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(channel_affine_doc,
             "channel_affine(x, scale, shift, rows, n, channels, columns, relu, r0, r1, out)\n\n"
             "Write rows [r0, r1) of out (rows x n) as x * scale + shift per channel, then\n"
             "max(y, 0) (NaN and -0.0 giving +0.0) when relu: with columns, each row of x holds\n"
             "the n == channels channels; without, row r is one plane of channel r % channels.\n"
             "x, scale, shift (channels elements) and out are float32 or float64.");

static PyObject *channel_affine(PyObject *self, PyObject *args)
{
    PyObject *x, *scale, *shift, *out;
    Py_ssize_t rows, n, channels, r0, r1;
    int columns, relu;
    if (!PyArg_ParseTuple(args, "OOOnnnppnnO:channel_affine", &x, &scale, &shift, &rows, &n,
                          &channels, &columns, &relu, &r0, &r1, &out))
        return NULL;
    if (check_channel_rows("channel_affine", rows, n, channels, columns, r0, r1) < 0)
        return NULL;
    const char *format = float_format(x);
    if (!format)
        return NULL;
    Py_buffer v[4];
    memset(v, 0, sizeof v);
    if (get_array(x, "x", format, rows * n, 0, 0, &v[0]) < 0 ||
        get_array(scale, "scale", format, channels, 0, 0, &v[1]) < 0 ||
        get_array(shift, "shift", format, channels, 0, 0, &v[2]) < 0 ||
        get_array(out, "out", format, rows * n, 1, 0, &v[3]) < 0) {
        release_all(v, 4);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS;
    if (format[0] == 'f')
        channel_affine_float32(v[0].buf, v[1].buf, v[2].buf, n, channels, columns, relu, r0, r1,
                               v[3].buf);
    else
        channel_affine_float64(v[0].buf, v[1].buf, v[2].buf, n, channels, columns, relu, r0, r1,
                               v[3].buf);
    Py_END_ALLOW_THREADS;
    release_all(v, 4);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(bias_activation_doc,
             "bias_activation(y, bias, rows, n, channels, columns, act, r0, r1)\n\n"
             "In place, rows [r0, r1) of y (rows x n): y + bias per channel, then act (0 none,\n"
             "1 relu, 2 relu6, with numpy's fmax/maximum/minimum semantics for NaN and -0.0):\n"
             "with columns, each row holds the n == channels channels; without, row r is one\n"
             "plane of channel r % channels. y and bias (channels elements) float32 or float64.");

static PyObject *bias_activation(PyObject *self, PyObject *args)
{
    PyObject *y, *bias;
    Py_ssize_t rows, n, channels, r0, r1;
    int columns, act;
    if (!PyArg_ParseTuple(args, "OOnnnpinn:bias_activation", &y, &bias, &rows, &n, &channels,
                          &columns, &act, &r0, &r1))
        return NULL;
    if (check_channel_rows("bias_activation", rows, n, channels, columns, r0, r1) < 0)
        return NULL;
    if (act < 0 || act > 2) {
        PyErr_Format(PyExc_ValueError, "bias_activation: expected act 0, 1 or 2, got %d", act);
        return NULL;
    }
    const char *format = float_format(y);
    if (!format)
        return NULL;
    Py_buffer v[2];
    memset(v, 0, sizeof v);
    if (get_array(y, "y", format, rows * n, 1, 0, &v[0]) < 0 ||
        get_array(bias, "bias", format, channels, 0, 0, &v[1]) < 0) {
        release_all(v, 2);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS;
    if (format[0] == 'f')
        bias_act_float32(v[0].buf, v[1].buf, n, channels, columns, act, r0, r1);
    else
        bias_act_float64(v[0].buf, v[1].buf, n, channels, columns, act, r0, r1);
    Py_END_ALLOW_THREADS;
    release_all(v, 2);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"bias_activation", bias_activation, METH_VARARGS, bias_activation_doc},
    {"configure_tensor", configure_tensor, METH_VARARGS, configure_tensor_doc},
    {"wrap_tensor", (PyCFunction)(void (*)(void))wrap_tensor, METH_FASTCALL, wrap_tensor_doc},
    {"adam_step", adam_step, METH_VARARGS, adam_step_doc},
    /* adam_steps (issue 16) */
    {"adam_steps", adam_steps, METH_VARARGS, adam_steps_doc},
    {"col2im_2d", col2im_2d, METH_VARARGS, col2im_doc},
    /* issue 26: forward convolution and pooling over row ranges */
    {"depthwise_conv2d", depthwise_conv2d, METH_VARARGS, depthwise_doc},
    {"depthwise_conv2d_nhwc", depthwise_conv2d_nhwc, METH_VARARGS, depthwise_nhwc_doc},
    {"conv_direct_2d", conv_direct_2d, METH_VARARGS, conv_direct_doc},
    {"conv_direct_available", conv_direct_available, METH_NOARGS, conv_direct_available_doc},
    {"im2col_folded_2d", im2col_folded_2d, METH_VARARGS, im2col_folded_doc},
    {"im2col_nhwc_2d", im2col_nhwc_2d, METH_VARARGS, im2col_nhwc_doc},
    {"pool2d", pool2d, METH_VARARGS, pool2d_doc},
    {"pool2d_nhwc", pool2d_nhwc, METH_VARARGS, pool2d_nhwc_doc},
    {"im2col_2d", im2col_2d, METH_VARARGS, im2col_doc},
    {"layer_norm", layer_norm, METH_VARARGS, layer_norm_doc},
    {"gelu", gelu, METH_VARARGS, gelu_doc},
    {"hardswish", hardswish, METH_VARARGS, hardswish_doc},
    {"softmax_rows", softmax_rows, METH_VARARGS, softmax_rows_doc},
    /* a test-mode batch_norm that folds into no producer (runtime/static/passes) */
    {"channel_affine", channel_affine, METH_VARARGS, channel_affine_doc},
    /* issue 26: the rnn op's recurrent steps */
    {"rnn_cell", rnn_cell, METH_VARARGS, rnn_cell_doc},
    {"rnn_sequence", rnn_sequence, METH_VARARGS, rnn_sequence_doc},
    {"rnn_sequence_grad", rnn_sequence_grad, METH_VARARGS, rnn_sequence_grad_doc},
    {"layer_norm_grad", layer_norm_grad, METH_VARARGS, layer_norm_grad_doc},
    /* issue 26: multiclass_nms3's greedy walk */
    {"nms_greedy", nms_greedy, METH_VARARGS, nms_greedy_doc},
    {"roi_align", roi_align, METH_VARARGS, roi_align_doc},
    /* issue 24: PaddlePaddle's CPU random numbers */
    {"mt_raw", mt_raw, METH_VARARGS, mt_raw_doc},
    {"mt_uniform", mt_uniform, METH_VARARGS, mt_real_doc},
    {"mt_normal", mt_normal, METH_VARARGS, mt_real_doc},
    {"mt_randint", mt_randint, METH_VARARGS, mt_randint_doc},
    {"mt_gamma", mt_gamma, METH_VARARGS, mt_gamma_doc},
    {"mt_poisson", mt_poisson, METH_VARARGS, mt_poisson_doc},
    {"mt_binomial", mt_binomial, METH_VARARGS, mt_binomial_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "runtime.kernels._native",
    "Optional compiled kernels for phiops (layer_norm, gelu, hardswish, softmax, conv2d columns, depthwise conv2d and pool2d (channels first or last), Adam, rnn steps, NMS, roi_align, the per-channel affine map of a test-mode batch_norm, mt19937_64, the Tensor wrap); see runtime/kernels/native.py.", -1,
    methods,
};

PyMODINIT_FUNC PyInit__native(void)
{
    return PyModule_Create(&module);
}
