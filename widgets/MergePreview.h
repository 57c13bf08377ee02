// The merge dialog's preview of the merged time line: one row per input on a shared time axis (its data, the
// overlaps in red), the result underneath (data, gaps grey, overlaps red) and the merged channels' names, painted
// from a convert::MergeTimeline value (the engine's dry run), so it is tested without files.
#pragma once

#include "convert/MergeTimeline.h"

#include <QColor>
#include <QRectF>
#include <QString>
#include <QWidget>
#include <optional>
#include <vector>

namespace lv::widgets {

class MergePreview : public QWidget {
    Q_OBJECT
public:
    enum class Kind { Data, Gap, Overlap };
    struct Bar {
        QRectF rect;
        Kind kind = Kind::Data;
        core::TimeRange range; // what it stands for (the result's gaps and overlaps are labelled with its length)
    };
    struct Row {
        QString label; // "1  a.mefd", ..., "Result"
        QRectF rect;   // the row's extent on the time axis
        std::vector<Bar> bars;
    };
    // Where everything goes in a widget of `size`: a pure function of the time line.
    struct Layout {
        QRectF axis;           // the shared time axis: x from span.start to span.end
        core::TimeRange span;  // the merged time line's
        std::vector<Row> rows; // the inputs in the merge's order, then the result
        QString channels;      // "3 channels: Fp1, Fp2, Cz" (stack: the prefixed names)
        QString startLabel, endLabel;
        double xOf(core::Uutc t) const;
    };
    static constexpr int kRowHeight = 18;
    static constexpr int kRowGap = 6;
    static constexpr int kLabelWidth = 150;
    static Layout layout(const convert::MergeTimeline& timeline, QSize size);
    static QColor colorOf(Kind kind);

    explicit MergePreview(QWidget* parent = nullptr);

    void setTimeline(const convert::MergeTimeline& timeline);
    void setMessage(const QString& message); // instead of a time line ("planning ...", or why there is none)
    const std::optional<convert::MergeTimeline>& timeline() const { return m_timeline; }
    QString message() const { return m_message; }
    Layout currentLayout() const; // layout(timeline, size()); empty without a time line

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::optional<convert::MergeTimeline> m_timeline;
    QString m_message;
};

} // namespace lv::widgets
