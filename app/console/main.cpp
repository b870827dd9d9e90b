#include "mainwindow.h"
#include "outboxerror.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

int main(int argc, char* argv[])
{
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
    parser.addOption(dsn);
    parser.process(app);

    MainWindow window;
    window.show();
    if (parser.isSet(dsn)) {
        try {
            window.connectTo(ConnectionSettings::fromDsn(parser.value(dsn)), QStringLiteral("--dsn"));
        } catch (const OutboxError& error) {
            QTimer::singleShot(0, &window, [&window, message = error.message()] { window.showConnectDialog(message); });
        }
    } else {
        QTimer::singleShot(0, &window, [&window] { window.showConnectDialog(); });
    }
    return QApplication::exec();
}
