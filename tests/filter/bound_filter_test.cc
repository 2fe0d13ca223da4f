// Binding literals to columns (typed by logical type, misfits named), NOT
// pushed to the leaves, and the three-valued evaluation of leaf tests on
// values, rows and statistics summaries.
#include "../../src/filter/bound_filter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "parq/error.h"
#include "parq/schema/schema_text.h"

namespace parq::filter {
namespace {

const Schema& test_schema() {
  static const Schema schema = parse_schema_text(R"(message m {
    required int64 id;
    optional int32 i8 (INTEGER(8,true));
    optional int32 u32 (INTEGER(32,false));
    optional int64 u64 (INTEGER(64,false));
    optional double d;
    optional float f;
    optional binary s (STRING);
    optional int32 day (DATE);
    optional int64 price (DECIMAL(12,2));
    optional fixed_len_byte_array(9) big (DECIMAL(20,3));
    optional binary bin_dec (DECIMAL(30,0));
    optional int64 ts (TIMESTAMP(MICROS,true));
    optional int64 local_ts (TIMESTAMP(MILLIS,false));
    optional int32 t (TIME(MILLIS,false));
    optional boolean flag;
    optional fixed_len_byte_array(16) u (UUID);
    optional fixed_len_byte_array(2) h (FLOAT16);
    optional int96 old_ts;
    optional group g {
      optional int32 x;
    }
    optional group l (LIST) {
      repeated group list {
        optional int32 element;
      }
    }
  })");
  return schema;
}

const ColumnDescriptor& col(const char* path) {
  int i = test_schema().find_column(path);
  EXPECT_GE(i, 0) << path;
  return test_schema().column(static_cast<size_t>(i));
}

std::string bind_error(const char* column, const Literal& l) {
  try {
    bind_literal(col(column), l);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(FilterBind, LiteralsTakeTheColumnsStorage) {
  EXPECT_EQ(bind_literal(col("price"), Literal::number("12.5")).integer, 1250);
  EXPECT_EQ(bind_literal(col("price"), Literal::number("-0.01")).integer, -1);
  EXPECT_EQ(bind_literal(col("price"), Literal::number("1.2e3")).integer, 120000);
  EXPECT_EQ(bind_literal(col("day"), Literal::date("1970-01-02")).integer, 1);
  EXPECT_EQ(bind_literal(col("day"), Literal::string("1969-12-31")).integer, -1);
  EXPECT_EQ(bind_literal(col("ts"), Literal::timestamp("1970-01-01 00:00:01+01:00")).integer, -3599 * 1000000LL);
  EXPECT_EQ(bind_literal(col("ts"), Literal::date("1970-01-02")).integer, 86400LL * 1000000);
  EXPECT_EQ(bind_literal(col("t"), Literal::time("01:00:00.5")).integer, 3600500);
  EXPECT_EQ(bind_literal(col("u32"), Literal::number("4294967295")).integer, -1);  // the bits of UINT32_MAX
  EXPECT_EQ(bind_literal(col("u64"), Literal::number("18446744073709551615")).integer, -1);
  EXPECT_EQ(bind_literal(col("f"), Literal::number("0.1")).real, static_cast<double>(0.1f));
  EXPECT_TRUE(std::isnan(bind_literal(col("d"), Literal::number("NaN")).real));
  EXPECT_EQ(bind_literal(col("big"), Literal::number("-0.001")).bytes, std::string(9, '\xff'));
  EXPECT_EQ(bind_literal(col("bin_dec"), Literal::number("256")).bytes, std::string("\x01\x00", 2));
  EXPECT_EQ(bind_literal(col("bin_dec"), Literal::number("-129")).bytes, std::string("\xff\x7f", 2));
  EXPECT_EQ(bind_literal(col("u"), Literal::string("00112233-4455-6677-8899-aabbccddeeff")).bytes,
            std::string("\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff", 16));
  EXPECT_EQ(bind_literal(col("flag"), Literal::boolean(true)).integer, 1);
  EXPECT_EQ(bind_literal(col("h"), Literal::number("1.5")).real, 1.5);
  EXPECT_EQ(bind_literal(col("old_ts"), Literal::timestamp("1970-01-01 00:00:00")).bytes.size(), 12u);
}

TEST(FilterBind, ValuesAsCatPrintsThem) {
  const Schema schema = parse_schema_text(
      "message m { optional binary b; optional fixed_len_byte_array(2) f; optional int32 d (DATE); "
      "optional binary s (STRING); }");
  auto column = [&](const char* p) -> const ColumnDescriptor& {
    return schema.column(static_cast<size_t>(schema.find_column(p)));
  };
  EXPECT_EQ(physical_value_from_text(column("b"), "/5bHKweBXjN1").bytes,
            std::string("\xff\x96\xc7\x2b\x07\x81\x5e\x33\x75"));
  EXPECT_EQ(physical_value_from_text(column("b"), "").bytes, "");
  EXPECT_EQ(physical_value_from_text(column("b"), "YQ==").bytes, "a");
  EXPECT_EQ(physical_value_from_text(column("f"), "YWI=").bytes, "ab");
  EXPECT_THROW(physical_value_from_text(column("b"), "not base64!"), Error);
  EXPECT_THROW(physical_value_from_text(column("b"), "YQ="), Error);
  EXPECT_EQ(physical_value_from_text(column("d"), "1970-01-03").integer, 2);
  EXPECT_EQ(physical_value_from_text(column("s"), "/5bH").bytes, "/5bH");
}

TEST(FilterBind, MisfitsNameTheColumn) {
  EXPECT_NE(bind_error("i8", Literal::number("128")).find("column i8"), std::string::npos);
  EXPECT_NE(bind_error("i8", Literal::number("128")).find("outside"), std::string::npos);
  EXPECT_NE(bind_error("u32", Literal::number("-1")).find("outside"), std::string::npos);
  EXPECT_NE(bind_error("id", Literal::number("1.5")).find("whole number"), std::string::npos);
  EXPECT_NE(bind_error("price", Literal::number("1.001")).find("DECIMAL(12,2)"), std::string::npos);
  EXPECT_NE(bind_error("price", Literal::number("10000000000")).find("DECIMAL(12,2)"), std::string::npos);
  EXPECT_NE(bind_error("bin_dec", Literal::number(std::string(45, '9'))).find("DECIMAL(30,0)"), std::string::npos);
  // Wider than 128 bits: such literals are refused, not overflowed.
  const Schema wide = parse_schema_text("message m { optional binary w (DECIMAL(60,0)); }");
  EXPECT_THROW(bind_literal(wide.column(0), Literal::number(std::string(45, '9'))), Error);
  EXPECT_EQ(bind_literal(wide.column(0), Literal::number("-1")).bytes, std::string("\xff", 1));
  EXPECT_NE(bind_error("day", Literal::date("2020-02-30")).find("not a date"), std::string::npos);
  EXPECT_NE(bind_error("local_ts", Literal::timestamp("2020-01-01 00:00:00Z")).find("local"), std::string::npos);
  EXPECT_NE(bind_error("local_ts", Literal::timestamp("2020-01-01 00:00:00.0001")).find("finer"), std::string::npos);
  EXPECT_NE(bind_error("s", Literal::number("5")).find("not a string"), std::string::npos);
  EXPECT_NE(bind_error("u", Literal::string("xyz")).find("not a UUID"), std::string::npos);
  EXPECT_NE(bind_error("flag", Literal::number("1")).find("TRUE or FALSE"), std::string::npos);
  for (const char* bad : {"nothere = 1", "g = 1", "l.list.element = 1", "id LIKE 'a%'", "i8 = 1000"}) {
    try {
      BoundFilter::bind(*parse_filter(bad), test_schema());
      ADD_FAILURE() << "bound: " << bad;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("filter"), std::string::npos) << e.what();
    }
  }
}

TEST(FilterBind, NotIsPushedToTheLeaves) {
  auto f = BoundFilter::bind(*parse_filter("NOT (id < 5 OR s IS NULL) AND NOT id IN (1, 2)"), test_schema());
  // (id >= 5 AND s IS NOT NULL) AND id NOT IN (1, 2)
  EXPECT_EQ(f.to_string(test_schema()), "((id >= <value> AND s IS NOT NULL) AND id NOT IN (2 values))");
  EXPECT_EQ(f.columns(), (std::vector<int>{col("id").column_index, col("s").column_index}));
  auto never = BoundFilter::bind(*parse_filter("NOT (id IN (1, NULL))"), test_schema());
  EXPECT_EQ(never.root().kind, FilterNode::Kind::kUnknown);
  auto cmp_null = BoundFilter::bind(*parse_filter("NOT (id = NULL)"), test_schema());
  EXPECT_EQ(cmp_null.root().kind, FilterNode::Kind::kUnknown);
}

// Rows of a double column: values 1, NaN, -0.0, null, 3.
std::vector<uint8_t> double_truths(const char* where) {
  auto f = BoundFilter::bind(*parse_filter(where), test_schema());
  const double dense[] = {1.0, std::nan(""), -0.0, 3.0};
  const int16_t def[] = {1, 1, 1, 0, 1};
  const DenseValues values = dense_values(col("d"), reinterpret_cast<const uint8_t*>(dense), nullptr, nullptr);
  std::vector<std::vector<uint8_t>> truths(f.tests().size(), std::vector<uint8_t>(5));
  for (size_t t = 0; t < f.tests().size(); ++t) evaluate_test(f.tests()[t], values, def, 1, 5, truths[t].data());
  std::vector<uint8_t> out(5);
  evaluate_tree(f.root(), truths, 5, out.data());
  return out;
}

TEST(FilterEvaluate, ThreeValuedLogicWithNaNAndSignedZero) {
  const uint8_t T = kRowTrue, F = kRowFalse, U = kRowUnknown;
  EXPECT_EQ(double_truths("d > 2"), (std::vector<uint8_t>{F, T, F, U, T}));  // NaN above every number
  EXPECT_EQ(double_truths("d = NaN"), (std::vector<uint8_t>{F, T, F, U, F}));
  EXPECT_EQ(double_truths("d = 0"), (std::vector<uint8_t>{F, F, T, U, F}));  // -0.0 = 0
  EXPECT_EQ(double_truths("d < NaN"), (std::vector<uint8_t>{T, F, T, U, T}));
  EXPECT_EQ(double_truths("NOT d > 2"), (std::vector<uint8_t>{T, F, T, U, F}));
  EXPECT_EQ(double_truths("d IS NULL"), (std::vector<uint8_t>{F, F, F, T, F}));
  EXPECT_EQ(double_truths("d > 2 OR d IS NULL"), (std::vector<uint8_t>{F, T, F, T, T}));
  EXPECT_EQ(double_truths("d > 2 AND d IS NULL"), (std::vector<uint8_t>{F, F, F, U, F}));  // unknown AND true
  EXPECT_EQ(double_truths("d IN (1, NULL)"), (std::vector<uint8_t>{T, F, F, U, F}));
  EXPECT_EQ(double_truths("d NOT IN (1, NaN)"), (std::vector<uint8_t>{F, F, T, U, T}));
  EXPECT_EQ(double_truths("NOT (d > 2 OR d = 1)"), (std::vector<uint8_t>{F, F, T, U, F}));
}

TEST(FilterEvaluate, SummariesNeverRuleOutAMatch) {
  auto test_of = [](const char* where) { return BoundFilter::bind(*parse_filter(where), test_schema()).tests()[0]; };
  PhysicalValue lo, hi;
  lo.real = 1;
  hi.real = 2;
  ValueSummary s{&lo, &hi, false, true, false};
  EXPECT_FALSE(may_be_true(test_of("d > 2"), s));
  EXPECT_TRUE(may_be_true(test_of("d >= 2"), s));
  EXPECT_FALSE(may_be_true(test_of("d = NaN"), s));
  EXPECT_FALSE(may_be_true(test_of("d IS NULL"), s));
  EXPECT_FALSE(may_be_true(test_of("d < 1"), s));
  EXPECT_TRUE(may_be_true(test_of("d != 1"), s));
  s.may_have_nan = true;  // a NaN may hide above max
  EXPECT_TRUE(may_be_true(test_of("d > 2"), s));
  EXPECT_TRUE(may_be_true(test_of("d = NaN"), s));
  EXPECT_FALSE(may_be_true(test_of("d < 1"), s));

  PhysicalValue a, b;
  a.bytes = "apple";
  b.bytes = "apricot";
  ValueSummary str{&a, &b, true, true, false};
  EXPECT_TRUE(may_be_true(test_of("s LIKE 'ap%'"), str));
  EXPECT_TRUE(may_be_true(test_of("s LIKE 'apr%'"), str));
  EXPECT_FALSE(may_be_true(test_of("s LIKE 'b%'"), str));
  EXPECT_FALSE(may_be_true(test_of("s LIKE 'aa%'"), str));
  EXPECT_FALSE(may_be_true(test_of("NOT s LIKE 'ap%'"), str));
  EXPECT_TRUE(may_be_true(test_of("s IS NULL"), str));
  ValueSummary all_null{nullptr, nullptr, true, false, false};
  EXPECT_FALSE(may_be_true(test_of("s = 'x'"), all_null));
  EXPECT_TRUE(may_be_true(test_of("s IS NULL"), all_null));
  EXPECT_FALSE(may_be_true(test_of("s IS NOT NULL"), all_null));

  // Unsigned integers order by their unsigned value.
  PhysicalValue ulo, uhi;
  ulo.integer = 1;
  uhi.integer = -1;  // UINT32_MAX's bits
  ValueSummary u{&ulo, &uhi, false, true, false};
  EXPECT_TRUE(may_be_true(test_of("u32 > 3000000000"), u));
  EXPECT_FALSE(may_be_true(test_of("u32 < 1"), u));
}

TEST(FilterEvaluate, DictionaryValues) {
  auto test_of = [](const char* where) { return BoundFilter::bind(*parse_filter(where), test_schema()).tests()[0]; };
  PhysicalValue v;
  v.bytes = "hello";
  EXPECT_TRUE(value_matches(test_of("s = 'hello'"), v));
  EXPECT_FALSE(value_matches(test_of("s != 'hello'"), v));
  EXPECT_TRUE(value_matches(test_of("s LIKE 'he%'"), v));
  EXPECT_TRUE(value_matches(test_of("s NOT IN ('a', 'b')"), v));
  EXPECT_FALSE(value_matches(test_of("s IS NULL"), v));
  PhysicalValue dec;
  dec.bytes = std::string("\xff", 1);  // -1 in the fewest bytes
  EXPECT_TRUE(value_matches(test_of("bin_dec < 0"), dec));
  EXPECT_TRUE(value_matches(test_of("bin_dec > -300"), dec));
}

}  // namespace
}  // namespace parq::filter
