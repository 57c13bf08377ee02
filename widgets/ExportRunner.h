// File > Export/Convert: the visible channels over the page or the whole recording to CSV or to a new MEF 3.0
// session (convert::exportCsv / exportMef), on a background thread with a progress dialog and cancellation.
#pragma once

#include "core/TaskRunner.h"
#include "core/Time.h"

#include <QObject>
#include <QThreadPool>
#include <atomic>
#include <memory>
#include <vector>

class QProgressDialog;
class QTimer;
class QWidget;

namespace lv::view {
class ViewSession;
}

namespace lv::widgets {

class ExportRunner : public QObject {
    Q_OBJECT
public:
    explicit ExportRunner(QWidget* parent);
    ~ExportRunner() override;

    // Asks where to and what (dialogs), then exports in the background; returns at once.
    void start(std::shared_ptr<view::ViewSession> session, std::vector<std::size_t> channels, core::TimeRange page);
    // Without dialogs: `target` ending in .csv or .mefd; `finished` reports the outcome.
    void run(std::shared_ptr<view::ViewSession> session, std::vector<std::size_t> channels, core::TimeRange range,
             const QString& target);
    bool isRunning() const { return m_running; }

signals:
    void finished(bool ok, const QString& message);

private:
    QWidget* m_parent;
    QThreadPool m_pool;
    std::shared_ptr<core::CancelToken> m_cancel;
    std::shared_ptr<std::atomic<double>> m_fraction;
    QProgressDialog* m_progress = nullptr;
    QTimer* m_poll;
    bool m_running = false;
};

} // namespace lv::widgets
