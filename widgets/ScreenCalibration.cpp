// The arithmetic and the settings key of screen calibration.
#include "ScreenCalibration.h"

#include <QScreen>
#include <cmath>

namespace lv::widgets {

std::optional<double> calibratedPixelsPerMillimetre(double linePixels, double measuredMm)
{
    if (!std::isfinite(linePixels) || !(linePixels > 0)) return std::nullopt;
    if (!std::isfinite(measuredMm) || measuredMm < kMinMeasuredMm || measuredMm > kMaxMeasuredMm) return std::nullopt;
    return linePixels / measuredMm;
}

QString calibrationKey(const QScreen* screen)
{
    QString name = screen ? screen->name() : QString();
    name.replace('/', '_').replace('\\', '_');
    return QStringLiteral("view/calibration/") + (name.isEmpty() ? QStringLiteral("default") : name);
}

} // namespace lv::widgets
