#!/bin/bash
# Build qemu-system-x86_64 10.0.x from Debian 13 (trixie)'s source package,
# once per machine, into build/qemu: Debian 12 ships QEMU 7.2, which has no
# NVMe Flexible Data Placement (QEMU emulates FDP from 8.0, fixed in 9.0.2).
#
#   qemu.sh            build if missing; print the binary's path on stdout
#
# Idempotent: exits at once if build/qemu/qemu-system-x86_64 runs and
# offers FDP. Only the trixie *source* package and two pure-Python binary
# packages (meson, pycotap: QEMU 10 needs meson >= 1.5, bookworm has 1.0)
# come from trixie, through a private source list under build/qemu/apt;
# nothing is installed into the system (build dependencies: scripts/deps.sh).
# The +ds tarball strips the edk2 firmware that pc-bios/meson.build unpacks:
# empty bzip2 placeholders stand in (x86 boots SeaBIOS + -kernel). At run
# time the binary needs `-L /usr/share/qemu -L /usr/share/seabios` (the
# system's firmware) and `-nic none`: see QEMU_FDP_ARGS in test-qemu-fdp.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

QDIR=${QDIR:-$BUILD/qemu}
QBIN=$QDIR/qemu-system-x86_64
APT=$QDIR/apt
QEMU_MIN=9.0.2

# The binary works and is new enough to have the FDP fixes.
qemu_ok() {
	local v
	[ -x "$QBIN" ] || return 1
	v=$("$QBIN" -L /usr/share/qemu -L /usr/share/seabios --version 2>/dev/null |
		sed -n 's/^QEMU emulator version \([0-9.]*\).*/\1/p')
	[ -n "$v" ] || return 1
	[ "$(printf '%s\n%s\n' "$QEMU_MIN" "$v" | sort -V | head -n1)" = "$QEMU_MIN" ] || return 1
	"$QBIN" -device nvme-subsys,help 2>/dev/null | grep -q 'fdp='
}
if qemu_ok; then
	echo "$QBIN"
	exit 0
fi

start=$(date +%s)
mkdir -p "$QDIR" "$APT/lists/partial" "$APT/cache/archives/partial" "$QDIR/debs"

# A private apt configuration: trixie's sources and pure-Python debs,
# without touching the system's lists or cache.
url=$(sed -n 's/^URIs: *\(http[^ ]*\/debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)
url=${url:-http://deb.debian.org/debian}
key=/usr/share/keyrings/debian-archive-keyring.gpg
cat > "$APT/sources.list" <<EOF
deb [signed-by=$key] $url trixie main
deb-src [signed-by=$key] $url trixie main
EOF
aptq() {
	apt-get -q -o Dir::Etc::sourcelist="$APT/sources.list" \
		-o Dir::Etc::sourceparts=/dev/null \
		-o Dir::State::Lists="$APT/lists" \
		-o Dir::Cache="$APT/cache" \
		-o APT::Get::List-Cleanup=0 -o APT::Sandbox::User=root "$@"
}
if [ ! -f "$QDIR/.apt-updated" ]; then
	log "qemu: trixie package lists (private, $APT)"
	aptq update >/dev/null
	touch "$QDIR/.apt-updated"
fi

# Trixie's meson and pycotap: pure Python, unpacked, put on PYTHONPATH.
PYDIR=$QDIR/pydeps
if [ ! -f "$PYDIR/.done" ]; then
	log "qemu: trixie meson + pycotap (dpkg -x into $PYDIR)"
	rm -rf "$PYDIR"
	(cd "$QDIR/debs" && rm -f ./*.deb && aptq download meson python3-pycotap >/dev/null)
	for d in "$QDIR"/debs/*.deb; do dpkg -x "$d" "$PYDIR"; done
	touch "$PYDIR/.done"
fi
export PYTHONPATH=$PYDIR/usr/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}
export PATH=$PYDIR/usr/bin:$PATH
python3 -c 'import mesonbuild, pycotap' ||
	die "trixie's meson/pycotap do not import with $(python3 --version)"

# The source: the orig tarball of trixie's qemu (Debian's own patches are
# for its packaging; the upstream release is what we test against).
SRC=$QDIR/src
if [ ! -f "$SRC/.unpacked" ]; then
	log "qemu: trixie source package"
	mkdir -p "$QDIR/dl"
	if ! compgen -G "$QDIR/dl/qemu_*.orig.tar.*" >/dev/null; then
		(cd "$QDIR/dl" && aptq source --download-only qemu >/dev/null)
	fi
	orig=$(compgen -G "$QDIR/dl/qemu_*.orig.tar.*" | head -n1)
	[ -f "$orig" ] || die "no qemu orig tarball in $QDIR/dl"
	rm -rf "$SRC" && mkdir -p "$SRC"
	tar -xf "$orig" -C "$SRC" --strip-components=1
	# Placeholders for the firmware the +ds tarball strips.
	sed -n "s/^ *'\(edk2-[^']*\.fd\)',\{0,1\} *$/\1/p" "$SRC/pc-bios/meson.build" |
		while read -r fd; do
			[ -f "$SRC/pc-bios/$fd.bz2" ] || bzip2 -c </dev/null > "$SRC/pc-bios/$fd.bz2"
		done
	touch "$SRC/.unpacked"
fi
ver=$(cat "$SRC/VERSION")
case $ver in 10.0.*) ;; *) log "qemu: warning: trixie's QEMU is $ver, expected 10.0.x" ;; esac

# ccache: the compiler is found as cc on PATH at configure and at ninja time.
# Paths relative to build/qemu and the build directory left out of the hash
# (QEMU compiles with -g): a clone elsewhere (CI) hits the same entries.
use_ccache
export CCACHE_BASEDIR=$QDIR CCACHE_NOHASHDIR=1

OBJQ=$QDIR/obj
if [ ! -f "$OBJQ/build.ninja" ]; then
	log "qemu: configure $ver"
	rm -rf "$OBJQ" && mkdir -p "$OBJQ"
	(cd "$OBJQ" && "$SRC/configure" --target-list=x86_64-softmmu \
		--disable-docs --disable-gtk --disable-sdl --disable-vnc \
		--disable-opengl --disable-werror --disable-install-blobs \
		--disable-user --disable-guest-agent --disable-tools \
		--enable-virtfs --enable-fdt=system \
		> "$QDIR/configure.log" 2>&1) ||
		{ tail -n 30 "$QDIR/configure.log" >&2; die "qemu: configure failed (log: $QDIR/configure.log)"; }
fi
log "qemu: build (ninja, log: $QDIR/build.log)"
nice -n 10 ninja -C "$OBJQ" -j"$(nproc)" qemu-system-x86_64 > "$QDIR/build.log" 2>&1 ||
	{ tail -n 30 "$QDIR/build.log" >&2; die "qemu: build failed (log: $QDIR/build.log)"; }
install -m 755 "$OBJQ/qemu-system-x86_64" "$QBIN"
qemu_ok || die "qemu: $QBIN built but does not run or lacks FDP"
secs=$(( $(date +%s) - start ))
log "qemu: $("$QBIN" --version | head -n1) built in $((secs / 60)) min $((secs % 60)) s"
echo "$QBIN"
