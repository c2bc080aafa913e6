// Cartesian grids of named settings (an experiment's sweep, a tuning grid): built one axis at a time.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace dpf {

using GridPoint = std::map<std::string, std::string>;

// The grid with one more axis: every point of `points` once with `key` = each of `values`, point-major
// (the points' order, then the values' order).
inline std::vector<GridPoint> add_grid_axis(const std::vector<GridPoint>& points, const std::string& key,
                                            const std::vector<std::string>& values) {
  std::vector<GridPoint> next;
  next.reserve(points.size() * values.size());
  for (const GridPoint& p : points)
    for (const std::string& v : values) {
      GridPoint q = p;
      q[key] = v;
      next.push_back(std::move(q));
    }
  return next;
}

}  // namespace dpf
