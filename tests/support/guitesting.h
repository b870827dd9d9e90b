// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QDir>
#include <QImage>
#include <QSet>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

// What the console's widget tests share: settings of their own, and screenshots that must show something.
namespace GuiTesting {

// Points QSettings at a file named after `testName` in a directory of this process's own, and every QStandardPaths
// location at test mode, so that a test never reads the operator's settings, an earlier run's, or those of another
// process of the same test running beside it (tst_keychain and tst_keychain_absent are one executable: sharing a
// file, one's recent connections replaced the other's between two lines of a test).
inline void useOwnSettings(const QString& testName)
{
    static QTemporaryDir directory;
    QVERIFY2(directory.isValid(), qPrintable(directory.errorString()));
    QStandardPaths::setTestModeEnabled(true);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, directory.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, directory.path());
    QCoreApplication::setOrganizationName(QStringLiteral("outbox-console-test"));
    QCoreApplication::setApplicationName(testName);
    QVERIFY(QSettings().allKeys().isEmpty());
}

// Saves `widget` as `name` in the working directory (the build's tests/ folder), and fails if it rendered blank.
inline void saveScreenshot(QWidget& widget, const QString& name)
{
    // Laid out as the last change asked: grabbed at once after new figures, the Metrics tab was half laid out.
    QCoreApplication::sendPostedEvents();
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
