// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "metrics/latencyhistogram.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

// Builds a scrape in the Prometheus text exposition format, version 0.0.4 (served as
// "text/plain; version=0.0.4"). Each family is written once with its HELP and TYPE lines.
class PrometheusFormat final {
public:
    static const QByteArray ContentType;

    // One counter family with a sample per value of `label`, in the order given.
    void addCounter(
        const QString& name, const QString& help, const QString& label, const QList<QPair<QString, qint64>>& samples);
    void addCounter(const QString& name, const QString& help, qint64 value);
    void addGauge(const QString& name, const QString& help, double value);
    // A histogram of `tally`, whose bucket bounds are in milliseconds; the family is named in seconds, as
    // Prometheus expects ("..._seconds").
    void addHistogram(const QString& name, const QString& help, const LatencyTally& tally);
    // The "info" idiom: a gauge of 1 whose labels carry the facts.
    void addInfo(const QString& name, const QString& help, const QList<QPair<QString, QString>>& labels);

    const QByteArray& text() const { return m_text; }

private:
    void addHeader(const QString& name, const QString& help, const char* type);

    QByteArray m_text;
};
