// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "command.h"

// outboxctl create-order: one idempotent "create order" request, answered as one JSON line.
class CreateOrderCommand final : public Command {
public:
    QString name() const final override { return QStringLiteral("create-order"); }
    QString summary() const final override;

protected:
    QString synopsis() const final override;
    void addOptions(ArgumentParser& parser) const final override;
    int execute(const ArgumentParser& parser, const ConnectionSettings& settings) final override;
};
