// Window arithmetic in microseconds: clamping, paging, zooming about an anchor.
#include "ViewState.h"

#include <algorithm>
#include <cmath>

namespace lv::widgets {

void ViewState::setBounds(core::TimeRange bounds)
{
    m_bounds = bounds.empty() ? core::TimeRange{bounds.start, bounds.start + kMinimumSpan} : bounds;
    setRange(m_range);
}

void ViewState::setRange(core::TimeRange range)
{
    core::Uutc span = std::max(range.duration(), kMinimumSpan);
    span = std::min(span, std::max(m_bounds.duration(), kMinimumSpan));
    core::Uutc start = range.start;
    start = std::min(start, m_bounds.end - span);
    start = std::max(start, m_bounds.start);
    m_range = {start, start + span};
}

void ViewState::setSpan(core::Uutc span) { setRange({m_range.start, m_range.start + span}); }

void ViewState::page(int pages) { setRange({m_range.start + pages * span(), m_range.end + pages * span()}); }

void ViewState::step(double fraction)
{
    const auto shift = static_cast<core::Uutc>(std::llround(fraction * static_cast<double>(span())));
    setRange({m_range.start + shift, m_range.end + shift});
}

void ViewState::zoom(double factor, core::Uutc anchor)
{
    anchor = std::clamp(anchor, m_range.start, m_range.end);
    const double before = static_cast<double>(anchor - m_range.start);
    const double after = static_cast<double>(m_range.end - anchor);
    const auto start = anchor - static_cast<core::Uutc>(std::llround(before * factor));
    const auto end = anchor + static_cast<core::Uutc>(std::llround(after * factor));
    setRange({start, std::max(end, start + kMinimumSpan)});
}

void ViewState::centerOn(core::Uutc t)
{
    const core::Uutc half = span() / 2;
    setRange({t - half, t - half + span()});
}

} // namespace lv::widgets
