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

void write_flow_vtu(const std::string& path, const EulerDiscretisation& disc, const std::vector<State>& w,
                    const std::vector<index_t>& file_cell, const std::vector<index_t>& line_id) {
  const EulerSettings& s = disc.settings();
  const double p_inf = s.gas.pressure(s.free_stream);
  const double q_inf =
      0.5 * (s.free_stream[1] * s.free_stream[1] + s.free_stream[2] * s.free_stream[2]) / s.free_stream[0];
  const std::size_t n = w.size();
  std::vector<CellField> fields = {{"density", {}},     {"velocity_x", {}}, {"velocity_y", {}}, {"pressure", {}},
                                   {"temperature", {}}, {"mach", {}},       {"cp", {}},         {"ordering_index", {}},
                                   {"file_cell", {}},   {"line_id", {}}};
  for (auto& f : fields) f.values.resize(n);
  for (std::size_t c = 0; c < n; ++c) {
    const Primitive p = s.gas.primitive(w[c]);
    fields[0].values[c] = p.rho;
    fields[1].values[c] = p.u;
    fields[2].values[c] = p.v;
    fields[3].values[c] = p.p;
    // T = gamma p / rho: 1 in the free stream (c_inf = 1).
    fields[4].values[c] = s.gas.gamma * p.p / p.rho;
    fields[5].values[c] = std::hypot(p.u, p.v) / s.gas.sound_speed(p.rho, p.p);
    // Cp is undefined without a free-stream velocity; 0 keeps the file finite.
    fields[6].values[c] = q_inf > 0.0 ? (p.p - p_inf) / q_inf : 0.0;
    fields[7].values[c] = double(c);
    fields[8].values[c] = double(file_cell[c]);
    fields[9].values[c] = double(line_id[c]);
  }
  write_vtu(path, disc.mesh(), fields);
}

}  // namespace tb::compressible
