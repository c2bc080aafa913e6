#include "core/util/json_read.hpp"

#include <charconv>
#include <cmath>
#include <limits>

#include "core/util/error.hpp"
#include "core/util/input_check.hpp"

namespace dpf {

namespace {

class Parser {
 public:
  Parser(std::string_view t, const std::string& source) : t_(t), source_(source) {}

  JsonValue document() {
    JsonValue v = value(0);
    skip_blank();
    if (i_ != t_.size()) error("unexpected text after the JSON value");
    return v;
  }

 private:
  [[noreturn]] void error(const std::string& what) const {
    std::size_t line = 1, col = 1;
    for (std::size_t k = 0; k < i_ && k < t_.size(); ++k) {
      if (t_[k] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    fail(source_, ": line ", line, ", column ", col, ": ", what);
  }
  void skip_blank() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r')) ++i_;
  }
  void expect(char c) {
    skip_blank();
    if (i_ >= t_.size() || t_[i_] != c) error(std::string("expected '") + c + "'");
    ++i_;
  }
  bool literal(std::string_view word) {
    if (t_.substr(i_, word.size()) != word) return false;
    i_ += word.size();
    return true;
  }

  JsonValue value(int depth) {
    if (depth > kMaxJsonDepth) error("nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    skip_blank();
    if (i_ >= t_.size()) error("unexpected end of the file");
    JsonValue v;
    const char c = t_[i_];
    if (c == '{') return object(depth);
    if (c == '[') return array(depth);
    if (c == '"') {
      v.type = JsonValue::Type::kString;
      v.text = string();
    } else if (literal("true")) {
      v.type = JsonValue::Type::kBool;
      v.boolean = true;
    } else if (literal("false")) {
      v.type = JsonValue::Type::kBool;
    } else if (literal("null")) {
      v.type = JsonValue::Type::kNull;
    } else {
      v.type = JsonValue::Type::kNumber;
      v.number = number();
    }
    return v;
  }

  double number() {
    // JSON grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    const std::size_t start = i_;
    auto digits = [&] {
      const std::size_t d = i_;
      while (i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9') ++i_;
      return i_ > d;
    };
    if (i_ < t_.size() && t_[i_] == '-') ++i_;
    const std::size_t int_start = i_;
    if (!digits()) error("expected a value");
    if (t_[int_start] == '0' && i_ - int_start > 1) error("a number with a leading zero");
    if (i_ < t_.size() && t_[i_] == '.') {
      ++i_;
      if (!digits()) error("expected digits after '.'");
    }
    if (i_ < t_.size() && (t_[i_] == 'e' || t_[i_] == 'E')) {
      ++i_;
      if (i_ < t_.size() && (t_[i_] == '+' || t_[i_] == '-')) ++i_;
      if (!digits()) error("expected digits in the exponent");
    }
    double out = 0.0;
    const auto r = std::from_chars(t_.data() + start, t_.data() + i_, out);
    if (r.ec != std::errc() || r.ptr != t_.data() + i_) error("number out of range");
    return out;
  }

  std::string string() {
    ++i_;  // the opening quote
    std::string out;
    for (;;) {
      if (i_ >= t_.size()) error("unterminated string");
      const char c = t_[i_++];
      if (c == '"') break;
      if (static_cast<unsigned char>(c) < 0x20) error("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= t_.size()) error("unterminated string");
      const char e = t_[i_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          if (i_ + 4 > t_.size()) error("short \\u escape");
          unsigned code = 0;
          const auto r = std::from_chars(t_.data() + i_, t_.data() + i_ + 4, code, 16);
          if (r.ptr != t_.data() + i_ + 4) error("bad \\u escape");
          i_ += 4;
          if (code >= 0xD800 && code < 0xE000) error("\\u escapes of surrogates are not supported");
          // UTF-8 encoding of a code point below 0x10000.
          if (code < 0x80) {
            out += static_cast<char>(code);
          } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
          } else {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
          }
          break;
        }
        default:
          error(std::string("bad escape '\\") + e + "'");
      }
    }
    return out;
  }

  JsonValue array(int depth) {
    ++i_;
    JsonValue v;
    v.type = JsonValue::Type::kArray;
    skip_blank();
    if (i_ < t_.size() && t_[i_] == ']') {
      ++i_;
      return v;
    }
    bool only_numbers = true;
    for (;;) {
      JsonValue item = value(depth + 1);
      if (only_numbers && item.type == JsonValue::Type::kNumber) {
        v.numbers.push_back(item.number);
      } else {
        if (only_numbers) {  // the first non-number: move the numbers read so far into items
          for (double d : v.numbers) {
            JsonValue n;
            n.type = JsonValue::Type::kNumber;
            n.number = d;
            v.items.push_back(std::move(n));
          }
          v.numbers.clear();
          only_numbers = false;
        }
        v.items.push_back(std::move(item));
      }
      skip_blank();
      if (i_ < t_.size() && t_[i_] == ',') {
        ++i_;
        continue;
      }
      expect(']');
      return v;
    }
  }

  JsonValue object(int depth) {
    ++i_;
    JsonValue v;
    v.type = JsonValue::Type::kObject;
    skip_blank();
    if (i_ < t_.size() && t_[i_] == '}') {
      ++i_;
      return v;
    }
    for (;;) {
      skip_blank();
      if (i_ >= t_.size() || t_[i_] != '"') error("expected a key");
      std::string key = string();
      for (const auto& [k, unused] : v.members)
        if (k == key) error("duplicate key '" + clip(key) + "'");
      expect(':');
      v.members.push_back(JsonMember{std::move(key), value(depth + 1)});
      skip_blank();
      if (i_ < t_.size() && t_[i_] == ',') {
        ++i_;
        continue;
      }
      expect('}');
      return v;
    }
  }

  std::string_view t_;
  const std::string& source_;
  std::size_t i_ = 0;
};

const char* type_name(JsonValue::Type t) {
  switch (t) {
    case JsonValue::Type::kNull: return "null";
    case JsonValue::Type::kBool: return "a boolean";
    case JsonValue::Type::kNumber: return "a number";
    case JsonValue::Type::kString: return "a string";
    case JsonValue::Type::kArray: return "an array";
    case JsonValue::Type::kObject: return "an object";
  }
  return "?";
}

constexpr double kMaxExactInteger = 9007199254740992.0;  // 2^53

double special_number(const std::string& s, bool& ok) {
  ok = true;
  if (s == "inf") return std::numeric_limits<double>::infinity();
  if (s == "-inf") return -std::numeric_limits<double>::infinity();
  if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
  ok = false;
  return 0.0;
}

}  // namespace

JsonValue parse_json(std::string_view text, const std::string& source) { return Parser(text, source).document(); }

void JsonIn::fail_here(const std::string& what) const { fail(where_, ": ", what); }

bool JsonIn::has(std::string_view key) const {
  if (v_->type != JsonValue::Type::kObject) return false;
  for (const auto& [k, v] : v_->members)
    if (k == key) return true;
  return false;
}

JsonIn JsonIn::operator[](std::string_view key) const {
  if (v_->type != JsonValue::Type::kObject) fail_here(std::string("expected an object, found ") + type_name(v_->type));
  for (const auto& [k, v] : v_->members)
    if (k == key) return JsonIn(v, where_ + "." + std::string(key));
  fail_here("missing key '" + std::string(key) + "'");
}

std::size_t JsonIn::size() const {
  if (v_->type != JsonValue::Type::kArray) fail_here(std::string("expected an array, found ") + type_name(v_->type));
  return v_->numbers.empty() ? v_->items.size() : v_->numbers.size();
}

JsonIn JsonIn::at(std::size_t i) const {
  if (i >= size()) fail_here("index " + std::to_string(i) + " is past the end (" + std::to_string(size()) + " items)");
  if (!v_->numbers.empty()) fail_here("expected an array of objects, found numbers");
  return JsonIn(v_->items[i], where_ + "[" + std::to_string(i) + "]");
}

std::vector<std::pair<std::string, JsonIn>> JsonIn::members() const {
  if (v_->type != JsonValue::Type::kObject) fail_here(std::string("expected an object, found ") + type_name(v_->type));
  std::vector<std::pair<std::string, JsonIn>> out;
  for (const auto& [k, v] : v_->members) out.emplace_back(k, JsonIn(v, where_ + "." + k));
  return out;
}

std::string JsonIn::string() const {
  if (v_->type != JsonValue::Type::kString) fail_here(std::string("expected a string, found ") + type_name(v_->type));
  return v_->text;
}

bool JsonIn::boolean() const {
  if (v_->type != JsonValue::Type::kBool) fail_here(std::string("expected true or false, found ") + type_name(v_->type));
  return v_->boolean;
}

double JsonIn::number() const {
  if (v_->type == JsonValue::Type::kNumber) return v_->number;
  bool ok = false;
  if (v_->type == JsonValue::Type::kString) {
    const double d = special_number(v_->text, ok);
    if (ok) return d;
  }
  fail_here(std::string("expected a number, found ") + type_name(v_->type));
}

int64_t JsonIn::integer(int64_t lo, int64_t hi) const {
  const double d = number();
  if (!(d == std::floor(d)) || std::fabs(d) > kMaxExactInteger || d < static_cast<double>(lo) ||
      d > static_cast<double>(hi))
    fail_here("expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], found " +
              std::to_string(d));
  return static_cast<int64_t>(d);
}

std::vector<double> JsonIn::numbers() const {
  const std::size_t n = size();
  if (!v_->numbers.empty() || n == 0) return v_->numbers;
  std::vector<double> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = JsonIn(v_->items[i], where_ + "[" + std::to_string(i) + "]").number();
  return out;
}

std::vector<int64_t> JsonIn::integers(int64_t lo, int64_t hi) const {
  const std::vector<double> d = numbers();
  std::vector<int64_t> out(d.size());
  for (std::size_t i = 0; i < d.size(); ++i) {
    const double x = d[i];
    if (!(x == std::floor(x)) || x < static_cast<double>(lo) || x > static_cast<double>(hi) || std::fabs(x) > kMaxExactInteger)
      fail(where_, "[", i, "]: expected an integer in [", lo, ", ", hi, "], found ", x);
    out[i] = static_cast<int64_t>(x);
  }
  return out;
}

std::vector<std::string> JsonIn::strings() const {
  const std::size_t n = size();
  std::vector<std::string> out;
  out.reserve(n);
  if (!v_->numbers.empty()) fail_here("expected an array of strings, found numbers");
  for (std::size_t i = 0; i < n; ++i) out.push_back(JsonIn(v_->items[i], where_ + "[" + std::to_string(i) + "]").string());
  return out;
}

}  // namespace dpf
