// Text forms of uUTC times: ISO 8601 with microseconds and UTC offset, seconds, and user time arguments.
#pragma once

#include "core/Error.h"
#include "core/Time.h"

#include <string>
#include <string_view>

namespace lv::core {

// A UTC time broken down (proleptic Gregorian): what gmtime_r gives, without the C library.
struct CivilTime {
    std::int64_t year = 1970;
    unsigned month = 1, day = 1; // 1-12, 1-31
    unsigned hour = 0, minute = 0, second = 0;
};
// Days since 1970-01-01 of a proleptic Gregorian date (month 1-12, day 1-31).
std::int64_t daysFromCivil(std::int64_t year, unsigned month, unsigned day);

// The civil time of whole second `seconds` since 1970 (floor of a fraction is the caller's).
CivilTime civilTime(std::int64_t seconds);

// "2024-01-01T10:00:00.000000+00:00" (always UTC, always six fractional digits).
std::string formatIso(Uutc t);

// Microseconds as exact decimal seconds without trailing zeros: 7812500 -> "7.8125", -1 -> "-0.000001".
std::string formatSeconds(std::int64_t microseconds);

// A number as printf's %g writes it with `digits` significant digits (a number read from a file: 15): 1e300 ->
// "1e+300", 256 -> "256"; 6 digits for a step or a rate said in a message ("5.96046e-08").
std::string formatNumber(double value, int digits = 15);

// "sampling frequency 1e+300 Hz is outside [1e-06, 1e+06] Hz", or empty when `fs` is a plausible rate.
std::string samplingRateProblem(double fs, const std::string& field);

// A user's time argument: integer uUTC, ISO 8601 (date, 'T', time, optional fraction, 'Z' or +-HH:MM),
// or "+SECONDS" (decimal) after `start`.
Result<Uutc> parseTimeArgument(std::string_view text, Uutc start);

} // namespace lv::core
