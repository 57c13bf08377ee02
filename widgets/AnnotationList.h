// The annotations dock: every record of the recording (time, text, type, channel, duration) with a filter;
// double-click jumps the view there.
#pragma once

#include "core/RecordingInfo.h"

#include <QWidget>

class QLineEdit;
class QTreeWidget;

namespace lv::widgets {

class AnnotationList : public QWidget {
    Q_OBJECT
public:
    explicit AnnotationList(QWidget* parent = nullptr);

    void setRecording(const core::RecordingInfo* info);
    void setFilter(const QString& text);
    int visibleCount() const;
    std::vector<core::Uutc> shownTimes() const; // of the records the filter lets through, sorted
    QTreeWidget* list() const { return m_list; }

signals:
    void jumpRequested(qint64 uutc, qint64 durationUs);

private:
    void applyFilter();

    QLineEdit* m_filter;
    QTreeWidget* m_list;
};

} // namespace lv::widgets
