// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

class QSettings;

// The connections the console opened lately, most recent first, as key=value conninfo strings in the
// application's QSettings. Passwords are never kept there: the settings file is plain text that ends up in
// backups, and libpq finds passwords in PGPASSWORD or ~/.pgpass anyway. Parsing is Conninfo's (model/db).
class RecentConnections final {
public:
    static constexpr qsizetype MaxEntries = 10;

    explicit RecentConnections(QSettings& settings);

    QStringList entries() const;
    // Puts `conninfo` (a URI or key=value string) first, without its passwords, and drops an older entry for
    // the same connection and any beyond MaxEntries. Throws OutboxError(InvalidInput) if libpq cannot parse it.
    void remember(const QString& conninfo);

private:
    QSettings& m_settings;
};
