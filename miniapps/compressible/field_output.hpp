#pragma once
// tb-comp2d's files: the cell fields as .vtu (density, velocity, pressure,
// temperature, Mach, Cp, ordering index, the file's cell number, line id) grouped by a .pvd series, and the
// wall pressure as CSV. Every file is written whole or not at all.
#include <string>
#include <utility>
#include <vector>

#include "physics/compressible/euler_discretisation.hpp"
#include "physics/compressible/forces.hpp"

namespace tb::compressible {

// "x,y,cp,cf" rows, 17 significant digits.
std::string wall_csv(const std::vector<WallPoint>& wall);

// Writes `path` (.vtu) with the state w and the energy residual of r per unit
// area; tb::Error when VTK is missing or the write fails.
void write_flow_vtu(const std::string& path, const EulerDiscretisation& disc, const std::vector<State>& w,
                    const std::vector<State>& r, const std::vector<index_t>& file_cell,
                    const std::vector<index_t>& line_id);

}  // namespace tb::compressible
