// Downloads and gzip for every caller in www/: the page and the widget (2048 networks, pattern
// databases), the solver worker and the training workers (model and network files). Plain module,
// no DOM: it works in the page, in workers and in scripts that run in a page (scripts/bench-pdb.mjs).

import { keptFetch } from "./asset-cache.js";

/** The end of the sentence a download that got no answer throws (the browser says only "Failed to fetch"). */
export const NO_ANSWER =
  "could not be downloaded: the host did not answer, or it does not let this page read the file (a host on another site must allow it: CORS; and a page's Content-Security-Policy must allow it in connect-src)";

/**
 * The body of `url` as a Uint8Array (the host's files are kept between visits: asset-cache.js);
 * `onProgress({ loaded, total })` follows the download: once when the answer came (loaded 0),
 * then after every chunk (total 0 when the server does not say). An answer other than 2xx throws
 * "URL answered HTTP 404 (no such file)"; no answer, "URL could not be downloaded: …" (NO_ANSWER).
 */
export async function fetchBytes(url, onProgress = () => {}) {
  let response;
  try {
    response = await keptFetch(url);
  } catch (error) {
    if (error?.name === "AbortError") throw error;
    throw new Error(`${url} ${NO_ANSWER}`);
  }
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}${response.status === 404 ? " (no such file)" : ""}`);
  const total = Number(response.headers.get("Content-Length")) || 0;
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks = [];
  let loaded = 0;
  onProgress({ loaded, total });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    onProgress({ loaded, total });
  }
  const bytes = new Uint8Array(loaded);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** gzip's magic number, the first two bytes of every gzip file. */
export const GZIP_MAGIC = [0x1f, 0x8b];

/** Whether bytes start with gzip's magic number. */
export function isGzip(bytes) {
  return bytes.length >= 2 && bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];
}

/**
 * The bytes unpacked by the browser's DecompressionStream("gzip") (the wasm bundles have no
 * gzip). Rejects with the stream's own error when they are not valid gzip; callers say which file.
 */
export async function gunzip(bytes) {
  if (typeof DecompressionStream !== "function") throw new Error("this browser cannot decompress gzip files (no DecompressionStream)");
  return throughStream(bytes, new DecompressionStream("gzip"));
}

/** The bytes packed by the browser's CompressionStream("gzip"). */
export async function gzip(bytes) {
  return throughStream(bytes, new CompressionStream("gzip"));
}

/**
 * The bytes unpacked when they are gzip, else as they are (a server that already sent them with
 * Content-Encoding gzip hands over plain bytes). Not valid gzip rejects with "the file is not
 * valid gzip (…)".
 */
export async function gunzipIfNeeded(bytes) {
  if (!isGzip(bytes)) return bytes;
  if (typeof DecompressionStream !== "function") throw new Error("this browser cannot decompress gzip files (no DecompressionStream)");
  try {
    return await gunzip(bytes);
  } catch (error) {
    throw new Error(`the file is not valid gzip (${error instanceof Error ? error.message : String(error)})`);
  }
}

async function throughStream(bytes, stream) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}
