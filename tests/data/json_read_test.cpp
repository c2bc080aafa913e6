// The JSON reader of saved models (core/util/json_read.hpp): exact doubles, clear errors.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "core/privacy/rng.hpp"
#include "core/util/error.hpp"
#include "core/util/json.hpp"
#include "core/util/json_read.hpp"

using namespace dpf;

TEST_SUITE("unit") {
  TEST_CASE("doubles written with JsonWriter::exact read back bit-identically") {
    Rng rng(7);
    std::vector<double> v = {0.0, -0.0, 0.1, 1.0 / 3.0, 1e-310, 5e-324, 1.7976931348623157e308, -2.5,
                             std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
    for (int i = 0; i < 2000; ++i) {
      uint64_t bits = rng.next_u64();
      double d;
      std::memcpy(&d, &bits, sizeof d);
      if (std::isfinite(d)) v.push_back(d);
      v.push_back(rng.uniform() * 1000.0 - 500.0);
    }
    JsonWriter w;
    w.begin_object().exact_array("v", v).end_object();
    const JsonValue doc = parse_json(w.str(), "t.json");
    const std::vector<double> back = JsonIn(doc, "t.json")["v"].numbers();
    REQUIRE(back.size() == v.size());
    for (std::size_t i = 0; i < v.size(); ++i) CHECK(std::memcmp(&back[i], &v[i], sizeof(double)) == 0);
    JsonWriter n;
    n.begin_array().exact(std::nan("")).end_array();
    CHECK(std::isnan(JsonIn(parse_json(n.str(), "n"), "n").numbers()[0]));
  }

  TEST_CASE("strings, nesting and accessors") {
    const JsonValue doc = parse_json(R"( {"a": "x\"y\u00e9\n", "b": [1, "two", {"c": true}], "d": null, "e": []} )", "s.json");
    const JsonIn in(doc, "s.json");
    CHECK(in["a"].string() == "x\"y\xc3\xa9\n");
    CHECK(in["b"].size() == 3);
    CHECK(in["b"].at(2)["c"].boolean());
    CHECK(in["e"].size() == 0);
    CHECK(in["e"].numbers().empty());
    CHECK(in.has("d"));
    CHECK(!in.has("z"));
    CHECK(in["b"].at(0).integer(0, 5) == 1);
  }

  TEST_CASE("errors name the file and the key, or the line and column") {
    const JsonValue doc = parse_json(R"({"a": {"b": [1.5, 2]}, "s": "t"})", "m.json");
    const JsonIn in(doc, "m.json");
    CHECK_THROWS_WITH(in["a"]["c"], doctest::Contains("m.json.a: missing key 'c'"));
    CHECK_THROWS_WITH(in["a"]["b"].integers(0, 9), doctest::Contains("m.json.a.b[0]: expected an integer"));
    CHECK_THROWS_WITH(in["s"].number(), doctest::Contains("m.json.s: expected a number, found a string"));
    CHECK_THROWS_WITH(parse_json("{\"a\": 1,\n \"a\": 2}", "d.json"), doctest::Contains("d.json: line 2, column 5: duplicate key 'a'"));
    CHECK_THROWS_WITH(parse_json("[1, 2", "e.json"), doctest::Contains("e.json: line 1, column 6: expected ']'"));
    CHECK_THROWS_WITH(parse_json("[01]", "z.json"), doctest::Contains("leading zero"));
    CHECK_THROWS_WITH(parse_json("[1] x", "t.json"), doctest::Contains("unexpected text after the JSON value"));
    CHECK_THROWS_WITH(parse_json(std::string(100, '[') + std::string(100, ']'), "deep.json"), doctest::Contains("nested deeper than 64"));
  }
}
