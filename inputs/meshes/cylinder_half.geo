// The upper half of the cylinder domain of cylinder.geo (same cell sizes), with
// the symmetry line y = 0 as a boundary. scripts/mirror_su2.py mirrors the mesh
// across y = 0 into cylinder_symmetric.su2: a mirror-symmetric mesh, on which the
// inviscid cylinder cannot pick up the mesh-selected circulation of
// cylinder_coarse (docs/compressible.md).
DefineConstant[
  n_theta = {64, Name "cells around the (whole) cylinder"},
  r_body = {0.5, Name "cylinder radius (diameter 1)"},
  r_far = {50, Name "far-field radius"}
];

Point(1) = {0, 0, 0};
Point(2) = {r_body, 0, 0};
Point(3) = {0, r_body, 0};
Point(4) = {-r_body, 0, 0};
Point(6) = {r_far, 0, 0};
Point(7) = {0, r_far, 0};
Point(8) = {-r_far, 0, 0};
Circle(1) = {2, 1, 3};
Circle(2) = {3, 1, 4};
Circle(5) = {6, 1, 7};
Circle(6) = {7, 1, 8};
Line(9) = {8, 4};
Line(10) = {2, 6};
Curve Loop(1) = {10, 5, 6, 9, -2, -1};
Plane Surface(1) = {1};

// Cell size 2*pi*r/n_theta, as in cylinder.geo.
Field[1] = MathEval;
Field[1].F = Sprintf("6.283185307179586*Sqrt(x*x+y*y)/%g", n_theta);
Background Field = 1;
Mesh.MeshSizeExtendFromBoundary = 0;
Mesh.MeshSizeFromPoints = 0;
Mesh.MeshSizeFromCurvature = 0;

Mesh.Algorithm = 6;
Mesh.RecombinationAlgorithm = 1;
Recombine Surface{1};

Physical Curve("cylinder") = {1, 2};
Physical Curve("farfield") = {5, 6};
Physical Curve("symmetry") = {9, 10};
Physical Surface("fluid") = {1};
