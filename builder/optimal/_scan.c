/* The exact search's compiled core: one scan of a target set by many guesses.
 *
 * guesswork.builder.optimal._scan.Scanner holds a reply matrix (target-major:
 * matrix[t, g] is the reply to guess g when the secret is target t) with the
 * bound tables of one search, and answers two questions about a target set:
 *
 * - scan: each candidate's static lower bound, kept compactly when below a
 *   budget (see builder/optimal/bounds.py, which documents the bound);
 * - distinct: the most distinct replies any candidate gives, capped.
 *
 * Two functions take the matrix itself, for one guess: group (the set's
 * classes, a counting sort) and labels (its canonical partition).
 *
 * Written in C rather than numba so that a proof runs without a JIT: no
 * compiler loaded at start-up, and a process a third the size (the numba
 * runtime alone is 65 MB). The loops for 8-, 16- and 32-bit reply codes come
 * from one template, _scan_loops.h. Every call checks its arguments (types,
 * sizes, indices) and raises rather than read out of bounds.
 */
#include "../_buffers.h"
#include <structmember.h>

/* Larger than any objective value: "no tree" (bounds.py's INFEASIBLE). */
#define INFEASIBLE ((int64_t)1 << 40)

typedef struct {
    PyObject_HEAD
    Py_buffer matrix; /* targets x guesses */
    Py_buffer table, plogp_table, weights;
    Py_buffer index, bound, closed, squares, plogp, distinct; /* outputs */
    int taken;                                                /* buffers held (10 when ready) */
    Py_ssize_t n_targets, n_guesses;
    int64_t win, max_code;
    int minimax;
    int64_t *counts, *touched, *mass, *heaviest, *lightest; /* per reply code */
    const char **rows;      /* one per target of the set being scanned */
    const int64_t *targets; /* the set being scanned (during a call) */
} Scanner;

/* The least weighted total any tree spends on a class (bounds.weighted_class_bound). */
static inline int64_t weighted_class_bound(int64_t mass, int64_t heaviest, int64_t lightest,
                                           int64_t size, int64_t table_m)
{
    if (table_m >= INFEASIBLE)
        return INFEASIBLE;
    return 2 * mass - heaviest + lightest * (table_m - 2 * size + 1);
}

#define CODE_T uint8_t
#define NAME(x) x##_u8
#include "_scan_loops.h"
#undef CODE_T
#undef NAME
#define CODE_T uint16_t
#define NAME(x) x##_u16
#include "_scan_loops.h"
#undef CODE_T
#undef NAME
#define CODE_T uint32_t
#define NAME(x) x##_u32
#include "_scan_loops.h"
#undef CODE_T
#undef NAME

static Py_buffer *held(Scanner *s, int i)
{
    Py_buffer *all[] = {&s->matrix, &s->table,   &s->plogp_table, &s->weights,
                        &s->index,  &s->bound,   &s->closed,      &s->squares,
                        &s->plogp,  &s->distinct};
    return all[i];
}

static void release_all(Scanner *s)
{
    for (int i = 0; i < s->taken; i++)
        PyBuffer_Release(held(s, i));
    s->taken = 0;
    PyMem_Free(s->counts);
    PyMem_Free((void *)s->rows);
    s->counts = NULL;
    s->rows = NULL;
}

