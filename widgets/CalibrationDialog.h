// View > Calibrate Screen...: draws a line nominally 100 mm long at the plot's current pixels per millimetre and
// asks for its length as a ruler measures it; the result makes sensitivity (uV/mm) and timebase (mm/s) true on a
// screen that reports its physical size wrong.
#pragma once

#include <QDialog>

class QDoubleSpinBox;
class QLabel;

namespace lv::widgets {

class CalibrationDialog : public QDialog {
    Q_OBJECT
public:
    // `pixelsPerMm`: what the plot uses now (logical pixels); `screenWidth`: the screen's logical width, which
    // the line must fit (it is drawn 50 mm long when 100 mm would not).
    CalibrationDialog(double pixelsPerMm, int screenWidth, QWidget* parent = nullptr);

    int linePixels() const { return m_linePixels; }
    double nominalMillimetres() const { return m_nominalMm; }
    void setMeasuredMillimetres(double mm);
    // After accept(): the calibrated pixels per millimetre, or 0 when the screen's own size is to be used again.
    double pixelsPerMillimetre() const { return m_result; }

private:
    void useMeasured();
    void useScreen();

    double m_nominalMm = 100.0;
    int m_linePixels = 0;
    double m_result = 0.0;
    QDoubleSpinBox* m_measured = nullptr;
};

} // namespace lv::widgets
