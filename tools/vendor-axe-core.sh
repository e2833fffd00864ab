#!/usr/bin/env bash
# Refreshes the accessibility checker the browser tests inject into the
# pages: axe-core (Deque Systems, MPL-2.0), from the npm registry, at the
# version given (default: the one vendored now). Only its built file and
# its licences are kept, in tests/vendor/axe-core/; the product never
# loads it, and the build stays cargo-only.
#
#   tools/vendor-axe-core.sh [VERSION]
set -euo pipefail
cd "$(dirname "$0")/.."
dest=tests/vendor/axe-core
version="${1:-$(sed -n 's/^version //p' "$dest/VERSION")}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "axe-core@$version" >/dev/null)
tar -xzf "$work/axe-core-$version.tgz" -C "$work"
cp "$work/package/axe.min.js" "$work/package/LICENSE" "$work/package/LICENSE-3RD-PARTY.txt" "$dest/"
{
    echo "version $version"
    echo "sha256 $(sha256sum "$dest/axe.min.js" | cut -d' ' -f1)  axe.min.js"
    echo "from https://registry.npmjs.org/axe-core/-/axe-core-$version.tgz"
} > "$dest/VERSION"
echo "axe-core $version in $dest"
