/* The greedy metrics and the greedy tree grower, compiled (builder/partitions.py
 * and builder/greedy_tree.py document them and call them).
 *
 * guesswork.builder._partitions ranks guesses by a metric of their partitions
 * (metric_values: live answers and the stored alternatives), computes
 * approx_entropy's letter estimate, and grows whole greedy trees (grow),
 * calling those kernels (builder/_partitions.h, and per reply-code type
 * builder/_partitions_loops.h) and NYT hard mode's rule (builder/_nyt_rule.h)
 * directly. In C so that no command waits for a JIT; every float is the seeds'
 * (see _partitions.h). Every call checks its arguments (types, sizes, indices)
 * and raises rather than read or write out of bounds; the loops run without
 * the GIL, so callers may rank on threads.
 */
#include "_buffers.h"
#include "_nyt_rule.h"
#include "_partitions.h"

#include <stdlib.h>

/* grow's outcomes: OK (state[4] says whether the tree is stuck) or an error. */
#define GROW_OK 0
#define GROW_STUCK 1 /* state[4]'s value (greedy_tree._STUCK) */
#define GROW_BAD_CODE (-1)
#define GROW_BAD_NODE (-2)
#define GROW_FULL (-3)
#define GROW_NO_GUESS (-4)

/* One call of grow: its arrays and settings, and the scratch it allocates. */
typedef struct {
    const void *matrix; /* vocabulary x targets */
    int64_t cols, n_targets, n_guesses, space, capacity;
    const int64_t *target_to_guess;
    int metric, arithmetic, hard, nyt;
    int64_t window_low, window_high, win, work_budget;
    const double *randoms, *weights;
    int64_t n_weights;
    int64_t *perm, *scratch, *counts, *order, *fill, *sizes;
    double *terms, *mass;
    int64_t *node_guess, *node_size, *node_depth, *node_start, *edge_offsets, *edge_reply,
        *edge_child, *target_scores, *state;
    const uint8_t *nyt_letters; /* vocabulary x length */
    int8_t *nyt_states;         /* capacity x nyt_width */
    int64_t length, nyt_width, nyt_letter_count;
    const uint8_t *letters; /* approx_entropy: vocabulary x estimate.length */
    double retry_percent;
    /* allocated here */
    double *node_weights;
    int64_t *consistent, *candidates, *chosen;
    Letters estimate;
} Grow;

#define CODE_T uint8_t
#define NAME(x) x##_u8
#include "_partitions_loops.h"
#undef CODE_T
#undef NAME
#define CODE_T uint16_t
#define NAME(x) x##_u16
#include "_partitions_loops.h"
#undef CODE_T
#undef NAME
#define CODE_T uint32_t
#define NAME(x) x##_u32
#include "_partitions_loops.h"
#undef CODE_T
#undef NAME

/* ---- argument helpers ---- */

/* How to take one array argument (see take in _buffers.h). */
typedef struct {
    int ndim;
    Py_ssize_t itemsize; /* 0: 1, 2 or 4 bytes */
    enum kind kind;
    int writable;
    const char *name;
} Spec;

#define MATRIX(name) {2, 0, UNSIGNED, 0, name}
#define INDICES(name) {1, 8, SIGNED, 0, name}
#define INTS_OUT(name) {1, 8, SIGNED, 1, name}
#define FLOATS(name) {1, 8, FLOAT, 0, name}
#define FLOATS_OUT(name) {1, 8, FLOAT, 1, name}

/* Take args[at[i]] by specs[i] into views[i], i < count; -1 (all released) on error. */
static int take_all(PyObject *const *args, const int *at, const Spec *specs, int count,
                    Py_buffer *views)
{
    for (int i = 0; i < count; i++)
        if (take(args[at[i]], &views[i], specs[i].ndim, specs[i].itemsize, specs[i].kind,
                 specs[i].writable, specs[i].name) < 0) {
            while (i-- > 0)
                PyBuffer_Release(&views[i]);
            return -1;
        }
    return 0;
}

static void release_all(Py_buffer *views, int count)
{
    for (int i = 0; i < count; i++)
        PyBuffer_Release(&views[i]);
}

static int arity(Py_ssize_t nargs, Py_ssize_t least, Py_ssize_t most, const char *name)
{
    if (nargs >= least && nargs <= most)
        return 0;
    PyErr_Format(PyExc_TypeError, "%s takes %zd arguments", name, most);
    return -1;
}

/* An integer argument; -1 with an error set (check PyErr_Occurred). */
static int64_t integer(PyObject *obj)
{
    return (int64_t)PyLong_AsLongLong(obj);
}

