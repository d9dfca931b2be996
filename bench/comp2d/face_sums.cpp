// tb-bench-face-sums: the compressible residual's face-to-cell sums three ways,
// the measurement behind its choice (docs/compressible.md, "Face and cell
// loops"): the per-cell gather the project runs (kernels.hpp's
// gather_face_sums: each cell adds its faces' values in ascending face order,
// no races, the sequential loop's bits on every backend), and on the device
// two scatters from the faces, by atomics (one atomicAdd per face, side and
// component; the last bits follow the schedule) and by a colouring of the
// faces (one launch per colour, faces sharing a cell in different colours;
// the bits of the colour order). On the mesh given, the inviscid first-order
// face fluxes of a state near the free stream are summed; the times are best
// of --reps after one untimed call; each scatter's sums are checked against
// the gather's.
//
//   build/bin/tb-bench-face-sums [--mesh FILE ...] [--backend host|cuda] [--reps R] [--json FILE]
//
// Default meshes: the shipped coarse NACA0012 and cylinder. On the host only the
// gather runs (OpenMP, the program's threads).
#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "../common/command_line.hpp"
#include "../common/cuda/gpu_baseline.hpp"
#include "../common/timing.hpp"
#include "face_scatter.hpp"
#include "mesh/graph/colouring.hpp"
#include "mesh/graph/graph.hpp"
#include "mesh/io/mesh_io.hpp"
#include "physics/compressible/boundary_conditions.hpp"
#include "physics/compressible/euler_discretisation.hpp"
#include "physics/compressible/kernel_mesh.hpp"
#include "solvers/core/cuda_call.hpp"
#include "solvers/core/json_writer.hpp"
#include "solvers/core/machine.hpp"

