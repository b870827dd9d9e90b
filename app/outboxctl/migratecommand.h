// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "command.h"

// outboxctl migrate: brings the schema to the version this binary carries.
class MigrateCommand final : public Command {
public:
    QString name() const final override { return QStringLiteral("migrate"); }
    QString summary() const final override;

protected:
    QString synopsis() const final override { return QStringLiteral("[--grant-roles]"); }
    void addOptions(ArgumentParser& parser) const final override;
    int execute(const ArgumentParser& parser, const ConnectionSettings& settings) final override;
};
