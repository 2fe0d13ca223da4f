// parq::Error as Python exceptions: the class follows the error's kind
// (parq/_errors.py defines them, each a subclass of the builtin a Python
// caller expects: OSError, ValueError, NotImplementedError, MemoryError),
// and the location's fields become attributes, so callers branch on them
// instead of parsing messages.
#include <string>

#include "common.h"
#include "parq/error.h"

namespace parq::python {
namespace {

nb::object optional_int(int64_t v) { return v < 0 ? nb::none() : nb::object(nb::int_(v)); }
nb::object optional_str(const std::string& s) {
  return s.empty() ? nb::none() : nb::object(nb::str(s.data(), s.size()));
}

void raise(const Error& e) {
  const ErrorLocation& where = e.location();
  const std::string message = e.what();
  try {
    nb::object make = nb::module_::import_("parq._errors").attr("_from_parq");
    nb::object exc =
        make(to_string(e.kind()), nb::str(message.data(), message.size()),
             nb::str(e.detail().data(), e.detail().size()), optional_str(where.file), optional_int(where.row_group),
             optional_str(where.column), optional_int(where.page), optional_int(where.offset));
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exc.ptr())), exc.ptr());
  } catch (const nb::python_error&) {
    // Building the exception failed (parq._errors missing?): keep the
    // library's message at least.
    PyErr_SetString(PyExc_RuntimeError, message.c_str());
  }
}

}  // namespace

void register_errors(nb::module_& m) {
  (void)m;
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const Error& e) {
      raise(e);
    }
  });
}

}  // namespace parq::python