static void Scanner_dealloc(Scanner *s)
{
    release_all(s);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int Scanner_init(Scanner *s, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"matrix", "win",   "table",  "plogp_table", "minimax",
                            "weights", "index", "bound",  "closed",      "squares",
                            "plogp",  "distinct", NULL};
    PyObject *obj[10];
    long long win;
    int minimax;
    release_all(s);
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OLOOpOOOOOOO", names, &obj[0], &win, &obj[1],
                                     &obj[2], &minimax, &obj[3], &obj[4], &obj[5], &obj[6],
                                     &obj[7], &obj[8], &obj[9]))
        return -1;
    struct {
        int ndim;
        Py_ssize_t itemsize;
        enum kind kind;
        int writable;
        const char *name;
    } want[] = {{2, 0, UNSIGNED, 0, "matrix"}, {1, 8, SIGNED, 0, "table"},
                {1, 8, FLOAT, 0, "plogp_table"}, {1, 8, SIGNED, 0, "weights"},
                {1, 8, SIGNED, 1, "index"},      {1, 8, SIGNED, 1, "bound"},
                {1, 1, SIGNED, 1, "closed"},     {1, 8, SIGNED, 1, "squares"},
                {1, 8, FLOAT, 1, "plogp"},       {1, 4, SIGNED, 1, "distinct"}};
    for (int i = 0; i < 10; i++) {
        if (take(obj[i], held(s, i), want[i].ndim, want[i].itemsize, want[i].kind,
                 want[i].writable, want[i].name) < 0) {
            release_all(s);
            return -1;
        }
        s->taken = i + 1;
    }
    s->n_targets = s->matrix.shape[0];
    s->n_guesses = s->matrix.shape[1];
    s->win = win;
    s->minimax = minimax;
    Py_ssize_t outputs = length_of(&s->index);
    const char *problem = NULL;
    if (length_of(&s->table) <= s->n_targets || length_of(&s->plogp_table) <= s->n_targets)
        problem = "the bound tables need an entry for every set size up to the targets";
    else if (length_of(&s->weights) != 0 && length_of(&s->weights) != s->n_targets)
        problem = "weights: one per target, or none";
    else if (length_of(&s->bound) < outputs || length_of(&s->closed) < outputs ||
             length_of(&s->squares) < outputs || length_of(&s->plogp) < outputs ||
             length_of(&s->distinct) < outputs)
        problem = "the output arrays must all be as long as index";
    if (problem) {
        PyErr_SetString(PyExc_ValueError, problem);
        release_all(s);
        return -1;
    }
    /* The largest code sizes the per-code scratch, so no code can index past it. */
    int64_t max_code = 0;
    Py_ssize_t cells = length_of(&s->matrix);
    const int size = (int)s->matrix.itemsize;
    for (Py_ssize_t i = 0; i < cells; i++) {
        int64_t code = size == 1   ? ((const uint8_t *)s->matrix.buf)[i]
                       : size == 2 ? ((const uint16_t *)s->matrix.buf)[i]
                                   : ((const uint32_t *)s->matrix.buf)[i];
        if (code > max_code)
            max_code = code;
    }
    if (s->win > max_code)
        max_code = s->win;
    s->max_code = max_code;
    Py_ssize_t codes = (Py_ssize_t)max_code + 2;
    s->counts = PyMem_Calloc((size_t)codes * 5, sizeof(int64_t));
    s->rows = PyMem_Calloc((size_t)(s->n_targets ? s->n_targets : 1), sizeof(char *));
    if (s->counts == NULL || s->rows == NULL) {
        release_all(s);
        PyErr_NoMemory();
        return -1;
    }
    s->touched = s->counts + codes;
    s->mass = s->counts + 2 * codes;
    s->heaviest = s->counts + 3 * codes;
    s->lightest = s->counts + 4 * codes;
    return 0;
}

