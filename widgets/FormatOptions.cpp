// The pages are built once; the options go in and out as convert::TargetOptions, remembered per format.
#include "FormatOptions.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>

#include <algorithm>

namespace lv::widgets {

namespace {

QLineEdit* passwordEdit(const QString& name, const QString& placeholder)
{
    auto* edit = new QLineEdit;
    edit->setObjectName(name);
    edit->setEchoMode(QLineEdit::Password);
    edit->setPlaceholderText(placeholder);
    return edit;
}

void selectData(QComboBox* box, const QVariant& data) { box->setCurrentIndex(std::max(0, box->findData(data))); }

} // namespace

FormatOptions::FormatOptions(QWidget* parent) : QStackedWidget(parent)
{
    // MEF 3.0
    auto* mef = new QWidget;
    m_blockSeconds = new QDoubleSpinBox;
    m_blockSeconds->setObjectName("blockSeconds");
    m_blockSeconds->setRange(0, 3600);
    m_blockSeconds->setDecimals(2);
    m_blockSeconds->setSpecialValueText(tr("default (10 s, at most 32768 samples)"));
    m_blockSeconds->setSuffix(" s");
    m_level1 = passwordEdit("level1", tr("none"));
    m_level1Again = passwordEdit("level1Again", tr("type it again"));
    m_level2 = passwordEdit("level2", tr("none"));
    m_level2Again = passwordEdit("level2Again", tr("type it again"));
    auto* mefForm = new QFormLayout(mef);
    mefForm->addRow(tr("Block length:"), m_blockSeconds);
    mefForm->addRow(tr("Level-1 password:"), m_level1);
    mefForm->addRow(QString(), m_level1Again);
    mefForm->addRow(tr("Level-2 password:"), m_level2);
    mefForm->addRow(QString(), m_level2Again);
    // EDF+ / BDF+
    auto* edf = new QWidget;
    m_gaps = new QComboBox;
    m_gaps->setObjectName("gaps");
    m_gaps->addItem(tr("Discontinuous (EDF+D)"), int(convert::GapPolicy::Discontinuous));
    m_gaps->addItem(tr("Split into continuous files"), int(convert::GapPolicy::Split));
    m_gaps->addItem(tr("Fill with a value"), int(convert::GapPolicy::Fill));
    m_gapNote = new QLabel;
    m_gapNote->setWordWrap(true);
    m_fillValue = new QDoubleSpinBox;
    m_fillValue->setObjectName("fillValue");
    m_fillValue->setRange(-1e9, 1e9);
    m_fillValue->setDecimals(3);
    m_edfForm = new QFormLayout(edf);
    m_edfForm->addRow(tr("Gaps:"), m_gaps);
    m_edfForm->addRow(m_gapNote);
    m_edfForm->addRow(tr("Fill value:"), m_fillValue);
    const auto gapsChanged = [this] {
        const auto policy = gaps();
        m_fillValue->setEnabled(policy == convert::GapPolicy::Fill);
        m_gapNote->setText(
            policy == convert::GapPolicy::Discontinuous ? tr("One EDF+D file: records without samples are left out, "
                                                             "every record keeps its time.")
            : policy == convert::GapPolicy::Split
                ? tr("One EDF+C file per continuous part (name_1, name_2, ...).")
                : tr("One EDF+C file: gaps hold the fill value, each filled run marked by a \"Gap\" annotation."));
    };
    connect(m_gaps, &QComboBox::currentIndexChanged, this, gapsChanged);
    gapsChanged();
    // CSV
    auto* csv = new QWidget;
    m_time = new QComboBox;
    m_time->setObjectName("time");
    m_time->addItem(tr("Seconds from the start"), int(convert::TimeColumn::Seconds));
    m_time->addItem(tr("ISO 8601 (UTC)"), int(convert::TimeColumn::Iso));
    m_time->addItem(tr("uUTC (microseconds since 1970)"), int(convert::TimeColumn::Uutc));
    m_raw = new QCheckBox(tr("Stored integer counts instead of physical values"));
    m_raw->setObjectName("raw");
    m_delimiter = new QComboBox;
    m_delimiter->setObjectName("delimiter");
    m_delimiter->addItem(tr("Comma"), QString(","));
    m_delimiter->addItem(tr("Semicolon"), QString(";"));
    m_delimiter->addItem(tr("Tab"), QString("\t"));
    m_decimalComma = new QCheckBox(tr("Decimal comma (Excel in German, French, ... locales)"));
    m_decimalComma->setObjectName("decimalComma");
    auto* csvForm = new QFormLayout(csv);
    csvForm->addRow(tr("Time column:"), m_time);
    csvForm->addRow(m_raw);
    csvForm->addRow(tr("Delimiter:"), m_delimiter);
    csvForm->addRow(m_decimalComma);
    connect(m_decimalComma, &QCheckBox::toggled, this, [this] { // a decimal comma needs ';' or tab
        if (m_decimalComma->isChecked() && m_delimiter->currentData().toString() == ",")
            m_delimiter->setCurrentIndex(1);
    });
    connect(m_delimiter, &QComboBox::currentIndexChanged, this, [this] {
        if (m_delimiter->currentData().toString() == ",") m_decimalComma->setChecked(false);
    });
    // Zarr
    auto* zarr = new QWidget;
    m_zarrVersion = new QComboBox;
    m_zarrVersion->setObjectName("zarrVersion");
    m_zarrVersion->addItem(tr("2 (consolidated metadata; zarr-python 2 and 3, xarray)"), 2);
    m_zarrVersion->addItem(tr("3"), 3);
    m_zarrValues = new QComboBox;
    m_zarrValues->setObjectName("zarrValues");
    m_zarrValues->addItem(tr("Stored counts with scale and offset (exact), a mask where samples are missing"),
                          int(convert::ZarrValues::Counts));
    m_zarrValues->addItem(tr("Physical values, float32, NaN where missing"), int(convert::ZarrValues::Float32));
    m_zarrValues->addItem(tr("Physical values, float64, NaN where missing"), int(convert::ZarrValues::Float64));
    auto* zarrForm = new QFormLayout(zarr);
    zarrForm->addRow(tr("Zarr version:"), m_zarrVersion);
    zarrForm->addRow(tr("Values:"), m_zarrValues);
    addWidget(mef);
    addWidget(edf);
    addWidget(csv);
    addWidget(zarr);
}

void FormatOptions::setFormat(const QString& extension)
{
    setCurrentIndex(extension == "mefd" ? 0 : extension == "csv" ? 2 : extension == "zarr" ? 3 : 1);
    for (int i = 0; i < count(); ++i) // sized by the page shown, not by the largest one
        widget(i)->setSizePolicy(i == currentIndex() ? QSizePolicy::Preferred : QSizePolicy::Ignored,
                                 i == currentIndex() ? QSizePolicy::Preferred : QSizePolicy::Ignored);
    updateGeometry();
}

core::Result<convert::TargetOptions> FormatOptions::targetOptions(const QString& extension,
                                                                  convert::TargetOptions t) const
{
    const auto refuse = [](const QString& why) {
        return core::makeError(core::ErrorCode::InvalidArgument, why.toStdString());
    };
    if (extension == "mefd") {
        if (m_level1->text() != m_level1Again->text()) return refuse(tr("The two level-1 passwords differ."));
        if (m_level2->text() != m_level2Again->text()) return refuse(tr("The two level-2 passwords differ."));
        if (!m_level1->text().isEmpty() && m_level1->text() == m_level2->text())
            return refuse(tr("The level-1 and level-2 passwords are identical: level 2 would never open. Choose "
                             "different ones."));
    }
    return shown(extension, std::move(t));
}

convert::TargetOptions FormatOptions::shown(const QString& extension, convert::TargetOptions t) const
{
    if (extension == "mefd") {
        t.blockSeconds = m_blockSeconds->value();
        t.level1Password = m_level1->text().toStdString();
        t.level2Password = m_level2->text().toStdString();
    } else if (extension == "csv") {
        t.time = static_cast<convert::TimeColumn>(m_time->currentData().toInt());
        t.raw = m_raw->isChecked();
        t.csvDelimiter = m_delimiter->currentData().toString().at(0).toLatin1();
        t.csvDecimalComma = m_decimalComma->isChecked();
    } else if (extension == "zarr") {
        t.zarrVersion = m_zarrVersion->currentData().toInt();
        t.zarrValues = static_cast<convert::ZarrValues>(m_zarrValues->currentData().toInt());
    } else {
        t.gaps = gaps();
        t.fillValue = fillValue();
    }
    return t;
}

void FormatOptions::setTargetOptions(const convert::TargetOptions& t)
{
    m_blockSeconds->setValue(t.blockSeconds);
    selectData(m_gaps, int(t.gaps));
    m_fillValue->setValue(t.fillValue);
    selectData(m_time, int(t.time));
    m_raw->setChecked(t.raw);
    selectData(m_delimiter, QString(QChar(t.csvDelimiter)));
    m_decimalComma->setChecked(t.csvDecimalComma);
    selectData(m_zarrVersion, t.zarrVersion);
    selectData(m_zarrValues, int(t.zarrValues));
}

void FormatOptions::setPasswords(const QString& level1, const QString& level2)
{
    for (QLineEdit* e : {m_level1, m_level1Again}) e->setText(level1);
    for (QLineEdit* e : {m_level2, m_level2Again}) e->setText(level2);
}

convert::GapPolicy FormatOptions::gaps() const
{
    return static_cast<convert::GapPolicy>(m_gaps->currentData().toInt());
}
double FormatOptions::fillValue() const { return m_fillValue->value(); }
void FormatOptions::addEdfRow(QWidget* widget) { m_edfForm->addRow(widget); }

convert::TargetOptions FormatOptions::loadOptions(const QSettings& s, convert::TargetOptions t)
{
    t.blockSeconds = s.value("blockSeconds", 0.0).toDouble();
    t.gaps = static_cast<convert::GapPolicy>(s.value("gaps", 0).toInt());
    t.fillValue = s.value("fillValue", 0.0).toDouble();
    t.time = static_cast<convert::TimeColumn>(s.value("time", 0).toInt());
    t.raw = s.value("raw", false).toBool();
    const QString delimiter = s.value("delimiter", ",").toString();
    t.csvDelimiter = delimiter.size() == 1 ? delimiter.at(0).toLatin1() : ',';
    t.csvDecimalComma = s.value("decimalComma", false).toBool();
    t.zarrVersion = s.value("zarrVersion", 2).toInt() == 3 ? 3 : 2;
    t.zarrValues = static_cast<convert::ZarrValues>(std::clamp(s.value("zarrValues", 0).toInt(), 0, 2));
    return t;
}

void FormatOptions::save(QSettings& settings, const QString& extension) const
{
    saveOptions(settings, extension, shown(extension, {}));
}

void FormatOptions::saveOptions(QSettings& s, const QString& extension, const convert::TargetOptions& t)
{
    if (extension == "mefd") {
        s.setValue("blockSeconds", t.blockSeconds); // passwords are never saved
    } else if (extension == "csv") {
        s.setValue("time", int(t.time));
        s.setValue("raw", t.raw);
        s.setValue("delimiter", QString(QChar(t.csvDelimiter)));
        s.setValue("decimalComma", t.csvDecimalComma);
    } else if (extension == "zarr") {
        s.setValue("zarrVersion", t.zarrVersion);
        s.setValue("zarrValues", int(t.zarrValues));
    } else {
        s.setValue("gaps", int(t.gaps));
        s.setValue("fillValue", t.fillValue);
    }
}

} // namespace lv::widgets
