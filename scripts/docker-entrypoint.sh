#!/bin/sh
# The image's entrypoint (Dockerfile): pending migrations first, then the service in this shell's
# place, so the service receives the container's SIGTERM itself and stops cleanly. Runs from the
# directory above this script (the image's /app), which holds dist/ and node_modules/.
set -eu
cd "$(dirname "$0")/.."

# Instances starting at once take turns on PostgreSQL's migration lock; the later ones find nothing
# to do. A migration that fails stops the container here, before it answers a health check.
# GATEHOUSE_MIGRATE=0 leaves migrating to a separate step (`gatehouse migrate`).
if [ "${GATEHOUSE_MIGRATE:-1}" != "0" ]; then
  node dist/cli/main.js migrate
fi

# The V8 flags `npm start` uses (docs/deployment.md, "Memory").
exec node --max-semi-space-size=2 --heap-growing-percent=50 --no-maglev dist/server/main.js "$@"
