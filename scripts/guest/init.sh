#!/bin/bash
# PID 1 of the test VM (see scripts/vm.sh): mount what a test needs, run
# /mnt/results/cmd.sh, record its exit status in /mnt/results/rc, power off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp TERM=dumb LANG=C.UTF-8

mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /dev/pts /dev/shm
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
mount -t devpts devpts /dev/pts
mount -t tmpfs tmp /dev/shm
# The repository and its build directory must stay visible even when they
# live under a directory that gets a tmpfs below (CI may clone into /tmp):
# hold them with bind mounts and put them back afterwards.
root=$(cd "$(dirname "$0")/../.." && pwd)
keep="$root ${streams_build:-$root/build}"
hold=/dev/shm/hold
i=0
for k in $keep; do
	mkdir -p $hold/$i && mount --bind "$k" $hold/$i
	i=$((i + 1))
done
for d in /tmp /run /mnt /var/tmp /var/lock; do
	mount -t tmpfs -o mode=1777 tmp "$d" 2>/dev/null
done
i=0
for k in $keep; do
	case $k in
	/tmp/*|/run/*|/mnt/*|/var/tmp/*|/var/lock/*)
		mkdir -p "$k" && mount --bind $hold/$i "$k" ;;
	esac
	i=$((i + 1))
done
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing
mount -t configfs configfs /sys/kernel/config
mount -t cgroup2 cgroup2 /sys/fs/cgroup
mkdir -p /mnt/results /mnt/scratch
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 results /mnt/results
# Tools that want writable state under /etc or /var get tmpfs copies.
mount -t tmpfs tmp /var/lib 2>/dev/null
mount -t tmpfs tmp /etc/mdadm 2>/dev/null
export MDADM_NO_UDEV=1 DM_DISABLE_UDEV=1

cd /mnt/results || exit 1
bash /mnt/results/cmd.sh < /dev/null 2>&1 | tee /mnt/results/output.log
echo "${PIPESTATUS[0]}" > /mnt/results/rc
sync
# Immediate reboot(2); QEMU runs with -no-reboot so it exits. If that fails,
# PID 1 exiting panics and panic=-1 reboots.
reboot -ff >/dev/null 2>&1
exit 0
