// Which of the shown channels are on screen: a window of so many rows per screen (or all of them), scrolled over
// the shown channels in their order.
#pragma once

#include <cstddef>
#include <vector>

namespace lv::widgets {

class ChannelRows {
public:
    static constexpr int kPresets[] = {8, 16, 20, 32, 64}; // View > Channels per Screen, besides All

    // The channels shown, in their order; the first row on screen stays where it can.
    void setShown(std::vector<std::size_t> channels);
    const std::vector<std::size_t>& shown() const { return m_shown; }
    void setRowsPerScreen(int rows); // 0 (or less): all
    int rowsPerScreen() const { return m_rows; }
    int rowsOnScreen() const; // at most rowsPerScreen, at most the channels shown
    int first() const { return m_first; }
    int lastFirst() const;    // the greatest first row: the last screen ends at the last channel
    bool scrollTo(int first); // clamped to [0, lastFirst]; true when the rows on screen changed
    std::vector<std::size_t> onScreen() const;

private:
    std::vector<std::size_t> m_shown;
    int m_rows = 0;
    int m_first = 0;
};

} // namespace lv::widgets
