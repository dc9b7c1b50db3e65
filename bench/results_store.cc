#include "bench/results_store.h"

#include <fcntl.h>
#include <pwd.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <utility>

namespace snare::bench {
namespace {

using Json = nlohmann::json;

// The value of snare_meta's "format" key: what marks a file as ours.
constexpr char kFormatMarker[] = "snare bench results";

// Page 1 of every SQLite 3 database starts with these 16 bytes.
constexpr char kSqliteMagic[16] = "SQLite format 3";

constexpr char kSchema[] = R"sql(
CREATE TABLE snare_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE runs(
  id INTEGER PRIMARY KEY,
  started_at TEXT NOT NULL,
  kernel TEXT NOT NULL,
  kernel_variant TEXT NOT NULL,
  cpu_model TEXT NOT NULL,
  cores INTEGER NOT NULL,
  revision TEXT NOT NULL,
  command TEXT NOT NULL,
  quick INTEGER NOT NULL,
  duration_s REAL NOT NULL);
CREATE TABLE results(
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  suite TEXT NOT NULL,
  name TEXT NOT NULL,
  platform TEXT NOT NULL,
  params TEXT NOT NULL,
  value REAL NOT NULL,
  unit TEXT NOT NULL,
  samples TEXT NOT NULL);
CREATE INDEX results_by_run ON results(run_id);
)sql";

std::string NotSnare(const std::string& path, const std::string& why) {
  return "'" + path + "' is not a snare results database (" + why +
         "): move it away or choose another --db";
}

std::string CannotWrite(const std::string& path, const std::string& why) {
  return "cannot write " + path + ": " + why + " (choose another --db)";
}

std::string DirectoryOf(const std::string& path) {
  std::string dir = std::filesystem::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

// A prepared statement whose parameters are bound in order, one Bind call each. The first
// failure (prepare or bind) sticks and is returned by Step.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) {
    rc_ = sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr);
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& Bind(const std::string& text) {
    if (rc_ == SQLITE_OK) {
      rc_ = sqlite3_bind_text64(stmt_, ++bound_, text.data(), text.size(), SQLITE_TRANSIENT,
                                SQLITE_UTF8);
    }
    return *this;
  }
  Statement& Bind(int64_t value) {
    if (rc_ == SQLITE_OK) rc_ = sqlite3_bind_int64(stmt_, ++bound_, value);
    return *this;
  }
  Statement& Bind(double value) {
    if (rc_ == SQLITE_OK) rc_ = sqlite3_bind_double(stmt_, ++bound_, value);
    return *this;
  }

  // SQLITE_ROW, SQLITE_DONE or an error code (the message is sqlite3_errmsg's).
  int Step() { return rc_ == SQLITE_OK ? sqlite3_step(stmt_) : rc_; }

  // Makes the statement ready to run again with new parameters.
  void Reset() {
    if (rc_ != SQLITE_OK || !stmt_) return;
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
    bound_ = 0;
  }

  bool IsNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
  int64_t Int(int col) const { return sqlite3_column_int64(stmt_, col); }
  double Real(int col) const {
    return IsNull(col) ? std::numeric_limits<double>::quiet_NaN()
                       : sqlite3_column_double(stmt_, col);
  }
  std::string Text(int col) const {
    const unsigned char* text = sqlite3_column_text(stmt_, col);
    if (!text) return "";
    return std::string(reinterpret_cast<const char*>(text),
                       static_cast<size_t>(sqlite3_column_bytes(stmt_, col)));
  }

 private:
  sqlite3_stmt* stmt_ = nullptr;
  int rc_ = SQLITE_OK;
  int bound_ = 0;
};

// Percent-encodes a file name for an SQLite "file:" URI.
std::string FileUri(const std::string& path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string uri = "file:";
  for (unsigned char c : path) {
    if (isalnum(c) || strchr("/-._~", c)) {
      uri += static_cast<char>(c);
    } else {
      uri += '%';
      uri += kHex[c >> 4];
      uri += kHex[c & 15];
    }
  }
  return uri;
}

struct Closer {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};

