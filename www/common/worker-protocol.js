// Both halves of the one protocol every worker of the page speaks (the solver worker
// sliding/solver-worker.js, the n-tuple worker 2048/ntuple-worker.js and the learning worker
// common/learn-worker.js): requests { type, id, ... } in; { type: "progress", id, ... } while a
// request works, then exactly one { type: "result", id, result } or { type: "error", id, message,
// cancelled } out (cancelled: true when the request was cancelled); messages with no id speak of the
// worker itself ({ type: "ready", ... } once it can work, { type: "error", id: null } when it could
// not start, or anything the worker broadcasts).
//
// The page side is WorkerClient (promises around one worker, and the Pause / Resume / Stop every
// training worker answers; 2048/train-panel.js's NTupleClient and learn-client.js's LearnClient add
// their workers' own requests to it; the solver's SolverClient, which replaces a worker that does
// not answer a cancel, reads the same messages with isCancelled); the worker side is serveRequests
// (answers requests with handlers), announceReady, postProgress and postCancelled. Nothing here
// runs on import.

/**
 * A module worker running the script at `url`, wherever that script is hosted. A page may only
 * start a worker from its own origin, so when `url` is on another origin (the widget loaded from a
 * CDN or the project's site into an author's page) the worker is started from a one-line `blob:`
 * module on the page's origin that imports the real script: the real script then runs with its own
 * URL as import.meta.url, so it finds its wasm and files next to itself. The host must send CORS
 * headers (docs/widget.md), and a page with a Content-Security-Policy must allow `blob:` in
 * worker-src.
 */
export function startModuleWorker(url, options = {}) {
  const href = new URL(url, globalThis.document?.baseURI ?? globalThis.location.href).href;
  if (new URL(href).origin === globalThis.location.origin) return new Worker(href, { ...options, type: "module" });
  const shim = URL.createObjectURL(new Blob([`import ${JSON.stringify(href)};\n`], { type: "text/javascript" }));
  const worker = new Worker(shim, { ...options, type: "module" });
  // The worker has fetched its shim once it says anything (or fails); then the blob can go.
  const revoke = () => URL.revokeObjectURL(shim);
  worker.addEventListener("message", revoke, { once: true });
  worker.addEventListener("error", revoke, { once: true });
  return worker;
}

/** The message of whatever was thrown (the wasm bundles throw Error objects; be lenient anyway). */
export function errorMessage(error) {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  return String(error);
}

// ---- the page's side ------------------------------------------------------------------------------

/**
 * Promises around one module worker (an EventTarget, for what a subclass announces). request()
 * resolves to the worker's result, or rejects with an Error carrying its message (and `cancelled`,
 * as the worker said); the promise carries the request's `id`. `ready` resolves to
 * readyValue(the "ready" message) once the worker says so, and rejects when the worker fails to
 * start; a failure rejects every pending request and every later one. `name` ("learning worker")
 * goes into the messages of those failures.
 *
 * With `restartAfterCrash`, a worker that crashes after it was ready (an uncaught error in it: a
 * trapped wasm instance cannot be trusted again) is ended: its pending requests reject with
 * crashMessage(the error's message), a "crashed" event (detail { message }) goes out, and the next
 * request starts a new worker.
 */
export class WorkerClient extends EventTarget {
  #worker;
  #workerUrl;
  #name;
  #ready;
  #readyValue;
  #onBroadcast;
  #onRequestProgress;
  #restartAfterCrash;
  #crashMessage;
  #nextId = 1;
  /** Requests waiting for their answer by id: { resolve, reject, onProgress }. */
  #pending = new Map();
  /** Why the worker cannot work (set once it failed), or null. */
  #failure = null;

  /**
   * `onBroadcast(message)` gets the worker's messages without an id other than "ready" and errors;
   * `onRequestProgress(message)` every request's progress messages, before the request's own
   * onProgress.
   */
  constructor(
    workerUrl,
    {
      name,
      readyValue = () => undefined,
      onBroadcast = () => {},
      onRequestProgress = () => {},
      restartAfterCrash = false,
      crashMessage = (message) => `The ${name} crashed (${message}).`,
    },
  ) {
    super();
    this.#workerUrl = workerUrl;
    this.#name = name;
    this.#readyValue = readyValue;
    this.#onBroadcast = onBroadcast;
    this.#onRequestProgress = onRequestProgress;
    this.#restartAfterCrash = restartAfterCrash;
    this.#crashMessage = crashMessage;
    this.#start();
  }

