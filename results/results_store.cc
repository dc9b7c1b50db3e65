#include "results/results_store.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <SQLiteCpp/VariadicBind.h>
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
#include <optional>
#include <utility>

namespace snare::results {
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

// Opens a connection to `path` (through its file: URI) that waits up to kBusyTimeoutMs for
// another connection's lock. The error is SQLite's message.
std::expected<std::unique_ptr<SQLite::Database>, std::string> Connect(const std::string& path,
                                                                      int flags) {
  try {
    return std::make_unique<SQLite::Database>(FileUri(path), flags | SQLite::OPEN_URI,
                                              ResultsStore::kBusyTimeoutMs);
  } catch (const SQLite::Exception& e) {
    return std::unexpected(std::string(e.what()));
  }
}

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

  auto db = Connect(path, SQLite::OPEN_READONLY);
  if (!db) return std::unexpected("cannot open " + path + ": " + db.error());
  int64_t version = 0;
  try {
    if (!(*db)->tableExists("snare_meta")) {
      return std::unexpected(NotSnare(path, "an SQLite database without snare's tables"));
    }
    SQLite::Statement format(**db, "SELECT value FROM snare_meta WHERE key = ?");
    format.bind(1, "format");
    if (!format.executeStep() || format.getColumn(0).getString() != kFormatMarker) {
      return std::unexpected(NotSnare(path, "its snare_meta table does not mark it as snare's"));
    }
    version = (*db)->execAndGet("PRAGMA user_version").getInt64();
  } catch (const SQLite::Exception& e) {
    if (e.getErrorCode() == SQLITE_BUSY || e.getErrorCode() == SQLITE_LOCKED) {
      return std::unexpected("cannot read " + path +
                             ": locked by another process; retry when it finishes");
    }
    return std::unexpected(NotSnare(path, std::string("SQLite: ") + e.what()));
  }
  if (version > ResultsStore::kSchemaVersion) {
    return std::unexpected("'" + path + "' holds results in schema version " +
                           std::to_string(version) + ", newer than this snare reads (" +
                           std::to_string(ResultsStore::kSchemaVersion) +
                           "): use a newer snare or choose another --db");
  }
  if (version < 1) {
    return std::unexpected(NotSnare(path, "schema version " + std::to_string(version)));
  }
  return {};
}

// Creates snare's tables in a new (empty) database, unless another process just did.
std::expected<void, std::string> Initialize(SQLite::Database& db, const std::string& path) {
  try {
    SQLite::Transaction tx(db, SQLite::TransactionBehavior::IMMEDIATE);
    if (db.execAndGet("SELECT count(*) FROM sqlite_master").getInt64() != 0) {
      if (!db.tableExists("snare_meta")) {
        return std::unexpected(NotSnare(path, "an SQLite database without snare's tables"));
      }
      return {};  // Another snare created it between our check and now.
    }
    db.exec(kSchema);
    SQLite::Statement mark(db, "INSERT INTO snare_meta(key, value) VALUES(?, ?)");
    SQLite::bind(mark, "format", kFormatMarker);
    mark.exec();
    // PRAGMA takes no bound parameters; the version is a compile-time constant.
    db.exec("PRAGMA user_version = " + std::to_string(ResultsStore::kSchemaVersion));
    tx.commit();
  } catch (const SQLite::Exception& e) {
    return std::unexpected(CannotWrite(path, e.what()));
  }
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

ResultsStore::ResultsStore(std::string path, std::unique_ptr<SQLite::Database> db)
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
  int flags = writable ? SQLite::OPEN_READWRITE : SQLite::OPEN_READONLY;
  if (create) flags |= SQLite::OPEN_CREATE;

  auto db = Connect(path, flags);
  if (!db) {
    return std::unexpected(create ? CannotWrite(path, db.error())
                                  : "cannot open " + path + ": " + db.error());
  }
  (*db)->tryExec("PRAGMA foreign_keys = ON");
  if (fresh) {
    if (auto ok = Initialize(**db, path); !ok) return std::unexpected(ok.error());
  }
  return ResultsStore(path, std::move(*db));
}

std::expected<int64_t, std::string> ResultsStore::Save(const BenchRun& run) {
  if (sqlite3_db_readonly(db_->getHandle(), "main") == 1) {
    return std::unexpected(CannotWrite(path_, "no write permission"));
  }
  auto fail = [&](const std::string& what) {
    return std::unexpected("cannot save the run to " + path_ + ": " + what + "; nothing was saved");
  };
  // Rolls back, when destroyed before commit(), everything below.
  std::optional<SQLite::Transaction> tx;
  try {
    tx.emplace(*db_, SQLite::TransactionBehavior::IMMEDIATE);
  } catch (const SQLite::Exception& e) {
    if (e.getErrorCode() == SQLITE_BUSY) {
      return fail("another process kept the database locked for " +
                  std::to_string(kBusyTimeoutMs / 1000) + " s; retry when it finishes");
    }
    return fail(e.what());
  }
  int64_t id = 0;
  try {
    SQLite::Statement insert_run(
        *db_,
        "INSERT INTO runs(started_at, kernel, kernel_variant, cpu_model, cores, revision, "
        "command, quick, duration_s) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)");
    SQLite::bind(insert_run, run.started_at, run.kernel, run.kernel_variant, run.cpu_model,
                 static_cast<int64_t>(run.cores), run.revision, run.command,
                 static_cast<int64_t>(run.quick ? 1 : 0), run.duration_s);
    insert_run.exec();
    id = db_->getLastInsertRowid();
  } catch (const SQLite::Exception& e) {
    return fail(std::string("run: ") + e.what());
  }

  std::optional<SQLite::Statement> insert_row;  // prepared with the first row
  for (size_t i = 0; i < run.rows.size(); ++i) {
    const BenchRow& row = run.rows[i];
    if (!std::isfinite(row.value)) {
      return fail(RowLabel(i, row) + ": the value is not a finite number (no usable samples?)");
    }
    try {
      if (insert_row) {
        insert_row->reset();
      } else {
        insert_row.emplace(*db_,
                           "INSERT INTO results(run_id, suite, name, platform, params, value, "
                           "unit, samples) VALUES(?, ?, ?, ?, ?, ?, ?, ?)");
      }
      SQLite::bind(*insert_row, id, row.suite, row.name, row.platform, EncodeParams(row.params),
                   row.value, row.unit, EncodeSamples(row.samples));
      insert_row->exec();
    } catch (const SQLite::Exception& e) {
      return fail(RowLabel(i, row) + ": " + e.what());
    }
  }
  try {
    tx->commit();
  } catch (const SQLite::Exception& e) {
    return fail(std::string("commit: ") + e.what());
  }
  return id;
}

