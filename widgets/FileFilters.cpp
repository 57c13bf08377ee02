// Filter strings built from formats::readableFormats(), so a format added there shows in every dialog.
#include "FileFilters.h"

#include "formats/RecordingOpener.h"

#include <QObject>

namespace lv::widgets {

namespace {

QString patternsOf(const formats::ReadableFormat& format)
{
    QStringList patterns;
    for (const std::string& p : format.patterns) patterns << QString::fromStdString(p);
    return patterns.join(' ');
}

} // namespace

QString recordingFileFilter()
{
    QStringList all, each;
    for (const formats::ReadableFormat& format : formats::readableFormats()) {
        if (format.folder) continue;
        all << patternsOf(format);
        each << QString("%1 (%2)").arg(QString::fromStdString(format.name), patternsOf(format));
    }
    return QObject::tr("Recordings (%1)").arg(all.join(' ')) + ";;" + each.join(";;") + ";;" +
           QObject::tr("All files (*)");
}

QString recordingFolderExtensions()
{
    QStringList extensions;
    for (const formats::ReadableFormat& format : formats::readableFormats())
        if (format.folder)
            for (const std::string& p : format.patterns) extensions << QString::fromStdString(p).mid(1); // "*.x": ".x"
    return extensions.join(", ");
}

QString recordingFolderNames()
{
    QStringList names;
    for (const formats::ReadableFormat& format : formats::readableFormats())
        if (format.folder) names << QString::fromStdString(format.name);
    return names.join(QObject::tr(" or "));
}

QStringList recordingPaths(const QStringList& paths)
{
    QStringList readable;
    for (const QString& path : paths)
        if (formats::readableFormatOf(path.toStdString())) readable << path;
    return readable.isEmpty() ? paths : readable;
}

} // namespace lv::widgets
