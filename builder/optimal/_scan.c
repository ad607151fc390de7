/* The exact search's compiled core: one scan of a target set by many guesses.
 *
 * guesswork.builder.optimal._scan.Scanner holds a reply matrix (target-major:
 * matrix[t, g] is the reply to guess g when the secret is target t) with the
 * bound tables of one search, and answers two questions about a target set:
 *
 * - scan: each candidate's static lower bound, kept compactly when below a
 *   budget (see builder/optimal/bounds.py, which documents the bound);
 * - distinct: the most distinct replies any candidate gives, capped;
 * - classes: one guess's classes with their memo keys and known bounds;
 * - adversary: each candidate's largest class (Absurdle's reply).
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

/* Distinct replies with few codes (below 32, e.g. Mastermind's 14): a guess's
 * codes fit one 32-bit set, so eight guesses' sets are built at once in an AVX2
 * register, a target at a time, over a run of consecutive guesses (the usual
 * candidates: every guess). Small sets read every target anyway (the scalar
 * loop's early drop needs more than its first block of 16), so there it is
 * several times faster; larger sets keep the scalar loop. The result is the
 * scalar loop's: guesses are judged in the same order by the same rule. */
#define SETS_MAX_TARGETS 128 /* up to here the sets beat the scalar early drop (measured) */
#define SETS_RUN 256        /* guesses per run of sets */

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define HAVE_SETS_AVX2 1
static int sets_avx2; /* set at import: whether this CPU has AVX2 */

/* sets[l] = the codes (as bits) of guess first + l on the n rows, l < width, a
 * multiple of 32; every guess read is in range. */
__attribute__((target("avx2"))) static void code_sets_avx2(const uint8_t *const *rows,
                                                           Py_ssize_t n, int64_t first,
                                                           Py_ssize_t width, uint32_t *sets)
{
    const __m256i one = _mm256_set1_epi32(1);
    for (Py_ssize_t l = 0; l < width; l += 32) {
        __m256i a = _mm256_setzero_si256(), b = a, c = a, d = a;
        for (Py_ssize_t j = 0; j < n; j++) {
            const uint8_t *codes = rows[j] + first + l;
            a = _mm256_or_si256(a, _mm256_sllv_epi32(one, _mm256_cvtepu8_epi32(_mm_loadl_epi64(
                                                           (const __m128i *)codes))));
            b = _mm256_or_si256(b, _mm256_sllv_epi32(one, _mm256_cvtepu8_epi32(_mm_loadl_epi64(
                                                           (const __m128i *)(codes + 8)))));
            c = _mm256_or_si256(c, _mm256_sllv_epi32(one, _mm256_cvtepu8_epi32(_mm_loadl_epi64(
                                                           (const __m128i *)(codes + 16)))));
            d = _mm256_or_si256(d, _mm256_sllv_epi32(one, _mm256_cvtepu8_epi32(_mm_loadl_epi64(
                                                           (const __m128i *)(codes + 24)))));
        }
        _mm256_storeu_si256((__m256i *)(sets + l), a);
        _mm256_storeu_si256((__m256i *)(sets + l + 8), b);
        _mm256_storeu_si256((__m256i *)(sets + l + 16), c);
        _mm256_storeu_si256((__m256i *)(sets + l + 24), d);
    }
}

/* Whether distinct_sets applies: 8-bit codes below 32, a small set, and AVX2. */
static int sets_apply(const Scanner *s, Py_ssize_t n)
{
    return sets_avx2 && s->matrix.itemsize == 1 && s->max_code < 32 && n <= SETS_MAX_TARGETS;
}

/* distinct_u8 over candidates that are consecutive guesses first, first + 1, ...,
 * first + nc - 1 (all in range), continuing from `best` (see distinct_u8). */
