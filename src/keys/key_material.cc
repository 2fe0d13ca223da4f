// PKMT1 key material and key metadata texts, the external key material
// file, and parquet-java's column keys property.

#include <cctype>
#include <filesystem>
#include <set>

#include "local_text.h"
#include "parq/error.h"
#include "parq/io/input.h"
#include "parq/io/output.h"
#include "parq/keys/key_tools.h"
#include "parq/text/json_text.h"
#include "parq/text/text_input.h"

namespace parq::keys {
namespace {

constexpr std::string_view kKeyMaterialType = "PKMT1";

[[noreturn]] void corrupt(const std::string& detail) { throw Error(ErrorKind::kCorrupt, {}, detail); }

// The members of a flat JSON object, by name.
class JsonObject {
 public:
  JsonObject(std::string_view json, const char* what) : what_(what) {
    try {
      text::parse_json(json, row_);
    } catch (const Error& e) {
      corrupt(std::string(what) + " is not JSON: " + e.detail());
    }
    const text::TextNode& root = row_.nodes[0];
    if (root.kind != text::NodeKind::kObject) corrupt(std::string(what) + " is not a JSON object");
    size_t i = 1;
    for (uint32_t k = 0; k < root.size; ++k) {
      members_.emplace(row_.nodes[i].key, &row_.nodes[i]);
      i += row_.nodes[i].span + 1;
    }
  }
  JsonObject(const JsonObject&) = delete;
  JsonObject& operator=(const JsonObject&) = delete;

  const text::TextNode* find(std::string_view name) const {
    auto it = members_.find(name);
    return it == members_.end() ? nullptr : it->second;
  }
  std::string string(std::string_view name) const {
    const text::TextNode* n = find(name);
    if (!n) corrupt(std::string(what_) + " lacks \"" + std::string(name) + "\"");
    if (n->kind != text::NodeKind::kText)
      corrupt(std::string(what_) + ": \"" + std::string(name) + "\" is not a string");
    return std::string(n->text);
  }
  // Absent or null: empty (parquet-java writes null for unset footer fields).
  std::string optional_string(std::string_view name) const {
    const text::TextNode* n = find(name);
    if (!n || n->kind == text::NodeKind::kNull) return {};
    return string(name);
  }
  bool boolean(std::string_view name) const {
    const text::TextNode* n = find(name);
    if (!n) corrupt(std::string(what_) + " lacks \"" + std::string(name) + "\"");
    if (n->kind != text::NodeKind::kBool)
      corrupt(std::string(what_) + ": \"" + std::string(name) + "\" is not a boolean");
    return n->boolean;
  }
  const std::map<std::string_view, const text::TextNode*, std::less<>>& members() const { return members_; }
  void check_type() const {
    const std::string type = string("keyMaterialType");
    if (type != kKeyMaterialType)
      corrupt(std::string(what_) + " has key material type \"" + type + "\"; only \"PKMT1\" is known");
  }

