#!/bin/bash
# Build FEMU (github.com/MoatLab/FEMU: QEMU 10.1 with an NVMe FDP SSD that
# has its own FTL and garbage collection) offline, into build/femu.
#
#   FEMU_SRC=DIR bench/femu/build.sh     print the binary's path on stdout
#
# FEMU_SRC: a checkout of FEMU or a bare git mirror of it (HEAD is built).
# Not needed once build/femu/qemu-system-x86_64 exists and the patches
# below are applied: the script is idempotent and exits at once then.
#
# - The source is FEMU's tree less roms/ (a git mirror misses one of its
#   blobs; pc-bios/ has every firmware x86 needs), then bench/femu/*.patch
#   in name order: fixes of what FEMU's device model *reports*, never of
#   its FTL or GC (each patch says which spec clause it follows).
# - Offline: the wrap subprojects x86_64-softmmu needs and a git archive
#   lacks (keycodemapdb, berkeley-softfloat-3, berkeley-testfloat-3) come
#   from trixie's qemu_10.0.x orig tarball (same wrap revisions), the one
#   scripts/qemu.sh downloads into build/qemu/dl (fetched the same way
#   here if missing); meson from FEMU's own python/wheels.
# - Debian build dependencies are installed with apt-get (as root) if
#   missing.
# - A patch change re-applies the patches on a fresh copy and copies only
#   the files that differ, so ninja rebuilds only those.
#
# Run the binary with `-L $BUILD/femu/src/pc-bios -L /usr/share/seabios
# -L /usr/share/qemu -nic none` (bench/femu/run.sh does).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../../scripts/lib.sh"
# shellcheck source=bench/femu/lib.sh
. "$ROOT/bench/femu/lib.sh"

FDIR=${FDIR:-$BUILD/femu}
FBIN=$FDIR/qemu-system-x86_64
SRC=$FDIR/src
OBJF=$FDIR/obj
PATCH_DIR=$ROOT/bench/femu
QDL=$BUILD/qemu/dl

patches() { compgen -G "$PATCH_DIR/*.patch" | sort || true; }
patch_sum() { { echo v1; patches | while read -r p; do cat "$p"; done; } | sha256sum | cut -c1-16; }
want=$(patch_sum)

femu_ok() {
	[ -x "$FBIN" ] && [ "$(cat "$FDIR/.patches" 2>/dev/null)" = "$want" ] &&
		"$FBIN" -L "$SRC/pc-bios" -device femu,help 2>/dev/null | grep -q 'femu_mode'
}
if femu_ok; then
	echo "$FBIN"
	exit 0
fi
start=$(date +%s)
mkdir -p "$FDIR"

# Debian packages the build needs.
femu_need_pkgs build-essential libglib2.0-dev libpixman-1-dev python3-venv \
	libfdt-dev zlib1g-dev ninja-build flex bison pkg-config xz-utils rsync

