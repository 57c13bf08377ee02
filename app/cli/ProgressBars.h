// Progress bars on a terminal: a line per running job (fraction, samples per second, time left) and an overall
// line, redrawn in place at most five times a second; silent when stderr is not a terminal.
#pragma once

#include "convert/JobProgress.h"

#include <chrono>
#include <map>
#include <mutex>
#include <string>

namespace lv::cli {

class ProgressBars {
public:
    // Draws only when `enabled` (callers pass whether stderr is a terminal and the output is not --json).
    explicit ProgressBars(bool enabled);
    ~ProgressBars();

    // Shows job `slot` as `label` at `progress` (any thread).
    void update(std::size_t slot, const std::string& label, const convert::JobProgress& progress);
    // Job `slot` ended: its line goes.
    void remove(std::size_t slot);
    // The overall line under the jobs (empty: none).
    void setOverall(const convert::JobProgress& progress, const std::string& label);
    // Clears the bars (before a summary is printed).
    void finish();

    bool enabled() const { return m_enabled; }

private:
    void draw(bool force);

    const bool m_enabled;
    std::mutex m_mutex;
    std::map<std::size_t, std::string> m_lines; // by slot
    std::string m_overall;
    std::size_t m_drawn = 0; // lines on screen
    std::chrono::steady_clock::time_point m_last{};
};

// "label  [#####.....]  48.3%  21.4 M samples/s  ETA 0:35", at most `width` columns.
std::string progressLine(const std::string& label, const convert::JobProgress& progress, std::size_t width);

// Whether stderr is a terminal.
bool stderrIsTerminal();

} // namespace lv::cli
