#!/usr/bin/env bash
# Install (or update) the Abraca Who? table companion as a kiosk on Raspberry Pi OS (Bookworm or
# newer). Run it again at any time, e.g. to update: it replaces the app, keeps its virtual
# environment and never overwrites the table's configuration.
#
#   sudo scripts/install-kiosk.sh            install or update, enable at boot
#   sudo scripts/install-kiosk.sh --start    ... and (re)start the companion now
#   scripts/install-kiosk.sh --dry-run       print every step, change nothing
#   scripts/install-kiosk.sh --root DIR      install the files into DIR as if it were / (an image
#                                            being prepared, or a test): no apt, no user creation,
#                                            no venv, no systemctl; the service is enabled by link
#
# What it does: installs the apt packages (camera, GPIO, Python venv, a Hangul font, polkit),
# creates the unprivileged user "abraca", copies the app to /opt/abraca-companion, makes its
# virtual environment there (with the system's site packages, for picamera2 and lgpio), installs
# the app into it, puts an example configuration in /etc/abraca-companion/ (config.toml only if
# there is none), installs the systemd unit and enables it.
set -euo pipefail

INSTALL_DIR="${INSTALL_DIR:-/opt/abraca-companion}"
CONFIG_DIR=/etc/abraca-companion
UNIT=abraca-companion.service
SERVICE_USER=abraca
APT_PACKAGES=(python3-picamera2 python3-lgpio python3-venv python3-pip fonts-nanum polkitd git)

SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT=""
DRY_RUN=0
START=0
FORCE=0

usage() {
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'
    cat <<USAGE

Options:
  --dry-run        print every step and change nothing
  --root DIR       install into DIR instead of / (apt, users, venv and systemctl are skipped)
  --source SRC     the app to install: a directory or a git URL (default: $SOURCE)
  --start          (re)start the companion now (it takes over the screen on tty1)
  --force          install even on a system older than Debian 12 (Bookworm)
  -h, --help       this text
USAGE
}

die() { echo "install-kiosk: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --root) [ $# -ge 2 ] || die "--root needs a directory"; ROOT="$2"; shift ;;
        --root=*) ROOT="${1#--root=}" ;;
        --source) [ $# -ge 2 ] || die "--source needs a directory or git URL"; SOURCE="$2"; shift ;;
        --source=*) SOURCE="${1#--source=}" ;;
        --start) START=1 ;;
        --force) FORCE=1 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
    shift
done

if [ -n "$ROOT" ]; then
    [ "$DRY_RUN" = 1 ] || mkdir -p "$ROOT" || die "cannot create $ROOT"
    ROOT="$(cd "$ROOT" 2>/dev/null && pwd || echo "$ROOT")"
    [ "$ROOT" != "/" ] || ROOT=""
fi

# Every change goes through `run`, which prints it first; a dry run stops there.
step() { echo "==> $*"; }
skip() { echo "    skipped: $*"; }
run() {
    printf '+'; printf ' %q' "$@"; printf '\n'
    [ "$DRY_RUN" = 1 ] || "$@"
}

