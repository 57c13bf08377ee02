// Colours chosen so traces keep contrast on both backgrounds and gap/NaN bands stay distinguishable.
#include "Theme.h"

namespace lv::widgets {

Theme Theme::light()
{
    Theme t;
    t.name = "light";
    t.palette = QPalette(QColor(239, 239, 239));
    t.plotBackground = Qt::white;
    t.axis = QColor(60, 60, 60);
    t.text = QColor(20, 20, 20);
    t.grid = QColor(225, 225, 225);
    t.trace = QColor(10, 40, 110);
    t.gapBand = QColor(120, 120, 120, 90);
    t.nanBand = QColor(230, 120, 0, 110);
    t.damageBand = QColor(210, 0, 40, 150);
    t.annotation = QColor(170, 0, 120);
    t.userAnnotation = QColor(0, 120, 60);
    t.span = QColor(170, 0, 120, 35);
    t.coverage = QColor(70, 150, 90);
    t.window = QColor(0, 90, 200);
    t.cursor = QColor(200, 0, 0);
    t.types = {t.trace,
               QColor(0, 110, 130),
               QColor(140, 80, 0),
               QColor(190, 0, 30),
               QColor(110, 50, 160),
               QColor(90, 90, 90),
               QColor(60, 90, 40)};
    return t;
}

Theme Theme::dark()
{
    Theme t;
    t.name = "dark";
    QPalette p;
    p.setColor(QPalette::Window, QColor(45, 45, 48));
    p.setColor(QPalette::WindowText, QColor(220, 220, 220));
    p.setColor(QPalette::Base, QColor(30, 30, 32));
    p.setColor(QPalette::AlternateBase, QColor(45, 45, 48));
    p.setColor(QPalette::Text, QColor(220, 220, 220));
    p.setColor(QPalette::Button, QColor(55, 55, 58));
    p.setColor(QPalette::ButtonText, QColor(220, 220, 220));
    p.setColor(QPalette::Highlight, QColor(42, 130, 218));
    p.setColor(QPalette::HighlightedText, Qt::black);
    p.setColor(QPalette::ToolTipBase, QColor(45, 45, 48));
    p.setColor(QPalette::ToolTipText, QColor(220, 220, 220));
    p.setColor(QPalette::PlaceholderText, QColor(140, 140, 140));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(120, 120, 120));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(120, 120, 120));
    t.palette = p;
    t.plotBackground = QColor(22, 22, 24);
    t.axis = QColor(190, 190, 190);
    t.text = QColor(225, 225, 225);
    t.grid = QColor(55, 55, 60);
    t.trace = QColor(120, 210, 255);
    t.gapBand = QColor(160, 160, 160, 70);
    t.nanBand = QColor(255, 150, 30, 110);
    t.damageBand = QColor(255, 40, 70, 150);
    t.annotation = QColor(255, 110, 200);
    t.userAnnotation = QColor(90, 220, 140);
    t.span = QColor(255, 110, 200, 40);
    t.coverage = QColor(80, 170, 100);
    t.window = QColor(90, 170, 255);
    t.cursor = QColor(255, 80, 80);
    t.types = {t.trace,
               QColor(80, 210, 220),
               QColor(230, 170, 80),
               QColor(255, 100, 110),
               QColor(190, 140, 255),
               QColor(170, 170, 170),
               QColor(160, 200, 120)};
    return t;
}

Theme Theme::named(const QString& name) { return name == "dark" ? dark() : light(); }

} // namespace lv::widgets
