// RenderPlots: gnuplot data and scripts for the ladder, depth and contention suites, and the
// images gnuplot renders from them.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bench/report.h"
#include "bench/report_format.h"
#include "results/line_fit.h"
#include "util/atomic_file.h"
#include "util/path_search.h"
#include "util/subprocess.h"

namespace snare::bench {
namespace {

using results::BenchRow;
using results::BenchRun;
using results::FitLine;

// The path of `program` in $PATH (the default path when it is unset or empty); "" if absent.
std::string FindOnPath(const std::string& program) {
  const char* env = getenv("PATH");
  return util::FindExecutable(program, env && env[0] ? env : util::kDefaultPath).value_or("");
}

// A gnuplot single-quoted string literal ('' stands for one quote inside).
std::string GpQuote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// A double-quoted string in a gnuplot data file (it has no escape for '"').
std::string DataQuote(std::string text) {
  std::replace(text.begin(), text.end(), '"', '\'');
  return "\"" + text + "\"";
}

// A number in a gnuplot data file or script, every digit a double needs; '?' (missing) when
// it is not finite.
std::string DataNumber(double v) {
  if (!std::isfinite(v)) return "?";
  return fmt::format("{:.17g}", v);
}

struct PlotSource {
  std::string name;  // "ladder": files NAME.dat, NAME.gp, NAME.FORMAT
  std::string data;
  std::string script;  // reads NAME.dat from the current directory; no terminal or output
};

std::optional<PlotSource> LadderPlot(const std::vector<const BenchRow*>& rows) {
  std::vector<std::string> syscalls, rungs;
  double lowest = std::numeric_limits<double>::infinity();
  for (const BenchRow* row : rows) {
    AddOnce(syscalls, Param(*row, "syscall"));
    AddOnce(rungs, row->name);
    if (row->value > 0 && std::isfinite(row->value)) lowest = std::min(lowest, row->value);
  }
  if (!std::isfinite(lowest)) return std::nullopt;  // nothing to draw on a log scale
  std::string data = "rung";
  for (const auto& s : syscalls) data += " " + DataQuote(s.empty() ? "ns/call" : s);
  data += "\n";
  for (const auto& rung : rungs) {
    data += DataQuote(rung);
    for (const auto& s : syscalls) {
      double v = kNaN;
      for (const BenchRow* row : rows) {
        if (row->name == rung && Param(*row, "syscall") == s && row->value > 0) {
          v = row->value;
          break;
        }
      }
      data += " " + DataNumber(v);
    }
    data += "\n";
  }
  std::string script =
      "set datafile missing '?'\n"
      "set style data histogram\n"
      "set style histogram clustered gap 1\n"
      "set style fill solid 0.8 border -1\n"
      "set logscale y\n"
      "set yrange [" +
      DataNumber(std::pow(10, std::floor(std::log10(lowest)))) +
      ":*]\n"
      "set title 'Cost of one syscall per rung'\n"
      "set ylabel 'ns/call (log scale)'\n"
      "set grid ytics\n"
      "set key top left autotitle columnheader\n"
      "set xtics rotate by -30 nomirror\n"
      "plot for [i=2:" +
      std::to_string(syscalls.size() + 1) + "] 'ladder.dat' using i:xtic(1)\n";
  return PlotSource{"ladder", data, script};
}

std::optional<PlotSource> DepthPlot(const std::vector<const BenchRow*>& rows) {
  std::string data, plots;
  int index = 0;
  auto groups = ByPlatform(rows);
  for (const auto& [platform, group] : groups) {
    std::vector<double> xs, ys;
    std::string block;
    for (const BenchRow* row : SortedBy(group, "depth")) {
      double depth = ParseNumber(Param(*row, "depth"));
      if (!std::isfinite(depth) || !std::isfinite(row->value)) continue;
      xs.push_back(depth);
      ys.push_back(row->value);
      block += DataNumber(depth) + " " + DataNumber(row->value) + "\n";
    }
    if (xs.empty()) continue;
    data += "# " + platform + "\n" + block + "\n\n";
    const std::string label = groups.size() > 1 ? platform + " " : "";
    if (!plots.empty()) plots += ", \\\n     ";
    plots += "'depth.dat' index " + std::to_string(index) + " using 1:2 with points pt 7 title " +
             GpQuote(label + "measured");
    if (auto fit = FitLine(xs, ys)) {
      std::string title = label + "fit: " + FormatNumber(fit->slope) + " ns/level";
      if (std::isfinite(fit->slope_ci95)) {
        title += " (95% CI +- " + FormatNumber(fit->slope_ci95) + ")";
      }
      plots += ", \\\n     " + DataNumber(fit->slope) + "*x + " + DataNumber(fit->intercept) +
               " with lines title " + GpQuote(title);
    }
    ++index;
  }
  if (plots.empty()) return std::nullopt;
  std::string script =
      "set datafile missing '?'\n"
      "set title 'Trap cost against user-namespace depth'\n"
      "set xlabel 'user namespace depth'\n"
      "set ylabel 'ns/trap'\n"
      "set grid\n"
      "set key top left\n"
      "set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05\n"
      "plot " +
      plots + "\n";
  return PlotSource{"depth", data, script};
}

std::optional<PlotSource> ContentionPlot(const std::vector<const BenchRow*>& rows) {
  auto groups = ByPlatform(rows);
  std::string data, plots;
  int index = 0;
  double min_tasks = std::numeric_limits<double>::infinity(), max_tasks = 0;
  std::set<double> all_tasks;
  for (const auto& [platform, group] : groups) {
    std::vector<std::string> modes = {"same-ns", "sibling-ns", "distinct-uid"};
    for (const BenchRow* row : group) AddOnce(modes, Param(*row, "mode"));
    for (const auto& mode : modes) {
      std::string block;
      for (const BenchRow* row : SortedBy(group, "tasks")) {
        double tasks = ParseNumber(Param(*row, "tasks"));
        if (Param(*row, "mode") != mode || !std::isfinite(tasks)) continue;
        min_tasks = std::min(min_tasks, tasks);
        max_tasks = std::max(max_tasks, tasks);
        all_tasks.insert(tasks);
        block += DataNumber(tasks) + " " + DataNumber(row->value) + "\n";
      }
      if (block.empty()) continue;
      data += "# " + mode + " on " + platform + "\n" + block + "\n\n";
      if (!plots.empty()) plots += ", \\\n     ";
      std::string title = groups.size() > 1 ? mode + " (" + platform + ")" : mode;
      plots += "'contention.dat' index " + std::to_string(index++) +
               " using 1:2 with linespoints pt 7 title " + GpQuote(title);
    }
  }
  if (plots.empty()) return std::nullopt;
  std::string script =
      "set title 'Traps/s per process against trapping tasks'\n"
      "set xlabel 'tasks'\n"
      "set ylabel 'traps/s per process'\n"
      "set grid\n"
      "set key bottom left\n"
      "set yrange [0:*]\n"
      "set format y '%.1s %c'\n"
      "set offsets graph 0.03, graph 0.03, 0, 0\n";
  if (min_tasks > 0 && max_tasks / min_tasks >= 8) script += "set logscale x 2\n";
  if (all_tasks.size() <= 16) {  // one tic per measured task count
    std::string tics;
    for (double t : all_tasks) tics += (tics.empty() ? "" : ", ") + DataNumber(t);
    script += "set xtics (" + tics + ")\n";
  }
  script += "plot " + plots + "\n";
  return PlotSource{"contention", data, script};
}

// The terminal for `format`: pngcairo when this gnuplot has it, else libgd's png.
std::expected<std::string, std::string> Terminal(const std::string& gnuplot,
                                                 const std::string& format) {
  if (format == "svg") return "svg size 900,560 dynamic noenhanced background rgb 'white'";
  util::SubprocessResult listing = util::RunSubprocess({gnuplot, "-e", "set terminal"});
  if (!listing.start_error.empty()) {
    return std::unexpected("running " + gnuplot + ": " + listing.start_error);
  }
  const std::string text = listing.stdout_data + listing.stderr_data;
  if (text.find("pngcairo") != std::string::npos) return "pngcairo size 900,560 noenhanced";
  if (text.find(" png ") != std::string::npos) return "png size 900,560 noenhanced";
  return std::unexpected(gnuplot + " has neither the pngcairo nor the png terminal: " +
                         "install gnuplot-nox (tools/setup.sh) or use svg");
}

// Flushes the file at `path` to disk, so that renaming it publishes its whole contents.
std::expected<void, std::string> SyncFile(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::unexpected(std::string(strerror(errno)));
  int rc = fsync(fd);
  int err = errno;
  close(fd);
  if (rc != 0) return std::unexpected(std::string(strerror(err)));
  return {};
}

}  // namespace

std::expected<std::vector<std::string>, std::string> RenderPlots(const BenchRun& run,
                                                                 const std::string& dir,
                                                                 const std::string& format) {
  if (format != "png" && format != "svg") {
    return std::unexpected("unknown plot format '" + format + "': use png or svg");
  }
  std::vector<PlotSource> plots;
  if (auto rows = RowsOf(run, "ladder"); !rows.empty()) {
    if (auto p = LadderPlot(rows)) plots.push_back(*p);
  }
  if (auto rows = RowsOf(run, "depth"); !rows.empty()) {
    if (auto p = DepthPlot(rows)) plots.push_back(*p);
  }
  if (auto rows = RowsOf(run, "contention"); !rows.empty()) {
    if (auto p = ContentionPlot(rows)) plots.push_back(*p);
  }
  if (plots.empty()) return std::vector<std::string>{};

  const std::string gnuplot = FindOnPath("gnuplot");
  if (gnuplot.empty()) return std::unexpected("gnuplot not found: run tools/setup.sh");
  auto terminal = Terminal(gnuplot, format);
  if (!terminal) return std::unexpected(terminal.error());

  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return std::unexpected("cannot create plot directory " + dir + ": " + ec.message());
  const std::string abs_dir = std::filesystem::absolute(dir, ec).string();
  if (ec) return std::unexpected("cannot resolve plot directory " + dir + ": " + ec.message());

  // gnuplot opens its output by name, following symlinks: it renders into a directory of
  // our own (mkdtemp, 0700) that nobody else can plant anything in; rename publishes.
  std::string render_dir = abs_dir + "/.snare-plots.XXXXXX";
  if (!mkdtemp(render_dir.data())) {
    return std::unexpected("cannot write plots into " + dir + ": " + strerror(errno));
  }
  struct RemoveRenderDir {
    const std::string& path;
    ~RemoveRenderDir() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  } remove_render_dir{render_dir};

  std::vector<std::string> written;
  for (const auto& plot : plots) {
    const std::string base = dir + "/" + plot.name;
    const std::string image = base + "." + format;
    const std::string script = "# snare bench run " + std::to_string(run.id) + ": " + plot.name +
                               " plot.\n"
                               "# Render again: cd into this directory, then\n"
                               "#   gnuplot -e \"set terminal " +
                               (format == "svg" ? "svg" : "pngcairo") + "; set output '" +
                               plot.name + "." + format + "'\" " + plot.name + ".gp\n" +
                               plot.script;
    for (const auto& [path, contents] :
         {std::pair{base + ".dat", plot.data}, std::pair{base + ".gp", script}}) {
      if (auto ok = util::WriteFileAtomically(path, contents); !ok)
        return std::unexpected(ok.error());
      written.push_back(path);
    }
    const std::string tmp = render_dir + "/" + plot.name + "." + format;
    const std::string setup =
        "cd " + GpQuote(abs_dir) + "; set terminal " + *terminal + "; set output " + GpQuote(tmp);
    util::SubprocessResult ran =
        util::RunSubprocess({gnuplot, "-e", setup, abs_dir + "/" + plot.name + ".gp"});
    struct stat st;
    if (ran.status != 0 || stat(tmp.c_str(), &st) != 0 || st.st_size == 0) {
      unlink(tmp.c_str());
      std::string why = !ran.start_error.empty()
                            ? ran.start_error
                            : "exit status " + std::to_string(ran.status) + ": " + ran.stderr_data;
      return std::unexpected("gnuplot failed to render " + image + " (" + why + ")");
    }
    if (auto ok = SyncFile(tmp); !ok || rename(tmp.c_str(), image.c_str()) != 0) {
      std::string why = ok ? std::string(strerror(errno)) : ok.error();
      unlink(tmp.c_str());
      return std::unexpected("cannot write " + image + ": " + why);
    }
    written.push_back(image);
  }
  return written;
}

}  // namespace snare::bench
