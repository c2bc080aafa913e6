// Input hardening helpers (core/util/safe_path.hpp): ids that become folders, output paths that must
// stay inside the results root, and values shown in messages.
#include <doctest/doctest.h>

#include <string>

#include "core/util/error.hpp"
#include "core/util/safe_path.hpp"

namespace dpf {

TEST_CASE("safe ids: letters, digits, '.', '_' and '-', not leading '.' or '-'") {
  for (const char* ok : {"dipreme", "dipreme-v1", "table-2b", "figure_3.a", "A1"}) CHECK(is_safe_id(ok));
  for (const char* bad : {"", ".", "..", "../../x", "a/b", "/abs", "-rf", ".hidden", "a b", "a\nb", "é"}) CHECK_FALSE(is_safe_id(bad));
  CHECK_FALSE(is_safe_id(std::string(101, 'a')));
  CHECK_THROWS_WITH_AS(require_safe_id("a\nb", "cfg.yaml: paper"), doctest::Contains("cfg.yaml: paper: 'a\\x0ab'"), Error);
}

TEST_CASE("path_inside: joins below the root and refuses to leave it") {
  const std::string p = path_inside("/tmp/results", {"dipreme", "table-2"});
  CHECK(p == "/tmp/results/dipreme/table-2");
  CHECK_THROWS_WITH_AS(path_inside("/tmp/results", {"dipreme", "../../../etc"}), doctest::Contains("would leave"), Error);
  CHECK_THROWS_WITH_AS(path_inside("/tmp/results", {"/etc"}), doctest::Contains("empty or absolute"), Error);
  CHECK_THROWS_WITH_AS(path_inside("/tmp/results", {""}), doctest::Contains("empty or absolute"), Error);
  CHECK_THROWS_WITH_AS(path_inside("/tmp/results", {"."}), doctest::Contains("would leave"), Error);
}

TEST_CASE("shown: escapes control bytes and caps long values") {
  CHECK(shown("ok") == "ok");
  CHECK(shown("a\tb") == "a\\x09b");
  const std::string big(5000000, 'x');
  const std::string s = shown(big);
  CHECK(s.size() < 260);
  CHECK(s.find("(5000000 bytes)") != std::string::npos);
}

}  // namespace dpf
