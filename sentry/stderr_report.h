// snare's own words on stderr at the end of a run (the stats table, the count of dropped
// trace lines). The guest may have left stderr unwritable (a terminal stopped with TCOOFF, a
// pipe nobody reads), and snare must still exit: the text goes through a non-blocking
// description of snare's own, waiting a bounded time for room, and is cut short after that.
#ifndef SNARE_SENTRY_STDERR_REPORT_H_
#define SNARE_SENTRY_STDERR_REPORT_H_

#include <chrono>
#include <string_view>

namespace snare::sentry {

// True when all of text was written, waiting at most `patience` for room each time there is
// none (once more after restarting a terminal's output). After a report that gave up, later
// ones do not wait.
bool ReportOnStderr(std::string_view text,
                    std::chrono::milliseconds patience = std::chrono::milliseconds(1000));

// Restarts a terminal's output (TCOON) when fd is one: a guest may have stopped it
// (TCOOFF), and left so it would hang whoever writes there next, the user's shell included.
// A terminal that runs is not affected.
void RestartTerminalOutput(int fd);

}  // namespace snare::sentry

#endif  // SNARE_SENTRY_STDERR_REPORT_H_
