// File > Export/Convert: the visible channels over the page or the whole recording to CSV or to a new MEF 3.0
// session (convert::exportCsv / exportMef), on a background thread with a progress dialog and cancellation.
#pragma once

#include "core/Time.h"

#include <QObject>
#include <memory>
#include <vector>

class QWidget;

namespace lv::view {
class ViewSession;
}

namespace lv::widgets {

class BackgroundJob;

class ExportRunner : public QObject {
    Q_OBJECT
public:
    explicit ExportRunner(QWidget* parent);

    // Asks where to and what (dialogs), then exports in the background; returns at once.
    void start(std::shared_ptr<view::ViewSession> session, std::vector<std::size_t> channels, core::TimeRange page);
    // Without dialogs: `target` ending in .csv or .mefd; `finished` reports the outcome.
    void run(std::shared_ptr<view::ViewSession> session, std::vector<std::size_t> channels, core::TimeRange range,
             const QString& target, QWidget* progressParent = nullptr);
    bool isRunning() const;

signals:
    void finished(bool ok, const QString& message);

private:
    QWidget* m_parent;
    BackgroundJob* m_job;
};

} // namespace lv::widgets
