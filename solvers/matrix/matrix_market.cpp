#include "matrix_market.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string_view>

#include "solvers/core/atomic_file.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/input_limit.hpp"

// Format reference: R. F. Boisvert, R. Pozo, K. Remington, "The Matrix Market
// Exchange Formats: Initial Design", NISTIR 5935 (1996).

namespace tb {

namespace {

// ---------------------------------------------------------------- reading

std::string load_file(const std::string& path) {
  return read_input_file(path, "MatrixMarket file", InputContent::text);
}

// Lines of a file held in memory, numbered from 1 for error messages.
class LineReader {
 public:
  LineReader(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)) {}

  bool next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    const std::size_t end = std::min(text_.find('\n', pos_), text_.size());
    line = std::string_view(text_).substr(pos_, end - pos_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos_ = end + 1;
    ++line_;
    return true;
  }
  // Line of the last line returned: where the file ended once next() is false.
  long line() const { return line_; }
  std::size_t size() const { return text_.size(); }
  // Bytes after the last line returned.
  std::size_t remaining() const { return pos_ < text_.size() ? text_.size() - pos_ : 0; }
  [[noreturn]] void fail(const std::string& what) const { throw ParseError(path_, line_, what); }
  [[noreturn]] void fail_at(long line, const std::string& what) const { throw ParseError(path_, line, what); }

