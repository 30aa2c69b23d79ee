#!/bin/bash
# Install what the project needs from Debian's archive (run as root), and
# fetch the base kernel's source: linux-source-7.3 at base.version, from
# trixie-backports through a private apt list (the system keeps bookworm's
# sources), unpacked with dpkg -x, never installed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PKGS=(
	build-essential bc bison flex libelf-dev libssl-dev ccache cpio kmod
	xz-utils rsync git python3 python3-ply python3-git
	mawk gawk	# make test runs the host tests under each (run-tests.sh)
	qemu-system-x86 fio nvme-cli sg3-utils
	e2fsprogs xfsprogs btrfs-progs f2fs-tools mdadm dmsetup util-linux fdisk
	gnuplot-nox	# the overhead plot of make bench (bench/overhead-plot.sh)
	# real applications captured by bench/traces.sh (bench/capture.sh)
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
have=$(cat "$SRC_CACHE/$SRC_PKG.version" 2>/dev/null || true)
[ ${#missing[@]} = 0 ] && [ "$have" = "$want" ] && [ -f "$SRC_TARBALL" ] && exit 0

[ "$(id -u)" = 0 ] || die "missing packages (${missing[*]} $SRC_PKG): run as root"
export DEBIAN_FRONTEND=noninteractive
if [ ${#missing[@]} != 0 ]; then
	apt-get update -q
	apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [ "$have" != "$want" ] || [ ! -f "$SRC_TARBALL" ]; then
	apt_dir=$SRC_CACHE/apt
	mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial"
	url=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
	url=${url:-http://deb.debian.org/debian}
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $url trixie-backports main" \
		> "$apt_dir/sources.list"
	opts=(-o "Dir::Etc::sourcelist=$apt_dir/sources.list" -o Dir::Etc::sourceparts=/dev/null
	      -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache::Archives=$apt_dir/archives"
	      -o APT::Sandbox::User=root)
	apt-get "${opts[@]}" update -q
	rm -f "$apt_dir"/*.deb
	if ! (cd "$apt_dir" && apt-get "${opts[@]}" download "$SRC_PKG=$want"); then
		echo "WARNING: $SRC_PKG $want is gone from the archive;" \
			"fetching the newest. The series may not apply." >&2
		(cd "$apt_dir" && apt-get "${opts[@]}" download "$SRC_PKG")
	fi
	deb=$(ls "$apt_dir"/"$SRC_PKG"_*.deb)
	rm -rf "$SRC_CACHE/$SRC_PKG"
	dpkg -x "$deb" "$SRC_CACHE/$SRC_PKG"
	dpkg-deb -f "$deb" Version > "$SRC_CACHE/$SRC_PKG.version"
	rm -f "$deb"
fi
[ -f "$SRC_TARBALL" ] || die "$SRC_TARBALL missing after unpacking $SRC_PKG"
