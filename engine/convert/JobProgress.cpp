// Progress from units done: the fraction scales the selected samples, the rate is the average since the start.
#include "convert/JobProgress.h"

#include <algorithm>

namespace lv::convert {

ProgressMeter::ProgressMeter(std::int64_t samplesTotal)
    : m_started(std::chrono::steady_clock::now())
    , m_total(std::max<std::int64_t>(0, samplesTotal))
{}

JobProgress ProgressMeter::update(std::uint64_t done, std::uint64_t total)
{
    const double fraction = total ? std::clamp(static_cast<double>(done) / static_cast<double>(total), 0.0, 1.0) : 1.0;
    std::lock_guard lock(m_mutex);
    m_fraction = std::max(m_fraction, fraction);
    return at(m_fraction);
}

JobProgress ProgressMeter::finished()
{
    std::lock_guard lock(m_mutex);
    m_fraction = 1.0;
    return at(1.0);
}

JobProgress ProgressMeter::at(double fraction)
{
    JobProgress p;
    p.fraction = fraction;
    p.samplesTotal = m_total;
    p.samplesDone = static_cast<std::int64_t>(fraction * static_cast<double>(m_total));
    p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_started).count();
    if (p.seconds > 0 && p.samplesDone > 0) p.samplesPerSecond = static_cast<double>(p.samplesDone) / p.seconds;
    if (fraction >= 1.0)
        p.etaSeconds = 0.0;
    else if (fraction > 0.0 && p.seconds > 0)
        p.etaSeconds = p.seconds * (1.0 - fraction) / fraction;
    return p;
}

} // namespace lv::convert