// Checks, through a read-only connection that cannot modify the file, that an existing,
// non-empty file is a snare results database of a schema version this snare reads.
std::expected<void, std::string> CheckIsSnareDatabase(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::unexpected("cannot read " + path + ": " + strerror(errno));
  char header[sizeof(kSqliteMagic)] = {};
  ssize_t got = read(fd, header, sizeof(header));
  close(fd);
  if (got != static_cast<ssize_t>(sizeof(header)) ||
      memcmp(header, kSqliteMagic, sizeof(header)) != 0) {
    return std::unexpected(NotSnare(path, "not an SQLite file"));
  }

  sqlite3* raw = nullptr;
  int rc =
      sqlite3_open_v2(FileUri(path).c_str(), &raw, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
  std::unique_ptr<sqlite3, Closer> db(raw);
  if (rc != SQLITE_OK) {
    return std::unexpected("cannot open " + path + ": " +
                           (raw ? sqlite3_errmsg(raw) : sqlite3_errstr(rc)));
  }
  sqlite3_busy_timeout(db.get(), ResultsStore::kBusyTimeoutMs);
  auto sqlite_error = [&](int code) {
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED) {
      return "cannot read " + path + ": locked by another process; retry when it finishes";
    }
    return NotSnare(path, std::string("SQLite: ") + sqlite3_errmsg(db.get()));
  };

  Statement has_meta(db.get(),
                     "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?");
  has_meta.Bind(std::string("snare_meta"));
  if (int code = has_meta.Step(); code != SQLITE_ROW) return std::unexpected(sqlite_error(code));
  if (has_meta.Int(0) == 0) {
    return std::unexpected(NotSnare(path, "an SQLite database without snare's tables"));
  }
  Statement format(db.get(), "SELECT value FROM snare_meta WHERE key = ?");
  format.Bind(std::string("format"));
  int code = format.Step();
  if (code != SQLITE_ROW && code != SQLITE_DONE) return std::unexpected(sqlite_error(code));
  if (code == SQLITE_DONE || format.Text(0) != kFormatMarker) {
    return std::unexpected(NotSnare(path, "its snare_meta table does not mark it as snare's"));
  }
  Statement version(db.get(), "PRAGMA user_version");
  if (code = version.Step(); code != SQLITE_ROW) return std::unexpected(sqlite_error(code));
  const int64_t v = version.Int(0);
  if (v > ResultsStore::kSchemaVersion) {
    return std::unexpected("'" + path + "' holds results in schema version " + std::to_string(v) +
                           ", newer than this snare reads (" +
                           std::to_string(ResultsStore::kSchemaVersion) +
                           "): use a newer snare or choose another --db");
  }
  if (v < 1) return std::unexpected(NotSnare(path, "schema version " + std::to_string(v)));
  return {};
}

