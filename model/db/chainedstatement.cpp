// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/chainedstatement.h"

void ChainedStatement::add(const QString& name, const SqlFragment& part)
{
    m_parts.sql += m_parts.sql.isEmpty() ? QStringLiteral("WITH ") : QStringLiteral(", ");
    m_parts += SqlFragment { name + QStringLiteral(" AS (") } + part + SqlFragment { QStringLiteral(")") };
}

SqlFragment ChainedStatement::build(const SqlFragment& finalSelect) const
{
    return m_parts + SqlFragment { QStringLiteral(" ") } + finalSelect;
}
