// View > Filter > Custom...: a filter in the words of `convert --filter`, checked as it is typed, and its response
// drawn for a sample rate: magnitude (dB) and phase (degrees) against frequency, as the display applies it
// (zero-phase: the magnitude squared and no phase; causal: the filter's own).
#pragma once

#include <QDialog>
#include <QString>

class QCustomPlot;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;

namespace lv::widgets {

class FilterDialog : public QDialog {
    Q_OBJECT
public:
    // `spec`: the filter shown first; `fs`: the rate its response is drawn for (the recording's most common).
    FilterDialog(const QString& spec, double fs, QWidget* parent = nullptr);

    QString spec() const; // as typed, trimmed
    void setSpec(const QString& spec);
    void setRate(double fs);
    QString problem() const; // why the spec is no filter at this rate, or ""
    // The curves as drawn: frequencies (Hz), magnitude (dB) and phase (degrees), one point per frequency.
    const QVector<double>& frequencies() const { return m_hz; }
    const QVector<double>& magnitudeDb() const { return m_db; }
    const QVector<double>& phaseDegrees() const { return m_degrees; }

private:
    void update();

    QLineEdit* m_spec = nullptr;
    QDoubleSpinBox* m_rate = nullptr;
    QLabel* m_problem = nullptr;
    QCustomPlot* m_plot = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    QVector<double> m_hz, m_db, m_degrees;
};

} // namespace lv::widgets
