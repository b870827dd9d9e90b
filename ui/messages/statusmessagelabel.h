// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLabel>

class QTimer;

// The status bar's message: one line, cut with "…" to the space the permanent labels leave it, the whole text in its
// tooltip, gone after a while (the Messages panel keeps it). A click opens the panel. QStatusBar::showMessage
// instead paints under the permanent widgets and cuts the text mid-word.
class StatusMessageLabel final : public QLabel {
    Q_OBJECT
public:
    static constexpr int ShownMs = 30'000;

    explicit StatusMessageLabel(QWidget* parent = nullptr);

    void showMessage(const QString& text);
    const QString& fullText() const { return m_fullText; }

    QSize minimumSizeHint() const final override;
    QSize sizeHint() const final override;

signals:
    void clicked();

protected:
    void resizeEvent(QResizeEvent* event) final override;
    void mousePressEvent(QMouseEvent* event) final override;

private:
    void elide();

    QString m_fullText;
    QTimer* m_clear;
};
