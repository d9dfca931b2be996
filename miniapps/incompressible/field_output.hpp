#pragma once
// ParaView output of the incompressible fields: one .vts per output step
// (cell data: velocity, pressure, vorticity, divergence) through the VTK library,
// grouped by a .pvd time series; and centreline profiles as CSV. Every file is
// written whole or not at all (temporary file, fsync, rename). VTK headers stay
// in the .cpp.
#include <array>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "physics/incompressible/fractional_step.hpp"
#include "physics/incompressible/ghia1982.hpp"

namespace tb::incompressible {

bool vts_output_available();

// Writes dir/name; tb::Error when VTK is missing or the write fails. On a piece
// of the grid (a decomposed run) the file holds the owned planes only, at their
// place in the whole grid's extent, with a "rank" cell array of `rank`.
void write_vts(const std::filesystem::path& path, const FractionalStep& flow, int rank = 0);

// The .pvts joining the ranks' pieces of a decomposed run: pieces[r] holds the
// whole grid's planes [planes[r][0], planes[r][1]) of `grid`'s slab axis.
void write_pvts(const std::filesystem::path& path, const FvGrid& grid, const std::vector<std::string>& pieces,
                const std::vector<std::array<index_t, 2>>& planes);

// A cell array of a .vts file (components interleaved) and its cell counts per
// direction; tb::Error when VTK is missing, the file unreadable or the array absent.
struct VtsCellArray {
  std::array<int, 3> cells{};
  int components = 0;
  std::vector<double> values;
};
VtsCellArray read_vts_cell_array(const std::filesystem::path& path, const std::string& name);

// "coord,value" rows with 17 significant digits.
std::string profile_csv(const Profile& p, const char* coord_name, const char* value_name);

}  // namespace tb::incompressible
