// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"
#include "common/commandlinetext.h"
#include "common/programversion.h"

#include <QCoreApplication>

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("outboxctl"));
    QCoreApplication::setApplicationVersion(ProgramVersion::withSchema());
    return Cli().run(CommandLineText::arguments(argc, argv));
}
