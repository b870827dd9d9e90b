// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operations/contenteditpreview.h"
#include "operations/jsonsyntax.h"

#include <QDialog>

class DatabaseClient;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTabWidget;
class QTextEdit;

// Edit and retry, for one failed, dead or discarded outbox row: its payload and headers in editors that say where
// the JSON is wrong while the operator types; then the difference as the database will store it (checked by the
// server, on the action worker: this dialog never waits for the database) and the reason for the audit log. The
// caller applies confirmed() under the row's guard on state and content.
class EditContentDialog final : public QDialog {
    Q_OBJECT
public:
    EditContentDialog(DatabaseClient& actions, const ContentEditPreview& row, QWidget* parent = nullptr);

    // After accept(): the edit as reviewed, and why.
    const ContentEditPreview& confirmed() const { return m_reviewed; }
    QString reason() const;

    QPlainTextEdit* payloadEditor() const { return m_payload; }
    QPlainTextEdit* headersEditor() const { return m_headers; }
    QPushButton* reviewButton() const { return m_review; }
    QPushButton* confirmButton() const { return m_confirm; }
    QLineEdit* reasonEdit() const { return m_reason; }
    // What is wrong with the edit now (empty when it can be reviewed).
    QString problem() const;
    // The difference on the review page, as plain text.
    QString differenceText() const;
    bool isReviewing() const;

signals:
    // The server's check of the edit came back (shown on the review page, or as the problem on the first).
    void reviewFinished();

private:
    void checkSyntax();
    void review();
    void showReview(const ContentEditPreview& preview);
    void showProblem(const QString& text);
    static QString differenceHtml(const ContentEditPreview& preview);
    static QString syntaxProblemText(const JsonSyntax::Problem& problem);

    DatabaseClient& m_actions;
    ContentEditPreview m_row;
    ContentEditPreview m_reviewed;
    QStackedWidget* m_pages;
    QTabWidget* m_editors;
    QPlainTextEdit* m_payload;
    QPlainTextEdit* m_headers;
    QLabel* m_problem;
    QPushButton* m_review;
    QTextEdit* m_difference;
    QLineEdit* m_reason;
    QPushButton* m_back;
    QPushButton* m_confirm;
    bool m_reviewRunning = false;
};
