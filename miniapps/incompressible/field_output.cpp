#include "miniapps/incompressible/field_output.hpp"

#include <bit>
#include <cstdio>

#include "mesh/io/xml_writer_format.hpp"
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

void write_vts(const std::filesystem::path& path, const FractionalStep& flow, int rank) {
#ifdef TB_WITH_VTK
  const FvGrid& g = flow.grid();
  const PlaneRange& planes = g.planes();
  const int n = g.dim();
  // The owned cells: all of them, or a piece's owned planes (one run of the natural order).
  const std::size_t begin = std::size_t(g.owned_cell_begin()), cells = std::size_t(g.owned_cell_end()) - begin;
  std::array<std::vector<double>, 3> nodes = {g.axis(0).nodes, g.axis(1).nodes, g.axis(2).nodes};
  std::vector<double>& sliced = nodes[std::size_t(planes.axis)];
  sliced = {sliced.begin() + planes.owned_begin, sliced.begin() + planes.owned_end + 1};
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  const auto &x = nodes[0], &y = nodes[1], &z = nodes[2];
  points->SetNumberOfPoints(vtkIdType(x.size() * y.size() * z.size()));
  vtkIdType id = 0;
  for (double zk : z)
    for (double yj : y)
      for (double xi : x) points->SetPoint(id++, xi, yj, zk);
  vtkNew<vtkStructuredGrid> grid;
  int extent[6] = {0, int(x.size()) - 1, 0, int(y.size()) - 1, 0, int(z.size()) - 1};
  extent[2 * planes.axis] = int(planes.first + planes.owned_begin);
  extent[2 * planes.axis + 1] = int(planes.first + planes.owned_end);
  grid->SetExtent(extent);
  grid->SetPoints(points);

  std::vector<double> velocity(3 * cells, 0.0), omega(3 * std::size_t(g.num_cells()));
  for (std::size_t c = 0; c < cells; ++c)
    for (int e = 0; e < n; ++e) velocity[3 * c + e] = flow.velocity()[n * (begin + c) + e];
  vorticity(g, flow.boundaries(), flow.velocity(), omega);
  const auto owned = [&](std::span<const double> v, std::size_t width) {
    return std::vector<double>(v.begin() + std::ptrdiff_t(begin * width),
                               v.begin() + std::ptrdiff_t((begin + cells) * width));
  };
  add_array(grid, "velocity", 3, velocity);
  add_array(grid, "pressure", 1, owned(flow.pressure(), 1));
  add_array(grid, "vorticity", 3, owned(omega, 3));
  add_array(grid, "divergence", 1, owned(flow.divergence(), 1));
  if (g.is_piece()) add_array(grid, "rank", 1, std::vector<double>(cells, double(rank)));

  vtkNew<vtkXMLStructuredGridWriter> writer;
  writer->SetInputData(grid);
  set_xml_writer_format(*writer);
  writer->WriteToOutputStringOn();
  if (writer->Write() != 1) throw Error("VTK could not produce '" + path.string() + "'");
  write_file_atomically(path.string(), writer->GetOutputString());
#else
  (void)flow, (void)rank;
  throw Error("cannot write '" + path.string() + "': this build has no VTK (configure with WITH_VTK=ON)");
#endif
}

void write_pvts(const std::filesystem::path& path, const FvGrid& grid, const std::vector<std::string>& pieces,
                const std::vector<std::array<index_t, 2>>& planes) {
  const int axis = grid.planes().axis;
  const auto extent = [&](index_t lo, index_t hi) {
    std::string e;
    for (int d = 0; d < 3; ++d) {
      const index_t a = d == axis ? lo : 0, b = d == axis ? hi : grid.cells(d);
      if (d > 0) e += ' ';
      e += std::to_string(a);
      e += ' ';
      e += std::to_string(b);
    }
    return e;
  };
  std::string x = "<?xml version=\"1.0\"?>\n<VTKFile type=\"PStructuredGrid\" version=\"0.1\" byte_order=\"" +
                  std::string(std::endian::native == std::endian::little ? "LittleEndian" : "BigEndian") +
                  "\">\n  <PStructuredGrid WholeExtent=\"" + extent(0, grid.planes().whole_planes) +
                  "\" GhostLevel=\"0\">\n" +
                  "    <PPoints>\n      <PDataArray type=\"Float64\" NumberOfComponents=\"3\"/>\n    </PPoints>\n" +
                  "    <PCellData>\n";
  for (const auto& [name, components] :
       {std::pair{"velocity", 3}, {"pressure", 1}, {"vorticity", 3}, {"divergence", 1}, {"rank", 1}})
    x += "      <PDataArray type=\"Float64\" Name=\"" + std::string(name) + "\" NumberOfComponents=\"" +
         std::to_string(components) + "\"/>\n";
  x += "    </PCellData>\n";
  for (std::size_t r = 0; r < pieces.size(); ++r)
    x += "    <Piece Extent=\"" + extent(planes[r][0], planes[r][1]) + "\" Source=\"" + pieces[r] + "\"/>\n";
  x += "  </PStructuredGrid>\n</VTKFile>\n";
  write_file_atomically(path.string(), x);
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
