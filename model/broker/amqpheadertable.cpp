// SPDX-License-Identifier: GPL-3.0-or-later
#include "broker/amqpheadertable.h"

#include "broker/amqpconnection.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QVariant>

AmqpHeaderTable::AmqpHeaderTable(const QJsonObject& headers)
{
    m_entries.reserve(size_t(headers.size()));
    for (auto it = headers.begin(); it != headers.end(); ++it) {
        amqp_table_entry_t entry {};
        entry.key = keep(it.key().toUtf8());
        const QJsonValue value = it.value();
        amqp_field_value_t& field = entry.value;
        switch (value.type()) {
        case QJsonValue::Bool:
            field.kind = AMQP_FIELD_KIND_BOOLEAN;
            field.value.boolean = value.toBool();
            break;
        case QJsonValue::Double:
            // Qt keeps a JSON integer as an exact qint64 (e.g. a 64-bit id beyond a double's 53 bits).
            if (value.toVariant().typeId() == QMetaType::LongLong) {
                field.kind = AMQP_FIELD_KIND_I64;
                field.value.i64 = value.toInteger();
            } else {
                field.kind = AMQP_FIELD_KIND_F64;
                field.value.f64 = value.toDouble();
            }
            break;
        case QJsonValue::Null:
        case QJsonValue::Undefined:
            field.kind = AMQP_FIELD_KIND_VOID;
            break;
        case QJsonValue::String:
            field.kind = AMQP_FIELD_KIND_UTF8;
            field.value.bytes = keep(value.toString().toUtf8());
            break;
        case QJsonValue::Array:
            field.kind = AMQP_FIELD_KIND_UTF8;
            field.value.bytes = keep(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
            break;
        case QJsonValue::Object:
            field.kind = AMQP_FIELD_KIND_UTF8;
            field.value.bytes = keep(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
            break;
        }
        m_entries.push_back(entry);
    }
    m_table.num_entries = int(m_entries.size());
    m_table.entries = m_entries.data();
}

amqp_bytes_t AmqpHeaderTable::keep(QByteArray data)
{
    m_storage.push_back(std::move(data));
    return AmqpConnection::bytes(m_storage.back());
}

static QJsonValue toJsonValue(const amqp_field_value_t& field)
{
    switch (field.kind) {
    case AMQP_FIELD_KIND_BOOLEAN:
        return bool(field.value.boolean);
    case AMQP_FIELD_KIND_I8:
        return field.value.i8;
    case AMQP_FIELD_KIND_U8:
        return field.value.u8;
    case AMQP_FIELD_KIND_I16:
        return field.value.i16;
    case AMQP_FIELD_KIND_U16:
        return field.value.u16;
    case AMQP_FIELD_KIND_I32:
        return field.value.i32;
    case AMQP_FIELD_KIND_U32:
        return qint64(field.value.u32);
    case AMQP_FIELD_KIND_I64:
        return qint64(field.value.i64);
    case AMQP_FIELD_KIND_U64:
    case AMQP_FIELD_KIND_TIMESTAMP:
        return qint64(field.value.u64);
    case AMQP_FIELD_KIND_F32:
        return double(field.value.f32);
    case AMQP_FIELD_KIND_F64:
        return field.value.f64;
    case AMQP_FIELD_KIND_UTF8:
    case AMQP_FIELD_KIND_BYTES:
        return QString::fromUtf8(AmqpConnection::toByteArray(field.value.bytes));
    case AMQP_FIELD_KIND_TABLE:
        return AmqpHeaderTable::toJson(field.value.table);
    case AMQP_FIELD_KIND_ARRAY: {
        QJsonArray array;
        for (int i = 0; i < field.value.array.num_entries; ++i)
            array.append(toJsonValue(field.value.array.entries[i]));
        return array;
    }
    default:
        return QJsonValue::Null;
    }
}

QJsonObject AmqpHeaderTable::toJson(const amqp_table_t& table)
{
    QJsonObject object;
    for (int i = 0; i < table.num_entries; ++i) {
        const amqp_table_entry_t& entry = table.entries[i];
        object.insert(QString::fromUtf8(AmqpConnection::toByteArray(entry.key)), toJsonValue(entry.value));
    }
    return object;
}
