#include "miniapps/immersed/field_output.hpp"

#include "mesh/io/xml_writer_format.hpp"
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

std::vector<CellArray> masked_flow_arrays(std::span<const CellType> types,
                                          const std::array<std::span<const double>, 3>& u, std::span<const double> p) {
  const std::size_t n = types.size();
  CellArray velocity{"velocity", 3, std::vector<double>(3 * n, 0.0)};
  CellArray pressure{"pressure", 1, std::vector<double>(n, 0.0)};
  for (std::size_t c = 0; c < n; ++c) {
    if (types[c] != CellType::fluid) continue;
    for (std::size_t d = 0; d < 3; ++d) velocity.values[3 * c + d] = u[d][c];
    pressure.values[c] = p[c];
  }
  return {velocity, pressure};
}

#ifdef TB_WITH_VTK
namespace {

// The XML writers render to a string so that the file appears atomically.
template <class Writer>
void write_atomically(Writer* writer, const std::filesystem::path& path) {
  set_xml_writer_format(*writer);
  writer->WriteToOutputStringOn();
  if (writer->Write() != 1) throw Error("VTK could not produce '" + path.string() + "'");
  write_file_atomically(path.string(), writer->GetOutputString());
}

}  // namespace
#endif

namespace {

void check_sizes(const CartesianGrid& grid, const std::vector<CellArray>& arrays) {
  for (const CellArray& a : arrays)
    if (a.values.size() != std::size_t(grid.num_cells()) * std::size_t(a.components))
      throw Error("cell array '" + a.name + "' has " + std::to_string(a.values.size()) + " values for " +
                  std::to_string(grid.num_cells()) + " cells");
}

// The cells of the local k-planes [k0, k1) (and their nodes) as one structured
// piece whose extent sits inside the whole grid's, as a .pvts piece must (a
// rank's piece of the grid starts at whole plane planes().first).
void write_piece_vts(const std::filesystem::path& path, const CartesianGrid& grid, const std::vector<CellArray>& arrays,
                     index_t k0, index_t k1) {
#ifdef TB_WITH_VTK
  const auto &x = grid.axis(0).nodes, &y = grid.axis(1).nodes, &z = grid.axis(2).nodes;
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(vtkIdType(x.size() * y.size() * std::size_t(k1 - k0 + 1)));
  vtkIdType id = 0;
  for (index_t k = k0; k <= k1; ++k)
    for (double yj : y)
      for (double xi : x) points->SetPoint(id++, xi, yj, z[std::size_t(k)]);
  vtkNew<vtkStructuredGrid> g;
  const int shift = int(grid.planes().first);
  g->SetExtent(0, int(x.size()) - 1, 0, int(y.size()) - 1, int(k0) + shift, int(k1) + shift);
  g->SetPoints(points);
  const std::size_t plane = (x.size() - 1) * (y.size() - 1), first = std::size_t(k0) * plane;
  const std::size_t cells = std::size_t(k1 - k0) * plane;
  for (const CellArray& a : arrays) {
    vtkNew<vtkDoubleArray> v;
    v->SetName(a.name.c_str());
    v->SetNumberOfComponents(a.components);
    v->SetNumberOfTuples(vtkIdType(cells));
    const std::size_t c = std::size_t(a.components);
    for (std::size_t i = 0; i < cells * c; ++i) v->SetValue(vtkIdType(i), a.values[first * c + i]);
    g->GetCellData()->AddArray(v);
  }
  vtkNew<vtkXMLStructuredGridWriter> writer;
  writer->SetInputData(g);
  write_atomically(writer.Get(), path);
#else
  (void)grid, (void)arrays, (void)k0, (void)k1;
  throw Error("cannot write '" + path.string() + "': this build has no VTK (configure with WITH_VTK=ON)");
#endif
}

}  // namespace

void write_grid_vts(const std::filesystem::path& path, const CartesianGrid& grid,
                    const std::vector<CellArray>& arrays) {
  check_sizes(grid, arrays);
  write_piece_vts(path, grid, arrays, 0, grid.cells(2));
}

void write_pvts(const std::filesystem::path& path, const CartesianGrid& grid, const std::vector<CellArray>& arrays,
                const std::vector<PvtsPiece>& pieces) {
  const auto extent = [&](index_t k0, index_t k1) {
    return "0 " + std::to_string(grid.cells(0)) + " 0 " + std::to_string(grid.cells(1)) + " " + std::to_string(k0) +
           " " + std::to_string(k1);
  };
  std::string xml =
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"PStructuredGrid\" version=\"1.0\" "
      "byte_order=\"LittleEndian\" header_type=\"UInt64\">\n  <PStructuredGrid WholeExtent=\"" +
      extent(0, grid.planes().whole_planes) + "\" GhostLevel=\"0\">\n    <PCellData>\n";
  for (const CellArray& a : arrays)
    xml += "      <PDataArray type=\"Float64\" Name=\"" + a.name + "\" NumberOfComponents=\"" +
           std::to_string(a.components) + "\"/>\n";
  xml +=
      "    </PCellData>\n    <PPoints>\n      <PDataArray type=\"Float64\" Name=\"Points\" "
      "NumberOfComponents=\"3\"/>\n    </PPoints>\n";
  for (const PvtsPiece& p : pieces)
    xml += "    <Piece Extent=\"" + extent(p.k0, p.k1) + "\" Source=\"" + p.file + "\"/>\n";
  xml += "  </PStructuredGrid>\n</VTKFile>\n";
  write_file_atomically(path.string(), xml);
}

void write_owned_vts(const std::filesystem::path& path, const CartesianGrid& piece,
                     const std::vector<CellArray>& arrays) {
  check_sizes(piece, arrays);
  write_piece_vts(path, piece, arrays, piece.planes().owned_begin, piece.planes().owned_end);
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