if [ "$DRY_RUN" = 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
    die "run it as root: sudo $0 $*  (or --dry-run to see the steps)"
fi

# ---------------------------------------------------------------------------------------------
step "Checking the system"
if [ -r "$ROOT/etc/os-release" ]; then
    # shellcheck disable=SC1091
    VERSION_ID="$(. "$ROOT/etc/os-release" && echo "${VERSION_ID:-0}")"
    if [ "${VERSION_ID%%.*}" -lt 12 ] 2>/dev/null && [ "$FORCE" = 0 ]; then
        die "this system is Debian/Raspberry Pi OS $VERSION_ID; Bookworm (12) or newer is needed (--force to try anyway)"
    fi
    echo "    OS version $VERSION_ID"
else
    echo "    no /etc/os-release under '${ROOT:-/}': not checked"
fi

TMP_SOURCE=""
cleanup() { [ -z "$TMP_SOURCE" ] || rm -rf "$TMP_SOURCE"; }
trap cleanup EXIT

# ---------------------------------------------------------------------------------------------
step "Installing system packages: ${APT_PACKAGES[*]}"
if [ -n "$ROOT" ]; then
    skip "apt-get under --root"
else
    run apt-get update
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"
fi

# ---------------------------------------------------------------------------------------------
case "$SOURCE" in
    *://*|git@*|*.git)
        step "Fetching the app from $SOURCE"
        if [ "$DRY_RUN" = 1 ]; then
            run git clone --depth 1 "$SOURCE" "<temporary directory>"
            SOURCE="<temporary directory>"
        else
            TMP_SOURCE="$(mktemp -d)"
            run git clone --depth 1 "$SOURCE" "$TMP_SOURCE/app"
            SOURCE="$TMP_SOURCE/app"
        fi
        ;;
esac
if [ "$DRY_RUN" = 0 ] || [ -d "$SOURCE" ]; then
    if [ ! -f "$SOURCE/pyproject.toml" ] || [ ! -d "$SOURCE/companion" ]; then
        die "$SOURCE does not hold the app (no pyproject.toml or companion/)"
    fi
fi

# ---------------------------------------------------------------------------------------------
step "Installing the unit's user and groups ($SERVICE_USER)"
run install -D -m 0644 "$SOURCE/systemd/abraca-companion.sysusers" \
    "$ROOT/usr/lib/sysusers.d/abraca-companion.conf"
if [ -n "$ROOT" ]; then
    skip "user creation under --root (systemd-sysusers creates it at the next boot)"
elif command -v systemd-sysusers >/dev/null; then
    run systemd-sysusers /usr/lib/sysusers.d/abraca-companion.conf
else
    for group in video render input gpio; do
        getent group "$group" >/dev/null || run groupadd --system "$group"
    done
    if ! id "$SERVICE_USER" >/dev/null 2>&1; then
        run useradd --system --home-dir /var/lib/abraca-companion --no-create-home \
            --shell /usr/sbin/nologin --user-group "$SERVICE_USER"
    fi
    run usermod --append --groups video,render,input,gpio "$SERVICE_USER"
fi

# ---------------------------------------------------------------------------------------------
step "Copying the app to $INSTALL_DIR"
run mkdir -p "$ROOT$INSTALL_DIR"
# Replace the previous copy, keeping its virtual environment.
run find "$ROOT$INSTALL_DIR" -mindepth 1 -maxdepth 1 ! -name .venv -exec rm -rf {} +
copy_app() {
    tar -C "$SOURCE" --exclude=.git --exclude=.venv --exclude=__pycache__ \
        --exclude='*.egg-info' --exclude=.pytest_cache --exclude=.ruff_cache \
        --exclude=.hypothesis --exclude=./build --exclude=./dist --exclude=./out -cf - . \
        | tar -C "$ROOT$INSTALL_DIR" --no-same-owner -xf -
}
printf '+ copy_app %q -> %q (without .git, .venv, caches, build output)\n' "$SOURCE" "$ROOT$INSTALL_DIR"
[ "$DRY_RUN" = 1 ] || copy_app
run chmod -R u=rwX,go=rX "$ROOT$INSTALL_DIR"

# ---------------------------------------------------------------------------------------------
VENV="$INSTALL_DIR/.venv"
step "Virtual environment in $VENV (with the system's site packages)"
if [ -n "$ROOT" ]; then
    skip "venv and pip under --root (run this script on the device itself)"
else
    if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import sys' 2>/dev/null; then
        echo "    exists"
    else
        [ ! -e "$VENV" ] || run rm -rf "$VENV"
        run python3 -m venv --system-site-packages "$VENV"
    fi
    # Editable: the app finds its assets (fonts, card art) beside the package, in $INSTALL_DIR.
    run "$VENV/bin/python" -m pip install --quiet -e "$INSTALL_DIR"
fi

# ---------------------------------------------------------------------------------------------
step "Configuration in $CONFIG_DIR"
run install -d -m 0755 "$ROOT$CONFIG_DIR"
run install -m 0644 "$SOURCE/assets/config.example.toml" "$ROOT$CONFIG_DIR/config.example.toml"
if [ -e "$ROOT$CONFIG_DIR/config.toml" ]; then
    echo "    keeping the existing $CONFIG_DIR/config.toml"
else
    run install -m 0644 "$SOURCE/assets/config.example.toml" "$ROOT$CONFIG_DIR/config.toml"
fi

# ---------------------------------------------------------------------------------------------
step "Safe shutdown from the operator menu (polkit rule)"
run install -D -m 0644 "$SOURCE/systemd/abraca-companion.polkit.rules" \
    "$ROOT/etc/polkit-1/rules.d/50-abraca-companion.rules"

# ---------------------------------------------------------------------------------------------
step "systemd unit $UNIT"
UNIT_PATH="/etc/systemd/system/$UNIT"
if [ "$INSTALL_DIR" = /opt/abraca-companion ]; then
    run install -D -m 0644 "$SOURCE/systemd/$UNIT" "$ROOT$UNIT_PATH"
else
    printf '+ sed s#/opt/abraca-companion#%q# %q > %q\n' "$INSTALL_DIR" "$SOURCE/systemd/$UNIT" "$ROOT$UNIT_PATH"
    if [ "$DRY_RUN" = 0 ]; then
        mkdir -p "$(dirname "$ROOT$UNIT_PATH")"
        sed "s#/opt/abraca-companion#$INSTALL_DIR#g" "$SOURCE/systemd/$UNIT" > "$ROOT$UNIT_PATH"
        chmod 0644 "$ROOT$UNIT_PATH"
    fi
fi
if [ -n "$ROOT" ]; then
    # What `systemctl enable` does, without a running systemd.
    run mkdir -p "$ROOT/etc/systemd/system/multi-user.target.wants"
    run ln -sfn "$UNIT_PATH" "$ROOT/etc/systemd/system/multi-user.target.wants/$UNIT"
else
    run systemctl daemon-reload
    run systemctl enable "$UNIT"
    if [ "$(systemctl is-enabled display-manager.service 2>/dev/null || true)" = enabled ]; then
        echo "    warning: a desktop starts at boot and holds the screen. Use Raspberry Pi OS Lite,"
        echo "    or boot to the console: sudo systemctl set-default multi-user.target"
    fi
    if [ "$START" = 1 ]; then
        run systemctl restart "$UNIT"
    fi
fi

step "Done"
if [ "$DRY_RUN" = 1 ]; then
    echo "    dry run: nothing was changed"
elif [ -n "$ROOT" ]; then
    echo "    installed into $ROOT"
elif [ "$START" = 1 ]; then
    echo "    the companion is running: journalctl -u abraca-companion -f"
else
    echo "    the companion starts at the next boot (or now: sudo systemctl start abraca-companion)"
fi
