// View > Montage > Edit Montages...: a montage built by picking channels: each derivation a channel minus a
// reference (another channel, the average of the channels of its rate, or none), named, filtered on its own if
// wanted, added, removed and reordered; saved under its name (F5-F12) or to a montage file.
#pragma once

#include "core/RecordingInfo.h"
#include "montage/Montage.h"

#include <QDialog>

class QComboBox;
class QLineEdit;
class QTableWidget;

namespace lv::widgets {

class MontageEditor : public QDialog {
    Q_OBJECT
public:
    MontageEditor(const core::RecordingInfo& info, const montage::Montage& initial, QWidget* parent = nullptr);

    montage::Montage montage() const; // as edited, named
    // The derivation of the two pickers: `active` (a channel's index) minus `reference` (a channel's index, -1: none,
    // -2: the average of the grid channels of the active one's rate).
    void addDerivation(int active, int reference);
    void removeRow(int row);
    void moveRow(int row, int by); // up (-1) or down (+1)
    // A derivation's own display filter, in filter::parseFilterSpec's words ("" for the page's); false when the
    // text is no filter.
    bool setRowFilter(int row, const QString& spec);
    int rowCount() const { return static_cast<int>(m_derivations.size()); }
    QTableWidget* table() const { return m_table; }

signals:
    void savedToFile(const QString& path, const QString& error); // error empty: written

private:
    void showRows();
    void saveToFile();

    core::RecordingInfo m_info;
    std::vector<montage::Derivation> m_derivations;
    QLineEdit* m_name;
    QTableWidget* m_table;
    QComboBox* m_active;
    QComboBox* m_reference;
};

// "Fp1 - F7", "Cz - avg(19)", "0.5 x A + 0.5 x B": a derivation's terms in a few words.
QString termsText(const montage::Derivation& derivation);

} // namespace lv::widgets
