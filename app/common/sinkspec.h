// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "relay/messagesink.h"

#include <QString>

// Parses the relay's --sink argument:
//   amqp://USER:PASS@HOST:PORT/VHOST?exchange=NAME  RabbitMqSink (see AmqpEndpoint for every parameter)
//   nats://HOST:PORT/?subject_prefix=PREFIX  NatsJetStreamSink (see NatsEndpoint for every parameter)
//   file:PATH                               JsonLinesFileSink appending to PATH
//   fault:RATE[,LATENCY_MS[,CRASH_AFTER]][>SINK]
//                                           FaultInjectingSink (RATE between 0 and 1), in front of SINK if given
//   null                                    accepts everything, writes nothing
// Throws OutboxError(InvalidInput) naming what is wrong with the spec.
class SinkSpec final {
public:
    static MessageSinkFactory parse(const QString& spec);

    // The spec as it may be shown in logs and messages: an AMQP URI's password masked.
    static QString describe(const QString& spec);
};
