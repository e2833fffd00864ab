#!/usr/bin/env bash
# Installs pegboard on Raspberry Pi OS (64-bit, Bookworm or later) from a
# copy of this repository:  sudo hardware/install.sh
#
# Builds pegboard with Raspberry Pi support (the `rpi` feature) and installs:
#   /usr/local/bin/pegboard               the program
#   /usr/local/share/pegboard/sounds      the recorded words and earcons
#   /etc/pegboard/pegboard.toml           the configuration (kept if present)
#   /etc/systemd/system/pegboard.service  the service (not started: see the end)
#   /etc/udev/rules.d/99-pegboard-scanner.rules
# and a system user `pegboard` in the gpio, i2c, dialout and audio groups.
# Safe to run again, e.g. after `git pull`, to update.
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run it as root: sudo $0" >&2
    exit 1
fi
here="$(cd "$(dirname "$0")/.." && pwd)"
builder="${SUDO_USER:-root}"

echo "== packages"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    build-essential pkg-config curl ca-certificates git \
    libspeechd-dev libclang-dev clang libasound2-dev liblouis-dev libbrlapi-dev \
    speech-dispatcher speech-dispatcher-espeak-ng espeak-ng \
    stockfish gnuchess-book pgn-extract

echo "== Rust (for $builder)"
if ! sudo -u "$builder" -H bash -lc 'command -v cargo' >/dev/null 2>&1; then
    sudo -u "$builder" -H bash -c \
        "curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal --default-toolchain 1.95"
fi

echo "== building pegboard (release, with Raspberry Pi support)"
sudo -u "$builder" -H bash -lc "cd '$here' && cargo build --locked --release --features rpi"

echo "== installing"
install -m 0755 "$here/target/release/pegboard" /usr/local/bin/pegboard
mkdir -p /usr/local/share/pegboard
rm -rf /usr/local/share/pegboard/sounds
cp -r "$here/sounds" /usr/local/share/pegboard/sounds
mkdir -p /etc/pegboard
if [ ! -f /etc/pegboard/pegboard.toml ]; then
    # The GPIO matrix setup; for the expanders or a serial scanner, copy
    # config/expanders.toml or config/serial-laptop.toml there instead.
    # 0640: it may hold the console's PIN; pegboard's group reads it.
    install -m 0640 "$here/config/gpio-matrix.toml" /etc/pegboard/pegboard.toml
    echo "   wrote /etc/pegboard/pegboard.toml (the GPIO matrix setup, config/gpio-matrix.toml)"
else
    echo "   kept /etc/pegboard/pegboard.toml"
    if [ -n "$(find /etc/pegboard/pegboard.toml -perm /o=rwx)" ]; then
        chmod o-rwx /etc/pegboard/pegboard.toml
        echo "   made /etc/pegboard/pegboard.toml unreadable to others (it may hold the console's PIN)"
    fi
fi
/usr/local/bin/pegboard check-config /etc/pegboard/pegboard.toml

echo "== user pegboard"
for g in gpio i2c dialout audio; do
    getent group "$g" >/dev/null || groupadd --system "$g"
done
if ! id pegboard >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/pegboard --create-home --shell /usr/sbin/nologin pegboard
fi
usermod -a -G gpio,i2c,dialout,audio pegboard
# The configuration is the user's to change (calibrate writes [board]).
chown -R pegboard:pegboard /etc/pegboard
chmod 0750 /etc/pegboard
# Start the user's sound server and speech-dispatcher at boot, without a login.
loginctl enable-linger pegboard || true

echo "== service and udev rule"
install -m 0644 "$here/hardware/pegboard.service" /etc/systemd/system/pegboard.service
install -m 0644 "$here/hardware/99-pegboard-scanner.rules" /etc/udev/rules.d/99-pegboard-scanner.rules
udevadm control --reload || true
udevadm trigger --subsystem-match=tty || true
systemctl daemon-reload

cat <<'DONE'

pegboard is installed. Next:
  1. Check every square and button:  sudo -u pegboard pegboard hw-test --config /etc/pegboard/pegboard.toml
  2. Find the board's orientation:   sudo -u pegboard pegboard calibrate --config /etc/pegboard/pegboard.toml
  3. Play at every boot:             sudo systemctl enable --now pegboard
DONE
