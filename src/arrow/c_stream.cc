// Export of a BatchSource through the Arrow C Stream Interface. Exceptions
// never cross the C boundary: each callback turns them into an errno value
// and keeps the message for get_last_error.
#include <algorithm>
#include <cerrno>
#include <deque>
#include <exception>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "parq/arrow/c_export.h"
#include "parq/error.h"
#include "parq/util/thread_pool.h"

namespace parq {
namespace {

// A batch exported ahead of the consumer, or the error its export raised
// (reported when the consumer reaches it, after the batches before it).
struct ExportedBatch {
  ArrowArray array{};
  std::exception_ptr error;
};

struct StreamState {
  std::unique_ptr<BatchSource> source;
  std::string last_error;
  // The stream interface allows no calls but release and get_last_error
  // after an error; repeating the error keeps a careless consumer from
  // reading a source left mid-batch.
  int error = 0;
  bool finished = false;
  // With threads: batches taken from the source a window at a time and
  // exported side by side, since the conversions (decimals widened, INT96
  // to nanoseconds, ...) are a pass over the data that would otherwise run
  // on the consumer's one thread.
  std::unique_ptr<ThreadPool> pool;
  std::deque<ExportedBatch> ready;
  // Whether the source said it has no more batches (it need not say so
  // twice) or failed (its error is queued after the batches before it).
  bool drained = false;

  ~StreamState() {
    for (ExportedBatch& b : ready)
      if (b.array.release != nullptr) b.array.release(&b.array);
  }

  void export_window() {
    std::vector<RecordBatch> batches;
    const size_t window = static_cast<size_t>(pool->size()) * 2;
    std::exception_ptr source_error;
    try {
      RecordBatch batch;
      while (batches.size() < window) {
        if (!source->next(batch)) {
          drained = true;
          break;
        }
        batches.push_back(std::move(batch));
        batch = RecordBatch();
      }
    } catch (...) {
      source_error = std::current_exception();
      drained = true;
    }
    std::vector<ExportedBatch> out(batches.size());
    pool->parallel_for(batches.size(), [&](size_t i) {
      try {
        export_batch(std::move(batches[i]), &out[i].array, source->offsets_ordered());
      } catch (...) {
        out[i].error = std::current_exception();
      }
    });
    for (ExportedBatch& b : out) ready.push_back(b);
    if (source_error) ready.push_back({ArrowArray{}, source_error});
  }
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
    if (s.pool != nullptr) {
      if (s.ready.empty() && !s.finished && !s.drained) s.export_window();
      if (!s.ready.empty()) {
        ExportedBatch b = s.ready.front();
        s.ready.pop_front();
        if (b.error) std::rethrow_exception(b.error);
        *out = b.array;
        return;
      }
    } else {
      RecordBatch batch;
      if (!s.finished && s.source->next(batch)) return export_batch(std::move(batch), out, s.source->offsets_ordered());
    }
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

void export_stream(std::unique_ptr<BatchSource> source, ArrowArrayStream* out, int threads) {
  if (source == nullptr) throw Error("Arrow export: no batch source to stream", ErrorKind::kInvalidArgument);
  if (threads < 1) throw Error("Arrow export: threads must be at least 1", ErrorKind::kInvalidArgument);
  auto s = std::make_unique<StreamState>();
  s->source = std::move(source);
  if (threads > 1) s->pool = std::make_unique<ThreadPool>(threads);
  *out = ArrowArrayStream{};
  out->get_schema = get_schema;
  out->get_next = get_next;
  out->get_last_error = get_last_error;
  out->release = release_stream;
  out->private_data = s.release();
}

}  // namespace parq