 private:
  const char* what_;
  text::TextRow row_;
  std::map<std::string_view, const text::TextNode*, std::less<>> members_;
};

KeyMaterial material_of(const JsonObject& o) {
  KeyMaterial m;
  m.is_footer_key = o.boolean("isFooterKey");
  if (m.is_footer_key) {
    m.kms_instance_id = o.optional_string("kmsInstanceID");
    m.kms_instance_url = o.optional_string("kmsInstanceURL");
  }
  m.master_key_id = o.string("masterKeyID");
  m.wrapped_dek = o.string("wrappedDEK");
  m.double_wrapping = o.boolean("doubleWrapping");
  if (m.double_wrapping) {
    m.kek_id = o.string("keyEncryptionKeyID");
    m.wrapped_kek = o.string("wrappedKEK");
  }
  return m;
}

void member(std::string& out, std::string_view name) {
  out += out.size() > 1 ? ",\"" : "\"";
  out += name;
  out += "\":";
}
void member(std::string& out, std::string_view name, std::string_view value) {
  member(out, name);
  text::append_json_string(out, value);
}
void member(std::string& out, std::string_view name, bool value) {
  member(out, name);
  out += value ? "true" : "false";
}

bool is_remote(const std::string& path) { return path.find("://") != std::string::npos; }

}  // namespace

std::string read_local_text(const std::string& path, const std::string& what) {
  // Key material is a few hundred bytes a key; anything this large is not it.
  constexpr uint64_t kMaxSize = 64u << 20;
  try {
    const auto input = io::open_file(path, io::FileAccess::kPread);
    if (input->size() > kMaxSize)
      throw Error(ErrorKind::kCorrupt, {.file = path}, "is " + std::to_string(input->size()) + " bytes, too large");
    std::string text(input->size(), '\0');
    input->read_at(0, text.size(), reinterpret_cast<uint8_t*>(text.data()));
    return text;
  } catch (const Error& e) {
    throw e.with_context("reading " + what);
  }
}

std::string KeyMaterial::serialize(bool internal_storage) const {
  std::string out = "{";
  member(out, "keyMaterialType", kKeyMaterialType);
  if (internal_storage) member(out, "internalStorage", true);
  member(out, "isFooterKey", is_footer_key);
  if (is_footer_key) {
    member(out, "kmsInstanceID", kms_instance_id);
    member(out, "kmsInstanceURL", kms_instance_url);
  }
  member(out, "masterKeyID", master_key_id);
  member(out, "wrappedDEK", wrapped_dek);
  member(out, "doubleWrapping", double_wrapping);
  if (double_wrapping) {
    member(out, "keyEncryptionKeyID", kek_id);
    member(out, "wrappedKEK", wrapped_kek);
  }
  out += '}';
  return out;
}

KeyMaterial KeyMaterial::parse(std::string_view json) {
  const JsonObject o(json, "key material");
  o.check_type();
  return material_of(o);
}

KeyMetadata KeyMetadata::parse(std::string_view json) {
  const JsonObject o(json, "key metadata");
  o.check_type();
  KeyMetadata m;
  m.internal_storage = o.boolean("internalStorage");
  if (m.internal_storage)
    m.material = material_of(o);
  else
    m.key_reference = o.string("keyReference");
  return m;
}

std::string KeyMetadata::serialize_external(const std::string& key_reference) {
  std::string out = "{";
  member(out, "keyMaterialType", kKeyMaterialType);
  member(out, "internalStorage", false);
  member(out, "keyReference", key_reference);
  out += '}';
  return out;
}

std::string key_material_path(const std::string& data_file_path) {
  const std::filesystem::path p(data_file_path);
  if (!p.has_filename())
    throw Error(ErrorKind::kInvalidArgument, {.file = data_file_path}, "a data file path must name a file");
  return (p.parent_path() / ("_KEY_MATERIAL_FOR_" + p.filename().string() + ".json")).string();
}

std::map<std::string, std::string> read_key_material(const std::string& data_file_path) {
  if (is_remote(data_file_path))
    throw Error(ErrorKind::kUnsupported, {.file = data_file_path},
                "external key material is read from local files only, not beside a remote file");
  const std::string path = key_material_path(data_file_path);
  const std::string text = read_local_text(path, "the file's external key material");
  try {
    const JsonObject o(text, "external key material");
    std::map<std::string, std::string> material;
    for (const auto& [reference, node] : o.members()) {
      if (node->kind != text::NodeKind::kText)
        corrupt("external key material: \"" + std::string(reference) + "\" is not a string");
      material.emplace(reference, node->text);
    }
    return material;
  } catch (const Error& e) {
    throw e.within({.file = path});
  }
}

void write_key_material(const std::string& data_file_path, const std::map<std::string, std::string>& material) {
  if (is_remote(data_file_path))
    throw Error(ErrorKind::kUnsupported, {.file = data_file_path},
                "external key material is written to local files only, not beside a remote file");
  std::string out = "{";
  for (const auto& [reference, text] : material) member(out, reference, text);
  out += '}';
  auto file = io::create_file(key_material_path(data_file_path));
  file->write(out.data(), out.size());
  file->commit();
}

std::map<std::string, std::vector<std::string>> parse_column_keys(std::string_view text) {
  auto bad = [](const std::string& detail) { throw Error(ErrorKind::kInvalidArgument, {}, "column keys: " + detail); };
  auto trim = [](std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
  };
  std::map<std::string, std::vector<std::string>> keys;
  std::set<std::string, std::less<>> seen;
  while (!text.empty()) {
    const size_t semi = text.find(';');
    const std::string_view entry = trim(text.substr(0, semi));
    text = semi == std::string_view::npos ? std::string_view{} : text.substr(semi + 1);
    if (entry.empty()) continue;
    const size_t colon = entry.find(':');
    if (colon == std::string_view::npos || entry.find(':', colon + 1) != std::string_view::npos)
      bad("\"" + std::string(entry) + "\" is not <master key id>:<column>,<column>...");
    const std::string id(trim(entry.substr(0, colon)));
    if (id.empty()) bad("an empty master key id in \"" + std::string(entry) + "\"");
    std::string_view columns = entry.substr(colon + 1);
    auto& paths = keys[id];
    for (;;) {
      const size_t comma = columns.find(',');
      const std::string column(trim(columns.substr(0, comma)));
      if (column.empty()) bad("an empty column name for master key '" + id + "'");
      if (!seen.insert(column).second) bad("column '" + column + "' is given two keys");
      paths.push_back(column);
      if (comma == std::string_view::npos) break;
      columns = columns.substr(comma + 1);
    }
  }
  if (keys.empty()) bad("no master key and columns given");
  return keys;
}

}  // namespace parq::keys
