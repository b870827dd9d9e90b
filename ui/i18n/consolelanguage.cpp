// SPDX-License-Identifier: GPL-3.0-or-later
#include "i18n/consolelanguage.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QSettings>
#include <QTranslator>
#include <memory>

static const QString SettingsKey = QStringLiteral("view/language");
static const QString TranslationsDir = QStringLiteral(":/i18n");

QList<ConsoleLanguage::Choice> ConsoleLanguage::available()
{
    return { { QStringLiteral("en"), QStringLiteral("English") }, { QStringLiteral("ko"), QStringLiteral("한국어") } };
}

QString ConsoleLanguage::chosen(const QSettings& settings)
{
    QString code = settings.value(SettingsKey).toString();
    for (const Choice& choice : available()) {
        if (choice.code == code)
            return code;
    }
    return {}; // unset, or edited into something the console does not speak
}

void ConsoleLanguage::choose(QSettings& settings, const QString& code)
{
    if (code.isEmpty())
        settings.remove(SettingsKey);
    else
        settings.setValue(SettingsKey, code);
}

QLocale ConsoleLanguage::localeFor(const QString& code)
{
    const QLocale system = QLocale::system();
    if (code.isEmpty())
        return system;
    const QLocale language(code);
    return system.language() == language.language() ? system : language;
}

// Replaces the translator this slot holds with one for `baseName` in `locale` from `directory`; false if there is
// none (the source texts, English, stay).
static bool install(
    std::unique_ptr<QTranslator>& slot, const QLocale& locale, const QString& baseName, const QString& directory)
{
    if (slot)
        QCoreApplication::removeTranslator(slot.get());
    slot = std::make_unique<QTranslator>();
    if (!slot->load(locale, baseName, QStringLiteral("_"), directory)) {
        slot.reset();
        return false;
    }
    QCoreApplication::installTranslator(slot.get());
    return true;
}

QString ConsoleLanguage::apply(const QString& code)
{
    // Installed for the life of the program: QCoreApplication keeps only pointers.
    static std::unique_ptr<QTranslator> console;
    static std::unique_ptr<QTranslator> qt;
    const QLocale locale = localeFor(code);
    QLocale::setDefault(locale);
    // QTranslator::load(QLocale, …) walks the locale's UI languages (LANGUAGE=ko:en, say) and takes the first found.
    const bool translated = install(console, locale, QStringLiteral("outbox-console"), TranslationsDir);
    install(qt, locale, QStringLiteral("qtbase"), QLibraryInfo::path(QLibraryInfo::TranslationsPath));
    if (!translated)
        return QStringLiteral("en");
    return QLocale(console->language()).name().section(QLatin1Char('_'), 0, 0);
}
