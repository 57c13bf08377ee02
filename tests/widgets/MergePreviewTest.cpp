// MergePreview from hand-made time lines (no files): the gap and the overlap of a known pair land at the x positions
// of their times, in the layout and in the painted picture (grey gap, red overlap, blue data), and the result row
// follows the merged channels.
#include "MergePreview.h"
#include "WidgetTestMain.h"
#include "WidgetTestSupport.h"

#include <QImage>
#include <QTest>

using lv::widgets::MergePreview;
using Kind = MergePreview::Kind;

namespace {

constexpr lv::core::Uutc kT0 = 1'735'689'600'000'000; // 2025-01-01T00:00:00Z
constexpr lv::core::Uutc kS = 1'000'000;

// Two inputs of one channel "Fp1": A [0, 100 s) and B [bStart, bStart + 100 s), concatenated.
lv::convert::MergeTimeline pair(lv::core::Uutc bStart)
{
    lv::convert::MergeTimeline t;
    const lv::core::TimeRange a{kT0, kT0 + 100 * kS}, b{kT0 + bStart, kT0 + bStart + 100 * kS};
    t.inputs = {{"/data/a.mefd", "MEF 3.0", a}, {"/data/b.edf", "EDF+C", b}};
    t.span = {a.start, std::max(a.end, b.end)};
    lv::convert::MergeTimeline::Channel ch;
    ch.name = "Fp1";
    ch.fs = 256;
    ch.unit = "uV";
    ch.span = t.span;
    ch.parts = {{0, "Fp1", a}, {1, "Fp1", b}};
    if (b.start > a.end) ch.gaps = {{a.end, b.start}};
    if (b.start < a.end) ch.overlaps = {{0, 1, {b.start, a.end}, std::nullopt, 0}};
    t.channels = {ch};
    return t;
}

// The bars of one kind in a row.
std::vector<QRectF> barsOf(const MergePreview::Row& row, Kind kind)
{
    std::vector<QRectF> out;
    for (const MergePreview::Bar& b : row.bars)
        if (b.kind == kind) out.push_back(b.rect);
    return out;
}

bool near(double a, double b) { return std::abs(a - b) < 0.51; }

} // namespace

class MergePreviewTest : public QObject {
    Q_OBJECT
private slots:
    void theGapOfAPairIsGreyAtItsTimes()
    {
        const QSize size(600, 200);
        const auto l = MergePreview::layout(pair(130 * kS), size); // a gap from 100 s to 130 s, 230 s in all
        QCOMPARE(l.rows.size(), std::size_t(3));                   // a, b, the result
        QCOMPARE(l.rows[0].label, QString("1  a.mefd"));
        QCOMPARE(l.rows[1].label, QString("2  b.edf"));
        QCOMPARE(l.rows[2].label, QString("Result"));
        const double left = MergePreview::kLabelWidth, width = 600 - MergePreview::kLabelWidth - 8;
        QCOMPARE(l.axis.left(), left);
        QCOMPARE(l.axis.width(), width);
        const auto x = [&](double seconds) { return left + seconds / 230.0 * width; };
        const auto gaps = barsOf(l.rows[2], Kind::Gap);
        QCOMPARE(gaps.size(), std::size_t(1));
        QVERIFY2(near(gaps[0].left(), x(100)) && near(gaps[0].right(), x(130)),
                 qPrintable(QString("gap at %1..%2, want %3..%4")
                                .arg(gaps[0].left())
                                .arg(gaps[0].right())
                                .arg(x(100))
                                .arg(x(130))));
        const auto a = barsOf(l.rows[0], Kind::Data), b = barsOf(l.rows[1], Kind::Data);
        QVERIFY(a.size() == 1 && near(a[0].left(), x(0)) && near(a[0].right(), x(100)));
        QVERIFY(b.size() == 1 && near(b[0].left(), x(130)) && near(b[0].right(), x(230)));
        QVERIFY(barsOf(l.rows[2], Kind::Overlap).empty());
        QCOMPARE(l.channels, QString("1 channel: Fp1"));
    }

    void theOverlapOfAPairIsRedInBothInputsAndTheResult()
    {
        const auto l = MergePreview::layout(pair(80 * kS), {600, 200}); // overlap 80..100 s, 180 s in all
        const double left = MergePreview::kLabelWidth, width = 600 - MergePreview::kLabelWidth - 8;
        const auto x = [&](double seconds) { return left + seconds / 180.0 * width; };
        for (std::size_t row : {0, 1, 2}) {
            const auto red = barsOf(l.rows[row], Kind::Overlap);
            QVERIFY2(red.size() == 1, qPrintable(QString("row %1").arg(row)));
            QVERIFY2(near(red[0].left(), x(80)) && near(red[0].right(), x(100)),
                     qPrintable(QString("row %1: %2..%3, want %4..%5")
                                    .arg(row)
                                    .arg(red[0].left())
                                    .arg(red[0].right())
                                    .arg(x(80))
                                    .arg(x(100))));
        }
        QVERIFY(barsOf(l.rows[2], Kind::Gap).empty());
    }

    // The painted widget: sample the result row's pixels in the middle of the gap, of the overlap and of the data.
    void thePaintedPreviewShowsThoseColours()
    {
        for (const lv::core::Uutc bStart : {130 * kS, 80 * kS}) {
            MergePreview preview;
            preview.resize(600, 200);
            preview.setTimeline(pair(bStart));
            const QImage image = preview.grab().toImage();
            lv::test::saveShot(preview, bStart > 100 * kS ? "preview-gap.png" : "preview-overlap.png");
            const auto l = preview.currentLayout();
            const MergePreview::Row& result = l.rows.back();
            const double y = result.rect.top() + 2; // above a gap's or overlap's length label
            const double end = static_cast<double>(l.span.duration()) / kS;
            const auto at = [&](double seconds) {
                return image.pixelColor(static_cast<int>(l.xOf(kT0 + static_cast<lv::core::Uutc>(seconds * kS))),
                                        static_cast<int>(y));
            };
            QCOMPARE(at(50), MergePreview::colorOf(Kind::Data));
            QCOMPARE(at(end - 20), MergePreview::colorOf(Kind::Data));
            if (bStart > 100 * kS)
                QCOMPARE(at(115), MergePreview::colorOf(Kind::Gap));
            else
                QCOMPARE(at(90), MergePreview::colorOf(Kind::Overlap));
            // The input rows: b's row is empty before b starts.
            const QColor before =
                image.pixelColor(static_cast<int>(l.xOf(kT0 + 10 * kS)), static_cast<int>(l.rows[1].rect.center().y()));
            QVERIFY(before != MergePreview::colorOf(Kind::Data));
        }
    }

    void withoutATimelineItSaysWhy()
    {
        MergePreview preview;
        preview.setMessage("Add at least two recordings");
        QVERIFY(!preview.timeline());
        QVERIFY(preview.currentLayout().rows.empty());
        QCOMPARE(preview.message(), QString("Add at least two recordings"));
    }
};

LONGVIEW_WIDGET_TEST(MergePreviewTest)
#include "MergePreviewTest.moc"
