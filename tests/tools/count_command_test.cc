// `parq count` and the filter options of `parq cat`: counts alone on their
// line, --where and --offset on rows, --explain's plan, and usage errors
// (exit 2) for a filter that does not parse or a bad number, bad input
// (exit 1) for a literal that does not fit its column.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_paths.h"

namespace parq::testing {
namespace {

using ::testing::HasSubstr;

std::string tiny_pages() { return (corpus_dir() / "data" / "alltypes_tiny_pages.parquet").string(); }

TEST(CountCommand, CountsAloneOnTheirLine) {
  auto all = run_tool({"count", tiny_pages()});
  EXPECT_EQ(all.exit_code, 0);
  EXPECT_EQ(all.out, "7300\n");
  auto some = run_tool({"count", tiny_pages(), "--where", "id < 100 AND bool_col = TRUE"});
  EXPECT_EQ(some.exit_code, 0);
  EXPECT_EQ(some.out, "50\n");
  auto none = run_tool({"count", tiny_pages(), "--where", "id < 0"});
  EXPECT_EQ(none.out, "0\n");
}

TEST(CountCommand, CatWhereOffsetLimitAndExplain) {
  auto rows = run_tool(
      {"cat", tiny_pages(), "--columns", "id", "--where", "id BETWEEN 10 AND 20", "--offset", "2", "--limit", "3"});
  EXPECT_EQ(rows.exit_code, 0) << rows.err;
  // The file stores ids in its own order; the filter keeps 11 of them.
  EXPECT_EQ(std::count(rows.out.begin(), rows.out.end(), '\n'), 3);
  auto explain = run_tool({"cat", tiny_pages(), "--where", "id BETWEEN 10 AND 20", "--explain"});
  EXPECT_EQ(explain.exit_code, 0) << explain.err;
  EXPECT_THAT(explain.out, HasSubstr("filter: (id >= 10 AND id <= 20)"));
  EXPECT_THAT(explain.out, HasSubstr("pruned by the page index"));
  EXPECT_THAT(explain.out, HasSubstr("11 returned"));
}

TEST(CountCommand, CatMemoryLimitAndThreads) {
  auto whole = run_tool({"cat", tiny_pages(), "--columns", "id,string_col"});
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  auto fitted = run_tool({"cat", tiny_pages(), "--columns", "id,string_col", "--threads", "2", "--batch-rows", "500",
                          "--memory-limit", "1000000"});
  EXPECT_EQ(fitted.exit_code, 0) << fitted.err;
  EXPECT_EQ(fitted.out, whole.out);
  auto tight = run_tool({"cat", tiny_pages(), "--memory-limit", "100"});
  EXPECT_EQ(tight.exit_code, 5);
  EXPECT_THAT(tight.err, HasSubstr("more than the memory limit of 100 bytes"));
}

TEST(CountCommand, BadFiltersAreErrors) {
  auto syntax = run_tool({"count", tiny_pages(), "--where", "id <"});
  EXPECT_EQ(syntax.exit_code, 2);
  EXPECT_THAT(syntax.err, HasSubstr("--where"));
  auto misfit = run_tool({"cat", tiny_pages(), "--where", "tinyint_col = 'x'"});
  EXPECT_EQ(misfit.exit_code, 2);
  EXPECT_THAT(misfit.err, HasSubstr("column tinyint_col"));
  auto unknown = run_tool({"count", tiny_pages(), "--where", "nothere = 1"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_THAT(unknown.err, HasSubstr("no column 'nothere'"));
  auto offset = run_tool({"cat", tiny_pages(), "--offset", "-3"});
  EXPECT_EQ(offset.exit_code, 2);
}

}  // namespace
}  // namespace parq::testing
