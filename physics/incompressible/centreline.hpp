#pragma once
// Velocity profiles along grid lines through the domain, for the cavity's
// centreline comparison with Ghia et al. (1982) and the channel's outlet profile.
#include <array>
#include <vector>

#include "physics/incompressible/fractional_step.hpp"
#include "physics/incompressible/ghia1982.hpp"

namespace tb::incompressible {

// How the values of a line are sampled: per slot of the profile (each cell
// centre along the line, and the two boundary faces) its coordinate, a fixed
// part (the boundary value of an end, zero elsewhere) and up to four cells
// bracketing the line with their weights (4 per slot, weight 0: none). On a
// piece of the grid the slots of other ranks are zero.
struct LineSamples {
  std::vector<double> coord, fixed;
  std::vector<index_t> cells;
  std::vector<double> weights;
};
LineSamples line_samples(const FractionalStep& flow, int component, int along, const std::array<double, 3>& point);

// Component 'component' of the velocity along direction 'along' through
// 'point' (the coordinate along 'along' is ignored): one value per cell centre
// plus the two boundary values, interpolated linearly across the other directions.
Profile sample_line(const FractionalStep& flow, int component, int along, const std::array<double, 3>& point);

// A profile's comparison with a reference table, as the line_deviation kernel
// (kernels.hpp) reduces it where the velocity lives: per reference point the
// two slots bracketing reference.coord[i] * scale (2 fixed parts, 8 cells and
// weights) and the lower slot's weight, as interpolate() mixes them. Built
// from a whole grid's LineSamples.
struct ProfileDeviation {
  std::vector<index_t> cells;
  std::vector<double> weights, fixed, mix, reference;
  index_t points() const { return index_t(mix.size()); }
};
ProfileDeviation profile_deviation(const LineSamples& line, const Profile& reference, double scale = 1.0);

// max_i |profile(reference.coord[i] * scale) - reference.value[i]| of
// component e of u (m per cell), u on `backend`: max_deviation(sample_line(...),
// reference, scale), bit for bit, without bringing u back.
double max_deviation(Backend backend, const ProfileDeviation& d, const double* u, int m, int e);

// Linear interpolation of a profile at x (clamped to its ends).
double interpolate(const Profile& p, double x);

// max_i |interpolate(computed, reference.coord[i] * scale) - reference.value[i]|
double max_deviation(const Profile& computed, const Profile& reference, double scale = 1.0);

}  // namespace tb::incompressible
