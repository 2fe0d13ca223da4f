// The subcommands of the `parq` tool. Each lives in its own file and defines
// one Command; main.cc lists them.
#pragma once

#include <string>
#include <vector>

namespace parq::tool {

struct Command {
  const char* name;
  const char* summary;  // one line for `parq --help`
  const char* help;     // the full text for `parq NAME --help`
  int (*run)(const std::vector<std::string>& args);
};

extern const Command kSchemaCommand;
extern const Command kMetaCommand;
extern const Command kPagesCommand;
extern const Command kCatCommand;
extern const Command kHeadCommand;
extern const Command kBenchCommand;
extern const Command kRewriteCommand;
extern const Command kConvertCommand;
extern const Command kIndexCommand;
extern const Command kBloomCommand;
extern const Command kDictionaryCommand;
extern const Command kCountCommand;
extern const Command kSummarizeCommand;
extern const Command kRecoverCommand;
extern const Command kVerifyCommand;
extern const Command kConcatCommand;
extern const Command kMergeCommand;
extern const Command kSplitCommand;

}  // namespace parq::tool
