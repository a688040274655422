#!/usr/bin/env bash
# Rebuilds the pattern databases the page fetches (www/models/pdb-*.pdb.gz, each with a manifest
# FILE.json written by the CLI) and the index the solver worker reads (www/models/pdb-index.json).
# 6-6-3 takes several seconds per goal natively, too long to build in a browser tab; other goals
# are built in the worker with the quicker 5-5-5 partition.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bin puzzlelab
cli=${CARGO_TARGET_DIR:-target}/release/puzzlelab
"$cli" sliding pdb --partition 6-6-3 --out www/models/pdb-4x4-6-6-3-standard.pdb.gz > /dev/null
"$cli" sliding pdb --partition 6-6-3 --goal "_,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15" \
  --out www/models/pdb-4x4-6-6-3-blank-first.pdb.gz > /dev/null
node -e '
  const fs = require("fs");
  const files = fs.readdirSync("www/models").filter((f) => /^pdb-.*\.pdb\.gz$/.test(f)).sort();
  const entries = files.map((file) => {
    const m = JSON.parse(fs.readFileSync(`www/models/${file}.json`, "utf8"));
    return { file, goal: m.goal, partition: m.partition, bytes: m.written_bytes, checksum: m.checksum_fnv1a };
  });
  fs.writeFileSync("www/models/pdb-index.json", JSON.stringify({ version: 1, databases: entries }, null, 2) + "\n");
  console.log(`www/models/pdb-index.json: ${entries.length} databases`);
'
