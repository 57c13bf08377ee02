// Channels per screen and vertical scrolling through the shown channels (the menu, keys, scroll bar and wheel); the
// channels' types, polarity, offsets and amplitude factors, remembered per recording; sensitivities by type.
#include "MainWindow.h"

#include "SessionBrowser.h"
#include "TraceLoader.h"
#include "TracePlot.h"
#include "TypeSensitivityDialog.h"

#include <QActionGroup>
#include <QApplication>
#include <QCryptographicHash>
#include <QFileInfo>
#include <QInputDialog>
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
    connect(m_browser, &SessionBrowser::invertRequested, this, [this](const std::vector<std::size_t>& channels) {
        for (std::size_t c : channels) setInverted(c, !m_plot->isInverted(c));
    });
    connect(m_browser, &SessionBrowser::offsetRequested, this, &MainWindow::askChannelOffset);
    connect(m_browser, &SessionBrowser::irregularDrawingChosen, this, &MainWindow::setIrregularDrawing);
    connect(m_browser, &SessionBrowser::bitViewChosen, this,
            [this](const std::vector<std::size_t>& channels, BitView view) {
                for (std::size_t c : channels) setBitView(c, view);
            });
    connect(m_plot, &TracePlot::scaleChanged, this, &MainWindow::saveRecordingView); // a channel's own factor
    const QVariantMap byType = setting("view/typeSensitivity", QVariantMap()).toMap();
    for (core::ChannelType t : core::kChannelTypes)
        if (const auto s =
                Sensitivity::parse(byType.value(QString::fromUtf8(core::channelTypeName(t).data())).toString()))
            m_plot->setTypeSensitivity(t, *s);
    connect(m_browser, &SessionBrowser::channelTypeChosen, this,
            [this](const std::vector<std::size_t>& channels, core::ChannelType type) {
                for (std::size_t c : channels) setChannelType(c, type);
            });
    connect(m_plot, &TracePlot::rowScrollRequested, this,
            [this](int notches) { scrollRows(notches * QApplication::wheelScrollLines()); });
}

QString MainWindow::recordingKey() const
{
    const core::RecordingInfo* info = m_loader->info();
    const QByteArray identity = QFileInfo(m_openPath).absoluteFilePath().toUtf8() + '\n' +
                                QByteArray::number(static_cast<qlonglong>(info ? info->start : 0));
    return "recordings/" + QCryptographicHash::hash(identity, QCryptographicHash::Sha256).toHex().left(32);
}

void MainWindow::applyChannelTypes()
{
    const core::RecordingInfo* info = m_loader->info();
    const QVariantMap chosen = setting(recordingKey() + "/channelTypes", QVariantMap()).toMap();
    std::vector<core::ChannelType> types;
    for (std::size_t c = 0; c < info->channels.size(); ++c) {
        const QString name = QString::fromStdString(info->channels[c].name);
        if (chosen.contains(name))
            if (const auto t = core::channelTypeFromName(chosen[name].toString().toStdString()))
                m_plot->setChannelType(c, *t);
        types.push_back(m_plot->channelType(c));
    }
    m_browser->setChannelTypes(types);
}

void MainWindow::setChannelType(std::size_t channel, core::ChannelType type)
{
    const core::RecordingInfo* info = m_loader->info();
    if (!m_open || !info || channel >= info->channels.size()) return;
    QVariantMap chosen = setting(recordingKey() + "/channelTypes", QVariantMap()).toMap();
    chosen[QString::fromStdString(info->channels[channel].name)] =
        QString::fromUtf8(core::channelTypeName(type).data());
    remember(recordingKey() + "/channelTypes", chosen);
    applyChannelTypes();
    if (m_loader->displayFilter().any()) { // the filtered channels follow their types
        applyDisplayFilter();
        viewChanged();
    }
}

// BioSemi's Status channel (a BDF channel named "Status") shows its trigger code unless the user chose otherwise
// for this recording.
void MainWindow::applyBitViews()
{
    const core::RecordingInfo* info = m_loader->info();
    const QVariantMap chosen = setting(recordingKey() + "/bitViews", QVariantMap()).toMap();
    std::map<std::size_t, BitView> views;
    for (std::size_t c = 0; c < info->channels.size(); ++c) {
        const QString name = QString::fromStdString(info->channels[c].name);
        BitView view = info->format.starts_with("BDF") && name == "Status" ? BitView::Trigger : BitView::Value;
        if (chosen.contains(name)) view = bitViewFromName(chosen[name].toString().toStdString());
        if (view != BitView::Value) views[c] = view;
    }
    m_loader->setBitViews(views);
    m_plot->setBitViews(std::move(views));
}

void MainWindow::setBitView(std::size_t channel, BitView view)
{
    const core::RecordingInfo* info = m_loader->info();
    if (!m_open || !info || channel >= info->channels.size()) return;
    QVariantMap chosen = setting(recordingKey() + "/bitViews", QVariantMap()).toMap();
    chosen[QString::fromStdString(info->channels[channel].name)] = QString(bitViewName(view));
    remember(recordingKey() + "/bitViews", chosen);
    applyBitViews();
    viewChanged(); // frames of the new codes
}

