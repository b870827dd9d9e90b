// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "command.h"

// outboxctl forget-relays: removes relays that no longer run (stopped, stale, gone) from the registry, by id or by
// state, with an audited reason; the fleet list's Forget in the console.
class ForgetRelaysCommand final : public Command {
public:
    QString name() const final override { return QStringLiteral("forget-relays"); }
    QString summary() const final override;

protected:
    QString synopsis() const final override;
    void addOptions(ArgumentParser& parser) const final override;
    int execute(const ArgumentParser& parser, const ConnectionSettings& settings) final override;
};