/* Whether every values[:n] lies in [0, limit). */
static int all_below(const int64_t *values, Py_ssize_t n, int64_t limit)
{
    for (Py_ssize_t i = 0; i < n; i++)
        if ((uint64_t)values[i] >= (uint64_t)limit)
            return 0;
    return 1;
}

static PyObject *fail(PyObject *type, const char *message)
{
    PyErr_SetString(type, message);
    return NULL;
}

static const char *BAD_CODE = "a reply code of the matrix is past the reply space";

/* ---- the kernels of builder/partitions.py ---- */

PyDoc_STRVAR(fill_terms_doc, "fill_terms(total, metric, arithmetic, terms) -> None\n\n"
                             "See builder.partitions.fill_terms (terms: float64).");

static PyObject *py_fill_terms(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (arity(nargs, 4, 4, "fill_terms") < 0)
        return NULL;
    const int64_t total = integer(args[0]);
    const int metric = (int)integer(args[1]), arithmetic = (int)integer(args[2]);
    if (PyErr_Occurred())
        return NULL;
    static const int at[] = {3};
    static const Spec specs[] = {FLOATS_OUT("terms")};
    Py_buffer terms;
    if (take_all(args, at, specs, 1, &terms) < 0)
        return NULL;
    const int ok = total >= 0 && length_of(&terms) > total;
    if (ok)
        fill_terms(total, metric, arithmetic, terms.buf);
    PyBuffer_Release(&terms);
    if (!ok)
        return fail(PyExc_ValueError, "terms must hold total + 1 entries");
    Py_RETURN_NONE;
}

PyDoc_STRVAR(metric_of_counts_doc,
             "metric_of_counts(counts, order, n_codes, metric, arithmetic, terms, sizes,\n"
             "                 bound=inf) -> float\n\n"
             "See builder.partitions.metric_of_counts (int64 counts, order, sizes; float64 "
             "terms).");

static PyObject *py_metric_of_counts(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (arity(nargs, 7, 8, "metric_of_counts") < 0)
        return NULL;
    const int64_t n_codes = integer(args[2]);
    const int metric = (int)integer(args[3]), arithmetic = (int)integer(args[4]);
    const double bound = nargs == 8 ? PyFloat_AsDouble(args[7]) : INFINITY;
    if (PyErr_Occurred())
        return NULL;
    static const int at[] = {0, 1, 5, 6};
    static const Spec specs[] = {INDICES("counts"), INDICES("order"), FLOATS("terms"),
                                 INTS_OUT("sizes")};
    Py_buffer v[4];
    if (take_all(args, at, specs, 4, v) < 0)
        return NULL;
    const int64_t *counts = v[0].buf, *order = v[1].buf;
    int ok = n_codes >= 0 && n_codes <= length_of(&v[1]) && n_codes <= length_of(&v[3]) &&
             all_below(order, n_codes, length_of(&v[0]));
    for (int64_t i = 0; ok && i < n_codes; i++)
        ok = (uint64_t)counts[order[i]] < (uint64_t)length_of(&v[2]);
    double value = 0.0;
    if (ok)
        value = metric_of_counts(counts, order, n_codes, metric, arithmetic, v[2].buf, v[3].buf,
                                 bound);
    release_all(v, 4);
    if (!ok)
        return fail(PyExc_ValueError, "the codes, counts and arrays do not fit");
    return PyFloat_FromDouble(value);
}

PyDoc_STRVAR(count_replies_doc,
             "count_replies(matrix, guess, targets, counts, order) -> int\n\n"
             "See builder.partitions.count_replies (int64 targets, counts, order).");

static PyObject *py_count_replies(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (arity(nargs, 5, 5, "count_replies") < 0)
        return NULL;
    const int64_t guess = integer(args[1]);
    if (PyErr_Occurred())
        return NULL;
    static const int at[] = {0, 2, 3, 4};
    static const Spec specs[] = {MATRIX("matrix"), INDICES("targets"), INTS_OUT("counts"),
                                 INTS_OUT("order")};
    Py_buffer v[4];
    if (take_all(args, at, specs, 4, v) < 0)
        return NULL;
    const int64_t rows = v[0].shape[0], cols = v[0].shape[1], n = length_of(&v[1]);
    const int64_t space = length_of(&v[2]);
    int64_t n_codes = -2;
    if ((uint64_t)guess < (uint64_t)rows && all_below(v[1].buf, n, cols) &&
        length_of(&v[3]) >= (n < space ? n : space)) {
        const int64_t *targets = v[1].buf;
        if (v[0].itemsize == 1)
            n_codes = count_replies_u8((const uint8_t *)v[0].buf + guess * cols, 1, targets, n,
                                       space, v[2].buf, v[3].buf);
        else if (v[0].itemsize == 2)
            n_codes = count_replies_u16((const uint16_t *)v[0].buf + guess * cols, 1, targets,
                                        n, space, v[2].buf, v[3].buf);
        else
            n_codes = count_replies_u32((const uint32_t *)v[0].buf + guess * cols, 1, targets,
                                        n, space, v[2].buf, v[3].buf);
    }
    release_all(v, 4);
    if (n_codes == -2)
        return fail(PyExc_ValueError, "the guess, targets or arrays do not fit the matrix");
    if (n_codes < 0)
        return fail(PyExc_ValueError, BAD_CODE);
    return PyLong_FromLongLong(n_codes);
}

