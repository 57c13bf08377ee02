// A table of derivations (name, terms, filter) over two channel pickers; the filter cell is checked as typed.
#include "MontageEditor.h"

#include "filter/FilterSpec.h"
#include "montage/MontageFile.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace lv::widgets {

namespace {

enum Column { kName, kTerms, kFilter, kColumns };

QString number(double v) { return QString::number(v, 'g', 6); }

} // namespace

QString termsText(const montage::Derivation& d)
{
    if (d.terms.size() == 2 && d.terms[0].weight == 1 && d.terms[1].weight == -1)
        return QString::fromStdString(d.terms[0].channel + " - " + d.terms[1].channel);
    if (d.terms.size() > 2 && d.terms[0].weight > 0) { // a channel minus an average
        const double share = -d.terms[1].weight;
        const bool average = std::all_of(d.terms.begin() + 1, d.terms.end(),
                                         [&](const montage::Term& t) { return std::abs(t.weight + share) < 1e-12; });
        if (average && std::abs(d.terms[0].weight + share - 1) < 1e-9)
            return QString("%1 - avg(%2)").arg(QString::fromStdString(d.terms[0].channel)).arg(1.0 / share, 0, 'g', 4);
    }
    QString out;
    for (const montage::Term& t : d.terms) {
        const QString name = QString::fromStdString(t.channel);
        const QString term = t.weight == 1 ? name : number(std::abs(t.weight)) + " x " + name;
        out += out.isEmpty() ? (t.weight < 0 ? "-" + term : term) : (t.weight < 0 ? " - " : " + ") + term;
    }
    return out;
}

MontageEditor::MontageEditor(const core::RecordingInfo& info, const montage::Montage& initial, QWidget* parent)
    : QDialog(parent)
    , m_info(info)
    , m_derivations(initial.derivations)
{
    setObjectName("montageEditor");
    setWindowTitle(tr("Edit Montage"));
    m_name = new QLineEdit(QString::fromStdString(initial.name.empty() ? "My montage" : initial.name));
    m_name->setObjectName("montageName");
    m_table = new QTableWidget(0, kColumns);
    m_table->setObjectName("derivationTable");
    m_table->setHorizontalHeaderLabels({tr("Name"), tr("Sum of"), tr("Own filter")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_active = new QComboBox;
    m_active->setObjectName("activeChannel");
    m_reference = new QComboBox;
    m_reference->setObjectName("referenceChannel");
    m_reference->addItem(tr("(none)"), -1);
    m_reference->addItem(tr("average of its rate"), -2);
    for (std::size_t c = 0; c < info.channels.size(); ++c)
        if (!info.channels[c].irregular) {
            m_active->addItem(QString::fromStdString(info.channels[c].name), static_cast<int>(c));
            m_reference->addItem(QString::fromStdString(info.channels[c].name), static_cast<int>(c));
        }
    auto* add = new QPushButton(tr("&Add"));
    add->setObjectName("addDerivation");
    connect(add, &QPushButton::clicked, this,
            [this] { addDerivation(m_active->currentData().toInt(), m_reference->currentData().toInt()); });
    auto* pick = new QHBoxLayout;
    pick->addWidget(m_active, 1);
    pick->addWidget(new QLabel(tr("minus")));
    pick->addWidget(m_reference, 1);
    pick->addWidget(add);
    auto* remove = new QPushButton(tr("&Remove"));
    auto* up = new QPushButton(tr("&Up"));
    auto* down = new QPushButton(tr("&Down"));
    auto* file = new QPushButton(tr("Save to &File..."));
    file->setObjectName("saveMontageFile");
    const auto row = [this] { return m_table->currentRow(); };
    connect(remove, &QPushButton::clicked, this, [this, row] { removeRow(row()); });
    connect(up, &QPushButton::clicked, this, [this, row] { moveRow(row(), -1); });
    connect(down, &QPushButton::clicked, this, [this, row] { moveRow(row(), +1); });
    connect(file, &QPushButton::clicked, this, &MontageEditor::saveToFile);
    auto* rowButtons = new QHBoxLayout;
    for (QPushButton* b : {remove, up, down}) rowButtons->addWidget(b);
    rowButtons->addStretch(1);
    rowButtons->addWidget(file);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Save and Show"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_table, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        const auto r = static_cast<std::size_t>(item->row());
        if (r >= m_derivations.size()) return;
        if (item->column() == kName) m_derivations[r].name = item->text().trimmed().toStdString();
        if (item->column() == kFilter && !setRowFilter(item->row(), item->text())) showRows(); // back as it was
    });
    auto* form = new QFormLayout;
    form->addRow(tr("Name:"), m_name);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_table, 1);
    layout->addLayout(rowButtons);
    layout->addLayout(pick);
    layout->addWidget(buttons);
    resize(620, 520);
    showRows();
}

