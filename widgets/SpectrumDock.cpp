// Settings above, the density plot (QCustomPlot, log axis by default) and the band table below; every change asks
// the JobTracker for a new spectrum (the older one is cancelled and its result dropped).
#include "SpectrumDock.h"

#include "LaneSpectrum.h"
#include "MontageLanes.h"
#include "TraceLoader.h"

#include "core/TimeFormat.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace lv::widgets {

namespace {

struct Computed {
    core::Result<spectrum::Psd> psd = core::makeError(core::ErrorCode::Cancelled, "");
    QString what; // "Fp1-F7, the page (10 s)"
};

QString spanWords(SpectrumDock::Span span, core::TimeRange range)
{
    const QString seconds = QString::fromStdString(core::formatNumber(static_cast<double>(range.duration()) / 1e6, 4));
    switch (span) {
    case SpectrumDock::Span::Page:
        return QObject::tr("the page (%1 s)").arg(seconds);
    case SpectrumDock::Span::Selection:
        return QObject::tr("the selection (%1 s)").arg(seconds);
    case SpectrumDock::Span::Whole:
        break;
    }
    return QObject::tr("the whole channel (%1 s)").arg(seconds);
}

} // namespace

std::optional<std::vector<std::tuple<QString, double, double>>> parseBands(const QString& text)
{
    std::vector<std::tuple<QString, double, double>> bands;
    for (const QString& part : text.split(',', Qt::SkipEmptyParts)) {
        const QStringList nameRange = part.split('=');
        const QStringList edges = nameRange.value(1).split('-');
        bool lowOk = false, highOk = false;
        const double low = edges.value(0).trimmed().toDouble(&lowOk), high = edges.value(1).trimmed().toDouble(&highOk);
        if (nameRange.size() != 2 || edges.size() != 2 || !lowOk || !highOk || !(low >= 0 && low < high))
            return std::nullopt;
        bands.emplace_back(nameRange[0].trimmed(), low, high);
    }
    if (bands.empty()) return std::nullopt;
    return bands;
}

SpectrumDock::SpectrumDock(TraceLoader* loader, QWidget* parent)
    : QDockWidget(tr("Spectrum"), parent)
    , m_loader(loader)
    , m_jobs(this, &m_pool)
    , m_channel(new QComboBox)
    , m_span(new QComboBox)
    , m_segment(new QDoubleSpinBox)
    , m_overlap(new QSpinBox)
    , m_window(new QComboBox)
    , m_log(new QCheckBox(tr("Log")))
    , m_bandText(new QLineEdit(kDefaultBands))
    , m_plot(new QCustomPlot)
    , m_bands(new QTableWidget(0, 4))
    , m_status(new QLabel)
    , m_progress(new QProgressBar)
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_debounce(new QTimer(this))
    , m_poll(new QTimer(this))
{
    setObjectName("spectrumDock");
    m_pool.setMaxThreadCount(1);
    m_channel->setObjectName("spectrumChannel");
    m_span->addItems({tr("Page"), tr("Selection"), tr("Whole channel")});
    m_segment->setRange(0.1, 60);
    m_segment->setValue(2);
    m_segment->setSuffix(" s");
    m_overlap->setRange(0, 90);
    m_overlap->setValue(50);
    m_overlap->setSuffix(" %");
    m_window->addItem("Hann", int(spectrum::Window::Hann));
    m_window->addItem("Hamming", int(spectrum::Window::Hamming));
    m_window->addItem("Blackman", int(spectrum::Window::Blackman));
    m_window->addItem(tr("Rectangular"), int(spectrum::Window::Rectangular));
    m_log->setChecked(true);
    m_plot->setMinimumHeight(180);
    m_plot->xAxis->setLabel(tr("Hz"));
    m_plot->addGraph();
    m_bands->setObjectName("bandPowers");
    m_bands->setHorizontalHeaderLabels({tr("Band"), tr("Hz"), tr("Power"), tr("Share")});
    m_bands->verticalHeader()->hide();
    m_bands->horizontalHeader()->setStretchLastSection(true);
    m_bands->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_bands->setMaximumHeight(150);
    m_status->setObjectName("spectrumStatus");
    m_status->setWordWrap(true);
    m_progress->setRange(0, 1000);
    m_progress->hide();
    m_cancel->hide();

    auto* top = new QHBoxLayout;
    top->addWidget(m_channel, 1);
    top->addWidget(m_span);
    auto* welch = new QHBoxLayout;
    for (QWidget* w : std::initializer_list<QWidget*>{new QLabel(tr("Segment")), m_segment, new QLabel(tr("Overlap")),
                                                      m_overlap, m_window, m_log})
        welch->addWidget(w);
    welch->addStretch(1);
    auto* work = new QHBoxLayout;
    work->addWidget(m_progress, 1);
    work->addWidget(m_cancel);
    auto* body = new QWidget;
    auto* layout = new QVBoxLayout(body);
    layout->addLayout(top);
    layout->addLayout(welch);
    layout->addWidget(m_status);
    layout->addWidget(m_plot, 1);
    layout->addWidget(m_bands);
    auto* bands = new QFormLayout;
    bands->addRow(tr("Bands:"), m_bandText);
    layout->addLayout(bands);
    layout->addLayout(work);
    setWidget(body);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(150);
    connect(m_debounce, &QTimer::timeout, this, &SpectrumDock::recompute);
    m_poll->setInterval(100);
    connect(m_poll, &QTimer::timeout, this, [this] { m_progress->setValue(int(m_jobs.progress() * 1000)); });
    const auto later = [this] { m_debounce->start(); };
    connect(m_channel, &QComboBox::currentIndexChanged, this, later);
    connect(m_span, &QComboBox::currentIndexChanged, this, later);
    connect(m_segment, &QDoubleSpinBox::valueChanged, this, later);
    connect(m_overlap, &QSpinBox::valueChanged, this, later);
    connect(m_window, &QComboBox::currentIndexChanged, this, later);
    connect(m_log, &QCheckBox::toggled, this, [this] {
        if (!m_psd.power.empty()) showPsd(m_psd, m_what);
    });
    connect(m_bandText, &QLineEdit::editingFinished, this, [this] { setBands(m_bandText->text()); });
    connect(m_cancel, &QPushButton::clicked, this, &SpectrumDock::cancel);
    connect(this, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible) m_debounce->start();
    });
}