PyDoc_STRVAR(metric_of_masses_doc,
             "metric_of_masses(mass, order, n_codes, metric, total, win) -> float\n\n"
             "See builder.partitions.metric_of_masses (float64 mass, int64 order).");

static PyObject *py_metric_of_masses(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (arity(nargs, 6, 6, "metric_of_masses") < 0)
        return NULL;
    const int64_t n_codes = integer(args[2]), win = integer(args[5]);
    const int metric = (int)integer(args[3]);
    const double total = PyFloat_AsDouble(args[4]);
    if (PyErr_Occurred())
        return NULL;
    static const int at[] = {0, 1};
    static const Spec specs[] = {FLOATS("mass"), INDICES("order")};
    Py_buffer v[2];
    if (take_all(args, at, specs, 2, v) < 0)
        return NULL;
    const int ok = n_codes >= 0 && n_codes <= length_of(&v[1]) &&
                   all_below(v[1].buf, n_codes, length_of(&v[0]));
    const double value = ok ? metric_of_masses(v[0].buf, v[1].buf, n_codes, metric, total, win)
                            : 0.0;
    release_all(v, 2);
    if (!ok)
        return fail(PyExc_ValueError, "the codes do not fit the masses");
    return PyFloat_FromDouble(value);
}

PyDoc_STRVAR(weigh_replies_doc,
             "weigh_replies(matrix, target_major, guess, targets, weights, counts, order, mass)"
             " -> int\n\n"
             "See builder.partitions.weigh_replies (int64 targets, counts, order; float64 "
             "weights, mass).");

static PyObject *py_weigh_replies(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (arity(nargs, 8, 8, "weigh_replies") < 0)
        return NULL;
    const int target_major = PyObject_IsTrue(args[1]);
    const int64_t guess = integer(args[2]);
    if (target_major < 0 || PyErr_Occurred())
        return NULL;
    static const int at[] = {0, 3, 4, 5, 6, 7};
    static const Spec specs[] = {MATRIX("matrix"),   INDICES("targets"), FLOATS("weights"),
                                 INTS_OUT("counts"), INTS_OUT("order"),  FLOATS_OUT("mass")};
    Py_buffer v[6];
    if (take_all(args, at, specs, 6, v) < 0)
        return NULL;
    const int64_t rows = v[0].shape[0], cols = v[0].shape[1], n = length_of(&v[1]);
    const int64_t guesses = target_major ? cols : rows, targets_in = target_major ? rows : cols;
    const int64_t space =
        length_of(&v[3]) < length_of(&v[5]) ? length_of(&v[3]) : length_of(&v[5]);
    int64_t n_codes = -2;
    if ((uint64_t)guess < (uint64_t)guesses && all_below(v[1].buf, n, targets_in) &&
        length_of(&v[2]) >= n && length_of(&v[4]) >= (n < space ? n : space)) {
        const int64_t first = target_major ? guess : guess * cols, stride = target_major ? cols : 1;
        if (v[0].itemsize == 1)
            n_codes = weigh_replies_u8((const uint8_t *)v[0].buf + first, stride, v[1].buf, n,
                                       v[2].buf, space, v[3].buf, v[4].buf, v[5].buf);
        else if (v[0].itemsize == 2)
            n_codes = weigh_replies_u16((const uint16_t *)v[0].buf + first, stride, v[1].buf, n,
                                        v[2].buf, space, v[3].buf, v[4].buf, v[5].buf);
        else
            n_codes = weigh_replies_u32((const uint32_t *)v[0].buf + first, stride, v[1].buf, n,
                                        v[2].buf, space, v[3].buf, v[4].buf, v[5].buf);
    }
    release_all(v, 6);
    if (n_codes == -2)
        return fail(PyExc_ValueError, "the guess, targets or arrays do not fit the matrix");
    if (n_codes < 0)
        return fail(PyExc_ValueError, BAD_CODE);
    return PyLong_FromLongLong(n_codes);
}

