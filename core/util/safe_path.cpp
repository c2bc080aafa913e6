#include "core/util/safe_path.hpp"

#include <cstdio>
#include <filesystem>

#include "core/util/error.hpp"

namespace fs = std::filesystem;

namespace dpf {

bool is_safe_id(std::string_view s) {
  if (s.empty() || s.size() > 100 || s.front() == '.' || s.front() == '-') return false;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
                    c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string shown(std::string_view s, std::size_t max) {
  std::string out;
  for (std::size_t i = 0; i < s.size() && out.size() < max; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02x", c);
      out += b;
    }
  }
  if (out.size() >= max && s.size() > max) out += "… (" + std::to_string(s.size()) + " bytes)";
  return out;
}

void require_safe_id(std::string_view s, const std::string& where) {
  if (!is_safe_id(s))
    fail(where, ": '", shown(s), "' is not a safe id (1 to 100 characters of letters, digits, '.', '_' and '-', not "
         "starting with '.' or '-'); it names a folder under the results root");
}

std::string path_inside(const std::string& root, std::initializer_list<std::string> parts) {
  const fs::path base = fs::absolute(fs::path(root)).lexically_normal();
  fs::path p = base;
  std::string joined;
  for (const std::string& part : parts) {
    if (part.empty() || fs::path(part).is_absolute())
      fail("output path part '", shown(part), "' under ", root, " is empty or absolute");
    p /= part;
    joined += (joined.empty() ? "" : "/") + part;
  }
  p = p.lexically_normal();
  const auto rel = p.lexically_relative(base);
  if (rel.empty() || rel == "." || *rel.begin() == "..")
    fail("output path '", shown(joined), "' would leave the results root ", base.string());
  return p.string();
}

}  // namespace dpf
