#!/usr/bin/env node
// A tiny, dependency-free static file server for the repository root, so the page under /www/
// can load the generated module under /pkg/ (browsers refuse ES modules and wasm from file://).
//
//   node scripts/serve.mjs              # http://127.0.0.1:8080/www/
//   PORT=0 node scripts/serve.mjs       # any free port
//
// Tests import { startServer } and call startServer(0).
//
// Every response allows any origin to read it (CORS: Access-Control-Allow-Origin: *, and
// Cross-Origin-Resource-Policy: cross-origin), as a host of the widget must for pages on other
// origins to load widget.js, its modules, workers, wasm and models (docs/widget.md).

import { createServer } from "node:http";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const REPOSITORY_ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));

const MIME_TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/plain; charset=utf-8",
  ".bin": "application/octet-stream",
};

/** Maps a request path to a file under `root`, or null when it would escape the root. */
function fileForPath(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  // No NUL bytes, and nothing hidden (.git, .env): this serves a working copy.
  if (decoded.includes("\0") || decoded.split("/").some((segment) => segment.startsWith("."))) return null;
  const candidate = normalize(join(root, decoded));
  if (candidate !== root && !candidate.startsWith(root + sep)) return null;
  return candidate;
}

/** What every response says: anyone may read it (CORS), and `extra` (a test's Content-Security-Policy). */
function commonHeaders(extra) {
  return { "Access-Control-Allow-Origin": "*", "Cross-Origin-Resource-Policy": "cross-origin", ...extra };
}

async function handle(root, request, response, extraHeaders) {
  for (const [name, value] of Object.entries(commonHeaders(extraHeaders))) response.setHeader(name, value);
  const { pathname } = new URL(request.url, "http://localhost");
  if (request.method === "OPTIONS") {
    response.writeHead(204, { Allow: "GET, HEAD, OPTIONS", "Access-Control-Allow-Methods": "GET, HEAD", "Access-Control-Max-Age": "86400" }).end();
    return;
  }
  if (request.method !== "GET" && request.method !== "HEAD") {
    response.writeHead(405, { Allow: "GET, HEAD" }).end();
    return;
  }
  if (pathname === "/") {
    response.writeHead(302, { Location: "/www/" }).end();
    return;
  }
  let file = fileForPath(root, pathname);
  if (!file) {
    response.writeHead(403).end("forbidden");
    return;
  }
  try {
    let info = await stat(file);
    if (info.isDirectory()) {
      if (!pathname.endsWith("/")) {
        response.writeHead(301, { Location: `${pathname}/` }).end();
        return;
      }
      file = join(file, "index.html");
      info = await stat(file);
    }
    response.writeHead(200, {
      "Content-Type": MIME_TYPES[extname(file).toLowerCase()] ?? "application/octet-stream",
      "Content-Length": info.size,
      // The page is developed against a module that is rebuilt often: never serve a stale one.
      "Cache-Control": "no-store",
    });
    if (request.method === "HEAD") {
      response.end();
      return;
    }
    createReadStream(file).pipe(response);
  } catch {
    response.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("not found");
  }
}

/**
 * Starts the server on 127.0.0.1 (`port` 0 picks a free one) for the files under `root`; `headers`
 * go on every response besides the CORS ones.
 * Resolves to { url, port, origin, close } where url is the page address (…/www/) and close() stops it.
 */
export function startServer(port = 8080, root = REPOSITORY_ROOT, { headers = {} } = {}) {
  const server = createServer((request, response) => {
    handle(root, request, response, headers).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  return new Promise((resolvePromise, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const actualPort = server.address().port;
      resolvePromise({
        url: `http://127.0.0.1:${actualPort}/www/`,
        origin: `http://127.0.0.1:${actualPort}`,
        port: actualPort,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}

const runDirectly = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (runDirectly) {
  const port = Number.parseInt(process.env.PORT ?? "8080", 10);
  const { url } = await startServer(Number.isNaN(port) ? 8080 : port);
  console.log(`puzzlelab is being served at ${url}`);
}
