#!/bin/bash
# Install what the project needs from Debian's archive (run as root).
# Pins linux-source-6.12 to base.version; if the archive no longer has that
# version, installs the newest 6.12 with a loud warning.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PKGS=(
	build-essential bc bison flex libelf-dev libssl-dev ccache cpio kmod
	xz-utils rsync git python3 python3-ply python3-git
	qemu-system-x86 fio nvme-cli sg3-utils
	e2fsprogs xfsprogs btrfs-progs f2fs-tools mdadm dmsetup util-linux fdisk
	gnuplot-nox	# the benchmark report's plots (make bench)
	# real applications captured by make bench (bench/capture.sh)
	dbench rocksdb-tools postgresql-15
	dwarves		# pahole: make check compares struct layouts
	# scripts/qemu.sh: QEMU 10 (FDP) built from trixie's source package
	dpkg-dev ninja-build pkg-config bzip2 python3-venv
	libglib2.0-dev libpixman-1-dev libfdt-dev zlib1g-dev
	libattr1-dev	# virtio-9p (the guest's root) needs xattr support
)
want=$(cat "$ROOT/base.version")

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
have=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || true)
[ ${#missing[@]} = 0 ] && [ "$have" = "$want" ] && exit 0

[ "$(id -u)" = 0 ] || die "missing packages (${missing[*]} linux-source-6.12): run as root"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
if [ "$have" != "$want" ]; then
	if ! apt-get install -y -q --allow-downgrades "linux-source-6.12=$want"; then
		echo "WARNING: linux-source-6.12 $want is gone from the archive;" \
			"installing the newest 6.12.y. The series may not apply." >&2
		apt-get install -y -q linux-source-6.12
	fi
fi
[ ${#missing[@]} = 0 ] || apt-get install -y -q --no-install-recommends "${missing[@]}"