 private:
  std::string path_;
  std::string text_;
  std::size_t pos_ = 0;
  long line_ = 0;
};

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// Splits on blanks, keeps the first 'max' tokens and returns how many there
// are in all, so a caller can report "found 5" for a line that has too many.
int split(std::string_view line, std::string_view* out, int max) {
  int n = 0;
  std::size_t i = 0;
  while (true) {
    while (i < line.size() && is_blank(line[i])) ++i;
    if (i == line.size()) return n;
    const std::size_t start = i;
    while (i < line.size() && !is_blank(line[i])) ++i;
    if (n < max) out[n] = line.substr(start, i - start);
    ++n;
  }
}

bool is_blank_line(std::string_view line) { return std::all_of(line.begin(), line.end(), is_blank); }

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

enum class Format { coordinate, array };
enum class Field { real, integer, pattern };
enum class Symmetry { general, symmetric, skew };

struct Header {
  Format format = Format::coordinate;
  Field field = Field::real;
  Symmetry symmetry = Symmetry::general;
  index_t rows = 0, cols = 0;
  std::int64_t entries = 0;  // lines of data the size line announces
  index_t block_size = 0;
};

constexpr const char* banner_usage =
    "%%MatrixMarket matrix <coordinate|array> <real|integer|pattern> <general|symmetric|skew-symmetric>";

void parse_banner(LineReader& in, Header& h) {
  std::string_view line;
  if (!in.next(line)) in.fail_at(1, "empty file: expected the banner " + std::string(banner_usage));
  std::string_view tok[5];
  const int n = split(line, tok, 5);
  if (n == 0 || lower(tok[0]) != "%%matrixmarket")
    in.fail("missing MatrixMarket banner: the first line must be " + std::string(banner_usage));
  if (n != 5) in.fail("banner has " + std::to_string(n) + " words, expected 5: " + banner_usage);
  const std::string object = lower(tok[1]), format = lower(tok[2]), field = lower(tok[3]), symmetry = lower(tok[4]);
  if (object != "matrix") in.fail("unsupported object '" + std::string(tok[1]) + "' (only 'matrix')");

  if (format == "coordinate")
    h.format = Format::coordinate;
  else if (format == "array")
    h.format = Format::array;
  else
    in.fail("unknown format '" + std::string(tok[2]) + "' (allowed: coordinate, array)");

  if (field == "real" || field == "double")
    h.field = Field::real;
  else if (field == "integer")
    h.field = Field::integer;
  else if (field == "pattern")
    h.field = Field::pattern;
  else if (field == "complex")
    in.fail("complex matrices are unsupported (allowed fields: real, integer, pattern)");
  else
    in.fail("unknown field '" + std::string(tok[3]) + "' (allowed: real, integer, pattern)");

  if (symmetry == "general")
    h.symmetry = Symmetry::general;
  else if (symmetry == "symmetric")
    h.symmetry = Symmetry::symmetric;
  else if (symmetry == "skew-symmetric")
    h.symmetry = Symmetry::skew;
  else if (symmetry == "hermitian")
    in.fail("hermitian storage is unsupported (allowed: general, symmetric, skew-symmetric)");
  else
    in.fail("unknown symmetry '" + std::string(tok[4]) + "' (allowed: general, symmetric, skew-symmetric)");

  // NIST 5935 section 3: pattern has no array form and no skew-symmetric form.
  if (h.field == Field::pattern && h.format == Format::array) in.fail("'pattern' is not allowed with 'array' format");
  if (h.field == Field::pattern && h.symmetry == Symmetry::skew)
    in.fail("'pattern' is not allowed with 'skew-symmetric' storage");
}

template <class Int>
bool parse_int(std::string_view tok, Int& v) {
  if (!tok.empty() && tok.front() == '+') tok.remove_prefix(1);
  auto [ptr, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
  return ec == std::errc() && ptr == tok.data() + tok.size();
}

// "% block_size N": the block size of a system written by this library.
void parse_comment(LineReader& in, std::string_view line, Header& h, long& block_line) {
  std::string_view tok[3];
  line.remove_prefix(1);
  const int n = split(line, tok, 2);
  if (n == 0 || lower(tok[0]) != "block_size") return;
  long bs = 0;
  if (n != 2 || !parse_int(tok[1], bs) || bs < 1 || bs > max_block_size)
    in.fail("'% block_size' needs one integer in 1.." + std::to_string(max_block_size));
  h.block_size = index_t(bs);
  block_line = in.line();
}

std::string join_ints(std::initializer_list<std::int64_t> v) {
  std::string s;
  for (auto x : v) {
    if (!s.empty()) s += 'x';
    s += std::to_string(x);
  }
  return s;
}

void parse_size_line(LineReader& in, std::string_view line, Header& h) {
  const bool coo = h.format == Format::coordinate;
  const int want = coo ? 3 : 2;
  const char* what = coo ? "'rows cols entries'" : "'rows cols'";
  std::string_view tok[3];
  const int n = split(line, tok, want);
  if (n != want)
    in.fail("size line: expected " + std::to_string(want) + " integers " + what + ", found " + std::to_string(n) +
            " fields");
  std::int64_t v[3] = {0, 0, 0};
  for (int k = 0; k < want; ++k)
    if (!parse_int(tok[k], v[k]) || v[k] < 0)
      in.fail("size line: bad token '" + std::string(tok[k]) + "', expected a non-negative integer in " + what);
  constexpr std::int64_t max_index = std::numeric_limits<index_t>::max();
  if (v[0] > max_index || v[1] > max_index)
    in.fail("size line: " + join_ints({v[0], v[1]}) + " exceeds the 32-bit index range");
  h.rows = index_t(v[0]);
  h.cols = index_t(v[1]);
  if (h.symmetry != Symmetry::general && h.rows != h.cols)
    in.fail("size line: symmetric and skew-symmetric matrices must be square, got " + join_ints({v[0], v[1]}));
  if (coo) {
    h.entries = v[2];
  } else {
    const std::int64_t n64 = h.rows;
    h.entries = h.symmetry == Symmetry::general     ? n64 * h.cols
                : h.symmetry == Symmetry::symmetric ? n64 * (n64 + 1) / 2
                                                    : n64 * (n64 - 1) / 2;
  }
}

// The most data lines the bytes after the size line can hold: the shortest is
// "1 1" (pattern), "1 1 0" or "0", each with its newline (the last one may
// lack it, hence the + 1).
std::int64_t entries_room(const LineReader& in, const Header& h) {
  const std::int64_t shortest = h.format == Format::array ? 2 : h.field == Field::pattern ? 4 : 6;
  return std::int64_t(in.remaining() + 1) / shortest;
}

// The declared sizes against what the rest of the file can hold and against
// the input limit, before anything is allocated; `in` is at the size line.
// Entries past what the remaining bytes can hold are never counted on: a file
// that declares more than it has ends while they are read, and that error
// names the line where it ended and how many entries came.
void check_declared_sizes(LineReader& in, const Header& h) {
  if (h.rows == 0 || h.cols == 0)
    in.fail("size line: the matrix is " + join_ints({h.rows, h.cols}) + "; it needs at least one row and one column");
  // What reading and assembling hold at once: per row an offset, a cursor and
  // a row pointer; per stored entry the triple, its bucket copy and its CSR
  // column and value (symmetric storage stores up to twice the entries).
  constexpr std::uint64_t per_row = 2 * sizeof(std::size_t) + sizeof(index_t);
  constexpr std::uint64_t per_entry = 2 * 16 + sizeof(index_t) + sizeof(double);
  const std::uint64_t stored =
      std::uint64_t(std::min(h.entries, entries_room(in, h))) * (h.symmetry == Symmetry::general ? 1 : 2);
  const std::uint64_t bytes = storage_bytes(std::uint64_t(h.rows) + 1, per_row, storage_bytes(stored, per_entry));
  const std::string excess = input_limit_excess(bytes);
  if (!excess.empty())
    in.fail("size line: a " + join_ints({h.rows, h.cols}) + " matrix with " + std::to_string(h.entries) + " entries" +
            excess);
}

Header read_header(LineReader& in) {
  Header h;
  parse_banner(in, h);
  long block_line = 0;
  std::string_view line;
  while (true) {
    if (!in.next(line)) in.fail("file ended before the size line");
    if (!line.empty() && line.front() == '%') {
      parse_comment(in, line, h, block_line);
      continue;
    }
    if (is_blank_line(line)) continue;  // NIST 5935: blank lines may appear anywhere after the first
    parse_size_line(in, line, h);
    break;
  }
  if (h.block_size > 1 && (h.rows % h.block_size || h.cols % h.block_size))
    in.fail_at(block_line, "block_size " + std::to_string(h.block_size) + " does not divide the " +
                               join_ints({h.rows, h.cols}) + " matrix");
  check_declared_sizes(in, h);
  return h;
}

double parse_value(LineReader& in, std::string_view tok, Field field) {
  if (field == Field::integer) {
    std::int64_t v = 0;
    if (!parse_int(tok, v)) in.fail("bad token '" + std::string(tok) + "', expected an integer value");
    return double(v);
  }
  std::string_view t = tok;
  if (!t.empty() && t.front() == '+') t.remove_prefix(1);
  double v = 0.0;
  auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ptr != t.data() + t.size() || (ec != std::errc() && ec != std::errc::result_out_of_range))
    in.fail("bad token '" + std::string(tok) + "', expected a real value");
  if (ec == std::errc::result_out_of_range) {
    // from_chars reports underflow and overflow alike; strtod tells them apart
    // (tiny values become zero or subnormal and are kept).
    const std::string copy(t);
    v = std::strtod(copy.c_str(), nullptr);
  }
  if (!std::isfinite(v)) in.fail("non-finite value '" + std::string(tok) + "' (NaN and Inf are not allowed)");
  return v;
}

index_t parse_index(LineReader& in, std::string_view tok, const char* name, index_t extent) {
  std::int64_t v = 0;
  if (!parse_int(tok, v)) in.fail("bad token '" + std::string(tok) + "', expected an integer " + name + " index");
  if (v < 1 || v > extent)
    in.fail(std::string(name) + " index " + std::to_string(v) + " out of range " +
            (extent > 0 ? "1.." + std::to_string(extent) : "(the matrix has no " + std::string(name) + "s)"));
  return index_t(v - 1);
}

struct Entry {
  index_t row, col;
  double value;
};

// Data lines of either format, 0-based, symmetric storage not yet expanded.
// Calls emit(row, col, value) once per entry.
template <class Emit>
void read_entries(LineReader& in, const Header& h, Emit emit) {
  const bool coo = h.format == Format::coordinate;
  const int want = coo ? (h.field == Field::pattern ? 2 : 3) : 1;
  const char* layout = coo ? (h.field == Field::pattern ? "'row col'" : "'row col value'") : "'value'";
  std::int64_t read = 0;
  index_t ai = 0, aj = 0;  // array format: position of the next value, column-major
  if (!coo && h.symmetry == Symmetry::skew) ai = 1;
  std::string_view line, tok[3];
  while (read < h.entries) {
    if (!in.next(line))
      in.fail("file ended after " + std::to_string(read) + " of the " + std::to_string(h.entries) +
              " entries the size line declares");
    if (is_blank_line(line) || line.front() == '%') continue;
    const int n = split(line, tok, want);
    if (n != want)
      in.fail("expected " + std::to_string(want) + (want == 1 ? " field " : " fields ") + layout + ", found " +
              std::to_string(n));
    if (coo) {
      const index_t i = parse_index(in, tok[0], "row", h.rows);
      const index_t j = parse_index(in, tok[1], "column", h.cols);
      emit(i, j, h.field == Field::pattern ? 1.0 : parse_value(in, tok[2], h.field));
    } else {
      emit(ai, aj, parse_value(in, tok[0], h.field));
      // NIST 5935: array storage is column-major; symmetric keeps i >= j, skew i > j.
      if (++ai == h.rows) {
        ++aj;
        ai = h.symmetry == Symmetry::general ? 0 : h.symmetry == Symmetry::symmetric ? aj : aj + 1;
      }
    }
    ++read;
  }
  while (in.next(line))
    if (!is_blank_line(line) && line.front() != '%')
      in.fail("extra data after the " + std::to_string(h.entries) + " entries the size line declares");
}

// Symmetric storage keeps one triangle. Files from different tools use
// different triangles, so either is accepted, but not both: an entry mirrored
// onto one given explicitly would be silently doubled.
class TriangleCheck {
 public:
  void check(LineReader& in, const Header& h, index_t i, index_t j) {
    if (h.symmetry == Symmetry::general) return;
    if (i == j) {
      if (h.symmetry == Symmetry::skew)
        in.fail("diagonal entry (" + std::to_string(i + 1) + "," + std::to_string(j + 1) +
                ") in a skew-symmetric file, whose diagonal is zero by definition");
      return;
    }
    const int side = i > j ? -1 : 1;
    if (side_ == 0) side_ = side;
    if (side != side_)
      in.fail("entry (" + std::to_string(i + 1) + "," + std::to_string(j + 1) + ") is " +
              (side > 0 ? "above" : "below") + " the diagonal but earlier entries were " +
              (side > 0 ? "below" : "above") + " it: symmetric storage holds one triangle only");
  }