PyDoc_STRVAR(metric_values_doc,
             "metric_values(matrix, target_major, candidates, targets, metric, arithmetic,\n"
             "              reply_space, weights, win, values) -> None\n\n"
             "Write into ``values`` (float64, one per candidate) each candidate's metric\n"
             "(builder.partitions.metric_values): ``matrix[g, t]``, or ``matrix[t, g]`` when\n"
             "``target_major``; a non-empty ``weights`` (float64, one per target) gives the\n"
             "weighted metric, ``win`` the winning reply. Runs without the GIL.");

static PyObject *py_metric_values(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (arity(nargs, 10, 10, "metric_values") < 0)
        return NULL;
    const int target_major = PyObject_IsTrue(args[1]);
    const int metric = (int)integer(args[4]), arithmetic = (int)integer(args[5]);
    const int64_t space = integer(args[6]), win = integer(args[8]);
    if (target_major < 0 || PyErr_Occurred())
        return NULL;
    static const int at[] = {0, 2, 3, 7, 9};
    static const Spec specs[] = {MATRIX("matrix"), INDICES("candidates"), INDICES("targets"),
                                 FLOATS("weights"), FLOATS_OUT("values")};
    Py_buffer v[5];
    if (take_all(args, at, specs, 5, v) < 0)
        return NULL;
    const int64_t rows = v[0].shape[0], cols = v[0].shape[1];
    const int64_t nc = length_of(&v[1]), n = length_of(&v[2]);
    const int weighted = length_of(&v[3]) > 0;
    const char *problem = NULL;
    if (space < 1)
        problem = "the reply space must be positive";
    else if (!all_below(v[1].buf, nc, target_major ? cols : rows))
        problem = "a candidate is outside the matrix";
    else if (!all_below(v[2].buf, n, target_major ? rows : cols))
        problem = "a target is outside the matrix";
    else if (weighted && length_of(&v[3]) != n)
        problem = "weights must hold one entry per target";
    else if (length_of(&v[4]) != nc)
        problem = "values must hold one entry per candidate";
    int64_t *counts = NULL, *order = NULL, *sizes = NULL;
    double *terms = NULL, *mass = NULL;
    if (problem == NULL) {
        counts = calloc((size_t)space, sizeof(int64_t));
        order = malloc((size_t)space * sizeof(int64_t));
        sizes = malloc((size_t)space * sizeof(int64_t));
        terms = malloc((size_t)(n + 1) * sizeof(double));
        mass = weighted ? calloc((size_t)space, sizeof(double)) : NULL;
        if (!counts || !order || !sizes || !terms || (weighted && !mass))
            problem = "";
    }
    int result = 0;
    if (problem == NULL) {
        const int64_t *cand = v[1].buf, *targets = v[2].buf;
        const double *weights = v[3].buf;
        double *values = v[4].buf;
        Py_BEGIN_ALLOW_THREADS;
        if (weighted) {
            if (v[0].itemsize == 1)
                result = weighted_values_u8(v[0].buf, cols, target_major, cand, nc, targets, n,
                                            weights, metric, win, space, counts, order, mass,
                                            values);
            else if (v[0].itemsize == 2)
                result = weighted_values_u16(v[0].buf, cols, target_major, cand, nc, targets, n,
                                             weights, metric, win, space, counts, order, mass,
                                             values);
            else
                result = weighted_values_u32(v[0].buf, cols, target_major, cand, nc, targets, n,
                                             weights, metric, win, space, counts, order, mass,
                                             values);
        } else {
            if (v[0].itemsize == 1)
                result = metric_values_u8(v[0].buf, cols, target_major, cand, nc, targets, n,
                                          metric, arithmetic, space, counts, order, sizes, terms,
                                          values);
            else if (v[0].itemsize == 2)
                result = metric_values_u16(v[0].buf, cols, target_major, cand, nc, targets, n,
                                           metric, arithmetic, space, counts, order, sizes,
                                           terms, values);
            else
                result = metric_values_u32(v[0].buf, cols, target_major, cand, nc, targets, n,
                                           metric, arithmetic, space, counts, order, sizes,
                                           terms, values);
        }
        Py_END_ALLOW_THREADS;
    }
    free(counts);
    free(order);
    free(sizes);
    free(terms);
    free(mass);
    release_all(v, 5);
    if (problem != NULL)
        return *problem ? fail(PyExc_ValueError, problem) : PyErr_NoMemory();
    if (result < 0)
        return fail(PyExc_ValueError, BAD_CODE);
    Py_RETURN_NONE;
}

/* ---- approx_entropy's letter estimate ---- */

/* Allocate e's tables for words of length letters with codes below n_letters, and
 * estimates for n candidates; -1 if out of memory (free_letters either way). */
