// Where `snare bench` keeps its results: one SQLite file holding every run and its rows, so
// that `snare report` can render, compare and plot runs later.
//
// The file holds a `snare_meta` table marking it as a snare results database, `runs` (one
// row per BenchRun) and `results` (one row per BenchRow; params is a JSON object with
// sorted keys, samples a JSON array). `PRAGMA user_version` is the schema version.
//
// Threading: a ResultsStore is one SQLite connection; use it from one thread at a time.
// Several processes may share the file: a writer waits up to kBusyTimeoutMs for another
// one's transaction to finish.
#ifndef SNARE_RESULTS_RESULTS_STORE_H_
#define SNARE_RESULTS_RESULTS_STORE_H_

#include <cstdint>
#include <expected>
#include <memory>
#include <string>
#include <vector>

#include "results/bench_result.h"

namespace SQLite {
class Database;
}  // namespace SQLite

namespace snare::results {

class ResultsStore {
 public:
  static constexpr int kSchemaVersion = 1;
  static constexpr int kBusyTimeoutMs = 2000;

  // Opens the results database at `path`. With `create`, makes missing parent directories
  // and a new database; without it, a missing file is an error and a file this process may
  // not write is opened read-only (Save then fails). Refuses, without modifying it, a file
  // that is not a snare results database (not SQLite, corrupt, another program's database,
  // or a schema newer than this snare's).
  static std::expected<ResultsStore, std::string> Open(const std::string& path, bool create);

  // $XDG_DATA_HOME/snare/results.db, else $HOME/.local/share/snare/results.db.
  static std::string DefaultPath();

  ResultsStore(ResultsStore&&) noexcept;
  ResultsStore& operator=(ResultsStore&&) noexcept;
  ~ResultsStore();

  const std::string& path() const { return path_; }

  // Stores the run and all its rows in one transaction: either everything is stored or,
  // on any error, nothing. run.id is ignored; returns the id the store assigned.
  std::expected<int64_t, std::string> Save(const BenchRun& run);

  // Every stored run, oldest first, without rows.
  std::expected<std::vector<BenchRun>, std::string> ListRuns();

  // One run with its rows, in the order they were saved.
  std::expected<BenchRun, std::string> Load(int64_t id);

  // The id of the newest run; an error when none is stored.
  std::expected<int64_t, std::string> Latest();

 private:
  ResultsStore(std::string path, std::unique_ptr<SQLite::Database> db);

  std::string path_;
  std::unique_ptr<SQLite::Database> db_;
};

}  // namespace snare::results

#endif  // SNARE_RESULTS_RESULTS_STORE_H_
