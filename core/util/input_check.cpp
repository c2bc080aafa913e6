#include "core/util/input_check.hpp"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/util/error.hpp"

namespace dpf {

namespace fs = std::filesystem;

namespace {

// Length of the UTF-8 sequence starting at s[i], or 0 when it is not well-formed (overlong forms,
// surrogates and code points above U+10FFFF are rejected).
std::size_t utf8_length(const std::string& s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  std::size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
  if (n == 0 || c > 0xF4 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((b(i + k) & 0xC0) != 0x80) return 0;
  if (c == 0xE0 && b(i + 1) < 0xA0) return 0;
  if (c == 0xED && b(i + 1) >= 0xA0) return 0;
  if (c == 0xF0 && b(i + 1) < 0x90) return 0;
  if (c == 0xF4 && b(i + 1) >= 0x90) return 0;
  return n;
}

void check_unique_keys(const YAML::Node& n, const std::string& path, const std::string& where) {
  if (n.IsSequence()) {
    for (std::size_t i = 0; i < n.size(); ++i) check_unique_keys(n[i], path, where + "[" + std::to_string(i) + "]");
  } else if (n.IsMap()) {
    std::map<std::string, int> seen;  // key -> 1-based line
    for (const auto& kv : n) {
      const int line = kv.first.Mark().line + 1;
      // Every reader reads keys as strings; a list, mapping or empty key would end in yaml-cpp's
      // "bad conversion" without the file's name (found by tests/fuzz).
      if (!kv.first.IsScalar())
        fail(path, ":", line, ": ", where.empty() ? "" : clip(where) + ": ",
             "a key must be a single value (a list, a mapping or an empty key is not allowed)");
      const std::string k = kv.first.Scalar();
      const std::string at = where.empty() ? k : where + "." + k;
      auto [it, fresh] = seen.emplace(k, line);
      if (!fresh)
        fail(path, ":", line, ": duplicate key '", clip(at), "' (first given on line ", it->second,
             "; YAML would silently keep one)");
      check_unique_keys(kv.second, path, at);
    }
  }
}

}  // namespace

std::string clip(const std::string& s) {
  std::string out;
  std::size_t i = 0;
  while (i < s.size() && out.size() < kMaxEchoChars) {
    std::size_t n = utf8_length(s, i);
    const auto c = static_cast<unsigned char>(s[i]);
    if (n == 0 || (n == 1 && (c < 0x20 || c == 0x7F))) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
      ++i;
    } else {
      out.append(s, i, n);
      i += n;
    }
  }
  if (i < s.size()) out += "… (" + std::to_string(s.size()) + " bytes)";
  return out;
}

void check_text(const std::string& s, const std::string& where, bool multiline) {
  std::size_t line = 1;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_length(s, i);
    if (n == 0)
      fail(where, multiline ? " line " + std::to_string(line) : "", ": byte ", i, " is not valid UTF-8 in '",
           clip(s), "' (save the file as UTF-8)");
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '\n') ++line;
    const bool allowed_ctl = c == '\t' || (multiline && (c == '\n' || c == '\r'));
    if (n == 1 && (c < 0x20 || c == 0x7F) && !allowed_ctl)
      fail(where, ": control character \\x", (c < 16 ? "0" : ""), std::hex, static_cast<int>(c), std::dec,
           " in '", clip(s), "'");
    i += n;
  }
}

void check_id(const std::string& id, const std::string& where) {
  const auto bad = [&](const std::string& why) {
    fail(where, ": '", clip(id), "' is not a valid id (", why,
         "; expected 1-64 characters of letters, digits, '.', '_', ':', '-', starting with a letter or digit)");
  };
  if (id.empty()) bad("empty");
  if (id.size() > 64) bad("longer than 64 characters");
  if (!std::isalnum(static_cast<unsigned char>(id[0]))) bad("must start with a letter or digit");
  for (char ch : id) {
    const auto c = static_cast<unsigned char>(ch);
    if (!(std::isalnum(c) || c == '.' || c == '_' || c == ':' || c == '-')) bad("character not allowed");
  }
  if (id.find("..") != std::string::npos) bad("contains '..'");
}

std::string contained_path(const std::string& root, const std::vector<std::string>& parts) {
  require(!root.empty(), "results root is empty");
  fs::path p = fs::path(root);
  for (const auto& part : parts) {
    const fs::path q(part);
    if (part.empty() || q.is_absolute() || q.has_root_name() || q.has_root_directory())
      fail("path part '", clip(part), "' must be a non-empty relative name inside '", clip(root), "'");
    for (const auto& c : q)
      if (c == ".." || c == "." || c.empty())
        fail("path part '", clip(part), "' may not contain '", c.string(), "' (it must stay inside '", clip(root), "')");
    p /= q;
  }
  const fs::path base = fs::path(root).lexically_normal();
  const fs::path rel = p.lexically_normal().lexically_relative(base);
  if (rel.empty() || *rel.begin() == "..") fail("path '", clip(p.string()), "' leaves the results root '", clip(root), "'");
  return p.string();
}

std::string read_text_limited(const std::string& path, std::size_t max_bytes, const std::string& what) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) fail(path, ": cannot open the ", what, " (not a regular file)");
  const auto size = fs::file_size(path, ec);
  if (ec) fail(path, ": cannot read the ", what, ": ", ec.message());
  if (size > max_bytes)
    fail(path, ": the ", what, " is ", size, " bytes; the limit is ", max_bytes, " bytes (",
         max_bytes / 1024, " KiB)");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, ": cannot open the ", what);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

YAML::Node load_yaml_strict(const std::string& text, const std::string& path) {
  check_text(text, path, true);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    fail(path, ": not valid YAML: ", e.what());
  }
  check_unique_keys(root, path, "");
  return root;
}

YAML::Node load_yaml_file_strict(const std::string& path) {
  return load_yaml_strict(read_text_limited(path, kMaxConfigBytes, "YAML file"), path);
}

}  // namespace dpf
