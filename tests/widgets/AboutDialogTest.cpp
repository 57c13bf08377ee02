// Help > About Longview: the version and commit, each component with its version and licence, and the GPL's text;
// one dialog at a time from the main window. LONGVIEW_SHOT_DIR keeps a picture of each page.
#include "AboutDialog.h"
#include "MainWindow.h"
#include "WidgetTestMain.h"
#include "WidgetTestSupport.h"

#include "core/Version.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QSet>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>

using lv::widgets::AboutDialog;

class AboutDialogTest : public QObject {
    Q_OBJECT

private slots:
    void namesTheVersionCommitAndComponents()
    {
        AboutDialog dialog;
        const QString text = dialog.text();
        QVERIFY(QString(lv::core::kCommit).size() >= 7); // 12 hex digits, or "unknown" outside a git checkout
        for (const QString& part :
             {QString(lv::core::kVersion), QString(lv::core::kCommit), QString("QCustomPlot"), QString("GPL-3.0"),
              QString("Qt %1").arg(qVersion()), QString("zstd"), QString("OpenSSL"), QString("libdeflate"),
              QString("xsimd"), QString("nlohmann/json"), QString("FFTW"), QString("fftw-3"), QString("pugixml")})
            QVERIFY2(text.contains(part), qPrintable(part + " missing from:\n" + text));
        const auto* label = dialog.findChild<QLabel*>("aboutText");
        QVERIFY(label && label->text().contains(lv::core::kVersion) && label->text().contains(lv::core::kCommit));
        const auto* table = dialog.findChild<QTableWidget*>("components");
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 9);
        QStringList rows;
        for (int r = 0; r < table->rowCount(); ++r) {
            QVERIFY2(!table->item(r, 1)->text().isEmpty(), qPrintable(table->item(r, 0)->text()));
            rows << table->item(r, 0)->text() + ": " + table->item(r, 2)->text();
        }
        QVERIFY2(rows.contains("QCustomPlot: GPL-3.0-or-later"), qPrintable(rows.join('\n')));
        QVERIFY2(rows.contains("OpenSSL: Apache-2.0"), qPrintable(rows.join('\n')));
    }

    void carriesTheLicenceText()
    {
        AboutDialog dialog;
        QVERIFY(dialog.licenceText().contains("GNU GENERAL PUBLIC LICENSE"));
        QVERIFY(dialog.licenceText().contains("Version 3, 29 June 2007"));
        const auto* page = dialog.findChild<QPlainTextEdit*>("licenceText");
        QVERIFY(page && page->toPlainText().contains("GNU GENERAL PUBLIC LICENSE"));
    }

    void rendersBothPages()
    {
        AboutDialog dialog;
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto* tabs = dialog.findChild<QTabWidget*>("aboutTabs");
        QVERIFY(tabs && tabs->count() == 2);
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            const QImage image = dialog.grab().toImage();
            QSet<QRgb> colours;
            for (int y = 0; y < image.height(); y += 2)
                for (int x = 0; x < image.width(); x += 2) colours.insert(image.pixel(x, y));
            QVERIFY2(colours.size() > 10, "the page is nearly uniform");
            lv::test::saveShot(dialog, QString("about-%1.png").arg(i));
        }
    }

    void theWindowShowsOneDialog()
    {
        lv::widgets::MainWindow w;
        w.setInteractive(false);
        AboutDialog* first = w.showAbout();
        QVERIFY(first && first->isVisible());
        QCOMPARE(w.showAbout(), first);
        first->close();
    }
};

LONGVIEW_WIDGET_TEST(AboutDialogTest)
#include "AboutDialogTest.moc"
