/* NYT hard mode's rule, compiled (see builder/nyt_hard.py, which documents the
 * constraint state: per position the green letter or FREE/CONFLICT, then per
 * letter the least count a guess must hold).
 *
 * In C so that the exact search in NYT hard mode runs without a JIT (see
 * builder/optimal/_scan.c). The rule itself is builder/_nyt_rule.h, which the
 * greedy tree grower (builder/_partitions.c) calls too; this module checks the
 * arguments from Python: a word's letters must be codes the state has room
 * for, or the call raises.
 */
#include "_buffers.h"
#include "_nyt_rule.h"

/* Take (word-like, state) and check they agree; -1 with an error set. */
static int take_state(PyObject *obj, Py_buffer *state, int writable, const char *name)
{
    return take(obj, state, 1, 1, SIGNED, writable, name);
}

static int letters_fit(const uint8_t *word, Py_ssize_t length, Py_ssize_t letters)
{
    for (Py_ssize_t p = 0; p < length; p++)
        if (word[p] >= letters)
            return 0;
    return 1;
}

PyDoc_STRVAR(advance_doc, "advance_state(state, guess, code, out) -> None\n\n"
                          "Write into ``out`` the state after ``guess`` (letter codes, uint8)\n"
                          "got reply ``code`` in ``state`` (int8). ``out`` may be ``state``.");

static PyObject *advance_state(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "advance_state takes 4 arguments");
        return NULL;
    }
    long long code = PyLong_AsLongLong(args[2]);
    if (PyErr_Occurred())
        return NULL;
    Py_buffer state, guess, out;
    if (take_state(args[0], &state, 0, "state") < 0)
        return NULL;
    if (take(args[1], &guess, 1, 1, UNSIGNED, 0, "guess") < 0) {
        PyBuffer_Release(&state);
        return NULL;
    }
    if (take_state(args[3], &out, 1, "out") < 0) {
        PyBuffer_Release(&state);
        PyBuffer_Release(&guess);
        return NULL;
    }
    const Py_ssize_t length = guess.len, letters = state.len - length;
    const uint8_t *word = guess.buf;
    int8_t *next = out.buf;
    const char *problem = NULL;
    if (letters < 1 || letters > 256 || out.len != state.len)
        problem = "the state does not fit the guess";
    else if (!letters_fit(word, length, letters))
        problem = "a letter of the guess is outside the state's letters";
    else if (code < 0)
        problem = "a reply code cannot be negative";
    if (problem == NULL)
        nyt_advance(state.buf, word, length, letters, code, next);
    PyBuffer_Release(&state);
    PyBuffer_Release(&guess);
    PyBuffer_Release(&out);
    if (problem) {
        PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    Py_RETURN_NONE;
}

PyDoc_STRVAR(is_legal_doc, "is_legal(word, state) -> bool\n\n"
                           "Whether ``word`` (letter codes, uint8) meets the NYT rule in ``state``.");

static PyObject *is_legal(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "is_legal takes 2 arguments");
        return NULL;
    }
    Py_buffer word, state;
    if (take(args[0], &word, 1, 1, UNSIGNED, 0, "word") < 0)
        return NULL;
    if (take_state(args[1], &state, 0, "state") < 0) {
        PyBuffer_Release(&word);
        return NULL;
    }
    const Py_ssize_t length = word.len, letters = state.len - length;
    int ok = letters >= 1 && letters <= 256 && letters_fit(word.buf, length, letters);
    int result = ok && nyt_legal(word.buf, length, state.buf, letters);
    PyBuffer_Release(&word);
    PyBuffer_Release(&state);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "the word does not fit the state");
        return NULL;
    }
    return PyBool_FromLong(result);
}

PyDoc_STRVAR(legal_mask_doc,
             "legal_mask(letters, state, out) -> None\n\n"
             "Write into ``out`` (bool, one per word) which rows of ``letters`` (words x\n"
             "length, uint8) meet the NYT rule in ``state``.");

