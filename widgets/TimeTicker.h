// Time axis ticks for QCustomPlot: keys are seconds from the recording's start, labels wall-clock (UTC or local)
// or relative time, at steps from milliseconds to days. Included only by plot translation units.
#pragma once

#include "TimeMode.h"

#include "core/Time.h"

#include <qcustomplot.h>

namespace lv::widgets {

class TimeTicker : public QCPAxisTicker {
public:
    void setOrigin(core::Uutc origin) { m_origin = origin; }
    void setMode(TimeMode mode) { m_mode = mode; }
    // The text of a time at a tick step's precision.
    static QString format(core::Uutc origin, double seconds, double step, TimeMode mode);
    // "2025-01-01 (UTC)": the date the axis starts at, for the axis label.
    static QString dateLabel(core::Uutc origin, double seconds, TimeMode mode);

protected:
    double getTickStep(const QCPRange& range) override;
    int getSubTickCount(double tickStep) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override;

private:
    core::Uutc m_origin = 0;
    TimeMode m_mode = TimeMode::Utc;
    double m_step = 1.0;
};

} // namespace lv::widgets
