// Counts WebGPU calls made in this worker: compute dispatches, bind groups, pipelines, buffer
// allocations, uploads (writeBuffer), copies, submissions and readbacks (mapAsync). Loaded by
// both benchmark workers (a classic script: importScripts or a side-effect import), so that
// puzzlelab's and TensorFlow.js's steps are counted the same way. Counting only; nothing is changed.
(() => {
  const counts = {};
  const patch = (type, method, name) => {
    const proto = self[type]?.prototype;
    if (!proto || typeof proto[method] !== "function") return;
    const original = proto[method];
    proto[method] = function (...args) {
      counts[name] = (counts[name] ?? 0) + 1;
      return original.apply(this, args);
    };
  };
  patch("GPUComputePassEncoder", "dispatchWorkgroups", "dispatches");
  patch("GPUDevice", "createBindGroup", "bindGroups");
  patch("GPUDevice", "createComputePipeline", "pipelines");
  patch("GPUDevice", "createComputePipelineAsync", "pipelines");
  patch("GPUDevice", "createBuffer", "bufferAllocations");
  patch("GPUQueue", "writeBuffer", "uploads");
  patch("GPUCommandEncoder", "copyBufferToBuffer", "copies");
  patch("GPUQueue", "submit", "submits");
  patch("GPUBuffer", "mapAsync", "readbacks");
  const names = ["dispatches", "bindGroups", "pipelines", "bufferAllocations", "uploads", "copies", "submits", "readbacks"];
  self.gpuCounter = {
    available: typeof self.GPUComputePassEncoder === "function",
    reset() {
      for (const name of Object.keys(counts)) delete counts[name];
    },
    /** Each count divided by `steps` (calls per step). */
    perStep(steps) {
      return Object.fromEntries(names.map((name) => [name, (counts[name] ?? 0) / steps]));
    },
  };
})();
