// The per-format options of a conversion as pages of one widget (MEF block length and passwords, EDF/BDF gaps and
// fill value, CSV time column, counts, delimiter and decimal comma, Zarr version and values): the Convert dialog's
// and the queue's.
#pragma once

#include "convert/Targets.h"
#include "core/Error.h"

#include <QStackedWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSettings;

namespace lv::widgets {

class FormatOptions : public QStackedWidget {
    Q_OBJECT
public:
    explicit FormatOptions(QWidget* parent = nullptr);

    void setFormat(const QString& extension); // shows its page: "mefd", "edf", "bdf", "csv", "zarr"
    // `base` with the options of `extension` as shown, or why they are not valid (the two passwords differ, ...).
    core::Result<convert::TargetOptions> targetOptions(const QString& extension,
                                                       convert::TargetOptions base = {}) const;
    void setTargetOptions(const convert::TargetOptions& options);    // every page but the passwords
    void setPasswords(const QString& level1, const QString& level2); // both fields of each
    convert::GapPolicy gaps() const;
    double fillValue() const;
    void addEdfRow(QWidget* widget); // below the EDF/BDF options (the Convert dialog's resolution note)

    // The remembered options of one format in the current group of `settings` (passwords are never saved).
    static convert::TargetOptions loadOptions(const QSettings& settings, convert::TargetOptions base = {});
    static void saveOptions(QSettings& settings, const QString& extension, const convert::TargetOptions& options);
    void save(QSettings& settings, const QString& extension) const; // the options shown (checked or not)

private:
    convert::TargetOptions shown(const QString& extension, convert::TargetOptions base) const; // unchecked
    QDoubleSpinBox* m_blockSeconds;
    QLineEdit* m_level1;
    QLineEdit* m_level1Again;
    QLineEdit* m_level2;
    QLineEdit* m_level2Again;
    QComboBox* m_gaps;
    QLabel* m_gapNote;
    QDoubleSpinBox* m_fillValue;
    QFormLayout* m_edfForm;
    QComboBox* m_time;
    QCheckBox* m_raw;
    QComboBox* m_delimiter;
    QCheckBox* m_decimalComma;
    QComboBox* m_zarrVersion;
    QComboBox* m_zarrValues;
};

} // namespace lv::widgets
