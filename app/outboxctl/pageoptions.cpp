// SPDX-License-Identifier: GPL-3.0-or-later
#include "pageoptions.h"

#include "argumentparser.h"
#include "console.h"

#include <QJsonObject>
#include <limits>

void PageOptions::add(ArgumentParser& parser, const QString& rows)
{
    parser.addValue(QStringLiteral("limit"), QStringLiteral("N"), QStringLiteral("%1 per page (1 to 10000).").arg(rows),
        QStringLiteral("50"));
    parser.addValue(QStringLiteral("after"), QStringLiteral("CURSOR"),
        QStringLiteral("Continue after this cursor (the last id of the previous page)."));
    parser.addValue(
        QStringLiteral("format"), QStringLiteral("F"), QStringLiteral("table, json or csv."), QStringLiteral("table"));
}

PageOptions PageOptions::parse(const ArgumentParser& parser)
{
    PageOptions options;
    options.limit = int(parser.integer(QStringLiteral("limit"), 1, 10'000));
    if (parser.isSet(QStringLiteral("after")))
        options.beforeId = parser.integer(QStringLiteral("after"), 1, std::numeric_limits<qint64>::max());
    options.format = RecordTable::formatNamed(parser.choice(
        QStringLiteral("format"), { QStringLiteral("table"), QStringLiteral("json"), QStringLiteral("csv") }));
    return options;
}

void PageOptions::print(const RecordTable& page, const QString& arrayKey, std::optional<qint64> lastId) const
{
    const QJsonValue nextCursor = lastId ? QJsonValue(QString::number(*lastId)) : QJsonValue(QJsonValue::Null);
    Console::write(page.render(format, arrayKey, { { QStringLiteral("next_cursor"), nextCursor } }));
    if (lastId && format != RecordTable::Format::Json)
        Console::hint(QStringLiteral("next page: --after %1").arg(*lastId));
}
