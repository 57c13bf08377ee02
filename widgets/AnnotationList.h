// The annotations dock: every record of the recording and the user's own (time, text, type, channel, duration,
// "you" for the user's) with a filter; double-click jumps the view there; the user's can be edited and deleted
// (context menu, Delete key).
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
    void setUserAnnotations(const std::vector<core::Annotation>& user); // listed with the recording's, in time order
    void setFilter(const QString& text);
    int visibleCount() const;
    std::vector<core::Uutc> shownTimes() const; // of the records the filter lets through, sorted
    QTreeWidget* list() const { return m_list; }
    int selectedUserIndex() const; // the selected row's index among the user's annotations, or -1

signals:
    void jumpRequested(qint64 uutc, qint64 durationUs);
    void editRequested(int userIndex);
    void deleteRequested(int userIndex);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    void applyFilter();
    void showMenu(const QPoint& at);

    QLineEdit* m_filter;
    QTreeWidget* m_list;
    const core::RecordingInfo* m_info = nullptr;
    std::vector<core::Annotation> m_user;
};

} // namespace lv::widgets
