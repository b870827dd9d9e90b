// SPDX-License-Identifier: GPL-3.0-or-later
#include "operations/jsonsyntax.h"

#include <QJsonArray>
#include <QJsonDocument>

QString JsonSyntax::Problem::text() const
{
    switch (kind) {
    case Kind::Empty:
        return QStringLiteral("empty: a JSON value is required, e.g. {} or null");
    case Kind::SeveralValues:
        return QStringLiteral("more than one JSON value: put them in an array or object");
    case Kind::Syntax:
        break;
    }
    return QStringLiteral("line %1, column %2: %3").arg(line).arg(column).arg(reason);
}

std::optional<JsonSyntax::Problem> JsonSyntax::check(const QString& text)
{
    if (text.trimmed().isEmpty())
        return Problem { Problem::Kind::Empty, 0, 0, {} };
    // QJsonDocument takes only an object or an array on its own: a scalar is parsed inside brackets, which moves
    // the offsets one byte on.
    const QByteArray utf8 = text.toUtf8();
    const QByteArray trimmed = utf8.trimmed();
    const bool container = trimmed.startsWith('{') || trimmed.startsWith('[');
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(container ? utf8 : '[' + utf8 + ']', &error);
    if (error.error == QJsonParseError::NoError)
        return container || document.array().size() == 1
            ? std::nullopt
            : std::optional(Problem { Problem::Kind::SeveralValues, 0, 0, {} });
    // Qt refuses a number a double cannot hold, which jsonb's numeric keeps: the server decides about numbers.
    if (error.error == QJsonParseError::IllegalNumber)
        return std::nullopt;
    // Qt's offset is just past the character it stumbled on, but at the garbage itself after a complete document.
    // Inside the brackets a scalar is parsed in, text after the value is garbage only once the text closed the
    // brackets: the character before is that closing bracket, where the mistake is.
    const qsizetype back = container ? (error.error == QJsonParseError::GarbageAtEnd ? 0 : 1) : 2;
    const qsizetype offset = qBound(qsizetype(0), qsizetype(error.offset) - back, utf8.size());
    const QByteArray before = utf8.left(offset);
    const qsizetype lineStart = before.lastIndexOf('\n') + 1;
    return Problem { Problem::Kind::Syntax, int(before.count('\n') + 1),
        int(QString::fromUtf8(before.mid(lineStart)).toUcs4().size() + 1), error.errorString() };
}
