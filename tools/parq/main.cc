// `parq`: inspect, print, convert and check Parquet files. Dispatches to the
// subcommands; turns errors into one line on stderr and a non-zero exit.
#include <malloc.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "args.h"
#include "command.h"
#include "parq/error.h"

namespace parq::tool {
namespace {

const Command* const kCommands[] = {
    &kSchemaCommand,    &kMetaCommand,    &kPagesCommand,  &kIndexCommand,  &kBloomCommand,   &kDictionaryCommand,
    &kCatCommand,       &kCountCommand,   &kHeadCommand,   &kBenchCommand,  &kRewriteCommand, &kConvertCommand,
    &kSummarizeCommand, &kRecoverCommand, &kVerifyCommand, &kConcatCommand, &kMergeCommand,   &kSplitCommand};

// Scripts tell failures apart by the exit code, which follows the error's
// kind (kept stable: it is documented in the overview).
int exit_code(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kCorrupt:
      return 1;
    case ErrorKind::kInvalidArgument:
      return 2;
    case ErrorKind::kIo:
      return 3;
    case ErrorKind::kUnsupported:
      return 4;
    case ErrorKind::kLimit:
      return 5;
  }
  return 1;
}

void print_overview(FILE* out) {
  std::fprintf(out, "usage: parq COMMAND [OPTIONS] FILE...\n\nCommands:\n");
  for (const Command* c : kCommands) std::fprintf(out, "  %-10s %s\n", c->name, c->summary);
  std::fprintf(out, "\nRun 'parq COMMAND --help' for a command's options.\n");
  std::fprintf(out,
               "\nExit status: 0 success; 1 a corrupt or invalid file; 2 a bad argument (usage, unknown\n"
               "column, malformed filter); 3 an I/O failure (a file that cannot be opened, read or\n"
               "written); 4 a feature this build does not support (such as an encrypted column);\n"
               "5 a limit set too low for the data (--memory-limit).\n");
}

int run(int argc, char** argv) {
  if (argc < 2) {
    print_overview(stderr);
    return 2;
  }
  std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    print_overview(stdout);
    return 0;
  }
  if (name == "--version") {
    std::printf("parq %s\n", PARQ_VERSION);
    return 0;
  }
  const Command* command = nullptr;
  for (const Command* c : kCommands)
    if (name == c->name) command = c;
  if (command == nullptr) {
    std::fprintf(stderr, "parq: unknown command '%s' (run 'parq --help' for the list)\n", name.c_str());
    return 2;
  }
  std::vector<std::string> args(argv + 2, argv + argc);
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") {
      std::fputs(command->help, stdout);
      return 0;
    }
  }
  try {
    return command->run(args);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "parq %s: %s (see 'parq %s --help')\n", command->name, e.what(), command->name);
    return 2;
  } catch (const Error& e) {
    std::fprintf(stderr, "parq %s: %s\n", command->name, e.what());
    return exit_code(e.kind());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "parq %s: %s\n", command->name, e.what());
    return 1;
  }
}

}  // namespace
}  // namespace parq::tool

int main(int argc, char** argv) {
  // Batches hand their buffers to the caller and the next batch allocates
  // afresh; glibc would serve each of those (hundreds of KiB) with a new
  // mmap, and every page of it would fault in zeroed. Keeping them on the
  // heap lets freed batches be reused.
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
  return parq::tool::run(argc, argv);
}
