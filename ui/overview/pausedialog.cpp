// SPDX-License-Identifier: GPL-3.0-or-later
#include "overview/pausedialog.h"

#include "overview/pausesmodel.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

PauseDialog::PauseDialog(const QString& relayName, QWidget* parent)
    : QDialog(parent)
    , m_relay(new QRadioButton(tr("&Relay named"), this))
    , m_eventType(new QRadioButton(tr("&Event type"), this))
    , m_target(new QLineEdit(relayName, this))
    , m_reason(new QLineEdit(this))
{
    setWindowTitle(tr("Pause publishing"));
    m_relay->setChecked(true);
    build(tr("A paused relay claims nothing from its next claim on (every relay running under that name). The rows "
             "of a paused event type are claimed by no relay; those in flight are still published. Both count in the "
             "backlog until resumed."),
        true);
}

PauseDialog::PauseDialog(const PublishPause& pause, QWidget* parent)
    : QDialog(parent)
    , m_relay(new QRadioButton(this))
    , m_eventType(new QRadioButton(this))
    , m_target(new QLineEdit(pause.target, this))
    , m_reason(new QLineEdit(this))
{
    setWindowTitle(tr("Resume %1").arg(PausesModel::describe(pause)));
    (pause.scope == PauseScope::Relay ? m_relay : m_eventType)->setChecked(true);
    build(pause.scope == PauseScope::Relay
            ? tr("Resume %1, paused by %2: it claims again at its next poll.")
                  .arg(PausesModel::describe(pause), pause.pausedBy)
            : tr("Resume %1, paused by %2: its held rows are let go, oldest due first, and published as usual.")
                  .arg(PausesModel::describe(pause), pause.pausedBy),
        false);
}

void PauseDialog::build(const QString& summary, bool choosesTarget)
{
    auto* layout = new QVBoxLayout(this);
    auto* text = new QLabel(summary, this);
    text->setWordWrap(true);
    layout->addWidget(text);
    auto* form = new QFormLayout;
    auto* what = new QHBoxLayout;
    what->addWidget(m_relay);
    what->addWidget(m_eventType);
    what->addStretch(1);
    m_target->setObjectName(QStringLiteral("target"));
    if (choosesTarget) {
        form->addRow(tr("What:"), what);
        form->addRow(tr("&Name:"), m_target);
    } else {
        m_relay->hide();
        m_eventType->hide();
        m_target->hide();
    }
    m_reason->setObjectName(QStringLiteral("reason"));
    m_reason->setPlaceholderText(tr("e.g. consumer of order events down for maintenance"));
    form->addRow(tr("Rea&son (recorded in the audit log):"), m_reason);
    layout->addLayout(form);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(choosesTarget ? tr("Pause") : tr("Resume"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_target, &QLineEdit::textChanged, this, &PauseDialog::updateOk);
    connect(m_reason, &QLineEdit::textChanged, this, &PauseDialog::updateOk);
    layout->addWidget(buttons);
    updateOk();
    (choosesTarget && m_target->text().isEmpty() ? m_target : m_reason)->setFocus();
    resize(520, sizeHint().height());
}

void PauseDialog::updateOk()
{
    m_ok->setEnabled(!m_target->text().trimmed().isEmpty() && !m_reason->text().trimmed().isEmpty());
}

PauseScope PauseDialog::scope() const
{
    return m_relay->isChecked() ? PauseScope::Relay : PauseScope::EventType;
}

QString PauseDialog::target() const
{
    return m_target->text().trimmed();
}

QString PauseDialog::reason() const
{
    return m_reason->text().trimmed();
}