static int alloc_letters(Letters *e, int64_t length, int64_t n_letters, int64_t n)
{
    e->length = length;
    e->n_letters = n_letters;
    e->at = malloc((size_t)(length * n_letters + 1) * sizeof(int64_t));
    e->holding = malloc((size_t)n_letters * sizeof(int64_t));
    e->last_word = malloc((size_t)n_letters * sizeof(int64_t));
    e->table = malloc((size_t)(length * n_letters + 1) * sizeof(double));
    e->estimates = malloc((size_t)(n + 1) * sizeof(double));
    e->spare = malloc((size_t)(n + 1) * sizeof(double));
    return e->at && e->holding && e->last_word && e->table && e->estimates && e->spare ? 0 : -1;
}

static void free_letters(Letters *e)
{
    free(e->at);
    free(e->holding);
    free(e->last_word);
    free(e->table);
    free(e->estimates);
    free(e->spare);
}

/* partitions.position_entropies' letter codes: 26, or more if the words use more. */
static int64_t letter_codes(const Py_buffer *letters)
{
    const uint8_t *all = letters->buf;
    int64_t top = 25;
    for (Py_ssize_t i = 0; i < letters->len; i++)
        if (all[i] > top)
            top = all[i];
    return top + 1;
}

PyDoc_STRVAR(position_entropies_doc,
             "position_entropies(letters, consistent, table) -> None\n\n"
             "Fill ``table`` (float64, word length x letter codes) as\n"
             "builder.partitions.position_entropies returns it. Runs without the GIL.");

static PyObject *py_position_entropies(PyObject *module, PyObject *const *args,
                                       Py_ssize_t nargs)
{
    (void)module;
    if (arity(nargs, 3, 3, "position_entropies") < 0)
        return NULL;
    static const int at[] = {0, 1, 2};
    static const Spec specs[] = {
        {2, 1, UNSIGNED, 0, "letters"}, INDICES("consistent"), {2, 8, FLOAT, 1, "table"}};
    Py_buffer v[3];
    if (take_all(args, at, specs, 3, v) < 0)
        return NULL;
    const int64_t words = v[0].shape[0], length = v[0].shape[1], total = length_of(&v[1]);
    const int64_t n_letters = v[2].shape[1];
    const char *problem = NULL;
    if (v[2].shape[0] != length || n_letters < letter_codes(&v[0]))
        problem = "the table does not fit the letters";
    else if (!all_below(v[1].buf, total, words))
        problem = "a word is outside the letters";
    Letters e = {0};
    if (problem == NULL && alloc_letters(&e, length, n_letters, 0) < 0)
        problem = "";
    if (problem == NULL) {
        Py_BEGIN_ALLOW_THREADS;
        position_entropies(&e, v[0].buf, v[1].buf, total);
        memcpy(v[2].buf, e.table, (size_t)(length * n_letters) * sizeof(double));
        Py_END_ALLOW_THREADS;
    }
    free_letters(&e);
    release_all(v, 3);
    if (problem != NULL)
        return *problem ? fail(PyExc_ValueError, problem) : PyErr_NoMemory();
    Py_RETURN_NONE;
}

PyDoc_STRVAR(retried_candidates_doc,
             "retried_candidates(letters, candidates, consistent, retry_percent, chosen) -> int\n\n"
             "Write into ``chosen`` (int64, one entry per candidate) the positions\n"
             "builder.partitions.retried_candidates returns; return how many. Runs without\n"
             "the GIL.");

static PyObject *py_retried_candidates(PyObject *module, PyObject *const *args,
                                       Py_ssize_t nargs)
{
    (void)module;
    if (arity(nargs, 5, 5, "retried_candidates") < 0)
        return NULL;
    const double retry_percent = PyFloat_AsDouble(args[3]);
    if (PyErr_Occurred())
        return NULL;
    static const int at[] = {0, 1, 2, 4};
    static const Spec specs[] = {{2, 1, UNSIGNED, 0, "letters"}, INDICES("candidates"),
                                 INDICES("consistent"), INTS_OUT("chosen")};
    Py_buffer v[4];
    if (take_all(args, at, specs, 4, v) < 0)
        return NULL;
    const int64_t words = v[0].shape[0], length = v[0].shape[1];
    const int64_t n = length_of(&v[1]), total = length_of(&v[2]);
    const char *problem = NULL;
    if (!all_below(v[1].buf, n, words) || !all_below(v[2].buf, total, words))
        problem = "a word is outside the letters";
    else if (length_of(&v[3]) != n)
        problem = "chosen must hold one entry per candidate";
    Letters e = {0};
    if (problem == NULL && alloc_letters(&e, length, letter_codes(&v[0]), n) < 0)
        problem = "";
    int64_t kept = 0;
    if (problem == NULL) {
        Py_BEGIN_ALLOW_THREADS;
        kept = retried_candidates(&e, v[0].buf, v[1].buf, n, v[2].buf, total, retry_percent,
                                  v[3].buf);
        Py_END_ALLOW_THREADS;
    }
    free_letters(&e);
    release_all(v, 4);
    if (problem != NULL)
        return *problem ? fail(PyExc_ValueError, problem) : PyErr_NoMemory();
    return PyLong_FromLongLong(kept);
}

