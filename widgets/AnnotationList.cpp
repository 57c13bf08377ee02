// Filtering hides rows whose text, type and channel all lack the filter text (case-insensitive).
#include "AnnotationList.h"

#include "SessionBrowser.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace lv::widgets {

AnnotationList::AnnotationList(QWidget* parent) : QWidget(parent), m_filter(new QLineEdit), m_list(new QTreeWidget)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_filter);
    layout->addWidget(m_list);
    m_filter->setPlaceholderText(tr("Filter annotations"));
    m_filter->setClearButtonEnabled(true);
    m_list->setHeaderLabels({tr("Time"), tr("Text"), tr("Type"), tr("Channel"), tr("Duration")});
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setSortingEnabled(false);
    m_list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    connect(m_filter, &QLineEdit::textChanged, this, [this] { applyFilter(); });
    connect(m_list, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        emit jumpRequested(item->data(0, Qt::UserRole).toLongLong(), item->data(1, Qt::UserRole).toLongLong());
    });
}

void AnnotationList::setRecording(const core::RecordingInfo* info)
{
    m_list->clear();
    if (!info) return;
    QList<QTreeWidgetItem*> items;
    for (const core::Annotation& a : info->annotations) {
        auto* item =
            new QTreeWidgetItem({formatUtc(a.time), QString::fromStdString(a.text), QString::fromStdString(a.type),
                                 a.channel ? QString::fromStdString(*a.channel) : tr("all"),
                                 a.durationUs > 0 ? formatDuration(a.durationUs) : ""});
        item->setData(0, Qt::UserRole, QVariant::fromValue<qint64>(a.time));
        item->setData(1, Qt::UserRole, QVariant::fromValue<qint64>(a.durationUs));
        item->setToolTip(1, item->text(1));
        items.push_back(item);
    }
    m_list->addTopLevelItems(items);
    applyFilter();
}

void AnnotationList::setFilter(const QString& text) { m_filter->setText(text); }

std::vector<core::Uutc> AnnotationList::shownTimes() const
{
    std::vector<core::Uutc> times;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i)
        if (!m_list->topLevelItem(i)->isHidden())
            times.push_back(m_list->topLevelItem(i)->data(0, Qt::UserRole).toLongLong());
    std::sort(times.begin(), times.end());
    return times;
}

int AnnotationList::visibleCount() const
{
    int n = 0;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) n += !m_list->topLevelItem(i)->isHidden();
    return n;
}

void AnnotationList::applyFilter()
{
    const QString f = m_filter->text().trimmed();
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = m_list->topLevelItem(i);
        const bool match = f.isEmpty() || item->text(1).contains(f, Qt::CaseInsensitive) ||
                           item->text(2).contains(f, Qt::CaseInsensitive) ||
                           item->text(3).contains(f, Qt::CaseInsensitive);
        item->setHidden(!match);
    }
}

} // namespace lv::widgets
