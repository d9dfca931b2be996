#include "physics/incompressible/ghia1982.hpp"

#include <array>
#include <cmath>

namespace tb::incompressible {

namespace {

constexpr std::array<double, 17> table1_y = {0.0000, 0.0547, 0.0625, 0.0703, 0.1016, 0.1719, 0.2813, 0.4531, 0.5000,
                                             0.6172, 0.7344, 0.8516, 0.9531, 0.9609, 0.9688, 0.9766, 1.0000};
constexpr std::array<std::array<double, 17>, 3> table1_u = {{
    {0.00000, -0.03717, -0.04192, -0.04775, -0.06434, -0.10150, -0.15662, -0.21090, -0.20581, -0.13641, 0.00332,
     0.23151, 0.68717, 0.73722, 0.78871, 0.84123, 1.00000},
    {0.00000, -0.08186, -0.09266, -0.10338, -0.14612, -0.24299, -0.32726, -0.17119, -0.11477, 0.02135, 0.16256, 0.29093,
     0.55892, 0.61756, 0.68439, 0.75837, 1.00000},
    {0.00000, -0.18109, -0.20196, -0.22220, -0.29730, -0.38289, -0.27805, -0.10648, -0.06080, 0.05702, 0.18719, 0.33304,
     0.46604, 0.51117, 0.57492, 0.65928, 1.00000},
}};
constexpr std::array<double, 17> table2_x = {0.0000, 0.0625, 0.0703, 0.0781, 0.0938, 0.1563, 0.2266, 0.2344, 0.5000,
                                             0.8047, 0.8594, 0.9063, 0.9453, 0.9531, 0.9609, 0.9688, 1.0000};
constexpr std::array<std::array<double, 17>, 3> table2_v = {{
    {0.00000, 0.09233, 0.10091, 0.10890, 0.12317, 0.16077, 0.17507, 0.17527, 0.05454, -0.24533, -0.22445, -0.16914,
     -0.10313, -0.08864, -0.07391, -0.05906, 0.00000},
    {0.00000, 0.18360, 0.19713, 0.20920, 0.22965, 0.28124, 0.30203, 0.30174, 0.05186, -0.38598, -0.44993, NAN, -0.22847,
     -0.19254, -0.15663, -0.12146, 0.00000},
    {0.00000, 0.27485, 0.29012, 0.30353, 0.32627, 0.37095, 0.33075, 0.32235, 0.02526, -0.31966, -0.42665, -0.51550,
     -0.39188, -0.33714, -0.27669, -0.21388, 0.00000},
}};

int column(int reynolds) { return reynolds == 100 ? 0 : reynolds == 400 ? 1 : reynolds == 1000 ? 2 : -1; }

Profile make(const std::array<double, 17>& coord, const std::array<double, 17>& value) {
  Profile p;
  for (std::size_t i = 0; i < coord.size(); ++i)
    if (!std::isnan(value[i])) p.coord.push_back(coord[i]), p.value.push_back(value[i]);
  return p;
}

}  // namespace

std::optional<Profile> ghia_u_vertical(int reynolds) {
  const int c = column(reynolds);
  if (c < 0) return std::nullopt;
  return make(table1_y, table1_u[c]);
}

std::optional<Profile> ghia_v_horizontal(int reynolds) {
  const int c = column(reynolds);
  if (c < 0) return std::nullopt;
  return make(table2_x, table2_v[c]);
}

}  // namespace tb::incompressible