// Rolls back an open transaction unless Commit succeeded.
class Transaction {
 public:
  explicit Transaction(sqlite3* db) : db_(db) {}
  ~Transaction() {
    if (open_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  int Begin() {
    int rc = sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
    open_ = rc == SQLITE_OK;
    return rc;
  }
  int Commit() {
    int rc = sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr);
    if (rc == SQLITE_OK) open_ = false;
    return rc;
  }

 private:
  sqlite3* db_;
  bool open_ = false;
};

// Creates snare's tables in a new (empty) database, unless another process just did.
std::expected<void, std::string> Initialize(sqlite3* db, const std::string& path) {
  auto fail = [&] { return std::unexpected(CannotWrite(path, sqlite3_errmsg(db))); };
  Transaction tx(db);
  if (tx.Begin() != SQLITE_OK) return fail();
  Statement tables(db, "SELECT count(*) FROM sqlite_master");
  if (tables.Step() != SQLITE_ROW) return fail();
  if (tables.Int(0) != 0) {
    Statement has_meta(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?");
    has_meta.Bind(std::string("snare_meta"));
    if (has_meta.Step() != SQLITE_ROW) return fail();
    if (has_meta.Int(0) == 0) {
      return std::unexpected(NotSnare(path, "an SQLite database without snare's tables"));
    }
    return {};  // Another snare created it between our check and now.
  }
  if (sqlite3_exec(db, kSchema, nullptr, nullptr, nullptr) != SQLITE_OK) return fail();
  Statement mark(db, "INSERT INTO snare_meta(key, value) VALUES(?, ?)");
  mark.Bind(std::string("format")).Bind(std::string(kFormatMarker));
  if (mark.Step() != SQLITE_DONE) return fail();
  // PRAGMA takes no bound parameters; the version is a compile-time constant.
  const std::string set_version =
      "PRAGMA user_version = " + std::to_string(ResultsStore::kSchemaVersion);
  if (sqlite3_exec(db, set_version.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) {
    return fail();
  }
  if (tx.Commit() != SQLITE_OK) return fail();
  return {};
}

std::string EncodeParams(const std::map<std::string, std::string>& params) {
  Json object = Json::object();  // std::map-backed: keys come out sorted
  for (const auto& [key, value] : params) object[key] = value;
  return object.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string EncodeSamples(const std::vector<double>& samples) {
  Json array = Json::array();
  for (double s : samples) array.push_back(s);  // NaN and infinities become null
  return array.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::expected<std::map<std::string, std::string>, std::string> DecodeParams(
    const std::string& text) {
  Json object = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (object.is_discarded() || !object.is_object()) {
    return std::unexpected("params is not a JSON object: " + text);
  }
  std::map<std::string, std::string> params;
  for (const auto& [key, value] : object.items()) {
    params[key] = value.is_string() ? value.get<std::string>()
                                    : value.dump(-1, ' ', false, Json::error_handler_t::replace);
  }
  return params;
}

std::expected<std::vector<double>, std::string> DecodeSamples(const std::string& text) {
  Json array = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (array.is_discarded() || !array.is_array()) {
    return std::unexpected("samples is not a JSON array: " + text);
  }
  std::vector<double> samples;
  for (const auto& s : array) {
    if (s.is_number()) {
      samples.push_back(s.get<double>());
    } else if (s.is_null()) {
      samples.push_back(std::numeric_limits<double>::quiet_NaN());
    } else {
      return std::unexpected("samples holds a non-number: " + text);
    }
  }
  return samples;
}

std::string RowLabel(size_t index, const BenchRow& row) {
  return "row " + std::to_string(index + 1) + " (" + row.suite + " " + row.name + " on " +
         row.platform + ")";
}

}  // namespace

void ResultsStore::Closer::operator()(sqlite3* db) const { sqlite3_close_v2(db); }

ResultsStore::ResultsStore(std::string path, Connection db)
    : path_(std::move(path)), db_(std::move(db)) {}
ResultsStore::ResultsStore(ResultsStore&&) noexcept = default;
ResultsStore& ResultsStore::operator=(ResultsStore&&) noexcept = default;
ResultsStore::~ResultsStore() = default;

std::string ResultsStore::DefaultPath() {
  const char* xdg = getenv("XDG_DATA_HOME");
  // The XDG spec says to ignore a relative XDG_DATA_HOME.
  if (xdg && xdg[0] == '/') return std::string(xdg) + "/snare/results.db";
  std::string home;
  if (const char* h = getenv("HOME"); h && h[0]) {
    home = h;
  } else {
    passwd pw;
    passwd* found = nullptr;
    char buf[4096];
    if (getpwuid_r(getuid(), &pw, buf, sizeof(buf), &found) == 0 && found) home = pw.pw_dir;
  }
  return (home.empty() ? std::string(".") : home) + "/.local/share/snare/results.db";
}

std::expected<ResultsStore, std::string> ResultsStore::Open(const std::string& path, bool create) {
  if (path.empty()) return std::unexpected("empty results database path: choose a --db");
  struct stat st;
  const bool exists = stat(path.c_str(), &st) == 0;
  if (!exists && errno != ENOENT) {
    const std::string why = strerror(errno);
    return std::unexpected(create ? CannotWrite(path, why) : "cannot read " + path + ": " + why);
  }
  if (exists && S_ISDIR(st.st_mode)) return std::unexpected(NotSnare(path, "it is a directory"));
  if (exists && !S_ISREG(st.st_mode)) {
    return std::unexpected(NotSnare(path, "not a regular file"));
  }
  // An empty file is what an interrupted first Open leaves (SQLite creates the file before
  // the schema transaction commits); treat it as no database yet.
  const bool fresh = !exists || st.st_size == 0;
  if (!fresh) {
    if (auto ok = CheckIsSnareDatabase(path); !ok) return std::unexpected(ok.error());
  } else if (!create) {
    if (!exists) {
      return std::unexpected("no results database at " + path +
                             ": run `snare bench` first, or choose another --db");
    }
    return std::unexpected("no runs stored in " + path + ": run `snare bench` first");
  }

  const std::string dir = DirectoryOf(path);
  if (create) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return std::unexpected(CannotWrite(path, "cannot create " + dir + ": " + ec.message()));
    // SQLite writes a journal next to the database, so the directory must be writable too.
    if (access(dir.c_str(), W_OK | X_OK) != 0) {
      return std::unexpected(CannotWrite(path, "directory " + dir + ": " + strerror(errno)));
    }
    if (exists && access(path.c_str(), W_OK) != 0) {
      return std::unexpected(CannotWrite(path, strerror(errno)));
    }
  }
  const bool writable =
      create || (access(path.c_str(), W_OK) == 0 && access(dir.c_str(), W_OK | X_OK) == 0);
  int flags = writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY;
  if (create) flags |= SQLITE_OPEN_CREATE;

  sqlite3* raw = nullptr;
  int rc = sqlite3_open_v2(FileUri(path).c_str(), &raw, flags | SQLITE_OPEN_URI, nullptr);
  Connection db(raw);
  if (rc != SQLITE_OK) {
    const std::string why = raw ? sqlite3_errmsg(raw) : sqlite3_errstr(rc);
    return std::unexpected(create ? CannotWrite(path, why) : "cannot open " + path + ": " + why);
  }
  sqlite3_busy_timeout(db.get(), kBusyTimeoutMs);
  sqlite3_exec(db.get(), "PRAGMA foreign_keys = ON", nullptr, nullptr, nullptr);
  if (fresh) {
    if (auto ok = Initialize(db.get(), path); !ok) return std::unexpected(ok.error());
  }
  return ResultsStore(path, std::move(db));
}

std::expected<int64_t, std::string> ResultsStore::Save(const BenchRun& run) {
  sqlite3* db = db_.get();
  if (sqlite3_db_readonly(db, "main") == 1) {
    return std::unexpected(CannotWrite(path_, "no write permission"));
  }
  auto fail = [&](const std::string& what) {
    return std::unexpected("cannot save the run to " + path_ + ": " + what + "; nothing was saved");
  };
  Transaction tx(db);
  if (int rc = tx.Begin(); rc != SQLITE_OK) {
    if (rc == SQLITE_BUSY) {
      return fail("another process kept the database locked for " +
                  std::to_string(kBusyTimeoutMs / 1000) + " s; retry when it finishes");
    }
    return fail(sqlite3_errmsg(db));
  }
  Statement insert_run(db,
                       "INSERT INTO runs(started_at, kernel, kernel_variant, cpu_model, cores, "
                       "revision, command, quick, duration_s) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)");
  insert_run.Bind(run.started_at)
      .Bind(run.kernel)
      .Bind(run.kernel_variant)
      .Bind(run.cpu_model)
      .Bind(static_cast<int64_t>(run.cores))
      .Bind(run.revision)
      .Bind(run.command)
      .Bind(static_cast<int64_t>(run.quick ? 1 : 0))
      .Bind(run.duration_s);
  if (insert_run.Step() != SQLITE_DONE) return fail(std::string("run: ") + sqlite3_errmsg(db));
  const int64_t id = sqlite3_last_insert_rowid(db);

  Statement insert_row(db,
                       "INSERT INTO results(run_id, suite, name, platform, params, value, unit, "
                       "samples) VALUES(?, ?, ?, ?, ?, ?, ?, ?)");
  for (size_t i = 0; i < run.rows.size(); ++i) {
    const BenchRow& row = run.rows[i];
    if (!std::isfinite(row.value)) {
      return fail(RowLabel(i, row) + ": the value is not a finite number (no usable samples?)");
    }
    insert_row.Reset();
    insert_row.Bind(id)
        .Bind(row.suite)
        .Bind(row.name)
        .Bind(row.platform)
        .Bind(EncodeParams(row.params))
        .Bind(row.value)
        .Bind(row.unit)
        .Bind(EncodeSamples(row.samples));
    if (insert_row.Step() != SQLITE_DONE) {
      return fail(RowLabel(i, row) + ": " + sqlite3_errmsg(db));
    }
  }
  if (tx.Commit() != SQLITE_OK) return fail(std::string("commit: ") + sqlite3_errmsg(db));
  return id;
}

namespace {

constexpr char kRunColumns[] =
    "SELECT id, started_at, kernel, kernel_variant, cpu_model, cores, revision, command, "
    "quick, duration_s FROM runs";

BenchRun RunFrom(const Statement& s) {
  BenchRun run;
  run.id = s.Int(0);
  run.started_at = s.Text(1);
  run.kernel = s.Text(2);
  run.kernel_variant = s.Text(3);
  run.cpu_model = s.Text(4);
  run.cores = static_cast<int>(s.Int(5));
  run.revision = s.Text(6);
  run.command = s.Text(7);
  run.quick = s.Int(8) != 0;
  run.duration_s = s.Real(9);
  return run;
}

}  // namespace

std::expected<std::vector<BenchRun>, std::string> ResultsStore::ListRuns() {
  Statement list(db_.get(), (std::string(kRunColumns) + " ORDER BY id").c_str());
  std::vector<BenchRun> runs;
  int rc;
  while ((rc = list.Step()) == SQLITE_ROW) runs.push_back(RunFrom(list));
  if (rc != SQLITE_DONE) {
    return std::unexpected("cannot list runs in " + path_ + ": " + sqlite3_errmsg(db_.get()));
  }
  return runs;
}

std::expected<BenchRun, std::string> ResultsStore::Load(int64_t id) {
  sqlite3* db = db_.get();
  auto fail = [&](const std::string& what) {
    return std::unexpected("cannot load run " + std::to_string(id) + " from " + path_ + ": " +
                           what);
  };
  Statement select_run(db, (std::string(kRunColumns) + " WHERE id = ?").c_str());
  select_run.Bind(id);
  int rc = select_run.Step();
  if (rc == SQLITE_DONE) {
    Statement range(db, "SELECT min(id), max(id), count(*) FROM runs");
    if (range.Step() == SQLITE_ROW && range.Int(2) > 0) {
      return std::unexpected("no run " + std::to_string(id) + " in " + path_ + " (it holds " +
                             std::to_string(range.Int(2)) + " runs, ids " +
                             std::to_string(range.Int(0)) + " to " + std::to_string(range.Int(1)) +
                             ")");
    }
    return std::unexpected("no runs stored in " + path_ + ": run `snare bench` first");
  }
  if (rc != SQLITE_ROW) return fail(sqlite3_errmsg(db));
  BenchRun run = RunFrom(select_run);

  Statement select_rows(db,
                        "SELECT suite, name, platform, params, value, unit, samples FROM results "
                        "WHERE run_id = ? ORDER BY rowid");
  select_rows.Bind(id);
  while ((rc = select_rows.Step()) == SQLITE_ROW) {
    BenchRow row;
    row.suite = select_rows.Text(0);
    row.name = select_rows.Text(1);
    row.platform = select_rows.Text(2);
    auto params = DecodeParams(select_rows.Text(3));
    if (!params) return fail(RowLabel(run.rows.size(), row) + ": " + params.error());
    row.params = std::move(*params);
    row.value = select_rows.Real(4);
    row.unit = select_rows.Text(5);
    auto samples = DecodeSamples(select_rows.Text(6));
    if (!samples) return fail(RowLabel(run.rows.size(), row) + ": " + samples.error());
    row.samples = std::move(*samples);
    run.rows.push_back(std::move(row));
  }
  if (rc != SQLITE_DONE) return fail(sqlite3_errmsg(db));
  return run;
}

std::expected<int64_t, std::string> ResultsStore::Latest() {
  Statement latest(db_.get(), "SELECT max(id) FROM runs");
  if (latest.Step() != SQLITE_ROW) {
    return std::unexpected("cannot read " + path_ + ": " + sqlite3_errmsg(db_.get()));
  }
  if (latest.IsNull(0)) {
    return std::unexpected("no runs stored in " + path_ + ": run `snare bench` first");
  }
  return latest.Int(0);
}

}  // namespace snare::bench
