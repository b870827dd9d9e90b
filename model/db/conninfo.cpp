// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/conninfo.h"

#include "db/outboxerror.h"

#include <QHash>
#include <QStringList>
#include <cstring>
#include <libpq-fe.h>
#include <memory>

using ConninfoOptions = std::unique_ptr<PQconninfoOption, decltype(&PQconninfoFree)>;

QList<Conninfo::Option> Conninfo::parse(const QString& conninfo)
{
    char* errorMessage = nullptr;
    const ConninfoOptions parsed(PQconninfoParse(conninfo.toUtf8().constData(), &errorMessage), &PQconninfoFree);
    if (!parsed) {
        const QString reason
            = errorMessage ? QString::fromUtf8(errorMessage).trimmed() : QStringLiteral("out of memory");
        PQfreemem(errorMessage);
        throw OutboxError(OutboxError::Kind::InvalidInput, QStringLiteral("invalid DSN: %1").arg(reason));
    }
    QList<Option> options;
    for (const PQconninfoOption* option = parsed.get(); option->keyword; ++option) {
        // libpq marks secrets with '*' so that no client shows them; asking for each by name would miss the next.
        if (option->val) {
            options.append({ QString::fromUtf8(option->keyword), QString::fromUtf8(option->val),
                std::strchr(option->dispchar, '*') != nullptr });
        }
    }
    return options;
}

Conninfo::Options Conninfo::parseWithoutSecrets(const QString& conninfo)
{
    Options options;
    for (const Option& option : parse(conninfo)) {
        if (!option.secret)
            options.append({ option.keyword, option.value });
    }
    return options;
}

QString Conninfo::quoted(const QString& value)
{
    QString escaped = value;
    escaped.replace(QLatin1Char('\\'), QLatin1String("\\\\"));
    escaped.replace(QLatin1Char('\''), QLatin1String("\\'"));
    return QLatin1Char('\'') + escaped + QLatin1Char('\'');
}

QString Conninfo::compose(const Options& options)
{
    QStringList pairs;
    for (const auto& [keyword, value] : options)
        pairs.append(keyword + QLatin1Char('=') + quoted(value));
    return pairs.join(QLatin1Char(' '));
}

QString Conninfo::displayName(const Options& options)
{
    QHash<QString, QString> values;
    for (const auto& [keyword, value] : options)
        values.insert(keyword, value);
    const QString service = values.value(QStringLiteral("service"));
    // PQconndefaults knows PGHOST and friends, the service PGSERVICE names, the login name and compiled-in
    // defaults, but not a service named in `options`: that one's file may set anything, so then show only
    // what is explicit rather than guess.
    if (service.isEmpty()) {
        const ConninfoOptions defaults(PQconndefaults(), &PQconninfoFree);
        for (const PQconninfoOption* option = defaults.get(); option && option->keyword; ++option) {
            const QString keyword = QString::fromUtf8(option->keyword);
            if (option->val && !values.contains(keyword))
                values.insert(keyword, QString::fromUtf8(option->val));
        }
    }
    const QString user = values.value(QStringLiteral("user"));
    QString host = values.value(QStringLiteral("host"), values.value(QStringLiteral("hostaddr")));
    if (host.isEmpty()) // psql's name for the Unix-domain socket libpq uses without a host
        host = service.isEmpty() ? QStringLiteral("[local]") : QStringLiteral("[service %1]").arg(service);
    const QString port = values.value(QStringLiteral("port"));
    // libpq's default, unless the named service's file sets one we cannot see.
    const QString database = values.value(QStringLiteral("dbname"), service.isEmpty() ? user : QString());

    QString name = user.isEmpty() ? host : user + QLatin1Char('@') + host;
    if (!port.isEmpty())
        name += QLatin1Char(':') + port;
    if (!database.isEmpty())
        name += QLatin1Char('/') + database;
    return name;
}
