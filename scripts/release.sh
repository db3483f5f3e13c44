#!/usr/bin/env bash
# Prepares a release on this machine: version, changelog section, tarball, commit and tag. It never
# pushes and never publishes; docs/releasing.md says what comes next.
#   scripts/release.sh 0.2.0
set -euo pipefail
cd "$(dirname "$0")/.."

version="${1:-}"
if ! [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
  echo "usage: scripts/release.sh <version>   (semver, e.g. 0.2.0 or 0.2.0-rc.1)" >&2
  exit 2
fi
if [ -n "$(git status --porcelain)" ]; then
  echo "the work tree has uncommitted changes: commit or stash them first" >&2
  exit 1
fi
if git rev-parse -q --verify "refs/tags/v$version" >/dev/null; then
  echo "tag v$version exists already" >&2
  exit 1
fi

# The changelog section lists the commit subjects since the previous release's tag (all of them for
# the first release), newest first.
previous="$(git describe --tags --abbrev=0 --match 'v[0-9]*' 2>/dev/null || true)"
range="${previous:+$previous..}HEAD"

# package.json and package-lock.json; the commit and tag are made below, with the changelog.
npm version "$version" --no-git-tag-version >/dev/null

section="$(mktemp)"
{
  echo "## $version ($(date -u +%Y-%m-%d))"
  echo
  if [ -n "$previous" ]; then echo "Since $previous:"; else echo "The first release."; fi
  echo
  git log --no-merges --format='- %s' "$range"
  echo
} >"$section"
if [ -f CHANGELOG.md ]; then
  # The new section goes under the title, above the previous release's.
  { head -n 2 CHANGELOG.md; cat "$section"; tail -n +3 CHANGELOG.md; } >CHANGELOG.md.new
  mv CHANGELOG.md.new CHANGELOG.md
else
  { echo "# Changelog"; echo; cat "$section"; } >CHANGELOG.md
fi
rm -f "$section"

# The tarball a consumer installs: prepack builds dist/lib and dist/cli first.
npm pack --silent >/dev/null
tarball="gatehouse-auth-$version.tgz"
test -f "$tarball"

git add package.json package-lock.json CHANGELOG.md
git commit -q -m "Release $version"
git tag -a "v$version" -m "gatehouse-auth $version"

cat <<EOF
Prepared gatehouse-auth $version: commit and tag v$version (not pushed), $tarball ($(du -h "$tarball" | cut -f1)).
Read CHANGELOG.md, then:
  git push --follow-tags                 # the tag is what \`npm install <repo>#v$version\` names
  # publish from CI, with provenance (docs/releasing.md):
  # npm publish --provenance --access public
Install the tarball meanwhile: npm install ./$tarball
EOF