/* Take the set `targets` and point the rows at it; returns -1 with an error set. */
static int begin(Scanner *s, PyObject *targets, Py_buffer *view)
{
    if (s->taken == 0) {
        PyErr_SetString(PyExc_RuntimeError, "the scanner was not initialised");
        return -1;
    }
    if (take(targets, view, 1, 8, SIGNED, 0, "targets") < 0)
        return -1;
    Py_ssize_t n = length_of(view);
    int bad = n > s->n_targets;
    if (!bad) {
        const int64_t *t = (const int64_t *)view->buf;
        bad = s->matrix.itemsize == 1   ? point_rows_u8(s, t, n)
              : s->matrix.itemsize == 2 ? point_rows_u16(s, t, n)
                                        : point_rows_u32(s, t, n);
        s->targets = t;
    }
    if (bad) {
        PyErr_SetString(PyExc_IndexError, "a target is outside the reply matrix");
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static PyObject *bad_guess(void)
{
    PyErr_SetString(PyExc_IndexError, "a guess is outside the reply matrix");
    return NULL;
}

PyDoc_STRVAR(scan_doc,
             "scan(candidates, targets, max_class, budget, stop_at, caps) -> (kept, excluded)\n\n"
             "Partition ``targets`` by each candidate; keep those whose static bound is\n"
             "below ``budget`` (see builder/optimal/bounds.py). ``caps``: each guess's\n"
             "most distinct replies (by vocabulary row; empty: none; the unweighted total\n"
             "objective only).");

static PyObject *Scanner_scan(Scanner *s, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "scan takes 6 arguments");
        return NULL;
    }
    long long max_class = PyLong_AsLongLong(args[2]), budget = PyLong_AsLongLong(args[3]),
              stop_at = PyLong_AsLongLong(args[4]);
    if (PyErr_Occurred())
        return NULL;
    Py_buffer cand, targets, caps;
    if (take(args[0], &cand, 1, 8, SIGNED, 0, "candidates") < 0)
        return NULL;
    if (take(args[5], &caps, 1, 8, SIGNED, 0, "caps") < 0) {
        PyBuffer_Release(&cand);
        return NULL;
    }
    if (begin(s, args[1], &targets) < 0) {
        PyBuffer_Release(&cand);
        PyBuffer_Release(&caps);
        return NULL;
    }
    Py_ssize_t nc = length_of(&cand), n = length_of(&targets);
    int64_t kept = 0, excluded = INFEASIBLE;
    int status = 0;
    if (nc > length_of(&s->index)) {
        PyErr_SetString(PyExc_ValueError, "more candidates than the output arrays hold");
        status = -2;
    } else if (length_of(&caps) != 0 &&
               (length_of(&caps) < s->n_guesses || s->minimax || length_of(&s->weights))) {
        PyErr_SetString(PyExc_ValueError,
                        "caps: one per guess, for the unweighted total objective only");
        status = -2;
    } else {
        const int64_t *c = (const int64_t *)cand.buf;
        const int64_t *cap = length_of(&caps) ? (const int64_t *)caps.buf : NULL;
        Py_BEGIN_ALLOW_THREADS;
        status = s->matrix.itemsize == 1
                     ? scan_u8(s, c, nc, n, max_class, budget, stop_at, cap, &kept, &excluded)
                 : s->matrix.itemsize == 2
                     ? scan_u16(s, c, nc, n, max_class, budget, stop_at, cap, &kept, &excluded)
                     : scan_u32(s, c, nc, n, max_class, budget, stop_at, cap, &kept, &excluded);
        Py_END_ALLOW_THREADS;
    }
    PyBuffer_Release(&cand);
    PyBuffer_Release(&caps);
    PyBuffer_Release(&targets);
    if (status == -1)
        return bad_guess();
    if (status < 0)
        return NULL;
    return Py_BuildValue("LL", (long long)kept, (long long)excluded);
}

PyDoc_STRVAR(distinct_doc,
             "distinct(candidates, targets, enough, caps, probe) -> (count, guess)\n\n"
             "The most distinct reply codes any splitting guess gives ``targets``, the\n"
             "win counted twice, and the first guess found with that count (-1: none;\n"
             "see bounds.ScanKernel.distinct_replies).");

static PyObject *Scanner_distinct(Scanner *s, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "distinct takes 5 arguments");
        return NULL;
    }
    if (s->max_code >= 256) {
        PyErr_SetString(PyExc_ValueError, "distinct replies are counted for codes below 256 only");
        return NULL;
    }
    long long enough = PyLong_AsLongLong(args[2]);
    if (PyErr_Occurred())
        return NULL;
    Py_buffer cand, targets, caps, probe;
    if (take(args[0], &cand, 1, 8, SIGNED, 0, "candidates") < 0)
        return NULL;
    if (take(args[3], &caps, 1, 8, SIGNED, 0, "caps") < 0) {
        PyBuffer_Release(&cand);
        return NULL;
    }
    if (take(args[4], &probe, 1, 8, SIGNED, 0, "probe") < 0) {
        PyBuffer_Release(&cand);
        PyBuffer_Release(&caps);
        return NULL;
    }
    if (begin(s, args[1], &targets) < 0) {
        PyBuffer_Release(&cand);
        PyBuffer_Release(&caps);
        PyBuffer_Release(&probe);
        return NULL;
    }
    int64_t best = 0, which = -1;
    int wrong_caps = length_of(&caps) != 0 && length_of(&caps) < s->n_guesses;
    if (!wrong_caps) {
        const int64_t *c = (const int64_t *)cand.buf, *p = (const int64_t *)probe.buf;
        const int64_t *cap = length_of(&caps) ? (const int64_t *)caps.buf : NULL;
        Py_ssize_t nc = length_of(&cand), n = length_of(&targets), np = length_of(&probe);
        Py_BEGIN_ALLOW_THREADS;
        best = s->matrix.itemsize == 1   ? distinct_u8(s, c, nc, n, enough, cap, p, np, &which)
               : s->matrix.itemsize == 2 ? distinct_u16(s, c, nc, n, enough, cap, p, np, &which)
                                         : distinct_u32(s, c, nc, n, enough, cap, p, np, &which);
        Py_END_ALLOW_THREADS;
    }
    PyBuffer_Release(&cand);
    PyBuffer_Release(&caps);
    PyBuffer_Release(&probe);
    PyBuffer_Release(&targets);
    if (wrong_caps) {
        PyErr_SetString(PyExc_ValueError, "caps: one per guess, or none");
        return NULL;
    }
    if (best < 0)
        return bad_guess();
    return Py_BuildValue("LL", (long long)best, (long long)which);
}