montage::Montage MontageEditor::montage() const
{
    return {m_name->text().trimmed().isEmpty() ? std::string("My montage") : m_name->text().trimmed().toStdString(),
            m_derivations};
}

void MontageEditor::addDerivation(int active, int reference)
{
    if (active < 0 || static_cast<std::size_t>(active) >= m_info.channels.size()) return;
    const core::ChannelInfo& a = m_info.channels[static_cast<std::size_t>(active)];
    montage::Derivation d;
    d.terms.push_back({a.name, 1.0});
    if (reference >= 0 && static_cast<std::size_t>(reference) < m_info.channels.size()) {
        d.name = a.name + "-" + m_info.channels[static_cast<std::size_t>(reference)].name;
        d.terms.push_back({m_info.channels[static_cast<std::size_t>(reference)].name, -1.0});
    } else if (reference == -2) { // minus the mean of the channels of its rate, itself included
        std::vector<std::string> peers;
        for (const core::ChannelInfo& ch : m_info.channels)
            if (!ch.irregular && ch.fs == a.fs) peers.push_back(ch.name);
        const double share = 1.0 / static_cast<double>(peers.size());
        d.name = a.name + "-avg";
        d.terms.front().weight = 1.0 - share;
        for (const std::string& p : peers)
            if (p != a.name) d.terms.push_back({p, -share});
    } else {
        d.name = a.name;
    }
    m_derivations.push_back(std::move(d));
    showRows();
    m_table->setCurrentCell(rowCount() - 1, kName);
}

void MontageEditor::removeRow(int row)
{
    if (row < 0 || row >= rowCount()) return;
    m_derivations.erase(m_derivations.begin() + row);
    showRows();
    m_table->setCurrentCell(std::min(row, rowCount() - 1), kName);
}

void MontageEditor::moveRow(int row, int by)
{
    const int to = row + by;
    if (row < 0 || row >= rowCount() || to < 0 || to >= rowCount()) return;
    std::swap(m_derivations[static_cast<std::size_t>(row)], m_derivations[static_cast<std::size_t>(to)]);
    showRows();
    m_table->setCurrentCell(to, kName);
}

bool MontageEditor::setRowFilter(int row, const QString& spec)
{
    if (row < 0 || row >= rowCount()) return false;
    auto parsed = filter::parseFilterSpec(spec.trimmed().toStdString());
    if (!parsed) return false;
    m_derivations[static_cast<std::size_t>(row)].display.filter =
        parsed->any() ? filter::filterSpecText(*parsed) : std::string();
    return true;
}

void MontageEditor::showRows()
{
    const QSignalBlocker block(m_table);
    m_table->setRowCount(rowCount());
    for (int r = 0; r < rowCount(); ++r) {
        const montage::Derivation& d = m_derivations[static_cast<std::size_t>(r)];
        auto* terms = new QTableWidgetItem(termsText(d));
        terms->setFlags(terms->flags() & ~Qt::ItemIsEditable);
        m_table->setItem(r, kName, new QTableWidgetItem(QString::fromStdString(d.name)));
        m_table->setItem(r, kTerms, terms);
        m_table->setItem(r, kFilter, new QTableWidgetItem(QString::fromStdString(d.display.filter)));
    }
    m_table->resizeColumnsToContents();
}

void MontageEditor::saveToFile()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Montage"), m_name->text() + ".json",
                                                      tr("Longview montage (*.json)"));
    if (path.isEmpty()) return;
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, path] {
        watcher->deleteLater();
        emit savedToFile(path, watcher->result());
    });
    watcher->setFuture(QtConcurrent::run([m = montage(), file = path.toStdString()] {
        const core::Status written = montage::writeMontageFile(m, file);
        return written ? QString() : QString::fromStdString(written.error().describe());
    }));
}

} // namespace lv::widgets
