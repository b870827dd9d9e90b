// SPDX-License-Identifier: GPL-3.0-or-later
#include "connect/recentconnections.h"

#include "db/conninfo.h"

#include <QSettings>

static const QString SettingsKey = QStringLiteral("connections/recent");

RecentConnections::RecentConnections(QSettings& settings)
    : m_settings(settings)
{ }

QStringList RecentConnections::entries() const
{
    return m_settings.value(SettingsKey).toStringList().mid(0, MaxEntries);
}

void RecentConnections::remember(const QString& conninfo)
{
    const QString entry = Conninfo::compose(Conninfo::parseWithoutSecrets(conninfo));
    QStringList recent = entries();
    recent.removeAll(entry);
    recent.prepend(entry);
    m_settings.setValue(SettingsKey, recent.mid(0, MaxEntries));
}
