// One CSV text cell (a channel name, a unit, an annotation text): quoted per RFC 4180, kept from running as a
// spreadsheet formula. Numbers are written as they are and never pass through here.
#pragma once

#include <string>
#include <string_view>

namespace lv::convert {

// A text a spreadsheet would run as a formula (starting with '=', '+', '-', '@', tab or CR) gets a leading "'"
// (OWASP's advice for CSV injection), so it stays text; then a cell holding ',', '"', CR or LF is put in double
// quotes with inner quotes doubled (RFC 4180). Other text is returned unchanged. `delimiter` is the table's cell
// separator (',', ';' or tab): a cell holding it is quoted.
std::string csvTextCell(std::string_view text, char delimiter = ',');

} // namespace lv::convert
