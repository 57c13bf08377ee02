// The calibration dialog: a ruler line, the measured length, OK or back to the screen's own size.
#include "CalibrationDialog.h"
#include "ScreenCalibration.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>

namespace lv::widgets {
namespace {

constexpr int kMargin = 12;

// A horizontal line of exactly `pixels` logical pixels with end ticks, to be measured with a ruler.
class RulerLine : public QWidget {
public:
    RulerLine(int pixels, QWidget* parent) : QWidget(parent), m_pixels(pixels)
    {
        setObjectName("rulerLine");
        setFixedSize(pixels + 2 * kMargin, 40);
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        p.setPen(QPen(palette().color(QPalette::WindowText), 1));
        const int y = height() / 2;
        p.drawLine(kMargin, y, kMargin + m_pixels, y);
        p.drawLine(kMargin, y - 12, kMargin, y + 12);
        p.drawLine(kMargin + m_pixels, y - 12, kMargin + m_pixels, y + 12);
    }

private:
    int m_pixels;
};

} // namespace

CalibrationDialog::CalibrationDialog(double pixelsPerMm, int screenWidth, QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Calibrate Screen"));
    if (!(pixelsPerMm > 0) || !std::isfinite(pixelsPerMm)) pixelsPerMm = 96.0 / 25.4;
    if (screenWidth > 0 && 100.0 * pixelsPerMm > 0.8 * screenWidth) m_nominalMm = 50.0;
    m_linePixels = static_cast<int>(std::lround(m_nominalMm * pixelsPerMm));

    auto* text = new QLabel(tr("Hold a ruler to the line below, from tick to tick, and type its length. "
                               "Amplitudes (uV/mm) and timebases (mm/s) are then true on this screen."),
                            this);
    text->setWordWrap(true);
    m_measured = new QDoubleSpinBox(this);
    m_measured->setRange(kMinMeasuredMm, kMaxMeasuredMm);
    m_measured->setDecimals(1);
    m_measured->setSuffix(tr(" mm"));
    m_measured->setValue(m_nominalMm);
    auto* form = new QFormLayout;
    form->addRow(tr("The line measures:"), m_measured);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    QPushButton* screenSize = buttons->addButton(tr("Use the Screen's Size"), QDialogButtonBox::ResetRole);
    connect(buttons, &QDialogButtonBox::accepted, this, &CalibrationDialog::useMeasured);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(screenSize, &QPushButton::clicked, this, &CalibrationDialog::useScreen);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(text);
    layout->addWidget(new RulerLine(m_linePixels, this), 0, Qt::AlignHCenter);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

void CalibrationDialog::setMeasuredMillimetres(double mm) { m_measured->setValue(mm); }

void CalibrationDialog::useMeasured()
{
    const auto ppm = calibratedPixelsPerMillimetre(m_linePixels, m_measured->value());
    if (!ppm) return; // the spin box keeps the value inside the range, so this does not happen
    m_result = *ppm;
    accept();
}

void CalibrationDialog::useScreen()
{
    m_result = 0.0;
    accept();
}

} // namespace lv::widgets
