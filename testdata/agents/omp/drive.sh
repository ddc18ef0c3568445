#!/usr/bin/env bash
# Regenerates the Oh My Pi fixtures: @oh-my-pi/pi-coding-agent (a Pi fork that runs on bun, installed
# from npm beside it) driven with ../pi/drive.sh's scenarios and script. Usage: drive.sh [out-dir]
DRV_CLI=omp DRV_CONF=.omp DRV_EXTRA_PACKAGES=bun DRV_SCRIPT=$(cd "$(dirname "$0")/../pi" && pwd)/script.json
. "$(dirname "$0")/../lib.sh"
drv_init omp @oh-my-pi/pi-coding-agent 18.2.3 "$@"
. "$DRV_DIR/pi/drive.sh"