SpectrumDock::~SpectrumDock()
{
    m_jobs.stop();
    m_pool.waitForDone();
}

void SpectrumDock::setLanes(const std::vector<std::size_t>& lanes)
{
    const core::RecordingInfo* info = m_loader->displayInfo();
    QStringList names;
    std::vector<std::size_t> offered;
    if (info)
        for (std::size_t c : lanes)
            if (c < info->channels.size() && !info->channels[c].irregular) {
                names << QString::fromStdString(info->channels[c].name);
                offered.push_back(c);
            }
    if (offered == m_lanes && names == m_names) return; // the same lanes (a montage's have their own names)
    const QVariant kept = m_channel->currentData();
    const QSignalBlocker block(m_channel);
    m_channel->clear();
    m_lanes = offered;
    m_names = names;
    for (std::size_t k = 0; k < offered.size(); ++k) m_channel->addItem(names[int(k)], QVariant::fromValue(offered[k]));
    const int again = m_channel->findData(kept);
    m_channel->setCurrentIndex(again >= 0 ? again : 0);
    m_debounce->start();
}

void SpectrumDock::setPage(core::TimeRange page)
{
    m_page = page;
    if (m_span->currentIndex() == int(Span::Page)) m_debounce->start();
}

void SpectrumDock::setSelection(std::optional<core::TimeRange> selection)
{
    m_selection = selection;
    if (m_span->currentIndex() == int(Span::Selection)) m_debounce->start();
}

void SpectrumDock::setChannel(std::size_t channel)
{
    const int i = m_channel->findData(QVariant::fromValue(channel));
    if (i >= 0) m_channel->setCurrentIndex(i);
}

void SpectrumDock::setSpan(Span span) { m_span->setCurrentIndex(int(span)); }

void SpectrumDock::setWelch(double segmentSeconds, int overlapPercent, spectrum::Window window)
{
    m_segment->setValue(segmentSeconds);
    m_overlap->setValue(overlapPercent);
    m_window->setCurrentIndex(m_window->findData(int(window)));
}

void SpectrumDock::setLogScale(bool on) { m_log->setChecked(on); }

bool SpectrumDock::setBands(const QString& text)
{
    if (!parseBands(text)) {
        m_bandText->setStyleSheet("color: #c0392b");
        return false;
    }
    m_bandText->setStyleSheet({});
    m_bandText->setText(text);
    fillBands();
    return true;
}

QString SpectrumDock::statusText() const { return m_status->text(); }

void SpectrumDock::cancel() { m_jobs.cancel(); }

