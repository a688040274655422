// The shipped pattern-database files (www/models/), fetched in the page once per URL however many
// solver workers need them: the workers ask their SolverClient for a goal's file ("pdb-request")
// and get the bytes handed over ("pdb-bytes"); see solver-worker.js. Everything is resolved
// against this file, so a site that copies www/ and pkg/ elsewhere still finds the models.

import { fetchBytes } from "../common/download.js";

/** The shipped databases' index; mirrors the manifest that scripts/build-pdb.sh writes. */
const PDB_INDEX_URL = new URL("../models/pdb-index.json", import.meta.url);
const PDB_INDEX_VERSION = 1;
/** The partition shipped files hold (the worker builds 5-5-5 for other goals). */
const SHIPPED_PARTITION = "6-6-3";

/** Promise of the index's entries, or null before the first request (and after a failure). */
let shippedIndex = null;
/**
 * Downloads by URL: { promise (of the body's bytes), fraction (0..1 so far), listeners (Set of
 * onProgress callbacks) }. A failed download is forgotten, so that a later request tries again.
 */
const downloads = new Map();

/**
 * The shipped file for a 4×4 goal, as a worker should receive it:
 *   { bytes: Uint8Array (the file as served: gzip, or already decompressed), partition, size }
 * or, when there is none or it cannot be had, { bytes: null, message } saying why (the worker
 * then builds 5-5-5). Never rejects. `onProgress({ fraction, partition, size })` follows the
 * download (also when another caller started it).
 */
export async function shippedDatabaseFile(goal, onProgress = () => {}) {
  let file;
  try {
    file = await shippedFileFor(goal);
  } catch (error) {
    return { bytes: null, message: `the shipped file could not be used: ${error?.message ?? error}` };
  }
  if (!file) return { bytes: null, message: "no shipped file for this goal" };
  const { url, partition, size } = file;
  try {
    const bytes = await download(url, size, (fraction) => onProgress({ fraction, partition, size }));
    return { bytes, partition, size };
  } catch (error) {
    return { bytes: null, message: `the shipped file could not be used: ${error?.message ?? error}` };
  }
}

/** { url, partition, size } of the shipped file for the goal, or null when none is shipped. */
async function shippedFileFor(goal) {
  shippedIndex ??= fetch(PDB_INDEX_URL).then(async (response) => {
    if (!response.ok) throw new Error(`the index answered HTTP ${response.status}`);
    const index = await response.json();
    if (index?.version !== PDB_INDEX_VERSION) throw new Error(`the index has version ${index?.version}, not ${PDB_INDEX_VERSION}`);
    if (!Array.isArray(index.databases)) throw new Error("the index has no list of databases");
    return index.databases.filter((database) => typeof database?.file === "string");
  });
  let databases;
  try {
    databases = await shippedIndex;
  } catch (error) {
    shippedIndex = null; // try again next time
    throw error;
  }
  const entry = databases.find((database) => database.goal === goal && database.partition === SHIPPED_PARTITION);
  return entry ? { url: new URL(entry.file, PDB_INDEX_URL).href, partition: entry.partition, size: entry.bytes } : null;
}

/** The body of `url` (once per page), reporting the fraction of `expectedBytes` received so far. */
function download(url, expectedBytes, onProgress) {
  let entry = downloads.get(url);
  if (!entry) {
    entry = { fraction: 0, listeners: new Set(), promise: null };
    downloads.set(url, entry);
    entry.promise = fetchBody(url, expectedBytes, (fraction) => {
      entry.fraction = fraction;
      for (const listener of entry.listeners) listener(fraction);
    });
    entry.promise.then(
      () => entry.listeners.clear(),
      () => {
        entry.listeners.clear();
        if (downloads.get(url) === entry) downloads.delete(url);
      },
    );
  }
  onProgress(entry.fraction);
  entry.listeners.add(onProgress);
  return entry.promise;
}

/** fetchBytes's progress as the fraction of `expectedBytes` received so far (none when unknown). */
function fetchBody(url, expectedBytes, onProgress) {
  return fetchBytes(url, ({ loaded }) => {
    if (expectedBytes > 0 && loaded > 0) onProgress(Math.min(1, loaded / expectedBytes));
  });
}
