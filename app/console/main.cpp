// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/commandlinetext.h"
#include "common/connectionlossechoes.h"
#include "common/exitcode.h"
#include "common/programversion.h"
#include "common/signalwatcher.h"
#include "consolecommandline.h"
#include "db/outboxerror.h"
#include "demo/demosystem.h"
#include "demowindow/democonsole.h"
#include "i18n/consolelanguage.h"
#include "mainwindow/mainwindow.h"

#include <QApplication>
#include <QIcon>
#include <QSettings>
#include <QTextStream>
#include <QTimer>
#include <memory>
#include <optional>

// Whether QApplication finds a display to open on (without one it aborts: exit 134, a core dump): a platform
// chosen, or an X or Wayland display to reach. A variable set but empty chooses nothing: Qt then tries its default
// platform, as if it were unset.
static bool displayChosen(int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i) {
        if (qstrcmp(argv[i], "-platform") == 0 || qstrcmp(argv[i], "--platform") == 0)
            return true;
    }
    return !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") || !qEnvironmentVariableIsEmpty("DISPLAY")
        || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

// The settings' names and the chosen language, before the command line's help and any widget exist: every text is
// translated as it is created.
static void applyLanguage()
{
    QCoreApplication::setOrganizationName(QStringLiteral("outbox-console"));
    QCoreApplication::setApplicationName(QStringLiteral("outbox-console"));
    ConsoleLanguage::apply(ConsoleLanguage::chosen(QSettings()));
    QCoreApplication::setApplicationVersion(ConsoleCommandLine::versionText());
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
    if (ConsoleCommandLine::wantsManPage(argc, argv)) {
        const QCoreApplication app(argc, argv);
        QTextStream(stdout) << ConsoleCommandLine().manPage();
        return ExitCode::Success;
    }
    // Before any thread exists, so that SIGINT and SIGTERM reach only the watcher: they end every event loop
    // (also a message box's: quit() would only end the main one), and a demo's processes and private database
    // are cleaned up on the way out.
    const SignalWatcher stopOnSignal([] {
        QMetaObject::invokeMethod(
            QCoreApplication::instance(), [] { QCoreApplication::exit(0); }, Qt::QueuedConnection);
    });
    ConnectionLossEchoes::dropFromQtMessages();
    // On a server or in a script, and for --help anywhere (QApplication would load a platform plugin only to print
    // text, and abort where that plugin finds no display): the command line is answered without one, and the lack
    // of a display said.
    const bool display = displayChosen(argc, argv);
    if (!display || ConsoleCommandLine::wantsHelp(argc, argv)) {
        QCoreApplication app(argc, argv);
        applyLanguage();
        ConsoleCommandLine commandLine;
        if (const std::optional<int> exitCode = commandLine.read(CommandLineText::arguments(argc, argv)))
            return *exitCode;
        if (!display) {
            QTextStream(stderr) << "outbox-console: no display to open the window on: set DISPLAY or WAYLAND_DISPLAY "
                                   "(or QT_QPA_PLATFORM=offscreen)"
                                << Qt::endl;
            return ExitCode::Unexpected;
        }
    }
    QApplication app(argc, argv);
    QApplication::setDesktopFileName(QStringLiteral(OUTBOX_CONSOLE_APP_ID));
    // The icon theme's (installed with the package), else the one built in.
    QApplication::setWindowIcon(
        QIcon::fromTheme(QStringLiteral(OUTBOX_CONSOLE_APP_ID), QIcon(QStringLiteral(":/icons/outbox-console.png"))));
    applyLanguage();
    QApplication::setApplicationDisplayName(MainWindow::tr("Outbox Console"));

    ConsoleCommandLine commandLine;
    if (const std::optional<int> exitCode = commandLine.read(CommandLineText::arguments(argc, argv)))
        return *exitCode;

    // Declared before the window, so the window (and its database connections) goes first on the way out.
    std::unique_ptr<DemoSystem> system;
    MainWindow window;
    std::unique_ptr<DemoConsole> demo;
    window.show();
    if (commandLine.demo()) {
        try {
            system = std::make_unique<DemoSystem>(
                DemoSystem::locate(QApplication::applicationDirPath()), commandLine.demoKeepDirectory());
        } catch (const OutboxError& error) {
            DemoConsole::sayCannotStart(&window, error.message());
            return ExitCode::Unexpected;
        }
        demo = std::make_unique<DemoConsole>(window, *system);
        QObject::connect(demo.get(), &DemoConsole::failed, &app, [] { QCoreApplication::exit(ExitCode::Unexpected); });
        demo->start();
    } else if (const std::optional<QString> dsn = commandLine.dsn()) {
        window.connectToDsn(*dsn);
    } else {
        QTimer::singleShot(0, &window, [&window] { window.reconnectOrAsk(); });
    }
    const int exitCode = QApplication::exec();
    window.close(); // saves the window's settings
    if (demo)
        demo->stop();
    return exitCode;
}
