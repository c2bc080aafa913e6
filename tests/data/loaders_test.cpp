#include <doctest/doctest.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/data/loaders.hpp"
#include "core/util/error.hpp"
#include "datasets/fetcher.hpp"

using dpf::parse_table;
using dpf::TableFormat;

TEST_SUITE("unit") {
  TEST_CASE("csv: quotes with embedded delimiters, quotes and newlines") {
    TableFormat f;
    f.header = true;
    auto t = parse_table("a,b,c\n1,\"x,y\",\"say \"\"hi\"\"\"\n2,\"two\nlines\",z\n", f, "mem");
    REQUIRE(t.columns == std::vector<std::string>{"a", "b", "c"});
    REQUIRE(t.rows.size() == 2);
    CHECK(t.rows[0][1] == "x,y");
    CHECK(t.rows[0][2] == "say \"hi\"");
    CHECK(t.rows[1][1] == "two\nlines");
    CHECK(t.rows[1][2] == "z");
    CHECK(t.line_of_row == std::vector<std::size_t>{2, 3});
  }
  TEST_CASE("csv: CRLF, no final newline, blanks trimmed, skip_lines, other delimiter") {
    TableFormat f;
    auto t = parse_table("1, 2 ,3\r\n4,5,6", f, "mem");
    REQUIRE(t.rows.size() == 2);
    CHECK(t.rows[0] == std::vector<std::string>{"1", "2", "3"});
    CHECK(t.rows[1] == std::vector<std::string>{"4", "5", "6"});
    CHECK(t.columns == std::vector<std::string>{"c0", "c1", "c2"});
    TableFormat g;
    g.delimiter = ';';
    g.header = true;
    g.skip_lines = 1;
    auto u = parse_table("junk line\r\n\"x\";\"y\"\r\n1;2\r\n\r\n", g, "mem");
    CHECK(u.columns == std::vector<std::string>{"x", "y"});
    REQUIRE(u.rows.size() == 1);
    CHECK(u.rows[0] == std::vector<std::string>{"1", "2"});
    CHECK(u.line_of_row[0] == 3);
    CHECK_THROWS_AS(parse_table("1,\"open\n", f, "mem"), dpf::Error);
  }
  TEST_CASE("whitespace tables and max_fields") {
    TableFormat f;
    f.type = "whitespace";
    f.max_fields = 3;
    auto t = parse_table("1  2\t3\t\terror fixed\n 4 5 6 \n", f, "mem");
    REQUIRE(t.rows.size() == 2);
    CHECK(t.rows[0] == std::vector<std::string>{"1", "2", "3"});
    CHECK(t.rows[1] == std::vector<std::string>{"4", "5", "6"});
  }
  TEST_CASE("arff: attributes, quoted names and values, comments") {
    TableFormat f;
    f.type = "arff";
    auto t = parse_table(
        "% comment\n@relation r\n@attribute 'my attr' numeric\n@ATTRIBUTE b {x,'y z'}\n@attribute c real\n"
        "@data\n% another\n1.5,'y z',3\n2,x,?",
        f, "mem");
    CHECK(t.columns == std::vector<std::string>{"my attr", "b", "c"});
    REQUIRE(t.rows.size() == 2);
    CHECK(t.rows[0] == std::vector<std::string>{"1.5", "y z", "3"});
    CHECK(t.rows[1] == std::vector<std::string>{"2", "x", "?"});
    CHECK(t.line_of_row[1] == 9);
  }
  TEST_CASE("libsvm: sparse rows become dense columns") {
    TableFormat f;
    f.type = "libsvm";
    auto t = parse_table("+1 1:1 3:0.5\n-1 2:1\n", f, "mem");
    CHECK(t.columns == std::vector<std::string>{"label", "1", "2", "3"});
    REQUIRE(t.rows.size() == 2);
    CHECK(t.rows[0] == std::vector<std::string>{"+1", "1", "0", "0.5"});
    CHECK(t.rows[1] == std::vector<std::string>{"-1", "0", "1", "0"});
    f.libsvm_features = 5;
    CHECK(parse_table("1 2:1", f, "mem").columns.size() == 6);
    CHECK_THROWS_AS(parse_table("1 0:1", f, "mem"), dpf::Error);
  }
  TEST_CASE("gzip files are detected by their magic bytes") {
    std::string text = "a,b\n1,2\n3,4\n";
    auto path = (std::filesystem::temp_directory_path() / "dpf_loaders_test.csv.gz").string();
    gzFile gz = gzopen(path.c_str(), "wb");
    REQUIRE(gz != nullptr);
    gzwrite(gz, text.data(), static_cast<unsigned>(text.size()));
    gzclose(gz);
    CHECK(dpf::read_file_bytes(path) == text);
    TableFormat f;
    f.header = true;
    auto t = dpf::read_table(path, f);
    CHECK(t.rows.size() == 2);
    std::remove(path.c_str());
    CHECK_THROWS_AS(dpf::read_file_bytes("/nonexistent/file.csv"), dpf::Error);
  }
  TEST_CASE("sha256 known vectors") {
    CHECK(dpf::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(dpf::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(dpf::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    CHECK(dpf::sha256_hex(std::string(1000000, 'a')) ==
          "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  }
}
