#pragma once
// tb-comp2d's files: the cell fields as .vtu (density, velocity, pressure,
// temperature, Mach, Cp, ordering index, the file's cell number, line id) grouped by a .pvd series (a .pvtu
// of the ranks' pieces in a decomposed run), and the wall pressure as CSV.
// Every file is written whole or not at all.
#include <string>
#include <utility>
#include <vector>

#include "mesh/io/vtu_writer.hpp"
#include "physics/compressible/euler_discretisation.hpp"
#include "physics/compressible/forces.hpp"

namespace tb::compressible {

// "x,y,cp,cf" rows, 17 significant digits.
std::string wall_csv(const std::vector<WallPoint>& wall);

// The state w and the energy residual of r per unit area, for write_vtu.
// The cell fields of the .vtu (density, velocity, ..., energy_residual), one value per cell of disc's mesh.
std::vector<CellField> flow_fields(const EulerDiscretisation& disc, const std::vector<State>& w,
                                   const std::vector<State>& r, const std::vector<index_t>& file_cell,
                                   const std::vector<index_t>& line_id);

}  // namespace tb::compressible
