#include "recentconnections.h"

#include "outboxerror.h"

#include <QHash>
#include <QSettings>
#include <cstring>
#include <libpq-fe.h>
#include <memory>

static const QString SettingsKey = QStringLiteral("connections/recent");

using ConninfoOptions = std::unique_ptr<PQconninfoOption, decltype(&PQconninfoFree)>;

RecentConnections::RecentConnections(QSettings& settings)
    : m_settings(settings)
{ }

QStringList RecentConnections::entries() const
{
    return m_settings.value(SettingsKey).toStringList().mid(0, MaxEntries);
}

void RecentConnections::remember(const QString& conninfo)
{
    const QString entry = compose(parseWithoutSecrets(conninfo));
    QStringList recent = entries();
    recent.removeAll(entry);
    recent.prepend(entry);
    m_settings.setValue(SettingsKey, recent.mid(0, MaxEntries));
}

RecentConnections::Options RecentConnections::parseWithoutSecrets(const QString& conninfo)
{
    char* errorMessage = nullptr;
    const ConninfoOptions parsed(PQconninfoParse(conninfo.toUtf8().constData(), &errorMessage), &PQconninfoFree);
    if (!parsed) {
        const QString reason
            = errorMessage ? QString::fromUtf8(errorMessage).trimmed() : QStringLiteral("out of memory");
        PQfreemem(errorMessage);
        throw OutboxError(OutboxError::Kind::InvalidInput, QStringLiteral("invalid DSN: %1").arg(reason));
    }
    Options options;
    for (const PQconninfoOption* option = parsed.get(); option->keyword; ++option) {
        // libpq marks secrets with '*' so that no client shows them; asking for each by name would miss the next.
        if (option->val && !std::strchr(option->dispchar, '*'))
            options.append({ QString::fromUtf8(option->keyword), QString::fromUtf8(option->val) });
    }
    return options;
}

QString RecentConnections::compose(const Options& options)
{
    QStringList pairs;
    for (const auto& [keyword, value] : options) {
        QString quoted = value;
        quoted.replace(QLatin1Char('\\'), QLatin1String("\\\\"));
        quoted.replace(QLatin1Char('\''), QLatin1String("\\'"));
        pairs.append(keyword + QLatin1String("='") + quoted + QLatin1Char('\''));
    }
    return pairs.join(QLatin1Char(' '));
}

QString RecentConnections::displayName(const Options& options)
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