/* Take (matrix, guess, targets) for group and labels, checking every target; -1
 * with an error set (and nothing held). On success `size` is one more than the
 * targets' largest code and `scratch` has size + 1 entries. */
static int one_guess(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t want, Py_buffer *matrix,
                     int64_t *guess, Py_buffer *targets, int64_t *size, int64_t **scratch)
{
    if (nargs != want) {
        PyErr_Format(PyExc_TypeError, "takes %zd arguments", want);
        return -1;
    }
    *guess = PyLong_AsLongLong(args[1]);
    if (PyErr_Occurred())
        return -1;
    if (take(args[0], matrix, 2, 0, UNSIGNED, 0, "matrix") < 0)
        return -1;
    if ((uint64_t)*guess >= (uint64_t)matrix->shape[1]) {
        PyBuffer_Release(matrix);
        bad_guess();
        return -1;
    }
    if (take(args[2], targets, 1, 8, SIGNED, 0, "targets") < 0) {
        PyBuffer_Release(matrix);
        return -1;
    }
    /* The codes a set can have: at most 2**32 in principle, but only those of
       its own targets are touched; size the scratch by their largest. */
    Py_ssize_t n = length_of(targets);
    const int64_t *t = targets->buf;
    int64_t largest = 0;
    for (Py_ssize_t j = 0; j < n; j++) {
        if ((uint64_t)t[j] >= (uint64_t)matrix->shape[0]) {
            largest = -1;
            break;
        }
        Py_ssize_t at = t[j] * matrix->shape[1] + *guess;
        int64_t code = matrix->itemsize == 1   ? ((const uint8_t *)matrix->buf)[at]
                       : matrix->itemsize == 2 ? ((const uint16_t *)matrix->buf)[at]
                                               : ((const uint32_t *)matrix->buf)[at];
        if (code > largest)
            largest = code;
    }
    if (largest < 0) {
        PyErr_SetString(PyExc_IndexError, "a target is outside the reply matrix");
    } else {
        *size = largest + 1;
        *scratch = PyMem_Malloc((size_t)(largest + 2) * sizeof(int64_t));
        if (*scratch != NULL)
            return 0;
        PyErr_NoMemory();
    }
    PyBuffer_Release(matrix);
    PyBuffer_Release(targets);
    return -1;
}

PyDoc_STRVAR(group_doc,
             "group(matrix, guess, targets, ordered, starts, codes) -> int\n\n"
             "Write ``targets`` grouped by their reply to ``guess`` in the target-major\n"
             "``matrix`` (codes ascending, list order kept within a code) into\n"
             "``ordered``, each group's start (and the end, last) into ``starts``, each\n"
             "group's code into ``codes`` (int64 arrays of at least n, n + 1 and n\n"
             "entries for n targets); return the number of groups.");

static PyObject *group(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    int64_t guess, size, *scratch;
    Py_buffer matrix, targets, out[3];
    if (one_guess(args, nargs, 6, &matrix, &guess, &targets, &size, &scratch) < 0)
        return NULL;
    const char *names[] = {"ordered", "starts", "codes"};
    int got = 0;
    for (; got < 3; got++)
        if (take(args[3 + got], &out[got], 1, 8, SIGNED, 1, names[got]) < 0)
            break;
    Py_ssize_t n = length_of(&targets), groups = -1;
    if (got == 3) {
        if (length_of(&out[0]) < n || length_of(&out[1]) < n + 1 || length_of(&out[2]) < n)
            PyErr_SetString(PyExc_ValueError, "the group outputs are too short for the set");
        else {
            const Py_ssize_t cols = matrix.shape[1];
            const int64_t *t = targets.buf;
            groups = matrix.itemsize == 1
                         ? group_u8(matrix.buf, cols, guess, t, n, size, scratch, out[0].buf,
                                    out[1].buf, out[2].buf)
                     : matrix.itemsize == 2
                         ? group_u16(matrix.buf, cols, guess, t, n, size, scratch, out[0].buf,
                                     out[1].buf, out[2].buf)
                         : group_u32(matrix.buf, cols, guess, t, n, size, scratch, out[0].buf,
                                     out[1].buf, out[2].buf);
        }
    }
    for (int i = 0; i < got; i++)
        PyBuffer_Release(&out[i]);
    PyBuffer_Release(&targets);
    PyBuffer_Release(&matrix);
    PyMem_Free(scratch);
    return groups < 0 ? NULL : PyLong_FromSsize_t(groups);
}

