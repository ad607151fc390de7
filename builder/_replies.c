/* The reply kernels behind builder.reply_kernels: Wordle's duplicate rule over
 * letter sets and Mastermind's pegs, for a span of guesses against every target.
 *
 * In C, like the exact search (builder/optimal/_scan.c), so that computing a
 * reply matrix needs no JIT: no compile on first use, nothing cached on disk.
 * Each call fills the rows first..stop-1 of the output with the GIL released;
 * builder.reply_kernels splits a big matrix into such spans on a pool of
 * threads, one per core. Arguments are checked: letters are uint8 codes, both
 * word arrays have the same length, the output has their shape, or the call
 * raises; Wordle's letter sets need codes below 64 (the caller uses numpy's
 * rule past that).
 *
 * The loops (_replies_rows.h) are compiled with 16-byte vectors for any CPU and
 * again with 32-byte ones for AVX2, picked at import like the scan's sets, so a
 * wheel built with portable flags still runs eight 32-bit lanes at once where
 * the CPU has them.
 */
#include "_buffers.h"
#include <stdlib.h>

/* 3^20 < 2^32: a Wordle code of up to 20 letters fits the uint32 it is built in. */
#define MAX_WORDLE_LENGTH 20

/* Targets per tile: a tile's letters and letter sets (8 or 16 bytes a target and
 * position) stay in the near caches while every guess of the span passes over
 * them. A multiple of every LANES. */
#define TILE 512
#define VECTOR 32 /* bytes of the widest vector (AVX2's): rows are aligned to it */

/* The portable copies: vectors of 16 bytes (SSE2 on x86-64, NEON on arm64). A
 * vector wider than the registers would be split by the compiler, and some of
 * its operations (compares) done lane by lane. */
#define LANE_T uint32_t
#define SIGNED_T int32_t
#define LANES 4
#define NAME(x) x##_u32
#define TARGET
#define MASTERMIND_ROWS
#include "_replies_rows.h"
#undef MASTERMIND_ROWS
#undef LANE_T
#undef SIGNED_T
#undef LANES
#undef NAME
#undef TARGET

#define LANE_T uint64_t
#define SIGNED_T int64_t
#define LANES 2
#define NAME(x) x##_u64
#define TARGET
#include "_replies_rows.h"
#undef LANE_T
#undef SIGNED_T
#undef LANES
#undef NAME
#undef TARGET

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_AVX2 1
static int has_avx2; /* set at import: whether this CPU has AVX2 */
static int use_avx2; /* whether the AVX2 copies run (has_avx2 unless a test says not) */

#define LANE_T uint32_t
#define SIGNED_T int32_t
#define LANES 8
#define NAME(x) x##_u32_avx2
#define TARGET __attribute__((target("avx2")))
#define MASTERMIND_ROWS
#include "_replies_rows.h"
#undef MASTERMIND_ROWS
#undef LANE_T
#undef SIGNED_T
#undef LANES
#undef NAME
#undef TARGET

#define LANE_T uint64_t
#define SIGNED_T int64_t
#define LANES 4
#define NAME(x) x##_u64_avx2
#define TARGET __attribute__((target("avx2")))
#include "_replies_rows.h"
#undef LANE_T
#undef SIGNED_T
#undef LANES
#undef NAME
#undef TARGET
#endif

/* The three arrays of a call, taken and checked, and the span asked for. */
struct call {
    Py_buffer guesses, targets, out;
    Py_ssize_t n_guesses, n_targets, length, first, stop;
    int wide; /* Wordle: some letter code is 32 or more, so the sets are uint64 */
};

static void release(struct call *c)
{
    PyBuffer_Release(&c->guesses);
    PyBuffer_Release(&c->targets);
    PyBuffer_Release(&c->out);
}

/* Take (guesses, targets, out, first, stop) into `c`. Returns 0, or -1 with an
 * error set (nothing to release then). */
