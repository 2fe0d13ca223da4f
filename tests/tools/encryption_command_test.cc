// The tool's encryption options: rewrite and convert encrypt (explicit keys,
// or master keys of a KMS config with key material in the file or beside
// it), the reading commands decrypt, meta shows what keys a file needs and
// never a key, and mistakes are usage errors or named errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_paths.h"

namespace parq::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

const std::string kFooterHex = "30313233343536373839303132333435";  // "0123456789012345"
const std::string kColumnHex = "31323334353637383930313233343530";

class EncryptionCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::make_unique<TempDir>("encryption-command");
    source_ = (corpus_dir() / "data" / "alltypes_plain.parquet").string();
    plain_rows_ = run_tool({"cat", source_}).out;
    ASSERT_FALSE(plain_rows_.empty());
    std::ofstream(*dir_ / "kms.json") << "{\"kf\": \"" << kFooterHex << "\", \"kc1\": \"" << kColumnHex << "\"}";
  }
  std::string path(const std::string& name) const { return *dir_ / name; }
  std::unique_ptr<TempDir> dir_;
  std::string source_;
  std::string plain_rows_;
};

TEST_F(EncryptionCommand, ExplicitKeysRoundTripInEveryMode) {
  for (const char* algorithm : {"AES_GCM_V1", "AES_GCM_CTR_V1"})
    for (bool plaintext_footer : {false, true}) {
      SCOPED_TRACE(std::string(algorithm) + (plaintext_footer ? " plaintext footer" : ""));
      std::vector<std::string> args = {"rewrite",
                                       source_,
                                       path("e.parquet"),
                                       "--footer-key",
                                       kFooterHex,
                                       "--column-key",
                                       "string_col=base64:MTIzNDU2Nzg5MDEyMzQ1MA==",
                                       "--encryption-algorithm",
                                       algorithm};
      if (plaintext_footer) args.push_back("--plaintext-footer");
      CommandResult w = run_tool(args);
      ASSERT_EQ(w.exit_code, 0) << w.err;
      CommandResult r =
          run_tool({"cat", path("e.parquet"), "--footer-key", kFooterHex, "--column-key", "string_col=" + kColumnHex});
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(r.out, plain_rows_);
      // Without the column's key, the other columns still read.
      CommandResult some = run_tool({"cat", path("e.parquet"), "--footer-key", kFooterHex, "--columns", "id"});
      EXPECT_EQ(some.exit_code, 0) << some.err;
      CommandResult missing = run_tool({"cat", path("e.parquet"), "--footer-key", kFooterHex});
      EXPECT_NE(missing.exit_code, 0);
      EXPECT_THAT(missing.err, HasSubstr("column string_col"));
      CommandResult meta = run_tool({"meta", path("e.parquet"), "--footer-key", kFooterHex});
      EXPECT_THAT(meta.out, HasSubstr(std::string("encryption: ") + algorithm));
      EXPECT_THAT(meta.out, Not(HasSubstr(kFooterHex)));
    }
}

TEST_F(EncryptionCommand, KmsKeysWithKeyMaterialInsideAndBeside) {
  CommandResult w = run_tool({"rewrite", source_, path("inside.parquet"), "--kms-config", path("kms.json"),
                              "--footer-key", "kf", "--column-key", "string_col=kc1"});
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_FALSE(fs::exists(path("_KEY_MATERIAL_FOR_inside.parquet.json")));
  EXPECT_EQ(run_tool({"cat", path("inside.parquet"), "--kms-config", path("kms.json")}).out, plain_rows_);
  CommandResult meta = run_tool({"meta", path("inside.parquet"), "--kms-config", path("kms.json")});
  EXPECT_THAT(meta.out, HasSubstr("\"keyMaterialType\":\"PKMT1\""));
  EXPECT_THAT(meta.out, HasSubstr("\"masterKeyID\":\"kc1\""));

  w = run_tool({"rewrite", path("inside.parquet"), path("beside.parquet"), "--in-kms-config", path("kms.json"),
                "--kms-config", path("kms.json"), "--footer-key", "kf", "--external-key-material", "--single-wrapping",
                "--data-key-bits", "256"});
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_TRUE(fs::exists(path("_KEY_MATERIAL_FOR_beside.parquet.json")));
  EXPECT_EQ(run_tool({"cat", path("beside.parquet"), "--kms-config", path("kms.json")}).out, plain_rows_);
  // Without its key material, the file does not open.
  fs::remove(path("_KEY_MATERIAL_FOR_beside.parquet.json"));
  CommandResult lost = run_tool({"cat", path("beside.parquet"), "--kms-config", path("kms.json")});
  EXPECT_NE(lost.exit_code, 0);
  EXPECT_THAT(lost.err, HasSubstr("_KEY_MATERIAL_FOR_beside.parquet.json"));
}

TEST_F(EncryptionCommand, MistakesAreNamed) {
  CommandResult no_footer = run_tool({"rewrite", source_, path("x.parquet"), "--column-key", "id=" + kColumnHex});
  EXPECT_EQ(no_footer.exit_code, 2);
  EXPECT_THAT(no_footer.err, HasSubstr("--column-key needs --footer-key"));
  CommandResult bad_hex = run_tool({"rewrite", source_, path("x.parquet"), "--footer-key", "xyz0"});
  EXPECT_EQ(bad_hex.exit_code, 2);
  EXPECT_THAT(bad_hex.err, HasSubstr("not hex"));
  CommandResult short_key = run_tool({"rewrite", source_, path("x.parquet"), "--footer-key", "3031"});
  EXPECT_NE(short_key.exit_code, 0);
  EXPECT_THAT(short_key.err, HasSubstr("16, 24 or 32 bytes"));
  CommandResult unknown_column = run_tool(
      {"rewrite", source_, path("x.parquet"), "--footer-key", kFooterHex, "--column-key", "nope=" + kColumnHex});
  EXPECT_NE(unknown_column.exit_code, 0);
  EXPECT_THAT(unknown_column.err, HasSubstr("nope"));
  EXPECT_FALSE(fs::exists(path("x.parquet")));
  CommandResult algorithm = run_tool(
      {"rewrite", source_, path("x.parquet"), "--footer-key", kFooterHex, "--encryption-algorithm", "AES_CBC"});
  EXPECT_EQ(algorithm.exit_code, 2);
  CommandResult wrapping =
      run_tool({"rewrite", source_, path("x.parquet"), "--footer-key", kFooterHex, "--single-wrapping"});
  EXPECT_EQ(wrapping.exit_code, 2);
  EXPECT_THAT(wrapping.err, HasSubstr("--kms-config"));
  ASSERT_EQ(run_tool({"rewrite", source_, path("e.parquet"), "--footer-key", kFooterHex}).exit_code, 0);
  CommandResult wrong = run_tool({"cat", path("e.parquet"), "--footer-key", kColumnHex});
  EXPECT_EQ(wrong.exit_code, 1);
  EXPECT_THAT(wrong.err, HasSubstr("does not authenticate"));
  CommandResult none = run_tool({"cat", path("e.parquet")});
  EXPECT_THAT(none.err, HasSubstr("no keys were given"));
}

}  // namespace
}  // namespace parq::testing
