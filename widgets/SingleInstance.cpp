// The hand-over between launches (QLocalServer/QLocalSocket) and the desktop's file-open events.
#include "SingleInstance.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QFileOpenEvent>
#include <QLocalServer>
#include <QLocalSocket>
#include <QTimer>
#include <utility>

namespace lv::widgets {

namespace {

constexpr qsizetype kMaxMessage = 1 << 20; // bytes; a peer that sends more is not a launch of ours

} // namespace

SingleInstance::SingleInstance(QString serverName, QObject* parent) : QObject(parent), m_name(std::move(serverName)) {}

QString SingleInstance::defaultServerName()
{
    QString user = qEnvironmentVariable("USER");
    if (user.isEmpty()) user = qEnvironmentVariable("USERNAME");
    if (user.isEmpty()) user = QDir::homePath(); // a service account without USER
    const QByteArray hash = QCryptographicHash::hash(user.toUtf8(), QCryptographicHash::Sha256).toHex().left(16);
    return "org.longview.Longview-" + QString::fromLatin1(hash);
}

bool SingleInstance::handOver(const QStringList& paths, int timeoutMs) const
{
    const QDeadlineTimer deadline(timeoutMs);
    QLocalSocket socket;
    socket.connectToServer(m_name);
    if (!socket.waitForConnected(static_cast<int>(deadline.remainingTime()))) return false;
    QByteArray message;
    for (const QString& path : paths) message += QFileInfo(path).absoluteFilePath().toUtf8() + '\n';
    message += '\n';
    socket.write(message);
    while (socket.bytesToWrite() > 0)
        if (!socket.waitForBytesWritten(static_cast<int>(deadline.remainingTime()))) return false;
    while (!socket.canReadLine())
        if (!socket.waitForReadyRead(static_cast<int>(deadline.remainingTime()))) return false;
    return socket.readLine().trimmed() == "ok";
}

bool SingleInstance::listen()
{
    if (isListening()) return true;
    {
        QLocalSocket probe; // someone answers: an instance runs
        probe.connectToServer(m_name);
        if (probe.waitForConnected(1000)) return false;
    }
    QLocalServer::removeServer(m_name); // the socket file of an instance that crashed
    if (!m_server) {
        m_server = new QLocalServer(this);
        m_server->setSocketOptions(QLocalServer::UserAccessOption);
        connect(m_server, &QLocalServer::newConnection, this, &SingleInstance::onConnection);
    }
    return m_server->listen(m_name);
}

bool SingleInstance::isListening() const { return m_server && m_server->isListening(); }

// A message is complete at its empty line; the paths are emitted once "ok" has been written back.
void SingleInstance::onConnection()
{
    while (QLocalSocket* socket = m_server->nextPendingConnection()) {
        connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
        connect(socket, &QLocalSocket::readyRead, this, [this, socket] {
            QByteArray buffer = socket->property("message").toByteArray() + socket->readAll();
            if (buffer.size() > kMaxMessage) return socket->abort();
            socket->setProperty("message", buffer);
            if (buffer != "\n" && !buffer.endsWith("\n\n")) return; // more to come
            QStringList paths;
            for (const QByteArray& line : buffer.split('\n'))
                if (!line.isEmpty()) paths << QString::fromUtf8(line);
            socket->write("ok\n");
            socket->flush();
            socket->disconnectFromServer();
            emit pathsReceived(paths);
        });
    }
}

FileOpenEvents::FileOpenEvents(QObject* parent) : QObject(parent), m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    m_timer->setInterval(150); // Finder sends one event per file, in a burst
    connect(m_timer, &QTimer::timeout, this, [this] { emit pathsReceived(std::exchange(m_pending, {})); });
    QCoreApplication::instance()->installEventFilter(this);
}

bool FileOpenEvents::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::FileOpen) return QObject::eventFilter(watched, event);
    const auto* open = static_cast<QFileOpenEvent*>(event);
    const QString path = open->file().isEmpty() ? open->url().toLocalFile() : open->file();
    if (!path.isEmpty()) {
        m_pending << path;
        m_timer->start();
    }
    return true;
}

} // namespace lv::widgets