static int take_call(const char *name, PyObject *const *args, Py_ssize_t nargs, struct call *c)
{
    if (nargs != 5) {
        PyErr_Format(PyExc_TypeError, "%s takes 5 arguments", name);
        return -1;
    }
    const Py_ssize_t first = PyNumber_AsSsize_t(args[3], PyExc_OverflowError);
    if (first == -1 && PyErr_Occurred())
        return -1;
    const Py_ssize_t stop = PyNumber_AsSsize_t(args[4], PyExc_OverflowError);
    if (stop == -1 && PyErr_Occurred())
        return -1;
    if (take(args[0], &c->guesses, 2, 1, UNSIGNED, 0, "guesses") < 0)
        return -1;
    if (take(args[1], &c->targets, 2, 1, UNSIGNED, 0, "targets") < 0) {
        PyBuffer_Release(&c->guesses);
        return -1;
    }
    if (take(args[2], &c->out, 2, 0, UNSIGNED, 1, "out") < 0) {
        PyBuffer_Release(&c->guesses);
        PyBuffer_Release(&c->targets);
        return -1;
    }
    c->n_guesses = c->guesses.shape[0];
    c->n_targets = c->targets.shape[0];
    c->length = c->guesses.shape[1];
    c->first = first;
    c->stop = stop;
    const char *problem = NULL;
    if (c->targets.shape[1] != c->length)
        problem = "guesses and targets must have the same length";
    else if (c->out.shape[0] != c->n_guesses || c->out.shape[1] != c->n_targets)
        problem = "out must have one row per guess and one column per target";
    else if (first < 0 || first > stop || stop > c->n_guesses)
        problem = "the span of guesses is out of range";
    if (problem) {
        release(c);
        PyErr_SetString(PyExc_ValueError, problem);
        return -1;
    }
    return 0;
}

/* The largest of `count` letter codes (0 if none). */
static uint8_t largest(const uint8_t *letters, Py_ssize_t count)
{
    uint8_t top = 0;
    for (Py_ssize_t i = 0; i < count; i++)
        top = letters[i] > top ? letters[i] : top;
    return top;
}

/* The targets of a call transposed to one row of lanes per position, each row
 * on a vector's boundary and padded to a whole tile (every vector read is in
 * bounds), and with `with_bits`, each letter's bit laid out alike after them. */
struct rows {
    char *block; /* what to free */
    char *letters, *bits;
    Py_ssize_t stride;
};

/* Fill `r` for call `c` (lanes of 8 bytes if c->wide, else 4); 0, or -1 if out of
 * memory. Runs without the GIL. */
static int transpose(const struct call *c, int with_bits, struct rows *r)
{
    const Py_ssize_t n = c->n_targets, length = c->length;
    const uint8_t *targets = c->targets.buf;
    const size_t lane = c->wide ? 8 : 4;
    r->stride = (n + TILE - 1) / TILE * TILE;
    const size_t cells = (size_t)(length * r->stride);
    r->block = calloc((with_bits ? 2 : 1) * cells * lane + VECTOR, 1);
    if (r->block == NULL)
        return -1;
    r->letters = r->block + (VECTOR - (uintptr_t)r->block % VECTOR) % VECTOR;
    r->bits = with_bits ? r->letters + cells * lane : NULL;
    for (Py_ssize_t t = 0; t < n; t++)
        for (Py_ssize_t p = 0; p < length; p++) {
            const uint8_t letter = targets[t * length + p];
            const size_t at = (size_t)(p * r->stride + t);
            if (c->wide) {
                ((uint64_t *)r->letters)[at] = letter;
                if (with_bits)
                    ((uint64_t *)r->bits)[at] = (uint64_t)1 << letter;
            } else {
                ((uint32_t *)r->letters)[at] = letter;
                if (with_bits)
                    ((uint32_t *)r->bits)[at] = (uint32_t)1 << letter;
            }
        }
    return 0;
}

/* Fill the call's span with Wordle codes, a tile of targets at a time, with the
 * loop for this CPU and lane width; 0, or -1 if out of memory. Runs without the
 * GIL. */
static int wordle_span(const struct call *c)
{
    struct rows r;
    if (transpose(c, 1, &r) < 0)
        return -1;
    const Py_ssize_t n = c->n_targets, itemsize = c->out.itemsize;
    for (Py_ssize_t t0 = 0; t0 < n; t0 += TILE) {
        const Py_ssize_t count = n - t0 < TILE ? n - t0 : TILE;
        char *out = (char *)c->out.buf + t0 * itemsize;
#define RUN(variant, lane_t)                                                                       \
    variant(c->guesses.buf, c->length, (const lane_t *)r.letters + t0,                           \
            (const lane_t *)r.bits + t0, r.stride, count, c->first, c->stop, out, n * itemsize,  \
            itemsize)
#ifdef HAVE_AVX2
        if (use_avx2 && c->wide)
            RUN(wordle_rows_u64_avx2, uint64_t);
        else if (use_avx2)
            RUN(wordle_rows_u32_avx2, uint32_t);
        else
#endif
            if (c->wide)
            RUN(wordle_rows_u64, uint64_t);
        else
            RUN(wordle_rows_u32, uint32_t);
#undef RUN
    }
    free(r.block);
    return 0;
}

PyDoc_STRVAR(wordle_doc,
             "wordle(guesses, targets, out, first, stop) -> None\n\n"
             "Write into rows ``first:stop`` of ``out`` (uint8, uint16 or uint32, one row per\n"
             "guess, one column per target) the Wordle reply code of each guess to each\n"
             "target (see client.games.wordle_reply). ``guesses`` and ``targets`` are\n"
             "C-contiguous uint8 letter codes below 64, one word per row, of one length\n"
             "up to 20.");

