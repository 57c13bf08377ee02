// The visible time window and how paging, steps, zoom and jumps move it inside the recording's bounds.
#pragma once

#include "core/Time.h"

namespace lv::widgets {

class ViewState {
public:
    static constexpr core::Uutc kMinimumSpan = 10'000; // 10 ms

    void setBounds(core::TimeRange bounds); // the recording; the window is kept inside it where it fits
    core::TimeRange bounds() const { return m_bounds; }
    core::TimeRange range() const { return m_range; }
    core::Uutc span() const { return m_range.duration(); }

    void setRange(core::TimeRange range);        // clamped into the bounds, span at least kMinimumSpan
    void setSpan(core::Uutc span);               // keeps the start (whole recording when span >= its length)
    void page(int pages);                        // whole pages forward (> 0) or back
    void step(double fraction);                  // a fraction of a page forward or back
    void zoom(double factor, core::Uutc anchor); // factor < 1 zooms in, keeping `anchor` where it is
    void centerOn(core::Uutc t);

private:
    core::TimeRange m_bounds{0, 1};
    core::TimeRange m_range{0, 1};
};

} // namespace lv::widgets
