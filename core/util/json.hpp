// A small JSON writer (models' describe() output, CLI listings). Writing only: configs are YAML.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dpf {

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view k);
  JsonWriter& value(std::string_view v);
  JsonWriter& value(const char* v) { return value(std::string_view(v)); }
  JsonWriter& value(double v);
  JsonWriter& value(int64_t v);
  JsonWriter& value(int v) { return value(static_cast<int64_t>(v)); }
  JsonWriter& value(uint64_t v) { return value(static_cast<int64_t>(v)); }
  JsonWriter& value(bool v);
  JsonWriter& null();
  // A double that reads back bit-identically (core/util/json_read.hpp): "%.17g" when finite, else
  // the string "inf", "-inf" or "nan" (value(double) writes null for those).
  JsonWriter& exact(double v);
  JsonWriter& exact_array(std::string_view k, const std::vector<double>& v);
  template <typename Int>
  JsonWriter& int_array(std::string_view k, const std::vector<Int>& v) {
    key(k);
    return int_array_value(v);
  }
  template <typename Int>
  JsonWriter& int_array_value(const std::vector<Int>& v) {
    begin_array();
    for (Int x : v) value(static_cast<int64_t>(x));
    return end_array();
  }
  JsonWriter& raw(std::string_view already_json);
  template <typename T>
  JsonWriter& field(std::string_view k, const T& v) { key(k); return value(v); }
  JsonWriter& array(std::string_view k, const std::vector<double>& v);
  const std::string& str() const { return out_; }

 private:
  void separator();
  std::string out_;
  std::vector<bool> first_;  // per open container: nothing written yet
  bool after_key_ = false;
};

std::string json_escape(std::string_view s);

}  // namespace dpf
