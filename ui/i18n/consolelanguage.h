// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QLocale>
#include <QString>

class QSettings;

// The language the console speaks: the system's (its UI languages, as the desktop sets LANGUAGE and LANG), or the
// one chosen in View → Language, kept in the settings. apply() installs the console's translation (compiled into
// the executable under :/i18n) and Qt's own (qtbase_*, so standard dialogs and buttons match), and makes the
// language's locale the default, so that times, numbers and sizes follow it. It runs once at start: a new choice
// applies from the next start, as the menu says.
class ConsoleLanguage final {
public:
    struct Choice {
        QString code; // "en", "ko"
        QString name; // in the language itself, as language menus show them
    };
    // The languages the console has a translation for.
    static QList<Choice> available();

    // The chosen language's code; empty: follow the system.
    static QString chosen(const QSettings& settings);
    static void choose(QSettings& settings, const QString& code);

    // Installs the translators for `code` (empty: the system's languages) and sets the default locale. Returns the
    // code of the language now in effect ("en" when the system asks for one the console does not have).
    static QString apply(const QString& code);

    // The locale a language code stands for: the system's own when it speaks that language (so an English speaker in
    // Britain keeps British dates), else the language's main one.
    static QLocale localeFor(const QString& code);
};
