#include "results/results_store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace snare::results {
namespace {

namespace fs = std::filesystem;

std::string TempDir() {
  const char* dir = getenv("TEST_TMPDIR");
  return dir ? dir : fs::temp_directory_path().string();
}

// A fresh path under the test's temporary directory, in a directory that does not exist yet.
std::string FreshPath(const std::string& name) {
  static int counter = 0;
  std::string dir =
      TempDir() + "/store" + std::to_string(getpid()) + "_" + std::to_string(counter++);
  fs::remove_all(dir);
  return dir + "/sub/" + name;
}

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteBytes(const std::string& path, const std::string& bytes) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << bytes;
}

// Runs SQL on the file through a connection of its own; returns the first column of the
// first row as an integer (or -1).
int64_t QueryInt(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  int64_t result = -1;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK &&
      sqlite3_step(stmt) == SQLITE_ROW) {
    result = sqlite3_column_int64(stmt, 0);
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return result;
}

BenchRun SampleRun() {
  BenchRun run;
  run.started_at = "2026-11-29T10:00:00Z";
  run.kernel = "6.1.0-28-amd64";
  run.kernel_variant = "stock";
  run.cpu_model = "Intel(R) Xeon(R) CPU @ 2.20GHz";
  run.cores = 2;
  run.revision = "0123abcd";
  run.command = "snare bench --quick --suite='ladder depth'";
  run.quick = true;
  run.duration_s = 95.25;
  run.rows = {
      {"ladder", "native", "native", {{"syscall", "getppid"}}, 61.5, "ns/call", {61, 61.5, 62}},
      {"ladder",
       "signal-floor",
       "native",
       {{"syscall", "getppid"}},
       951,
       "ns/call",
       {950, 951, 0.1 + 0.2}},
      {"depth",
       "depth-8",
       "native",
       {{"depth", "8"}, {"caller_depth", "2"}},
       1072,
       "ns/trap",
       {1072}},
      {"contention",
       "same-ns",
       "native",
       {{"tasks", "2"}, {"mode", "same-ns"}},
       870000,
       "traps/s",
       {}},
      {"peer", "getppid \"loop\" ünïcode", "proot", {}, 83900, "ns/call", {83900, NAN}},
  };
  return run;
}

TEST(ResultsStoreTest, SavesAndLoadsARunWithItsRows) {
  const std::string path = FreshPath("results.db");
  auto store = ResultsStore::Open(path, /*create=*/true);
  ASSERT_TRUE(store.has_value()) << store.error();
  EXPECT_EQ(store->path(), path);

  BenchRun run = SampleRun();
  auto id = store->Save(run);
  ASSERT_TRUE(id.has_value()) << id.error();

  // A second connection (a later `snare report`) sees the same data.
  auto reopened = ResultsStore::Open(path, /*create=*/false);
  ASSERT_TRUE(reopened.has_value()) << reopened.error();
  auto loaded = reopened->Load(*id);
  ASSERT_TRUE(loaded.has_value()) << loaded.error();
  EXPECT_EQ(loaded->id, *id);
  EXPECT_EQ(loaded->started_at, run.started_at);
  EXPECT_EQ(loaded->kernel, run.kernel);
  EXPECT_EQ(loaded->kernel_variant, run.kernel_variant);
  EXPECT_EQ(loaded->cpu_model, run.cpu_model);
  EXPECT_EQ(loaded->cores, run.cores);
  EXPECT_EQ(loaded->revision, run.revision);
  EXPECT_EQ(loaded->command, run.command);
  EXPECT_EQ(loaded->quick, run.quick);
  EXPECT_EQ(loaded->duration_s, run.duration_s);
  ASSERT_EQ(loaded->rows.size(), run.rows.size());
  for (size_t i = 0; i < run.rows.size(); ++i) {
    SCOPED_TRACE("row " + std::to_string(i));
    const BenchRow& want = run.rows[i];
    const BenchRow& got = loaded->rows[i];
    EXPECT_EQ(got.suite, want.suite);
    EXPECT_EQ(got.name, want.name);
    EXPECT_EQ(got.platform, want.platform);
    EXPECT_EQ(got.params, want.params);
    EXPECT_EQ(got.value, want.value);
    EXPECT_EQ(got.unit, want.unit);
    ASSERT_EQ(got.samples.size(), want.samples.size());
    for (size_t s = 0; s < want.samples.size(); ++s) {
      if (std::isnan(want.samples[s])) {
        EXPECT_TRUE(std::isnan(got.samples[s]));
      } else {
        EXPECT_EQ(got.samples[s], want.samples[s]);  // bit-exact, 0.1 + 0.2 included
      }
    }
  }
  // params are stored as a JSON object with sorted keys.
  EXPECT_EQ(QueryInt(path,
                     "SELECT count(*) FROM results WHERE params = "
                     "'{\"caller_depth\":\"2\",\"depth\":\"8\"}'"),
            1);
  EXPECT_EQ(QueryInt(path, "PRAGMA user_version"), ResultsStore::kSchemaVersion);
}