PyDoc_STRVAR(retry_count_doc, "retry_count(n_candidates, retry_percent) -> int\n\n"
                              "See builder.partitions.retry_count.");

static PyObject *py_retry_count(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (arity(nargs, 2, 2, "retry_count") < 0)
        return NULL;
    const int64_t n = integer(args[0]);
    const double retry_percent = PyFloat_AsDouble(args[1]);
    if (PyErr_Occurred())
        return NULL;
    return PyLong_FromLongLong(retry_count(n, retry_percent));
}

PyDoc_STRVAR(considers_doc,
             "considers_every_guess(size, hard, window_low, window_high) -> bool\n\n"
             "See builder.greedy.considers_every_guess.");

static PyObject *py_considers_every_guess(PyObject *module, PyObject *const *args,
                                          Py_ssize_t nargs)
{
    (void)module;
    if (arity(nargs, 4, 4, "considers_every_guess") < 0)
        return NULL;
    const int64_t size = integer(args[0]), low = integer(args[2]), high = integer(args[3]);
    const int hard = PyObject_IsTrue(args[1]);
    if (hard < 0 || PyErr_Occurred())
        return NULL;
    return PyBool_FromLong(considers_every_guess(size, hard, low, high));
}

/* ---- the greedy tree grower of builder/greedy_tree.py ---- */

PyDoc_STRVAR(grow_doc,
             "grow(matrix, target_to_guess, metric, arithmetic, hard, window_low, window_high,\n"
             "     randoms, win_reply, n_guesses, perm, scratch, counts, order, fill, sizes,\n"
             "     terms, node_guess, node_size, node_depth, node_start, edge_offsets,\n"
             "     edge_reply, edge_child, target_scores, state, work_budget, nyt,\n"
             "     nyt_letters, nyt_states, letters, retry_percent, weights, mass) -> None\n\n"
             "Expand a greedy tree's nodes breadth-first until done or out of budget\n"
             "(builder.greedy_tree.build_greedy_tree describes the arrays). Runs without the GIL.");

/* grow's array arguments, by position. */
static const int grow_at[] = {0,  1,  7,  10, 11, 12, 13, 14, 15, 16, 17, 18,
                              19, 20, 21, 22, 23, 24, 25, 28, 29, 30, 32, 33};
static const Spec grow_specs[] = {
    MATRIX("matrix"),         INDICES("target_to_guess"),  FLOATS("randoms"),
    INTS_OUT("perm"),         INTS_OUT("scratch"),         INTS_OUT("counts"),
    INTS_OUT("order"),        INTS_OUT("fill"),            INTS_OUT("sizes"),
    FLOATS_OUT("terms"),      INTS_OUT("node_guess"),      INTS_OUT("node_size"),
    INTS_OUT("node_depth"),   INTS_OUT("node_start"),      INTS_OUT("edge_offsets"),
    INTS_OUT("edge_reply"),   INTS_OUT("edge_child"),      INTS_OUT("target_scores"),
    INTS_OUT("state"),        {2, 1, UNSIGNED, 0, "nyt_letters"},
    {2, 1, SIGNED, 1, "nyt_states"}, {2, 1, UNSIGNED, 0, "letters"},
    FLOATS("weights"),        FLOATS_OUT("mass")};
enum { G_MATRIX, G_T2G, G_RANDOMS, G_PERM, G_SCRATCH, G_COUNTS, G_ORDER, G_FILL, G_SIZES,
       G_TERMS, G_NODE_GUESS, G_NODE_SIZE, G_NODE_DEPTH, G_NODE_START, G_EDGE_OFFSETS,
       G_EDGE_REPLY, G_EDGE_CHILD, G_SCORES, G_STATE, G_NYT_LETTERS, G_NYT_STATES, G_LETTERS,
       G_WEIGHTS, G_MASS, G_ARRAYS };

