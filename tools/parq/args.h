// A small argument parser shared by the subcommands: `--flag`, `--opt VALUE`,
// `--opt=VALUE`, positionals, and `--` to end options. Usage mistakes raise
// UsageError, which main() prints as one line and exits with status 2.
#pragma once

#include <initializer_list>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace parq::tool {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct OptionSpec {
  const char* name;  // without the leading dashes
  bool takes_value;
};

class Args {
 public:
  Args(const std::vector<std::string>& argv, const std::vector<OptionSpec>& options);

  bool help() const { return help_; }
  bool flag(const std::string& name) const { return values_.count(name) != 0; }
  // The last value given; all() has every one of a repeatable option.
  std::optional<std::string> value(const std::string& name) const;
  std::vector<std::string> all(const std::string& name) const;
  const std::vector<std::string>& positionals() const { return positionals_; }

  // The positionals, checked to be exactly `names` (for the error message).
  const std::vector<std::string>& expect_positionals(std::initializer_list<const char*> names) const;

 private:
  std::map<std::string, std::vector<std::string>> values_;
  std::vector<std::string> positionals_;
  bool help_ = false;
};

}  // namespace parq::tool
