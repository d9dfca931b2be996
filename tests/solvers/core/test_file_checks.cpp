// The checks on the files a program reads and writes (input_limit.hpp,
// output_path.hpp, atomic_file.hpp): an output path that names a fifo, a
// folder or a missing folder is refused and left as it was, even by the
// atomic writer itself; an input read whole stops at a NUL byte in a text
// file and at the input limit in anything that goes on without end.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "solvers/core/atomic_file.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/input_limit.hpp"
#include "solvers/core/output_path.hpp"

namespace tb {
namespace {

namespace fs = std::filesystem;

class FileChecks : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tb-file-checks-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    fifo_ = (dir_ / "fifo").string();
    ASSERT_EQ(::mkfifo(fifo_.c_str(), 0600), 0);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string error_of(void (*check)(std::string_view, const std::string&), const std::string& path) {
    try {
      check("--out", path);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir_;
  std::string fifo_;
};

TEST_F(FileChecks, AnOutputFileMustBeARegularFileInAFolderThatExists) {
  EXPECT_EQ(error_of(check_output_file, (dir_ / "new.json").string()), "");
  std::ofstream(dir_ / "old.json") << "{}";
  EXPECT_EQ(error_of(check_output_file, (dir_ / "old.json").string()), "");
  EXPECT_NE(error_of(check_output_file, fifo_).find("--out '" + fifo_ + "': is a fifo, not a regular file"),
            std::string::npos);
  EXPECT_NE(error_of(check_output_file, dir_.string()).find("is a folder; give a file name"), std::string::npos);
  EXPECT_NE(error_of(check_output_file, (dir_ / "no" / "x.json").string()).find("does not exist"), std::string::npos);
  EXPECT_NE(error_of(check_output_file, "").find("--out: the file name is empty"), std::string::npos);
  EXPECT_EQ(kind_of_path("/dev/null"), "a character device");
}

TEST_F(FileChecks, AnOutputFolderMustBeAFolderOrNew) {
  EXPECT_EQ(error_of(check_output_folder, dir_.string()), "");
  EXPECT_EQ(error_of(check_output_folder, (dir_ / "new").string()), "");
  std::ofstream(dir_ / "file") << "x";
  EXPECT_NE(error_of(check_output_folder, (dir_ / "file").string()).find("is a regular file, not a folder"),
            std::string::npos);
  EXPECT_NE(error_of(check_output_folder, fifo_).find("is a fifo, not a folder"), std::string::npos);
}

// The rename that commits a result would put a regular file in the fifo's place.
TEST_F(FileChecks, TheAtomicWriterRefusesWhatIsNotARegularFile) {
  EXPECT_THROW(write_file_atomically(fifo_, "{}"), Error);
  EXPECT_TRUE(fs::is_fifo(fifo_));
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_EQ(entry.path().filename(), "fifo") << "a temporary file was left: " << entry.path();
  write_file_atomically((dir_ / "a.txt").string(), "ok");
  EXPECT_TRUE(fs::is_regular_file(dir_ / "a.txt"));
}

// Staged, a file keeps its old content until the rename: what a run killed in
// between leaves (the time loop writes a checkpoint's row there).
TEST_F(FileChecks, AStagedFileReplacesTheOldOneOnlyWhenRenamed) {
  const std::string path = (dir_ / "state.bin").string();
  write_file_atomically(path, "old");
  const std::string temporary = stage_file(path, "new");
  EXPECT_TRUE(fs::is_regular_file(temporary));
  std::string content;
  std::getline(std::ifstream(path), content);
  EXPECT_EQ(content, "old");
  rename_staged(temporary, path);
  std::getline(std::ifstream(path), content);
  EXPECT_EQ(content, "new");
  EXPECT_FALSE(fs::exists(temporary));
}

TEST_F(FileChecks, ATextInputWithANulByteIsRefusedAtItsLine) {
  const std::string path = (dir_ / "a.mtx").string();
  std::ofstream(path, std::ios::binary) << "%%MatrixMarket matrix\n1 1 1\n1 1 " << '\0' << "2\n";
  try {
    (void)read_input_file(path, "MatrixMarket file", InputContent::text);
    FAIL() << "a NUL byte was read as text";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 3);
    EXPECT_NE(std::string(e.what()).find("a NUL byte at offset 32: binary data, not a text MatrixMarket file"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(read_input_file(path, "file", InputContent::binary).size(), 35u);
}

TEST_F(FileChecks, AnInputWithoutEndStopsAtTheLimit) {
  ::setenv("TB_INPUT_LIMIT_MB", "1", 1);
  try {
    (void)read_input_file("/dev/zero", "STL file", InputContent::binary);
    ADD_FAILURE() << "/dev/zero was read to the end";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("goes on past the input limit of 1 MiB"), std::string::npos) << e.what();
  }
  ::unsetenv("TB_INPUT_LIMIT_MB");
  EXPECT_THROW((void)read_input_file(dir_.string(), "case file", InputContent::text), Error);
}

}  // namespace
}  // namespace tb
