// Bars drawn with carriage return, cursor-up and clear-line escapes; the block of lines is redrawn whole.
#include "ProgressBars.h"

#include "core/TextEscape.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#ifdef _WIN32
#include <io.h>
#include <windows.h>
#else
#include <sys/ioctl.h>
#include <unistd.h>
#endif

namespace lv::cli {

namespace {

std::size_t terminalWidth()
{
#ifdef _WIN32
    CONSOLE_SCREEN_BUFFER_INFO info{};
    if (::GetConsoleScreenBufferInfo(::GetStdHandle(STD_ERROR_HANDLE), &info)) {
        const int columns = info.srWindow.Right - info.srWindow.Left + 1;
        if (columns >= 40) return static_cast<std::size_t>(columns);
    }
#else
    winsize size{};
    if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col >= 40) return size.ws_col;
#endif
    return 80;
}

std::string duration(double seconds)
{
    const long s = std::lround(std::max(0.0, seconds));
    char text[32];
    if (s >= 3600)
        std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else
        std::snprintf(text, sizeof text, "%ld:%02ld", s / 60, s % 60);
    return text;
}

std::string rate(double samplesPerSecond)
{
    char text[32];
    if (samplesPerSecond >= 1e6)
        std::snprintf(text, sizeof text, "%.1f M samples/s", samplesPerSecond / 1e6);
    else
        std::snprintf(text, sizeof text, "%.0f k samples/s", samplesPerSecond / 1e3);
    return text;
}

} // namespace

std::string progressLine(const std::string& label, const convert::JobProgress& p, std::size_t width)
{
    constexpr std::size_t kBar = 24;
    const auto filled = static_cast<std::size_t>(std::clamp(p.fraction, 0.0, 1.0) * kBar);
    char percent[16];
    std::snprintf(percent, sizeof percent, "%5.1f%%", 100.0 * p.fraction);
    std::string tail = "[" + std::string(filled, '#') + std::string(kBar - filled, '.') + "] " + percent;
    if (p.samplesPerSecond > 0) tail += "  " + rate(p.samplesPerSecond);
    tail += "  " + (p.etaSeconds >= 0 ? "ETA " + duration(p.etaSeconds) : std::string("ETA --:--"));
    std::string name = core::escapeControls(label);
    const std::size_t room = width > tail.size() + 3 ? width - tail.size() - 3 : 8;
    if (name.size() > room) name = "..." + name.substr(name.size() - (room > 3 ? room - 3 : 0));
    return name + "  " + tail;
}

#ifdef _WIN32
bool stderrIsTerminal() { return ::_isatty(::_fileno(stderr)) != 0; }
#else
bool stderrIsTerminal() { return ::isatty(STDERR_FILENO) != 0; }
#endif

ProgressBars::ProgressBars(bool enabled) : m_enabled(enabled) {}

ProgressBars::~ProgressBars() { finish(); }

void ProgressBars::update(std::size_t slot, const std::string& label, const convert::JobProgress& progress)
{
    if (!m_enabled) return;
    std::lock_guard lock(m_mutex);
    m_lines[slot] = progressLine(label, progress, terminalWidth() - 1);
    draw(false);
}

void ProgressBars::remove(std::size_t slot)
{
    if (!m_enabled) return;
    std::lock_guard lock(m_mutex);
    m_lines.erase(slot);
    draw(true);
}

void ProgressBars::setOverall(const convert::JobProgress& progress, const std::string& label)
{
    if (!m_enabled) return;
    std::lock_guard lock(m_mutex);
    m_overall = progressLine(label, progress, terminalWidth() - 1);
    draw(true);
}

void ProgressBars::finish()
{
    if (!m_enabled) return;
    std::lock_guard lock(m_mutex);
    if (m_drawn > 0) {
        std::string clear = "\r";
        if (m_drawn > 1) clear += "\x1b[" + std::to_string(m_drawn - 1) + "A";
        clear += "\x1b[J";
        std::fputs(clear.c_str(), stderr);
        std::fflush(stderr);
    }
    m_drawn = 0;
    m_lines.clear();
    m_overall.clear();
}

// Moves to the block's first line, writes every line (clearing the rest of each), clears what is left below.
void ProgressBars::draw(bool force)
{
    const auto now = std::chrono::steady_clock::now();
    if (!force && now - m_last < std::chrono::milliseconds(200)) return;
    m_last = now;
    std::string out = "\r";
    if (m_drawn > 1) out += "\x1b[" + std::to_string(m_drawn - 1) + "A";
    std::size_t lines = 0;
    const auto put = [&](const std::string& line) {
        if (lines++ > 0) out += "\n";
        out += line + "\x1b[K";
    };
    for (const auto& [slot, line] : m_lines) put(line);
    if (!m_overall.empty()) put(m_overall);
    if (lines < m_drawn) out += "\x1b[J";
    m_drawn = lines;
    std::fputs(out.c_str(), stderr);
    std::fflush(stderr);
}

} // namespace lv::cli
