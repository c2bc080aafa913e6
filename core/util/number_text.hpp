// Text of a double that reads back as the same double: the shortest "%.*g" (6 to 17 digits) that
// round-trips; "nan", "inf", "-inf" for the non-finite. One definition for the results tables
// (experiments/results) and the names of numeric categories (core/data/array_input).
#pragma once
#include <string>

namespace dpf {

std::string format_double(double v);

}  // namespace dpf
