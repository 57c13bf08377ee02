// Filtering hides rows whose text, type and channel all lack the filter text (case-insensitive); the user's rows
// (italic, "you") carry their index for editing.
#include "AnnotationList.h"

#include "SessionBrowser.h"

#include <QHeaderView>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMenu>
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
    m_list->setHeaderLabels({tr("Time"), tr("Text"), tr("Type"), tr("Channel"), tr("Duration"), tr("By")});
    m_list->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_list, &QWidget::customContextMenuRequested, this, &AnnotationList::showMenu);
    m_list->installEventFilter(this); // the Delete key deletes the selected row if it is the user's
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
    m_info = info;
    m_user.clear();
    rebuild();
}

void AnnotationList::setUserAnnotations(const std::vector<core::Annotation>& user)
{
    m_user = user;
    rebuild();
}

namespace {

constexpr int kUserIndexRole = Qt::UserRole + 1; // column 0: the index among the user's annotations, or -1

QTreeWidgetItem* itemOf(const core::Annotation& a, int userIndex)
{
    auto* item = new QTreeWidgetItem({formatUtc(a.time), QString::fromStdString(a.text), QString::fromStdString(a.type),
                                      a.channel ? QString::fromStdString(*a.channel) : AnnotationList::tr("all"),
                                      a.durationUs > 0 ? formatDuration(a.durationUs) : "",
                                      userIndex >= 0 ? AnnotationList::tr("you") : ""});
    item->setData(0, Qt::UserRole, QVariant::fromValue<qint64>(a.time));
    item->setData(1, Qt::UserRole, QVariant::fromValue<qint64>(a.durationUs));
    item->setData(0, kUserIndexRole, userIndex);
    item->setToolTip(1, item->text(1));
    if (userIndex >= 0) {
        QFont font = item->font(1);
        font.setItalic(true);
        for (int column = 0; column < item->columnCount(); ++column) item->setFont(column, font);
    }
    return item;
}

} // namespace

// The recording's and the user's, merged in time order (the recording's first at equal times).
void AnnotationList::rebuild()
{
    m_list->clear();
    if (!m_info) return;
    QList<QTreeWidgetItem*> items;
    std::size_t u = 0;
    for (const core::Annotation& a : m_info->annotations) {
        for (; u < m_user.size() && m_user[u].time < a.time; ++u)
            items.push_back(itemOf(m_user[u], static_cast<int>(u)));
        items.push_back(itemOf(a, -1));
    }
    for (; u < m_user.size(); ++u) items.push_back(itemOf(m_user[u], static_cast<int>(u)));
    m_list->addTopLevelItems(items);
    applyFilter();
}

int AnnotationList::selectedUserIndex() const
{
    const QTreeWidgetItem* item = m_list->currentItem();
    return item && item->isSelected() ? item->data(0, kUserIndexRole).toInt() : -1;
}

bool AnnotationList::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_list && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent*>(event)->matches(QKeySequence::Delete)) {
        if (const int index = selectedUserIndex(); index >= 0) emit deleteRequested(index);
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void AnnotationList::showMenu(const QPoint& at)
{
    const QTreeWidgetItem* item = m_list->itemAt(at);
    const int index = item ? item->data(0, kUserIndexRole).toInt() : -1;
    if (index < 0) return; // the recording's own are read only
    QMenu menu(this);
    menu.addAction(tr("&Edit..."), this, [this, index] { emit editRequested(index); });
    menu.addAction(tr("&Delete"), this, [this, index] { emit deleteRequested(index); });
    menu.exec(m_list->viewport()->mapToGlobal(at));
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
