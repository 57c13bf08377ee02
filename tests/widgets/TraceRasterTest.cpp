// TraceRaster and renderTraces: exact pixels for lines of known shape, no pixel across a NaN break, stripes drawn
// side by side equal to one pass, and the picture within a pen's width of QPainter's polylines on random traces.
#include "TraceRaster.h"
#include "TraceRenderer.h"
#include "WidgetTestMain.h"

#include <QGuiApplication>
#include <QTest>
#include <cmath>
#include <limits>
#include <random>

using lv::widgets::RasterTarget;
using lv::widgets::TraceRaster;

namespace {

constexpr QRgb kInk = 0xff000000u;

QImage blank(int w = 40, int h = 50)
{
    QImage image(w, h, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    return image;
}

bool set(const QImage& image, int x, int y) { return qAlpha(image.pixel(x, y)) != 0; }

// Rows set in column x, as "first-last" (or "" when none); the column must be one unbroken span.
QString span(const QImage& image, int x)
{
    int first = -1, last = -1;
    for (int y = 0; y < image.height(); ++y) {
        if (!set(image, x, y)) continue;
        if (first < 0) first = y;
        if (last >= 0 && last != y - 1) return "broken";
        last = y;
    }
    return first < 0 ? QString() : QString("%1-%2").arg(first).arg(last);
}

void draw(QImage& image, std::initializer_list<std::pair<double, double>> points, int pen = 1, int first = 0,
          int end = -1)
{
    TraceRaster raster(RasterTarget::of(image), kInk, pen, first, end);
    for (const auto& [x, y] : points) raster.lineTo(x, y);
}

lv::widgets::TraceFrame randomFrame(int channels, int points, std::uint32_t seed)
{
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0.0, 1.0);
    lv::widgets::TraceFrame frame;
    for (int c = 0; c < channels; ++c) {
        lv::widgets::ChannelTrace t;
        t.channel = static_cast<std::size_t>(c);
        double v = 0;
        for (int i = 0; i < points; ++i) {
            v = 0.95 * v + 3 * noise(rng);
            t.x.push_back(10.0 * i / points);
            t.y.push_back(i % 97 == 50 ? std::numeric_limits<double>::quiet_NaN() : v);
        }
        frame.traces.push_back(std::move(t));
    }
    return frame;
}

lv::widgets::RenderSpec specFor(int channels, QSize pixels, double dpr)
{
    lv::widgets::RenderSpec spec;
    spec.pixels = pixels;
    spec.devicePixelRatio = dpr;
    spec.x0 = 0;
    spec.x1 = 10;
    spec.lanes = channels;
    spec.color = Qt::black;
    spec.clipToLanes = false; // QPainter's and the raster's pixel edges differ by half a pixel at a lane's edge
    for (int c = 0; c < channels; ++c) spec.mapping.push_back({static_cast<std::size_t>(c), c, 0.0, 0.05, QColor()});
    return spec;
}

// Pixels of `a` with no pixel of `b` within `reach` pixels (Chebyshev distance), away from the image's edges
// (where QPainter's clipping adds pixels along the border).
int unmatched(const QImage& a, const QImage& b, int reach)
{
    int n = 0;
    for (int y = 1; y + 1 < a.height(); ++y)
        for (int x = 1; x + 1 < a.width(); ++x) {
            if (!set(a, x, y)) continue;
            bool near = false;
            for (int dy = -reach; dy <= reach && !near; ++dy)
                for (int dx = -reach; dx <= reach && !near; ++dx)
                    near = b.rect().contains(x + dx, y + dy) && set(b, x + dx, y + dy);
            n += near ? 0 : 1;
        }
    return n;
}

int count(const QImage& image)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) n += set(image, x, y) ? 1 : 0;
    return n;
}

} // namespace

class TraceRasterTest : public QObject {
    Q_OBJECT
private slots:
    void horizontalLineIsOneRow()
    {
        QImage image = blank();
        draw(image, {{0.2, 10.3}, {30.7, 10.9}});
        for (int x = 0; x <= 30; ++x) QCOMPARE(span(image, x), QString("10-10"));
        QCOMPARE(span(image, 31), QString());
        QCOMPARE(count(image), 31);
    }

