// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/commandlinetext.h"
#include "common/connectionlossechoes.h"
#include "common/exitcode.h"
#include "common/programversion.h"
#include "common/signalwatcher.h"
#include "consolecommandline.h"
#include "db/outboxerror.h"
#include "demo/demosystem.h"
#include "i18n/consolelanguage.h"
#include "mainwindow/mainwindow.h"

#include <QApplication>
#include <QIcon>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTextStream>
#include <QTimer>
#include <memory>
#include <optional>

// The Demo menu: faults to practise on and the repair of the unroutable events; what each did goes to the message
// log (the status bar and the Messages panel). Help gains "About the demo", which says where every component listens
// (also printed on stdout).
static void addDemoMenu(MainWindow& window, DemoSystem& system)
{
    QObject::connect(
        &system, &DemoSystem::injected, &window, [&window](const QString& what) { window.postMessage(what); });
    QObject::connect(&system, &DemoSystem::ready, &window, [&system] {
        QTextStream out(stdout);
        for (const QString& line : system.components())
            out << line << Qt::endl;
    });
    // On stdout the components' line "demo: rabbitmq none (why)" says it.
    if (!system.brokerAbsence().isEmpty()) {
        const QString absence = QObject::tr("Demo without RabbitMQ: %1").arg(system.brokerAbsence());
        window.statusBar()->addPermanentWidget(new QLabel(absence));
        window.postMessage(absence);
    }
    QMenu* help = window.menuBar()->actions().constLast()->menu();
    QMenu* demo = new QMenu(QObject::tr("&Demo"), &window);
    window.menuBar()->insertMenu(window.menuBar()->actions().constLast(), demo);
    const bool broker = system.broker() != nullptr;
    demo->addAction(QObject::tr("&Fix the routing of order.cancelled"), &system, &DemoSystem::fixRouting)
        ->setEnabled(broker);
    demo->addSeparator();
    demo->addAction(QObject::tr("Stop the &broker for 30 s"), &system, [&system] { system.stopBrokerFor(30'000); })
        ->setEnabled(broker);
    demo->addAction(QObject::tr("&Kill the relay (restarted after 5 s)"), &system, &DemoSystem::killRelay);
    demo->addAction(QObject::tr("&Restart PostgreSQL (immediate stop)"), &system, &DemoSystem::restartDatabase);
    demo->addAction(QObject::tr("Stop the &consumer"), &system, &DemoSystem::stopConsumer)->setEnabled(broker);
    demo->addAction(QObject::tr("S&tart the consumer"), &system, &DemoSystem::startConsumer)->setEnabled(broker);
    demo->addAction(QObject::tr("Raise the queue &limit"), &system, &DemoSystem::raiseQueueLimit)->setEnabled(broker);
    help->addAction(QObject::tr("About the &demo"), &window, [&window, &system] {
        QString text = QObject::tr("<b>The demo</b><p>orders-service → outbox → relay (publisher confirms) → exchange "
                                   "%1 → queue %2 → consumer (inbox) → order counts. Order cancellations have no "
                                   "queue until the routing is fixed (Demo menu).</p>")
                           .arg(DemoSystem::Exchange, DemoSystem::CountsQueue);
        for (const QString& line : system.components())
            text += QStringLiteral("<p><tt>%1</tt></p>").arg(line.toHtmlEscaped());
        QMessageBox::about(&window, QObject::tr("About the demo"), text);
    });
}

// Whether QApplication finds a display to open on (without one it aborts: exit 134, a core dump): a platform
// chosen, or an X or Wayland display to reach.
static bool displayChosen(int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i) {
        if (qstrcmp(argv[i], "-platform") == 0 || qstrcmp(argv[i], "--platform") == 0)
            return true;
    }
    return qEnvironmentVariableIsSet("QT_QPA_PLATFORM") || qEnvironmentVariableIsSet("DISPLAY")
        || qEnvironmentVariableIsSet("WAYLAND_DISPLAY");
}

int main(int argc, char* argv[])
{
    // Before QApplication, which needs a display: `outbox-console --version` answers on a server or in a script.
    for (int i = 1; i < argc; ++i) {
        if (qstrcmp(argv[i], "--version") == 0 || qstrcmp(argv[i], "-v") == 0) {
            QTextStream(stdout) << ProgramVersion::line(QStringLiteral("outbox-console")) << Qt::endl;
            return 0;
        }
    }
    // Before any thread exists, so that SIGINT and SIGTERM reach only the watcher: they end every event loop
    // (also a message box's: quit() would only end the main one), and a demo's processes and private database
    // are cleaned up on the way out.
    const SignalWatcher stopOnSignal([] {
        QMetaObject::invokeMethod(
            QCoreApplication::instance(), [] { QCoreApplication::exit(0); }, Qt::QueuedConnection);
    });
    ConnectionLossEchoes::dropFromQtMessages();
    if (!displayChosen(argc, argv)) {
        // On a server or in a script: the command line is still answered, and the lack of a display said.
        QCoreApplication app(argc, argv);
        ConsoleCommandLine commandLine;
        if (const std::optional<int> exitCode = commandLine.read(CommandLineText::arguments(argc, argv)))
            return *exitCode;
        QTextStream(stderr) << "outbox-console: no display to open the window on: set DISPLAY or WAYLAND_DISPLAY "
                               "(or QT_QPA_PLATFORM=offscreen)"
                            << Qt::endl;
        return ExitCode::Unexpected;
    }
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("outbox-console"));
    QApplication::setApplicationName(QStringLiteral("outbox-console"));
    QApplication::setApplicationVersion(ProgramVersion::withSchema());
    QApplication::setDesktopFileName(QStringLiteral(OUTBOX_CONSOLE_APP_ID));
    // The icon theme's (installed with the package), else the one built in.
    QApplication::setWindowIcon(
        QIcon::fromTheme(QStringLiteral(OUTBOX_CONSOLE_APP_ID), QIcon(QStringLiteral(":/icons/outbox-console.png"))));
    // Before any widget exists: every text is translated as it is created. The command-line help stays English.
    ConsoleLanguage::apply(ConsoleLanguage::chosen(QSettings()));
    QApplication::setApplicationDisplayName(MainWindow::tr("Outbox Console"));

    ConsoleCommandLine commandLine;
    if (const std::optional<int> exitCode = commandLine.read(CommandLineText::arguments(argc, argv)))
        return *exitCode;

    // Declared before the window, so the window (and its database connections) goes first on the way out.
    std::unique_ptr<DemoSystem> system;
    MainWindow window;
    window.show();
    if (commandLine.demo()) {
        try {
            system = std::make_unique<DemoSystem>(
                DemoSystem::locate(QApplication::applicationDirPath()), commandLine.demoKeepDirectory());
            QObject::connect(system.get(), &DemoSystem::processFailed, &window,
                [&window](const QString& program, const QString& output) {
                    const QString stopped = QObject::tr("%1 stopped:\n%2").arg(program, output);
                    window.postMessage(stopped);
                    QMessageBox::warning(&window, QObject::tr("Demo process ended"), stopped);
                });
            system->start();
            window.connectTo(system->settings(), QObject::tr("the demo database"));
            addDemoMenu(window, *system);
        } catch (const OutboxError& error) {
            QMessageBox::critical(&window, QObject::tr("Cannot start the demo"), error.message());
            return 1;
        }
    } else if (const std::optional<QString> dsn = commandLine.dsn()) {
        window.connectToDsn(*dsn);
    } else {
        QTimer::singleShot(0, &window, [&window] { window.reconnectOrAsk(); });
    }
    const int exitCode = QApplication::exec();
    window.close(); // saves the window's settings
    return exitCode;
}