 private:
  int side_ = 0;
};

// Rows bucketed, columns sorted, duplicates summed in file order.
CsrMatrix assemble(index_t rows, index_t cols, const std::vector<Entry>& entries) {
  std::vector<std::size_t> offset(std::size_t(rows) + 1, 0);
  for (const Entry& e : entries) ++offset[std::size_t(e.row) + 1];
  for (index_t i = 0; i < rows; ++i) offset[i + 1] += offset[i];
  std::vector<std::pair<index_t, double>> bucket(entries.size());
  std::vector<std::size_t> next(offset.begin(), offset.end() - 1);
  for (const Entry& e : entries) bucket[next[e.row]++] = {e.col, e.value};

  CsrMatrix a;
  a.rows = rows;
  a.cols = cols;
  a.row_ptr.assign(std::size_t(rows) + 1, 0);
  a.col_idx.reserve(entries.size());
  a.values.reserve(entries.size());
  const auto by_col = [](const auto& x, const auto& y) { return x.first < y.first; };
  for (index_t i = 0; i < rows; ++i) {
    const auto first = bucket.begin() + std::ptrdiff_t(offset[i]),
               last = bucket.begin() + std::ptrdiff_t(offset[i + 1]);
    std::stable_sort(first, last, by_col);
    for (auto it = first; it != last; ++it) {
      if (it != first && it->first == a.col_idx.back()) {
        a.values.back() += it->second;
      } else {
        a.col_idx.push_back(it->first);
        a.values.push_back(it->second);
      }
    }
    a.row_ptr[i + 1] = index_t(a.col_idx.size());
  }
  return a;
}

// ---------------------------------------------------------------- writing

// The text of a file, built in memory and handed whole to
// write_file_atomically, so a failed write never leaves half a matrix behind.
class MatrixMarketText {
 public:
  explicit MatrixMarketText(int digits) : digits_(digits) {
    if (digits < 0 || digits > 17)
      throw Error("MatrixMarket writer: digits " + std::to_string(digits) + " outside 0..17");
  }