static PyObject *wordle(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    struct call c;
    if (take_call("wordle", args, nargs, &c) < 0)
        return NULL;
    const uint8_t top_guess = largest(c.guesses.buf, c.n_guesses * c.length);
    const uint8_t top_target = largest(c.targets.buf, c.n_targets * c.length);
    const uint8_t top = top_guess > top_target ? top_guess : top_target;
    c.wide = top >= 32;
    const char *problem = NULL;
    if (c.length > MAX_WORDLE_LENGTH)
        problem = "a Wordle reply code holds at most 20 letters";
    else if (top >= 64)
        problem = "letter sets hold letter codes below 64";
    if (problem) {
        release(&c);
        PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    int status = 0;
    if (c.first < c.stop && c.n_targets > 0) {
        Py_BEGIN_ALLOW_THREADS;
        status = wordle_span(&c);
        Py_END_ALLOW_THREADS;
    }
    release(&c);
    if (status < 0)
        return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* Fill the call's span with Mastermind codes, as wordle_span does. */
static int mastermind_span(const struct call *c)
{
    struct rows r;
    if (transpose(c, 0, &r) < 0)
        return -1;
    const Py_ssize_t n = c->n_targets, itemsize = c->out.itemsize;
    for (Py_ssize_t t0 = 0; t0 < n; t0 += TILE) {
        const Py_ssize_t count = n - t0 < TILE ? n - t0 : TILE;
        char *out = (char *)c->out.buf + t0 * itemsize;
#define RUN(variant)                                                                               \
    variant(c->guesses.buf, c->length, (const uint32_t *)r.letters + t0, r.stride, count,       \
            c->first, c->stop, out, n * itemsize, itemsize)
#ifdef HAVE_AVX2
        if (use_avx2)
            RUN(mastermind_rows_u32_avx2);
        else
#endif
            RUN(mastermind_rows_u32);
#undef RUN
    }
    free(r.block);
    return 0;
}

PyDoc_STRVAR(mastermind_doc,
             "mastermind(guesses, targets, out, first, stop) -> None\n\n"
             "Write into rows ``first:stop`` of ``out`` (uint8, uint16 or uint32, one row per\n"
             "guess, one column per target) the Mastermind reply code, black * (length + 1)\n"
             "+ white, of each guess to each target (see client.games.mastermind_reply).\n"
             "``guesses`` and ``targets`` are C-contiguous uint8 colour codes, one code per\n"
             "row, of one length.");

static PyObject *mastermind(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    struct call c;
    if (take_call("mastermind", args, nargs, &c) < 0)
        return NULL;
    c.wide = 0; /* colours in lanes of 32 bits: no sets */
    int status = 0;
    if (c.first < c.stop && c.n_targets > 0) {
        Py_BEGIN_ALLOW_THREADS;
        status = mastermind_span(&c);
        Py_END_ALLOW_THREADS;
    }
    release(&c);
    if (status < 0)
        return PyErr_NoMemory();
    Py_RETURN_NONE;
}

PyDoc_STRVAR(vector_doc,
             "vector(on) -> bool\n\n"
             "Run the AVX2 copies of the loops if ``on`` and this CPU has AVX2, else the\n"
             "portable ones (the same replies: tests check both); return whether the\n"
             "AVX2 copies ran before. Not for use while another thread computes replies.");

static PyObject *vector(PyObject *module, PyObject *on)
{
    (void)module;
    const int wanted = PyObject_IsTrue(on);
    if (wanted < 0)
        return NULL;
#ifdef HAVE_AVX2
    const int before = use_avx2;
    use_avx2 = wanted && has_avx2;
    return PyBool_FromLong(before);
#else
    return PyBool_FromLong(0);
#endif
}

static PyMethodDef replies_methods[] = {
    {"wordle", (PyCFunction)(void (*)(void))wordle, METH_FASTCALL, wordle_doc},
    {"mastermind", (PyCFunction)(void (*)(void))mastermind, METH_FASTCALL, mastermind_doc},
    {"vector", vector, METH_O, vector_doc},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef replies_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_replies",
    .m_doc = "The reply kernels, compiled (see builder/reply_kernels.py).",
    .m_size = -1,
    .m_methods = replies_methods,
};

PyMODINIT_FUNC PyInit__replies(void)
{
#ifdef HAVE_AVX2
    __builtin_cpu_init();
    has_avx2 = use_avx2 = __builtin_cpu_supports("avx2") != 0;
    const long avx2 = has_avx2;
#else
    const long avx2 = 0;
#endif
    PyObject *module = PyModule_Create(&replies_module);
    if (module == NULL)
        return NULL;
    if (PyModule_AddIntConstant(module, "AVX2", avx2) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
