// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadgencommand.h"

#include "argumentparser.h"
#include "common/exitcode.h"
#include "common/signalwatcher.h"
#include "console.h"
#include "loadgenerator.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

QString LoadgenCommand::summary() const
{
    return QStringLiteral("Send duplicate-heavy create traffic to the orders service and summarise the answers.");
}

QString LoadgenCommand::synopsis() const
{
    return QStringLiteral(
        "--url URL [--rate N] [--orders N] [--timeout-ms MS] [--duplicates SHARE] [--mismatches SHARE] "
        "[--answers FILE]");
}

void LoadgenCommand::addOptions(ArgumentParser& parser) const
{
    const LoadGenerator::Options defaults;
    parser.addValue(QStringLiteral("url"), QStringLiteral("URL"),
        QStringLiteral("Base URL of orders-service, e.g. http://127.0.0.1:8080."));
    parser.addValue(QStringLiteral("rate"), QStringLiteral("N"), QStringLiteral("New orders per second (1 to 1000)."),
        QString::number(defaults.ratePerSecond));
    parser.addValue(QStringLiteral("orders"), QStringLiteral("N"),
        QStringLiteral("New orders to send, then stop; 0 runs until SIGINT/SIGTERM."), QStringLiteral("0"));
    parser.addValue(QStringLiteral("timeout-ms"), QStringLiteral("MS"),
        QStringLiteral("Client timeout; a timed-out request is retried with the same key."),
        QString::number(defaults.timeoutMs));
    parser.addValue(QStringLiteral("duplicates"), QStringLiteral("SHARE"),
        QStringLiteral("Share of orders sent twice at once (0 to 1)."), QString::number(defaults.duplicateShare));
    parser.addValue(QStringLiteral("mismatches"), QStringLiteral("SHARE"),
        QStringLiteral("Share of keys reused with a different body (0 to 1)."),
        QString::number(defaults.mismatchShare));
    parser.addValue(QStringLiteral("seed"), QStringLiteral("N"), QStringLiteral("Random seed, for repeatable runs."),
        QStringLiteral("0"));
    parser.addValue(QStringLiteral("answers"), QStringLiteral("FILE"),
        QStringLiteral("Append one JSON line per answer to FILE (at_ms, key, status, replayed, order_id): which "
                       "orders were acknowledged, to look for after a failover."));
}

static double share(const ArgumentParser& parser, const QString& name)
{
    bool ok = false;
    const double value = parser.value(name).toDouble(&ok);
    if (!ok || value < 0 || value > 1)
        throw parser.usageError(QStringLiteral("--%1 must be a number from 0 to 1").arg(name));
    return value;
}

int LoadgenCommand::execute(const ArgumentParser& parser, const ConnectionSettings&)
{
    LoadGenerator::Options options;
    options.url = QUrl(parser.requiredText(QStringLiteral("url")));
    if (!options.url.isValid() || options.url.scheme() != QLatin1String("http"))
        throw parser.usageError(QStringLiteral("--url must be an http:// URL"));
    options.ratePerSecond = double(parser.integer(QStringLiteral("rate"), 1, 1000));
    options.orders = parser.integer(QStringLiteral("orders"), 0, 100'000'000);
    options.timeoutMs = int(parser.integer(QStringLiteral("timeout-ms"), 1, 600'000));
    options.duplicateShare = share(parser, QStringLiteral("duplicates"));
    options.mismatchShare = share(parser, QStringLiteral("mismatches"));
    options.seed = quint32(parser.integer(QStringLiteral("seed"), 0, std::numeric_limits<quint32>::max()));
    QFile answers(parser.value(QStringLiteral("answers")));
    if (!answers.fileName().isEmpty()) {
        // Unbuffered: each answer reaches the file as it comes, for a reader that does not wait for the end.
        if (!answers.open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Unbuffered))
            throw parser.usageError(
                QStringLiteral("--answers: cannot write %1: %2").arg(answers.fileName(), answers.errorString()));
        options.answers = &answers;
    }

    // The watcher comes first, so that the network threads started below inherit its signal mask. A signal
    // only asks the generator to stop; it finishes once the requests in flight are answered.
    QEventLoop loop;
    LoadGenerator* running = nullptr;
    const SignalWatcher watcher([&loop, &running] {
        QMetaObject::invokeMethod(
            &loop, [&running] { running->stop(); }, Qt::QueuedConnection);
    });
    LoadGenerator generator(options);
    running = &generator;
    QObject::connect(&generator, &LoadGenerator::finished, &loop, &QEventLoop::quit);
    generator.start();
    loop.exec();

    const LoadGenerator::Summary& s = generator.summary();
    Console::line(QString::fromUtf8(QJsonDocument(QJsonObject {
                                                      { QStringLiteral("sent"), s.sent },
                                                      { QStringLiteral("created"), s.created },
                                                      { QStringLiteral("replayed"), s.replayed },
                                                      { QStringLiteral("in_progress"), s.inProgress },
                                                      { QStringLiteral("mismatched"), s.mismatched },
                                                      { QStringLiteral("rejected"), s.rejected },
                                                      { QStringLiteral("timeouts"), s.timeouts },
                                                      { QStringLiteral("errors"), s.errors },
                                                  })
                                        .toJson(QJsonDocument::Compact)));
    return ExitCode::Success;
}
