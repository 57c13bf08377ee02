// One viewer window per user: a second launch hands its files to the running one over a local socket; and the files
// the desktop asks to open (macOS QFileOpenEvent), gathered as one request.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

class QLocalServer;
class QTimer;

namespace lv::widgets {

// The running instance listens on a per-user name; a later launch connects, writes its absolute paths (UTF-8, one a
// line, then an empty line) and exits once the running one has answered "ok".
class SingleInstance : public QObject {
    Q_OBJECT
public:
    explicit SingleInstance(QString serverName = defaultServerName(), QObject* parent = nullptr);

    // "org.longview.Longview-" and a hash of the user's name (else home folder): each user has their own instance.
    static QString defaultServerName();

    // Gives `paths` to the instance already running: true once it has taken them (then this launch is done), false
    // when none answers within `timeoutMs`.
    bool handOver(const QStringList& paths, int timeoutMs = 3000) const;
    // Listens for later launches, readable by this user only. False when another instance answers on the name
    // (it is running); a name left by one that crashed is removed first.
    bool listen();
    bool isListening() const;
    QString serverName() const { return m_name; }

signals:
    void pathsReceived(const QStringList& paths); // possibly none: a bare launch, the window is only raised

private:
    void onConnection();

    QString m_name;
    QLocalServer* m_server = nullptr;
};

// Files opened from the desktop (Finder, the Dock): one QFileOpenEvent per file, sent to the application; those that
// come together are given as one list (several: merged, as a drop of several files is).
class FileOpenEvents : public QObject {
    Q_OBJECT
public:
    explicit FileOpenEvents(QObject* parent = nullptr); // filters qApp's events

signals:
    void pathsReceived(const QStringList& paths);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QStringList m_pending;
    QTimer* m_timer;
};

} // namespace lv::widgets
