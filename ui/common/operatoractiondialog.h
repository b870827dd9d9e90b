// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QDialog>

class QDateTimeEdit;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QRadioButton;

// "Are you sure?" for an operator action on a frozen set of outbox rows: says how many rows and which ids
// will be affected, and asks for the reason that goes into the audit log. The action later applies to
// exactly these ids, each under its state guard.
class OperatorActionDialog final : public QDialog {
    Q_OBJECT
public:
    // What the ids are.
    enum class Subject { OutboxRows, Relays };

    // `verb` e.g. "Requeue", `guard` says which rows of the set will actually change.
    OperatorActionDialog(const QString& verb, const QList<qint64>& ids, const QString& guard, QWidget* parent = nullptr,
        Subject subject = Subject::OutboxRows);

    QString reason() const;

    // Offers "now" or "later, at …" (a retry later); without it the action applies now.
    void offerLater();
    // The time the rows become due if "later" was chosen, invalid for now.
    QDateTime dueAt() const;
    QRadioButton* laterButton() const { return m_later; }
    QDateTimeEdit* dueAtEdit() const { return m_dueAt; }

    // A line above the ids about what the operator should know before confirming (e.g. when the rows last failed);
    // `warning` marks it as a reason to think again. Empty hides it.
    void setNotice(const QString& text, bool warning);
    QString notice() const;
    bool noticeIsWarning() const { return m_noticeIsWarning; }

private:
    QLabel* m_notice;
    bool m_noticeIsWarning = false;
    QLineEdit* m_reason;
    QWidget* m_when;
    QRadioButton* m_later;
    QDateTimeEdit* m_dueAt;
    QDialogButtonBox* m_buttons;
};
