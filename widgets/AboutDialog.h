// Help > About Longview: the version and commit, the components with their versions and licences, and the GPL.
#pragma once

#include <QDialog>
#include <QString>
#include <vector>

namespace lv::widgets {

struct Component {
    QString name;
    QString version; // as the library reports it where it can (at run time), else as built
    QString licence; // SPDX expression
};

// Qt, QCustomPlot, zstd, OpenSSL, libdeflate, xsimd, nlohmann/json.
std::vector<Component> components();

class AboutDialog : public QDialog {
    Q_OBJECT
public:
    explicit AboutDialog(QWidget* parent = nullptr);

    // Version, commit and one line per component, as Copy puts it on the clipboard (for bug reports).
    QString text() const;
    QString licenceText() const; // the LICENSE file of the source tree (a Qt resource)
};

} // namespace lv::widgets
