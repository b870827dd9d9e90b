// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/sqlfragment.h"

#include <QList>

// One statement built from several parts (data-modifying CTEs), each contributed by the repository that owns
// the table it writes; later parts read earlier ones by name. The whole chain costs one round trip and sees
// one snapshot, which is how the create path writes the order, its outbox message and the completed key at once.
class ChainedStatement final {
public:
    // Adds `WITH name AS (part)`; `part` may read every part added before it by name.
    void add(const QString& name, const SqlFragment& part);

    // The statement: every part, then `finalSelect` over them.
    SqlFragment build(const SqlFragment& finalSelect) const;

private:
    SqlFragment m_parts;
};