  void put(std::string_view s) { text_.append(s); }
  void put(char c) { text_.push_back(c); }
  void put_index(std::int64_t i) {
    char buf[24];
    put(std::string_view(buf, std::size_t(std::to_chars(buf, buf + sizeof buf, i).ptr - buf)));
  }
  // Without a digit count: the shortest text that reads back to the same
  // double, full precision and never longer than %.17g.
  void put_value(double v) {
    char buf[40];
    const auto res = digits_ > 0 ? std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, digits_)
                                 : std::to_chars(buf, buf + sizeof buf, v);
    put(std::string_view(buf, std::size_t(res.ptr - buf)));
  }
  void reserve(std::size_t lines) { text_.reserve(lines * 32); }
  void write(const std::string& path) const { write_file_atomically(path, text_); }

 private:
  int digits_;
  std::string text_;
};

// Each line of a free-text comment as its own '%' line.
void put_comment(MatrixMarketText& out, const std::string& comment) {
  if (comment.empty()) return;
  std::size_t pos = 0;
  while (pos <= comment.size()) {
    const std::size_t end = std::min(comment.find('\n', pos), comment.size());
    out.put("% ");
    out.put(std::string_view(comment).substr(pos, end - pos));
    out.put('\n');
    pos = end + 1;
  }
}