static int64_t distinct_sets(Scanner *s, int64_t first, Py_ssize_t nc, Py_ssize_t n,
                             int64_t enough, const int64_t *caps, int64_t best, int64_t *which)
{
    const uint8_t *const *rows = (const uint8_t *const *)s->rows;
    const uint32_t win_bit = (uint32_t)1 << s->win;
    uint32_t sets[SETS_RUN];
    for (Py_ssize_t start = 0; start < nc; start += SETS_RUN) {
        const Py_ssize_t width = nc - start < SETS_RUN ? nc - start : SETS_RUN;
        const Py_ssize_t wide = width & ~(Py_ssize_t)31;
        code_sets_avx2(rows, n, first + start, wide, sets);
        for (Py_ssize_t l = wide; l < width; l++) {
            uint32_t set = 0;
            for (Py_ssize_t j = 0; j < n; j++)
                set |= (uint32_t)1 << rows[j][first + start + l];
            sets[l] = set;
        }
        for (Py_ssize_t l = 0; l < width; l++) {
            const int64_t guess = first + start + l;
            if (caps != NULL && caps[guess] <= best)
                continue;
            const int64_t k = __builtin_popcount(sets[l]);
            const int64_t won = (sets[l] & win_bit) != 0;
            if (k == 1 && !won)
                continue; /* does not split */
            if (k + won > best) {
                best = k + won;
                *which = guess;
                if (best >= enough)
                    return best;
            }
        }
    }
    return best;
}
#endif

/* See Scanner.distinct: the probe, then the candidates, by the fastest loop that
 * applies. Returns the count (and its guess in `which`), or -1 if a guess is out
 * of range. */
static int64_t distinct_any(Scanner *s, const int64_t *cand, Py_ssize_t nc, Py_ssize_t n,
                            int64_t enough, const int64_t *caps, const int64_t *probe,
                            Py_ssize_t n_probe, int64_t *which)
{
    if (s->matrix.itemsize == 2)
        return distinct_u16(s, cand, nc, n, enough, caps, probe, n_probe, 0, which);
    if (s->matrix.itemsize == 4)
        return distinct_u32(s, cand, nc, n, enough, caps, probe, n_probe, 0, which);
#ifdef HAVE_SETS_AVX2
    if (sets_apply(s, n) && nc > 0 && cand[0] >= 0 && cand[0] + nc <= s->n_guesses) {
        Py_ssize_t i = 1;
        while (i < nc && cand[i] == cand[0] + i)
            i++;
        if (i == nc) {
            const int64_t best = distinct_u8(s, cand, 0, n, enough, caps, probe, n_probe, 0, which);
            if (best < 0 || best >= enough)
                return best;
            return distinct_sets(s, cand[0], nc, n, enough, caps, best, which);
        }
    }
#endif
    return distinct_u8(s, cand, nc, n, enough, caps, probe, n_probe, 0, which);
}

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
        best = distinct_any(s, c, nc, n, enough, cap, p, np, &which);
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

PyDoc_STRVAR(adversary_doc,
             "adversary(candidates, targets, rank, limit, chosen, kept) -> None\n\n"
             "For each candidate, the reply code of its largest class of ``targets``\n"
             "(of equal ones, the code of least ``rank``; int64, one per code) into\n"
             "``chosen`` and that class's size into ``kept`` (int64 arrays of at least\n"
             "one entry per candidate): Absurdle's adversary (builder/absurdle.py). A\n"
             "candidate with a class over ``limit`` is read no further: -1 and limit + 1.");

static PyObject *Scanner_adversary(Scanner *s, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "adversary takes 6 arguments");
        return NULL;
    }
    const int64_t limit = PyLong_AsLongLong(args[3]);
    if (PyErr_Occurred())
        return NULL;
    Py_buffer cand, targets, rank, out[2];
    if (take(args[0], &cand, 1, 8, SIGNED, 0, "candidates") < 0)
        return NULL;
    if (take(args[2], &rank, 1, 8, SIGNED, 0, "rank") < 0) {
        PyBuffer_Release(&cand);
        return NULL;
    }
    const char *names[] = {"chosen", "kept"};
    int got = 0;
    for (; got < 2; got++)
        if (take(args[4 + got], &out[got], 1, 8, SIGNED, 1, names[got]) < 0)
            break;
    int status = -2; /* -2: an error is set */
    if (got == 2 && begin(s, args[1], &targets) == 0) {
        const Py_ssize_t nc = length_of(&cand), n = length_of(&targets);
        if (length_of(&rank) <= s->max_code)
            PyErr_SetString(PyExc_ValueError, "rank: one per reply code");
        else if (length_of(&out[0]) < nc || length_of(&out[1]) < nc)
            PyErr_SetString(PyExc_ValueError, "the adversary outputs are too short");
        else {
            const int64_t *c = cand.buf, *r = rank.buf;
            int64_t *chosen = out[0].buf, *kept = out[1].buf;
            status = s->matrix.itemsize == 1
                         ? adversary_u8(s, c, nc, n, r, limit, chosen, kept)
                     : s->matrix.itemsize == 2 ? adversary_u16(s, c, nc, n, r, limit, chosen, kept)
                                               : adversary_u32(s, c, nc, n, r, limit, chosen, kept);
        }
        PyBuffer_Release(&targets);
    }
    for (int i = 0; i < got; i++)
        PyBuffer_Release(&out[i]);
    PyBuffer_Release(&rank);
    PyBuffer_Release(&cand);
    if (status == -1)
        return bad_guess();
    if (status == -2)
        return NULL;
    Py_RETURN_NONE;
}