# Trixie's qemu orig tarball, for the three wrap subprojects.
orig=$(compgen -G "$QDL/qemu_10.0.*.orig.tar.*" | head -n1 || true)
if [ -z "$orig" ]; then
	log "femu: trixie's qemu source package (private apt list under $BUILD/qemu)"
	APT=$BUILD/qemu/apt
	mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial" "$QDL"
	url=$(sed -n 's/^URIs: *\(http[^ ]*\/debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)
	url=${url:-http://deb.debian.org/debian}
	key=/usr/share/keyrings/debian-archive-keyring.gpg
	printf 'deb-src [signed-by=%s] %s trixie main\n' "$key" "$url" > "$APT/sources.list"
	aptq() {
		apt-get -q -o Dir::Etc::sourcelist="$APT/sources.list" \
			-o Dir::Etc::sourceparts=/dev/null -o Dir::State::Lists="$APT/lists" \
			-o Dir::Cache="$APT/cache" -o APT::Get::List-Cleanup=0 \
			-o APT::Sandbox::User=root "$@"
	}
	aptq update >/dev/null
	(cd "$QDL" && aptq source --download-only qemu >/dev/null)
	orig=$(compgen -G "$QDL/qemu_10.0.*.orig.tar.*" | head -n1 || true)
	[ -n "$orig" ] || die "femu: no qemu_10.0.*.orig.tar.* in $QDL"
fi

# The source tree: FEMU less roms/, plus the wraps, plus our patches.
new=$FDIR/src.new
rm -rf "$new" && mkdir -p "$new"
if [ -z "${FEMU_SRC:-}" ]; then
	[ -f "$SRC/VERSION" ] || die "femu: set FEMU_SRC to a FEMU checkout or git mirror (e.g. git clone https://github.com/MoatLab/FEMU)"
	[ -f "$FDIR/src.pristine.tar" ] || die "femu: no pristine copy in $FDIR: set FEMU_SRC"
	tar -xf "$FDIR/src.pristine.tar" -C "$new"
else
	if git --git-dir="$FEMU_SRC" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		gd=$FEMU_SRC			# bare mirror
	elif git -C "$FEMU_SRC" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		gd=$(git -C "$FEMU_SRC" rev-parse --absolute-git-dir)
	else
		die "femu: FEMU_SRC=$FEMU_SRC is no git checkout or mirror"
	fi
	log "femu: FEMU $(git --git-dir="$gd" log -1 --format='%h %cs %s' HEAD)"
	# A mirror that misses a blob under roms/ makes git name it even
	# though roms/ is excluded (and exit 0): that one message is noise.
	git --git-dir="$gd" archive --format=tar HEAD -- . ':(exclude)roms' \
		> "$FDIR/src.pristine.tar" 2> >(grep -v "^error: invalid object .* for 'roms/" >&2)
	git --git-dir="$gd" rev-parse HEAD > "$FDIR/femu.commit"
	tar -xf "$FDIR/src.pristine.tar" -C "$new"
fi
tar -xf "$orig" -C "$new" --strip-components=1 --wildcards \
	'*/subprojects/keycodemapdb' '*/subprojects/berkeley-softfloat-3' \
	'*/subprojects/berkeley-testfloat-3'
while read -r p; do
	[ -n "$p" ] || continue
	log "femu: applying ${p##*/}"
	patch -d "$new" -p1 -s --no-backup-if-mismatch < "$p" || die "femu: ${p##*/} does not apply"
done < <(patches)
# Only files whose content changed get a new mtime: ninja rebuilds those.
mkdir -p "$SRC"
rsync -rlc --delete "$new/" "$SRC/"
rm -rf "$new"

if [ ! -f "$OBJF/build.ninja" ]; then
	log "femu: configure (log $FDIR/configure.log)"
	rm -rf "$OBJF" && mkdir -p "$OBJF"
	(cd "$OBJF" && nice -n 19 "$SRC/configure" --target-list=x86_64-softmmu \
		--python=/usr/bin/python3 --disable-download --disable-docs \
		--disable-gtk --disable-sdl --disable-vnc --disable-opengl \
		--disable-tools --disable-guest-agent --disable-werror \
		--enable-virtfs --enable-fdt=system > "$FDIR/configure.log" 2>&1) ||
		{ tail -n 30 "$FDIR/configure.log" >&2; die "femu: configure failed (log $FDIR/configure.log)"; }
fi
log "femu: build (ninja under nice -n 19, log $FDIR/build.log)"
nice -n 19 ninja -C "$OBJF" -j"${FEMU_JOBS:-$(nproc)}" qemu-system-x86_64 > "$FDIR/build.log" 2>&1 ||
	{ tail -n 30 "$FDIR/build.log" >&2; die "femu: build failed (log $FDIR/build.log)"; }
install -m 755 "$OBJF/qemu-system-x86_64" "$FBIN"
echo "$want" > "$FDIR/.patches"
femu_ok || die "femu: $FBIN built but does not run or has no femu device"
secs=$(( $(date +%s) - start ))
log "femu: $("$FBIN" -L "$SRC/pc-bios" --version | head -n1) built in $((secs / 60)) min $((secs % 60)) s"
echo "$FBIN"