TEST(ResultsStoreTest, ListsRunsOldestFirstWithoutRowsAndFindsTheLatest) {
  const std::string path = FreshPath("results.db");
  auto store = ResultsStore::Open(path, true);
  ASSERT_TRUE(store.has_value()) << store.error();

  auto none = store->Latest();
  ASSERT_FALSE(none.has_value());
  EXPECT_EQ(none.error(), "no runs stored in " + path + ": run `snare bench` first");

  BenchRun first = SampleRun();
  BenchRun second = SampleRun();
  second.kernel = "6.12.0";
  second.quick = false;
  auto id1 = store->Save(first);
  auto id2 = store->Save(second);
  ASSERT_TRUE(id1.has_value() && id2.has_value());
  EXPECT_LT(*id1, *id2);

  auto latest = store->Latest();
  ASSERT_TRUE(latest.has_value()) << latest.error();
  EXPECT_EQ(*latest, *id2);

  auto runs = store->ListRuns();
  ASSERT_TRUE(runs.has_value()) << runs.error();
  ASSERT_EQ(runs->size(), 2u);
  EXPECT_EQ((*runs)[0].id, *id1);
  EXPECT_EQ((*runs)[1].id, *id2);
  EXPECT_EQ((*runs)[1].kernel, "6.12.0");
  EXPECT_FALSE((*runs)[1].quick);
  EXPECT_TRUE((*runs)[0].rows.empty());

  auto missing = store->Load(*id2 + 10);
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().find("no run " + std::to_string(*id2 + 10) + " in " + path),
            std::string::npos)
      << missing.error();
}

TEST(ResultsStoreTest, OpenWithoutCreateNeedsAnExistingDatabase) {
  const std::string path = FreshPath("results.db");
  auto store = ResultsStore::Open(path, /*create=*/false);
  ASSERT_FALSE(store.has_value());
  EXPECT_NE(store.error().find("no results database at " + path), std::string::npos)
      << store.error();
  EXPECT_FALSE(fs::exists(path));
  EXPECT_FALSE(fs::exists(fs::path(path).parent_path()));
}

TEST(ResultsStoreTest, RefusesACorruptFileWithoutTouchingIt) {
  const std::string path = FreshPath("results.db");
  std::mt19937 rng(1);
  std::string garbage(8192, '\0');
  for (char& c : garbage) c = static_cast<char>(rng());
  WriteBytes(path, garbage);

  for (bool create : {true, false}) {
    auto store = ResultsStore::Open(path, create);
    ASSERT_FALSE(store.has_value());
    EXPECT_EQ(store.error(), "'" + path +
                                 "' is not a snare results database (not an SQLite file): "
                                 "move it away or choose another --db");
  }
  EXPECT_EQ(ReadBytes(path), garbage);
  EXPECT_FALSE(fs::exists(path + "-journal"));
}

TEST(ResultsStoreTest, RefusesAFileWithAnSqliteHeaderButCorruptPages) {
  const std::string path = FreshPath("results.db");
  std::mt19937 rng(2);
  std::string garbage(8192, '\0');
  for (char& c : garbage) c = static_cast<char>(rng());
  garbage.replace(0, 16, std::string("SQLite format 3\0", 16));
  WriteBytes(path, garbage);

  auto store = ResultsStore::Open(path, true);
  ASSERT_FALSE(store.has_value());
  EXPECT_NE(store.error().find("'" + path + "' is not a snare results database (SQLite: "),
            std::string::npos)
      << store.error();
  EXPECT_NE(store.error().find("move it away or choose another --db"), std::string::npos);
  EXPECT_EQ(ReadBytes(path), garbage);
}

TEST(ResultsStoreTest, RefusesAnotherProgramsSqliteDatabaseWithoutTouchingIt) {
  const std::string path = FreshPath("other.db");
  fs::create_directories(fs::path(path).parent_path());
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE notes(text); INSERT INTO notes VALUES('mine');", nullptr,
                         nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  const std::string before = ReadBytes(path);

  auto store = ResultsStore::Open(path, true);
  ASSERT_FALSE(store.has_value());
  EXPECT_EQ(store.error(), "'" + path +
                               "' is not a snare results database (an SQLite database without "
                               "snare's tables): move it away or choose another --db");
  EXPECT_EQ(ReadBytes(path), before);
}

TEST(ResultsStoreTest, RefusesADatabaseFromANewerSchema) {
  const std::string path = FreshPath("results.db");
  ASSERT_TRUE(ResultsStore::Open(path, true).has_value());
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "PRAGMA user_version = 99", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  const std::string before = ReadBytes(path);

  auto store = ResultsStore::Open(path, true);
  ASSERT_FALSE(store.has_value());
  EXPECT_NE(store.error().find("schema version 99"), std::string::npos) << store.error();
  EXPECT_EQ(ReadBytes(path), before);
}