void put_entry(MatrixMarketText& out, std::int64_t i, std::int64_t j, double v) {
  out.put_index(i);
  out.put(' ');
  out.put_index(j);
  out.put(' ');
  out.put_value(v);
  out.put('\n');
}

void put_size(MatrixMarketText& out, std::initializer_list<std::int64_t> sizes) {
  bool first = true;
  for (auto s : sizes) {
    if (!first) out.put(' ');
    out.put_index(s);
    first = false;
  }
  out.put('\n');
}

}  // namespace

MatrixMarketMatrix read_matrix_market(const std::string& path) {
  LineReader in(path, load_file(path));
  const Header h = read_header(in);
  const std::int64_t stored = h.symmetry == Symmetry::general ? h.entries : 2 * h.entries;
  if (stored > std::numeric_limits<index_t>::max())
    in.fail("size line: " + std::to_string(h.entries) + " entries exceed the 32-bit index range");

  std::vector<Entry> entries;
  // A size line cannot make us reserve more than the rest of the file holds.
  entries.reserve(std::size_t(std::min<std::int64_t>(stored, 2 * entries_room(in, h))));
  TriangleCheck triangle;
  const double mirror_sign = h.symmetry == Symmetry::skew ? -1.0 : 1.0;
  read_entries(in, h, [&](index_t i, index_t j, double v) {
    triangle.check(in, h, i, j);
    entries.push_back({i, j, v});
    if (h.symmetry != Symmetry::general && i != j) entries.push_back({j, i, mirror_sign * v});
  });
  return {assemble(h.rows, h.cols, entries), h.block_size};
}

std::vector<double> read_matrix_market_vector(const std::string& path) {
  LineReader in(path, load_file(path));
  const Header h = read_header(in);
  if (h.cols != 1) in.fail("a vector file must have one column, the size line declares " + join_ints({h.rows, h.cols}));
  if (h.symmetry != Symmetry::general) in.fail("a vector file must use 'general' storage");
  std::vector<double> v(std::size_t(h.rows), 0.0);
  read_entries(in, h, [&](index_t i, index_t, double x) { v[std::size_t(i)] += x; });
  return v;
}

void write_matrix_market(const std::string& path, const CsrMatrix& a, const std::string& comment, int digits) {
  a.validate();
  MatrixMarketText out(digits);
  out.put("%%MatrixMarket matrix coordinate real general\n");
  put_comment(out, comment);
  out.reserve(std::size_t(a.nnz()));
  put_size(out, {a.rows, a.cols, a.nnz()});
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) put_entry(out, i + 1, a.col_idx[k] + 1, a.values[k]);
  out.write(path);
}

void write_matrix_market(const std::string& path, const BsrMatrix& a, const std::string& comment, int digits) {
  a.validate();
  const index_t bs = a.block_size;
  MatrixMarketText out(digits);
  out.put("%%MatrixMarket matrix coordinate real general\n% block_size ");
  out.put_index(bs);
  out.put('\n');
  put_comment(out, comment);
  out.reserve(std::size_t(a.nnz_blocks()) * std::size_t(a.block_entries()));
  put_size(out, {a.rows(), a.cols(), std::int64_t(a.nnz_blocks()) * a.block_entries()});
  // Every stored block entry, zeros included, so reading back with the block
  // size gives the same block pattern.
  for (index_t bi = 0; bi < a.block_rows; ++bi)
    for (index_t r = 0; r < bs; ++r)
      for (index_t k = a.row_ptr[bi]; k < a.row_ptr[bi + 1]; ++k) {
        const double* row = a.block(k) + std::size_t(r) * bs;
        for (index_t c = 0; c < bs; ++c)
          put_entry(out, std::int64_t(bi) * bs + r + 1, std::int64_t(a.col_idx[k]) * bs + c + 1, row[c]);
      }
  out.write(path);
}

void write_matrix_market_vector(const std::string& path, std::span<const double> v, const std::string& comment,
                                int digits) {
  MatrixMarketText out(digits);
  out.put("%%MatrixMarket matrix array real general\n");
  put_comment(out, comment);
  out.reserve(v.size());
  put_size(out, {std::int64_t(v.size()), 1});
  for (double x : v) {
    out.put_value(x);
    out.put('\n');
  }
  out.write(path);
}

}  // namespace tb