static PyObject *legal_mask(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "legal_mask takes 3 arguments");
        return NULL;
    }
    Py_buffer words, state, out;
    if (take(args[0], &words, 2, 1, UNSIGNED, 0, "letters") < 0)
        return NULL;
    if (take_state(args[1], &state, 0, "state") < 0) {
        PyBuffer_Release(&words);
        return NULL;
    }
    if (take(args[2], &out, 1, 1, BOOLEAN, 1, "out") < 0) {
        PyBuffer_Release(&words);
        PyBuffer_Release(&state);
        return NULL;
    }
    const Py_ssize_t count = words.shape[0], length = words.shape[1];
    const Py_ssize_t letters = state.len - length;
    const uint8_t *all = words.buf;
    const char *problem = NULL;
    if (letters < 1 || letters > 256)
        problem = "the state does not fit the words";
    else if (out.len != count)
        problem = "out must hold one entry per word";
    else if (!letters_fit(all, count * length, letters))
        problem = "a letter of the words is outside the state's letters";
    if (problem == NULL) {
        uint8_t *mask = out.buf;
        const int8_t *rule = state.buf;
        Py_BEGIN_ALLOW_THREADS;
        for (Py_ssize_t row = 0; row < count; row++)
            mask[row] = (uint8_t)nyt_legal(all + row * length, length, rule, letters);
        Py_END_ALLOW_THREADS;
    }
    PyBuffer_Release(&words);
    PyBuffer_Release(&state);
    PyBuffer_Release(&out);
    if (problem) {
        PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    Py_RETURN_NONE;
}

PyDoc_STRVAR(child_keys_doc,
             "child_keys(state, guess, codes, empty) -> list[bytes]\n\n"
             "Return the state after ``guess`` (letter codes, uint8) got each reply of\n"
             "``codes`` (int64) in ``state`` (int8), as bytes: b\"\" where it equals\n"
             "``empty`` (the state before any guess, int8, as long as ``state``).");

static PyObject *child_keys(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "child_keys takes 4 arguments");
        return NULL;
    }
    Py_buffer state, guess, codes, empty;
    if (take_state(args[0], &state, 0, "state") < 0)
        return NULL;
    if (take(args[1], &guess, 1, 1, UNSIGNED, 0, "guess") < 0) {
        PyBuffer_Release(&state);
        return NULL;
    }
    if (take(args[2], &codes, 1, 8, SIGNED, 0, "codes") < 0) {
        PyBuffer_Release(&state);
        PyBuffer_Release(&guess);
        return NULL;
    }
    if (take_state(args[3], &empty, 0, "empty") < 0) {
        PyBuffer_Release(&state);
        PyBuffer_Release(&guess);
        PyBuffer_Release(&codes);
        return NULL;
    }
    const Py_ssize_t length = guess.len, letters = state.len - length;
    const Py_ssize_t count = length_of(&codes);
    const int64_t *code = codes.buf;
    const char *problem = NULL;
    if (letters < 1 || letters > 256 || empty.len != state.len)
        problem = "the state does not fit the guess";
    else if (state.len > 512)
        problem = "the state is too long (more than 512 entries)";
    else if (!letters_fit(guess.buf, length, letters))
        problem = "a letter of the guess is outside the state's letters";
    for (Py_ssize_t i = 0; problem == NULL && i < count; i++)
        if (code[i] < 0)
            problem = "a reply code cannot be negative";
    PyObject *out = problem ? NULL : PyList_New(count);
    int8_t next[512];
    for (Py_ssize_t i = 0; out != NULL && i < count; i++) {
        nyt_advance(state.buf, guess.buf, length, letters, code[i], next);
        const int nothing = memcmp(next, empty.buf, (size_t)state.len) == 0;
        PyObject *key = PyBytes_FromStringAndSize(nothing ? "" : (const char *)next,
                                                  nothing ? 0 : state.len);
        if (key == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, key);
    }
    PyBuffer_Release(&state);
    PyBuffer_Release(&guess);
    PyBuffer_Release(&codes);
    PyBuffer_Release(&empty);
    if (problem) {
        PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    return out;
}

static PyMethodDef nyt_methods[] = {
    {"advance_state", (PyCFunction)(void (*)(void))advance_state, METH_FASTCALL, advance_doc},
    {"is_legal", (PyCFunction)(void (*)(void))is_legal, METH_FASTCALL, is_legal_doc},
    {"legal_mask", (PyCFunction)(void (*)(void))legal_mask, METH_FASTCALL, legal_mask_doc},
    {"child_keys", (PyCFunction)(void (*)(void))child_keys, METH_FASTCALL, child_keys_doc},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef nyt_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_nyt",
    .m_doc = "NYT hard mode's rule, compiled (see builder/nyt_hard.py).",
    .m_size = -1,
    .m_methods = nyt_methods,
};

PyMODINIT_FUNC PyInit__nyt(void)
{
    return PyModule_Create(&nyt_module);
}
