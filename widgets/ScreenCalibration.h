// Screen calibration: the pixels per millimetre a user measured with a ruler, for screens that report a wrong
// physical size, remembered per screen.
#pragma once

#include <QString>
#include <optional>

class QScreen;

namespace lv::widgets {

// Measured lengths a ruler gives for a line drawn nominally 100 mm long; outside them the entry is a typo.
inline constexpr double kMinMeasuredMm = 10.0;
inline constexpr double kMaxMeasuredMm = 1000.0;

// The pixels per millimetre of a line of `linePixels` (logical pixels) that a ruler measures `measuredMm` long;
// nothing when either is not a positive finite length or the measure is outside [kMinMeasuredMm, kMaxMeasuredMm].
std::optional<double> calibratedPixelsPerMillimetre(double linePixels, double measuredMm);

// The settings key of a screen's calibration ("view/calibration/<screen name>", '/' and '\' of the name as '_').
QString calibrationKey(const QScreen* screen);

} // namespace lv::widgets
