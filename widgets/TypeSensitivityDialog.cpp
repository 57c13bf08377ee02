// A form of channel types, each field read by Sensitivity::parse; "Auto" or empty means the common sensitivity.
#include "TypeSensitivityDialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace lv::widgets {

TypeSensitivityDialog::TypeSensitivityDialog(const std::map<core::ChannelType, Sensitivity>& current,
                                             const Sensitivity& common, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Sensitivity by Channel Type"));
    auto* text = new QLabel(tr("A sensitivity for the channels of a type, e.g. 20 uV/mm for EOG or 100 uV/div for "
                               "ECG. Empty: the common sensitivity (%1).")
                                .arg(common.text()),
                            this);
    text->setWordWrap(true);
    auto* form = new QFormLayout;
    for (core::ChannelType type : core::kChannelTypes) {
        auto* edit = new QLineEdit(this);
        const auto it = current.find(type);
        if (it != current.end()) edit->setText(it->second.text());
        edit->setPlaceholderText(common.text());
        edit->setObjectName(QString("sensitivity%1").arg(QString::fromUtf8(core::channelTypeName(type).data())));
        form->addRow(QString::fromUtf8(core::channelTypeName(type).data()), edit);
        m_fields[type] = edit;
    }
    m_error = new QLabel(this);
    m_error->setObjectName("error");
    m_error->setStyleSheet("color: #c62828");
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &TypeSensitivityDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(text);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
}

void TypeSensitivityDialog::accept()
{
    std::map<core::ChannelType, Sensitivity> result;
    for (const auto& [type, edit] : m_fields) {
        const std::optional<Sensitivity> s = Sensitivity::parse(edit->text());
        if (!s) {
            m_error->setText(tr("%1: \"%2\" is not a sensitivity (e.g. 20 uV/mm, 200 uV/cm, 100 uV/div)")
                                 .arg(QString::fromUtf8(core::channelTypeName(type).data()), edit->text()));
            edit->setFocus();
            return;
        }
        result[type] = *s;
    }
    m_result = std::move(result);
    QDialog::accept();
}

} // namespace lv::widgets
