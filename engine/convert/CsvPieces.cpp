// Pieces of rows formatted side by side, each in a string of its own thread.
#include "convert/CsvPieces.h"

#include <algorithm>

namespace lv::convert {

void formatInPieces(std::vector<std::string>& pieces, std::int64_t rows, core::TaskRunner* runner,
                    const std::function<void(std::string& text, std::int64_t from, std::int64_t to)>& format)
{
    const std::int64_t wanted = runner ? static_cast<std::int64_t>(runner->threadCount()) * 2 : 1;
    const auto n = static_cast<std::size_t>(std::max<std::int64_t>(1, std::min(wanted, rows)));
    pieces.resize(n);
    const auto piece = [&](std::size_t k) {
        std::string text = std::move(pieces[k]); // keeps its capacity
        text.clear();
        const auto count = static_cast<std::int64_t>(n);
        format(text, rows * static_cast<std::int64_t>(k) / count, rows * static_cast<std::int64_t>(k + 1) / count);
        pieces[k] = std::move(text);
    };
    core::runEach(runner, n, piece);
}

} // namespace lv::convert
