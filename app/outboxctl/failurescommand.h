// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "command.h"

// outboxctl failures: failed and dead rows grouped by the signature of their last error, largest group first.
class FailuresCommand final : public Command {
public:
    QString name() const final override { return QStringLiteral("failures"); }
    QString summary() const final override;

protected:
    QString synopsis() const final override;
    void addOptions(ArgumentParser& parser) const final override;
    int execute(const ArgumentParser& parser, const ConnectionSettings& settings) final override;
};