/* One class of a split: where it lies in `ordered`, its size and reply code. */
typedef struct {
    Py_ssize_t start, size;
    int64_t code;
} Span;

/* Largest first; equal sizes in reply-code order (Problem.split's order). */
static int larger_first(const void *a, const void *b)
{
    const Span *x = a, *y = b;
    if (x->size != y->size)
        return x->size > y->size ? -1 : 1;
    return (x->code > y->code) - (x->code < y->code);
}

/* The best bound known for a class of `size` targets with memo key `key`: its
 * exact value, else the larger of its proven lower bound and the table's. -1
 * with an error set if a memo entry is malformed. */
static int64_t known_class_bound(Scanner *s, PyObject *key, Py_ssize_t size, PyObject *exact,
                                 PyObject *lower)
{
    PyObject *hit = PyDict_GetItemWithError(exact, key);
    if (hit != NULL) {
        if (!PyTuple_Check(hit) || PyTuple_GET_SIZE(hit) < 1) {
            PyErr_SetString(PyExc_TypeError, "exact: a (value, guess) tuple is needed");
            return -1;
        }
        return PyLong_AsLongLong(PyTuple_GET_ITEM(hit, 0));
    }
    if (PyErr_Occurred())
        return -1;
    const int64_t table = ((const int64_t *)s->table.buf)[size];
    hit = PyDict_GetItemWithError(lower, key);
    if (hit == NULL)
        return PyErr_Occurred() ? -1 : table;
    const int64_t known = PyLong_AsLongLong(hit);
    return known > table ? known : table;
}

PyDoc_STRVAR(classes_doc,
             "classes(guess, targets, ordered, exact, lower, suffix, small_limit)\n"
             "    -> (classes, keys, bounds)\n\n"
             "Split ``targets`` by ``guess`` (see Problem.split: the non-winning classes,\n"
             "largest first, each a view of ``ordered``, an int64 array of at least n\n"
             "entries) and give each class its memo key (the targets as int32 bytes, then\n"
             "``suffix``; None for a class of one or two) and its best known total bound:\n"
             "1 or 3 for one or two targets (INFEASIBLE past ``small_limit`` targets),\n"
             "else its ``exact`` value, else the larger of its ``lower`` bound and the\n"
             "table's (see bounds.ScanKernel.known_classes).");

static PyObject *Scanner_classes(Scanner *s, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "classes takes 7 arguments");
        return NULL;
    }
    const int64_t guess = PyLong_AsLongLong(args[0]);
    const int64_t small_limit = PyLong_AsLongLong(args[6]);
    if (PyErr_Occurred())
        return NULL;
    if (!PyBytes_Check(args[5])) {
        PyErr_SetString(PyExc_TypeError, "suffix must be bytes");
        return NULL;
    }
    const char *suffix = PyBytes_AS_STRING(args[5]);
    const Py_ssize_t suffix_size = PyBytes_GET_SIZE(args[5]);
    if ((uint64_t)guess >= (uint64_t)s->n_guesses)
        return bad_guess();
    PyObject *exact = args[3], *lower = args[4];
    if (!PyDict_Check(exact) || !PyDict_Check(lower)) {
        PyErr_SetString(PyExc_TypeError, "exact and lower must be dicts");
        return NULL;
    }
    Py_buffer targets, ordered;
    if (begin(s, args[1], &targets) < 0)
        return NULL;
    if (take(args[2], &ordered, 1, 8, SIGNED, 1, "ordered") < 0) {
        PyBuffer_Release(&targets);
        return NULL;
    }
    const Py_ssize_t n = length_of(&targets);
    PyObject *classes = NULL, *keys = NULL, *bounds = NULL, *result = NULL;
    Span *spans = NULL;
    if (length_of(&ordered) < n) {
        PyErr_SetString(PyExc_ValueError, "ordered is too short for the set");
        goto done;
    }
    /* A counting sort by reply code, as group() does, in scratch of its own (the
       scan's per-code counts must stay zero between scans). */
    const int64_t codes = s->max_code + 1;
    int64_t *place = PyMem_Calloc((size_t)(codes + 1), sizeof(int64_t));
    spans = PyMem_Malloc((size_t)codes * sizeof(Span));
    if (place == NULL || spans == NULL) {
        PyMem_Free(place);
        PyErr_NoMemory();
        goto done;
    }
    const int64_t *t = targets.buf;
    int64_t *out = ordered.buf;
    const int size = (int)s->matrix.itemsize;
