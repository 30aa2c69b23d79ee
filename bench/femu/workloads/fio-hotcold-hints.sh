#!/bin/bash
# Workload: fio-hotcold.sh with the application's own placement: each
# file's lifetime hint set by fio (F_SET_RW_HINT).
#   fio-hotcold-hints.sh DEV BYTES
HINTS=1 exec "$(dirname "$0")/fio-hotcold.sh" "$@"
