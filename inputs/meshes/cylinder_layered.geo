// Inviscid flow past a circular cylinder, as cylinder.geo (size 2*pi*r/n_theta,
// far field at r_far), but with a structured O-grid layer around the wall: the
// n_theta wall faces carry rings of cells out to radius layer_radius, each ring
// as deep as its cells are wide, so the mesh is mirror-symmetric about both
// axes there and unstructured beyond. Why: on an unstructured mesh the
// steady inviscid flow picks a circulation from the asymmetry of the cells
// near the wall (Cl 0.25 on cylinder_coarse.msh, up to 1.2 on finer meshes);
// a symmetric layer out to 3 radii holds |Cl| below 0.01 (docs/compressible.md,
// on the cylinder's lift).
// Resolution: gmsh -setnumber n_theta 128 (scripts/make-meshes.sh layered).
DefineConstant[
  n_theta = {64, Name "cells around the cylinder (a multiple of 4)"},
  r_body = {0.5, Name "cylinder radius (diameter 1)"},
  r_far = {50, Name "far-field radius"},
  layer_radius = {1.5, Name "outer radius of the structured layer"},
  quads = {1, Name "1: quadrilaterals, 0: triangles (the layer's split alternately)"},
  rings = {1, Name "rings per square ring of the layer (cells rings:1 wide:tall)"}
];

// Ring k spans r_body g^k to r_body g^(k+1): square cells at every ring.
g = 1 + 2 * Pi / n_theta;
layers = Ceil(Log(layer_radius / r_body) / Log(g));
r_layer = r_body * g^layers;

Point(1) = {0, 0, 0};
Point(2) = {r_body, 0, 0};
Point(3) = {0, r_body, 0};
Point(4) = {-r_body, 0, 0};
Point(5) = {0, -r_body, 0};
Point(6) = {r_far, 0, 0};
Point(7) = {0, r_far, 0};
Point(8) = {-r_far, 0, 0};
Point(9) = {0, -r_far, 0};
Point(12) = {r_layer, 0, 0};
Point(13) = {0, r_layer, 0};
Point(14) = {-r_layer, 0, 0};
Point(15) = {0, -r_layer, 0};
Circle(1) = {2, 1, 3};
Circle(2) = {3, 1, 4};
Circle(3) = {4, 1, 5};
Circle(4) = {5, 1, 2};
Circle(5) = {6, 1, 7};
Circle(6) = {7, 1, 8};
Circle(7) = {8, 1, 9};
Circle(8) = {9, 1, 6};
Circle(11) = {12, 1, 13};
Circle(12) = {13, 1, 14};
Circle(13) = {14, 1, 15};
Circle(14) = {15, 1, 12};
Line(21) = {2, 12};
Line(22) = {3, 13};
Line(23) = {4, 14};
Line(24) = {5, 15};

// The layer: four structured quarter rings.
Curve Loop(31) = {1, 22, -11, -21};
Plane Surface(31) = {31};
Curve Loop(32) = {2, 23, -12, -22};
Plane Surface(32) = {32};
Curve Loop(33) = {3, 24, -13, -23};
Plane Surface(33) = {33};
Curve Loop(34) = {4, 21, -14, -24};
Plane Surface(34) = {34};
Transfinite Curve{1, 2, 3, 4, 11, 12, 13, 14} = n_theta / 4 + 1;
// rings > 1 splits each square ring: less spurious entropy at the wall for
// more cells and steps (n_theta 64, rings 2: Cd 0.013 against 0.035,
// 1.8x the time; docs/compressible.md).
Transfinite Curve{21, 22, 23, 24} = rings * layers + 1 Using Progression g^(1 / rings);
If (quads)
  Transfinite Surface{31, 32, 33, 34};
Else
  Transfinite Surface{31, 32, 33, 34} Alternate;
EndIf

// Beyond the layer: unstructured, cell size 2*pi*r/n_theta as in cylinder.geo.
Curve Loop(1) = {5, 6, 7, 8};
Curve Loop(2) = {11, 12, 13, 14};
Plane Surface(1) = {1, 2};
Field[1] = MathEval;
Field[1].F = Sprintf("6.283185307179586*Sqrt(x*x+y*y)/%g", n_theta);
Background Field = 1;
Mesh.MeshSizeExtendFromBoundary = 0;
Mesh.MeshSizeFromPoints = 0;
Mesh.MeshSizeFromCurvature = 0;

Mesh.Algorithm = 6;
If (quads)
  Mesh.RecombinationAlgorithm = 1; // blossom: (almost) all quadrilaterals
  Recombine Surface{1, 31, 32, 33, 34};
EndIf

// Every boundary is in a physical group, else gmsh drops its elements.
Physical Curve("cylinder") = {1, 2, 3, 4};
Physical Curve("farfield") = {5, 6, 7, 8};
Physical Surface("fluid") = {1, 31, 32, 33, 34};