/* Check the arrays of g (v: their views) fit one another; return a problem or NULL. */
static const char *check_grow(Grow *g, const Py_buffer *v)
{
    const int64_t rows = v[G_MATRIX].shape[0], n = g->n_targets;
    if (g->metric < METRIC_MAX || g->metric > METRIC_APPROX_ENTROPY)
        return "unknown metric";
    if (g->n_guesses < 0 || g->n_guesses > rows)
        return "the guess list is larger than the matrix";
    if (length_of(&v[G_T2G]) != n || length_of(&v[G_PERM]) != n ||
        length_of(&v[G_SCRATCH]) != n || length_of(&v[G_SCORES]) != n ||
        length_of(&v[G_TERMS]) <= n)
        return "the target arrays do not fit the matrix";
    if (!all_below(g->target_to_guess, n, rows) || !all_below(g->perm, n, n))
        return "a target index is out of range";
    for (int a = G_ORDER; a <= G_SIZES; a++)
        if (length_of(&v[a]) != g->space)
            return "counts, order, fill, sizes and mass must have one length";
    if (length_of(&v[G_MASS]) != g->space || g->space < 1)
        return "counts, order, fill, sizes and mass must have one length";
    for (int a = G_NODE_SIZE; a <= G_EDGE_CHILD; a++)
        if (length_of(&v[a]) != g->capacity)
            return "the node and edge arrays must have one length";
    const int64_t *state = g->state;
    if (length_of(&v[G_STATE]) != 6 || state[0] < 0 || state[0] > state[1] ||
        state[1] >= g->capacity || state[2] < 0 || state[2] > state[1])
        return "the state does not fit the node arrays";
    if (g->metric == METRIC_RANDOM && length_of(&v[G_RANDOMS]) < g->capacity)
        return "randoms must hold one entry per node";
    if (g->n_weights != 0 && g->n_weights != n)
        return "weights must hold one entry per target";
    if (g->nyt) {
        const Py_buffer *states = &v[G_NYT_STATES], *words = &v[G_NYT_LETTERS];
        g->length = words->shape[1];
        g->nyt_width = states->shape[1];
        g->nyt_letter_count = g->nyt_width - g->length;
        if (words->shape[0] < rows || states->shape[0] != g->capacity ||
            g->nyt_letter_count < 1 || g->nyt_letter_count > 256)
            return "the NYT states do not fit the words";
        const uint8_t *all = words->buf;
        for (int64_t i = 0; i < rows * g->length; i++)
            if (all[i] >= g->nyt_letter_count)
                return "a letter of the words is outside the NYT states' letters";
    }
    if (g->metric == METRIC_APPROX_ENTROPY && v[G_LETTERS].shape[0] < rows)
        return "the letters do not fit the matrix";
    return NULL;
}

/* Allocate g's scratch (approx_entropy's and the node weights); -1: out of memory. */
static int alloc_grow(Grow *g, const Py_buffer *letters)
{
    const int64_t most = g->n_guesses > g->n_targets ? g->n_guesses : g->n_targets;
    g->node_weights = malloc((size_t)(g->n_targets + 1) * sizeof(double));
    if (g->node_weights == NULL)
        return -1;
    if (g->metric != METRIC_APPROX_ENTROPY)
        return 0;
    g->consistent = malloc((size_t)(g->n_targets + 1) * sizeof(int64_t));
    g->candidates = malloc((size_t)(most + 1) * sizeof(int64_t));
    g->chosen = malloc((size_t)(most + 1) * sizeof(int64_t));
    if (!g->consistent || !g->candidates || !g->chosen)
        return -1;
    return alloc_letters(&g->estimate, letters->shape[1], letter_codes(letters), most);
}

static void free_grow(Grow *g)
{
    free(g->node_weights);
    free(g->consistent);
    free(g->candidates);
    free(g->chosen);
    free_letters(&g->estimate);
}

