// Undoable edits as whole-list snapshots (a recording's own annotations are few hundred at most), saved in order.
#include "UserAnnotations.h"

#include "ThreadPriority.h"

#include "annotations/AnnotationSidecar.h"
#include "convert/AnnotationFiles.h"

#include <QUndoStack>
#include <algorithm>

namespace lv::widgets {

// One edit: the list before and after.
class AnnotationEdit : public QUndoCommand {
public:
    AnnotationEdit(UserAnnotations* owner, std::vector<core::Annotation> after, const QString& text)
        : QUndoCommand(text)
        , m_owner(owner)
        , m_before(owner->m_list)
        , m_after(std::move(after))
    {}
    void undo() override { m_owner->apply(m_before); }
    void redo() override { m_owner->apply(m_after); }

private:
    UserAnnotations* m_owner;
    std::vector<core::Annotation> m_before, m_after;
};

namespace {

void sortByTime(std::vector<core::Annotation>& list)
{
    std::stable_sort(list.begin(), list.end(),
                     [](const core::Annotation& a, const core::Annotation& b) { return a.time < b.time; });
}

} // namespace

UserAnnotations::UserAnnotations(QObject* parent)
    : QObject(parent)
    , m_undo(new QUndoStack(this))
    , m_saves(this, &m_writer, 2)
{
    m_writer.setMaxThreadCount(1);
}

UserAnnotations::~UserAnnotations() { m_writer.waitForDone(); } // a save on its way finishes

void UserAnnotations::setRecording(const core::RecordingInfo* info, const QString& path,
                                   std::vector<core::Annotation> loaded, const QString& loadError)
{
    m_undo->clear();
    m_info = info;
    m_path = path;
    m_loadError = loadError;
    m_savedTo.clear();
    m_list = std::move(loaded);
    sortByTime(m_list);
    emit changed();
}

bool UserAnnotations::add(const core::Annotation& a)
{
    if (!editable()) return false;
    std::vector<core::Annotation> after = m_list;
    after.push_back(a);
    sortByTime(after);
    m_undo->push(
        new AnnotationEdit(this, std::move(after), tr("Add Annotation \"%1\"").arg(QString::fromStdString(a.text))));
    return true;
}

bool UserAnnotations::replace(std::size_t index, const core::Annotation& a)
{
    if (!editable() || index >= m_list.size()) return false;
    std::vector<core::Annotation> after = m_list;
    after[index] = a;
    sortByTime(after);
    m_undo->push(
        new AnnotationEdit(this, std::move(after), tr("Edit Annotation \"%1\"").arg(QString::fromStdString(a.text))));
    return true;
}

bool UserAnnotations::remove(std::size_t index)
{
    if (!editable() || index >= m_list.size()) return false;
    std::vector<core::Annotation> after = m_list;
    const QString text = QString::fromStdString(after[index].text);
    after.erase(after.begin() + static_cast<std::ptrdiff_t>(index));
    m_undo->push(new AnnotationEdit(this, std::move(after), tr("Delete Annotation \"%1\"").arg(text)));
    return true;
}

void UserAnnotations::importFrom(const QString& path)
{
    if (!editable()) return emit fileFailed(tr("your annotations did not load: %1").arg(m_loadError));
    m_saves.run(
        1, [info = *m_info, path](const Job&) { return convert::readAnnotationFile(path.toStdString(), info); },
        [this, path](const core::Result<std::vector<core::Annotation>>& read) {
            if (!read) return emit fileFailed(QString::fromStdString(read.error().describe()));
            if (!editable()) return;
            std::vector<core::Annotation> after = m_list;
            after.insert(after.end(), read->begin(), read->end());
            sortByTime(after);
            const int n = static_cast<int>(read->size());
            m_undo->push(new AnnotationEdit(this, std::move(after), tr("Import %n Annotation(s)", nullptr, n)));
            emit imported(n, path);
        });
}

void UserAnnotations::exportTo(const QString& path)
{
    if (!m_info) return;
    m_saves.run(
        1,
        [info = *m_info, list = m_list, path](const Job&) {
            const core::Status s = convert::writeAnnotationFile(list, info, path.toStdString());
            return s ? QString() : QString::fromStdString(s.error().describe());
        },
        [this, path, n = static_cast<int>(m_list.size())](const QString& error) {
            if (!error.isEmpty()) return emit fileFailed(error);
            emit exported(n, path);
        });
}

void UserAnnotations::apply(std::vector<core::Annotation> list)
{
    m_list = std::move(list);
    emit changed();
    if (!m_info) return;
    const annotations::Sidecar sidecar = annotations::sidecarOf(*m_info, m_list);
    m_saves.run(
        0,
        [sidecar, path = m_path.toStdString()](const Job&) {
            lowerThisThreadPriority();
            auto saved = annotations::saveSidecar(sidecar, path, annotations::defaultDataDirectory());
            return saved ? QString::fromStdString(*saved) : QString::fromStdString("!" + saved.error().describe());
        },
        [this](const QString& result) {
            if (result.startsWith('!')) return emit saveFailed(result.mid(1));
            m_savedTo = result;
            emit saved(result);
        });
}

} // namespace lv::widgets
