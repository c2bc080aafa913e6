#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <unistd.h>
#include <fstream>

#include "core/util/error.hpp"
#include "datasets/fetcher.hpp"
#include "datasets/registry.hpp"

namespace fs = std::filesystem;

namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const dpf::Error& e) {
    return e.what();
  }
  return "";
}

bool have_mirror(const dpf::DataOptions& o) {
  if (!o.mirror.empty() && fs::is_directory(o.mirror)) return true;
  MESSAGE("no dataset mirror (set DPFOREST_MIRROR); skipped");
  return false;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("registry lists every dataset with files, urls and variants") {
    auto ids = dpf::dataset_ids();
    CHECK(ids.size() >= 40);
    dpf::DataOptions o = dpf::DataOptions::from_environment();
    if (!o.mirror.empty() && fs::is_directory(o.mirror))
      for (const auto& d : fs::directory_iterator(o.mirror))
        if (d.is_directory()) {
          CAPTURE(d.path());
          CHECK(std::find(ids.begin(), ids.end(), d.path().filename().string()) != ids.end());
        }
    for (const auto& id : ids) {
      const auto& e = dpf::dataset_entry(id);
      CAPTURE(id);
      CHECK(!e.files.empty());
      CHECK(!e.variants.empty());
      CHECK(e.page.rfind("http", 0) == 0);
      for (const auto& f : e.files) {
        CHECK_MESSAGE(!f.url.empty(), (e.path + ": file '" + f.name + "' has no url: every registry file gives the " +
                                           "address its exact bytes can be downloaded from (datasets/README.md)"));
        if (e.mirrored) CHECK(f.sha256.size() == 64);
      }
      if (!e.mirrored) CHECK(!e.note.empty());
    }
    CHECK(!dpf::dataset_entry("flight-delay").mirrored);
    CHECK(error_of([] { dpf::dataset_entry("nope"); }).find("banknote") != std::string::npos);
    CHECK(error_of([] { dpf::variant_spec("banknote:nope"); }).find("variants: default") != std::string::npos);
  }

  TEST_CASE("every mirrored variant loads with the shape its entry states") {
    dpf::DataOptions o = dpf::DataOptions::from_environment();
    o.allow_download = false;
    if (!have_mirror(o)) return;
    auto t0 = std::chrono::steady_clock::now();
    int loaded = 0;
    for (const auto& id : dpf::dataset_ids()) {
      const auto& e = dpf::dataset_entry(id);
      if (!e.mirrored) continue;
      if (!fs::is_directory(fs::path(o.mirror) / id)) {
        MESSAGE("mirror lacks ", id, "; skipped");
        continue;
      }
      for (const auto& v : e.specs) {
        std::string spec = id + ":" + v.name;
        CAPTURE(spec);
        dpf::Dataset d;
        REQUIRE_NOTHROW(d = dpf::load_dataset(spec, o));
        CHECK(v.rows >= 0);
        CHECK(static_cast<long>(d.n_rows()) == v.rows);
        CHECK(static_cast<long>(d.n_features()) == v.features);
        if (d.task() == dpf::TaskKind::kClassification) CHECK(d.n_classes() == v.classes.size());
        ++loaded;
      }
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    MESSAGE("loaded ", loaded, " variants in ", secs, " s");
    CHECK(loaded >= 50);
  }

  TEST_CASE("DiPriMe variants: binarisation, derived columns, kinds") {
    dpf::DataOptions o = dpf::DataOptions::from_environment();
    if (!have_mirror(o)) return;
    auto robot = dpf::load_dataset("wall-robot:24", o);
    CHECK(robot.name() == "wall-robot");
    std::size_t zeros = 0;
    for (int l : robot.labels()) zeros += l == 0;
    CHECK(zeros == 2205);  // Move-Forward
    auto metro = dpf::load_dataset("metro-traffic", o);
    int wd = metro.schema().find_feature("weekday"), hour = metro.schema().find_feature("hour");
    REQUIRE(wd >= 0);
    REQUIRE(hour >= 0);
    CHECK(metro.schema().features[wd].kind == dpf::FeatureKind::kCategorical);
    CHECK(metro.x(0, wd) == 1);  // 2012-10-02 was a Tuesday (Monday = 0)
    CHECK(metro.x(0, hour) == 9);
    CHECK(metro.task() == dpf::TaskKind::kRegression);
    CHECK(metro.schema().target.hi == 7280);
    auto app = dpf::load_dataset("appliances-energy", o);
    int month = app.schema().find_feature("Month");
    REQUIRE(month >= 0);
    CHECK(app.schema().features[month].categories.size() == 5);
    CHECK(app.schema().find_feature("rv1") < 0);
    auto park = dpf::load_dataset("parkinsons-telemonitoring", o);
    CHECK(park.schema().features[park.schema().find_feature("sex")].kind == dpf::FeatureKind::kCategorical);
    auto adult = dpf::load_dataset("adult", o);
    CHECK(adult.schema().target.classes == std::vector<std::string>{"<=50K", ">50K"});
  }

  TEST_CASE("a corrupt mirror file is reported with dataset, file and URL") {
    dpf::DataOptions o = dpf::DataOptions::from_environment();
    if (!have_mirror(o)) return;
    fs::path tmp = fs::temp_directory_path() / ("dpf_corrupt_mirror_" + std::to_string(::getpid()));
    fs::create_directories(tmp / "banknote");
    std::string src = (fs::path(o.mirror) / "banknote" / "data_banknote_authentication.txt").string();
    std::string bytes = dpf::read_file_bytes(src);
    bytes[100] = bytes[100] == '1' ? '2' : '1';
    std::ofstream(tmp / "banknote" / "data_banknote_authentication.txt", std::ios::binary) << bytes;
    dpf::DataOptions bad;
    bad.mirror = tmp.string();
    bad.cache = (tmp / "cache").string();
    bad.allow_download = false;
    std::string msg;
    try {
      dpf::load_dataset("banknote", bad);
    } catch (const dpf::MissingInput& e) {
      msg = e.what();
    }
    fs::remove_all(tmp);
    CHECK(msg.find("banknote") != std::string::npos);
    CHECK(msg.find("data_banknote_authentication.txt") != std::string::npos);
    CHECK(msg.find("corrupt") != std::string::npos);
    CHECK(msg.find(dpf::dataset_entry("banknote").files[0].url) != std::string::npos);
    CHECK(msg.find("DPFOREST_MIRROR") != std::string::npos);
  }

  TEST_CASE("a dataset absent from the mirror names its URL") {
    dpf::DataOptions o = dpf::DataOptions::from_environment();
    o.allow_download = false;
    o.cache = (fs::temp_directory_path() / "dpf_empty_cache").string();
    std::string msg;
    try {
      dpf::load_dataset("flight-delay", o);
    } catch (const dpf::MissingInput& e) {
      msg = e.what();
    }
    CHECK(msg.find("flight-delay") != std::string::npos);
    CHECK(msg.find("2008.csv") != std::string::npos);
    CHECK(msg.find("http://stat-computing.org/dataexpo/2009/2008.csv.bz2") != std::string::npos);
    auto reports = dpf::verify_datasets({"flight-delay", "banknote"}, o);
    REQUIRE(reports.size() == 2);
    CHECK(!reports[0].ok);
    CHECK(reports[1].ok == have_mirror(o));
  }

  TEST_CASE("typing errors name the file, line and column") {
    dpf::VariantSpec v;
    v.name = "default";
    v.files = {"x.csv"};
    v.target = "y";
    v.classes = {"0", "1"};
    v.domains["a"] = {0, 10};
    v.categories["b"] = {"u", "v"};
    dpf::TableFormat f;
    f.header = true;
    auto build = [&](const std::string& text) {
      std::vector<dpf::RawTable> t{dpf::parse_table(text, f, "/some/dir/x.csv")};
      return dpf::build_dataset("toy", v, t);
    };
    auto d = build("a,b,y\n1,u,0\n2.5,v,1\n");
    CHECK(d.n_rows() == 2);
    CHECK(d.x(1, 0) == 2.5);
    CHECK(d.x(1, 1) == 1);
    CHECK(error_of([&] { build("a,b,y\n1,u,0\nabc,v,1\n"); }) ==
          "toy: x.csv line 3, column 'a': 'abc' is not a number");
    CHECK(error_of([&] { build("a,b,y\n1,w,0\n"); }).find("line 2, column 'b': 'w'") != std::string::npos);
    CHECK(error_of([&] { build("a,b,y\n11,u,0\n"); }).find("outside the registry domain") != std::string::npos);
    CHECK(error_of([&] { build("a,b,y\n1,u,2\n"); }).find("column 'y': '2' is not one of the classes") !=
          std::string::npos);
    v.missing_markers = {"?"};
    CHECK(build("a,b,y\n?,u,0\n1,v,1\n").n_rows() == 1);
  }

  TEST_CASE("registry: a file with an empty url is an error naming it, not a late test failure") {
    const fs::path dir = fs::temp_directory_path() / ("dpf-registry-url-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string entry = "id: mine\ntitle: t\npage: https://example.org\nfiles:\n"
                              "  - {name: a.csv, url: \"\", sha256: \"\", bytes: 1}\n"
                              "variants:\n  - {name: default, files: [a.csv], format: {type: csv, header: true},\n"
                              "     target: {column: y, classes: [\"0\", \"1\"]}, domains: {x: [0, 1]}}\n";
    std::ofstream((dir / "mine.yaml").string()) << entry;
    const std::string e = error_of([&] { dpf::parse_dataset_entry((dir / "mine.yaml").string()); });
    CAPTURE(e);
    CHECK(e.find("mine.yaml: file 'a.csv' has an empty url") != std::string::npos);
    CHECK(e.find("docs/own-data.md") != std::string::npos);
    std::string with_url = entry;
    const std::string empty_url = "url: \"\"";
    with_url.replace(with_url.find(empty_url), empty_url.size(), "url: https://example.org/a.csv");
    std::ofstream((dir / "mine.yaml").string()) << with_url;
    CHECK(error_of([&] { dpf::parse_dataset_entry((dir / "mine.yaml").string()); }).empty());
    fs::remove_all(dir);
  }
}
