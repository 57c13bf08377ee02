// The readable formats of the engine's registry (formats::readableFormats) as the widgets offer them: file dialog
// filters, folder dialog captions, dropped paths. Nothing here lists a format of its own.
#pragma once

#include <QString>
#include <QStringList>

namespace lv::widgets {

// "Recordings (*.edf *.bdf ...);;EDF / EDF+ (*.edf);;...;;All files (*)": every file format, then each alone.
QString recordingFileFilter();
// The folder formats' extensions and names: ".mefd, .timd" and "MEF 3.0 session or MEF 3.0 channel".
QString recordingFolderExtensions();
QString recordingFolderNames();
// The paths whose names a readable format matches, or all of them when none does (a file may still be read by its
// content). By name only: never touches the disk.
QStringList recordingPaths(const QStringList& paths);

} // namespace lv::widgets
