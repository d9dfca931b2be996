// Viscous laminar NACA0012 (seed 001 §6.2, Re 5000): stretched quadrilateral
// layers on the airfoil, triangles outside, circular far field at r_far chords.
// Resolution: gmsh -setnumber n_side 200 -setnumber h_wall 2.5e-4 ...
// (scripts/make-meshes.sh holds the coarse, medium and fine sets).
DefineConstant[
  n_side = {81, Name "nodes on each airfoil side"},
  h_wall = {1e-3, Name "first cell height at the wall (chords)"},
  bl_ratio = {1.15, Name "boundary-layer growth ratio"},
  bl_thickness = {0.08, Name "boundary-layer thickness (chords)"},
  h_near = {0.03, Name "triangle size next to the airfoil"},
  h_far = {8, Name "triangle size at the far field"},
  r_far = {60, Name "far-field radius (chords)"},
  bl_quads = {1, Name "1: quadrilateral boundary layer, 0: triangles there too"},
  h_wake = {0, Name "triangle size in the near wake (0: no wake refinement)"},
  wake_length = {1, Name "length of the refined wake behind the trailing edge (chords)"},
  wake_half_width = {0.12, Name "half width of the refined wake (chords)"}
];

// Closed trailing edge: the last coefficient -0.1036 instead of -0.1015.
n_def = 60;
For i In {0 : n_def}
  xi = 0.5 * (1 - Cos(Pi * i / n_def));
  yi = 0.6 * (0.2969 * Sqrt(xi) - 0.1260 * xi - 0.3516 * xi^2 + 0.2843 * xi^3 - 0.1036 * xi^4);
  upper[i] = newp; Point(upper[i]) = {xi, yi, 0};
EndFor
lower[0] = upper[0];
For i In {1 : n_def - 1}
  xi = 0.5 * (1 - Cos(Pi * i / n_def));
  yi = -0.6 * (0.2969 * Sqrt(xi) - 0.1260 * xi - 0.3516 * xi^2 + 0.2843 * xi^3 - 0.1036 * xi^4);
  lower[i] = newp; Point(lower[i]) = {xi, yi, 0};
EndFor
lower[n_def] = upper[n_def];
le = upper[0];
te = upper[n_def];

s_upper = newl; Spline(s_upper) = upper[];
s_lower = newl; Spline(s_lower) = lower[];
// Bump clusters nodes at the leading and trailing edges.
Transfinite Curve{s_upper, s_lower} = n_side Using Bump 0.2;

c = newp; Point(c) = {0.5, 0, 0, h_far};
f1 = newp; Point(f1) = {0.5 + r_far, 0, 0, h_far};
f2 = newp; Point(f2) = {0.5, r_far, 0, h_far};
f3 = newp; Point(f3) = {0.5 - r_far, 0, 0, h_far};
f4 = newp; Point(f4) = {0.5, -r_far, 0, h_far};
a1 = newl; Circle(a1) = {f1, c, f2};
a2 = newl; Circle(a2) = {f2, c, f3};
a3 = newl; Circle(a3) = {f3, c, f4};
a4 = newl; Circle(a4) = {f4, c, f1};

Curve Loop(1) = {a1, a2, a3, a4};
Curve Loop(2) = {s_upper, -s_lower};
Plane Surface(1) = {1, 2};

Field[1] = BoundaryLayer;
Field[1].CurvesList = {s_upper, s_lower};
Field[1].FanPointsList = {te};
Field[1].hwall_n = h_wall;
Field[1].ratio = bl_ratio;
Field[1].thickness = bl_thickness;
Field[1].hfar = h_near;
Field[1].Quads = bl_quads;
BoundaryLayer Field = 1;

// Triangles grow linearly with the distance from the airfoil.
Field[2] = Distance;
Field[2].CurvesList = {s_upper, s_lower};
Field[2].NumPointsPerCurve = 200;
Field[3] = Threshold;
Field[3].InField = 2;
Field[3].SizeMin = h_near;
Field[3].SizeMax = h_far;
Field[3].DistMin = bl_thickness;
Field[3].DistMax = r_far;
If (h_wake > 0)
  // The near wake, where the separated boundary layer leaves the trailing edge:
  // triangles of size h_wake in a box behind it, growing to the field above.
  Field[4] = Box;
  Field[4].VIn = h_wake;
  Field[4].VOut = h_far;
  Field[4].XMin = 0.9;
  Field[4].XMax = 1 + wake_length;
  Field[4].YMin = -wake_half_width;
  Field[4].YMax = wake_half_width;
  Field[4].Thickness = 0.3;
  Field[5] = Min;
  Field[5].FieldsList = {3, 4};
  Background Field = 5;
Else
  Background Field = 3;
EndIf
Mesh.MeshSizeExtendFromBoundary = 0;
Mesh.MeshSizeFromCurvature = 0;

Physical Curve("airfoil") = {s_upper, s_lower};
Physical Curve("farfield") = {a1, a2, a3, a4};
Physical Surface("fluid") = {1};
