#!/bin/bash
# In the guest: export a block device through the NVMe target over the loop
# transport and connect to it, so that the host driver talks to nvmet.
#
#   nvmet-loop.sh up [BACKING_DEV] [NQN]   prints the new /dev/nvmeXnY
#   nvmet-loop.sh down [NQN]
# Extra namespace attributes can be set between creation and enable with
# $NVMET_NS_ATTRS, e.g. "streams=8" (attribute=value, space separated).
set -euo pipefail
cfg=/sys/kernel/config/nvmet
cmd=${1:-up}
dev=${2:-/dev/ram0}
nqn=${3:-testnqn}
[ "$cmd" = down ] && nqn=${2:-testnqn}
hostnqn=nqn.2014-08.org.nvmexpress:uuid:00000000-0000-0000-0000-000000000001

case $cmd in
up)
	[ -d $cfg ] || { echo "nvmet: $cfg missing (CONFIG_NVME_TARGET, configfs)" >&2; exit 1; }
	mkdir $cfg/subsystems/"$nqn"
	echo 1 > $cfg/subsystems/"$nqn"/attr_allow_any_host
	ns=$cfg/subsystems/"$nqn"/namespaces/1
	mkdir "$ns"
	echo -n "$dev" > "$ns"/device_path
	for kv in ${NVMET_NS_ATTRS:-}; do
		echo "${kv#*=}" > "$ns/${kv%%=*}"
	done
	echo 1 > "$ns"/enable
	mkdir -p $cfg/ports/1
	echo loop > $cfg/ports/1/addr_trtype
	ln -s $cfg/subsystems/"$nqn" $cfg/ports/1/subsystems/"$nqn"
	before=$(ls /sys/block | grep '^nvme' || true)
	nvme connect -t loop -n "$nqn" --hostnqn=$hostnqn >/dev/null
	for _ in $(seq 50); do
		new=$(comm -13 <(echo "$before") <(ls /sys/block | grep '^nvme' || true))
		[ -n "$new" ] && { echo "/dev/$new"; exit 0; }
		sleep 0.1
	done
	echo "nvmet: connected, but no namespace appeared" >&2
	exit 1
	;;
down)
	nvme disconnect -n "$nqn" >/dev/null || true
	rm -f $cfg/ports/1/subsystems/"$nqn"
	rmdir $cfg/ports/1 2>/dev/null || true
	echo 0 > $cfg/subsystems/"$nqn"/namespaces/1/enable
	rmdir $cfg/subsystems/"$nqn"/namespaces/1 $cfg/subsystems/"$nqn"
	;;
*)
	echo "usage: nvmet-loop.sh up [DEV] [NQN] | down [NQN]" >&2
	exit 2
	;;
esac
