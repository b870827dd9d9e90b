// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/timerangefilter.h"

#include "core/timeformatter.h"

#include <QCheckBox>
#include <QDateTimeEdit>
#include <QHBoxLayout>
#include <QLocale>
#include <tuple>

namespace {

QDateTimeEdit* instantEdit(QWidget* parent)
{
    auto* edit = new QDateTimeEdit(QDateTime::currentDateTime(), parent);
    edit->setCalendarPopup(true);
    edit->setDisplayFormat(TimeFormatter::pickerFormat(QLocale()));
    edit->setEnabled(false);
    return edit;
}

void setBound(QCheckBox* enabled, QDateTimeEdit* edit, const QDateTime& instant)
{
    const QSignalBlocker boxBlocker(enabled);
    const QSignalBlocker editBlocker(edit);
    enabled->setChecked(instant.isValid());
    edit->setEnabled(instant.isValid());
    if (instant.isValid())
        edit->setDateTime(instant);
}

} // namespace

TimeRangeFilter::TimeRangeFilter(const QString& fromText, QWidget* parent)
    : QWidget(parent)
    , m_fromEnabled(new QCheckBox(fromText, this))
    , m_from(instantEdit(this))
    , m_toEnabled(new QCheckBox(tr("to"), this))
    , m_to(instantEdit(this))
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_fromEnabled);
    layout->addWidget(m_from);
    layout->addWidget(m_toEnabled);
    layout->addWidget(m_to);

    // A bound ticked by the operator starts from the present, not from when the console was opened: "from" an hour
    // ago, "to" the next minute (so that what was created just now is in).
    for (auto [enabled, edit, fromNowSecs] :
        { std::tuple(m_fromEnabled, m_from, -3600), std::tuple(m_toEnabled, m_to, 60) }) {
        connect(enabled, &QCheckBox::toggled, this, [this, edit = edit, fromNowSecs = fromNowSecs](bool checked) {
            if (checked) {
                const QSignalBlocker blocker(edit);
                const QDateTime at = QDateTime::currentDateTime().addSecs(fromNowSecs);
                edit->setDateTime(at.addSecs(-at.time().second()).addMSecs(-at.time().msec()));
            }
            edit->setEnabled(checked);
            emit rangeChanged();
        });
        connect(edit, &QDateTimeEdit::dateTimeChanged, this, &TimeRangeFilter::rangeChanged);
    }
}

QDateTime TimeRangeFilter::from() const
{
    return m_fromEnabled->isChecked() ? m_from->dateTime() : QDateTime();
}

QDateTime TimeRangeFilter::to() const
{
    return m_toEnabled->isChecked() ? m_to->dateTime() : QDateTime();
}

void TimeRangeFilter::setRange(const QDateTime& from, const QDateTime& to)
{
    setBound(m_fromEnabled, m_from, from);
    setBound(m_toEnabled, m_to, to);
}
