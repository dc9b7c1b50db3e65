#include "util/json_syntax.h"

#include <nlohmann/json.hpp>

namespace snare::util {
namespace {

using Json = nlohmann::json;

// Keeps the message of the first syntax error only.
class SyntaxError : public nlohmann::json_sax<Json> {
 public:
  const std::string& message() const { return message_; }

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string&,
                   const nlohmann::detail::exception& ex) override {
    // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error ..."
    message_ = ex.what();
    const size_t at = message_.find(" at line ");
    if (at != std::string::npos) message_ = message_.substr(at + 1);
    return false;
  }

 private:
  std::string message_;
};

}  // namespace

std::string JsonSyntaxError(std::string_view text) {
  SyntaxError error;
  Json::sax_parse(text, &error);
  return error.message().empty() ? "parse error" : error.message();
}

}  // namespace snare::util
