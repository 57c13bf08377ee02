// SessionBrowser's properties table: the recording's subject and site fields from an EDF+ file's header.
#include "SessionBrowser.h"
#include "WidgetTestMain.h"

#include "formats/RecordingOpener.h"

#include <QTest>
#include <QTreeWidget>

using namespace lv::widgets;

class SessionBrowserTest : public QObject {
    Q_OBJECT
private slots:
    void recordingPropertiesListTheSubjectFields()
    {
        auto edf = lv::formats::openRecording({LONGVIEW_TESTDATA "/edf/test_generator.edf", "", ""});
        QVERIFY(edf.ok());
        const GapBands bands = computeGapBands((*edf)->info());
        SessionBrowser browser;
        browser.setRecording(&(*edf)->info(), &bands);
        browser.tree()->setCurrentItem(browser.tree()->topLevelItem(0));
        QMap<QString, QString> rows;
        for (int i = 0; i < browser.properties()->topLevelItemCount(); ++i)
            rows[browser.properties()->topLevelItem(i)->text(0)] = browser.properties()->topLevelItem(i)->text(1);
        QCOMPARE(rows.value("Subject ID"), QString("abcxyz99"));
        QCOMPARE(rows.value("Subject name"), QString("Hans Muller"));
        QCOMPARE(rows.value("Sex"), QString("M"));
        QCOMPARE(rows.value("Birth date"), QString("1969-06-30"));
        QCOMPARE(rows.value("Technician"), QString("Mr. Spotty"));
        QVERIFY(!rows.contains("Location")); // empty fields are not listed
    }
};

LONGVIEW_WIDGET_TEST(SessionBrowserTest)
#include "SessionBrowserTest.moc"
