// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "command.h"

// outboxctl relays: the relay registry, most recently seen first, with each relay's state.
class RelaysCommand final : public Command {
public:
    QString name() const final override { return QStringLiteral("relays"); }
    QString summary() const final override;

protected:
    QString synopsis() const final override { return QStringLiteral("[--format table|json] [--limit N]"); }
    void addOptions(ArgumentParser& parser) const final override;
    int execute(const ArgumentParser& parser, const ConnectionSettings& settings) final override;
};