#define CODE_OF(j)                                                                                 \
    (size == 1   ? (int64_t)((const uint8_t *)s->rows[j])[guess]                                   \
     : size == 2 ? (int64_t)((const uint16_t *)s->rows[j])[guess]                                  \
                 : (int64_t)((const uint32_t *)s->rows[j])[guess])
    for (Py_ssize_t j = 0; j < n; j++)
        place[CODE_OF(j) + 1]++;
    Py_ssize_t count = 0;
    for (int64_t c = 0; c < codes; c++) {
        if (place[c + 1] > 0 && c != s->win)
            spans[count++] = (Span){place[c], place[c + 1], c};
        place[c + 1] += place[c];
    }
    for (Py_ssize_t j = 0; j < n; j++)
        out[place[CODE_OF(j)]++] = t[j];
#undef CODE_OF
    PyMem_Free(place);
    qsort(spans, (size_t)count, sizeof(Span), larger_first);
    classes = PyList_New(count);
    keys = PyList_New(count);
    bounds = PyList_New(count);
    if (classes == NULL || keys == NULL || bounds == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < count; i++) {
        const Py_ssize_t start = spans[i].start, members = spans[i].size;
        PyObject *part = PySequence_GetSlice(args[2], start, start + members);
        if (part == NULL)
            goto done;
        PyList_SET_ITEM(classes, i, part);
        PyObject *key = Py_None;
        int64_t bound = members > small_limit ? INFEASIBLE : members == 1 ? 1 : 3;
        if (members > 2) {
            const Py_ssize_t body_size = members * (Py_ssize_t)sizeof(int32_t);
            key = PyBytes_FromStringAndSize(NULL, body_size + suffix_size);
            if (key == NULL)
                goto done;
            int32_t *body = (int32_t *)PyBytes_AS_STRING(key);
            for (Py_ssize_t j = 0; j < members; j++)
                body[j] = (int32_t)out[start + j];
            memcpy(PyBytes_AS_STRING(key) + body_size, suffix, (size_t)suffix_size);
            PyList_SET_ITEM(keys, i, key);
            bound = known_class_bound(s, key, members, exact, lower);
            if (bound == -1 && PyErr_Occurred())
                goto done;
        } else {
            Py_INCREF(Py_None);
            PyList_SET_ITEM(keys, i, Py_None);
        }
        PyObject *number = PyLong_FromLongLong(bound);
        if (number == NULL)
            goto done;
        PyList_SET_ITEM(bounds, i, number);
    }
    result = PyTuple_Pack(3, classes, keys, bounds);
done:
    PyMem_Free(spans);
    Py_XDECREF(classes);
    Py_XDECREF(keys);
    Py_XDECREF(bounds);
    PyBuffer_Release(&ordered);
    PyBuffer_Release(&targets);
    return result;
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
    {"classes", (PyCFunction)(void (*)(void))Scanner_classes, METH_FASTCALL, classes_doc},
    {"adversary", (PyCFunction)(void (*)(void))Scanner_adversary, METH_FASTCALL, adversary_doc},
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
#ifdef HAVE_SETS_AVX2
    __builtin_cpu_init();
    sets_avx2 = __builtin_cpu_supports("avx2") != 0;
#endif
    PyObject *module = PyModule_Create(&scan_module);
    if (module == NULL)
        return NULL;
#ifdef HAVE_SETS_AVX2
    const long vector_sets = sets_avx2;
#else
    const long vector_sets = 0;
#endif
    if (PyModule_AddIntConstant(module, "VECTOR_SETS", vector_sets) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    Py_INCREF(&ScannerType);
    if (PyModule_AddObject(module, "Scanner", (PyObject *)&ScannerType) < 0) {
        Py_DECREF(&ScannerType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
