// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <amqp.h>
#include <deque>
#include <vector>

// The AMQP field table for a message's headers, built from the outbox row's JSON headers object. Strings,
// booleans, integers and other numbers keep their type; null becomes a void field; arrays and objects travel
// as their compact JSON text. Owns the memory the table points into, so it must outlive the publish call.
class AmqpHeaderTable final {
    Q_DISABLE_COPY_MOVE(AmqpHeaderTable)
public:
    explicit AmqpHeaderTable(const QJsonObject& headers);

    const amqp_table_t& table() const { return m_table; }

    // The reverse, for consumers: every field as a JSON value.
    static QJsonObject toJson(const amqp_table_t& table);

private:
    amqp_bytes_t keep(QByteArray data);

    std::deque<QByteArray> m_storage; // a deque never moves its elements, so the table's pointers stay valid
    std::vector<amqp_table_entry_t> m_entries;
    amqp_table_t m_table {};
};
