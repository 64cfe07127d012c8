/* One source for every fixture extension module of tests/probe (built at test time by
 * tests/probe/conftest.py with the target interpreter's headers).
 *   -DMODNAME=ext_a            the module name (PyInit_ext_a)
 *   -DCALL=f_v1                a function from a linked library, called at import
 *   -DABORT                    abort() while importing: a crash, not an exception
 *   -DUSE_OMP                  CALL comes from OpenMP (omp.h)
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#ifdef USE_OMP
#include <omp.h>
#endif

#define CAT(a, b) a##b
#define XCAT(a, b) CAT(a, b)
#define STR(a) #a
#define XSTR(a) STR(a)

#ifdef CALL
#ifndef USE_OMP
extern int CALL(void);
#endif
static long call_it(void) { return (long)CALL(); }
#else
static long call_it(void) { return 0; }
#endif

static PyObject *value(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    return PyLong_FromLong(call_it());
}

static PyMethodDef methods[] = {{"value", value, METH_NOARGS, NULL}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, XSTR(MODNAME), NULL, -1, methods};

PyMODINIT_FUNC XCAT(PyInit_, MODNAME)(void) {
#ifdef ABORT
    abort();
#endif
    call_it(); /* bind the library's symbol now, at import */
    return PyModule_Create(&def);
}
