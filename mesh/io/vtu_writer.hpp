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
void write_vtu(const std::string& path, const Mesh2D& mesh, const std::vector<CellField>& fields);

}  // namespace tb
