#include "miniapps/compressible/field_output.hpp"

#include <cmath>
#include <cstdio>

#include "mesh/io/vtu_writer.hpp"

namespace tb::compressible {

std::string wall_csv(const std::vector<WallPoint>& wall) {
  std::string s = "x,y,cp,cf\n";
  char buf[128];
  for (const WallPoint& p : wall) {
    std::snprintf(buf, sizeof buf, "%.17g,%.17g,%.17g,%.17g\n", p.x, p.y, p.cp, p.cf);
    s += buf;
  }
  return s;
}

std::vector<CellField> flow_fields(const EulerDiscretisation& disc, const std::vector<State>& w,
                                   const std::vector<State>& r, const std::vector<index_t>& file_cell,
                                   const std::vector<index_t>& line_id) {
  const EulerSettings& s = disc.settings();
  const double p_inf = s.gas.pressure(s.free_stream);
  const double q_inf =
      0.5 * (s.free_stream[1] * s.free_stream[1] + s.free_stream[2] * s.free_stream[2]) / s.free_stream[0];
  const std::size_t n = w.size();
  // velocity as one 3-component array (w = 0): ParaView's glyphs and stream
  // tracers take it without a Calculator. Units: non-dimensional, rho_inf = 1,
  // c_inf = 1 (docs/compressible.md, "Field output").
  std::vector<CellField> fields = {{"density", {}, 1},        {"velocity", {}, 3},  {"pressure", {}, 1},
                                   {"temperature", {}, 1},    {"mach", {}, 1},      {"cp", {}, 1},
                                   {"ordering_index", {}, 1}, {"file_cell", {}, 1}, {"line_id", {}, 1},
                                   {"energy_residual", {}, 1}};
  for (auto& f : fields) f.values.resize(n * std::size_t(f.components));
  for (std::size_t c = 0; c < n; ++c) {
    const Primitive p = s.gas.primitive(w[c]);
    fields[0].values[c] = p.rho;
    fields[1].values[3 * c] = p.u;
    fields[1].values[3 * c + 1] = p.v;
    fields[1].values[3 * c + 2] = 0.0;
    fields[2].values[c] = p.p;
    // T = gamma p / rho: 1 in the free stream (c_inf = 1).
    fields[3].values[c] = s.gas.gamma * p.p / p.rho;
    fields[4].values[c] = std::hypot(p.u, p.v) / s.gas.sound_speed(p.rho, p.p);
    // Cp is undefined without a free-stream velocity; 0 keeps the file finite.
    fields[5].values[c] = q_inf > 0.0 ? (p.p - p_inf) / q_inf : 0.0;
    fields[6].values[c] = double(c);
    fields[7].values[c] = double(file_cell[c]);
    fields[8].values[c] = double(line_id[c]);
    // Per unit area: where the pseudo-time iteration has yet to converge, on any cell size.
    fields[9].values[c] = r[c][3] / disc.geometry().cell_area[c];
  }
  return fields;
}

}  // namespace tb::compressible
