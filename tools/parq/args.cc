// Argument parsing for the subcommands; see args.h.
#include "args.h"

namespace parq::tool {

Args::Args(const std::vector<std::string>& argv, const std::vector<OptionSpec>& options) {
  bool options_done = false;
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if (options_done || arg.size() < 2 || arg[0] != '-') {
      positionals_.push_back(arg);
      continue;
    }
    if (arg == "--") {
      options_done = true;
      continue;
    }
    if (arg == "--help" || arg == "-h") {
      help_ = true;
      continue;
    }
    if (arg.rfind("--", 0) != 0) throw UsageError("unknown option '" + arg + "'");
    std::string name = arg.substr(2);
    std::optional<std::string> inline_value;
    if (size_t eq = name.find('='); eq != std::string::npos) {
      inline_value = name.substr(eq + 1);
      name.resize(eq);
    }
    const OptionSpec* spec = nullptr;
    for (const OptionSpec& o : options)
      if (name == o.name) spec = &o;
    if (spec == nullptr) throw UsageError("unknown option '--" + name + "'");
    if (!spec->takes_value) {
      if (inline_value) throw UsageError("option '--" + name + "' takes no value");
      values_[name].push_back("");
      continue;
    }
    if (!inline_value) {
      if (i + 1 >= argv.size()) throw UsageError("option '--" + name + "' needs a value");
      inline_value = argv[++i];
    }
    values_[name].push_back(*inline_value);
  }
}

std::optional<std::string> Args::value(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second.back();
}

std::vector<std::string> Args::all(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

const std::vector<std::string>& Args::expect_positionals(std::initializer_list<const char*> names) const {
  if (positionals_.size() < names.size())
    throw UsageError(std::string("missing ") + names.begin()[positionals_.size()]);
  if (positionals_.size() > names.size()) throw UsageError("unexpected argument '" + positionals_[names.size()] + "'");
  return positionals_;
}

}  // namespace parq::tool