PyDoc_STRVAR(labels_doc,
             "labels(matrix, guess, targets, win, out) -> int\n\n"
             "Write each target's class label under ``guess`` into ``out`` (int32): classes\n"
             "numbered by first appearance, the win (reply ``win``) counted in that order\n"
             "but labelled 255. Return the number of classes, the win's included.");

static PyObject *labels(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    int64_t guess, size, *scratch;
    Py_buffer matrix, targets, out;
    const long long win = nargs == 5 ? PyLong_AsLongLong(args[3]) : 0;
    if (PyErr_Occurred())
        return NULL;
    if (one_guess(args, nargs, 5, &matrix, &guess, &targets, &size, &scratch) < 0)
        return NULL;
    Py_ssize_t n = length_of(&targets), count = -1;
    if (take(args[4], &out, 1, 4, SIGNED, 1, "out") == 0) {
        if (length_of(&out) < n)
            PyErr_SetString(PyExc_ValueError, "out is shorter than the set");
        else {
            const Py_ssize_t cols = matrix.shape[1];
            const int64_t *t = targets.buf;
            count = matrix.itemsize == 1
                        ? labels_u8(matrix.buf, cols, guess, t, n, size, win, scratch, out.buf)
                    : matrix.itemsize == 2
                        ? labels_u16(matrix.buf, cols, guess, t, n, size, win, scratch, out.buf)
                        : labels_u32(matrix.buf, cols, guess, t, n, size, win, scratch, out.buf);
        }
        PyBuffer_Release(&out);
    }
    PyBuffer_Release(&targets);
    PyBuffer_Release(&matrix);
    PyMem_Free(scratch);
    return count < 0 ? NULL : PyLong_FromSsize_t(count);
}

static PyMemberDef Scanner_members[] = {
    {"max_code", T_LONGLONG, offsetof(Scanner, max_code), READONLY,
     "The largest reply code in the matrix (or the win's, if larger)."},
    {NULL, 0, 0, 0, NULL}};

static PyMethodDef Scanner_methods[] = {
    {"scan", (PyCFunction)(void (*)(void))Scanner_scan, METH_FASTCALL, scan_doc},
    {"distinct", (PyCFunction)(void (*)(void))Scanner_distinct, METH_FASTCALL, distinct_doc},
    {NULL, NULL, 0, NULL}};

static PyMethodDef module_methods[] = {
    {"group", (PyCFunction)(void (*)(void))group, METH_FASTCALL, group_doc},
    {"labels", (PyCFunction)(void (*)(void))labels, METH_FASTCALL, labels_doc},
    {NULL, NULL, 0, NULL}};

PyDoc_STRVAR(Scanner_doc,
             "Scanner(matrix, win, table, plogp_table, minimax, weights, index, bound,\n"
             "        closed, squares, plogp, distinct)\n\n"
             "One search's reply matrix (target-major, unsigned 8/16/32-bit codes), bound\n"
             "tables and output arrays (see builder/optimal/bounds.py: ScanKernel).");

static PyTypeObject ScannerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "guesswork.builder.optimal._scan.Scanner",
    .tp_basicsize = sizeof(Scanner),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = Scanner_doc,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Scanner_init,
    .tp_dealloc = (destructor)Scanner_dealloc,
    .tp_methods = Scanner_methods,
    .tp_members = Scanner_members,
};

static struct PyModuleDef scan_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_scan",
    .m_doc = "The exact search's compiled scan (see builder/optimal/bounds.py).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__scan(void)
{
    if (PyType_Ready(&ScannerType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&scan_module);
    if (module == NULL)
        return NULL;
    Py_INCREF(&ScannerType);
    if (PyModule_AddObject(module, "Scanner", (PyObject *)&ScannerType) < 0) {
        Py_DECREF(&ScannerType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
