// SPDX-License-Identifier: GPL-3.0-or-later
#include "operatorrowscommand.h"

#include "argumentparser.h"
#include "common/exitcode.h"
#include "console.h"
#include "db/dbsession.h"
#include "signatureoption.h"

#include <QFile>
#include <QSet>
#include <QTimeZone>
#include <algorithm>

static constexpr int DefaultCap = 100'000;
static constexpr int DryRunIdsShown = 20;

static QString capitalized(const QString& word)
{
    return word.left(1).toUpper() + word.mid(1);
}

// "failed or dead", "failed, dead or discarded".
static QString statesInWords(const QList<OutboxStatus>& statuses)
{
    QStringList names = OutboxStatusNames.names(statuses);
    const QString last = names.takeLast();
    return names.isEmpty() ? last : names.join(QStringLiteral(", ")) + QStringLiteral(" or ") + last;
}

QString OperatorRowsCommand::synopsis() const
{
    return QStringLiteral("(--id ID ... | [--status %1] [--signature SIG] [--older-than DURATION] "
                          "[--error-like TEXT] [--limit N]) --reason TEXT%2 [--dry-run [--ids-file PATH]]")
        .arg(OutboxStatusNames.names(sourceStatuses()).join(QLatin1Char('|')),
            takesDueTime() ? QStringLiteral(" [--at TIME]") : QString());
}

void OperatorRowsCommand::addOptions(ArgumentParser& parser) const
{
    parser.addValue(QStringLiteral("id"), QStringLiteral("ID"),
        capitalized(verb()) + QStringLiteral(" this row; repeat the option or separate ids with commas."));
    parser.addValue(QStringLiteral("status"), QStringLiteral("S"),
        capitalized(verb()) + QStringLiteral(" the rows in this state: %1.").arg(statesInWords(sourceStatuses())));
    parser.addValue(QStringLiteral("signature"), QStringLiteral("SIG"),
        capitalized(verb())
            + QStringLiteral(" a failure group: its id as `outboxctl failures` shows it, or its signature (failed and "
                             "dead rows unless --status narrows it)."));
    parser.addValue(QStringLiteral("older-than"), QStringLiteral("DURATION"),
        QStringLiteral("With --status or --signature: only rows whose state changed at least this long ago, e.g. 2h."));
    parser.addValue(QStringLiteral("error-like"), QStringLiteral("TEXT"),
        QStringLiteral("With --status or --signature: only rows whose last error contains TEXT (case-insensitive)."));
    parser.addValue(QStringLiteral("limit"), QStringLiteral("N"),
        QStringLiteral("With --status or --signature: %1 at most N rows, lowest ids first (1 to 10000000).")
            .arg(verb()),
        QString::number(DefaultCap));
    parser.addValue(
        QStringLiteral("reason"), QStringLiteral("TEXT"), QStringLiteral("Why, for the audit log (required)."));
    if (takesDueTime()) {
        parser.addValue(QStringLiteral("at"), QStringLiteral("TIME"),
            QStringLiteral("Retry later: the rows become due at TIME (ISO-8601, e.g. 2026-12-04T06:00:00Z, a time "
                           "without an offset is UTC; or now+DURATION, e.g. now+2h) instead of now."));
    }
    parser.addFlag(QStringLiteral("dry-run"),
        QStringLiteral("Show how many rows would be %1 (and the first 20 ids) and change nothing.").arg(pastTense()));
    parser.addValue(QStringLiteral("ids-file"), QStringLiteral("PATH"),
        QStringLiteral("With --dry-run: write every id that would be %1 to PATH, one per line.").arg(pastTense()));
}

