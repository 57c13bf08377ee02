// The response is filter::response over 400 log-spaced frequencies from fs / 20000 to fs / 2 and at the filter's
// own edges and notches, recomputed on every edit (a few microseconds: no disk, no decode).
#include "FilterDialog.h"

#include "filter/FilterSpec.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <qcustomplot.h>
#include <vector>

namespace lv::widgets {

namespace {

constexpr int kPoints = 400;

} // namespace

FilterDialog::FilterDialog(const QString& spec, double fs, QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Filter"));
    m_spec = new QLineEdit(spec);
    m_spec->setObjectName("filterSpec");
    m_spec->setToolTip(tr("hp=HZ, lp=HZ, bp=LOW-HIGH, bs=LOW-HIGH (Butterworth, order=1-8, default 2), notch=HZ "
                          "(harmonics=N, q=Q, default 30), comma-separated; zero-phase unless \"causal\" is added"));
    m_rate = new QDoubleSpinBox;
    m_rate->setObjectName("filterRate");
    m_rate->setRange(0.001, 1e7);
    m_rate->setDecimals(3);
    m_rate->setSuffix(" Hz");
    m_rate->setValue(fs > 0 ? fs : 256);
    m_problem = new QLabel;
    m_problem->setObjectName("filterProblem");
    m_problem->setWordWrap(true);
    m_plot = new QCustomPlot;
    m_plot->setObjectName("filterResponse");
    m_plot->setMinimumSize(480, 260);
    m_plot->addGraph(m_plot->xAxis, m_plot->yAxis);
    m_plot->addGraph(m_plot->xAxis, m_plot->yAxis2);
    m_plot->graph(1)->setPen(QPen(Qt::darkGray, 1, Qt::DashLine));
    m_plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    m_plot->xAxis->setLabel(tr("frequency (Hz)"));
    m_plot->yAxis->setLabel(tr("magnitude (dB)"));
    m_plot->yAxis2->setLabel(tr("phase (degrees, dashed)"));
    m_plot->yAxis2->setVisible(true);
    m_plot->yAxis->setRange(-80, 5);
    m_plot->yAxis2->setRange(-180, 180);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    auto* form = new QFormLayout;
    form->addRow(tr("Filter:"), m_spec);
    form->addRow(tr("Response at:"), m_rate);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(m_plot, 1);
    layout->addWidget(m_buttons);
    connect(m_spec, &QLineEdit::textChanged, this, &FilterDialog::update);
    connect(m_rate, &QDoubleSpinBox::valueChanged, this, &FilterDialog::update);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    update();
}

QString FilterDialog::spec() const { return m_spec->text().trimmed(); }
void FilterDialog::setSpec(const QString& spec) { m_spec->setText(spec); }
void FilterDialog::setRate(double fs) { m_rate->setValue(fs); }
QString FilterDialog::problem() const { return m_problem->text(); }

void FilterDialog::update()
{
    m_hz.clear(), m_db.clear(), m_degrees.clear();
    const double fs = m_rate->value();
    auto parsed = filter::parseFilterSpec(spec().toStdString());
    core::Result<filter::Sos> sos =
        parsed ? filter::designFilter(*parsed, fs) : core::Result<filter::Sos>(parsed.error());
    m_problem->setText(sos ? QString() : QString::fromStdString(sos.error().message));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(sos.ok());
    if (sos) {
        const bool zero = parsed->phase == filter::Phase::Zero;
        const double low = fs / 20000, high = fs / 2;
        std::vector<double> at; // log-spaced, plus the edges and every notch (a notch is narrower than the spacing)
        for (int i = 0; i < kPoints; ++i)
            at.push_back(low * std::pow(high / low, static_cast<double>(i) / (kPoints - 1)));
        const filter::FilterSpec& f = *parsed;
        for (const double edge :
             {f.highPassHz, f.lowPassHz, f.bandPassLowHz, f.bandPassHighHz, f.bandStopLowHz, f.bandStopHighHz})
            if (edge > low && edge < high) at.push_back(edge);
        for (int k = 1; f.notchHz > 0 && k <= f.notchHarmonics && k * f.notchHz < high; ++k)
            at.push_back(k * f.notchHz);
        std::sort(at.begin(), at.end());
        at.erase(std::unique(at.begin(), at.end()), at.end());
        for (const double hz : at) {
            const std::complex<double> h = filter::response(*sos, hz, fs);
            const double magnitude = zero ? std::norm(h) : std::abs(h); // forward and backward: |H| squared
            m_hz.push_back(hz);
            m_db.push_back(20 * std::log10(std::max(magnitude, 1e-12)));
            m_degrees.push_back(zero ? 0.0 : std::arg(h) * 180 / std::numbers::pi);
        }
        m_plot->xAxis->setRange(low, high);
    }
    m_plot->graph(0)->setData(m_hz, m_db, true);
    m_plot->graph(1)->setData(m_hz, m_degrees, true);
    m_plot->replot();
}

} // namespace lv::widgets
