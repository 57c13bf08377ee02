// Draws a table cell holding a percentage (Qt::UserRole, 0-100) as a progress bar; a cell without one as text.
#pragma once

#include <QStyledItemDelegate>

namespace lv::widgets {

class ProgressDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace lv::widgets
