// A small JSON reader for the files this project writes itself (saved models, core/tree/model_io.hpp):
// RFC 8259 values, numbers converted with std::from_chars (correctly rounded, locale-independent),
// so a double written with JsonWriter::exact reads back bit-identically. Arrays holding only numbers
// are stored as one vector of doubles (8 bytes a value: a forest's node arrays stay small).
//
// JsonIn wraps a value with its place in the file ("model.trees[3].threshold") so that every error
// names the file and the key: a missing key, a wrong type, a number out of range.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dpf {

// An object's member. Declared ahead of JsonValue and completed after it: a std::pair holding the
// still-incomplete JsonValue is ill-formed with clang and libstdc++ 12, a vector of a declared type is not.
struct JsonMember;

struct JsonValue {
  enum class Type : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };
  Type type = Type::kNull;
  bool boolean = false;
  double number = 0.0;
  std::string text;                                        // kString
  std::vector<double> numbers;                             // kArray of numbers only
  std::vector<JsonValue> items;                            // any other kArray
  std::vector<JsonMember> members;                         // kObject, in file order (no duplicate keys)
};

struct JsonMember {
  std::string key;
  JsonValue value;
};

// Parses `text` (at most kMaxJsonDepth levels deep); fails naming `source`, the line and column.
inline constexpr int kMaxJsonDepth = 64;
JsonValue parse_json(std::string_view text, const std::string& source);

class JsonIn {
 public:
  JsonIn(const JsonValue& v, std::string where) : v_(&v), where_(std::move(where)) {}

  const std::string& where() const { return where_; }
  bool has(std::string_view key) const;
  JsonIn operator[](std::string_view key) const;  // the member; fails when absent
  std::size_t size() const;                       // of an array
  JsonIn at(std::size_t i) const;                 // element of an array of non-numbers
  // Object members in file order.
  std::vector<std::pair<std::string, JsonIn>> members() const;

  std::string string() const;
  bool boolean() const;
  // A number, or one of the strings "inf", "-inf", "nan" (JsonWriter::exact writes non-finite values so).
  double number() const;
  // An integer in [lo, hi] (exactly representable: |v| <= 2^53).
  int64_t integer(int64_t lo, int64_t hi) const;
  std::vector<double> numbers() const;  // an array of numbers (or the non-finite strings)
  std::vector<int64_t> integers(int64_t lo, int64_t hi) const;
  std::vector<std::string> strings() const;

  [[noreturn]] void fail_here(const std::string& what) const;

 private:
  const JsonValue* v_;
  std::string where_;
};

}  // namespace dpf
