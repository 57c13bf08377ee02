// The plot's scale bars and the page exported as a picture (PNG or PDF, written off the UI thread).
#include "TracePlot.h"

#include "PlotOverlay.h"

#include <QFileInfo>
#include <QPdfWriter>
#include <QPicture>
#include <QSaveFile>
#include <QThreadPool>
#include <qcustomplot.h>

namespace lv::widgets {

namespace {

// The time bar: 1 s on reading pages (5 s to 2 min), else the roundest length near an eighth of the page.
double barSeconds(double page)
{
    if (page >= 5 && page <= 120) return 1;
    double best = 0;
    for (double s : {0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0,
                     3600.0, 7200.0, 21600.0})
        if (s <= page / 8) best = s;
    return best;
}

} // namespace

void TracePlot::updateScaleBars()
{
    ScaleBars bars;
    if (m_info && !m_channels.empty()) {
        bars.seconds = barSeconds(static_cast<double>(m_range.duration()) / 1e6);
        const std::size_t c = m_channels.front();
        if (const double v = unitsPerDivision(c); v > 0 && !sensitivity().isAuto())
            bars.amplitude = QString("%1 %2").arg(amplitudeText(v), unitOf(c));
    }
    m_over->setScaleBars(bars);
}

ScaleBars TracePlot::scaleBars() const { return m_over->scaleBars(); }

void TracePlot::exportPage(const QString& path, QSize size, std::function<void(QString error)> done)
{
    const bool pdf = QFileInfo(path).suffix().compare("pdf", Qt::CaseInsensitive) == 0;
    QPicture picture; // painted here (QCustomPlot lives on this thread), written to the file on a worker
    {
        QCPPainter painter(&picture);
        m_exporting = true;
        m_plot->toPainter(&painter, size.width(), size.height());
        m_exporting = false;
    }
    const QPointer<TracePlot> self(this);
    QThreadPool::globalInstance()->start([self, picture, path, size, pdf, done = std::move(done)] {
        QSaveFile file(path); // a temporary file renamed over `path` once whole: never half a picture
        bool written = file.open(QIODevice::WriteOnly);
        if (written && pdf) {
            QPdfWriter writer(&file);
            writer.setPageSize(QPageSize(QSizeF(size) * 0.75, QPageSize::Point)); // 96 px to the inch
            writer.setPageMargins(QMarginsF());
            writer.setResolution(96);
            QPainter painter(&writer);
            written = painter.isActive();
            if (written) painter.drawPicture(0, 0, picture);
        } else if (written) {
            QImage image(size, QImage::Format_ARGB32_Premultiplied);
            image.fill(Qt::white);
            QPainter painter(&image);
            painter.drawPicture(0, 0, picture);
            painter.end();
            written = image.save(&file, "PNG");
        }
        const QString error = written && file.commit() ? QString() : QString("%1: cannot be written").arg(path);
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, error, done] {
                if (self) done(error);
            },
            Qt::QueuedConnection);
    });
}

} // namespace lv::widgets