  /** A new worker, its `ready` and its listeners (which ignore the workers ended before it). */
  #start() {
    const ready = Promise.withResolvers();
    let started = false;
    ready.promise.then(() => (started = true), () => {});
    this.#ready = ready.promise;
    const worker = startModuleWorker(this.#workerUrl);
    this.#worker = worker;
    worker.addEventListener("message", ({ data }) => this.#worker === worker && this.#onMessage(data, ready));
    worker.addEventListener("error", (event) => {
      event.preventDefault?.();
      if (this.#worker !== worker) return;
      if (started && this.#restartAfterCrash) this.#crashed(event.message || "no reason given");
      else this.#fail(new Error(event.message || `The ${this.#name} failed to start.`), ready);
    });
  }

  /** Ends the crashed worker; its requests reject, and the next one starts a new worker. */
  #crashed(message) {
    const worker = this.#worker;
    this.#worker = null;
    worker.terminate();
    const error = new Error(this.#crashMessage(message));
    for (const request of this.#pending.values()) request.reject(error);
    this.#pending.clear();
    this.dispatchEvent(new CustomEvent("crashed", { detail: { message } }));
  }

  get ready() {
    if (!this.#worker && !this.#failure) this.#start();
    return this.#ready;
  }

  /** Sends `message` with a new id; onProgress gets the request's progress messages. */
  request(message, onProgress) {
    if (this.#failure) return Promise.reject(this.#failure);
    if (!this.#worker) this.#start();
    const id = this.#nextId++;
    const promise = new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, onProgress });
      this.#worker.postMessage({ ...message, id });
    });
    promise.id = id;
    return promise;
  }

  /** Pauses training after its current chunk; resolves to the worker's { state, … } once paused. */
  pause() {
    return this.request({ type: "pause" });
  }

  /** Goes on after pause(). */
  resume() {
    return this.request({ type: "resume" });
  }

  /** Stops training after its current chunk; resolves to the worker's { state, … } once stopped. */
  stop() {
    return this.request({ type: "stop" });
  }

  /** Stops the worker; pending requests reject. */
  dispose() {
    this.#fail(new Error(`The ${this.#name} was stopped.`), null);
    this.#worker?.terminate();
  }

  #onMessage(message, ready) {
    if (message.type === "ready") {
      ready.resolve(this.#readyValue(message));
      return;
    }
    if (message.id === null || message.id === undefined) {
      if (message.type === "error") this.#fail(new Error(message.message), ready);
      else this.#onBroadcast(message);
      return;
    }
    const request = this.#pending.get(message.id);
    if (!request) return;
    if (message.type === "progress") {
      this.#onRequestProgress(message);
      request.onProgress?.(message);
      return;
    }
    this.#pending.delete(message.id);
    if (message.type === "result") request.resolve(message.result);
    else request.reject(Object.assign(new Error(message.message), { cancelled: Boolean(message.cancelled) }));
  }

  /** Rejects `ready` (when given) and every pending request; later requests reject at once. */
  #fail(error, ready) {
    this.#failure ??= error;
    ready?.reject(error);
    for (const request of this.#pending.values()) request.reject(error);
    this.#pending.clear();
  }
}

// ---- the worker's side ----------------------------------------------------------------------------

/**
 * Answers every request with handlers[type](message), which returns (or resolves to) { result,
 * transfer? } — or undefined for no answer — and throws for an error (an error with `cancelled`
 * says so). A type without a handler is answered with an error at once.
 */
export function serveRequests(handlers) {
  self.onmessage = (event) => {
    const message = event.data ?? {};
    const handler = handlers[message.type];
    if (!handler) {
      postMessage({ type: "error", id: message.id ?? null, message: `Unknown request "${message.type}".` });
      return;
    }
    Promise.resolve()
      .then(() => handler(message))
      .then(
        (answer) => {
          if (answer === undefined) return;
          const { result, transfer = [] } = answer;
          postMessage({ type: "result", id: message.id, result }, transfer);
        },
        (error) => postMessage({ type: "error", id: message.id, message: errorMessage(error), cancelled: error?.cancelled === true }),
      );
  };
}

/**
 * Says { type: "ready", ...fields(value) } once `loading` resolves, or { type: "error", id: null,
 * message: failure(error) } when it rejects (the worker cannot work).
 */
export function announceReady(loading, fields = () => ({}), failure = errorMessage) {
  loading.then(
    (value) => postMessage({ type: "ready", ...fields(value) }),
    (error) => postMessage({ type: "error", id: null, message: failure(error) }),
  );
}

/** A request's progress: { type: "progress", id, ...fields } (id null: the worker's own, such as its loading). */
export function postProgress(id, fields) {
  postMessage({ type: "progress", id, ...fields });
}

/** Answers a cancelled request at once (its handler then answers nothing): an error with `cancelled`. */
export function postCancelled(id) {
  postMessage({ type: "error", id, message: "Cancelled.", cancelled: true });
}

/** Whether a worker's message is the answer to a cancelled request. */
export function isCancelled(message) {
  return message.type === "error" && message.cancelled === true;
}
