// tb-mesh: look at a mesh before running on it. Reads Gmsh/SU2 meshes, reports
// counts, geometry and consistency, orderings (bandwidth, profile, triangular
// solve levels), colours, lines and partitions, and writes what it found as
// cell fields of a .vtu for ParaView.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "mesh/cell_ordering.hpp"
#include "mesh/check.hpp"
#include "mesh/geometry.hpp"
#include "mesh/graph/colouring.hpp"
#include "mesh/graph/level_schedule.hpp"
#include "mesh/io/mesh_io.hpp"
#include "mesh/io/vtu_writer.hpp"
#include "mesh/mesh_graph.hpp"
#include "mesh/mesh_lines.hpp"
#include "mesh/partition.hpp"
#include "mesh/reorder.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/output_path.hpp"

namespace {

constexpr const char* kUsage = R"(usage: tb-mesh info MESH [options]
       tb-mesh reorder MESH --ordering NAME --output OUT [options]
       tb-mesh convert MESH OUT [--msh22]

Reads MESH (.msh Gmsh 2.2/4.1 ASCII, .su2), prints cells, faces, markers,
geometry and consistency checks, colours and lines; with --ordering, the
bandwidth, profile and forward-solve levels before and after.

  --ordering NAME     natural, rcm, 1wd, line, line-rcm, line-1wd, colour
  --partitions N      METIS k-way partitions as tb-comp2d makes them, balanced in cells and (its
                      mesh.partition = work) in a cell's matrix blocks plus 2: cells, blocks, cut faces
  --line-threshold T  anisotropy (strongest/weakest coupling) a line cell needs (default 4)
  --line-markers A,B  boundary markers whose cells start lines (default: all)
  --walls A,B         markers for the wall distance (default: names like wall, airfoil)
  --vtk FILE.vtu      write the mesh with cell fields: ordering_index, colour, line,
                      partition, area, aspect_ratio, anisotropy, wall_distance
  --output OUT        (reorder) the reordered mesh, .msh/.su2/.vtu
  --msh22             write Gmsh 2.2 instead of 4.1
  --help              this text
)";

struct Options {
  std::string command, input, output, vtk, ordering;
  tb::index_t partitions = 0;
  tb::LineOptions lines;
  std::vector<std::string> walls;
  bool msh22 = false;
};

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

double number(const std::string& option, const std::string& text) {
  std::size_t used = 0;
  double value = 0.0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) throw tb::Error(option + ": '" + text + "' is not a number");
  return value;
}

tb::index_t count(const std::string& option, const std::string& text) {
  const double value = number(option, text);
  if (value < 1 || value != static_cast<tb::index_t>(value)) throw tb::Error(option + " needs a positive integer");
  return static_cast<tb::index_t>(value);
}

Options parse_options(int argc, char** argv) {
  Options o;
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw tb::Error(a + " needs a value");
      const std::string v = argv[++i];
      if (v.empty()) throw tb::Error(a + " was given an empty value");
      return v;
    };
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else if (a == "--ordering")
      o.ordering = value();
    else if (a == "--partitions")
      o.partitions = count(a, value());
    else if (a == "--line-threshold")
      o.lines.threshold = number(a, value());
    else if (a == "--line-markers")
      o.lines.seed_markers = split_commas(value());
    else if (a == "--walls")
      o.walls = split_commas(value());
    else if (a == "--vtk")
      o.vtk = value();
    else if (a == "--output")
      o.output = value();
    else if (a == "--msh22")
      o.msh22 = true;
    else if (a.rfind("--", 0) == 0)
      throw tb::Error("unknown option " + a + " (see tb-mesh --help)");
    else
      positional.push_back(a);
  }
  if (positional.size() < 2) throw tb::Error("expected a command and a mesh (see tb-mesh --help)");
  o.command = positional[0];
  o.input = positional[1];
  if (o.command == "convert") {
    if (positional.size() != 3) throw tb::Error("convert needs MESH and OUT");
    o.output = positional[2];
  } else if (positional.size() != 2) {
    throw tb::Error("unexpected argument '" + positional[2] + "'");
  }
  if (o.command != "info" && o.command != "reorder" && o.command != "convert")
    throw tb::Error("unknown command '" + o.command + "' (info, reorder, convert)");
  if (o.command == "reorder" && (o.ordering.empty() || o.output.empty()))
    throw tb::Error("reorder needs --ordering and --output");
  // Every file tb-mesh writes is checked before the mesh is read.
  if (!o.output.empty()) tb::check_output_file(o.command == "convert" ? "OUT" : "--output", o.output);
  if (!o.vtk.empty()) tb::check_output_file("--vtk", o.vtk);
  return o;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void print_counts(const tb::Mesh2D& mesh) {
  tb::index_t tri = 0;
  for (tb::index_t c = 0; c < mesh.num_cells(); ++c) tri += mesh.cell_size(c) == 3;
  std::printf("nodes %d, cells %d (triangles %d, quadrilaterals %d), faces %d (interior %d, boundary %d)\n",
              mesh.num_nodes(), mesh.num_cells(), tri, mesh.num_cells() - tri, mesh.num_faces(),
              mesh.num_interior_faces, mesh.num_faces() - mesh.num_interior_faces);
  std::vector<tb::index_t> faces(mesh.num_markers(), 0);
  tb::index_t unmarked = 0;
  for (tb::index_t f = mesh.num_interior_faces; f < mesh.num_faces(); ++f)
    mesh.faces[f].marker >= 0 ? ++faces[mesh.faces[f].marker] : ++unmarked;
  std::printf("markers:");
  for (tb::index_t m = 0; m < mesh.num_markers(); ++m)
    std::printf(" %s (%d faces)", mesh.marker_names[m].c_str(), faces[m]);
  if (unmarked > 0) std::printf(" [unmarked: %d faces]", unmarked);
  std::printf("\n");
}

