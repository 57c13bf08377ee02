// longview-bench-gui: the viewer's figures on a recording (offscreen): replot of every channel at 1920 px, trace
// rendering (worker side), page turn to pixels on the first visit and from a warm cache (p50/p95; with the display
// filter of LONGVIEW_BENCH_FILTER and the montage of LONGVIEW_BENCH_MONTAGE when set), zoom-out to the whole recording,
// and first paint after open (in this process) and after launch (the longview program). One JSON line per figure.
#include "MainWindow.h"
#include "TraceLoader.h"
#include "TracePlot.h"
#include "TraceRenderer.h"

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string_view>
#include <vector>

namespace {

using lv::widgets::MainWindow;

double percentile(std::vector<double> v, double p)
{
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

void report(const char* name, const std::vector<double>& ms, const char* target)
{
    std::printf("{\"figure\": \"%s\", \"n\": %zu, \"p50_ms\": %.2f, \"p95_ms\": %.2f, \"max_ms\": %.2f, "
                "\"target\": \"%s\"}\n",
                name, ms.size(), percentile(ms, 0.5), percentile(ms, 0.95), percentile(ms, 1.0), target);
    std::fflush(stdout);
}

// CPU time of the calling thread: what a replot costs the UI thread, however busy the machine is.
double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

// Runs `action`, then waits until the window's view is drawn exactly; milliseconds, or -1 on timeout.
template <typename F>
double timeToSettled(MainWindow& w, F&& action, int timeoutMs = 120000)
{
    QElapsedTimer t;
    t.start();
    action();
    QTest::qWait(0);
    while (!w.isSettled() && t.elapsed() < timeoutMs) QTest::qWait(1);
    return w.isSettled() ? static_cast<double>(t.nsecsElapsed()) / 1e6 : -1.0;
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName("LongviewBench");
    if (argc < 2) {
        std::fprintf(stderr,
                     "usage: longview-bench-gui SESSION.mefd [repetitions [channels-per-screen [--no-pyramid]]]\n");
        return 2;
    }
    const QString session = argv[1];
    const int reps = argc > 2 ? std::atoi(argv[2]) : 30;
    const int rows = argc > 3 ? std::atoi(argv[3]) : 0; // 0: every channel on one screen
    // The window's background pyramid build (every block of a new recording decoded once) off: the steady state.
    const bool buildPyramid = !(argc > 4 && std::string_view(argv[4]) == "--no-pyramid");

    std::vector<double> firstCoarse, firstExact;
    for (int round = 0; round < 2; ++round) { // the second open uses the snapshot written by the first
        MainWindow w;
        w.setInteractive(false);
        w.setInitialView({"", 10, ""});
        w.setRowsPerScreen(rows);
        // LONGVIEW_BENCH_FILTER="hp=0.5,lp=70,notch=50": the voltage channels drawn filtered (else no filter, whatever
        // an earlier run remembered).
        w.setDisplayFilter(qEnvironmentVariable("LONGVIEW_BENCH_FILTER"));
        w.loader()->setBuildPyramid(buildPyramid);
        for (QDockWidget* d : w.findChildren<QDockWidget*>()) d->hide();
        w.resize(2040, 1100);
        w.show();
        for (int i = 0; i < 5 && w.plot()->dataColumns() != 1920; ++i) { // a data area 1920 px wide
            QTest::qWait(50);
            w.plot()->replotNow();
            w.resize(w.width() + 1920 - static_cast<int>(w.plot()->dataColumns()), w.height());
        }
        QElapsedTimer t;
        t.start();
        double coarse = -1;
        QObject::connect(w.plot(), &lv::widgets::TracePlot::frameDrawn, &w, [&](quint64, bool) {
            if (coarse < 0) coarse = static_cast<double>(t.nsecsElapsed()) / 1e6;
        });
        w.openPath(session);
        while (!w.isSettled() && t.elapsed() < 120000) QTest::qWait(1);
        firstCoarse.push_back(coarse);
        firstExact.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        // LONGVIEW_BENCH_MONTAGE=bipolar: each channel minus the next drawn as montage lanes (else the channels as
        // recorded, whatever an earlier run remembered for the format).
        const bool bipolar = qEnvironmentVariable("LONGVIEW_BENCH_MONTAGE") == "bipolar";
        if (!w.montageChoice().isEmpty() && !bipolar) timeToSettled(w, [&] { w.setMontage(""); });
        if (round == 0) continue;
        if (bipolar) {
            const lv::core::RecordingInfo& info = *w.loader()->info();
            lv::montage::Montage m{"bench bipolar", {}};
            for (std::size_t c = 0; c + 1 < info.channels.size(); ++c)
                m.derivations.push_back({info.channels[c].name + "-" + info.channels[c + 1].name,
                                         "",
                                         "",
                                         {{info.channels[c].name, 1}, {info.channels[c + 1].name, -1}},
                                         {}});
            w.saveMontage(m);
            timeToSettled(w, [&] { w.setMontage("saved:bench bipolar"); });
        }
        for (int i = 0; i < 5 && w.plot()->dataColumns() != 1920; ++i) // channel labels took their room
            timeToSettled(w,
                          [&] { w.resize(w.width() + 1920 - static_cast<int>(w.plot()->dataColumns()), w.height()); });
        report("first_paint_after_open_snapshot", {firstCoarse.back()}, "<= 200 ms");
        report("first_exact_after_open_snapshot", {firstExact.back()}, "");
        std::printf("{\"columns\": %zu, \"channels\": %zu, \"on_screen\": %zu}\n", w.plot()->dataColumns(),
                    w.visibleChannels().size(), w.plot()->channels().size());

        std::vector<double> replot, replotCpu;
        for (int i = 0; i < reps; ++i) {
            QElapsedTimer r;
            r.start();
            const double cpu = threadCpuMs();
            w.plot()->replotNow();
            replotCpu.push_back(threadCpuMs() - cpu);
            replot.push_back(static_cast<double>(r.nsecsElapsed()) / 1e6);
        }
        report("replot_all_channels_1920px", replot, "<= 16 ms");
        report("replot_all_channels_1920px_ui_thread_cpu", replotCpu, "");

        std::vector<double> render;
        const lv::widgets::FramePtr frame = w.plot()->frame();
        lv::widgets::RenderSpec spec;
        spec.pixels = QSize(1920, 1000);
        spec.x0 = frame->traces.front().x.front();
        spec.x1 = frame->traces.front().x.back();
        spec.lanes = static_cast<int>(frame->traces.size());
        spec.color = Qt::black;
        for (std::size_t k = 0; k < frame->traces.size(); ++k)
            spec.mapping.push_back(
                {frame->traces[k].channel, static_cast<int>(k), (frame->traces[k].low + frame->traces[k].high) / 2,
                 0.45 / std::max(1e-9, (frame->traces[k].high - frame->traces[k].low) / 2), QColor()});
        for (int i = 0; i < reps; ++i) {
            QElapsedTimer r;
            r.start();
            (void)lv::widgets::renderTraces(*frame, spec);
            render.push_back(static_cast<double>(r.nsecsElapsed()) / 1e6);
        }
        report("render_traces_worker_1920px", render, "off the UI thread");

        // Warm the first pages (blocks decoded and, with a filter, pages filtered for the first time), then turn them
        // again: cache to pixels.
        std::vector<double> first;
        for (int i = 0; i < reps; ++i) first.push_back(timeToSettled(w, [&] { w.pageBy(1); }));
        report("page_turn_first_visit_to_pixels", first, "");
        timeToSettled(w, [&] { w.goTo(w.view().bounds().start); });
        std::vector<double> turn;
        for (int i = 0; i < reps; ++i) turn.push_back(timeToSettled(w, [&] { w.pageBy(1); }));
        report("page_turn_warm_to_pixels", turn, "p95 <= 16.7 ms");

        // Launch to first paint: the real program, a fresh process each time, the snapshot made above.
        std::vector<double> launch;
        for (int i = 0; i < std::min(reps, 10); ++i) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert("QT_QPA_PLATFORM", "offscreen");
            env.insert("LONGVIEW_REPORT_FIRST_PAINT", "1");
            p.setProcessEnvironment(env);
            const auto t0 = std::chrono::steady_clock::now().time_since_epoch();
            p.start(LONGVIEW_GUI, {session, "--span", "10", "--rows", QString::number(rows)});
            if (!p.waitForFinished(60000)) continue;
            const QList<QByteArray> words = p.readAllStandardOutput().trimmed().split(' ');
            if (words.size() != 2 || words[0] != "first-paint") continue;
            launch.push_back(static_cast<double>(words[1].toLongLong() -
                                                 std::chrono::duration_cast<std::chrono::nanoseconds>(t0).count()) /
                             1e6);
        }
        report("first_paint_after_launch_snapshot", launch, "<= 200 ms");

        std::vector<double> zoomOut;
        for (int i = 0; i < 3; ++i) {
            timeToSettled(w, [&] { w.setPageLength(10'000'000); });
            zoomOut.push_back(timeToSettled(w, [&] { w.setPageLength(0); }));
        }
        report("overview_zoom_out_whole_recording", zoomOut, "<= 60 ms");
    }
    return 0;
}
