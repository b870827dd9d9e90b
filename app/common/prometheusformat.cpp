// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/prometheusformat.h"

#include <QLocale>
#include <cmath>

const QByteArray PrometheusFormat::ContentType = QByteArrayLiteral("text/plain; version=0.0.4; charset=utf-8");

// The format reserves backslash and newline in HELP text, and additionally the double quote in label values.
static QByteArray escaped(const QString& text, bool labelValue)
{
    QByteArray out;
    for (const char c : text.toUtf8()) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '\n')
            out += "\\n";
        else if (c == '"' && labelValue)
            out += "\\\"";
        else
            out += c;
    }
    return out;
}

static QByteArray number(double value)
{
    if (std::isnan(value))
        return QByteArrayLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QByteArrayLiteral("+Inf") : QByteArrayLiteral("-Inf");
    return QByteArray::number(value, 'g', QLocale::FloatingPointShortest);
}

void PrometheusFormat::addHeader(const QString& name, const QString& help, const char* type)
{
    m_text += "# HELP " + name.toUtf8() + ' ' + escaped(help, false) + '\n';
    m_text += "# TYPE " + name.toUtf8() + ' ' + type + '\n';
}

void PrometheusFormat::addCounter(
    const QString& name, const QString& help, const QString& label, const QList<QPair<QString, qint64>>& samples)
{
    addHeader(name, help, "counter");
    for (const auto& [value, count] : samples)
        m_text += name.toUtf8() + '{' + label.toUtf8() + "=\"" + escaped(value, true) + "\"} "
            + QByteArray::number(count) + '\n';
}

void PrometheusFormat::addGauge(const QString& name, const QString& help, double value)
{
    addHeader(name, help, "gauge");
    m_text += name.toUtf8() + ' ' + number(value) + '\n';
}

void PrometheusFormat::addCounter(const QString& name, const QString& help, qint64 value)
{
    addHeader(name, help, "counter");
    m_text += name.toUtf8() + ' ' + QByteArray::number(value) + '\n';
}

void PrometheusFormat::addHistogram(const QString& name, const QString& help, const LatencyTally& tally)
{
    addHeader(name, help, "histogram");
    const QByteArray family = name.toUtf8();
    qint64 cumulative = 0;
    // The last bucket has no upper bound: it is +Inf's alone.
    for (int bucket = 0; bucket < LatencyHistogram::Buckets - 1; ++bucket) {
        cumulative += tally.buckets.value(bucket);
        m_text += family + "_bucket{le=\"" + number(double(LatencyHistogram::upperBoundMs(bucket)) / 1000.0) + "\"} "
            + QByteArray::number(cumulative) + '\n';
    }
    m_text += family + "_bucket{le=\"+Inf\"} " + QByteArray::number(tally.count) + '\n';
    m_text += family + "_sum " + number(double(tally.sumMs) / 1000.0) + '\n';
    m_text += family + "_count " + QByteArray::number(tally.count) + '\n';
}

void PrometheusFormat::addInfo(const QString& name, const QString& help, const QList<QPair<QString, QString>>& labels)
{
    addHeader(name, help, "gauge");
    QByteArrayList pairs;
    for (const auto& [label, value] : labels)
        pairs.append(label.toUtf8() + "=\"" + escaped(value, true) + '"');
    m_text += name.toUtf8() + '{' + pairs.join(',') + "} 1\n";
}
