// SPDX-License-Identifier: GPL-3.0-or-later
// AmqpHeaderTable, both ways. Any bytes a broker could deliver as a message's header table decode (rabbitmq-c)
// and read as JSON (toJson) without a crash. And a JSON headers object the relay publishes, encoded as rabbitmq-c
// puts it on the wire and decoded again, reads back as the header contract says: scalars as they were, arrays and
// objects as their compact JSON text.
#include "broker/amqpconnection.h"
#include "broker/amqpheadertable.h"
#include "fuzzcheck.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QVariant>
#include <amqp_framing.h>

namespace {

// The basic class's property flags with only the headers present, then the table.
const QByteArray HeadersOnly("\x20\x00", 2);

class Pool {
    Q_DISABLE_COPY_MOVE(Pool)
public:
    Pool() { init_amqp_pool(&m_pool, 4096); }
    ~Pool() { empty_amqp_pool(&m_pool); }
    amqp_pool_t* get() { return &m_pool; }

private:
    amqp_pool_t m_pool;
};

const amqp_basic_properties_t* decoded(Pool& pool, const QByteArray& encoded)
{
    void* properties = nullptr;
    if (amqp_decode_properties(AMQP_BASIC_CLASS, pool.get(), AmqpConnection::bytes(encoded), &properties)
        != AMQP_STATUS_OK)
        return nullptr;
    return static_cast<const amqp_basic_properties_t*>(properties);
}

// What UTF-8 can carry of a text: PostgreSQL's jsonb, where outbox headers come from, never holds a lone
// surrogate, and UTF-8 cannot.
QString carried(const QString& text)
{
    return QString::fromUtf8(text.toUtf8());
}

QJsonValue expectedAfterTravel(const QJsonValue& value)
{
    switch (value.type()) {
    case QJsonValue::String:
        return carried(value.toString());
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    case QJsonValue::Undefined:
        return QJsonValue::Null;
    default:
        return value;
    }
}

void decodeArbitrary(const QByteArray& input)
{
    const QByteArray encoded = HeadersOnly + input; // the decoded table points into it
    Pool pool;
    if (const amqp_basic_properties_t* properties = decoded(pool, encoded))
        AmqpHeaderTable::toJson(properties->headers);
}

void roundTrip(const QJsonObject& headers)
{
    QJsonObject expected;
    for (auto it = headers.begin(); it != headers.end(); ++it) {
        // RabbitMqSink refuses longer names before they get here: AMQP's field names are short strings.
        if (it.key().toUtf8().size() > 255)
            return;
        expected.insert(carried(it.key()), expectedAfterTravel(it.value()));
    }
    if (expected.size() != headers.size())
        return; // two names that differ only in what UTF-8 cannot carry

    const AmqpHeaderTable table(headers);
    amqp_basic_properties_t properties {};
    properties._flags = AMQP_BASIC_HEADERS_FLAG;
    properties.headers = table.table();
    QByteArray wire(1 << 20, Qt::Uninitialized);
    const int length = amqp_encode_properties(AMQP_BASIC_CLASS, &properties, AmqpConnection::bytes(wire));
    const QByteArray json = QJsonDocument(headers).toJson(QJsonDocument::Compact);
    FUZZ_REQUIRE(length > 0, "cannot encode " + json + ": " + amqp_error_string2(length));
    wire.truncate(length);

    Pool pool;
    const amqp_basic_properties_t* read = decoded(pool, wire);
    FUZZ_REQUIRE(read && (read->_flags & AMQP_BASIC_HEADERS_FLAG), "cannot decode the encoding of " + json);
    const QJsonObject back = AmqpHeaderTable::toJson(read->headers);
    FUZZ_REQUIRE(back == expected,
        "headers " + json + "\nexpected " + QJsonDocument(expected).toJson(QJsonDocument::Compact) + "\nread back "
            + QJsonDocument(back).toJson(QJsonDocument::Compact));
    // Integers beyond a double's 53 bits travel exactly, as I64.
    for (auto it = headers.begin(); it != headers.end(); ++it) {
        if (it.value().toVariant().typeId() == QMetaType::LongLong)
            FUZZ_REQUIRE(back.value(carried(it.key())).toInteger() == it.value().toInteger(), json);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size)
{
    const QByteArray input = QByteArray::fromRawData(reinterpret_cast<const char*>(bytes), qsizetype(size));
    decodeArbitrary(input);
    const QJsonDocument document = QJsonDocument::fromJson(input);
    if (document.isObject())
        roundTrip(document.object());
    return 0;
}
