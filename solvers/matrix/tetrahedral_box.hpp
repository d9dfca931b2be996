#pragma once
// Block systems with the sparsity of a tetrahedral mesh, for the multicolour
// solver (seed 002 §V): the nodes of an nx x ny x nz box, each cube cut into the
// six tetrahedra of the Kuhn (Freudenthal) triangulation around its main
// diagonal. An interior node then has 14 edge neighbours, FUN3D's average
// node adjacency, along +-e1, +-e2, +-e3, +-(e1+e2), +-(e2+e3), +-(e1+e3) and
// +-(e1+e2+e3). Values are random and strictly diagonally dominant by rows, the
// paper's test setting (dominant_blocks.hpp, which also puts them on the node
// graph of a Gmsh tetrahedral mesh); rows are numbered i fastest (apply RCM,
// as FUN3D does, with the mesh module).
#include "bsr.hpp"

namespace tb {

struct TetrahedralBoxParams {
  index_t nx = 10, ny = 10, nz = 10;  // nodes per direction (block rows = nx ny nz)
  index_t block_size = 5;
  unsigned seed = 1;
};

BsrMatrix generate_tetrahedral_box(const TetrahedralBoxParams& p);

}  // namespace tb
