#pragma once

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

class QSettings;

// The connections the console opened lately, most recent first, as key=value conninfo strings in the
// application's QSettings. Passwords are never kept there: the settings file is plain text that ends up in
// backups, and libpq finds passwords in PGPASSWORD or ~/.pgpass anyway.
class RecentConnections final {
public:
    using Options = QList<QPair<QString, QString>>;

    static constexpr qsizetype MaxEntries = 10;

    explicit RecentConnections(QSettings& settings);

    QStringList entries() const;
    // Puts `conninfo` (a URI or key=value string) first, without its passwords, and drops an older entry for
    // the same connection and any beyond MaxEntries. Throws OutboxError(InvalidInput) if libpq cannot parse it.
    void remember(const QString& conninfo);

    // The keywords `conninfo` sets and their values, in libpq's order, as libpq parses them — except the ones
    // libpq marks as secret (password, sslpassword). Throws OutboxError(InvalidInput) naming the problem.
    static Options parseWithoutSecrets(const QString& conninfo);
    // A key=value conninfo of `options`, every value quoted for libpq. Composing what parseWithoutSecrets
    // returned gives equal strings for equal connections, however they were written.
    static QString compose(const Options& options);
    // "user@host:port/db" for lists and titles: what `options` sets, the rest as libpq would fill it in now.
    static QString displayName(const Options& options);

private:
    QSettings& m_settings;
};
