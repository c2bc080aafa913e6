// Own data (datasets/local.hpp): a local CSV file typed by its public schema, with no registry entry,
// URL or mirror; a missing public domain is an error naming the leak unless `domains: from-data`
// accepts it; `dataset check` names every problem by line and column.
#include <doctest/doctest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <functional>
#include <unistd.h>

#include "core/util/error.hpp"
#include "core/util/input_check.hpp"
#include "datasets/local.hpp"
#include "datasets/registry.hpp"

namespace fs = std::filesystem;
using namespace dpf;

namespace {

class Dir {
 public:
  Dir() {
    static std::atomic<int> n{0};
    path_ = fs::temp_directory_path() / ("dpf-local-test-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::create_directories(path_);
  }
  ~Dir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string file(const std::string& name, const std::string& text) const {
    std::ofstream(path_ / name) << text;
    return (path_ / name).string();
  }
  std::string path(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

const char* kCsv =
    "age,colour,id,label\n"
    "30,red,1,yes\n"
    "45,blue,2,no\n"
    "60,red,3,yes\n"
    "25,blue,4,no\n";

const char* kSchema =
    "target: label\n"
    "classes: [no, \"yes\"]\n"
    "drop: [id]\n"
    "features:\n"
    "  age: {bounds: [0, 120]}\n"
    "  colour: {categories: [red, green, blue]}\n";

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

LocalDataset schema_of(const std::string& yaml, bool from_data = false) {
  return parse_local_schema(load_yaml_strict(yaml, "mem.yaml"), "mem.yaml: schema", from_data);
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("own data: a CSV file typed by its schema, with the schema's public domains") {
    Dir dir;
    const std::string csv = dir.file("study.csv", kCsv);
    dir.file("study.schema.yaml", kSchema);
    const LocalDataset d = local_dataset_from_files(csv, side_schema_path(csv));
    CHECK(d.id == "study");
    const Dataset data = load_local_dataset(d);
    CHECK(data.n_rows() == 4);
    REQUIRE(data.n_features() == 2);
    const Schema& s = data.schema();
    CHECK(s.features[0].name == "age");
    CHECK(s.features[0].lo == 0);
    CHECK(s.features[0].hi == 120);  // the schema's, not the rows' 25..60
    CHECK(s.features[1].categories == std::vector<std::string>{"red", "green", "blue"});
    CHECK(s.target.classes == std::vector<std::string>{"no", "yes"});
    CHECK(s.domains_source == "schema");
    CHECK(data.label(0) == 1);
    // load_dataset takes a path ending in .csv with its side schema: describe, bench-fit and
    // export-dataset accept it as they accept a registry id.
    const Dataset same = load_dataset(csv, DataOptions::from_environment());
    CHECK(same.n_rows() == 4);
    CHECK(same.schema().features[0].hi == 120);
  }

  TEST_CASE("own data: a missing public domain is an error naming the column and the leak") {
    const std::string no_bounds = "target: label\nclasses: [no, \"yes\"]\nfeatures:\n  age: numeric\n";
    std::string e = error_of([&] { schema_of(no_bounds); });
    CAPTURE(e);
    CHECK(e.find("mem.yaml: schema.features.age: numeric feature 'age' has no bounds") == 0);
    CHECK(e.find("leak") != std::string::npos);
    CHECK(e.find("domains: from-data") != std::string::npos);
    e = error_of([&] { schema_of("target: label\nclasses: [a]\nfeatures:\n  c: categorical\n"); });
    CHECK(e.find("categorical feature 'c' has no category list") != std::string::npos);
    e = error_of([&] { schema_of("target: label\nfeatures:\n  age: {bounds: [0, 1]}\n"); });
    CHECK(e.find("classification target 'label' has no class list") != std::string::npos);
    e = error_of([&] { schema_of("target: y\ntask: regression\nfeatures:\n  age: {bounds: [0, 1]}\n"); });
    CHECK(e.find("regression target 'y' has no bounds") != std::string::npos);
    e = error_of([&] { schema_of("target: y\nfeature:\n  age: {bounds: [0, 1]}\n"); });
    CHECK(e.find("unknown key 'feature'") != std::string::npos);
    CHECK(error_of([&] { schema_of(no_bounds, true); }).empty());
  }

  TEST_CASE("own data: domains: from-data accepts the leak and says so in the schema") {
    Dir dir;
    const std::string csv = dir.file("leaky.csv", kCsv);
    dir.file("leaky.schema.yaml", "target: label\ndrop: [id]\ndomains: from-data\nfeatures:\n  age: numeric\n  colour: categorical\n");
    const LocalDataset d = local_dataset_from_files(csv, side_schema_path(csv));
    CHECK(d.domains_from_data);
    const Dataset data = load_local_dataset(d);
    CHECK(data.schema().domains_source == "from-data");
    CHECK(data.schema().features[0].lo == 25);
    CHECK(data.schema().features[0].hi == 60);
    CHECK(data.schema().target.classes.size() == 2);
  }

  TEST_CASE("own data: the header must match the schema, and values their domains, named by line and column") {
    Dir dir;
    const std::string schema = dir.file("s.yaml", kSchema);
    const std::string extra = dir.file("extra.csv", "age,colour,id,label,zip\n30,red,1,yes,123\n");
    std::string e = error_of([&] { load_local_dataset(local_dataset_from_files(extra, schema)); });
    CHECK(e.find("column 'zip' is not in the schema") != std::string::npos);
    const std::string lacking = dir.file("lacking.csv", "colour,id,label\nred,1,yes\n");
    e = error_of([&] { load_local_dataset(local_dataset_from_files(lacking, schema)); });
    CHECK(e.find("feature 'age' of the schema") != std::string::npos);
    const std::string outside = dir.file("outside.csv", "age,colour,id,label\n30,red,1,yes\n130,red,2,no\n");
    e = error_of([&] { load_local_dataset(local_dataset_from_files(outside, schema)); });
    CAPTURE(e);
    CHECK(e.find("outside.csv line 3, column 'age'") != std::string::npos);
    bool missing = false;
    try {
      load_local_dataset(local_dataset_from_files(dir.path("absent.csv"), schema));
    } catch (const MissingInput&) {
      missing = true;
    }
    CHECK(missing);
  }

  TEST_CASE("dataset check: every problem of every row, by line and column, and a summary") {
    Dir dir;
    const std::string schema = dir.file("s.yaml", kSchema);
    const std::string good = dir.file("good.csv", kCsv);
    LocalCheck c = check_local_dataset(local_dataset_from_files(good, schema));
    CHECK(c.error_count == 0);
    CHECK(c.rows == 4);
    CHECK(c.summary.find("4 rows, 2 features (1 numeric, 1 categorical), target 'label' (classification, 2 classes)") !=
          std::string::npos);
    const std::string bad = dir.file("bad.csv", std::string(kCsv) +
                                                    "130,red,5,yes\n"    // line 6: age outside [0, 120]
                                                    "40,purple,6,no\n"   // line 7: unknown category
                                                    "nan,red,7,maybe\n"  // line 8: NaN and an unknown class
                                                    "40,red\n");         // line 9: ragged
    c = check_local_dataset(local_dataset_from_files(bad, schema));
    REQUIRE(c.error_count == 5);
    CHECK(c.errors[0] == bad + " line 6, column 'age': 130 is outside the schema's bounds [0, 120]");
    CHECK(c.errors[1] == bad + " line 7, column 'colour': 'purple' is not one of the schema's categories");
    CHECK(c.errors[2] == bad + " line 8, column 'age': 'nan' is not a finite number");
    CHECK(c.errors[3] == bad + " line 8, column 'label': 'maybe' is not one of the schema's classes");
    CHECK(c.errors[4] == bad + " line 9: 2 fields, the header has 4");
    const std::string unknown = dir.file("unknown.csv", "age,colour,id,label,zip\n30,red,1,yes,1\n");
    c = check_local_dataset(local_dataset_from_files(unknown, schema));
    REQUIRE(c.error_count == 1);
    CHECK(c.errors[0].find("column 'zip' is not in the schema") != std::string::npos);
  }
}
