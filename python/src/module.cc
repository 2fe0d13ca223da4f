// parq._parq: the extension module behind the parq package. Each part
// registers its own classes; parq/__init__.py is the public face.
#include "common.h"
#include "encryption.h"

NB_MODULE(_parq, m) {
  m.doc() = "parq's C++ reader and writer (use the parq package rather than this module).";
  m.attr("__version__") = PARQ_VERSION;
  parq::python::register_errors(m);
  parq::python::register_data(m);
  parq::python::register_reading(m);
  parq::python::register_writing(m);
  parq::python::register_datasets(m);
  parq::python::register_encryption(m);
  parq::python::register_file_tools(m);
}
