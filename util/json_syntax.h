// Where JSON text first goes wrong: nlohmann's non-throwing parse says that the text is bad
// but not where.
#ifndef SNARE_UTIL_JSON_SYNTAX_H_
#define SNARE_UTIL_JSON_SYNTAX_H_

#include <string>
#include <string_view>

namespace snare::util {

// "at line 3, column 5: syntax error while parsing object - ..." for text that does not
// parse; "parse error" when the parser gives no place.
std::string JsonSyntaxError(std::string_view text);

}  // namespace snare::util

#endif  // SNARE_UTIL_JSON_SYNTAX_H_
