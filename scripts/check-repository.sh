#!/usr/bin/env bash
# Checks that the repository stands alone: no tracked file but docs/sources.md (which cites the
# project's source documents by title) names the folder beside a checkout that only the owner's
# machines have. A fresh clone with nothing beside it must build, run and pass its tests; the data
# a test, benchmark or default needs lives in data/ (data/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."

# Written in two parts so that this file does not name what it looks for.
beside='\.\./'"shared"'([/"'"'"'`]|$)|"\.\.", *"'"shared"'"'
found=$(git ls-files -z | grep -zv '^docs/sources\.md$' | xargs -0 grep -nE "$beside" -- 2>/dev/null || true)
if [ -n "$found" ]; then
  echo "These tracked files name a folder outside the repository; bring the data into data/ and cite documents by title in docs/sources.md:" >&2
  echo "$found" >&2
  exit 1
fi
echo "repository stands alone: no tracked file names a folder beside the checkout"
