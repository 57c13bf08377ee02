// longview-bench-render: traces of 64 channels into a 1920 x 1000 image, the viewer's worker-side drawing.
// BM_RenderTraces/<frame>/<kind>: frame 0 = a 10 s page at 256 Hz (2560 samples per channel), 1 = a zoomed-out
// envelope (min and max per column); kind 0 = floor (the output image allocated and cleared), 1 = QPainter
// polylines (the previous version), 2 = TraceRaster (today's renderTraces).
#include "EegSignal.h"
#include "TraceRenderer.h"

#include <QGuiApplication>
#include <algorithm>
#include <benchmark/benchmark.h>

namespace {

using namespace lv::widgets;

constexpr int kChannels = 64;
constexpr int kColumns = 1920;

TraceFrame makeFrame(bool envelope)
{
    TraceFrame frame;
    for (int c = 0; c < kChannels; ++c) {
        ChannelTrace t;
        t.channel = static_cast<std::size_t>(c);
        const std::size_t n = envelope ? kColumns * 45 : 2560;
        const std::vector<double> v = lv::bench::eegMicrovolts(n, 256.0, 1000 + static_cast<std::uint64_t>(c));
        if (!envelope) {
            for (std::size_t i = 0; i < n; ++i) {
                t.x.push_back(static_cast<double>(i) / 256.0);
                t.y.push_back(v[i]);
            }
        } else {
            for (std::size_t col = 0; col < kColumns; ++col) {
                const auto [lo, hi] = std::minmax_element(v.begin() + col * 45, v.begin() + (col + 1) * 45);
                const double x = (static_cast<double>(col) + 0.5) * 10.0 / kColumns;
                t.x.insert(t.x.end(), {x, x});
                t.y.insert(t.y.end(), {*lo, *hi});
            }
        }
        t.low = -60;
        t.high = 60;
        frame.traces.push_back(std::move(t));
    }
    return frame;
}

RenderSpec makeSpec()
{
    RenderSpec spec;
    spec.pixels = QSize(kColumns, 1000);
    spec.x0 = 0;
    spec.x1 = 10;
    spec.lanes = kChannels;
    spec.color = Qt::black;
    for (int c = 0; c < kChannels; ++c)
        spec.mapping.push_back({static_cast<std::size_t>(c), c, 0.0, 0.5 / 60.0, QColor()});
    return spec;
}

void BM_RenderTraces(benchmark::State& state)
{
    const TraceFrame frame = makeFrame(state.range(0) == 1);
    const RenderSpec spec = makeSpec();
    const auto kind = state.range(1);
    for (auto _ : state) {
        QImage image;
        if (kind == 0) {
            image = QImage(spec.pixels, QImage::Format_ARGB32_Premultiplied);
            image.fill(Qt::transparent);
        } else {
            image = kind == 1 ? renderTracesWithQPainter(frame, spec) : renderTraces(frame, spec);
        }
        benchmark::DoNotOptimize(image.constBits());
    }
    std::size_t points = 0;
    for (const ChannelTrace& t : frame.traces) points += t.x.size();
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * points));
}
BENCHMARK(BM_RenderTraces)->ArgsProduct({{0, 1}, {0, 1, 2}})->Unit(benchmark::kMillisecond);

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
