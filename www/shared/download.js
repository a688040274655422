// A download as bytes, with its progress: the one the page uses for 2048 networks (game2048.js)
// and the training workers use for model and network files (ntuple-worker.js, learn-worker.js).

/**
 * The body of `url` as a Uint8Array; `onProgress({ loaded, total })` follows the download: once
 * when the answer came (loaded 0), then after every chunk (total 0 when the server does not
 * say). An answer other than 2xx throws "URL answered HTTP 404".
 */
export async function fetchBytes(url, onProgress = () => {}) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
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
