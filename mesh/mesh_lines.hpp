#pragma once
// Lines of strongly coupled cells on a mesh: the coupling weights and seeds a
// Mesh2D gives to the graph algorithm of mesh/graph/line_detection.hpp.
#include <string>
#include <vector>

#include "mesh/geometry.hpp"
#include "mesh/graph/line_detection.hpp"

namespace tb {

// Coupling of face neighbours as a diffusion stencil weighs it: face length
// over centroid distance. For a dx-by-dy rectangle the anisotropy is (dx/dy)^2.
std::vector<double> face_coupling_weights(const Mesh2D& mesh, const MeshGeometry& geom, const Graph& cells);

struct LineOptions {
  double threshold = 4.0;                 // anisotropy; 4 is a quadrilateral of aspect ratio 2
  std::vector<std::string> seed_markers;  // boundary markers whose cells start lines; empty: all
  index_t min_length = 2;
};

// Lines on a mesh's cell graph, seeded by cells on boundary faces of the chosen markers.
Lines detect_mesh_lines(const Mesh2D& mesh, const MeshGeometry& geom, const Graph& cells, const LineOptions& opt);

}  // namespace tb