void print_geometry(const tb::MeshGeometry& g, const std::vector<double>& aspect) {
  const auto [amin, amax] = std::minmax_element(g.cell_area.begin(), g.cell_area.end());
  const double total = std::accumulate(g.cell_area.begin(), g.cell_area.end(), 0.0);
  const auto [rmin, rmax] = std::minmax_element(aspect.begin(), aspect.end());
  std::printf("area: min %.4g, max %.4g, total %.6g; aspect ratio: min %.3g, max %.3g\n", *amin, *amax, total, *rmin,
              *rmax);
}

bool print_check(const tb::Mesh2D& mesh) {
  const tb::MeshCheck check = tb::check_mesh(mesh);
  std::printf("check: %s\n", check.ok() ? "ok" : "PROBLEMS");
  for (const auto& p : check.problems) std::printf("  problem: %s\n", p.c_str());
  for (const auto& n : check.notes) std::printf("  note: %s\n", n.c_str());
  return check.ok();
}

std::vector<double> print_colours(const tb::Graph& g) {
  auto t0 = std::chrono::steady_clock::now();
  tb::Colouring c = tb::greedy_colouring(g);
  std::vector<tb::index_t> greedy = c.sizes();
  tb::balance_colours(g, c);
  std::printf("colours: %d (greedy sizes", c.num_colours);
  for (tb::index_t s : greedy) std::printf(" %d", s);
  std::printf("; balanced");
  for (tb::index_t s : c.sizes()) std::printf(" %d", s);
  std::printf("; %.3f s)\n", seconds_since(t0));
  return std::vector<double>(c.colour.begin(), c.colour.end());
}

std::vector<double> print_lines(const tb::Mesh2D& mesh, const tb::MeshGeometry& geom, const tb::Graph& g,
                                const tb::LineOptions& opt) {
  auto t0 = std::chrono::steady_clock::now();
  const tb::Lines lines = tb::detect_mesh_lines(mesh, geom, g, opt);
  const double dt = seconds_since(t0);
  const std::vector<double> a = tb::anisotropy(g, tb::face_coupling_weights(mesh, geom, g));
  tb::index_t quads = 0, quads_in = 0, aniso = 0, aniso_in = 0, shortest = lines.num_lines() ? mesh.num_cells() : 0,
              longest = 0;
  for (tb::index_t c = 0; c < mesh.num_cells(); ++c) {
    const bool in = lines.line_of[c] >= 0;
    if (mesh.cell_size(c) == 4) ++quads, quads_in += in;
    if (a[c] >= opt.threshold) ++aniso, aniso_in += in;
  }
  for (tb::index_t l = 0; l < lines.num_lines(); ++l) {
    shortest = std::min(shortest, lines.line_ptr[l + 1] - lines.line_ptr[l]);
    longest = std::max(longest, lines.line_ptr[l + 1] - lines.line_ptr[l]);
  }
  std::printf(
      "lines (threshold %g): %d lines, %d cells, length %d..%d (mean %.1f); in lines: %.1f%% of %d anisotropic "
      "cells, %.1f%% of %d quadrilaterals (%.3f s)\n",
      opt.threshold, lines.num_lines(), lines.num_line_cells(), shortest, longest,
      lines.num_lines() ? double(lines.num_line_cells()) / lines.num_lines() : 0.0,
      aniso ? 100.0 * aniso_in / aniso : 0.0, aniso, quads ? 100.0 * quads_in / quads : 0.0, quads, dt);
  std::vector<double> field(lines.line_of.begin(), lines.line_of.end());
  return field;
}

void print_band(const char* label, const tb::Graph& g, const tb::Permutation& p) {
  const tb::BandProfile b = tb::band_profile(g, p);
  const tb::LevelSchedule s = tb::lower_level_schedule(tb::permute(g, p));
  std::printf("  %-8s bandwidth %8d  profile %12lld  forward-solve levels %6d\n", label, b.bandwidth, b.profile,
              s.num_levels());
}

