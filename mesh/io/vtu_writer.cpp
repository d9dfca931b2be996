#include "mesh/io/vtu_writer.hpp"

#include <bit>
#include <cstdio>

#include "mesh/io/xml_writer_format.hpp"
#include "solvers/core/atomic_file.hpp"
#include "solvers/core/error.hpp"

#ifdef TB_WITH_VTK
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDoubleArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkUnsignedCharArray.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridWriter.h>
#endif

namespace tb {

bool vtu_writer_available() {
#ifdef TB_WITH_VTK
  return true;
#else
  return false;
#endif
}

void write_vtu(const std::string& path, const Mesh2D& mesh, const std::vector<CellField>& fields, index_t owned_cells) {
  for (const CellField& f : fields)
    if (f.components < 1 || f.values.size() != std::size_t(f.components) * std::size_t(mesh.num_cells()))
      throw Error("cell field '" + f.name + "' has " + std::to_string(f.values.size()) + " values for " +
                  std::to_string(mesh.num_cells()) + " cells of " + std::to_string(f.components) + " components");
#ifdef TB_WITH_VTK
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(mesh.num_nodes());
  for (index_t i = 0; i < mesh.num_nodes(); ++i) points->SetPoint(i, mesh.nodes[i].x, mesh.nodes[i].y, 0.0);
  vtkNew<vtkUnstructuredGrid> grid;
  grid->SetPoints(points);
  grid->Allocate(mesh.num_cells());
  vtkIdType ids[4];
  for (index_t c = 0; c < mesh.num_cells(); ++c) {
    for (index_t k = 0; k < mesh.cell_size(c); ++k) ids[k] = mesh.cell_begin(c)[k];
    grid->InsertNextCell(mesh.cell_size(c) == 3 ? VTK_TRIANGLE : VTK_QUAD, mesh.cell_size(c), ids);
  }
  for (const CellField& f : fields) {
    vtkNew<vtkDoubleArray> array;
    array->SetName(f.name.c_str());
    array->SetNumberOfComponents(f.components);
    array->SetNumberOfTuples(mesh.num_cells());
    for (std::size_t k = 0; k < f.values.size(); ++k) array->SetValue(vtkIdType(k), f.values[k]);
    grid->GetCellData()->AddArray(array);
  }
  if (owned_cells >= 0) {
    vtkNew<vtkUnsignedCharArray> ghosts;
    ghosts->SetName(vtkDataSetAttributes::GhostArrayName());
    ghosts->SetNumberOfTuples(mesh.num_cells());
    for (index_t c = 0; c < mesh.num_cells(); ++c)
      ghosts->SetValue(c, c < owned_cells ? 0 : vtkDataSetAttributes::DUPLICATECELL);
    grid->GetCellData()->AddArray(ghosts);
  }
  const std::string temporary = temporary_path_for(path);
  vtkNew<vtkXMLUnstructuredGridWriter> writer;
  writer->SetFileName(temporary.c_str());
  writer->SetInputData(grid);
  set_xml_writer_format(*writer);
  if (writer->Write() != 1) {
    std::remove(temporary.c_str());
    throw Error("VTK could not write '" + path + "'");
  }
  commit_temporary(temporary, path);
#else
  (void)path;
  (void)mesh;
  (void)owned_cells;
  throw Error("cannot write '" + path + "': this build has no VTK (configure with WITH_VTK=ON)");
#endif
}

void write_pvtu(const std::string& path, const std::vector<std::string>& pieces, const std::vector<CellField>& fields,
                int ghost_levels) {
  std::string x = "<?xml version=\"1.0\"?>\n<VTKFile type=\"PUnstructuredGrid\" version=\"0.1\" byte_order=\"" +
                  std::string(std::endian::native == std::endian::little ? "LittleEndian" : "BigEndian") +
                  "\">\n  <PUnstructuredGrid GhostLevel=\"" + std::to_string(ghost_levels) + "\">\n" +
                  "    <PPoints>\n      <PDataArray type=\"Float64\" NumberOfComponents=\"3\"/>\n    </PPoints>\n" +
                  "    <PCellData>\n";
  for (const CellField& f : fields)
    x += "      <PDataArray type=\"Float64\" Name=\"" + f.name + "\" NumberOfComponents=\"" +
         std::to_string(f.components) + "\"/>\n";
  if (ghost_levels > 0) x += "      <PDataArray type=\"UInt8\" Name=\"vtkGhostType\"/>\n";
  x += "    </PCellData>\n";
  for (const std::string& piece : pieces) x += "    <Piece Source=\"" + piece + "\"/>\n";
  x += "  </PUnstructuredGrid>\n</VTKFile>\n";
  write_file_atomically(path, x);
}

}  // namespace tb
