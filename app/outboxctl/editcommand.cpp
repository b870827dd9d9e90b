// SPDX-License-Identifier: GPL-3.0-or-later
#include "editcommand.h"

#include "argumentparser.h"
#include "common/exitcode.h"
#include "console.h"
#include "db/dbsession.h"
#include "operations/linediff.h"
#include "operations/outboxoperator.h"

#include <QFile>
#include <QStringDecoder>
#include <cstdio>
#include <limits>

// RabbitMQ's largest message (max_message_size); a bigger payload could not be published anyway.
static constexpr qint64 MaxFileBytes = 128 * 1024 * 1024;
static constexpr int DiffContext = 3;

QString EditCommand::summary() const
{
    return QStringLiteral("Edit the payload and/or headers of a failed, dead or discarded outbox row and requeue it, "
                          "after showing the difference; audited with both versions.");
}

QString EditCommand::synopsis() const
{
    return QStringLiteral("--id ID [--payload-file PATH] [--headers-file PATH] --reason TEXT [--dry-run]");
}

void EditCommand::addOptions(ArgumentParser& parser) const
{
    parser.addValue(QStringLiteral("id"), QStringLiteral("ID"), QStringLiteral("The row to edit."));
    parser.addValue(QStringLiteral("payload-file"), QStringLiteral("PATH"),
        QStringLiteral("The new payload: one JSON value, UTF-8 (- reads standard input)."));
    parser.addValue(QStringLiteral("headers-file"), QStringLiteral("PATH"),
        QStringLiteral("The new headers: a JSON object, UTF-8 (- reads standard input). Without it the headers stay."));
    parser.addValue(
        QStringLiteral("reason"), QStringLiteral("TEXT"), QStringLiteral("Why, for the audit log (required)."));
    parser.addFlag(QStringLiteral("dry-run"), QStringLiteral("Show the difference and change nothing."));
}

// The text of the file an option names; a usage error naming the option for anything else.
static QString readText(const ArgumentParser& parser, const QString& option)
{
    const QString path = parser.value(option);
    if (path.trimmed().isEmpty())
        throw parser.usageError(QStringLiteral("--%1 needs a path").arg(option));
    QFile file;
    const bool opened = path == QLatin1String("-") ? file.open(stdin, QIODevice::ReadOnly)
                                                   : (file.setFileName(path), file.open(QIODevice::ReadOnly));
    if (!opened)
        throw parser.usageError(QStringLiteral("--%1: cannot read %2: %3").arg(option, path, file.errorString()));
    const QByteArray bytes = file.read(MaxFileBytes + 1);
    if (file.error() != QFileDevice::NoError)
        throw parser.usageError(QStringLiteral("--%1: cannot read %2: %3").arg(option, path, file.errorString()));
    if (bytes.size() > MaxFileBytes)
        throw parser.usageError(QStringLiteral("--%1: %2 is larger than %3 MiB, the largest message RabbitMQ takes")
                                    .arg(option, path, QString::number(MaxFileBytes / 1024 / 1024)));
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString text = decoder.decode(bytes);
    if (decoder.hasError())
        throw parser.usageError(QStringLiteral("--%1: %2 is not valid UTF-8").arg(option, path));
    return text;
}

static void printDiff(const QString& what, const QString& before, const QString& after)
{
    const LineDiff diff(before, after);
    if (diff.isEmpty()) {
        Console::line(QStringLiteral("%1: unchanged").arg(what));
        return;
    }
    Console::line(QStringLiteral("%1: %2 line(s) removed, %3 added").arg(what).arg(diff.removed()).arg(diff.added()));
    for (const QString& line : diff.unified(DiffContext))
        Console::line(line);
}

int EditCommand::execute(const ArgumentParser& parser, const ConnectionSettings& settings)
{
    const qint64 id = parser.integer(QStringLiteral("id"), 1, std::numeric_limits<qint64>::max());
    const bool payloadSet = parser.isSet(QStringLiteral("payload-file"));
    const bool headersSet = parser.isSet(QStringLiteral("headers-file"));
    if (!payloadSet && !headersSet)
        throw parser.usageError(QStringLiteral("give --payload-file, --headers-file or both"));
    if (payloadSet && headersSet && parser.value(QStringLiteral("payload-file")) == QLatin1String("-")
        && parser.value(QStringLiteral("headers-file")) == QLatin1String("-"))
        throw parser.usageError(
            QStringLiteral("only one of --payload-file and --headers-file can read standard input"));
    const QString reason = parser.requiredText(QStringLiteral("reason"));
    std::optional<QString> payload;
    std::optional<QString> headers;
    if (payloadSet)
        payload = readText(parser, QStringLiteral("payload-file"));
    if (headersSet)
        headers = readText(parser, QStringLiteral("headers-file"));

    const auto session = connect(settings);
    OutboxOperator outboxOperator(*session);
    const ContentEditPreview preview = outboxOperator.previewEdit(id, payload, headers);
    if (!preview.editable()) {
        Console::error(QStringLiteral("row %1 is %2: only failed, dead or discarded rows can be edited")
                           .arg(id)
                           .arg(OutboxStatusNames.name(preview.status)));
        return ExitCode::NotApplicable;
    }
    if (!preview.changesSomething())
        throw parser.usageError(QStringLiteral(
            "the edit changes nothing in row %1; to publish it as it is, use 'outboxctl requeue --id %1'")
                                    .arg(id));
    printDiff(QStringLiteral("payload"), preview.current.payload, preview.proposed.payload);
    printDiff(QStringLiteral("headers"), preview.current.headers, preview.proposed.headers);
    if (parser.isSet(QStringLiteral("dry-run"))) {
        Console::line(QStringLiteral("dry run: would edit and requeue row %1 (%2)")
                          .arg(id)
                          .arg(OutboxStatusNames.name(preview.status)));
        return ExitCode::Success;
    }
    const OperatorActionReport report = outboxOperator.editAndRequeue(preview, reason);
    if (report.changed.isEmpty()) {
        Console::error(QStringLiteral("row %1 changed while the command ran (its state or content is not what was "
                                      "compared); nothing was written: run the command again")
                           .arg(id));
        return ExitCode::NotApplicable;
    }
    Console::line(
        QStringLiteral("edited and requeued row %1 (was %2)").arg(id).arg(OutboxStatusNames.name(preview.status)));
    return ExitCode::Success;
}