namespace {

constexpr char kRunColumns[] =
    "SELECT id, started_at, kernel, kernel_variant, cpu_model, cores, revision, command, "
    "quick, duration_s FROM runs";

double RealOrNan(const SQLite::Column& column) {
  return column.isNull() ? std::numeric_limits<double>::quiet_NaN() : column.getDouble();
}

BenchRun RunFrom(const SQLite::Statement& s) {
  BenchRun run;
  run.id = s.getColumn(0).getInt64();
  run.started_at = s.getColumn(1).getString();
  run.kernel = s.getColumn(2).getString();
  run.kernel_variant = s.getColumn(3).getString();
  run.cpu_model = s.getColumn(4).getString();
  run.cores = static_cast<int>(s.getColumn(5).getInt64());
  run.revision = s.getColumn(6).getString();
  run.command = s.getColumn(7).getString();
  run.quick = s.getColumn(8).getInt64() != 0;
  run.duration_s = RealOrNan(s.getColumn(9));
  return run;
}

}  // namespace

std::expected<std::vector<BenchRun>, std::string> ResultsStore::ListRuns() {
  try {
    SQLite::Statement list(*db_, std::string(kRunColumns) + " ORDER BY id");
    std::vector<BenchRun> runs;
    while (list.executeStep()) runs.push_back(RunFrom(list));
    return runs;
  } catch (const SQLite::Exception& e) {
    return std::unexpected("cannot list runs in " + path_ + ": " + e.what());
  }
}

std::expected<BenchRun, std::string> ResultsStore::Load(int64_t id) {
  auto fail = [&](const std::string& what) {
    return std::unexpected("cannot load run " + std::to_string(id) + " from " + path_ + ": " +
                           what);
  };
  // Why there is no run `id`: which ids there are, or that there are none.
  auto no_such_run = [&]() -> std::string {
    try {
      SQLite::Statement range(*db_, "SELECT min(id), max(id), count(*) FROM runs");
      if (range.executeStep() && range.getColumn(2).getInt64() > 0) {
        return "no run " + std::to_string(id) + " in " + path_ + " (it holds " +
               std::to_string(range.getColumn(2).getInt64()) + " runs, ids " +
               std::to_string(range.getColumn(0).getInt64()) + " to " +
               std::to_string(range.getColumn(1).getInt64()) + ")";
      }
    } catch (const SQLite::Exception&) {
      // Without the range, say only that the run is missing.
    }
    return "no runs stored in " + path_ + ": run `snare bench` first";
  };
  try {
    SQLite::Statement select_run(*db_, std::string(kRunColumns) + " WHERE id = ?");
    select_run.bind(1, id);
    if (!select_run.executeStep()) return std::unexpected(no_such_run());
    BenchRun run = RunFrom(select_run);

    SQLite::Statement select_rows(
        *db_,
        "SELECT suite, name, platform, params, value, unit, samples FROM results "
        "WHERE run_id = ? ORDER BY rowid");
    select_rows.bind(1, id);
    while (select_rows.executeStep()) {
      BenchRow row;
      row.suite = select_rows.getColumn(0).getString();
      row.name = select_rows.getColumn(1).getString();
      row.platform = select_rows.getColumn(2).getString();
      auto params = DecodeParams(select_rows.getColumn(3).getString());
      if (!params) return fail(RowLabel(run.rows.size(), row) + ": " + params.error());
      row.params = std::move(*params);
      row.value = RealOrNan(select_rows.getColumn(4));
      row.unit = select_rows.getColumn(5).getString();
      auto samples = DecodeSamples(select_rows.getColumn(6).getString());
      if (!samples) return fail(RowLabel(run.rows.size(), row) + ": " + samples.error());
      row.samples = std::move(*samples);
      run.rows.push_back(std::move(row));
    }
    return run;
  } catch (const SQLite::Exception& e) {
    return fail(e.what());
  }
}

std::expected<int64_t, std::string> ResultsStore::Latest() {
  try {
    const SQLite::Column latest = db_->execAndGet("SELECT max(id) FROM runs");
    if (latest.isNull()) {
      return std::unexpected("no runs stored in " + path_ + ": run `snare bench` first");
    }
    return latest.getInt64();
  } catch (const SQLite::Exception& e) {
    return std::unexpected("cannot read " + path_ + ": " + e.what());
  }
}

}  // namespace snare::results
