// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "command.h"

// outboxctl loadgen: duplicate-heavy create traffic against the orders service, with a summary of what the
// server answered.
class LoadgenCommand final : public Command {
public:
    QString name() const final override { return QStringLiteral("loadgen"); }
    QString summary() const final override;

protected:
    QString synopsis() const final override;
    void addOptions(ArgumentParser& parser) const final override;
    int execute(const ArgumentParser& parser, const ConnectionSettings& settings) final override;
};
