#include "miniapps/incompressible/field_output.hpp"

#include <cstdio>

#include "physics/incompressible/operators.hpp"
#include "solvers/core/atomic_file.hpp"
#include "solvers/core/error.hpp"

#ifdef TB_WITH_VTK
#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkStructuredGrid.h>
#include <vtkXMLStructuredGridReader.h>
#include <vtkXMLStructuredGridWriter.h>
#endif

namespace tb::incompressible {

bool vts_output_available() {
#ifdef TB_WITH_VTK
  return true;
#else
  return false;
#endif
}

#ifdef TB_WITH_VTK
namespace {

void add_array(vtkStructuredGrid* grid, const char* name, int components, const std::vector<double>& values) {
  vtkNew<vtkDoubleArray> a;
  a->SetName(name);
  a->SetNumberOfComponents(components);
  a->SetNumberOfTuples(vtkIdType(values.size() / std::size_t(components)));
  for (std::size_t i = 0; i < values.size(); ++i) a->SetValue(vtkIdType(i), values[i]);
  grid->GetCellData()->AddArray(a);
}

}  // namespace
#endif

void write_vts(const std::filesystem::path& path, const FractionalStep& flow) {
#ifdef TB_WITH_VTK
  const FvGrid& g = flow.grid();
  const int n = g.dim();
  const std::size_t cells = std::size_t(g.num_cells());
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  const auto &x = g.axis(0).nodes, &y = g.axis(1).nodes, &z = g.axis(2).nodes;
  points->SetNumberOfPoints(vtkIdType(x.size() * y.size() * z.size()));
  vtkIdType id = 0;
  for (double zk : z)
    for (double yj : y)
      for (double xi : x) points->SetPoint(id++, xi, yj, zk);
  vtkNew<vtkStructuredGrid> grid;
  grid->SetDimensions(int(x.size()), int(y.size()), int(z.size()));
  grid->SetPoints(points);

  std::vector<double> velocity(3 * cells, 0.0), omega(3 * cells);
  for (std::size_t c = 0; c < cells; ++c)
    for (int e = 0; e < n; ++e) velocity[3 * c + e] = flow.velocity()[n * c + e];
  vorticity(g, flow.boundaries(), flow.velocity(), omega);
  add_array(grid, "velocity", 3, velocity);
  add_array(grid, "pressure", 1, {flow.pressure().begin(), flow.pressure().end()});
  add_array(grid, "vorticity", 3, omega);
  add_array(grid, "divergence", 1, {flow.divergence().begin(), flow.divergence().end()});

  vtkNew<vtkXMLStructuredGridWriter> writer;
  writer->SetInputData(grid);
  writer->SetDataModeToAppended();
  writer->EncodeAppendedDataOff();
  writer->WriteToOutputStringOn();
  if (writer->Write() != 1) throw Error("VTK could not produce '" + path.string() + "'");
  write_file_atomically(path.string(), writer->GetOutputString());
#else
  (void)flow;
  throw Error("cannot write '" + path.string() + "': this build has no VTK (configure with WITH_VTK=ON)");
#endif
}

VtsCellArray read_vts_cell_array(const std::filesystem::path& path, const std::string& name) {
#ifdef TB_WITH_VTK
  if (!std::filesystem::exists(path)) throw Error(path.string() + ": no such file");
  vtkNew<vtkXMLStructuredGridReader> reader;
  reader->SetFileName(path.c_str());
  reader->Update();
  vtkStructuredGrid* grid = reader->GetOutput();
  vtkDataArray* array = grid ? grid->GetCellData()->GetArray(name.c_str()) : nullptr;
  if (!array) throw Error(path.string() + ": no cell array '" + name + "'");
  VtsCellArray out;
  int dims[3];
  grid->GetDimensions(dims);
  for (int d = 0; d < 3; ++d) out.cells[d] = dims[d] - 1;
  out.components = array->GetNumberOfComponents();
  out.values.resize(std::size_t(array->GetNumberOfTuples()) * out.components);
  for (vtkIdType t = 0; t < array->GetNumberOfTuples(); ++t)
    for (int c = 0; c < out.components; ++c)
      out.values[std::size_t(t) * out.components + c] = array->GetComponent(t, c);
  return out;
#else
  throw Error("cannot read '" + path.string() + "' for '" + name + "': this build has no VTK");
#endif
}

std::string profile_csv(const Profile& p, const char* coord_name, const char* value_name) {
  std::string s = coord_name;
  s += ',';
  s += value_name;
  s += '\n';
  char buf[64];
  for (std::size_t i = 0; i < p.coord.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%.17g,%.17g\n", p.coord[i], p.value[i]);
    s += buf;
  }
  return s;
}

}  // namespace tb::incompressible