static PyObject *py_grow(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (arity(nargs, 34, 34, "grow") < 0)
        return NULL;
    Grow g = {0};
    g.metric = (int)integer(args[2]);
    g.arithmetic = (int)integer(args[3]);
    g.hard = PyObject_IsTrue(args[4]);
    g.window_low = integer(args[5]);
    g.window_high = integer(args[6]);
    g.win = integer(args[8]);
    g.n_guesses = integer(args[9]);
    g.work_budget = integer(args[26]);
    g.nyt = PyObject_IsTrue(args[27]);
    g.retry_percent = PyFloat_AsDouble(args[31]);
    if (g.hard < 0 || g.nyt < 0 || PyErr_Occurred())
        return NULL;
    Py_buffer v[G_ARRAYS];
    if (take_all(args, grow_at, grow_specs, G_ARRAYS, v) < 0)
        return NULL;
    g.matrix = v[G_MATRIX].buf;
    g.cols = g.n_targets = v[G_MATRIX].shape[1];
    g.target_to_guess = v[G_T2G].buf;
    g.randoms = v[G_RANDOMS].buf;
    g.perm = v[G_PERM].buf;
    g.scratch = v[G_SCRATCH].buf;
    g.counts = v[G_COUNTS].buf;
    g.space = length_of(&v[G_COUNTS]);
    g.order = v[G_ORDER].buf;
    g.fill = v[G_FILL].buf;
    g.sizes = v[G_SIZES].buf;
    g.terms = v[G_TERMS].buf;
    g.node_guess = v[G_NODE_GUESS].buf;
    g.capacity = length_of(&v[G_NODE_GUESS]);
    g.node_size = v[G_NODE_SIZE].buf;
    g.node_depth = v[G_NODE_DEPTH].buf;
    g.node_start = v[G_NODE_START].buf;
    g.edge_offsets = v[G_EDGE_OFFSETS].buf;
    g.edge_reply = v[G_EDGE_REPLY].buf;
    g.edge_child = v[G_EDGE_CHILD].buf;
    g.target_scores = v[G_SCORES].buf;
    g.state = v[G_STATE].buf;
    g.nyt_letters = v[G_NYT_LETTERS].buf;
    g.nyt_states = v[G_NYT_STATES].buf;
    g.letters = v[G_LETTERS].buf;
    g.weights = v[G_WEIGHTS].buf;
    g.n_weights = length_of(&v[G_WEIGHTS]);
    g.mass = v[G_MASS].buf;
    const char *problem = check_grow(&g, v);
    if (problem == NULL && alloc_grow(&g, &v[G_LETTERS]) < 0)
        problem = "";
    int outcome = GROW_OK;
    if (problem == NULL) {
        const int itemsize = (int)v[G_MATRIX].itemsize;
        Py_BEGIN_ALLOW_THREADS;
        /* A count left by an earlier call that failed would misplace targets. */
        memset(g.counts, 0, (size_t)g.space * sizeof(int64_t));
        memset(g.mass, 0, (size_t)g.space * sizeof(double));
        outcome = itemsize == 1 ? grow_u8(&g) : itemsize == 2 ? grow_u16(&g) : grow_u32(&g);
        Py_END_ALLOW_THREADS;
    }
    free_grow(&g);
    release_all(v, G_ARRAYS);
    if (problem != NULL)
        return *problem ? fail(PyExc_ValueError, problem) : PyErr_NoMemory();
    switch (outcome) {
    case GROW_BAD_CODE:
        return fail(PyExc_ValueError, BAD_CODE);
    case GROW_BAD_NODE:
        return fail(PyExc_ValueError, "a node's slice or random pick is outside the targets");
    case GROW_FULL:
        return fail(PyExc_ValueError, "the tree has more nodes than the node arrays hold");
    case GROW_NO_GUESS:
        return fail(PyExc_ValueError, "a node has no candidate guess");
    }
    Py_RETURN_NONE;
}

static PyMethodDef partitions_methods[] = {
    {"fill_terms", (PyCFunction)(void (*)(void))py_fill_terms, METH_FASTCALL, fill_terms_doc},
    {"metric_of_counts", (PyCFunction)(void (*)(void))py_metric_of_counts, METH_FASTCALL,
     metric_of_counts_doc},
    {"count_replies", (PyCFunction)(void (*)(void))py_count_replies, METH_FASTCALL,
     count_replies_doc},
    {"metric_of_masses", (PyCFunction)(void (*)(void))py_metric_of_masses, METH_FASTCALL,
     metric_of_masses_doc},
    {"weigh_replies", (PyCFunction)(void (*)(void))py_weigh_replies, METH_FASTCALL,
     weigh_replies_doc},
    {"metric_values", (PyCFunction)(void (*)(void))py_metric_values, METH_FASTCALL,
     metric_values_doc},
    {"position_entropies", (PyCFunction)(void (*)(void))py_position_entropies, METH_FASTCALL,
     position_entropies_doc},
    {"retried_candidates", (PyCFunction)(void (*)(void))py_retried_candidates, METH_FASTCALL,
     retried_candidates_doc},
    {"retry_count", (PyCFunction)(void (*)(void))py_retry_count, METH_FASTCALL, retry_count_doc},
    {"considers_every_guess", (PyCFunction)(void (*)(void))py_considers_every_guess,
     METH_FASTCALL, considers_doc},
    {"grow", (PyCFunction)(void (*)(void))py_grow, METH_FASTCALL, grow_doc},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef partitions_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_partitions",
    .m_doc = "The greedy metrics and tree grower, compiled (see builder/partitions.py).",
    .m_size = -1,
    .m_methods = partitions_methods,
};

PyMODINIT_FUNC PyInit__partitions(void)
{
    return PyModule_Create(&partitions_module);
}