void MainWindow::setIrregularDrawing(const std::vector<std::size_t>& channels, int points)
{
    const core::RecordingInfo* info = m_loader->info();
    if (!m_open || !info) return;
    QVariantMap chosen = setting(recordingKey() + "/irregularDrawing", QVariantMap()).toMap();
    for (std::size_t c : channels) {
        if (c >= info->channels.size() || !info->channels[c].irregular) continue;
        const QString name = QString::fromStdString(info->channels[c].name);
        if (points < 0)
            chosen.remove(name);
        else
            chosen[name] = points ? "points" : "steps";
    }
    remember(recordingKey() + "/irregularDrawing", chosen);
    applyIrregularDrawing();
    requestFrames();
}

void MainWindow::applyIrregularDrawing()
{
    const core::RecordingInfo* info = m_loader->info();
    IrregularDrawing drawing = m_loader->irregularDrawing();
    drawing.pointsOf.clear();
    const QVariantMap chosen = setting(recordingKey() + "/irregularDrawing", QVariantMap()).toMap();
    for (std::size_t c = 0; info && c < info->channels.size() && !chosen.isEmpty(); ++c)
        if (const auto it = chosen.find(QString::fromStdString(info->channels[c].name)); it != chosen.end())
            drawing.pointsOf[c] = it->toString() == "points";
    m_loader->setIrregularDrawing(drawing);
}

void MainWindow::setInverted(std::size_t channel, bool inverted)
{
    m_plot->setInverted(channel, inverted);
    saveRecordingView();
}

void MainWindow::saveRecordingView()
{
    const core::RecordingInfo* info = m_loader->info();
    if (!m_open || !info) return;
    const auto name = [info](std::size_t c) { return QString::fromStdString(info->channels.at(c).name); };
    const std::size_t recorded = info->channels.size(); // a montage's lanes come after: not remembered here
    QStringList shown, inverted;
    for (std::size_t c : m_loader->montage() ? m_recordedShown : m_rows.shown()) shown << name(c);
    QVariantMap factors, offsets;
    for (std::size_t c : m_plot->invertedChannels())
        if (c < recorded) inverted << name(c);
    for (const auto& [c, factor] : m_plot->channelFactors())
        if (factor != 1.0 && c < recorded) factors[name(c)] = factor;
    for (const auto& [c, offset] : m_plot->channelOffsets())
        if (c < recorded) offsets[name(c)] = offset;
    remember(recordingKey() + "/view",
             QVariantMap{{"shown", shown}, {"inverted", inverted}, {"factors", factors}, {"offsets", offsets}});
}

void MainWindow::restoreRecordingView()
{
    const core::RecordingInfo* info = m_loader->info();
    const QVariantMap view = setting(recordingKey() + "/view", QVariantMap()).toMap();
    if (view.isEmpty()) return;
    const auto index = [info](const QVariant& name) { return info->channelIndex(name.toString().toStdString()); };
    std::vector<std::size_t> shown;
    for (const QVariant& name : view["shown"].toList())
        if (const int c = index(name); c >= 0) shown.push_back(static_cast<std::size_t>(c));
    if (!shown.empty()) {
        m_rows.setShown(shown);
        m_browser->setChannelOrder(shown);
    }
    for (const QVariant& name : view["inverted"].toList())
        if (const int c = index(name); c >= 0) m_plot->setInverted(static_cast<std::size_t>(c), true);
    const QVariantMap factors = view["factors"].toMap();
    for (auto it = factors.begin(); it != factors.end(); ++it)
        if (const int c = index(it.key()); c >= 0)
            m_plot->scaleChannel(static_cast<std::size_t>(c), it.value().toDouble());
    const QVariantMap offsets = view["offsets"].toMap();
    for (auto it = offsets.begin(); it != offsets.end(); ++it)
        if (const int c = index(it.key()); c >= 0)
            m_plot->setChannelOffset(static_cast<std::size_t>(c), it.value().toDouble());
}

void MainWindow::setChannelOffset(std::size_t channel, double offset)
{
    m_plot->setChannelOffset(channel, offset);
    saveRecordingView();
}

// The Session dock's Offset...: one value for the channels, in the unit of the first.
void MainWindow::askChannelOffset(const std::vector<std::size_t>& channels)
{
    const core::RecordingInfo* info = m_loader->info();
    if (!m_interactive || !m_open || !info || channels.empty()) return;
    const std::size_t first = channels.front();
    bool ok = false;
    const double offset = QInputDialog::getDouble(this, tr("Channel Offset"),
                                                  tr("Draw %1 this much above its lane's centre (%2; 0: centred):")
                                                      .arg(QString::fromStdString(info->channels.at(first).name),
                                                           QString::fromStdString(info->channels.at(first).unit)),
                                                  m_plot->channelOffset(first), -1e9, 1e9, 3, &ok);
    if (!ok) return;
    for (std::size_t c : channels) setChannelOffset(c, offset);
}

// View > Sensitivity by Channel Type...: shown (not run); accepted, applied and remembered for every recording.
TypeSensitivityDialog* MainWindow::editTypeSensitivities()
{
    auto* dialog = new TypeSensitivityDialog(m_plot->typeSensitivities(), m_plot->sensitivity(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        QVariantMap byType;
        for (const auto& [type, s] : dialog->result()) {
            m_plot->setTypeSensitivity(type, s);
            if (!s.isAuto()) byType[QString::fromUtf8(core::channelTypeName(type).data())] = s.text();
        }
        remember("view/typeSensitivity", byType);
    });
    dialog->open();
    return dialog;
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
