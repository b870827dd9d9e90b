// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/programversion.h"

#include "db/schemamigrator.h"

QString ProgramVersion::number()
{
    return QStringLiteral(OUTBOX_VERSION);
}

QString ProgramVersion::withSchema()
{
    return QStringLiteral("%1 (schema version %2)").arg(number()).arg(SchemaMigrator::latestVersion());
}

QString ProgramVersion::line(const QString& program)
{
    return program + QLatin1Char(' ') + withSchema();
}
