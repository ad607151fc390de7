/* Reading numpy arrays (any object with the buffer protocol) from C, checked.
 *
 * Shared by the builder's native kernels (builder/optimal/_scan.c,
 * builder/_nyt.c, builder/_partitions.c). Every array a kernel reads or
 * writes is taken through take(): it must be C-contiguous with the element
 * size and kind asked for, or the call fails with a TypeError naming the
 * argument, never a wrong read.
 */
#ifndef GUESSWORK_BUFFERS_H
#define GUESSWORK_BUFFERS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* Element kinds: signed or unsigned integers, booleans, floats. */
enum kind { SIGNED, UNSIGNED, BOOLEAN, FLOAT };

/* Return 1 if the buffer's struct format describes one element of `kind`. */
static int format_is(const Py_buffer *view, enum kind kind)
{
    const char *f = view->format ? view->format : "B";
    if (*f == '<' || *f == '=' || *f == '@' || *f == '|')
        f++;
    if (f[0] == '\0' || f[1] != '\0')
        return 0;
    switch (kind) {
    case SIGNED:
        return strchr("bhilq", f[0]) != NULL;
    case UNSIGNED:
        return strchr("BHILQ", f[0]) != NULL;
    case BOOLEAN:
        return f[0] == '?';
    case FLOAT:
        return f[0] == 'd' || f[0] == 'f';
    }
    return 0;
}

/* Take `obj`'s buffer into `view`: C-contiguous, `ndim` dimensions (0: any),
 * elements of `itemsize` bytes (0: 1, 2 or 4) and `kind`, writable if asked.
 * Returns 0, or -1 with a TypeError naming `name` (nothing to release then). */
static int take(PyObject *obj, Py_buffer *view, int ndim, Py_ssize_t itemsize, enum kind kind,
                int writable, const char *name)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) {
        PyErr_Format(PyExc_TypeError, "%s: a %scontiguous array is needed", name,
                     writable ? "writable " : "");
        return -1;
    }
    int size_ok = itemsize ? view->itemsize == itemsize
                           : (view->itemsize == 1 || view->itemsize == 2 || view->itemsize == 4);
    if ((ndim && view->ndim != ndim) || !size_ok || !format_is(view, kind)) {
        PyErr_Format(PyExc_TypeError, "%s: wrong array shape or type (%d dimensions of '%s')",
                     name, view->ndim, view->format ? view->format : "B");
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* The number of elements of a taken buffer. */
static inline Py_ssize_t length_of(const Py_buffer *view)
{
    return view->len / view->itemsize;
}

#endif
