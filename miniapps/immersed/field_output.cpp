#include "miniapps/immersed/field_output.hpp"

#include "solvers/core/atomic_file.hpp"
#include "solvers/core/error.hpp"

#ifdef TB_WITH_VTK
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkStructuredGrid.h>
#include <vtkXMLPolyDataWriter.h>
#include <vtkXMLStructuredGridWriter.h>
#endif

namespace tb::immersed {

bool vtk_output_available() {
#ifdef TB_WITH_VTK
  return true;
#else
  return false;
#endif
}

CellArray cell_type_array(const GhostCells& cells) {
  CellArray a{"cell_type", 1, {}};
  a.values.reserve(cells.types.size());
  for (CellType t : cells.types) a.values.push_back(double(t));
  return a;
}

#ifdef TB_WITH_VTK
namespace {

// The XML writers render to a string so that the file appears atomically.
template <class Writer>
void write_atomically(Writer* writer, const std::filesystem::path& path) {
  writer->SetDataModeToAppended();
  writer->EncodeAppendedDataOff();
  writer->WriteToOutputStringOn();
  if (writer->Write() != 1) throw Error("VTK could not produce '" + path.string() + "'");
  write_file_atomically(path.string(), writer->GetOutputString());
}

}  // namespace
#endif

void write_grid_vts(const std::filesystem::path& path, const CartesianGrid& grid,
                    const std::vector<CellArray>& arrays) {
#ifdef TB_WITH_VTK
  const auto &x = grid.axis(0).nodes, &y = grid.axis(1).nodes, &z = grid.axis(2).nodes;
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(vtkIdType(x.size() * y.size() * z.size()));
  vtkIdType id = 0;
  for (double zk : z)
    for (double yj : y)
      for (double xi : x) points->SetPoint(id++, xi, yj, zk);
  vtkNew<vtkStructuredGrid> g;
  g->SetDimensions(int(x.size()), int(y.size()), int(z.size()));
  g->SetPoints(points);
  for (const CellArray& a : arrays) {
    if (a.values.size() != std::size_t(grid.num_cells()) * std::size_t(a.components))
      throw Error("cell array '" + a.name + "' has " + std::to_string(a.values.size()) + " values for " +
                  std::to_string(grid.num_cells()) + " cells");
    vtkNew<vtkDoubleArray> v;
    v->SetName(a.name.c_str());
    v->SetNumberOfComponents(a.components);
    v->SetNumberOfTuples(vtkIdType(grid.num_cells()));
    for (std::size_t i = 0; i < a.values.size(); ++i) v->SetValue(vtkIdType(i), a.values[i]);
    g->GetCellData()->AddArray(v);
  }
  vtkNew<vtkXMLStructuredGridWriter> writer;
  writer->SetInputData(g);
  write_atomically(writer.Get(), path);
#else
  (void)grid, (void)arrays;
  throw Error("cannot write '" + path.string() + "': this build has no VTK (configure with WITH_VTK=ON)");
#endif
}

void write_surface_vtp(const std::filesystem::path& path, const std::vector<Triangle>& triangles) {
#ifdef TB_WITH_VTK
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  vtkNew<vtkCellArray> polys;
  for (const Triangle& t : triangles) {
    vtkIdType ids[3];
    for (int v = 0; v < 3; ++v) ids[v] = points->InsertNextPoint(t.v[v][0], t.v[v][1], t.v[v][2]);
    polys->InsertNextCell(3, ids);
  }
  vtkNew<vtkPolyData> surface;
  surface->SetPoints(points);
  surface->SetPolys(polys);
  vtkNew<vtkXMLPolyDataWriter> writer;
  writer->SetInputData(surface);
  write_atomically(writer.Get(), path);
#else
  (void)triangles;
  throw Error("cannot write '" + path.string() + "': this build has no VTK (configure with WITH_VTK=ON)");
#endif
}

}  // namespace tb::immersed
