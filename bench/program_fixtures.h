// What the real-program suite works on, made in a scratch directory before any timing: a
// tree of small files, a git repository, a SQL script of one-row transactions and a C file.
#ifndef SNARE_BENCH_PROGRAM_FIXTURES_H_
#define SNARE_BENCH_PROGRAM_FIXTURES_H_

#include <expected>
#include <string>

namespace snare::bench {

// `count` files of 1,000 bytes each under dir (created), spread over subdirectories of 100.
std::expected<void, std::string> MakeFileTree(const std::string& dir, int count);
// A git repository at dir with `count` committed files (MakeFileTree's layout).
std::expected<void, std::string> MakeGitRepository(const std::string& dir, int count);
// A sqlite3 script that (re)creates a table and inserts `rows` rows, each in a transaction
// of its own (autocommit), with synchronous=OFF so that fsync does not dominate.
std::expected<void, std::string> WriteSqlInserts(const std::string& path, int rows);
// A C file of `lines` lines: functions a compiler has to work through, and a main.
std::expected<void, std::string> WriteCSource(const std::string& path, int lines);

}  // namespace snare::bench

#endif  // SNARE_BENCH_PROGRAM_FIXTURES_H_
