// A vertical scale as clinicians and engineers give it: a physical value per division (one lane) or per millimetre
// of screen, in a unit ("7 uV/mm", "70 uV/cm", "50 uV/div") or in each channel's own unit ("50"); or Auto.
#pragma once

#include <QString>
#include <optional>
#include <string>
#include <string_view>

namespace lv::widgets {

// An amplitude as labels and scale bars give it: three significant digits, whole numbers from 100 ("7", "49.3",
// "268").
QString amplitudeText(double value);

// The factor of a voltage unit to volts ("uV", "µV", "mV", "V", "nV", "kV"); 0 for any other unit.
double voltsPerUnit(std::string_view unit);

struct Sensitivity {
    enum class Per { Division, Millimetre };

    double value = 0.0; // 0: Auto (each channel fitted to its page)
    Per per = Per::Division;
    std::string unit; // empty: each channel's own unit

    bool isAuto() const { return !(value > 0); }
    // "Auto" (or empty), a number, then an optional unit and "/div", "/mm" or "/cm" (kept as per mm): "7 uV/mm",
    // "70 uV/cm", "50 uV/div", "50 uV", "50". Nothing for any other text.
    static std::optional<Sensitivity> parse(const QString& text);
    QString text() const; // what parse reads back: "Auto", "7 uV/mm", "50 uV/div", "50"
    // This sensitivity for a channel of `channelUnit` whose division is `divisionMm` millimetres tall, in that unit
    // per division; 0 when Auto or when the units do not convert (e.g. uV and degC).
    double unitsPerDivision(std::string_view channelUnit, double divisionMm) const;
    // The same sensitivity scaled: `factor` times the value per division (a gain of 1/factor).
    Sensitivity scaled(double factor) const;
    bool operator==(const Sensitivity&) const = default;
};

} // namespace lv::widgets
