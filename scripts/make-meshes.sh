#!/usr/bin/env bash
# Meshes the recipes in inputs/meshes/*.geo with Gmsh in batch (Debian's gmsh 4.8).
#
#   scripts/make-meshes.sh [LEVEL...] [OUTDIR]    LEVEL: coarse|medium|fine|tet|nested|ogrid|layered|all (all)
#
# coarse: the small meshes committed in inputs/meshes/ (tests read them);
#         regenerating them there should give the same files.
# medium: ~20-50k cells (and a 13.8k-cell NACA0012, naca0012_13k); fine: ~200k cells (the size of seed 001's meshes).
# tet:    tetrahedral unit spheres with about the node counts of seed 002's
#         Table II (6,309 ... 983,633), for tb-bench-multicolor --mesh; the
#         largest takes Gmsh about 6 minutes and 4 GB.
# nested: sequences of the cylinder (n_theta 10-80: about 120-5,600 quadrilaterals
#         or 230-11,500 triangles) and of the NACA0012 (about 520-5,800 cells with
#         quadrilateral layers, 620-6,800 all triangles), for tb-comp2d's robustness
#         check (docs/compressible.md); Gmsh meshes each level anew (not nested cell by cell).
# ogrid:  structured O-grids of the cylinder, 16 x 8 to 128 x 64 (128-8,192 quadrilaterals,
#         mirror-symmetric about y = 0) and the same split into triangles, SU2 only, by
#         scripts/ogrid_cylinder.py (no Gmsh), for the cylinder's check (docs/compressible.md);
#         and the nested triangle sequence of seed 001's code's cylinder cases, levels 0-3
#         (128-8,192 triangles, each level the last split cell by cell), by scripts/nested_cylinder.py.
# layered: the cylinder with a structured O-grid layer to 3 radii and unstructured cells
#         beyond (cylinder_layered.geo), n_theta 32-192: about 900-31,000 quadrilaterals or
#         1,800-62,000 triangles; Gmsh meshes each level anew.
# Medium, fine, tet, nested, ogrid and layered go to OUTDIR (default inputs/meshes/generated/, ignored by git).
# With build/bin/tb-mesh present (or TB_MESH=path), each mesh is checked and the
# script stops on a mesh that fails. Each mesh is written as Gmsh 2.2 (.msh) and SU2 (.su2); the coarse NACA0012
# also as Gmsh 4.1 so both Gmsh formats have a real file under test.
set -euo pipefail
cd "$(dirname "$0")/.."
levels="coarse medium fine tet nested ogrid layered all"
is_level() { [[ " $levels " == *" $1 "* ]]; }
# Arguments: levels, then at most one OUTDIR (anything not a level, last).
given=()
out=inputs/meshes/generated
for ((i = 1; i <= $#; ++i)); do
  a=${!i}
  if is_level "$a"; then
    given+=("$a")
  elif ((i == 1)); then
    echo "make-meshes.sh: level '$a' is not one of: $levels" >&2
    exit 2
  elif ((i < $#)); then
    echo "make-meshes.sh: '$a' is not a level ($levels) and not the last argument, OUTDIR" >&2
    exit 2
  else
    out=$a
  fi
done
if ((${#given[@]} > 1)); then
  for l in "${given[@]}"; do scripts/make-meshes.sh "$l" "$out"; done
  exit 0
fi
level=${given[0]:-all}
geo=inputs/meshes
tb_mesh=${TB_MESH:-build/bin/tb-mesh}  # checks each mesh when built
if [[ $level == ogrid || $level == all ]]; then
  mkdir -p "$out/ogrid"
  for n in 16 32 64 128; do
    for kind in q t; do
      name=cylinder_o${n}_$kind
      scripts/ogrid_cylinder.py "$n" $((n / 2)) "$out/ogrid/$name.su2" $([[ $kind == t ]] && echo --triangles)
      if [[ -x $tb_mesh ]]; then
        "$tb_mesh" info "$out/ogrid/$name.su2" | sed -n '2p;/^check/,/^colours/p' | grep -v '^colours'
      fi
      echo "make-meshes: $out/ogrid/$name.su2"
    done
  done
  for k in 0 1 2 3; do
    scripts/nested_cylinder.py "$k" "$out/ogrid/cylinder_nested_L$k.su2"
    if [[ -x $tb_mesh ]]; then
      "$tb_mesh" info "$out/ogrid/cylinder_nested_L$k.su2" | sed -n '2p;/^check/,/^colours/p' | grep -v '^colours'
    fi
  done
  [[ $level == ogrid ]] && exit 0
fi
command -v gmsh >/dev/null || { echo "make-meshes: gmsh not found (apt-get install gmsh)" >&2; exit 1; }

# mesh GEO NAME DIR gmsh-setnumber-args...
# Meshes once and converts that mesh (two meshing runs need not number alike).
mesh() {
  local recipe=$1 name=$2 dir=$3
  shift 3
  mkdir -p "$dir"
  gmsh -2 -v 2 "$geo/$recipe.geo" "$@" -format msh22 -o "$dir/$name.msh"
  gmsh -v 2 "$dir/$name.msh" -save -format su2 -o "$dir/$name.su2"
  if [[ -x $tb_mesh ]]; then
    # Exit status 2: the mesh fails its consistency checks.
    "$tb_mesh" info "$dir/$name.msh" | sed -n '2p;/^check/,/^colours/p' | grep -v '^colours'
  fi
  echo "make-meshes: $dir/$name.msh, $dir/$name.su2"
}

if [[ $level == coarse || $level == all ]]; then
  mesh cylinder cylinder_coarse "$geo" -setnumber n_theta 64
  # The mirror-symmetric cylinder: the upper half meshed, then mirrored across y = 0.
  gmsh -2 -v 2 "$geo/cylinder_half.geo" -format su2 -o "$geo/cylinder_half.su2"
  scripts/mirror_su2.py "$geo/cylinder_half.su2" "$geo/cylinder_symmetric.su2"
  rm "$geo/cylinder_half.su2"
  echo "make-meshes: $geo/cylinder_symmetric.su2"
  # The cylinder with a structured layer at the wall (3,483 quadrilaterals): the case file's mesh.
  mesh cylinder_layered cylinder_layered "$geo" -setnumber n_theta 64
  mesh naca0012 naca0012_coarse "$geo"
  # The case file's mesh: first cell 1e-4 chords and a refined near wake (0.02 chords), level 0 of
  # bench/fidelity/fidelity_figures.py's NACA0012 sequence (10,462 cells).
  mesh naca0012 naca0012_wake "$geo" -setnumber n_side 61 -setnumber h_wall 1e-4 -setnumber bl_ratio 1.2 \
    -setnumber h_near 0.03 -setnumber h_wake 0.02 -setnumber h_far 8
  rm "$geo/naca0012_wake.msh"  # SU2 only in the repository
  gmsh -v 2 "$geo/naca0012_coarse.msh" -save -format msh41 -o "$geo/naca0012_coarse_v41.msh"
  gmsh -3 -v 2 "$geo/tetrahedra.geo" -setnumber domain 1 -setnumber h 0.2 -format msh41 -o "$geo/tet_sphere_coarse.msh"
  echo "make-meshes: $geo/tet_sphere_coarse.msh"
fi
if [[ $level == medium || $level == all ]]; then
  mesh cylinder cylinder_medium "$out" -setnumber n_theta 192
  mesh naca0012 naca0012_medium "$out" -setnumber n_side 161 -setnumber h_wall 5e-4 -setnumber bl_ratio 1.12 \
    -setnumber h_near 0.012 -setnumber h_far 4
  # About 13k cells, a size FVENS results are published for (13,794: 10,080 triangles, 3,714 quadrilaterals).
  mesh naca0012 naca0012_13k "$out" -setnumber n_side 91 -setnumber h_wall 8e-4 -setnumber bl_ratio 1.14 \
    -setnumber h_near 0.0235 -setnumber h_far 6
fi
if [[ $level == fine || $level == all ]]; then
  mesh cylinder cylinder_fine "$out" -setnumber n_theta 512
  # More airfoil nodes with this wall spacing make gmsh 4.8 fold boundary-layer
  # cells at the trailing-edge fan (tb-mesh's check finds them).
  mesh naca0012 naca0012_fine "$out" -setnumber n_side 281 -setnumber h_wall 2.5e-4 -setnumber bl_ratio 1.1 \
    -setnumber h_near 0.004 -setnumber h_far 1.5
fi
if [[ $level == nested || $level == all ]]; then
  for quads in 1 0; do
    for n in 10 20 40 80; do
      mesh cylinder "cylinder_n${n}_q${quads}" "$out/nested" -setnumber n_theta "$n" -setnumber quads "$quads"
    done
    level_id=0
    # n_side h_wall bl_ratio h_near h_far per level; the coarse committed mesh is the next one.
    for p in "11 8e-3 1.5 0.2 30" "21 4e-3 1.3 0.1 15" "41 2e-3 1.2 0.05 8"; do
      set -- $p
      mesh naca0012 "naca0012_L${level_id}_q${quads}" "$out/nested" -setnumber n_side "$1" -setnumber h_wall "$2" \
        -setnumber bl_ratio "$3" -setnumber h_near "$4" -setnumber h_far "$5" -setnumber bl_quads "$quads"
      level_id=$((level_id + 1))
    done
  done
fi
if [[ $level == layered || $level == all ]]; then
  for quads in 1 0; do
    for n in 32 48 64 96 128 192; do
      mesh cylinder_layered "cylinder_layered_n${n}_q${quads}" "$out/layered" -setnumber n_theta "$n" \
        -setnumber quads "$quads"
    done
  done
fi
if [[ $level == tet || $level == all ]]; then
  mkdir -p "$out"
  # h from n ~ C / h^3, fitted to Gmsh 4.8.4's node counts at h = 0.0859 and 0.0324.
  for size_h in 6k:0.0852 103k:0.03152 205k:0.02508 395k:0.02016 800k:0.01593 984k:0.01487; do
    name=tet_sphere_${size_h%%:*}
    gmsh -3 -v 2 "$geo/tetrahedra.geo" -setnumber domain 1 -setnumber h "${size_h##*:}" -format msh41 -o "$out/$name.msh"
    echo "make-meshes: $out/$name.msh ($(sed -n '/^\$Nodes/{n;p;q}' "$out/$name.msh" | cut -d' ' -f2) nodes)"
  done
fi
