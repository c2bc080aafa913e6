#include "core/util/json.hpp"

#include <cmath>
#include <cstdio>

#include "core/util/number_text.hpp"

namespace dpf {

std::string json_escape(std::string_view s) {
  std::string o;
  o.reserve(s.size() + 2);
  for (char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\r': o += "\\r"; break;
      case '\t': o += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          o += buf;
        } else {
          o += c;
        }
    }
  }
  return o;
}

void JsonWriter::separator() {
  if (after_key_) { after_key_ = false; return; }
  if (!first_.empty()) {
    if (!first_.back()) out_ += ',';
    first_.back() = false;
  }
}

JsonWriter& JsonWriter::begin_object() { separator(); out_ += '{'; first_.push_back(true); return *this; }
JsonWriter& JsonWriter::end_object() { out_ += '}'; first_.pop_back(); return *this; }
JsonWriter& JsonWriter::begin_array() { separator(); out_ += '['; first_.push_back(true); return *this; }
JsonWriter& JsonWriter::end_array() { out_ += ']'; first_.pop_back(); return *this; }

JsonWriter& JsonWriter::key(std::string_view k) {
  separator();
  out_ += '"';
  out_ += json_escape(k);
  out_ += "\":";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view v) {
  separator();
  out_ += '"';
  out_ += json_escape(v);
  out_ += '"';
  return *this;
}

JsonWriter& JsonWriter::value(double v) {
  separator();
  if (!std::isfinite(v)) { out_ += "null"; return *this; }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  out_ += buf;
  return *this;
}

JsonWriter& JsonWriter::exact(double v) {
  if (!std::isfinite(v)) return value(format_double(v));  // "nan", "inf", "-inf" as strings
  separator();
  out_ += format_double(v);  // the shortest text that reads back as v
  return *this;
}

JsonWriter& JsonWriter::exact_array(std::string_view k, const std::vector<double>& v) {
  key(k);
  begin_array();
  for (double x : v) exact(x);
  return end_array();
}

JsonWriter& JsonWriter::value(int64_t v) { separator(); out_ += std::to_string(v); return *this; }
JsonWriter& JsonWriter::value(bool v) { separator(); out_ += v ? "true" : "false"; return *this; }
JsonWriter& JsonWriter::null() { separator(); out_ += "null"; return *this; }
JsonWriter& JsonWriter::raw(std::string_view j) { separator(); out_ += j; return *this; }

JsonWriter& JsonWriter::array(std::string_view k, const std::vector<double>& v) {
  key(k);
  begin_array();
  for (double x : v) value(x);
  return end_array();
}

}  // namespace dpf
