// Sensitivity texts as readers type them, read back as written, and converted between voltage units and lengths.
#include "Sensitivity.h"
#include "WidgetTestMain.h"

#include <QTest>

using lv::widgets::Sensitivity;

class SensitivityTest : public QObject {
    Q_OBJECT

private slots:
    void textsReadAsTheyAreMeant_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("value");
        QTest::addColumn<bool>("perMm");
        QTest::addColumn<QString>("unit");
        QTest::addColumn<QString>("canonical");
        QTest::newRow("per mm") << "7 uV/mm" << 7.0 << true << "uV"
                                << "7 uV/mm";
        QTest::newRow("per cm") << "70 uV/cm" << 7.0 << true << "uV"
                                << "7 uV/mm";
        QTest::newRow("no space") << "0.5mV/mm" << 0.5 << true << "mV"
                                  << "0.5 mV/mm";
        QTest::newRow("per div") << "50 uV/div" << 50.0 << false << "uV"
                                 << "50 uV/div";
        QTest::newRow("a unit alone") << "7.5 uV" << 7.5 << false << "uV"
                                      << "7.5 uV/div";
        QTest::newRow("own unit") << " 50 " << 50.0 << false << ""
                                  << "50";
        QTest::newRow("exponent") << "1e3" << 1000.0 << false << ""
                                  << "1000";
        QTest::newRow("micro sign") << "7 \u00b5V/mm" << 7.0 << true << "\u00b5V"
                                    << "7 \u00b5V/mm";
        QTest::newRow("auto") << "auto" << 0.0 << false << ""
                              << "Auto";
        QTest::newRow("empty") << "" << 0.0 << false << ""
                               << "Auto";
    }
    void textsReadAsTheyAreMeant()
    {
        QFETCH(QString, text);
        const auto s = Sensitivity::parse(text);
        QVERIFY(s);
        QTEST(s->value, "value");
        QTEST(s->per == Sensitivity::Per::Millimetre, "perMm");
        QTEST(QString::fromStdString(s->unit), "unit");
        QTEST(s->text(), "canonical");
        QCOMPARE(Sensitivity::parse(s->text()), s); // read back as written
    }

    void otherTextsAreRefused()
    {
        for (const char* text : {"loud", "-7 uV/mm", "0", "7 uV/s", "7/mm", "7 u V", "nan", "inf uV/mm"})
            QVERIFY2(!Sensitivity::parse(text), text);
    }

    void voltageUnitsConvertAndMillimetresScale()
    {
        const Sensitivity perMm = *Sensitivity::parse("7 uV/mm");
        QCOMPARE(perMm.unitsPerDivision("uV", 10.0), 70.0);
        QCOMPARE(perMm.unitsPerDivision("mV", 10.0), 0.07);
        QCOMPARE(perMm.unitsPerDivision("nV", 1.0), 7000.0);
        QCOMPARE(perMm.unitsPerDivision("degC", 10.0), 0.0); // does not convert
        QCOMPARE(perMm.unitsPerDivision("uV", 0.0), 0.0);    // no screen size known
        const Sensitivity own = *Sensitivity::parse("50");
        QCOMPARE(own.unitsPerDivision("degC", 10.0), 50.0); // each channel's own unit, per division
        QCOMPARE(Sensitivity{}.unitsPerDivision("uV", 10.0), 0.0);
        QCOMPARE(perMm.scaled(0.5).text(), QString("3.5 uV/mm"));
    }
};

LONGVIEW_WIDGET_TEST(SensitivityTest)
#include "SensitivityTest.moc"