void SpectrumDock::recompute()
{
    m_debounce->stop();
    const std::shared_ptr<view::ViewSession> session = m_loader->session();
    const core::RecordingInfo* info = m_loader->displayInfo();
    if (!session || !info || m_channel->count() == 0) return fail(tr("no channel to analyse"));
    const Span span = Span(m_span->currentIndex());
    LaneSpectrumRequest request;
    request.channel = m_channel->currentData().value<std::size_t>();
    request.montage = m_loader->montage();
    const auto filters = m_loader->filteredChannels();
    if (const auto f = filters.find(request.channel); f != filters.end()) request.filter = f->second;
    const core::ChannelInfo& ch = info->channels.at(request.channel);
    if (span == Span::Selection && !m_selection) return fail(tr("drag over the traces to select a range"));
    request.range = span == Span::Page        ? m_page
                    : span == Span::Selection ? *m_selection
                                              : core::TimeRange{ch.start, ch.end};
    request.welch.segment = std::max<std::size_t>(2, static_cast<std::size_t>(std::lround(m_segment->value() * ch.fs)));
    request.welch.overlap = m_overlap->value() / 100.0;
    request.welch.window = spectrum::Window(m_window->currentData().toInt());
    m_unit = QString::fromStdString(ch.unit);
    const QString what =
        QString::fromStdString(ch.name) +
        (request.filter ? " " + QString::fromStdString(filter::filterLabel(*request.filter)) : QString()) + ", " +
        spanWords(span, request.range);
    const bool whole = span == Span::Whole;
    m_progress->setVisible(whole);
    m_cancel->setVisible(whole);
    if (whole) m_poll->start();
    m_status->setText(tr("computing %1 ...").arg(what));
    m_jobs.run(
        0,
        [session, request, what](const Job& job) {
            core::ReadControl control;
            control.cancel = &job.cancelToken();
            control.progress = [&job](std::uint64_t done, std::uint64_t all) {
                job.setProgress(all ? double(done) / double(all) : 0.0);
            };
            return Computed{laneSpectrum(*session, request, control), what};
        },
        [this](Computed c) {
            m_poll->stop();
            m_progress->hide();
            m_cancel->hide();
            if (!c.psd)
                return fail(c.psd.error().code == core::ErrorCode::Cancelled
                                ? tr("cancelled")
                                : QString::fromStdString(c.psd.error().message));
            showPsd(*c.psd, c.what);
        });
}

void SpectrumDock::fail(const QString& why)
{
    m_psd = {};
    m_plot->graph(0)->data()->clear();
    m_plot->replot();
    m_bands->setRowCount(0);
    m_status->setText(why);
    emit computed();
}

void SpectrumDock::showPsd(const spectrum::Psd& psd, const QString& what)
{
    m_psd = psd;
    if (psd.power.empty()) return fail(tr("%1: no stretch of data holds a whole segment").arg(what));
    const bool log = m_log->isChecked();
    QVector<double> x, y;
    double top = 0, bottom = std::numeric_limits<double>::infinity();
    for (std::size_t i = 1; i < psd.frequencies.size(); ++i) { // 0 Hz has no place on a log axis
        x.push_back(psd.frequencies[i]);
        y.push_back(psd.power[i]);
        top = std::max(top, psd.power[i]);
        if (psd.power[i] > 0) bottom = std::min(bottom, psd.power[i]);
    }
    m_plot->graph(0)->setData(x, y, true);
    m_plot->yAxis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    m_plot->yAxis->setTicker(log ? QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog)
                                 : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    m_plot->yAxis->setLabel(m_unit + QString::fromUtf8("\u00b2/Hz"));
    m_plot->xAxis->setRange(0, psd.frequencies.back());
    m_plot->yAxis->setRange(log ? std::max(bottom, top * 1e-9) : 0, top * 1.1);
    m_plot->replot();
    m_what = what;
    m_status->setText(tr("%1: %2 segments averaged, %3 s of data used (missing data left out)")
                          .arg(what)
                          .arg(psd.segments)
                          .arg(QString::fromStdString(core::formatNumber(psd.seconds, 4))));
    fillBands();
    emit computed();
}

void SpectrumDock::fillBands()
{
    const auto bands = parseBands(m_bandText->text());
    m_bands->setRowCount(0);
    if (!bands || m_psd.power.empty()) return;
    const double total = spectrum::bandPower(m_psd, 0, m_psd.frequencies.back() + 1);
    for (const auto& [name, low, high] : *bands) {
        const double p = spectrum::bandPower(m_psd, low, high);
        const int r = m_bands->rowCount();
        m_bands->insertRow(r);
        m_bands->setItem(r, 0, new QTableWidgetItem(name));
        m_bands->setItem(r, 1, new QTableWidgetItem(QString("%1-%2").arg(low).arg(high)));
        m_bands->setItem(r, 2,
                         new QTableWidgetItem(QString::number(p, 'g', 4) + " " + m_unit + QString::fromUtf8("\u00b2")));
        m_bands->setItem(r, 3, new QTableWidgetItem(total > 0 ? QString::number(100 * p / total, 'f', 1) + " %" : "-"));
    }
    m_bands->resizeColumnsToContents();
}

} // namespace lv::widgets
