// The occupancy depth rule (dipreme.md §3, §6.1): the depths [ICML] Table 1 prints and §6.1 lists,
// from n_train = floor(0.9 N) as our 90/10 holdout gives.
#include <doctest/doctest.h>

#include "algorithms/common/occupancy.hpp"

using dpf::occupancy_depth;

TEST_SUITE("unit") {
  TEST_CASE("occupancy_depth gives d_full / d_mult / d_part of dipreme.md §6.1") {
    struct Row { std::size_t n; int occ, full, mult, part; };
    // Parkinson's 5875, Appliances 19735, Traffic 48204, Turbine 36733, Banknote 1372 (occ 10),
    // Credit 30000, Robot 5456.
    const Row rows[] = {{5287, 25, 7, 3, 4},  {17761, 25, 9, 4, 6}, {43383, 25, 10, 4, 7}, {33059, 25, 10, 4, 7},
                        {1234, 10, 6, 2, 3},  {27000, 25, 10, 4, 6}, {4910, 25, 7, 3, 4}};
    for (const Row& r : rows) {
      CAPTURE(r.n);
      CHECK(occupancy_depth(r.n, r.occ, 2.0, 1) == r.full);
      CHECK(occupancy_depth(r.n, r.occ, 5.0, 1) == r.mult);
      CHECK(occupancy_depth(r.n, r.occ, 2.0, 10) == r.part);
    }
    CHECK(occupancy_depth(5, 25, 2.0, 10) == 1);  // never below one split level
    CHECK(occupancy_depth(3125, 1, 5.0, 1) == 5);  // exact powers are not lost to rounding
  }
}
