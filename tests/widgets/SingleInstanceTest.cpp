// One window per user: a later launch hands its paths (in order, any characters, made absolute) to the instance
// listening on the name; a second instance finds the first; a socket file left by a crash does not stop listening;
// the desktop's file-open events come as one list.
#include "SingleInstance.h"
#include "WidgetTestMain.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileOpenEvent>
#include <QSignalSpy>
#include <QTest>
#include <cstring>
#include <future>
#ifdef Q_OS_UNIX
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#endif

using lv::widgets::FileOpenEvents;
using lv::widgets::SingleInstance;

namespace {

QString uniqueName()
{
    static int n = 0;
    return QString("longview-test-%1-%2").arg(QCoreApplication::applicationPid()).arg(++n);
}

// A later launch: another thread, as the blocking client must not hold up the server's event loop.
std::future<bool> launch(const QString& name, const QStringList& paths)
{
    return std::async(std::launch::async, [name, paths] { return SingleInstance(name).handOver(paths); });
}

} // namespace

class SingleInstanceTest : public QObject {
    Q_OBJECT

private slots:
    void theServerNameIsPerUser()
    {
        const QString name = SingleInstance::defaultServerName();
        QVERIFY(name.startsWith("org.longview.Longview-"));
        QCOMPARE(name, SingleInstance::defaultServerName());
        const QByteArray user = qgetenv("USER");
        qputenv("USER", "someone-else");
        const QString other = SingleInstance::defaultServerName();
        qputenv("USER", user);
        QVERIFY(other != name);
    }

    void aLaterLaunchHandsOverItsPaths()
    {
        SingleInstance running(uniqueName());
        QVERIFY(running.listen());
        QSignalSpy received(&running, &SingleInstance::pathsReceived);
        const QStringList paths = {"/tmp/Ärger ü.edf", "/data/zweite Aufnahme/b.bdf", "/data/a.edf"};
        std::future<bool> handed = launch(running.serverName(), paths);
        QTRY_COMPARE(received.count(), 1);
        QVERIFY(handed.get());
        QCOMPARE(received.at(0).at(0).toStringList(), paths);
    }

    void relativePathsAreMadeAbsoluteByTheLaunch()
    {
        SingleInstance running(uniqueName());
        QVERIFY(running.listen());
        QSignalSpy received(&running, &SingleInstance::pathsReceived);
        std::future<bool> handed = launch(running.serverName(), {"here/c.edf"});
        QTRY_COMPARE(received.count(), 1);
        QVERIFY(handed.get());
        QCOMPARE(received.at(0).at(0).toStringList(), QStringList{QDir::current().absoluteFilePath("here/c.edf")});
    }

    // A launch without files still reaches the running window (which raises itself).
    void aBareLaunchIsHandedOverToo()
    {
        SingleInstance running(uniqueName());
        QVERIFY(running.listen());
        QSignalSpy received(&running, &SingleInstance::pathsReceived);
        std::future<bool> handed = launch(running.serverName(), {});
        QTRY_COMPARE(received.count(), 1);
        QVERIFY(handed.get());
        QVERIFY(received.at(0).at(0).toStringList().isEmpty());
    }

    void withoutARunningInstanceNothingIsHandedOver()
    {
        QVERIFY(!SingleInstance(uniqueName()).handOver({"/tmp/x.edf"}, 1000));
    }

    void aSecondInstanceFindsTheFirst()
    {
        const QString name = uniqueName();
        SingleInstance first(name);
        QVERIFY(first.listen());
        SingleInstance second(name);
        QVERIFY(!second.listen());
        QVERIFY(!second.isListening());
        QVERIFY(first.isListening()); // and still reachable
        QSignalSpy received(&first, &SingleInstance::pathsReceived);
        std::future<bool> handed = launch(name, {"/tmp/a.edf"});
        QTRY_COMPARE(received.count(), 1);
        QVERIFY(handed.get());
    }

    // An instance that crashed left its socket file: nobody answers on it, it is removed and listened on.
    void aStaleSocketFileIsReplaced()
    {
#ifdef Q_OS_UNIX
        const QString name = uniqueName();
        const QByteArray file = QFile::encodeName(QDir::tempPath() + "/" + name);
        {
            // What a killed instance leaves: a bound socket file with nobody listening.
            sockaddr_un address{};
            address.sun_family = AF_UNIX;
            QVERIFY(static_cast<std::size_t>(file.size()) < sizeof(address.sun_path));
            std::memcpy(address.sun_path, file.constData(), static_cast<std::size_t>(file.size()));
            const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
            QVERIFY(fd >= 0);
            QCOMPARE(::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)), 0);
            ::close(fd);
        }
        QVERIFY(QFile::exists(QString::fromLocal8Bit(file)));
        SingleInstance running(name);
        QVERIFY(running.listen());
        QSignalSpy received(&running, &SingleInstance::pathsReceived);
        std::future<bool> handed = launch(name, {"/tmp/after-a-crash.edf"});
        QTRY_COMPARE(received.count(), 1);
        QVERIFY(handed.get());
#else
        QSKIP("socket files are a Unix thing");
#endif
    }

    void fileOpenEventsComeAsOneList()
    {
        FileOpenEvents events;
        QSignalSpy received(&events, &FileOpenEvents::pathsReceived);
        QFileOpenEvent first(QStringLiteral("/tmp/Ärger ü.edf"));
        QFileOpenEvent second(QUrl::fromLocalFile("/tmp/b.bdf"));
        QCoreApplication::sendEvent(QCoreApplication::instance(), &first);
        QCoreApplication::sendEvent(QCoreApplication::instance(), &second);
        QTRY_COMPARE(received.count(), 1);
        QCOMPARE(received.at(0).at(0).toStringList(), QStringList({"/tmp/Ärger ü.edf", "/tmp/b.bdf"}));
        QTest::qWait(300);
        QCOMPARE(received.count(), 1);
    }
};

LONGVIEW_WIDGET_TEST(SingleInstanceTest)
#include "SingleInstanceTest.moc"
