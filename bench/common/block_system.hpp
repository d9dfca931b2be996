#pragma once
// A time step's linear system lifted out of a miniapp (--dump-systems writes
// MatrixMarket with a "% block_size N" comment), for the studies that take
// real Jacobians beside generated matrices.
#include <string>

#include "solvers/matrix/bsr.hpp"

namespace tb::bench {

// Throws tb::Error naming the file when it has no block size comment.
BsrMatrix read_block_system(const std::string& path);

// The file name without folder and extension: "step20-flow-A" for out/systems/step20-flow-A.mtx.
std::string system_name(const std::string& path);

}  // namespace tb::bench
