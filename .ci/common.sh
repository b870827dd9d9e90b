# SPDX-License-Identifier: GPL-3.0-or-later
# Shared by .ci/test and .ci/demo: install what is missing, then configure and build into build/.
# Sourced, not run.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build}
PACKAGES=(
    cmake ninja-build g++ ccache pkg-config
    qt6-base-dev libqt6sql6-psql qt6-charts-dev qt6-httpserver-dev qt6-websockets-dev libqt6opengl6-dev libxkbcommon-dev
    postgresql postgresql-common libpq-dev librabbitmq-dev libnats-dev
    qt6-tools-dev qt6-l10n-tools qtkeychain-qt6-dev librsvg2-bin
)

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# Installs PACKAGES plus any packages given as arguments.
install_packages() {
    local missing=()
    for pkg in "${PACKAGES[@]}" "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "== installing: ${missing[*]}"
        as_root apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
}

# Paths below the source tree count relative to the build directory and the build directory itself does not
# count, so a build in a fresh clone (CI's) reuses the objects of an earlier one.
export CCACHE_BASEDIR="$ROOT" CCACHE_NOHASHDIR=true

# Configures and builds everything into BUILD_DIR, or with arguments, into the directory $1 with the CMake
# options that follow.
build() {
    local dir=${1:-$BUILD_DIR}
    [ $# -gt 0 ] && shift
    echo "== building into $dir $*"
    cmake -S "$ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
    cmake --build "$dir" -j2
}
