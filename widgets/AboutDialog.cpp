// The About dialog's pages: Longview's version, its components' versions and licences, and the licence text.
#include "AboutDialog.h"
#include "TracePlot.h"

#include "core/Version.h"
#include "montage/EdfBrowserMontage.h"
#include "spectrum/Fft.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <libdeflate.h>
#include <openssl/crypto.h>
#include <xsimd/config/xsimd_config.hpp>
#include <zstd.h>
#if __has_include(<nlohmann/detail/abi_macros.hpp>) // 3.11: the version macros without the whole library
#include <nlohmann/detail/abi_macros.hpp>
#else
#include <nlohmann/json.hpp>
#endif

namespace lv::widgets {

std::vector<Component> components()
{
    const auto version = [](int major, int minor, int patch) {
        return QString("%1.%2.%3").arg(major).arg(minor).arg(patch);
    };
    return {
        {"Qt", QString("%1 (built with %2)").arg(qVersion(), QT_VERSION_STR),
         "LGPL-3.0-only OR GPL-2.0-only OR GPL-3.0-only"},
        {"QCustomPlot", TracePlot::libraryVersion(), "GPL-3.0-or-later"},
        {"zstd", ZSTD_versionString(), "BSD-3-Clause OR GPL-2.0-only"},
        {"OpenSSL", OpenSSL_version(OPENSSL_VERSION_STRING), "Apache-2.0"},
        {"libdeflate", LIBDEFLATE_VERSION_STRING, "MIT"},
        {"xsimd", version(XSIMD_VERSION_MAJOR, XSIMD_VERSION_MINOR, XSIMD_VERSION_PATCH), "BSD-3-Clause"},
        {"nlohmann/json",
         version(NLOHMANN_JSON_VERSION_MAJOR, NLOHMANN_JSON_VERSION_MINOR, NLOHMANN_JSON_VERSION_PATCH), "MIT"},
        {"FFTW", QString::fromStdString(spectrum::fftLibraryVersion()), "GPL-2.0-or-later"},
        {"pugixml", QString::fromStdString(montage::xmlLibraryVersion()), "MIT"},
    };
}

AboutDialog::AboutDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("About Longview"));
    auto* tabs = new QTabWidget;
    tabs->setObjectName("aboutTabs");

    auto* about = new QWidget;
    auto* aboutLayout = new QVBoxLayout(about);
    auto* title = new QLabel(tr("<h2>Longview %1</h2><p>A viewer and converter for long multi-channel recordings."
                                "</p><p>Commit %2</p><p>Licensed under the GNU General Public License, version 3 "
                                "or later (GPL-3.0-or-later), and provided without any warranty.</p>")
                                 .arg(core::kVersion, core::kCommit));
    title->setObjectName("aboutText");
    title->setWordWrap(true);
    title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    aboutLayout->addWidget(title);
    const std::vector<Component> parts = components();
    auto* table = new QTableWidget(static_cast<int>(parts.size()), 3);
    table->setObjectName("components");
    table->setHorizontalHeaderLabels({tr("Component"), tr("Version"), tr("Licence")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionMode(QAbstractItemView::NoSelection);
    for (int row = 0; row < table->rowCount(); ++row) {
        const Component& c = parts[static_cast<std::size_t>(row)];
        table->setItem(row, 0, new QTableWidgetItem(c.name));
        table->setItem(row, 1, new QTableWidgetItem(c.version));
        table->setItem(row, 2, new QTableWidgetItem(c.licence));
    }
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    aboutLayout->addWidget(table, 1);
    tabs->addTab(about, tr("&About"));

    auto* licence = new QPlainTextEdit(licenceText());
    licence->setObjectName("licenceText");
    licence->setReadOnly(true);
    licence->setLineWrapMode(QPlainTextEdit::NoWrap);
    licence->setFont(QFont("monospace"));
    tabs->addTab(licence, tr("&Licence"));

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QPushButton* copy = buttons->addButton(tr("&Copy Versions"), QDialogButtonBox::ActionRole);
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(text()); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(tabs);
    layout->addWidget(buttons);
    resize(640, 520);
}

QString AboutDialog::text() const
{
    QString text = QString("Longview %1 (commit %2)\n").arg(core::kVersion, core::kCommit);
    for (const Component& c : components()) text += QString("%1 %2, %3\n").arg(c.name, c.version, c.licence);
    return text;
}

QString AboutDialog::licenceText() const
{
    QFile file(":/longview/LICENSE");
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

} // namespace lv::widgets
