// The user's own annotations in the viewer: added through the dialog (M, a double-click), edited, deleted, undone
// and redone, each change saved to the sidecar beside the recording (read back with the engine), back and marked
// as the user's on reopen; a marker dragged moves its annotation (undoable); a time that does not read keeps the
// dialog open with the reason; a damaged sidecar is never overwritten.
#include "UserAnnotations.h"
#include "AnnotationDialog.h"
#include "AnnotationList.h"
#include "MainWindow.h"
#include "TraceLoader.h"
#include "TracePlot.h"
#include "WidgetTestMain.h"
#include "WidgetTestSupport.h"

#include "annotations/AnnotationSidecar.h"
#include "core/TimeFormat.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>

using lv::widgets::AnnotationDialog;
using lv::widgets::MainWindow;

namespace {

// The sidecar's annotations (from the start, in microseconds), or nothing when it is missing or does not read.
std::optional<std::vector<lv::core::Annotation>> onDisk(const QString& session)
{
    auto s = lv::annotations::readSidecar(lv::annotations::sidecarBeside(session.toStdString()));
    if (!s) return std::nullopt;
    return s->annotations;
}

std::size_t savedCount(const QString& session)
{
    const auto list = onDisk(session);
    return list ? list->size() : std::size_t(-1);
}

// The annotation list's rows marked as the user's ("you" in the last column).
QStringList userRows(lv::widgets::AnnotationList* list)
{
    QStringList rows;
    for (int i = 0; i < list->list()->topLevelItemCount(); ++i)
        if (list->list()->topLevelItem(i)->text(5) == "you") rows << list->list()->topLevelItem(i)->text(1);
    return rows;
}

} // namespace