TEST(ResultsStoreTest, ReportsAnUnwritableLocation) {
  auto store = ResultsStore::Open("/proc/foo/x.db", true);
  ASSERT_FALSE(store.has_value());
  EXPECT_EQ(store.error().rfind("cannot write /proc/foo/x.db: ", 0), 0u) << store.error();
  EXPECT_NE(store.error().find("(choose another --db)"), std::string::npos) << store.error();
}

TEST(ResultsStoreTest, RefusesADirectory) {
  const std::string path = FreshPath("results.db");
  fs::create_directories(path);
  auto store = ResultsStore::Open(path, true);
  ASSERT_FALSE(store.has_value());
  EXPECT_NE(store.error().find("is not a snare results database (it is a directory)"),
            std::string::npos)
      << store.error();
}

TEST(ResultsStoreTest, AnEmptyFileBecomesANewDatabase) {
  // What an interrupted first Open leaves behind.
  const std::string path = FreshPath("results.db");
  WriteBytes(path, "");
  auto store = ResultsStore::Open(path, true);
  ASSERT_TRUE(store.has_value()) << store.error();
  EXPECT_TRUE(store->Save(SampleRun()).has_value());
}

TEST(ResultsStoreTest, ARowThatFailsMidRunLeavesNothingBehind) {
  const std::string path = FreshPath("results.db");
  auto store = ResultsStore::Open(path, true);
  ASSERT_TRUE(store.has_value()) << store.error();
  ASSERT_TRUE(store->Save(SampleRun()).has_value());
  const int64_t runs_before = QueryInt(path, "SELECT count(*) FROM runs");
  const int64_t rows_before = QueryInt(path, "SELECT count(*) FROM results");

  // The run row and the first rows are inserted before the last one fails.
  BenchRun bad = SampleRun();
  bad.rows.back().value = NAN;
  auto saved = store->Save(bad);
  ASSERT_FALSE(saved.has_value());
  EXPECT_NE(saved.error().find("row 5 (peer"), std::string::npos) << saved.error();
  EXPECT_NE(saved.error().find("nothing was saved"), std::string::npos) << saved.error();

  EXPECT_EQ(QueryInt(path, "SELECT count(*) FROM runs"), runs_before);
  EXPECT_EQ(QueryInt(path, "SELECT count(*) FROM results"), rows_before);
  // The connection is usable again afterwards (the transaction was rolled back).
  EXPECT_TRUE(store->Save(SampleRun()).has_value());
}

TEST(ResultsStoreTest, SaveWhileAnotherProcessHoldsTheLockFailsAndAddsNothing) {
  const std::string path = FreshPath("results.db");
  auto store = ResultsStore::Open(path, true);
  ASSERT_TRUE(store.has_value()) << store.error();
  ASSERT_TRUE(store->Save(SampleRun()).has_value());

  sqlite3* other = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &other), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(other, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK);
  auto saved = store->Save(SampleRun());
  ASSERT_FALSE(saved.has_value());
  EXPECT_NE(saved.error().find("locked"), std::string::npos) << saved.error();
  ASSERT_EQ(sqlite3_exec(other, "COMMIT", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(other);

  EXPECT_EQ(QueryInt(path, "SELECT count(*) FROM runs"), 1);
  EXPECT_EQ(QueryInt(path, "SELECT count(*) FROM results"),
            static_cast<int64_t>(SampleRun().rows.size()));
}

TEST(ResultsStoreTest, DefaultPathFollowsXdgThenHome) {
  const char* old_xdg = getenv("XDG_DATA_HOME");
  const char* old_home = getenv("HOME");
  std::string saved_xdg = old_xdg ? old_xdg : "", saved_home = old_home ? old_home : "";

  setenv("XDG_DATA_HOME", "/data/x", 1);
  setenv("HOME", "/home/u", 1);
  EXPECT_EQ(ResultsStore::DefaultPath(), "/data/x/snare/results.db");
  setenv("XDG_DATA_HOME", "relative/ignored", 1);
  EXPECT_EQ(ResultsStore::DefaultPath(), "/home/u/.local/share/snare/results.db");
  unsetenv("XDG_DATA_HOME");
  EXPECT_EQ(ResultsStore::DefaultPath(), "/home/u/.local/share/snare/results.db");

  if (old_xdg) setenv("XDG_DATA_HOME", saved_xdg.c_str(), 1);
  if (old_home) {
    setenv("HOME", saved_home.c_str(), 1);
  } else {
    unsetenv("HOME");
  }
}

}  // namespace
}  // namespace snare::results