int OperatorRowsCommand::execute(const ArgumentParser& parser, const ConnectionSettings& settings)
{
    const bool byId = parser.isSet(QStringLiteral("id"));
    const bool bySignature = parser.isSet(QStringLiteral("signature"));
    const bool byStatus = parser.isSet(QStringLiteral("status")) || bySignature;
    if (byId == byStatus)
        throw parser.usageError(QStringLiteral("give either --id, or --status and/or --signature"));
    const bool filtered = parser.isSet(QStringLiteral("older-than")) || parser.isSet(QStringLiteral("error-like"))
        || parser.isSet(QStringLiteral("limit"));
    if (byId && filtered)
        throw parser.usageError(
            QStringLiteral("--older-than, --error-like and --limit only apply to --status and --signature"));
    const QString reason = parser.requiredText(QStringLiteral("reason"));
    const bool dryRun = parser.isSet(QStringLiteral("dry-run"));
    const QString idsFile = parser.value(QStringLiteral("ids-file"));
    if (parser.isSet(QStringLiteral("ids-file")) && (!dryRun || idsFile.trimmed().isEmpty()))
        throw parser.usageError(QStringLiteral("--ids-file needs --dry-run and a path"));

    QList<qint64> ids;
    OutboxFilter selection;
    int cap = DefaultCap;
    if (byId) {
        ids = parser.ids(QStringLiteral("id"));
    } else {
        QList<OutboxStatus> requested;
        if (parser.isSet(QStringLiteral("status")))
            requested.append(*OutboxStatusNames.parse(
                parser.choice(QStringLiteral("status"), OutboxStatusNames.names(sourceStatuses()))));
        selection.statuses = OutboxOperator::statusesToActOn(requested, sourceStatuses());
        if (parser.isSet(QStringLiteral("older-than")))
            selection.unchangedForMs = parser.durationMs(QStringLiteral("older-than"));
        selection.errorContains = parser.value(QStringLiteral("error-like"));
        cap = int(parser.integer(QStringLiteral("limit"), 1, 10'000'000));
    }

    const auto session = connect(settings);
    // The server's clock: now+DURATION and "in the future" mean what the relays will see.
    const QDateTime at = takesDueTime() && parser.isSet(QStringLiteral("at"))
        ? parser.instant(QStringLiteral("at"), session->serverNow(), QTimeZone::utc())
        : QDateTime();
    const QString due = at.isValid() ? QStringLiteral(", due at %1").arg(at.toUTC().toString(Qt::ISODate)) : QString();
    if (bySignature)
        selection.errorSignature = SignatureOption::resolve(parser, *session);
    OutboxOperator outboxOperator(*session);
    outboxOperator.setSelectedGroup(selection.errorSignature);
    if (byStatus) {
        ids = outboxOperator.freeze(selection, cap);
        if (ids.size() == cap)
            Console::warning(
                QStringLiteral("the selection reached --limit %1; run again for any rows beyond it").arg(cap));
    }
    if (dryRun) {
        // The file first: a failure to write it leaves stdout empty, as every failure does.
        if (!idsFile.isEmpty()) {
            QFile file(idsFile);
            QByteArray lines;
            for (const qint64 id : ids)
                lines += QByteArray::number(id) + '\n';
            if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(lines) != lines.size())
                throw parser.usageError(
                    QStringLiteral("--ids-file: cannot write %1: %2").arg(idsFile, file.errorString()));
            Console::hint(QStringLiteral("%1 ids written to %2").arg(ids.size()).arg(idsFile));
        }
        Console::line(QStringLiteral("dry run: would %1 %2%3 rows%4")
                          .arg(verb(), byId ? QStringLiteral("up to ") : QString())
                          .arg(ids.size())
                          .arg(due));
        // A count and a glimpse; a selection of 100,000 ids is for a file, not a terminal line.
        if (!ids.isEmpty()) {
            Console::line(
                QStringLiteral("ids: %1%2")
                    .arg(Console::idList(ids.mid(0, DryRunIdsShown)),
                        ids.size() > DryRunIdsShown ? QStringLiteral(" and %1 more").arg(ids.size() - DryRunIdsShown)
                                                    : QString()));
        }
        if (byId)
            Console::hint(QStringLiteral("rows given by --id are %1 only if they are still %2 when applied")
                              .arg(pastTense(), statesInWords(sourceStatuses())));
        return ExitCode::Success;
    }
    const OperatorActionReport report = perform(outboxOperator, ids, reason, at);
    Console::line(QStringLiteral("%1 %2%3, left alone %4 (not %5 when applied)")
                      .arg(pastTense())
                      .arg(report.changed.size())
                      .arg(due)
                      .arg(report.leftAlone.size())
                      .arg(statesInWords(sourceStatuses())));
    if (!report.leftAlone.isEmpty())
        Console::line(QStringLiteral("left alone: %1").arg(Console::idList(report.leftAlone)));
    return ExitCode::Success;
}
