// Parsing by hand (a number, a unit, a per-length suffix); voltage units convert through volts, others only to
// themselves.
#include "Sensitivity.h"

#include <array>
#include <cmath>
#include <utility>

namespace lv::widgets {

namespace {

constexpr std::array<std::pair<std::string_view, double>, 7> kVoltUnits{
    {{"nV", 1e-9}, {"uV", 1e-6}, {"\u00b5V", 1e-6}, {"\u03bcV", 1e-6}, {"mV", 1e-3}, {"V", 1.0}, {"kV", 1e3}}};

// The leading number of `text` and where it ends; nothing when it does not start with one.
std::optional<std::pair<double, qsizetype>> leadingNumber(const QString& text)
{
    qsizetype end = 0;
    while (end < text.size() && (text[end].isDigit() || QStringLiteral(".eE+-").contains(text[end]))) ++end;
    // "5e" or "5-": back off to the longest prefix that reads as a number
    for (; end > 0; --end) {
        bool ok = false;
        const double v = text.left(end).toDouble(&ok);
        if (ok) return std::pair{v, end};
    }
    return std::nullopt;
}

QString number(double v) { return QString::number(v, 'g', 4); }

} // namespace

QString amplitudeText(double value)
{
    return value >= 100 ? QString::number(value, 'f', 0) : QString::number(value, 'g', 3);
}

double voltsPerUnit(std::string_view unit)
{
    for (const auto& [name, factor] : kVoltUnits)
        if (unit == name) return factor;
    return 0.0;
}

std::optional<Sensitivity> Sensitivity::parse(const QString& input)
{
    const QString text = input.trimmed();
    if (text.isEmpty() || text.compare(QStringLiteral("auto"), Qt::CaseInsensitive) == 0) return Sensitivity{};
    const auto number = leadingNumber(text);
    if (!number || !(number->first > 0) || !std::isfinite(number->first)) return std::nullopt;
    Sensitivity s{number->first, Per::Division, {}};
    QString rest = text.mid(number->second).trimmed();
    const qsizetype slash = rest.indexOf('/');
    const QString per = slash < 0 ? QString() : rest.mid(slash + 1).trimmed().toLower();
    rest = (slash < 0 ? rest : rest.left(slash)).trimmed();
    if (per == "mm") {
        s.per = Per::Millimetre;
    } else if (per == "cm") {
        s.per = Per::Millimetre;
        s.value /= 10.0;
    } else if (!per.isEmpty() && per != "div") {
        return std::nullopt;
    }
    if (rest.contains(' ')) return std::nullopt;
    s.unit = rest.toStdString();
    if (s.per == Per::Millimetre && s.unit.empty()) return std::nullopt; // "7/mm" of what?
    return s;
}

QString Sensitivity::text() const
{
    if (isAuto()) return QStringLiteral("Auto");
    const QString u = QString::fromStdString(unit);
    if (per == Per::Millimetre) return QString("%1 %2/mm").arg(number(value), u);
    return u.isEmpty() ? number(value) : QString("%1 %2/div").arg(number(value), u);
}

double Sensitivity::unitsPerDivision(std::string_view channelUnit, double divisionMm) const
{
    if (isAuto()) return 0.0;
    double v = value;
    if (!unit.empty() && unit != channelUnit) {
        const double from = voltsPerUnit(unit);
        const double to = voltsPerUnit(channelUnit);
        if (from == 0 || to == 0) return 0.0;
        v = value * from / to;
    }
    if (per == Per::Millimetre) {
        if (!(divisionMm > 0)) return 0.0;
        v *= divisionMm;
    }
    return v;
}

Sensitivity Sensitivity::scaled(double factor) const
{
    Sensitivity s = *this;
    if (!isAuto()) s.value = value * factor;
    return s;
}

} // namespace lv::widgets
