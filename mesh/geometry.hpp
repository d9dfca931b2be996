#pragma once
// Finite-volume geometry of a Mesh2D: what a cell-centred scheme needs per cell
// and per face, computed once per mesh.
#include <vector>

#include "mesh/mesh2d.hpp"

namespace tb {

struct MeshGeometry {
  std::vector<double> cell_area;
  std::vector<Vec2> cell_centroid;
  std::vector<Vec2> face_normal;  // unit, pointing from left to right cell
  std::vector<double> face_length;
  std::vector<Vec2> face_midpoint;
};

MeshGeometry compute_geometry(const Mesh2D& mesh);

// Shoelace area: positive for a counter-clockwise cell.
double signed_area(const Mesh2D& mesh, index_t cell);

// Longest edge squared over area, scaled so a square and an equilateral triangle
// give 1 and a dx-by-dy rectangle gives dx/dy.
double aspect_ratio(const Mesh2D& mesh, index_t cell);

// Markers whose names say "solid wall" (wall, airfoil, cylinder, body, no-slip,
// euler, ...); used when the caller names none.
std::vector<index_t> guess_wall_markers(const Mesh2D& mesh);

// Distance from each point to the nearest boundary face that carries one of
// `wall_markers` (segment distance, exact); +infinity when there is none.
std::vector<double> wall_distance(const Mesh2D& mesh, const std::vector<Vec2>& points,
                                  const std::vector<index_t>& wall_markers);

}  // namespace tb
