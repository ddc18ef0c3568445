#!/usr/bin/env bash
# Regenerates the Kilo CLI fixtures: @kilocode/cli (an OpenCode fork) driven offline with
# ../opencode/drive.sh's scenarios and script. Usage: drive.sh [out-dir]
# 7.7.7: the linux-x64 binary package of 7.8.x was missing from the registry when this was written.
DRV_CLI=kilo DRV_SCRIPT=$(cd "$(dirname "$0")/../opencode" && pwd)/script.json
. "$(dirname "$0")/../lib.sh"
drv_init kilo @kilocode/cli 7.7.7 "$@"
. "$DRV_DIR/opencode/drive.sh"
