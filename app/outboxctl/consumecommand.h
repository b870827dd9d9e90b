// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "command.h"

// outboxctl consume: the reference consumer. Takes events from a RabbitMQ queue or a NATS JetStream durable consumer
// and applies them through the inbox (a per-customer order count), acknowledging each delivery only after its
// transaction committed.
class ConsumeCommand final : public Command {
public:
    QString name() const final override { return QStringLiteral("consume"); }
    QString summary() const final override;

protected:
    QString synopsis() const final override;
    void addOptions(ArgumentParser& parser) const final override;
    int execute(const ArgumentParser& parser, const ConnectionSettings& settings) final override;
};
