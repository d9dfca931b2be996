#pragma once
// ParaView output of a Mesh2D through the VTK library (VTK headers stay in the
// .cpp so that code including this header compiles without VTK).
#include <string>
#include <vector>

#include "mesh/mesh2d.hpp"

namespace tb {

struct CellField {
  std::string name;
  std::vector<double> values;  // components values per cell, cell after cell
  int components = 1;          // 3 for a vector: ParaView's glyphs and streamlines take it as is
};

// True when the build found VTK; otherwise write_vtu throws tb::Error.
bool vtu_writer_available();

// Writes the mesh (z = 0) with the given cell fields as VTK XML unstructured
// grid, appended binary, atomically. Throws tb::Error when a field's size is
// not components times the number of cells or the file cannot be written.
// owned_cells >= 0: a piece of a decomposed mesh, whose cells from owned_cells
// on are ghosts (another rank's): they are marked in VTK's vtkGhostType array
// (DUPLICATECELL), which ParaView hides and its filters use across pieces.
void write_vtu(const std::string& path, const Mesh2D& mesh, const std::vector<CellField>& fields,
               index_t owned_cells = -1);

// The .pvtu that collects pieces written by write_vtu with these fields (the
// pieces' paths relative to the .pvtu), ghost_levels > 0 when the pieces carry
// ghost cells. Plain XML: needs no VTK. Written atomically.
void write_pvtu(const std::string& path, const std::vector<std::string>& pieces, const std::vector<CellField>& fields,
                int ghost_levels);

}  // namespace tb
