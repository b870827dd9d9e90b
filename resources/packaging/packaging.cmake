# SPDX-License-Identifier: GPL-3.0-or-later
# Debian packages, one per install component: `cpack -G DEB` in the build directory writes
# outbox-console_VERSION_ARCH.deb (the console) and outbox-tools_VERSION_ARCH.deb (outboxctl, orders-service, the
# relay's systemd unit, the manual pages). Shared-library dependencies come from dpkg-shlibdeps; what the programs
# load at run time (Qt's PostgreSQL driver and platform plugins, Qt's own translations) is named below, since no
# linker sees it.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME outbox)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "The Outbox Console developers")
set(CPACK_PACKAGE_CONTACT "The Outbox Console developers <outbox-console@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_SECTION misc)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME outbox-tools)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION database)
set(CPACK_COMPONENT_TOOLS_DESCRIPTION
    "Idempotency keys and a transactional outbox on PostgreSQL: command-line tools\n"
    " outboxctl applies the schema, runs the outbox relay (RabbitMQ with publisher confirms) and a consumer, and\n"
    " finds, explains and requeues outbox rows and idempotency keys. orders-service is the reference HTTP service.\n"
    " The relay runs as a systemd service: outbox-relay@INSTANCE.service.")
set(CPACK_DEBIAN_TOOLS_PACKAGE_DEPENDS "libqt6sql6-psql")
set(CPACK_DEBIAN_TOOLS_PACKAGE_SUGGESTS "postgresql, rabbitmq-server")
# dpkg runs maintainer scripts only by the names postinst and postrm, and CPack copies them by their file names.
foreach(script postinst postrm)
    configure_file(${CMAKE_CURRENT_LIST_DIR}/outbox-tools.${script} ${CMAKE_BINARY_DIR}/packaging/outbox-tools/${script}
        COPYONLY)
    list(APPEND CPACK_DEBIAN_TOOLS_PACKAGE_CONTROL_EXTRA ${CMAKE_BINARY_DIR}/packaging/outbox-tools/${script})
endforeach()
set(CPACK_DEBIAN_TOOLS_PACKAGE_CONTROL_STRICT_PERMISSION ON)

set(CPACK_DEBIAN_CONSOLE_PACKAGE_NAME outbox-console)
set(CPACK_DEBIAN_CONSOLE_PACKAGE_SECTION database)
set(CPACK_COMPONENT_CONSOLE_DESCRIPTION
    "Operations console for idempotency keys and a transactional outbox on PostgreSQL\n"
    " Finds stuck and dead outbox rows and says why each waits, retries them with a reason kept in the audit log,\n"
    " looks up idempotency keys and their stored responses, and charts and exports the outbox's metrics.\n"
    " In English and Korean; remembers passwords in the desktop's keychain (Secret Service).")
set(CPACK_DEBIAN_CONSOLE_PACKAGE_DEPENDS "libqt6sql6-psql, qt6-qpa-plugins, qt6-translations-l10n")
# The demo (outbox-console --demo) runs outboxctl and orders-service and starts a private PostgreSQL and RabbitMQ.
set(CPACK_DEBIAN_CONSOLE_PACKAGE_RECOMMENDS "outbox-tools (= ${PROJECT_VERSION}), gnome-keyring")
set(CPACK_DEBIAN_CONSOLE_PACKAGE_SUGGESTS "postgresql, rabbitmq-server, fonts-noto-cjk")

set(CPACK_COMPONENTS_ALL tools)
if(OUTBOX_BUILD_CONSOLE)
    list(APPEND CPACK_COMPONENTS_ALL console)
endif()
include(CPack)
