// An ArrowArrayStream as a BatchSource: the schema is planned once, then
// every array the stream yields is copied and released at once, so the
// producer's memory is held no longer than one import.
#include <string>
#include <utility>

#include "c_import_plan.h"
#include "parq/arrow/c_import.h"
#include "parq/error.h"

namespace parq {
namespace {

// Releases a C structure on every path out of a scope (and out of a
// constructor that throws).
template <class T>
struct Released {
  T value{};
  ~Released() {
    if (value.release != nullptr) value.release(&value);
  }
};

class StreamSource : public BatchSource {
 public:
  explicit StreamSource(ArrowArrayStream* stream) {
    if (stream == nullptr || stream->release == nullptr)
      throw Error("Arrow import: the stream is missing or released", ErrorKind::kInvalidArgument);
    // Moving a C stream is copying it and marking the original released.
    stream_.value = *stream;
    stream->release = nullptr;
    Released<ArrowSchema> schema;
    if (int rc = stream_.value.get_schema(&stream_.value, &schema.value); rc != 0) fail("get_schema", rc);
    plan_ = arrow_import::plan_import(&schema.value);
  }
  StreamSource(const StreamSource&) = delete;
  StreamSource& operator=(const StreamSource&) = delete;

  RecordBatch prototype() const override { return arrow_import::empty_rows(plan_); }

  bool next(RecordBatch& out) override {
    if (finished_) return false;
    Released<ArrowArray> array;
    if (int rc = stream_.value.get_next(&stream_.value, &array.value); rc != 0) fail("get_next", rc);
    if (array.value.release == nullptr) {
      finished_ = true;
      return false;
    }
    out = arrow_import::import_rows(plan_, &array.value);
    return true;
  }

 private:
  [[noreturn]] void fail(const char* call, int rc) {
    ArrowArrayStream& s = stream_.value;
    const char* message = s.get_last_error != nullptr ? s.get_last_error(&s) : nullptr;
    throw Error(std::string("Arrow import: stream ") + call + " failed (error " + std::to_string(rc) + ")" +
                    (message != nullptr ? std::string(": ") + message : std::string()),
                ErrorKind::kInvalidArgument);
  }

  Released<ArrowArrayStream> stream_;
  arrow_import::ImportPlan plan_;
  bool finished_ = false;
};

}  // namespace

std::unique_ptr<BatchSource> import_stream(ArrowArrayStream* stream) { return std::make_unique<StreamSource>(stream); }

}  // namespace parq
