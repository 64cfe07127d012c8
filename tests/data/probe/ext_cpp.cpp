// A C++ extension module that needs a modern libstdc++ (std::string of the C++11 ABI,
// GLIBCXX_3.4.21+). Built with g++ at test time against the target interpreter's headers.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string>

static std::string greeting() { return std::string("hello from ") + "ext_cpp"; }

static PyObject *value(PyObject *, PyObject *) {
    std::string s = greeting();
    return PyUnicode_FromStringAndSize(s.data(), (Py_ssize_t)s.size());
}

static PyMethodDef methods[] = {{"value", value, METH_NOARGS, nullptr},
                                {nullptr, nullptr, 0, nullptr}};
static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, "ext_cpp", nullptr, -1, methods};

PyMODINIT_FUNC PyInit_ext_cpp(void) {
    if (greeting().empty()) return nullptr;
    return PyModule_Create(&def);
}
