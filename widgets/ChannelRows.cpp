// Clamped scrolling over the shown channels.
#include "ChannelRows.h"

#include <algorithm>

namespace lv::widgets {

void ChannelRows::setShown(std::vector<std::size_t> channels)
{
    m_shown = std::move(channels);
    scrollTo(m_first);
}

void ChannelRows::setRowsPerScreen(int rows)
{
    m_rows = std::max(rows, 0);
    scrollTo(m_first);
}

int ChannelRows::rowsOnScreen() const
{
    const int shown = static_cast<int>(m_shown.size());
    return m_rows > 0 ? std::min(m_rows, shown) : shown;
}

int ChannelRows::lastFirst() const { return static_cast<int>(m_shown.size()) - rowsOnScreen(); }

bool ChannelRows::scrollTo(int first)
{
    const int clamped = std::clamp(first, 0, lastFirst());
    const bool changed = clamped != m_first;
    m_first = clamped;
    return changed;
}

std::vector<std::size_t> ChannelRows::onScreen() const
{
    const auto begin = m_shown.begin() + m_first;
    return {begin, begin + rowsOnScreen()};
}

} // namespace lv::widgets