namespace tb {
namespace {

using namespace compressible;

const char* usage =
    "usage: tb-bench-face-sums [--mesh FILE ...] [--backend host|cuda] [--reps R] [--json FILE]\n"
    "  --mesh FILE    a 2D mesh (.msh, .su2); repeatable (default: the shipped coarse NACA0012 and cylinder)\n"
    "  --backend B    host (the gather with OpenMP) or cuda (the gather, atomics and colours; default host)\n"
    "  --reps R       best of R timed calls after one untimed (default 20)\n"
    "  --json FILE    the results with the machine description\n";

struct Options {
  std::vector<std::string> meshes;
  Backend backend = Backend::host;
  int reps = 20;
  std::string json_path;
};

struct Way {
  std::string name;
  double seconds = 0.0;
  int launches = 0;
  double max_difference = 0.0;  // against the gather, relative to its largest sum
};

struct MeshResult {
  std::string mesh;
  index_t cells = 0, faces = 0, colours = 0;
  std::vector<Way> ways;
};

// Every marker named "farfield" is the far field, every other one a slip wall:
// the fluxes only need to be those of some admissible state.
std::vector<BoundaryKind> kinds_of(const Mesh2D& mesh) {
  BoundaryMap map;
  for (const std::string& name : mesh.marker_names)
    (name == "farfield" ? map.far_field : map.slip_wall).push_back(name);
  return boundary_kinds_by_marker(mesh, map);
}

// Faces that share a cell conflict: the graph whose colouring lets a colour's faces add without races.
Colouring face_colouring(const Mesh2D& mesh, std::vector<index_t>& colour_faces, std::vector<index_t>& colour_ptr) {
  std::vector<std::vector<index_t>> faces_of(std::size_t(mesh.num_cells()));
  for (index_t f = 0; f < mesh.num_faces(); ++f) {
    const Face& face = mesh.faces[std::size_t(f)];
    faces_of[std::size_t(face.left)].push_back(f);
    if (face.right >= 0) faces_of[std::size_t(face.right)].push_back(f);
  }
  std::vector<std::pair<index_t, index_t>> edges;
  for (const auto& faces : faces_of)
    for (std::size_t a = 0; a < faces.size(); ++a)
      for (std::size_t b = a + 1; b < faces.size(); ++b) edges.emplace_back(faces[a], faces[b]);
  const Colouring c = greedy_colouring(graph_from_edges(mesh.num_faces(), edges));
  colour_ptr.assign(std::size_t(c.num_colours) + 1, 0);
  for (index_t k : c.colour) ++colour_ptr[std::size_t(k) + 1];
  for (std::size_t k = 0; k < std::size_t(c.num_colours); ++k) colour_ptr[k + 1] += colour_ptr[k];
  colour_faces.resize(c.colour.size());
  std::vector<index_t> next(colour_ptr.begin(), colour_ptr.end() - 1);
  for (index_t f = 0; f < mesh.num_faces(); ++f) colour_faces[std::size_t(next[std::size_t(c.colour[f])]++)] = f;
  return c;
}

double max_relative_difference(const std::vector<double>& got, const std::vector<double>& want) {
  double diff = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < want.size(); ++i)
    diff = std::max(diff, std::abs(got[i] - want[i])), scale = std::max(scale, std::abs(want[i]));
  return scale > 0.0 ? diff / scale : diff;
}

// The coloured scatter's order on the host, sequentially: each colour's faces
// touch distinct cells, and the sums equal the gather's to rounding. Checks
// the colouring the device scatter takes.
void check_colour_order(const Mesh2D& mesh, const std::vector<index_t>& colour_faces,
                        const std::vector<index_t>& colour_ptr, const std::vector<double>& face,
                        const std::vector<double>& gathered) {
  std::vector<double> cell(gathered.size(), 0.0);
  std::vector<index_t> last_colour(std::size_t(mesh.num_cells()), -1);
  for (std::size_t c = 0; c + 1 < colour_ptr.size(); ++c)
    for (index_t i = colour_ptr[c]; i < colour_ptr[c + 1]; ++i) {
      const index_t f = colour_faces[std::size_t(i)];
      const Face& fc = mesh.faces[std::size_t(f)];
      for (index_t side : {fc.left, fc.right}) {
        if (side < 0) continue;
        if (last_colour[std::size_t(side)] == index_t(c))
          throw Error("internal: two faces of cell " + std::to_string(side) + " in colour " + std::to_string(c));
        last_colour[std::size_t(side)] = index_t(c);
      }
      for (std::size_t k = 0; k < 4; ++k) {
        cell[4 * std::size_t(fc.left) + k] += face[4 * std::size_t(f) + k];
        if (fc.right >= 0) cell[4 * std::size_t(fc.right) + k] -= face[4 * std::size_t(f) + k];
      }
    }
  if (max_relative_difference(cell, gathered) > 1e-12) throw Error("internal: the colour order's sums differ");
}

MeshResult measure(const std::string& file, const Options& o) {
  const Mesh2D mesh = read_mesh(file);
  EulerSettings settings;
  settings.free_stream = settings.gas.free_stream(0.5, 0.02);
  const EulerDiscretisation disc(mesh, kinds_of(mesh), settings);
  const index_t cells = mesh.num_cells(), faces = mesh.num_faces();
  // A state near the free stream that varies from cell to cell.
  std::vector<double> w;
  for (index_t c = 0; c < cells; ++c) {
    const double s = 1.0 + 0.05 * std::sin(0.37 * double(c));
    for (double v : settings.free_stream) w.push_back(s * v);
  }
  const Backend b = o.backend;
  const MeshOnBackend on(b, disc.kernel_mesh());
  const MeshView m = on.view();
  const Array<double> state(b, std::span<const double>(w));
  Array<double> face(b, 4 * std::size_t(faces)), cell(b, 4 * std::size_t(cells));
  FlowView q;
  q.w = state.data();
  kernels::inviscid_face_fluxes(b, m, disc.scheme_view(), q, 1, face.data());
  const auto sync = [&] {
    if (b == Backend::cuda) TB_CUDA_CALL(bench::gpu::synchronize());
  };

  MeshResult r{file, cells, faces, 0, {}};
  Way gather{"gather (per cell, ascending faces)", 0.0, 1, 0.0};
  gather.seconds = bench::best_seconds(o.reps, [&] {
    kernels::gather_face_sums(b, m, FaceSign::out_of_left, 4, face.data(), cell.data());
    sync();
  });
  const std::vector<double> reference = cell.to_host();
  r.ways.push_back(gather);

  std::vector<index_t> colour_faces_host, colour_ptr;
  r.colours = face_colouring(mesh, colour_faces_host, colour_ptr).num_colours;
  check_colour_order(mesh, colour_faces_host, colour_ptr, face.to_host(), reference);
  if (b != Backend::cuda) return r;
  const Array<index_t> colour_faces(b, std::span<const index_t>(colour_faces_host));
  Way atomic{"atomics (per face)", 0.0, 2, 0.0};
  atomic.seconds = bench::best_seconds(o.reps, [&] {
    TB_CUDA_CALL(bench::face_scatter::atomic(cells, faces, m.face_left, m.face_right, 4, face.data(), cell.data()));
    sync();
  });
  atomic.max_difference = max_relative_difference(cell.to_host(), reference);
  r.ways.push_back(atomic);
  Way coloured{"colours (per face, a launch per colour)", 0.0, int(r.colours) + 1, 0.0};
  coloured.seconds = bench::best_seconds(o.reps, [&] {
    TB_CUDA_CALL(bench::face_scatter::coloured(cells, colour_faces.data(), colour_ptr, m.face_left, m.face_right, 4,
                                               face.data(), cell.data()));
    sync();
  });
  coloured.max_difference = max_relative_difference(cell.to_host(), reference);
  r.ways.push_back(coloured);
  for (const Way& w : r.ways)
    if (w.max_difference > 1e-12)
      throw Error(w.name + " differs from the gather by " + std::to_string(w.max_difference) + " on " + file);
  return r;
}

void write_json(const Options& o, const std::vector<MeshResult>& results) {
  JsonWriter j;
  j.begin_object().value("benchmark", "tb-bench-face-sums");
  write(j, describe_machine());
  j.begin_object("config")
      .value("backend", to_string(o.backend))
      .value("reps", o.reps)
      .value("timing", "best of reps after one untimed call, the device synchronised after each")
      .value("sums", "4 values per face (the inviscid first-order fluxes), out of the left cell, into the right")
      .end_object();
  j.begin_array("meshes");
  for (const MeshResult& r : results) {
    j.begin_object().value("mesh", r.mesh).value("cells", r.cells).value("faces", r.faces).value("colours", r.colours);
    j.begin_array("ways");
    for (const Way& w : r.ways)
      j.begin_object()
          .value("name", w.name)
          .value("seconds", w.seconds)
          .value("launches", w.launches)
          .value("max_relative_difference", w.max_difference)
          .value("over_gather", w.seconds / r.ways.front().seconds)
          .end_object();
    j.end_array().end_object();
  }
  j.end_array().end_object();
  j.save(o.json_path);
}

int run(int argc, char** argv) {
  Options o;
  for (bench::ArgumentList args(argc, argv, usage); args.next();) {
    if (args.flag() == "--mesh")
      o.meshes.push_back(args.value());
    else if (args.flag() == "--backend")
      o.backend = parse_backend(args.value());
    else if (args.flag() == "--reps")
      o.reps = int(bench::parse_count("--reps", args.value(), 1));
    else if (args.flag() == "--json")
      o.json_path = args.value();
    else
      args.reject();
  }
  if (o.meshes.empty())
    o.meshes = {std::string(TB_SOURCE_DIR) + "/inputs/meshes/naca0012_coarse.su2",
                std::string(TB_SOURCE_DIR) + "/inputs/meshes/cylinder_coarse.msh"};
  std::vector<MeshResult> results;
  for (const std::string& file : o.meshes) {
    results.push_back(measure(file, o));
    const MeshResult& r = results.back();
    std::cout << r.mesh << ": " << r.cells << " cells, " << r.faces << " faces";
    if (r.colours > 0) std::cout << ", " << r.colours << " face colours";
    std::cout << "\n";
    for (const Way& w : r.ways)
      std::cout << "  " << w.name << ": " << 1e6 * w.seconds << " us, " << w.launches << " launch(es), "
                << w.seconds / r.ways.front().seconds << "x the gather, max difference " << w.max_difference << "\n";
  }
  if (!o.json_path.empty()) {
    write_json(o, results);
    std::cout << "wrote " << o.json_path << "\n";
  }
  return 0;
}

}  // namespace
}  // namespace tb

int main(int argc, char** argv) { return tb::bench::guarded_main("tb-bench-face-sums", argc, argv, tb::run); }
