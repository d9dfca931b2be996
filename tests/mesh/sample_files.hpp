#pragma once
// Small hand-written mesh files shared by the reader tests.

namespace tb::testing {

// [0,2]x[0,1]: a quad and two triangles; boundaries "bottom" (two lines) and
// physical 7 without a name (the other four lines); a point element to ignore.
inline const char* const kGmsh22 = R"($MeshFormat
2.2 0 8
$EndMeshFormat
$PhysicalNames
2
1 3 "bottom wall"
2 9 "fluid"
$EndPhysicalNames
$Nodes
6
1 0 0 0
2 1 0 0
3 2 0 0
4 0 1 0
5 1 1 0
6 2 1 0
$EndNodes
$Elements
10
1 15 2 0 1 1
2 1 2 3 1 1 2
3 1 2 3 1 2 3
4 1 2 7 2 3 6
5 1 2 7 2 6 5
6 1 2 7 2 5 4
7 1 2 7 2 4 1
8 3 2 9 1 1 2 5 4
9 2 2 9 1 2 3 6
10 2 2 9 1 2 6 5
$EndElements
)";

inline const char* const kGmsh41 = R"($MeshFormat
4.1 0 8
$EndMeshFormat
$PhysicalNames
2
1 3 "bottom"
2 9 "fluid"
$EndPhysicalNames
$Entities
0 2 1 0
1 0 0 0 2 0 0 1 3 0
2 0 0 0 2 1 0 0 0
1 0 0 0 2 1 0 1 9 0
$EndEntities
$Nodes
2 6 1 6
1 1 0 2
1
2
0 0 0
1 0 0
2 1 0 4
3
4
5
6
2 0 0
0 1 0
1 1 0
2 1 0
$EndNodes
$Elements
3 7 1 7
1 1 1 2
1 1 2
2 2 3
1 2 1 2
3 3 6
4 6 5
2 1 3 1
5 1 2 5 4
$EndElements
)";

// The quad-and-two-triangles mesh of [0,2]x[0,1]; points before elements, some
// indices left out, a marker named by a number.
inline const char* const kSu2 = R"(% a comment
NDIME= 2
NPOIN= 6
0 0 0
1 0 1
2 0
0 1 3
1 1 4
2 1 5
NELEM= 3
9 0 1 4 3 0
5 1 2 5
5 1 5 4 2
NMARK= 2
MARKER_TAG= airfoil
MARKER_ELEMS= 2
3 0 1
3 1 2
MARKER_TAG= 12
MARKER_ELEMS=4
3 2 5
3 5 4
3 4 3
3 3 0
)";

// Two tetrahedra sharing the face (2, 3, 4): the unit corner tetrahedron and
// its mirror through that face's plane x + y + z = 1 (node 5 at (2/3, 2/3, 2/3)).
// A boundary triangle and a point element to skip, and node 9, which no
// tetrahedron uses.
inline const char* const kTetGmsh22 = R"($MeshFormat
2.2 0 8
$EndMeshFormat
$Nodes
6
1 0 0 0
2 1 0 0
3 0 1 0
4 0 0 1
5 0.6666666666666666 0.6666666666666666 0.6666666666666666
9 5 5 5
$EndNodes
$Elements
4
1 15 2 0 1 9
2 2 2 1 1 1 2 3
3 4 2 7 1 1 2 3 4
4 4 2 7 1 2 3 4 5
$EndElements
)";

// The same two tetrahedra in format 4.1, nodes in two blocks.
inline const char* const kTetGmsh41 = R"($MeshFormat
4.1 0 8
$EndMeshFormat
$Nodes
2 6 1 9
3 1 0 3
1
2
3
0 0 0
1 0 0
0 1 0
3 1 0 3
4
5
9
0 0 1
0.6666666666666666 0.6666666666666666 0.6666666666666666
5 5 5
$EndNodes
$Elements
2 3 1 3
2 1 2 1
1 1 2 3
3 1 4 2
2 1 2 3 4
3 2 3 4 5
$EndElements
)";

}  // namespace tb::testing
