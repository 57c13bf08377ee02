// Column 0: the input name with its checkbox (not editable); column 1: the output name (edited in place).
#include "ConvertChannelTable.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace lv::widgets {

ConvertChannelTable::ConvertChannelTable(QWidget* parent)
    : QWidget(parent)
    , m_filter(new QLineEdit)
    , m_table(new QTableWidget(0, 2))
{
    m_filter->setPlaceholderText(tr("Filter by name"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, this, &ConvertChannelTable::setFilter);
    auto* all = new QPushButton(tr("All"));
    auto* visible = new QPushButton(tr("Visible"));
    auto* none = new QPushButton(tr("None"));
    visible->setToolTip(tr("The channels shown in the viewer"));
    connect(all, &QPushButton::clicked, this, &ConvertChannelTable::checkAll);
    connect(visible, &QPushButton::clicked, this, &ConvertChannelTable::checkVisible);
    connect(none, &QPushButton::clicked, this, &ConvertChannelTable::checkNone);
    auto* row = new QHBoxLayout;
    row->addWidget(m_filter, 1);
    row->addWidget(all);
    row->addWidget(visible);
    row->addWidget(none);
    m_table->setHorizontalHeaderLabels({tr("Channel"), tr("Output name")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                             QAbstractItemView::SelectedClicked);
    connect(m_table, &QTableWidget::itemChanged, this, &ConvertChannelTable::changed);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(m_table);
}

void ConvertChannelTable::setChannels(const core::RecordingInfo& info, const std::vector<std::size_t>& visible)
{
    const QSignalBlocker block(m_table);
    m_visible = visible;
    m_table->setRowCount(static_cast<int>(info.channels.size()));
    for (std::size_t c = 0; c < info.channels.size(); ++c) {
        const QString name = QString::fromStdString(info.channels[c].name);
        auto* input = new QTableWidgetItem(name);
        input->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        const bool on = visible.empty() || std::find(visible.begin(), visible.end(), c) != visible.end();
        input->setCheckState(on ? Qt::Checked : Qt::Unchecked);
        m_table->setItem(static_cast<int>(c), 0, input);
        m_table->setItem(static_cast<int>(c), 1, new QTableWidgetItem(name));
    }
    emit changed();
}

void ConvertChannelTable::checkAll()
{
    for (int r = 0; r < m_table->rowCount(); ++r) m_table->item(r, 0)->setCheckState(Qt::Checked);
}

void ConvertChannelTable::checkVisible()
{
    for (int r = 0; r < m_table->rowCount(); ++r) {
        const bool on = m_visible.empty() ||
                        std::find(m_visible.begin(), m_visible.end(), static_cast<std::size_t>(r)) != m_visible.end();
        m_table->item(r, 0)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    }
}

void ConvertChannelTable::checkNone()
{
    for (int r = 0; r < m_table->rowCount(); ++r) m_table->item(r, 0)->setCheckState(Qt::Unchecked);
}

void ConvertChannelTable::setFilter(const QString& text)
{
    if (m_filter->text() != text) m_filter->setText(text);
    for (int r = 0; r < m_table->rowCount(); ++r)
        m_table->setRowHidden(r, !m_table->item(r, 0)->text().contains(text, Qt::CaseInsensitive));
}

void ConvertChannelTable::setChecked(const QString& name, bool on)
{
    for (int r = 0; r < m_table->rowCount(); ++r)
        if (m_table->item(r, 0)->text() == name) m_table->item(r, 0)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
}

void ConvertChannelTable::setOutputName(const QString& name, const QString& output)
{
    for (int r = 0; r < m_table->rowCount(); ++r)
        if (m_table->item(r, 0)->text() == name) m_table->item(r, 1)->setText(output);
}

std::vector<std::size_t> ConvertChannelTable::checkedChannels() const
{
    std::vector<std::size_t> out;
    for (int r = 0; r < m_table->rowCount(); ++r)
        if (m_table->item(r, 0)->checkState() == Qt::Checked) out.push_back(static_cast<std::size_t>(r));
    return out;
}

QString ConvertChannelTable::channelList() const
{
    const std::vector<std::size_t> checked = checkedChannels();
    if (static_cast<int>(checked.size()) == m_table->rowCount()) return {};
    QStringList names;
    for (std::size_t c : checked) names << m_table->item(static_cast<int>(c), 0)->text();
    return names.join(',');
}

QString ConvertChannelTable::renameSpec() const
{
    QStringList pairs;
    for (std::size_t c : checkedChannels()) {
        const QString from = m_table->item(static_cast<int>(c), 0)->text();
        const QString to = m_table->item(static_cast<int>(c), 1)->text().trimmed();
        if (!to.isEmpty() && to != from) pairs << from + "=" + to;
    }
    return pairs.join(',');
}

} // namespace lv::widgets
