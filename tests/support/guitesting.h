// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QDir>
#include <QImage>
#include <QSet>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QWidget>

// What the console's widget tests share: settings of their own, and screenshots that must show something.
namespace GuiTesting {

// Points QSettings (and every QStandardPaths location) at a test-mode file named after `testName`, and empties it,
// so that a test never reads the operator's settings or an earlier run's.
inline void useOwnSettings(const QString& testName)
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("outbox-console-test"));
    QCoreApplication::setApplicationName(testName);
    QSettings().clear();
}

// Saves `widget` as `name` in the working directory (the build's tests/ folder), and fails if it rendered blank.
inline void saveScreenshot(QWidget& widget, const QString& name)
{
    const QImage image = widget.grab().toImage();
    const QString path = QDir::current().filePath(name);
    QVERIFY(image.save(path));
    qInfo("screenshot saved to %s", qPrintable(path));
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7) {
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, y));
    }
    QVERIFY2(colours.size() > 20, "the window rendered blank");
}

} // namespace GuiTesting
