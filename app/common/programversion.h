// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// What every executable reports as its version: the project's, and the schema version it was built for (the one
// `outboxctl migrate` applies; a database at another version is refused by the programs that need it).
namespace ProgramVersion {

// "0.1.0"
QString number();
// "0.1.0 (schema version 10)"
QString withSchema();
// "outboxctl 0.1.0 (schema version 10)", for --version.
QString line(const QString& program);

} // namespace ProgramVersion
