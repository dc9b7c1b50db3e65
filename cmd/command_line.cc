#include "cmd/command_line.h"

#include <cstdio>
#include <memory>

namespace snare::cmd {
namespace {

// CLI11's help, with our usage line instead of its generated one.
class UsageFormatter : public CLI::Formatter {
 public:
  explicit UsageFormatter(std::string usage) : usage_(std::move(usage)) {}
  std::string make_usage(const CLI::App*, std::string) const override {
    return "usage: " + usage_ + "\n";
  }
  // "--stats{table}" (CLI11's spelling of a flag's default value) shows as "--stats".
  std::string make_option_name(const CLI::Option* opt, bool positional) const override {
    std::string name = CLI::Formatter::make_option_name(opt, positional);
    const size_t brace = name.find('{');
    return brace == std::string::npos ? name : name.substr(0, brace);
  }

 private:
  std::string usage_;
};

std::string Usage(const CLI::App& app) {
  auto formatter = std::dynamic_pointer_cast<UsageFormatter>(app.get_formatter());
  return formatter ? formatter->make_usage(&app, "") : "";
}

}  // namespace

void SetUpApp(CLI::App& app, std::string usage) {
  app.formatter(std::make_shared<UsageFormatter>(std::move(usage)));
  // An option given twice means its last value, as in most Unix tools.
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.set_help_flag("-h,--help", "print this help and exit");
  app.get_formatter()->column_width(32);
}

ParseExit UsageError(const CLI::App& app, const std::string& message) {
  return {2, app.get_name() + ": " + message + "\n" + Usage(app) + "(" + app.get_name() +
                 " --help lists every option)\n"};
}

std::expected<void, ParseExit> ParseArgs(CLI::App& app, const std::vector<std::string>& args) {
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 pops from the back
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    return std::unexpected(ParseExit{0, app.help()});
  } catch (const CLI::ExtrasError& e) {
    // "The following argument was not expected: X" -> "unknown argument 'X'".
    std::string what = e.what();
    const size_t colon = what.find(": ");
    std::string extra = colon == std::string::npos ? what : what.substr(colon + 2);
    extra = extra.substr(0, extra.find(' '));
    return std::unexpected(UsageError(app, "unknown argument '" + extra + "'"));
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    // CLI11 names an option with no value "--x: 1 required TEXT missing".
    if (what.find("required") != std::string::npos && what.find("missing") != std::string::npos) {
      what = what.substr(0, what.find(':')) + " needs a value";
    }
    return std::unexpected(UsageError(app, what));
  }
  return {};
}

int Report(const ParseExit& exit) {
  fputs(exit.text.c_str(), exit.status == 0 ? stdout : stderr);
  return exit.status;
}

std::vector<std::string> SplitList(const std::string& value) {
  std::vector<std::string> items;
  size_t start = 0;
  while (!value.empty() && start <= value.size()) {
    size_t comma = value.find(',', start);
    if (comma == std::string::npos) comma = value.size();
    items.push_back(value.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

std::string CheckList(std::string_view flag, const std::string& value,
                      const std::vector<std::string>& known) {
  for (const std::string& item : SplitList(value.empty() ? "," : value)) {
    bool ok = false;
    for (const auto& k : known) ok = ok || k == item;
    if (!ok) {
      std::string names;
      for (const auto& k : known) names += (names.empty() ? "" : ", ") + k;
      return "unknown name '" + item + "' in " + std::string(flag) + " (known: " + names + ")";
    }
  }
  return "";
}

}  // namespace snare::cmd
