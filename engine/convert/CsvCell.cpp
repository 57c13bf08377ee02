// Formula prefix first (it is part of the cell's text), then RFC 4180 quoting of the whole cell.
#include "convert/CsvCell.h"

namespace lv::convert {

std::string csvTextCell(std::string_view text, char delimiter)
{
    std::string cell;
    if (!text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos) cell += '\'';
    cell += text;
    const char special[] = {delimiter, '"', '\r', '\n', '\0'};
    if (cell.find_first_of(special) == std::string::npos) return cell;
    std::string quoted = "\"";
    for (char c : cell) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

} // namespace lv::convert
