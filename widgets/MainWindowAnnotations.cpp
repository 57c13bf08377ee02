// The user's annotations in the main window: Edit > Undo/Redo and Add Annotation (M, a double-click on the
// traces), editing and deleting from the annotations dock, saving and load problems in the status bar.
#include "MainWindow.h"

#include "AnnotationDialog.h"
#include "AnnotationList.h"
#include "TraceLoader.h"
#include "TracePlot.h"
#include "UserAnnotations.h"

#include <QAction>
#include <QFileDialog>
#include <QMenuBar>
#include <QStatusBar>
#include <QUndoStack>

namespace lv::widgets {

void MainWindow::createAnnotationActions()
{
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_user->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_user->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts({QKeySequence::Redo, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)});
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    QAction* add = edit->addAction(tr("&Add Annotation..."), QKeySequence(Qt::Key_M), this, [this] {
        addAnnotationAt(m_plot->mouseTime().value_or(m_view.range().start + m_view.span() / 2));
    });
    add->setObjectName("addAnnotationAction");
    edit->addAction(tr("&Edit Annotation..."), this, [this] { editAnnotation(m_annotations->selectedUserIndex()); });
    edit->addAction(tr("&Delete Annotation"), this, [this] {
        if (const int index = m_annotations->selectedUserIndex(); index >= 0)
            m_user->remove(static_cast<std::size_t>(index));
    });
    menuBar()->insertMenu(menuBar()->actions().value(1), edit); // after File
    edit->addSeparator();
    edit->addAction(tr("&Import Annotations..."), this, [this] {
        if (!m_interactive || !m_open) return;
        const QString path = QFileDialog::getOpenFileName(this, tr("Import Annotations"), QString(),
                                                          tr("Annotations (*.csv *.edf *.bdf)"));
        if (!path.isEmpty()) m_user->importFrom(path);
    });
    edit->addAction(tr("E&xport Your Annotations..."), this, [this] {
        if (!m_interactive || !m_open) return;
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Your Annotations"), m_openPath + ".csv",
                                                          tr("CSV (*.csv);;EDF+ annotations (*.edf)"));
        if (!path.isEmpty()) m_user->exportTo(path);
    });
    connect(m_user, &UserAnnotations::imported, this, [this](int n, const QString& path) {
        statusBar()->showMessage(tr("%n annotation(s) imported from %1", nullptr, n).arg(path), 10000);
    });
    connect(m_user, &UserAnnotations::exported, this, [this](int n, const QString& path) {
        statusBar()->showMessage(tr("%n annotation(s) exported to %1", nullptr, n).arg(path), 10000);
    });
    connect(m_user, &UserAnnotations::fileFailed, this,
            [this](const QString& why) { statusBar()->showMessage(why, 30000); });

    connect(m_plot, &TracePlot::markRequested, this, [this](qint64 t, int channel) {
        addAnnotationAt(t, channel >= 0 ? std::optional<std::size_t>(channel) : std::nullopt);
    });
    connect(m_plot, &TracePlot::annotationMoved, this, [this](int index, qint64 t) { // a marker dragged
        const std::vector<core::Annotation>& list = m_user->annotations();
        if (index < 0 || static_cast<std::size_t>(index) >= list.size()) return;
        core::Annotation moved = list[static_cast<std::size_t>(index)];
        moved.time = t;
        if (!m_user->replace(static_cast<std::size_t>(index), moved)) m_plot->setUserAnnotations(list); // back
    });
    connect(m_annotations, &AnnotationList::editRequested, this, [this](int index) { editAnnotation(index); });
    connect(m_annotations, &AnnotationList::deleteRequested, this,
            [this](int index) { m_user->remove(static_cast<std::size_t>(index)); });
    connect(m_user, &UserAnnotations::changed, this, [this] {
        m_plot->setUserAnnotations(m_user->annotations());
        m_annotations->setUserAnnotations(m_user->annotations());
    });
    connect(m_user, &UserAnnotations::saved, this,
            [this](const QString& path) { statusBar()->showMessage(tr("annotations saved to %1").arg(path), 5000); });
    connect(m_user, &UserAnnotations::saveFailed, this, [this](const QString& why) {
        statusBar()->showMessage(tr("your annotations were not saved: %1").arg(why), 60000);
    });
}

// After an open: the sidecar's annotations, or why they could not be read (then editing stays off).
void MainWindow::loadUserAnnotations()
{
    m_user->setRecording(m_loader->info(), m_openPath, m_loader->userAnnotations(), m_loader->userAnnotationError());
    if (!m_user->loadError().isEmpty())
        statusBar()->showMessage(
            tr("your annotations did not load: %1; adding and editing stay off until it is fixed or removed")
                .arg(m_user->loadError()),
            60000);
}

AnnotationDialog* MainWindow::addAnnotationAt(core::Uutc t, std::optional<std::size_t> channel)
{
    const core::RecordingInfo* info = m_loader->info();
    if (!m_open || !info) return nullptr;
    if (!m_user->editable()) {
        statusBar()->showMessage(tr("your annotations did not load: %1").arg(m_user->loadError()), 30000);
        return nullptr;
    }
    core::Annotation initial;
    initial.time = std::clamp(t, info->start, info->end);
    initial.type = "Note";
    if (channel && *channel < info->channels.size()) initial.channel = info->channels[*channel].name; // not a lane
    return openAnnotationDialog(initial, -1);
}

AnnotationDialog* MainWindow::editAnnotation(int index)
{
    if (index < 0 || static_cast<std::size_t>(index) >= m_user->annotations().size() || !m_user->editable())
        return nullptr;
    return openAnnotationDialog(m_user->annotations()[static_cast<std::size_t>(index)], index);
}

// Shown, not run (the UI thread never waits on it); accepted, it adds or (index >= 0) replaces.
AnnotationDialog* MainWindow::openAnnotationDialog(const core::Annotation& initial, int index)
{
    const QStringList texts = setting("annotations/texts", AnnotationDialog::defaultTexts()).toStringList();
    auto* dialog = new AnnotationDialog(*m_loader->info(), initial, texts, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog, index] {
        remember("annotations/texts", dialog->texts());
        const std::optional<core::Annotation> a = dialog->annotation();
        if (!a) return;
        if (index >= 0)
            m_user->replace(static_cast<std::size_t>(index), *a);
        else
            m_user->add(*a);
    });
    dialog->open();
    return dialog;
}

} // namespace lv::widgets