// One line per partition: its cells, its matrix blocks (1 + a cell's
// neighbours: the linear solves' work) and the faces it cuts.
void print_partition(const char* label, const tb::Graph& g, const std::vector<tb::index_t>& part, tb::index_t parts,
                     double seconds) {
  const std::vector<tb::index_t> row_blocks = tb::row_work_weights(g, 0);
  std::vector<tb::index_t> sizes(parts, 0), blocks(parts, 0);
  tb::index_t cut = 0;
  for (tb::index_t v = 0; v < g.size(); ++v) {
    ++sizes[part[v]];
    blocks[part[v]] += row_blocks[std::size_t(v)];
    for (const tb::index_t* u = g.begin(v); u != g.end(v); ++u) cut += *u > v && part[*u] != part[v];
  }
  const auto [small, large] = std::minmax_element(sizes.begin(), sizes.end());
  const auto [least, most] = std::minmax_element(blocks.begin(), blocks.end());
  std::printf("partitions: %d by %s, cells %d..%d, matrix blocks %d..%d, cut faces %d (%.3f s)\n", parts, label, *small,
              *large, *least, *most, cut, seconds);
}

std::vector<double> print_partitions(const tb::Graph& g, tb::index_t parts) {
  auto t0 = std::chrono::steady_clock::now();
  const std::vector<tb::index_t> part = tb::partition_graph(g, parts);
  print_partition("cells", g, part, parts, seconds_since(t0));
  t0 = std::chrono::steady_clock::now();
  const std::vector<tb::index_t> by_work =
      tb::partition_graph(g, parts, tb::row_work_weights(g, tb::gmres_bilu0_vector_blocks));
  print_partition("work", g, by_work, parts, seconds_since(t0));
  return std::vector<double>(part.begin(), part.end());
}

int run(const Options& o) {
  auto t0 = std::chrono::steady_clock::now();
  const tb::Mesh2D mesh = tb::read_mesh(o.input);
  std::printf("mesh: %s (read in %.3f s)\n", o.input.c_str(), seconds_since(t0));
  if (o.command == "convert") {
    tb::write_mesh(o.output, mesh, o.msh22);
    std::printf("wrote %s\n", o.output.c_str());
    return 0;
  }
  print_counts(mesh);
  const tb::MeshGeometry geom = tb::compute_geometry(mesh);
  std::vector<double> aspect(mesh.num_cells());
  for (tb::index_t c = 0; c < mesh.num_cells(); ++c) aspect[c] = tb::aspect_ratio(mesh, c);
  print_geometry(geom, aspect);
  const bool ok = print_check(mesh);
  const tb::Graph g = tb::cell_graph(mesh);
  std::vector<tb::CellField> fields{{"area", geom.cell_area}, {"aspect_ratio", aspect}};
  fields.push_back({"colour", print_colours(g)});
  fields.push_back({"line", print_lines(mesh, geom, g, o.lines)});
  fields.push_back({"anisotropy", tb::anisotropy(g, tb::face_coupling_weights(mesh, geom, g))});
  const std::vector<tb::index_t> walls = o.walls.empty() ? tb::guess_wall_markers(mesh) : [&] {
    std::vector<tb::index_t> w;
    for (const auto& name : o.walls) {
      if (mesh.find_marker(name) < 0) throw tb::Error("--walls: no marker named '" + name + "'");
      w.push_back(mesh.find_marker(name));
    }
    return w;
  }();
  if (!walls.empty()) fields.push_back({"wall_distance", tb::wall_distance(mesh, geom.cell_centroid, walls)});

  tb::Permutation order = tb::Permutation::identity(mesh.num_cells());
  if (!o.ordering.empty()) {
    const tb::CellOrdering kind = tb::parse_cell_ordering(o.ordering);
    t0 = std::chrono::steady_clock::now();
    order = tb::order_cells(mesh, kind, o.lines);
    std::printf("ordering %s (%.3f s):\n", tb::cell_ordering_name(kind).c_str(), seconds_since(t0));
    print_band("before", g, tb::Permutation::identity(mesh.num_cells()));
    print_band("after", g, order);
  }
  fields.push_back({"ordering_index", std::vector<double>(order.old_to_new.begin(), order.old_to_new.end())});
  if (o.partitions > 0) fields.push_back({"partition", print_partitions(g, o.partitions)});
  if (!o.vtk.empty()) {
    tb::write_vtu(o.vtk, mesh, fields);
    std::printf("wrote %s\n", o.vtk.c_str());
  }
  if (o.command == "reorder") {
    tb::write_mesh(o.output, tb::reorder_cells(mesh, order), o.msh22);
    std::printf("wrote %s (cells in %s order)\n", o.output.c_str(), o.ordering.c_str());
  }
  return ok ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parse_options(argc, argv));
  } catch (const std::exception& e) {
    // Bad input or usage, as for every tool of the project.
    std::fprintf(stderr, "tb-mesh: error: %s\n", e.what());
    return 2;
  }
}
