// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/signalwatcher.h"
#include "db/outboxerror.h"
#include "demo/demosystem.h"
#include "mainwindow/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>
#include <QTimer>
#include <memory>

int main(int argc, char* argv[])
{
    // Before any thread exists, so that SIGINT and SIGTERM reach only the watcher: they end every event loop
    // (also a message box's: quit() would only end the main one), and a demo's processes and private database
    // are cleaned up on the way out.
    const SignalWatcher stopOnSignal([] {
        QMetaObject::invokeMethod(
            QCoreApplication::instance(), [] { QCoreApplication::exit(0); }, Qt::QueuedConnection);
    });
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("outbox-console"));
    QApplication::setApplicationName(QStringLiteral("outbox-console"));
    QApplication::setApplicationVersion(QStringLiteral(OUTBOX_CONSOLE_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("outbox-console"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Inspect and repair idempotency keys and the transactional outbox."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption dsn(QStringLiteral("dsn"),
        QStringLiteral("PostgreSQL URI or key=value connection string; without it a connection dialog opens."),
        QStringLiteral("DSN"));
    const QCommandLineOption demo(QStringLiteral("demo"),
        QStringLiteral("Start a private PostgreSQL, the orders service, a failing relay and duplicate-heavy traffic, "
                       "and open the console on them. Quitting removes it all."));
    const QCommandLineOption demoKeep(QStringLiteral("demo-keep"),
        QStringLiteral("Like --demo, but keep the demo database in DIR (and reuse it next time)."),
        QStringLiteral("DIR"));
    parser.addOptions({ dsn, demo, demoKeep });
    parser.process(app);

    // Declared before the window, so the window (and its database connections) goes first on the way out.
    std::unique_ptr<DemoSystem> system;
    MainWindow window;
    window.show();
    if (parser.isSet(demo) || parser.isSet(demoKeep)) {
        try {
            system = std::make_unique<DemoSystem>(
                DemoSystem::locate(QApplication::applicationDirPath()), parser.value(demoKeep));
            QObject::connect(system.get(), &DemoSystem::processFailed, &window,
                [&window](const QString& program, const QString& output) {
                    QMessageBox::warning(&window, QObject::tr("Demo process ended"),
                        QObject::tr("%1 stopped:\n%2").arg(program, output));
                });
            system->start();
            window.connectTo(system->settings(), QObject::tr("the demo database"));
        } catch (const OutboxError& error) {
            QMessageBox::critical(&window, QObject::tr("Cannot start the demo"), error.message());
            return 1;
        }
    } else if (parser.isSet(dsn)) {
        try {
            window.connectTo(ConnectionSettings::fromDsn(parser.value(dsn)), QStringLiteral("--dsn"));
        } catch (const OutboxError& error) {
            QTimer::singleShot(0, &window, [&window, message = error.message()] { window.showConnectDialog(message); });
        }
    } else {
        QTimer::singleShot(0, &window, [&window] { window.showConnectDialog(); });
    }
    const int exitCode = QApplication::exec();
    window.close(); // saves the window's settings
    return exitCode;
}
