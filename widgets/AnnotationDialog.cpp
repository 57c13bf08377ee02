// The form, its lists and the checks before it is accepted.
#include "AnnotationDialog.h"

#include "TimeEntry.h"

#include "core/TimeFormat.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <cmath>

namespace lv::widgets {

QStringList AnnotationDialog::defaultTexts()
{
    return {tr("Seizure onset"), tr("Seizure end"),        tr("Spike"),           tr("Sharp wave"),
            tr("Artefact"),      tr("Eyes open"),          tr("Eyes closed"),     tr("Arousal"),
            tr("Sleep"),         tr("Photic stimulation"), tr("Hyperventilation")};
}

QStringList AnnotationDialog::types() { return {"Note", "Seizure", "Spike", "Artefact", "Sleep", "Event"}; }

AnnotationDialog::AnnotationDialog(const core::RecordingInfo& info, const core::Annotation& initial,
                                   const QStringList& texts, QWidget* parent)
    : QDialog(parent)
    , m_info(info)
    , m_texts(texts)
    , m_time(new QLineEdit(QString::fromStdString(core::formatIso(initial.time))))
    , m_duration(new QDoubleSpinBox)
    , m_type(new QComboBox)
    , m_text(new QComboBox)
    , m_channel(new QComboBox)
    , m_problem(new QLabel)
{
    setObjectName("annotationDialog");
    setWindowTitle(initial.text.empty() ? tr("Add Annotation") : tr("Edit Annotation"));
    m_duration->setRange(0, static_cast<double>(info.end - info.start) / 1e6);
    m_duration->setDecimals(3);
    m_duration->setSuffix(tr(" s"));
    m_duration->setValue(static_cast<double>(initial.durationUs) / 1e6);
    m_type->setEditable(true);
    m_type->addItems(types());
    m_type->setCurrentText(QString::fromStdString(initial.type.empty() ? "Note" : initial.type));
    m_text->setEditable(true);
    m_text->addItems(m_texts);
    m_text->setCurrentText(QString::fromStdString(initial.text));
    m_channel->addItem(tr("Whole recording"));
    for (const core::ChannelInfo& c : info.channels) m_channel->addItem(QString::fromStdString(c.name));
    if (initial.channel) m_channel->setCurrentIndex(info.channelIndex(*initial.channel) + 1);
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet("color: #b00020");
    auto* form = new QFormLayout(this);
    form->addRow(tr("&Time (UTC):"), m_time);
    form->addRow(tr("&Duration:"), m_duration);
    form->addRow(tr("T&ype:"), m_type);
    form->addRow(tr("Te&xt:"), m_text);
    form->addRow(tr("&Channel:"), m_channel);
    form->addRow(m_problem);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &AnnotationDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
    m_time->setToolTip(tr("Seconds from the start, hh:mm:ss (\"1 00:57:50\": the next day), date and time, ISO "
                          "8601 or +SECONDS"));
    m_text->setFocus();
}

QString AnnotationDialog::problem() const
{
    const auto t = parseTimeEntry(m_time->text(), m_info.start);
    if (!t) return QString::fromStdString(t.error().message);
    if (*t < m_info.start || *t > m_info.end) return tr("That time is outside the recording.");
    const auto duration = static_cast<std::int64_t>(std::llround(m_duration->value() * 1e6));
    if (*t + duration > m_info.end) return tr("The annotation would run past the recording's end.");
    return {};
}

std::optional<core::Annotation> AnnotationDialog::annotation() const
{
    if (!problem().isEmpty()) return std::nullopt;
    core::Annotation a;
    a.time = *parseTimeEntry(m_time->text(), m_info.start);
    a.durationUs = static_cast<std::int64_t>(std::llround(m_duration->value() * 1e6));
    a.type = m_type->currentText().trimmed().toStdString();
    a.text = m_text->currentText().trimmed().toStdString();
    if (m_channel->currentIndex() > 0)
        a.channel = m_info.channels.at(static_cast<std::size_t>(m_channel->currentIndex() - 1)).name;
    return a;
}

void AnnotationDialog::accept()
{
    const QString why = problem();
    m_problem->setText(why);
    if (!why.isEmpty()) return;
    if (const QString text = m_text->currentText().trimmed(); !text.isEmpty() && !m_texts.contains(text)) {
        m_texts.prepend(text); // offered next time
        m_texts = m_texts.mid(0, 40);
    }
    QDialog::accept();
}

} // namespace lv::widgets
