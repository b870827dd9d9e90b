// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/prometheusformat.h"

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
    return QByteArray::number(value, 'g', 17);
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