    void steepSegmentHasOnePixelPerRow()
    {
        QImage image = blank();
        draw(image, {{0.5, 0.5}, {2.5, 40.5}}); // 20 rows per column: heights 10.5 and 30.5 at the column edges
        QCOMPARE(span(image, 0), QString("1-10"));
        QCOMPARE(span(image, 1), QString("11-30"));
        QCOMPARE(span(image, 2), QString("31-40"));
        QCOMPARE(span(image, 3), QString());
    }

    void pointsInOneColumnJoinWithTheNext()
    {
        QImage image = blank();
        draw(image, {{5.1, 2.2}, {5.5, 20.7}, {5.9, 7.0}, {6.2, 12.0}});
        QCOMPARE(span(image, 5), QString("2-20"));
        QCOMPARE(span(image, 6), QString("9-11")); // from the join's height at x = 6 (8.67) down to 12
    }

    void nanEndsTheRun()
    {
        QImage image = blank();
        const double nan = std::numeric_limits<double>::quiet_NaN();
        draw(image, {{0.5, 5.0}, {10.5, 5.0}, {15.0, nan}, {20.5, 30.0}, {30.5, 30.0}});
        for (int x = 11; x < 20; ++x) QCOMPARE(span(image, x), QString());
        QCOMPARE(span(image, 10), QString("5-5"));
        QCOMPARE(span(image, 20), QString("30-30"));
    }

    void clipsToTheImage()
    {
        QImage image = blank();
        draw(image, {{-100.0, -110.0}, {100.0, 90.0}}); // y = x - 10, from far left to far right
        for (int x = 0; x < 10; ++x) QCOMPARE(span(image, x), QString());
        for (int x = 10; x < image.width(); ++x) QCOMPARE(span(image, x), QString("%1-%1").arg(x - 10));
    }

    void stripesEqualOnePass_data()
    {
        QTest::addColumn<int>("pen");
        QTest::newRow("pen 1") << 1;
        QTest::newRow("pen 2") << 2;
        QTest::newRow("pen 3") << 3;
    }

    void stripesEqualOnePass()
    {
        QFETCH(int, pen);
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> y(-5.0, 55.0);
        std::vector<std::pair<double, double>> points;
        for (double x = -3; x < 45; x += 0.37) points.emplace_back(x, y(rng));
        QImage whole = blank(), striped = blank();
        {
            TraceRaster raster(RasterTarget::of(whole), kInk, pen);
            for (const auto& [px, py] : points) raster.lineTo(px, py);
        }
        const RasterTarget target = RasterTarget::of(striped);
        for (int first : {0, 7, 8, 23}) {
            const int end = first == 0 ? 7 : first == 7 ? 8 : first == 8 ? 23 : 40;
            TraceRaster raster(target, kInk, pen, first, end);
            for (const auto& [px, py] : points) raster.lineTo(px, py);
        }
        QVERIFY(count(whole) > 100);
        QCOMPARE(striped, whole);
    }

    void matchesQPainterWithinAPenWidth_data()
    {
        QTest::addColumn<int>("points");
        QTest::addColumn<double>("dpr");
        QTest::newRow("samples, fewer than columns") << 300 << 1.0;
        QTest::newRow("samples, more than columns") << 2500 << 1.0;
        QTest::newRow("HiDPI") << 900 << 2.0;
    }

    void matchesQPainterWithinAPenWidth()
    {
        QFETCH(int, points);
        QFETCH(double, dpr);
        const lv::widgets::TraceFrame frame = randomFrame(6, points, 11);
        const lv::widgets::RenderSpec spec = specFor(6, QSize(640, 300), dpr);
        const QImage ours = lv::widgets::renderTraces(frame, spec);
        const QImage reference = lv::widgets::renderTracesWithQPainter(frame, spec);
        QCOMPARE(ours.size(), reference.size());
        QCOMPARE(ours.devicePixelRatio(), dpr);
        const int reach = static_cast<int>(dpr); // the pen's width: QPainter centres wide pens, we widen right/down
        QCOMPARE(unmatched(ours, reference, reach), 0);
        QCOMPARE(unmatched(reference, ours, reach), 0);
        const int a = count(ours), b = count(reference);
        QVERIFY2(std::abs(a - b) < b / 4, qPrintable(QString("%1 against %2 pixels").arg(a).arg(b)));
    }
};

LONGVIEW_GUI_TEST(TraceRasterTest)

#include "TraceRasterTest.moc"
