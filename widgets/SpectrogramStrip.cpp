// A JobTracker job reads the cached spectrogram or opens the recording again (a montage lane through a
// MontageRecording of that derivation), computes it on two threads with progress, and keeps it beside the pyramid;
// the UI thread colours the columns once per result and paints the image scaled to the strip.
#include "SpectrogramStrip.h"

#include "decode/ThreadPool.h"
#include "formats/RecordingOpener.h"
#include "montage/MontageRecording.h"
#include "spectrum/SpectrogramFile.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <filesystem>

namespace lv::widgets {

namespace {

constexpr int kHeader = 26;         // the row of controls above the map
constexpr int kImageColumns = 2048; // the map's resolution across the recording

struct Made {
    core::Result<spectrum::Spectrogram> spectrogram = core::makeError(core::ErrorCode::Cancelled, "");
    bool cached = false;
};

// FNV-1a: a stable name for the settings a spectrogram was made with.
std::uint64_t fnv(const std::string& text)
{
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
    return h;
}

std::string cacheFileOf(const SpectrogramSource& s, std::size_t channel, const spectrum::SpectrogramOptions& o)
{
    if (s.cacheDirectory.empty()) return {};
    const core::ChannelInfo& ch = s.info.channels.at(channel);
    std::string key = s.path.toStdString() + "|" + std::to_string(s.info.start) + "|" + ch.name + "|" +
                      std::to_string(ch.fs) + "|" + std::to_string(ch.start) + "|" + std::to_string(ch.gridLength) +
                      "|" + std::to_string(o.columnSeconds) + "|" + std::to_string(o.welch.segment) + "|" +
                      std::to_string(o.welch.overlap);
    if (s.montage && s.montage->isLane(channel))
        for (const montage::DerivationPart& p : s.montage->plan(channel).parts)
            key += "|" + s.info.channels.at(p.channel).name + "*" + std::to_string(p.scale);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv(key)));
    return (std::filesystem::path(s.cacheDirectory) / (std::string("spectrogram-") + hex + ".bin")).string();
}

Made make(const SpectrogramSource& s, std::size_t channel, const Job& job)
{
    const core::ChannelInfo& ch = s.info.channels.at(channel);
    spectrum::SpectrogramOptions options;
    options.columnSeconds = SpectrogramStrip::kColumnSeconds;
    options.welch.segment = static_cast<std::size_t>(std::lround(SpectrogramStrip::kSegmentSeconds * ch.fs));
    const std::string file = cacheFileOf(s, channel, options);
    std::error_code ec;
    if (!file.empty() && std::filesystem::exists(file, ec))
        if (auto kept = spectrum::loadSpectrogram(file); kept && kept->start == s.info.start)
            return {std::move(*kept), true};
    auto recording =
        formats::openRecording({s.path.toStdString(), s.password.toStdString(), s.snapshotDirectory, true});
    if (!recording) return {recording.error(), false};
    std::size_t index = channel;
    if (s.montage && s.montage->isLane(channel)) {
        const montage::Derivation& d = s.montage->derivations.at(channel - s.montage->first);
        auto derived = montage::MontageRecording::create(std::move(*recording), {"", {d}});
        if (!derived) return {derived.error(), false};
        *recording = std::move(*derived);
        index = 0;
    }
    decode::ThreadPool pool(2);
    core::ReadControl control;
    control.runner = &pool;
    control.cancel = &job.cancelToken();
    control.progress = [&job](std::uint64_t done, std::uint64_t all) { job.setProgress(all ? double(done) / all : 0); };
    auto made = spectrum::computeSpectrogram(**recording, index, {s.info.start, s.info.end}, options, control);
    if (made && !file.empty()) { // a cache: lost or not written, it is made again
        std::filesystem::create_directories(s.cacheDirectory, ec);
        (void)spectrum::saveSpectrogram(*made, file);
    }
    return {std::move(made), false};
}

} // namespace

QRgb spectrogramColour(double f)
{
    static constexpr std::array<std::array<int, 3>, 6> kStops = {
        {{13, 8, 135}, {84, 2, 163}, {156, 23, 158}, {219, 92, 104}, {248, 149, 64}, {240, 249, 33}}}; // plasma
    f = std::clamp(f, 0.0, 1.0) * (kStops.size() - 1);
    const auto i = std::min<std::size_t>(static_cast<std::size_t>(f), kStops.size() - 2);
    const double t = f - static_cast<double>(i);
    const auto mix = [&](int k) {
        return static_cast<int>(std::lround(kStops[i][k] * (1 - t) + kStops[i + 1][k] * t));
    };
    return qRgb(mix(0), mix(1), mix(2));
}

