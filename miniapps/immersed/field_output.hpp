#pragma once
// ParaView output of tb-ib through the VTK library (as tb-incomp's): the grid
// as a .vts with cell data (velocity, pressure, cell type 0 fluid / 1 ghost /
// 2 solid, and any extra scalar arrays) and the body surface as a .vtp. Files
// are written whole or not at all. VTK headers stay in the .cpp.
#include <filesystem>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "physics/immersed/ghost_cells.hpp"

namespace tb::immersed {

bool vtk_output_available();

struct CellArray {
  std::string name;
  int components = 1;
  std::vector<double> values;  // components interleaved
};

// tb::Error when VTK is missing or the write fails.
void write_grid_vts(const std::filesystem::path& path, const CartesianGrid& grid, const std::vector<CellArray>& arrays);
// A decomposed run (docs/distributed.md): each rank writes its owned planes as a piece
// (write_owned_vts; extent in the whole grid's planes) and rank 0 the .pvts
// naming them (write_pvts; `grid` may be any rank's piece: only the whole
// grid's sizes are read).
struct PvtsPiece {
  std::string file;        // beside the .pvts
  index_t k0 = 0, k1 = 0;  // whole-grid planes [k0, k1)
};
void write_owned_vts(const std::filesystem::path& path, const CartesianGrid& piece,
                     const std::vector<CellArray>& arrays);
void write_pvts(const std::filesystem::path& path, const CartesianGrid& grid, const std::vector<CellArray>& arrays,
                const std::vector<PvtsPiece>& pieces);
void write_surface_vtp(const std::filesystem::path& path, const std::vector<Triangle>& triangles);

// The cell-type array of a classification, as doubles.
CellArray cell_type_array(const GhostCells& cells);

// "velocity" (3 components) and "pressure" of the fluid cells; the body's cells
// (ghost and solid) are written as zero: a ghost cell holds an extrapolation
// that keeps the wall condition, not a flow value, and would set ParaView's
// colour range (cell_type tells the cells apart).
std::vector<CellArray> masked_flow_arrays(std::span<const CellType> types,
                                          const std::array<std::span<const double>, 3>& u, std::span<const double> p);

}  // namespace tb::immersed
