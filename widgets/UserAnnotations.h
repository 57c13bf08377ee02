// The open recording's annotations made by the user: added, edited, moved and deleted through an undo stack, each
// change saved to the recording's sidecar (annotations/AnnotationSidecar.h) on a writer thread, in order; never
// into the recording. A sidecar that did not read is left alone: editing stays off until it is fixed or removed.
#pragma once

#include "JobTracker.h"

#include "core/RecordingInfo.h"

#include <QObject>
#include <QString>
#include <QThreadPool>
#include <vector>

class QUndoStack;

namespace lv::widgets {

class UserAnnotations : public QObject {
    Q_OBJECT
public:
    explicit UserAnnotations(QObject* parent = nullptr);
    ~UserAnnotations() override;

    // A recording opened from `path` with the annotations its sidecar held (`loadError`: why it did not read);
    // nullptr: none open. The undo history starts anew.
    void setRecording(const core::RecordingInfo* info, const QString& path, std::vector<core::Annotation> loaded,
                      const QString& loadError = {});
    const std::vector<core::Annotation>& annotations() const { return m_list; } // uUTC, in time order
    bool editable() const { return m_info && m_loadError.isEmpty(); }
    QString loadError() const { return m_loadError; }

    // Each an undoable step; false (and nothing done) when not editable or the index is out of range.
    bool add(const core::Annotation& a);
    bool replace(std::size_t index, const core::Annotation& a); // edit or move
    bool remove(std::size_t index);
    // From or to a file (.csv or .edf: convert/AnnotationFiles.h) on the writer thread; an import is one undoable
    // step that adds every annotation of the file.
    void importFrom(const QString& path);
    void exportTo(const QString& path);
    QUndoStack* undoStack() const { return m_undo; }
    QString sidecarPath() const { return m_savedTo; } // where the last save went; empty before one

signals:
    void changed();                  // annotations() changed
    void saved(const QString& path); // a change is on disk
    void saveFailed(const QString& why);
    void imported(int count, const QString& path);
    void exported(int count, const QString& path);
    void fileFailed(const QString& why); // an import or export

private:
    friend class AnnotationEdit;
    void apply(std::vector<core::Annotation> list); // set, tell, save

    const core::RecordingInfo* m_info = nullptr;
    QString m_path;
    QString m_loadError;
    QString m_savedTo;
    std::vector<core::Annotation> m_list;
    QUndoStack* m_undo;
    QThreadPool m_writer; // one thread: saves land in the order they were made
    JobTracker m_saves;   // lane 0: saves, lane 1: imports and exports; after the pool: stops before it goes
};

} // namespace lv::widgets
