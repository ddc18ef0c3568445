#!/usr/bin/env bash
# netns.sh SCRIPT LOG CMD...: runs CMD with fakemodel.py (scripted by SCRIPT, appending requests to LOG)
# listening on 127.0.0.1:18765, both inside a network namespace of their own in which only loopback is
# up, so an agent that sends traffic of its own (update checks, telemetry, plugin catalogs) reaches
# nothing. Run it under `unshare -n` (root): drv_run unshare -n netns.sh SCRIPT LOG agent args...
# The port is the same in every namespace, so an agent's config can name it. NETNS_FAKE names another
# fake (e.g. auggie/fake_augment.py, same script format) and NETNS_PORT its port.
set -u
ip link set lo up
script=$1 log=$2
shift 2
port=${NETNS_PORT:-18765}
FAKE_SCRIPT=$script FAKE_LOG=$log FAKE_PORT=$port python3 "${NETNS_FAKE:-$(dirname "$0")/fakemodel.py}" >>"$log.out" 2>&1 &
fake=$!
for _ in $(seq 50); do
	python3 -c "import socket; socket.create_connection(('127.0.0.1',$port),0.2)" 2>/dev/null && break
	sleep 0.1
done
"$@"
rc=$?
kill "$fake" 2>/dev/null
wait "$fake" 2>/dev/null
exit $rc
