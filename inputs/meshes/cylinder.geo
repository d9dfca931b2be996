// Inviscid flow past a circular cylinder (seed 001 §6.1): near-isotropic
// quadrilaterals whose size grows in proportion to the radius, so every ring of
// cells keeps aspect ratio about one out to the far field.
// Resolution: gmsh -setnumber n_theta 256 (scripts/make-meshes.sh sets it).
DefineConstant[
  n_theta = {64, Name "cells around the cylinder"},
  r_body = {0.5, Name "cylinder radius (diameter 1)"},
  r_far = {50, Name "far-field radius"},
  quads = {1, Name "1: quadrilaterals (recombined), 0: triangles"}
];

Point(1) = {0, 0, 0};
Point(2) = {r_body, 0, 0};
Point(3) = {0, r_body, 0};
Point(4) = {-r_body, 0, 0};
Point(5) = {0, -r_body, 0};
Point(6) = {r_far, 0, 0};
Point(7) = {0, r_far, 0};
Point(8) = {-r_far, 0, 0};
Point(9) = {0, -r_far, 0};
Circle(1) = {2, 1, 3};
Circle(2) = {3, 1, 4};
Circle(3) = {4, 1, 5};
Circle(4) = {5, 1, 2};
Circle(5) = {6, 1, 7};
Circle(6) = {7, 1, 8};
Circle(7) = {8, 1, 9};
Circle(8) = {9, 1, 6};
Curve Loop(1) = {5, 6, 7, 8};
Curve Loop(2) = {1, 2, 3, 4};
Plane Surface(1) = {1, 2};

// Cell size 2*pi*r/n_theta: isotropic cells at every radius.
Field[1] = MathEval;
Field[1].F = Sprintf("6.283185307179586*Sqrt(x*x+y*y)/%g", n_theta);
Background Field = 1;
Mesh.MeshSizeExtendFromBoundary = 0;
Mesh.MeshSizeFromPoints = 0;
Mesh.MeshSizeFromCurvature = 0;

Mesh.Algorithm = 6;
If (quads)
  Mesh.RecombinationAlgorithm = 1; // blossom: (almost) all quadrilaterals
  Recombine Surface{1};
EndIf

// Every boundary is in a physical group, else gmsh drops its elements.
Physical Curve("cylinder") = {1, 2, 3, 4};
Physical Curve("farfield") = {5, 6, 7, 8};
Physical Surface("fluid") = {1};
