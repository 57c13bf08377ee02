// A CSV table's rows formatted in pieces on a runner, written in order as the bytes one pass would give.
#pragma once

#include "core/TaskRunner.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace lv::convert {

// Cuts rows [0, rows) into two pieces per thread of `runner` (one piece without one) and calls format(text, from,
// to) for each on the runner; pieces[k] then holds piece k (the vector is reused from call to call). Each piece is
// appended to in a string on its own thread's stack: the strings of `pieces` share cache lines, and their sizes
// written from two cores at every append doubled the work (bench/README.md, CSV).
void formatInPieces(std::vector<std::string>& pieces, std::int64_t rows, core::TaskRunner* runner,
                    const std::function<void(std::string& text, std::int64_t from, std::int64_t to)>& format);

} // namespace lv::convert
