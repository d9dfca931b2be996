#pragma once
// MatrixMarket exchange format (NIST): coordinate real/integer/pattern matrices
// in general, symmetric or skew-symmetric storage, and array-format vectors.
// Every refusal is a tb::ParseError naming the file and line.
#include <span>
#include <string>
#include <vector>

#include "bsr.hpp"
#include "csr.hpp"

namespace tb {

struct MatrixMarketMatrix {
  CsrMatrix matrix;        // symmetric storage expanded, duplicates summed, columns sorted
  index_t block_size = 0;  // from a "% block_size N" comment line, 0 when absent
};

MatrixMarketMatrix read_matrix_market(const std::string& path);
// A vector: array format (one column) or coordinate format with one column.
std::vector<double> read_matrix_market_vector(const std::string& path);

// Writers go through a temporary file renamed into place, so no half-written
// file is left behind on failure. The BSR writer adds the block size comment
// and writes every stored block entry, zeros included. 'digits' is the number
// of significant digits; 0 writes the shortest text that reads back to the
// same double (full precision, at most 17 digits).
void write_matrix_market(const std::string& path, const CsrMatrix& a, const std::string& comment = {}, int digits = 0);
void write_matrix_market(const std::string& path, const BsrMatrix& a, const std::string& comment = {}, int digits = 0);
void write_matrix_market_vector(const std::string& path, std::span<const double> v, const std::string& comment = {},
                                int digits = 0);

}  // namespace tb
