// View > Sensitivity by Channel Type...: one field per channel type (EOG at 20 uV/mm beside EEG at 7 uV/mm); an
// empty field leaves the type on the common sensitivity.
#pragma once

#include "Sensitivity.h"

#include "core/ChannelType.h"

#include <QDialog>
#include <map>

class QLabel;
class QLineEdit;

namespace lv::widgets {

class TypeSensitivityDialog : public QDialog {
    Q_OBJECT
public:
    TypeSensitivityDialog(const std::map<core::ChannelType, Sensitivity>& current, const Sensitivity& common,
                          QWidget* parent = nullptr);

    QLineEdit* field(core::ChannelType type) const { return m_fields.at(type); }
    // After accept(): every type's sensitivity (Auto: the common one).
    const std::map<core::ChannelType, Sensitivity>& result() const { return m_result; }
    void accept() override; // refused, with the reason shown, while a field does not read

private:
    std::map<core::ChannelType, QLineEdit*> m_fields;
    std::map<core::ChannelType, Sensitivity> m_result;
    QLabel* m_error = nullptr;
};

} // namespace lv::widgets
