// find_named / join_names (core/util/named.hpp): the lookup every name table shares, and its error.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "core/util/named.hpp"

using namespace dpf;

namespace {

struct Item {
  std::string name;
  int value = 0;
};

std::string error_of(const std::vector<Item>& items, const std::string& name) {
  try {
    find_named(items, name, "widget");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("find_named returns the first element of that name, by reference") {
    const std::vector<Item> items{{"a", 1}, {"b", 2}, {"b", 3}};
    const Item& b = find_named(items, "b", "widget");
    CHECK(b.value == 2);
    CHECK(&b == &items[1]);
  }

  TEST_CASE("an unknown name is an error naming it and every known name, in order") {
    CHECK(error_of({{"x", 0}, {"y", 0}}, "z") == "unknown widget 'z' (known: x, y)");
    CHECK(error_of({}, "z") == "unknown widget 'z' (known: )");
  }

  TEST_CASE("join_names reads each name through the given accessor") {
    const std::map<std::string, int> m{{"k2", 2}, {"k1", 1}};
    CHECK(join_names(m, [](const auto& kv) { return kv.first; }) == "k1, k2");
    const char* kinds[] = {"forest", "tuned"};
    CHECK(join_names(kinds, [](const char* k) { return k; }) == "forest, tuned");
    CHECK(join_names(std::vector<std::string>{}, [](const std::string& s) { return s; }).empty());
  }

  TEST_CASE("an enum's name table parses and prints from one list") {
    enum class Colour { kRed, kBlue, kGreen };
    static constexpr NamedValue<Colour> kColours[] = {{"red", Colour::kRed}, {"blue", Colour::kBlue}};
    REQUIRE(value_named(kColours, "blue") != nullptr);
    CHECK(*value_named(kColours, "blue") == Colour::kBlue);
    CHECK(value_named(kColours, "Blue") == nullptr);
    CHECK(value_named(kColours, "") == nullptr);
    CHECK(std::string(name_of(kColours, Colour::kRed)) == "red");
    CHECK(std::string(name_of(kColours, Colour::kGreen)) == "?");
  }
}
