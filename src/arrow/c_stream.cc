// Export of a BatchSource through the Arrow C Stream Interface. Exceptions
// never cross the C boundary: each callback turns them into an errno value
// and keeps the message for get_last_error.
#include <cerrno>
#include <exception>
#include <new>
#include <string>
#include <utility>

#include "parq/arrow/c_export.h"
#include "parq/error.h"

namespace parq {
namespace {

struct StreamState {
  std::unique_ptr<BatchSource> source;
  std::string last_error;
  // The stream interface allows no calls but release and get_last_error
  // after an error; repeating the error keeps a careless consumer from
  // reading a source left mid-batch.
  int error = 0;
  bool finished = false;
};

StreamState& state(ArrowArrayStream* stream) { return *static_cast<StreamState*>(stream->private_data); }

template <class F>
int guarded(ArrowArrayStream* stream, F&& body) {
  StreamState& s = state(stream);
  if (s.error != 0) return s.error;
  try {
    body(s);
    return 0;
  } catch (const std::bad_alloc&) {
    s.last_error = "parq: out of memory";
    s.error = ENOMEM;
  } catch (const std::exception& e) {
    // parq::Error is the expected case; anything else from a source is
    // reported the same way rather than terminating the consumer.
    s.last_error = e.what();
    s.error = EIO;
  } catch (...) {
    s.last_error = "parq: unknown error";
    s.error = EIO;
  }
  return s.error;
}

int get_schema(ArrowArrayStream* stream, ArrowSchema* out) {
  return guarded(stream, [out](StreamState& s) { export_schema(s.source->prototype(), out); });
}

int get_next(ArrowArrayStream* stream, ArrowArray* out) {
  return guarded(stream, [out](StreamState& s) {
    RecordBatch batch;
    if (!s.finished && s.source->next(batch)) return export_batch(std::move(batch), out);
    s.finished = true;    // sources need not keep answering false
    *out = ArrowArray{};  // release == nullptr marks the end of the stream
  });
}

const char* get_last_error(ArrowArrayStream* stream) {
  const StreamState& s = state(stream);
  return s.last_error.empty() ? nullptr : s.last_error.c_str();
}

void release_stream(ArrowArrayStream* stream) {
  delete static_cast<StreamState*>(stream->private_data);
  stream->release = nullptr;
}

}  // namespace

void export_stream(std::unique_ptr<BatchSource> source, ArrowArrayStream* out) {
  if (source == nullptr) throw Error("Arrow export: no batch source to stream", ErrorKind::kInvalidArgument);
  auto s = std::make_unique<StreamState>();
  s->source = std::move(source);
  *out = ArrowArrayStream{};
  out->get_schema = get_schema;
  out->get_next = get_next;
  out->get_last_error = get_last_error;
  out->release = release_stream;
  out->private_data = s.release();
}

}  // namespace parq
