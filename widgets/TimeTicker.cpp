// Nice time steps (1-2-5 below a second, then 1/2/5/10/15/30 s and min, 1/2/3/6/12 h, days), ticks placed on
// whole wall-clock multiples, labels with as many fractional digits as the step needs.
#include "TimeTicker.h"

#include <QDateTime>
#include <QTimeZone>
#include <array>
#include <cmath>

namespace lv::widgets {

namespace {

constexpr std::array kSteps{0.001,  0.002,  0.005,  0.01,    0.02,    0.05,    0.1,     0.2,      0.5,     1.0,
                            2.0,    5.0,    10.0,   15.0,    30.0,    60.0,    120.0,   300.0,    600.0,   900.0,
                            1800.0, 3600.0, 7200.0, 10800.0, 21600.0, 43200.0, 86400.0, 172800.0, 604800.0};

QDateTime wallClock(core::Uutc origin, double seconds, TimeMode mode)
{
    const auto us = origin + static_cast<core::Uutc>(std::llround(seconds * 1e6));
    QDateTime t = QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(std::floor(static_cast<double>(us) / 1000.0)),
                                                 QTimeZone::utc());
    return mode == TimeMode::Local ? t.toLocalTime() : t;
}

} // namespace

QString TimeTicker::format(core::Uutc origin, double seconds, double step, TimeMode mode)
{
    if (mode == TimeMode::Relative) {
        const double s = std::abs(seconds);
        const auto whole = static_cast<long long>(std::floor(s + 1e-9));
        QString text = QString("%1%2:%3:%4")
                           .arg(seconds < 0 ? "-" : "")
                           .arg(whole / 3600)
                           .arg((whole / 60) % 60, 2, 10, QChar('0'))
                           .arg(whole % 60, 2, 10, QChar('0'));
        if (step < 1.0) {
            const int digits = step < 0.01 ? 3 : step < 0.1 ? 2 : 1;
            const double frac = s - static_cast<double>(whole);
            text += QString::number(frac, 'f', digits).mid(1);
        }
        return text;
    }
    const QDateTime t = wallClock(origin, seconds, mode);
    if (step >= 86400.0) return t.toString("yyyy-MM-dd");
    if (step >= 60.0) return t.toString("HH:mm");
    if (step >= 1.0) return t.toString("HH:mm:ss");
    if (step >= 0.1) return t.toString("HH:mm:ss.z").left(10);
    if (step >= 0.01) return t.toString("HH:mm:ss.zzz").left(11);
    return t.toString("HH:mm:ss.zzz");
}

QString TimeTicker::dateLabel(core::Uutc origin, double seconds, TimeMode mode)
{
    if (mode == TimeMode::Relative) return QStringLiteral("time from the recording's start (h:mm:ss)");
    const QDateTime t = wallClock(origin, seconds, mode);
    return t.toString("yyyy-MM-dd") + (mode == TimeMode::Utc ? QStringLiteral(" (UTC)") : QStringLiteral(" (local)"));
}

double TimeTicker::getTickStep(const QCPRange& range)
{
    const double wanted = range.size() / std::max(tickCount(), 1);
    m_step = kSteps.back();
    for (double s : kSteps)
        if (s >= wanted) {
            m_step = s;
            break;
        }
    return m_step;
}

int TimeTicker::getSubTickCount(double tickStep)
{
    if (tickStep >= 3600.0) return std::fmod(tickStep, 10800.0) == 0 ? 2 : 3;
    const double mantissa = tickStep / std::pow(10.0, std::floor(std::log10(tickStep) + 1e-9));
    return mantissa < 1.5 ? 4 : mantissa < 3 ? 1 : 4;
}

QString TimeTicker::getTickLabel(double tick, const QLocale&, QChar, int)
{
    return format(m_origin, tick, m_step, m_mode);
}

// Ticks on whole multiples of the step in the displayed clock (UTC or local), not from the recording's start.
QVector<double> TimeTicker::createTickVector(double tickStep, const QCPRange& range)
{
    double offset = 0.0; // seconds from the clock's epoch-aligned grid to the recording's start
    if (m_mode != TimeMode::Relative) {
        offset = std::fmod(static_cast<double>(m_origin % 86'400'000'000LL) / 1e6, tickStep);
        if (m_mode == TimeMode::Local)
            offset = std::fmod(offset + wallClock(m_origin, 0, m_mode).offsetFromUtc() + 86400.0 * 8, tickStep);
    }
    QVector<double> ticks;
    const double first = std::floor((range.lower + offset) / tickStep) * tickStep - offset;
    for (double t = first; t <= range.upper + tickStep && ticks.size() < 1000; t += tickStep) ticks.push_back(t);
    return ticks;
}

} // namespace lv::widgets
