// Loads the puzzlelab WebAssembly module once per realm (page or worker) and hands out its API
// (kept between visits: asset-cache.js).
// The path is resolved against this file, so the page, the worker and an embedding site that
// copies www/ and pkg/ side by side all find the same module.

import init, * as api from "../../pkg/puzzlelab.js";
import { keptFetch } from "./asset-cache.js";

let loading = null;

/**
 * Resolves to the module's exports (Puzzle, SearchJob, QLearningJob, …) once the wasm is
 * instantiated; later calls reuse the same instance.
 */
export function loadWasm() {
  loading ??= init({ module_or_path: keptFetch(new URL("../../pkg/puzzlelab_bg.wasm", import.meta.url)) }).then(
    () => api,
  );
  return loading;
}

/** The message of whatever a wasm call threw (worker-protocol.js's, for the callers that load wasm here). */
export { errorMessage } from "./worker-protocol.js";