class UserAnnotationsTest : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_session;
    lv::core::Uutc m_start = 0;

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("LongviewTest");
        QCoreApplication::setApplicationName("longview-userannotations-test");
        QSettings().clear();
        qputenv("LONGVIEW_DATA_DIR", (m_dir.path() + "/data").toUtf8());
        m_session = lv::test::makeSynth(m_dir.path(), {"--channels", "4", "--hours", "0.05", "--fs", "128"});
        QVERIFY(!m_session.isEmpty());
    }

    void addEditDeleteUndoAndRedoAreSavedBeside()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(lv::test::openAndWait(w, m_session));
        m_start = w.loader()->info()->start;
        AnnotationDialog* d = w.addAnnotationAt(m_start + 4'000'000);
        QVERIFY(d && d->isVisible());
        QCOMPARE(d->timeEdit()->text(), QString::fromStdString(lv::core::formatIso(m_start + 4'000'000)));
        d->textBox()->setCurrentText("spike, left temporal");
        d->typeBox()->setCurrentText("Spike");
        d->durationBox()->setValue(1.5);
        d->channelBox()->setCurrentIndex(2); // ch002
        d->accept();
        lv::widgets::UserAnnotations* user = w.userAnnotations();
        QCOMPARE(user->annotations().size(), std::size_t{1});
        QTRY_COMPARE(savedCount(m_session), std::size_t{1});
        const lv::core::Annotation saved = onDisk(m_session)->front();
        QCOMPARE(saved.time, lv::core::Uutc(4'000'000)); // from the start
        QCOMPARE(saved.durationUs, std::int64_t(1'500'000));
        QCOMPARE(saved.text, std::string("spike, left temporal"));
        QCOMPARE(saved.type, std::string("Spike"));
        QCOMPARE(saved.channel, std::optional<std::string>("ch002"));
        QCOMPARE(userRows(w.annotations()), QStringList({"spike, left temporal"}));
        QVERIFY(lv::test::waitSettled(w));
        const std::vector<lv::core::Uutc> drawn = w.plot()->drawnAnnotations();
        QVERIFY(std::find(drawn.begin(), drawn.end(), m_start + 4'000'000) != drawn.end());
        lv::test::saveShot(w, "user-annotation.png");

        w.userAnnotations()->undoStack()->undo();
        QVERIFY(userRows(w.annotations()).isEmpty());
        QTRY_COMPARE(savedCount(m_session), std::size_t{0});
        w.userAnnotations()->undoStack()->redo();
        QTRY_COMPARE(savedCount(m_session), std::size_t{1});

        d = w.editAnnotation(0); // moved to 30 s, and its text changed
        QVERIFY(d);
        QCOMPARE(d->textBox()->currentText(), QString("spike, left temporal"));
        d->timeEdit()->setText("+30");
        d->textBox()->setCurrentText("sharp wave");
        d->accept();
        QTRY_VERIFY(savedCount(m_session) == 1 && onDisk(m_session)->front().time == 30'000'000);
        QCOMPARE(onDisk(m_session)->front().text, std::string("sharp wave"));
        QCOMPARE(onDisk(m_session)->front().channel, std::optional<std::string>("ch002"));

        QVERIFY(w.addAnnotationAt(m_start + 60'000'000)); // a second one, then the first deleted from the list
        auto* second = w.findChildren<AnnotationDialog*>().last();
        second->textBox()->setCurrentText("eyes closed");
        second->accept();
        QTRY_COMPARE(savedCount(m_session), std::size_t{2});
        QTreeWidget* rows = w.annotations()->list();
        for (int i = 0; i < rows->topLevelItemCount(); ++i)
            if (rows->topLevelItem(i)->text(1) == "sharp wave") rows->setCurrentItem(rows->topLevelItem(i));
        QCOMPARE(w.annotations()->selectedUserIndex(), 0);
        rows->setFocus();
        QTest::keyClick(rows, Qt::Key_Delete);
        QCOMPARE(userRows(w.annotations()), QStringList({"eyes closed"}));
        QTRY_COMPARE(savedCount(m_session), std::size_t{1});
        QCOMPARE(w.userAnnotations()->undoStack()->count(), 4); // add, edit, add, delete
        w.close();
    }

    void reopenedTheyAreBackMarkedAsTheUsers()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(lv::test::openAndWait(w, m_session));
        QCOMPARE(userRows(w.annotations()), QStringList({"eyes closed"}));
        QCOMPARE(w.userAnnotations()->annotations().front().time, m_start + 60'000'000);
        QCOMPARE(w.userAnnotations()->undoStack()->count(), 0); // a new history
        // The recording's own are listed too and cannot be deleted.
        QTreeWidget* rows = w.annotations()->list();
        QVERIFY(rows->topLevelItemCount() > 1);
        rows->setCurrentItem(rows->topLevelItem(0));
        QCOMPARE(w.annotations()->selectedUserIndex(), -1);
        w.close();
    }

    // Exported to CSV and EDF+, removed, imported again: the same annotations (EDF+ keeps the type in the text).
    void exportedAndImportedAgain()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(lv::test::openAndWait(w, m_session));
        lv::widgets::UserAnnotations* user = w.userAnnotations();
        QVERIFY(user->add({m_start + 2'500'000, 1'000'000, "Spike", "=x, \"q\"", std::string("ch004")}));
        const std::vector<lv::core::Annotation> before = user->annotations();
        QCOMPARE(before.size(), std::size_t{2});
        QSignalSpy exported(user, &lv::widgets::UserAnnotations::exported);
        user->exportTo(m_dir.path() + "/mine.csv");
        QTRY_COMPARE(exported.count(), 1);
        user->exportTo(m_dir.path() + "/mine.edf");
        QTRY_COMPARE(exported.count(), 2);
        QCOMPARE(exported.last().first().toInt(), 2);
        QVERIFY(user->remove(0) && user->remove(0));
        QSignalSpy imported(user, &lv::widgets::UserAnnotations::imported);
        user->importFrom(m_dir.path() + "/mine.csv");
        QTRY_COMPARE(imported.count(), 1);
        QCOMPARE(user->annotations().size(), before.size());
        for (std::size_t i = 0; i < before.size(); ++i) {
            QCOMPARE(user->annotations()[i].time, before[i].time);
            QCOMPARE(user->annotations()[i].durationUs, before[i].durationUs);
            QCOMPARE(user->annotations()[i].type, before[i].type);
            QCOMPARE(user->annotations()[i].text, before[i].text);
            QCOMPARE(user->annotations()[i].channel, before[i].channel);
        }
        user->undoStack()->undo(); // the import is one step
        QVERIFY(user->annotations().empty());
        user->importFrom(m_dir.path() + "/mine.edf");
        QTRY_COMPARE(imported.count(), 2);
        QCOMPARE(user->annotations().size(), before.size());
        QCOMPARE(user->annotations()[0].text, "Spike: " + before[0].text);
        QCOMPARE(user->annotations()[0].durationUs, before[0].durationUs);
        QSignalSpy failed(user, &lv::widgets::UserAnnotations::fileFailed);
        user->importFrom(m_dir.path() + "/nothing.csv");
        QTRY_COMPARE(failed.count(), 1);
        QVERIFY(failed.first().first().toString().startsWith(m_dir.path() + "/nothing.csv: "));
        while (user->undoStack()->canUndo()) user->undoStack()->undo(); // as it was for the next test
        QTRY_COMPARE(savedCount(m_session), std::size_t{1});
        w.close();
    }

    void aTimeThatDoesNotReadKeepsTheDialogOpen()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(lv::test::openAndWait(w, m_session));
        const std::size_t before = w.userAnnotations()->annotations().size();
        AnnotationDialog* d = w.addAnnotationAt(m_start);
        QVERIFY(d);
        d->timeEdit()->setText("tomorrow");
        d->accept();
        QVERIFY(d->isVisible());
        QVERIFY2(!d->problemLabel()->text().isEmpty(), "no reason shown");
        d->timeEdit()->setText("+999999");
        d->accept();
        QCOMPARE(d->problemLabel()->text(), QString("That time is outside the recording."));
        d->timeEdit()->setText("+170");
        d->durationBox()->setValue(20);
        d->accept();
        QCOMPARE(d->problemLabel()->text(), QString("The annotation would run past the recording's end."));
        QCOMPARE(w.userAnnotations()->annotations().size(), before);
        d->reject();
        w.close();
    }

    // A double-click on the traces opens the dialog at that time; with Shift, on the lane's channel.
    void aDoubleClickMarksThere()
    {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1200, 800);
        w.show();
        QVERIFY(lv::test::openAndWait(w, m_session));
        QVERIFY(lv::test::waitSettled(w));
        QWidget* canvas = w.plot()->findChild<QWidget*>();
        const QRect data = w.plot()->dataRect();
        const QPoint lane3 = canvas->mapFrom(w.plot(), QPoint(data.center().x(), data.top() + data.height() * 5 / 8));
        QTest::mouseDClick(canvas, Qt::LeftButton, Qt::ShiftModifier, lane3);
        auto* d = w.findChild<AnnotationDialog*>();
        QVERIFY(d);
        QCOMPARE(d->channelBox()->currentText(), QString("ch003"));
        const auto t = d->annotation();
        QVERIFY(t);
        const lv::core::TimeRange view = w.view().range();
        QVERIFY(std::llabs(t->time - (view.start + view.duration() / 2)) < view.duration() / 50);
        d->reject();
        w.close();
    }

    // Held and dragged, the marker of the user's annotation moves it there (and the sidecar); the drag draws no
    // range to zoom into; undo puts it back.
    void aDraggedMarkerMovesItsAnnotation()
    {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1200, 800);
        w.show();
        QVERIFY(lv::test::openAndWait(w, m_session));
        QVERIFY(lv::test::waitSettled(w));
        const lv::core::TimeRange view = w.view().range();
        const lv::core::Uutc at = view.start + view.duration() / 4;
        QSignalSpy saved(w.userAnnotations(), &lv::widgets::UserAnnotations::saved);
        const std::size_t before = w.userAnnotations()->annotations().size();
        QVERIFY(w.userAnnotations()->add({at, 0, "Note", "drag me", std::nullopt}));
        QTRY_VERIFY(saved.count() >= 1);
        int index = -1;
        for (std::size_t i = 0; i < w.userAnnotations()->annotations().size(); ++i)
            if (w.userAnnotations()->annotations()[i].text == "drag me") index = static_cast<int>(i);
        QVERIFY(index >= 0);
        QCOMPARE(w.userAnnotations()->annotations().size(), before + 1);
        QWidget* canvas = w.plot()->findChild<QWidget*>();
        const QRect data = w.plot()->dataRect();
        const int y = data.top() + data.height() / 3;
        const QPoint from = canvas->mapFrom(w.plot(), QPoint(static_cast<int>(std::lround(w.plot()->pixelOf(at))), y));
        const QPoint to = from + QPoint(data.width() / 4, 0);
        QSignalSpy ranges(w.plot(), &lv::widgets::TracePlot::rangeSelected);
        QTest::mousePress(canvas, Qt::LeftButton, Qt::NoModifier, from);
        for (int step = 1; step <= 4; ++step) {
            const QPoint p = from + (to - from) * step / 4;
            QMouseEvent move(QEvent::MouseMove, p, canvas->mapToGlobal(p), Qt::NoButton, Qt::LeftButton,
                             Qt::NoModifier);
            QApplication::sendEvent(canvas, &move);
        }
        QTest::mouseRelease(canvas, Qt::LeftButton, Qt::NoModifier, to);
        QCOMPARE(ranges.count(), 0);
        QCOMPARE(w.view().range(), view); // no zoom
        const lv::core::Uutc perPixel = view.duration() / data.width();
        const lv::core::Uutc expected = at + view.duration() / 4;
        lv::core::Uutc moved = 0;
        for (const lv::core::Annotation& a : w.userAnnotations()->annotations())
            if (a.text == "drag me") moved = a.time;
        QVERIFY2(std::llabs(moved - expected) <= 2 * perPixel,
                 qPrintable(QString("moved to %1, expected %2 +- %3").arg(moved).arg(expected).arg(2 * perPixel)));
        QTRY_VERIFY(saved.count() >= 2);
        const auto stored = onDisk(m_session);
        QVERIFY(stored);
        bool onDiskMoved = false;
        for (const lv::core::Annotation& a : *stored)
            onDiskMoved |= a.text == "drag me" && w.loader()->info()->start + a.time == moved;
        QVERIFY(onDiskMoved);
        w.userAnnotations()->undoStack()->undo();
        bool back = false;
        for (const lv::core::Annotation& a : w.userAnnotations()->annotations())
            back |= a.text == "drag me" && a.time == at;
        QVERIFY(back);
        w.userAnnotations()->undoStack()->undo(); // and the add
        QCOMPARE(w.userAnnotations()->annotations().size(), before);
        QTRY_COMPARE(savedCount(m_session), before);
        w.close();
    }

    void aDamagedSidecarIsNeverOverwritten()
    {
        const QString sidecar = QString::fromStdString(lv::annotations::sidecarBeside(m_session.toStdString()));
        QFile file(sidecar);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write("{\"format\": \"longview-annotations\", ");
        file.close();
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(lv::test::openAndWait(w, m_session));
        QVERIFY(w.statusBar()->currentMessage().startsWith("your annotations did not load: " + sidecar +
                                                           ": not a Longview annotation file"));
        QVERIFY(!w.userAnnotations()->editable());
        QVERIFY(!w.addAnnotationAt(m_start));
        QVERIFY(!w.userAnnotations()->add({m_start, 0, "Note", "x", std::nullopt}));
        QTest::qWait(100);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("{\"format\": \"longview-annotations\", "));
        w.close();
    }
};

LONGVIEW_WIDGET_TEST(UserAnnotationsTest)
#include "UserAnnotationsTest.moc"
