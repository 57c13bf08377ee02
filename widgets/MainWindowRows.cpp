// Channels per screen and vertical scrolling through the shown channels: the menu, keys, scroll bar and wheel.
#include "MainWindow.h"

#include "TracePlot.h"

#include <QActionGroup>
#include <QApplication>
#include <QMenu>
#include <QScrollBar>
#include <QSignalBlocker>

namespace lv::widgets {

void MainWindow::createRowActions(QMenu* view)
{
    QMenu* menu = view->addMenu(tr("C&hannels per Screen"));
    auto* group = new QActionGroup(this);
    const int saved = setting("view/rowsPerScreen", 0).toInt();
    std::vector<int> counts(std::begin(ChannelRows::kPresets), std::end(ChannelRows::kPresets));
    counts.push_back(0);
    for (int rows : counts) {
        QAction* a = menu->addAction(rows > 0 ? QString::number(rows) : tr("&All"), this,
                                     [this, rows] { setRowsPerScreen(rows); });
        a->setObjectName(QString("rowsPerScreen%1").arg(rows));
        a->setCheckable(true);
        a->setChecked(rows == saved);
        group->addAction(a);
    }
    m_rows.setRowsPerScreen(saved);
    menu->addSeparator();
    menu->addAction(tr("&Next Channels"), QKeySequence(Qt::SHIFT | Qt::Key_PageDown), this,
                    [this] { scrollRows(std::max(m_rows.rowsOnScreen(), 1)); });
    menu->addAction(tr("&Previous Channels"), QKeySequence(Qt::SHIFT | Qt::Key_PageUp), this,
                    [this] { scrollRows(-std::max(m_rows.rowsOnScreen(), 1)); });
    m_rowBar->setObjectName("rowBar");
    m_rowBar->setSingleStep(1);
    m_rowBar->hide();
    connect(m_rowBar, &QScrollBar::valueChanged, this, [this](int first) {
        if (m_rows.scrollTo(first)) viewChanged();
    });
    connect(m_plot, &TracePlot::rowScrollRequested, this,
            [this](int notches) { scrollRows(notches * QApplication::wheelScrollLines()); });
}

void MainWindow::setRowsPerScreen(int rows)
{
    m_rows.setRowsPerScreen(rows);
    remember("view/rowsPerScreen", m_rows.rowsPerScreen());
    const QString name = QString("rowsPerScreen%1").arg(m_rows.rowsPerScreen());
    if (QAction* a = findChild<QAction*>(name)) a->setChecked(true);
    updateRowBar();
    viewChanged();
}

void MainWindow::scrollRows(int rows)
{
    if (m_rows.scrollTo(m_rows.first() + rows)) viewChanged();
}

// Shown only while some shown channels are off screen.
void MainWindow::updateRowBar()
{
    const QSignalBlocker block(m_rowBar);
    m_rowBar->setRange(0, m_rows.lastFirst());
    m_rowBar->setPageStep(std::max(m_rows.rowsOnScreen(), 1));
    m_rowBar->setValue(m_rows.first());
    m_rowBar->setVisible(m_rows.lastFirst() > 0);
}

} // namespace lv::widgets
