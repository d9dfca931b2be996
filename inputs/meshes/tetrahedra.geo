// Unstructured tetrahedral volume meshes for seed 002's test matrices: the
// block pattern is the mesh's node adjacency (about 14 neighbours inside).
// Domain 0 is the unit cube, 1 the unit-radius sphere; h is the edge length
// Gmsh aims at everywhere. scripts/make-meshes.sh sets both, for example
//   gmsh -3 -setnumber domain 1 -setnumber h 0.0859 tetrahedra.geo -format msh41 -o sphere_6k.msh
DefineConstant[
  domain = {1, Choices{0 = "unit cube", 1 = "unit sphere"}, Name "domain"},
  h = {0.1, Name "mesh size"}
];
SetFactory("OpenCASCADE");
If (domain == 0)
  Box(1) = {0, 0, 0, 1, 1, 1};
Else
  Sphere(1) = {0, 0, 0, 1};
EndIf
Physical Volume("domain") = {1};
Mesh.MeshSizeMin = h;
Mesh.MeshSizeMax = h;
