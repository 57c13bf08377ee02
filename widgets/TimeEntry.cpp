// Each accepted form is rewritten into one that core::parseTimeArgument reads, so the engine's rules apply.
#include "TimeEntry.h"

#include "core/TimeFormat.h"

#include <QRegularExpression>

namespace lv::widgets {

core::Result<core::Uutc> parseTimeEntry(const QString& text, core::Uutc start)
{
    const QString t = text.trimmed();
    static const QRegularExpression seconds(R"(^\d{1,11}(\.\d+)?$)"); // 12 digits or more: uUTC
    static const QRegularExpression clock(R"(^(?:(\d{1,4})\s+)?(\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?$)");
    static const QRegularExpression dateTime(R"(^(\d{4}-\d{2}-\d{2})[ T](\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(.*)$)");
    if (seconds.match(t).hasMatch()) return core::parseTimeArgument(("+" + t).toStdString(), start);
    if (const auto m = clock.match(t); m.hasMatch()) {
        const int h = m.captured(2).toInt(), min = m.captured(3).toInt(), s = m.captured(4).toInt();
        if (h > 23 || min > 59 || s > 59)
            return core::makeError(core::ErrorCode::InvalidArgument, "not a clock time: " + t.toStdString());
        const double fraction = m.captured(5).isEmpty() ? 0.0 : m.captured(5).toDouble();
        constexpr core::Uutc kDay = 86'400'000'000;
        const core::Uutc day = start >= 0 ? start / kDay * kDay : (start - kDay + 1) / kDay * kDay;
        core::Uutc at = day + ((h * 60 + min) * 60 + s) * core::Uutc{1'000'000} + std::llround(fraction * 1e6);
        if (!m.captured(1).isEmpty()) return at + m.captured(1).toInt() * kDay; // "1 00:57:50": the start's day + 1
        if (at < start) at += kDay; // a clock time before the start's time of day: the next day's
        return at;
    }
    if (const auto m = dateTime.match(t); m.hasMatch()) {
        QString time = m.captured(2);
        if (time.indexOf(':') == 1) time.prepend('0');
        if (time.count(':') == 1) time += ":00";
        const QString zone = m.captured(3).trimmed();
        return core::parseTimeArgument((m.captured(1) + "T" + time + (zone.isEmpty() ? "Z" : zone)).toStdString(),
                                       start);
    }
    return core::parseTimeArgument(t.toStdString(), start);
}

} // namespace lv::widgets
