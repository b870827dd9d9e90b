# SPDX-License-Identifier: GPL-3.0-or-later
# Sanitizer and fuzzer builds (issue 24). Both are whole-tree settings: a sanitizer that misses a library misses the
# bugs in it, and libFuzzer only steers by the coverage of code compiled for it.
#
#   -DOUTBOX_SANITIZE=address,undefined   every target compiled and linked with these sanitizers
#   -DOUTBOX_BUILD_FUZZERS=ON             tests/fuzz, one libFuzzer executable per target (clang only)
set(OUTBOX_SANITIZE "" CACHE STRING "Sanitizers for every target, as -fsanitize takes them (e.g. address,undefined)")
option(OUTBOX_BUILD_FUZZERS "Build the libFuzzer targets in tests/fuzz (clang only)" OFF)

if(OUTBOX_SANITIZE)
    add_compile_options(-fsanitize=${OUTBOX_SANITIZE} -fno-omit-frame-pointer)
    add_link_options(-fsanitize=${OUTBOX_SANITIZE})
    if(OUTBOX_SANITIZE MATCHES "(^|,)undefined(,|$)")
        # UBSan only prints and carries on by default; a finding has to fail the test that ran into it.
        add_compile_options(-fno-sanitize-recover=undefined)
    endif()
endif()

if(OUTBOX_BUILD_FUZZERS)
    if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
        message(FATAL_ERROR "OUTBOX_BUILD_FUZZERS needs clang (libFuzzer): CXX=clang++-14 cmake ...")
    endif()
    # Coverage instrumentation for the libraries the fuzz targets link. Everything gets it rather than a chosen
    # list: a library a target starts to use is then never silently blind, and linking with the flag gives the
    # other executables the runtime's stubs for the coverage callbacks.
    add_compile_options(-fsanitize=fuzzer-no-link)
    add_link_options(-fsanitize=fuzzer-no-link)
endif()