SpectrogramStrip::SpectrogramStrip(QWidget* parent)
    : QWidget(parent)
    , m_channel(new QComboBox)
    , m_top(new QComboBox)
    , m_status(new QLabel)
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_jobs(this, &m_pool)
{
    setObjectName("spectrogramStrip");
    m_pool.setMaxThreadCount(1);
    m_channel->setObjectName("spectrogramChannel");
    m_channel->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_channel->setMinimumContentsLength(8);
    for (const auto& [text, hz] : {std::pair{"0-20 Hz", 20.0}, {"0-30 Hz", 30.0}, {"0-50 Hz", 50.0}, {"all", 0.0}})
        m_top->addItem(tr(text), hz);
    m_top->setCurrentIndex(1);
    m_status->setObjectName("spectrogramStatus");
    m_cancel->hide();
    auto* header = new QHBoxLayout;
    header->setContentsMargins(4, 0, 4, 0);
    header->addWidget(new QLabel(tr("Spectrogram")));
    header->addWidget(m_channel);
    header->addWidget(m_top);
    header->addWidget(m_status, 1);
    header->addWidget(m_cancel);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(header);
    layout->addStretch(1);
    connect(m_channel, &QComboBox::currentIndexChanged, this, &SpectrogramStrip::start);
    connect(m_top, &QComboBox::currentIndexChanged, this, [this] { setMaxFrequency(m_top->currentData().toDouble()); });
    connect(m_cancel, &QPushButton::clicked, this, &SpectrogramStrip::cancel);
    auto* poll = new QTimer(this);
    poll->setInterval(200);
    connect(poll, &QTimer::timeout, this, [this] {
        if (m_cancel->isVisible()) m_status->setText(tr("computing ... %1 %").arg(int(m_jobs.progress() * 100)));
    });
    poll->start();
}

SpectrogramStrip::~SpectrogramStrip()
{
    m_jobs.stop();
    m_pool.waitForDone();
}

QSize SpectrogramStrip::sizeHint() const { return {400, kHeader + 90}; }

QRect SpectrogramStrip::mapRect() const { return {0, kHeader, width(), std::max(height() - kHeader, 1)}; }

std::optional<std::size_t> SpectrogramStrip::channel() const
{
    if (m_channel->count() == 0) return std::nullopt;
    return m_channel->currentData().value<std::size_t>();
}

QString SpectrogramStrip::statusText() const { return m_status->text(); }

void SpectrogramStrip::setSource(std::optional<SpectrogramSource> source)
{
    m_jobs.drop();
    m_source = std::move(source);
    m_spectrogram.reset();
    m_image = QImage();
    m_lanes.clear();
    m_names.clear();
    const QSignalBlocker block(m_channel);
    m_channel->clear();
    m_status->clear();
    update();
}

void SpectrogramStrip::setLanes(const std::vector<std::size_t>& lanes)
{
    if (!m_source) return;
    QStringList names;
    std::vector<std::size_t> offered;
    for (std::size_t c : lanes)
        if (c < m_source->info.channels.size() && !m_source->info.channels[c].irregular) {
            names << QString::fromStdString(m_source->info.channels[c].name);
            offered.push_back(c);
        }
    if (offered == m_lanes && names == m_names) return;
    const QString kept = m_channel->currentText();
    m_lanes = offered;
    m_names = names;
    {
        const QSignalBlocker block(m_channel);
        m_channel->clear();
        for (std::size_t k = 0; k < offered.size(); ++k)
            m_channel->addItem(names[int(k)], QVariant::fromValue(offered[k]));
        const int again = m_channel->findText(kept);
        m_channel->setCurrentIndex(again >= 0 ? again : 0);
    }
    if (isVisible()) start();
}

void SpectrogramStrip::setChannel(std::size_t channel)
{
    const int i = m_channel->findData(QVariant::fromValue(channel));
    if (i < 0) return;
    if (i == m_channel->currentIndex()) return start();
    m_channel->setCurrentIndex(i); // starts
}

void SpectrogramStrip::setMaxFrequency(double hz)
{
    m_maxHz = hz;
    render();
}

void SpectrogramStrip::setWindow(core::TimeRange range)
{
    m_window = range;
    update();
}

void SpectrogramStrip::setTheme(const Theme& theme)
{
    m_theme = theme;
    update();
}

void SpectrogramStrip::cancel() { m_jobs.cancel(); }

void SpectrogramStrip::start()
{
    const std::optional<std::size_t> lane = channel();
    if (!m_source || !lane) return;
    m_spectrogram.reset();
    m_image = QImage();
    m_cancel->show();
    m_status->setText(tr("computing ..."));
    update();
    m_jobs.run(
        0, [source = *m_source, c = *lane](const Job& job) { return make(source, c, job); },
        [this](Made made) {
            m_cancel->hide();
            if (!made.spectrogram) {
                m_status->setText(made.spectrogram.error().code == core::ErrorCode::Cancelled
                                      ? tr("cancelled")
                                      : QString::fromStdString(made.spectrogram.error().describe()));
                emit computed();
                return;
            }
            m_fromCache = made.cached;
            m_spectrogram = std::make_shared<const spectrum::Spectrogram>(std::move(*made.spectrogram));
            render();
            emit computed();
        });
}

