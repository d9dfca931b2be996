#include "miniapps/compressible/comp_simulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <istream>
#include <ostream>

#include "mesh/decomposition.hpp"
#include "mesh/io/vtu_writer.hpp"
#include "mesh/mesh_graph.hpp"
#include "mesh/partition.hpp"
#include "miniapps/common/domain_sharing.hpp"
#include "miniapps/common/rank_counts.hpp"
#include "miniapps/common/step_table.hpp"
#include "miniapps/compressible/field_output.hpp"
#include "solvers/core/atomic_file.hpp"
#include "solvers/core/byte_buffer.hpp"
#include "solvers/core/error.hpp"

namespace tb::compressible {

namespace {

// Every marker a boundary key names is one of the mesh's, refused with the
// key's place otherwise (boundary_kinds_by_marker checks the same, without it).
void require_mesh_markers(const harness::CaseConfig& config, const Mesh2D& mesh) {
  for (const char* key : {"boundary.wall", "boundary.farfield", "boundary.noslip", "boundary.isothermal"})
    for (const auto& name : split_marker_list(config.text(key)))
      if (mesh.find_marker(name) < 0) {
        std::string markers;
        for (const auto& m : mesh.marker_names) markers += (markers.empty() ? "'" : ", '") + m + "'";
        throw config.refusal(key, "a comma-separated list of the mesh's markers (" + markers + "); '" + name +
                                      "' is not a marker of the mesh");
      }
}

// FNV-1a over the values: a piece's cells, or a whole partition, as one number.
std::uint64_t digest_of(std::span<const index_t> values) {
  std::uint64_t h = 14695981039346656037ull;
  for (index_t v : values) h = (h ^ std::uint64_t(std::uint32_t(v))) * 1099511628211ull;
  return h;
}

// The boundary kind of each marker of the whole mesh, the case checked against
// it: every marker a key names exists, no-slip walls come with a Reynolds number.
std::vector<BoundaryKind> checked_boundary_kinds(const harness::CaseConfig& config, const Mesh2D& mesh) {
  require_mesh_markers(config, mesh);
  std::vector<BoundaryKind> kinds = boundary_kinds_by_marker(mesh, make_boundary_map(config));
  if (config.real("flow.reynolds") == 0.0)
    for (BoundaryKind k : kinds)
      if (is_no_slip(k))
        throw config.refusal("flow.reynolds", "> 0 with no-slip walls (" + config.key_and_value("boundary.noslip") +
                                                  ", " + config.key_and_value("boundary.isothermal") + ")");
  return kinds;
}

// Rank 0's part of CompressibleSimulation::receive_piece: per rank, a status
// byte (0), its piece, its cells' rows in the distributed numbering (part by
// part), their numbers in the file and line ids, the boundary kinds and the
// mesh's cell count; or, for every rank, status 1 and the error that stopped
// rank 0. The ghost layers are those of the gradient stencil's reach: with
// node stencils a first-layer cell's gradient reads cells that share only a
// corner with it.
std::vector<std::string> pieces_for_ranks(const harness::CaseConfig& config, GradientStencil stencil, int ranks) {
  try {
    if (!metis_available())
      throw Error("tb-comp2d on " + std::to_string(ranks) +
                  " ranks partitions its mesh with METIS, which this build lacks (scripts/setup.sh installs it)");
    OrderedMesh whole = load_ordered_mesh(config);
    const std::vector<BoundaryKind> kinds = checked_boundary_kinds(config, whole.mesh);
    // mesh.partition = work balances the linear solves' work rather than
    // cells (mesh/partition.hpp): a cell's 4x4 blocks and its vector work. Not
    // the default: on 2 ranks of the medium NACA0012 mesh it evened the ranks'
    // waits but its cut took 4 % more iterations (docs/distributed.md).
    const Graph cells = cell_graph(whole.mesh);
    const bool by_work = config.text("mesh.partition") == "work";
    const std::vector<index_t> owner = partition_graph(
        cells, ranks, by_work ? row_work_weights(cells, gmres_bilu0_vector_blocks) : std::vector<index_t>{});
    const Graph reach = reconstruction_graph(whole.mesh, stencil);
    std::vector<MeshPiece> pieces = decompose_mesh(whole.mesh, owner, ranks, 2, &reach);
    const Permutation order = partition_ordering(owner, ranks);
    std::vector<std::string> parts;
    for (MeshPiece& piece : pieces) {
      const std::size_t n = piece.cells.global.size();
      std::vector<index_t> rows(n), file_cell(n), line_id(n);
      for (std::size_t k = 0; k < n; ++k) {
        const std::size_t g = std::size_t(piece.cells.global[k]);
        rows[k] = order.old_to_new[g];
        file_cell[k] = whole.ordering.new_to_old[g];
        line_id[k] = whole.line_id[g];
      }
      ByteWriter out;
      out.put(std::uint8_t(0));
      put_piece(out, piece);
      out.put_array(rows);
      out.put_array(file_cell);
      out.put_array(line_id);
      out.put_array(kinds);
      out.put(whole.mesh.num_cells());
      parts.push_back(out.take());
      piece = MeshPiece{};  // packed: its memory goes before the next is
    }
    return parts;
  } catch (const std::exception& e) {
    ByteWriter out;
    out.put(std::uint8_t(1));
    out.put_string(e.what());
    return std::vector<std::string>(std::size_t(ranks), out.take());
  }
}

// "matrix-free Eq. 1 (outer FGMRES to 0.1, at most 40 solves of the
// first-order system a step); CFL 500 to 10000 (x1.5 after a healthy step);
// cells in rcm order".
// inner_maxit: the cap on each of those solves' iterations (0: none).
std::string scheme_line(const PseudoTimeSettings& p, const std::string& ordering, int inner_maxit) {
  const auto number = harness::format_number;  // steps.csv's: 10 significant digits
  const std::string capped = inner_maxit > 0 ? " of at most " + std::to_string(inner_maxit) + " iterations" : "";
  std::string line = p.jacobian == JacobianForm::matrix_free
                         ? "matrix-free Eq. 1 (outer FGMRES to " + number(p.matrix_free.rtol) + ", at most " +
                               std::to_string(p.matrix_free.maxit) + " solves of the first-order system" + capped +
                               " a step)"
                     : p.jacobian == JacobianForm::exact ? "Eq. 1 with the exact Jacobian (coloured differences)"
                     : p.matrix_free_after_stall
                         ? "Eq. 1 with the paper's first-order Jacobian, matrix-free (outer FGMRES to " +
                               number(p.matrix_free.rtol) + ", at most " + std::to_string(p.matrix_free.maxit) +
                               " solves" + capped + ") from the first stall in order " + std::to_string(p.order)
                         : "Eq. 1 with the paper's first-order Jacobian";
  line += "; CFL " + number(p.cfl_start > 0.0 ? p.cfl_start : p.cfl_min) + " to " + number(p.cfl_max) +
          (p.cfl_growth > 1.0 ? " (x" + number(p.cfl_growth) + " after a healthy step)" : " (Eq. 3)");
  return line + "; cells in " + (ordering == "none" ? std::string("the file's") : ordering) + " order";
}

}  // namespace

CompressibleSimulation::CompressibleSimulation(const harness::CaseConfig& config, bool decompose)
    : alpha_(angle_of_attack(config)),
      reference_length_(config.real("forces.reference_length")),
      force_tol_(config.real("converge.force_tol")) {
  EulerSettings settings = make_euler_settings(config);
  std::vector<BoundaryKind> kinds;
  if (decompose && harness::run_ranks() > 1) {
    kinds = receive_piece(config, settings.gradient_stencil);
    // The piece's artificial boundary, beyond the last ghost layer: whatever it
    // does to those ghosts' residuals, no owned cell sees it (two layers).
    kinds.push_back(BoundaryKind::FarField);
  } else {
    OrderedMesh whole = load_ordered_mesh(config);
    kinds = checked_boundary_kinds(config, whole.mesh);
    mesh_ = std::move(whole.mesh);
    file_cell_ = std::move(whole.ordering.new_to_old);
    line_id_ = std::move(whole.line_id);
    ordering_index_.resize(std::size_t(mesh_.num_cells()));
    for (std::size_t c = 0; c < ordering_index_.size(); ++c) ordering_index_[c] = index_t(c);
  }
  PieceNumbering numbering;
  if (share_) numbering = {share_->owned(), share_->global_size(), share_->global_rows()};
  disc_ = std::make_unique<EulerDiscretisation>(mesh_, std::move(kinds), settings, share_ ? &numbering : nullptr);
  std::vector<State> initial(std::size_t(mesh_.num_cells()), disc_->settings().free_stream);
  PseudoTimeSettings pseudo = make_pseudo_time_settings(config);
  // The cap applies to the matrix-free form's inner solves only.
  const bool has_inner = pseudo.jacobian == JacobianForm::matrix_free || pseudo.matrix_free_after_stall;
  pseudo.matrix_free.inner_maxit = has_inner ? int(config.integer("jacobian.matrix_free_inner_maxit")) : 0;
  scheme_ = scheme_line(pseudo, cell_ordering_name(config), pseudo.matrix_free.inner_maxit);
  solver_ = std::make_unique<PseudoTimeSolver>(*disc_, std::move(initial), pseudo, share_.get());
  // run.backend = cuda: the residual, the Jacobian and the update on the
  // device with the linear solves, on a piece too.
  if (config.text("run.backend") == "cuda") {
    reside_on(Backend::cuda);
    scheme_ += "; residual, Jacobian and update on the device";
    if (share_) scheme_ += ", ghosts exchanged " + harness::device_ghost_path(*share_);
  }
}

CompressibleSimulation::~CompressibleSimulation() = default;

void CompressibleSimulation::reside_on(Backend b) {
  if (!solver_->can_reside()) throw Error("internal: tb-comp2d's solver cannot reside on a backend here");
  reside_on_ = b;
}

// Rank 0 reads and orders the whole mesh, checks it against the case,
// partitions it (METIS) and builds every rank's piece (pieces_for_ranks); each
// rank receives its own, so no other rank ever holds the whole mesh. An error
// on rank 0 reaches every rank as that error, before any output.
std::vector<BoundaryKind> CompressibleSimulation::receive_piece(const harness::CaseConfig& config,
                                                                GradientStencil stencil) {
  const int ranks = harness::run_ranks(), me = harness::run_rank();
  const std::string bytes =
      harness::scatter_from_root(me == 0 ? pieces_for_ranks(config, stencil, ranks) : std::vector<std::string>{});
  ByteReader in(bytes, "the mesh piece from rank 0");
  if (in.get<std::uint8_t>("the status") != 0) throw Error(in.get_string("rank 0's error"));
  MeshPiece piece = get_piece(in);
  std::vector<index_t> rows = in.get_array<index_t>("the rows");
  file_cell_ = in.get_array<index_t>("the file's cell numbers");
  line_id_ = in.get_array<index_t>("the line ids");
  std::vector<BoundaryKind> kinds = in.get_array<BoundaryKind>("the boundary kinds");
  const auto cells = in.get<index_t>("the mesh's cell count");
  const std::size_t n = piece.cells.global.size();
  if (rows.size() != n || file_cell_.size() != n || line_id_.size() != n || !in.done())
    throw Error("internal: the mesh piece from rank 0 does not fit together");
  ordering_index_ = piece.cells.global;
  partition_digest_ = digest_of(std::span<const index_t>(piece.cells.global).first(std::size_t(piece.cells.owned)));
  const index_t owned = piece.cells.owned, ghosts = piece.cells.ghosts();
  share_ = harness::share_over_ranks(std::move(piece.cells), std::move(rows), cells);
  mesh_ = std::move(piece.mesh);
  const std::vector<double> counts = share_->gather_on_root(std::vector<double>{double(owned), double(ghosts)});
  std::vector<double> own, ghost;
  for (std::size_t r = 0; r + 1 < counts.size(); r += 2) own.push_back(counts[r]), ghost.push_back(counts[r + 1]);
  if (me == 0)
    decomposition_ = harness::grouped(cells) + " cells over " + std::to_string(ranks) +
                     " ranks (METIS on rank 0, 2 ghost layers): owned " + harness::per_rank(own) + ", ghosts " +
                     harness::per_rank(ghost);
  return kinds;
}

harness::StepResult CompressibleSimulation::advance(systems::LinearSystems& systems) {
  const long step = solver_->steps() + 1;
  const bool speaks = !share_ || share_->rank() == 0;  // the ranks' steps are one and the same
  if (reside_on_ && !solver_->resident()) solver_->reside(*reside_on_, systems);
  const PseudoStepReport r = solver_->step(systems);
  const Forces f = pressure_forces(*disc_, solver_->wall_force_sums(), alpha_, reference_length_, share_.get());
  forces_.add(f.cl, f.cd);
  if (r.retries > 0 && speaks)
    std::fprintf(stderr, "tb-comp2d: step %ld: non-physical state, redone with CFL %.3g (%d cut%s)\n", step, r.cfl,
                 r.retries, r.retries > 1 ? "s" : "");
  // Pseudo time has no common clock across cells: "time" counts steps.
  harness::StepResult result{double(step),
                             1.0,
                             r.cfl,
                             {{"energy_drop", r.energy_drop},
                              {"rho", r.residual_norms[0]},
                              {"rho_u", r.residual_norms[1]},
                              {"rho_v", r.residual_norms[2]},
                              {"rho_E", r.residual_norms[3]},
                              {"order", double(r.order)},
                              {"omega", r.omega},
                              {"retries", double(r.retries)},
                              {"cfl_cut", double(static_cast<int>(r.safeguard))},
                              {"jacobian_reused", r.jacobian_reused ? 1.0 : 0.0},
                              {"residual_s", r.residual_s},
                              {"jacobian_s", r.jacobian_s},
                              {"outer_its", double(r.outer_iterations)},
                              {"cl", f.cl},
                              {"cd", f.cd},
                              {"forces_unsettled", std::min(forces_.unsettled(), 1e300)}},
                             r.residual_factor};
  // The energy drop and the residual norms; the rest may grow in a healthy
  // run (Cl from a symmetric start, the settling estimate from unbounded).
  result.growth_bounded = 5;
  return result;
}

// A decomposed run's state opens with its piece's digest: a checkpoint of
// another partition is refused before its states are read. (At the front: a
// snapshot's stream cannot seek.)
void CompressibleSimulation::save_state(std::ostream& out) const {
  if (share_) out.write(reinterpret_cast<const char*>(&partition_digest_), sizeof partition_digest_);
  solver_->save(out);
  forces_.save(out);
  outputs_.save(out);
}

void CompressibleSimulation::load_state(std::istream& in) {
  if (share_) {
    std::uint64_t digest = 0;
    in.read(reinterpret_cast<char*>(&digest), sizeof digest);
    if (!in || digest != partition_digest_)
      throw Error("checkpoint: rank " + std::to_string(share_->rank()) +
                  "'s cells are not those of the run that wrote it (another mesh or partition)");
  }
  solver_->load(in);
  forces_.load(in);
  outputs_.load(in);
}

// A resident solver keeps the last accepted state on the device beside its
// own: save_state would bring it to the host after every step.
bool CompressibleSimulation::keep_state() {
  if (!solver_->resident()) return false;
  solver_->keep();
  kept_forces_ = forces_;
  return true;
}

void CompressibleSimulation::restore_kept_state() {
  solver_->restore_kept();
  forces_ = kept_forces_;
}

void CompressibleSimulation::write_fields(const std::filesystem::path& dir, long step) {
  const bool root = !share_ || share_->rank() == 0;
  const std::vector<WallPoint> wall = wall_distribution(*disc_, solver_->state(), solver_->order(), share_.get());
  if (root) write_file_atomically((dir / "wall.csv").string(), wall_csv(wall));
  if (!vtu_writer_available()) {
    if (!warned_no_vtk_ && root) std::fprintf(stderr, "tb-comp2d: built without VTK: no .vtu/.pvd output\n");
    warned_no_vtk_ = true;
    return;
  }
  const std::filesystem::path fields = dir / "fields";
  std::filesystem::create_directories(fields);
  char stem[32];
  std::snprintf(stem, sizeof stem, "flow_%06ld", step);
  if (!share_) {
    const std::string name = std::string(stem) + ".vtu";
    write_vtu((fields / name).string(), mesh_,
              flow_fields(*disc_, solver_->state(), solver_->residual(), file_cell_, line_id_));
    outputs_.add_and_write(dir / "flow.pvd", double(step), "fields/" + name);
    return;
  }
  write_piece(fields, stem);
  const std::string entry = "fields/" + std::string(stem) + ".pvtu";
  if (root)
    outputs_.add_and_write(dir / "flow.pvd", double(step), entry);
  else
    outputs_.add(double(step), entry);
}

// This rank's piece (ghost cells marked), then, once every piece is on disk, rank 0's .pvtu of them.
void CompressibleSimulation::write_piece(const std::filesystem::path& fields, const std::string& stem) {
  std::vector<CellField> f = flow_fields(*disc_, solver_->state(), solver_->residual(), file_cell_, line_id_);
  for (CellField& field : f)
    if (field.name == "ordering_index")
      for (std::size_t c = 0; c < field.values.size(); ++c) field.values[c] = double(ordering_index_[c]);
  f.push_back({"rank", std::vector<double>(std::size_t(mesh_.num_cells()), double(share_->rank())), 1});
  const auto piece = [&](int r) { return stem + "_r" + std::to_string(r) + ".vtu"; };
  write_vtu((fields / piece(share_->rank())).string(), mesh_, f, share_->owned());
  share_->max(0.0);  // every piece written
  if (share_->rank() != 0) return;
  std::vector<std::string> pieces;
  for (int r = 0; r < share_->ranks(); ++r) pieces.push_back(piece(r));
  write_pvtu((fields / (stem + ".pvtu")).string(), pieces, f, 2);
}

std::vector<std::pair<std::string, double>> CompressibleSimulation::figures_of_merit() const {
  const DomainShare* share = share_.get();
  const Forces f = pressure_forces(*disc_, solver_->state(), solver_->order(), alpha_, reference_length_, share);
  std::vector<std::pair<std::string, double>> figures = {
      {"cl", f.cl},
      {"cd", f.cd},
      {"cd_pressure", f.cd_pressure},
      {"cd_viscous", f.cd_viscous},
      {"converged", converged() ? 1.0 : 0.0},
      {"pseudo_steps", double(solver_->steps())},
      {"order", double(solver_->order())},
      {"final_cfl", solver_->cfl()},
      {"energy_residual", solver_->residual_norms()[3]},
      {"entropy_error", entropy_error(*disc_, solver_->state(), share)},
      {"cells", double(share ? share->global_size() : disc_->num_cells())}};
  // Only where the wall shear turns negative on the upper surface (never NaN in summary.json; rank 0's).
  const double separation = separation_x(wall_distribution(*disc_, solver_->state(), solver_->order(), share));
  if (std::isfinite(separation)) figures.emplace_back("separation_x", separation);
  return figures;
}

}  // namespace tb::compressible
