// Adding or editing one of the user's annotations: time (as Go to Time reads it), duration, type and text (each
// offered from a list, or typed), and the channel it is on (or the whole recording). Stays open with the reason
// while the time does not read or falls outside the recording.
#pragma once

#include "core/RecordingInfo.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;

namespace lv::widgets {

class AnnotationDialog : public QDialog {
    Q_OBJECT
public:
    // Texts offered when no list was remembered.
    static QStringList defaultTexts();
    static QStringList types();

    // `texts`: the list offered (the caller remembers texts() after an accept: a new text goes first).
    AnnotationDialog(const core::RecordingInfo& info, const core::Annotation& initial, const QStringList& texts,
                     QWidget* parent = nullptr);
    QStringList texts() const { return m_texts; }

    // What was entered, in the recording's times; nothing while the time does not read or lies outside it.
    std::optional<core::Annotation> annotation() const;
    QLineEdit* timeEdit() const { return m_time; }
    QDoubleSpinBox* durationBox() const { return m_duration; }
    QComboBox* textBox() const { return m_text; }
    QComboBox* typeBox() const { return m_type; }
    QComboBox* channelBox() const { return m_channel; }
    QLabel* problemLabel() const { return m_problem; }

    void accept() override; // refused, with the reason shown, while annotation() is empty

private:
    QString problem() const; // why annotation() is empty, or empty

    const core::RecordingInfo& m_info;
    QStringList m_texts;
    QLineEdit* m_time;
    QDoubleSpinBox* m_duration;
    QComboBox* m_type;
    QComboBox* m_text;
    QComboBox* m_channel;
    QLabel* m_problem;
};

} // namespace lv::widgets
