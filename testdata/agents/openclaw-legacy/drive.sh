#!/usr/bin/env bash
# Regenerates the OpenClaw fixtures of the JSONL era: openclaw 2026.7.1, the last release that keeps each
# transcript as agents/<id>/sessions/<sessionId>.jsonl (with sessions.json) instead of in the agent's SQLite
# database, driven as ../openclaw/drive.sh does. It stays at 2026.7.1 whatever AGENT_VERSION says.
. "$(dirname "$0")/../lib.sh"
OC_LEGACY=1 AGENT_VERSION=2026.7.1
drv_init openclaw-legacy openclaw 2026.7.1 "$@"
. "$DRV_DIR/openclaw/drive.sh"
