#!/usr/bin/env bash
# Regenerates the fixtures of OpenCode's JSON storage/ layout (before 1.2): opencode-ai 1.1.65 driven
# with ../opencode/drive.sh's scenarios and script. Usage: drive.sh [out-dir]
unset AGENT_VERSION # the old layout: the drift check's "latest" does not apply
DRV_CLI=opencode DRV_OC_FLAGS= DRV_SCRIPT=$(cd "$(dirname "$0")/../opencode" && pwd)/script.json
. "$(dirname "$0")/../lib.sh"
drv_init opencode-legacy opencode-ai 1.1.65 "$@"
. "$DRV_DIR/opencode/drive.sh"