// Log power per bin up to the top frequency, coloured between the 2nd and 99.5th percentiles of what is shown; an
// image column is blank when any spectrogram column in it is (a gap is never hidden by its neighbours).
void SpectrogramStrip::render()
{
    if (!m_spectrogram || m_spectrogram->columns.empty()) return update();
    const spectrum::Spectrogram& s = *m_spectrogram;
    std::size_t bins = s.frequencies.size();
    if (m_maxHz > 0)
        bins = std::max<std::size_t>(
            2, static_cast<std::size_t>(std::upper_bound(s.frequencies.begin(), s.frequencies.end(), m_maxHz) -
                                        s.frequencies.begin()));
    bins = std::min(bins, s.frequencies.size());
    const std::size_t columns = s.columns.size(), width = std::min<std::size_t>(columns, kImageColumns);
    std::vector<float> logs;
    for (const std::vector<float>& c : s.columns)
        for (std::size_t b = 1; b < bins && !c.empty(); ++b)
            if (c[b] > 0) logs.push_back(std::log10(c[b]));
    if (logs.empty()) return update();
    // The two percentiles by selection, not a sort: a day holds over a million bins, and this runs on the UI thread.
    const auto percentile = [&logs](std::size_t k) {
        std::nth_element(logs.begin(), logs.begin() + static_cast<std::ptrdiff_t>(k), logs.end());
        return static_cast<double>(logs[k]);
    };
    const double low = percentile(logs.size() / 50);
    const double high = percentile(std::min(logs.size() - 1, logs.size() * 995 / 1000));
    m_image = QImage(static_cast<int>(width), static_cast<int>(bins - 1), QImage::Format_ARGB32);
    m_image.fill(Qt::transparent);
    for (std::size_t x = 0; x < width; ++x) {
        const std::size_t from = x * columns / width, to = std::max(from + 1, (x + 1) * columns / width);
        bool blank = false;
        for (std::size_t c = from; c < to; ++c) blank = blank || s.columns[c].empty();
        if (blank) continue;
        for (std::size_t b = 1; b < bins; ++b) {
            double sum = 0;
            for (std::size_t c = from; c < to; ++c) sum += s.columns[c][b];
            const double v = std::log10(std::max(sum / static_cast<double>(to - from), 1e-300));
            m_image.setPixel(static_cast<int>(x), static_cast<int>(bins - 1 - b),
                             spectrogramColour((v - low) / std::max(high - low, 1e-9)));
        }
    }
    const double top = s.frequencies[bins - 1];
    m_status->setText(tr("%1 columns of %2 s, 0-%3 Hz%4")
                          .arg(columns)
                          .arg(kColumnSeconds)
                          .arg(top, 0, 'g', 3)
                          .arg(m_fromCache ? tr(", from the cache") : QString()));
    update();
}

void SpectrogramStrip::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QRect map = mapRect();
    p.fillRect(map, m_theme.plotBackground);
    if (!m_image.isNull()) {
        p.drawImage(map, m_image);
        p.setPen(Qt::white); // the frequency range, on the map's left edge
        const double top = m_spectrogram->frequencies[static_cast<std::size_t>(m_image.height())];
        p.drawText(map.adjusted(4, 2, 0, 0), Qt::AlignLeft | Qt::AlignTop, QString("%1 Hz").arg(top, 0, 'g', 3));
        p.drawText(map.adjusted(4, 0, 0, -2), Qt::AlignLeft | Qt::AlignBottom, "0 Hz");
    }
    if (!m_source || m_source->info.end <= m_source->info.start) return;
    const double span = static_cast<double>(m_source->info.end - m_source->info.start);
    const auto xOf = [&](core::Uutc t) { return static_cast<double>(t - m_source->info.start) / span * map.width(); };
    p.setPen(QPen(m_theme.window, 1.5));
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(xOf(m_window.start), map.top() + 0.5, std::max(xOf(m_window.end) - xOf(m_window.start), 2.0),
                      map.height() - 1.0));
}

void SpectrogramStrip::mousePressEvent(QMouseEvent* event)
{
    const QRect map = mapRect();
    if (!m_source || !map.contains(event->position().toPoint())) return QWidget::mousePressEvent(event);
    const double f = std::clamp(event->position().x() / std::max(map.width(), 1), 0.0, 1.0);
    emit centerRequested(m_source->info.start +
                         static_cast<core::Uutc>(f * static_cast<double>(m_source->info.end - m_source->info.start)));
}

} // namespace lv::widgets
