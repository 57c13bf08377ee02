// Montage lanes in the viewer's frames: a derivation's exact frame equals the sum computed here from the channels'
// own counts, sample for sample, with NaN (a line break) wherever either channel has a gap; a coarse frame leaves
// the lane empty; a lane's filter runs on the sum; what cannot be built is a note in words.
#include "MontageLanes.h"
#include "FilteredTrace.h"
#include "TraceBuilder.h"
#include "WidgetTestMain.h"

#include "convert/MefExport.h"
#include "filter/Filtering.h"
#include "support/MemoryRecording.h"
#include "view/ViewSession.h"

#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <set>

using namespace lv;

namespace {

constexpr core::Uutc kStart = 1'600'000'000'000'000;

// Two channels at 256 Hz for 20 s, A with a gap of 1 s at 5 s, B with one of 0.5 s at 12 s, and C at 128 Hz.
std::string writeSession(const QTemporaryDir& dir)
{
    test::MemoryRecording m;
    m.addChannel("A", 256, kStart, 5120, 3, 1280, 1536);
    m.addChannel("B", 256, kStart, 5120, -2, 3072, 3200);
    m.addChannel("C", 128, kStart, 2560, 1);
    const std::string path = dir.filePath("two.mefd").toStdString();
    convert::MefExportOptions options;
    options.range = {m.description.start, m.description.end};
    if (!convert::exportMef(m, options, path, {}).ok()) return {};
    return path;
}

montage::Montage aMinusB()
{
    return {"test", {{"A-B", "", "", {{"A", 1}, {"B", -1}}, {}}, {"A-C", "", "", {{"A", 1}, {"C", -1}}, {}}}};
}

// The physical values of the channel's grid samples [from, to), NaN where missing, read from the recording.
std::vector<double> valuesOf(view::ViewSession& s, std::size_t channel, std::int64_t from, std::int64_t to)
{
    const core::ChannelInfo& ch = s.info().channels[channel];
    std::vector<std::int32_t> raw(static_cast<std::size_t>(to - from));
    const core::RawSlice slice{channel, from, raw};
    if (!s.recording().readRaw({&slice, 1}, {}).ok()) return {};
    std::vector<double> v(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i)
        v[i] = raw[i] == core::kNoSample ? std::nan("") : raw[i] * ch.conversionFactor + ch.offset;
    return v;
}

} // namespace

class MontageLanesTest : public QObject {
    Q_OBJECT
private slots:
    void aLaneIsTheSumOfItsChannelsSampleForSampleWithGaps()
    {
        QTemporaryDir dir;
        const std::string path = writeSession(dir);
        QVERIFY(!path.empty());
        auto opened = view::ViewSession::open(path, {});
        QVERIFY(opened.ok());
        view::ViewSession& s = **opened;
        const widgets::GapBands bands = widgets::computeGapBands(s.info());
        const auto lanes = widgets::makeMontageLanes(s.info(), bands, aMinusB());
        QCOMPARE(lanes->plans.size(), std::size_t{1}); // A-C: different rates
        QCOMPARE(lanes->notes.size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(lanes->notes[0]),
                 QString("derivation A-C: A is sampled at 256 Hz and C at 128 Hz: channels of different rates cannot "
                         "be combined"));
        const std::size_t lane = lanes->first;
        QCOMPARE(lane, std::size_t{3});
        QCOMPARE(QString::fromStdString(lanes->info.channels.at(lane).name), QString("A-B"));
        QCOMPARE(lanes->bands.channels.at(lane).size(), std::size_t{2}); // both channels' gaps

        widgets::FrameRequest request{1, {kStart + 4'000'000, kStart + 14'000'000}, {lane, 0}, 8000, true, 0.0};
        request.montage = lanes;
        request.filtered = std::make_shared<widgets::FilteredTraceCache>();
        core::CancelToken cancel;
        auto frame = widgets::buildFrame(s, request, cancel);
        QVERIFY(frame && frame->error.empty() && frame->samples);
        const widgets::ChannelTrace& t = frame->traces.at(0);
        const std::vector<double> a = valuesOf(s, 0, 1024, 3584), b = valuesOf(s, 1, 1024, 3584);
        std::size_t compared = 0, missing = 0;
        std::set<std::size_t> seen;
        for (std::size_t i = 0; i < t.x.size(); ++i) {
            const double at = t.x[i] * 256 - 1024;
            if (std::abs(at - std::round(at)) > 1e-6) continue; // a break between samples
            const auto k = static_cast<std::size_t>(std::llround(at));
            if (!seen.insert(k).second) continue; // a break at the middle of a gap, on the grid
            const double expected = a[k] - b[k];
            if (std::isnan(expected)) {
                QVERIFY2(std::isnan(t.y[i]), qPrintable(QString("sample %1 should be missing").arg(k)));
                ++missing;
            } else {
                QCOMPARE(t.y[i], expected);
                ++compared;
            }
        }
        QCOMPARE(compared + missing, std::size_t{2560});
        QCOMPARE(missing, std::size_t{256 + 128});  // A's second and B's half second
        QCOMPARE(t.nanRuns.size(), std::size_t{0}); // missing where a channel has a gap: the lane's gaps, not NaN runs

        request.exact = false; // a coarse frame never decodes: the lane waits for the exact one
        auto coarse = widgets::buildFrame(s, request, cancel);
        QVERIFY(coarse && coarse->traces.at(0).y.empty() && !coarse->traces.at(1).y.empty());
    }

    void aLanesFilterRunsOnTheSumBetweenGaps()
    {
        QTemporaryDir dir;
        const std::string path = writeSession(dir);
        auto opened = view::ViewSession::open(path, {});
        QVERIFY(opened.ok());
        view::ViewSession& s = **opened;
        const auto lanes = widgets::makeMontageLanes(s.info(), widgets::computeGapBands(s.info()), aMinusB());
        const std::size_t lane = lanes->first;
        const filter::FilterSpec spec = *filter::parseFilterSpec("hp=1,lp=30");
        widgets::FrameRequest request{1, {kStart + 8'000'000, kStart + 10'000'000}, {lane}, 8000, true, 0.0};
        request.montage = lanes;
        request.filters = {{lane, spec}};
        core::CancelToken cancel;
        auto frame = widgets::buildFrame(s, request, cancel);
        QVERIFY(frame && frame->error.empty());
        const widgets::ChannelTrace& t = frame->traces.at(0);
        const filter::Sos sos = *filter::designFilter(spec, 256);
        const std::int64_t margin = filter::settleSamples(sos), first = 2048, end = 2560;
        const std::int64_t from = std::max<std::int64_t>(0, first - margin),
                           to = std::min<std::int64_t>(5120, end + margin);
        std::vector<double> a = valuesOf(s, 0, from, to), b = valuesOf(s, 1, from, to);
        for (std::size_t i = 0; i < a.size(); ++i) a[i] -= b[i];
        filter::filterRuns(sos, a, filter::Phase::Zero);
        QCOMPARE(t.y.size(), std::size_t{512});
        for (std::size_t i = 0; i < t.y.size(); ++i) QCOMPARE(t.y[i], a[static_cast<std::size_t>(first - from) + i]);
    }
};

LONGVIEW_GUILESS_TEST(MontageLanesTest)
#include "MontageLanesTest.moc"
