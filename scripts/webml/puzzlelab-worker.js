// puzzlelab's side of scripts/bench-webml.mjs: a module worker that loads the learning bundle
// (pkg/learn/), fills a LearnerTrainer's replay buffer (the sliding learner) by playing, then times its gradient step
// (LearnerTrainer.benchmarkSteps: sample and upload a batch, target forward, loss, backward, Adam,
// the target's copy, the loss read every `readEvery` steps) and greedy moves; on WebGPU it also
// counts the WebGPU calls per step (gpu-counter.js) and times single operations (benchmarkOps).
// `products` on WebGPU: "race" (the kernel WebGPU's set-up chose) or "default" (burn's forced).
import "./gpu-counter.js";
import init, { LearnerTrainer, benchmarkOps, useTiledWebgpuProducts, webgpuProducts } from "../../pkg/learn/puzzlelab.js";

async function benchmark({ backend, products = "race", size, options, steps, warmupSteps, readEvery, moves, phases, counted, ops }) {
  await init();
  if (backend === "webgpu" && products === "default") await useTiledWebgpuProducts(false);
  const trainer = await LearnerTrainer.create("sliding", { size: `${size}x${size}`, seed: 0, warmupEpisodes: 2, evalIntervalEpisodes: 0, curriculum: false, difficulty: 10, ...options }, backend);
  try {
    let report;
    do report = await trainer.trainSteps(50);
    while (report.updatesDone < 1);
    const result = await trainer.benchmarkSteps({ steps, warmupSteps, readEvery, phases, greedyMoves: moves });
    let countsPerStep = null;
    if (counted > 0 && self.gpuCounter.available && backend === "webgpu") {
      self.gpuCounter.reset();
      await trainer.benchmarkSteps({ steps: counted, warmupSteps: 0, readEvery: 1, greedyMoves: 0 });
      countsPerStep = self.gpuCounter.perStep(counted);
    }
    const opTimes = ops ? await benchmarkOps(backend, result.batchSize, result.hidden[0], ops) : null;
    const race = backend === "webgpu" ? webgpuProducts() : null;
    const kernel = race ? (products === "race" && race.tiled ? "cubek tiled CpuGemm" : "burn default") : "gemm (flex)";
    return { library: "puzzlelab (burn 0.22)", backend: backend === "cpu" ? "flex" : backend, kernel, productRace: race, ...result, countsPerStep, ops: opTimes };
  } finally {
    trainer.free();
  }
}

self.onmessage = async ({ data }) => {
  try {
    postMessage({ result: await benchmark(data) });
  } catch (error) {
    postMessage({ error: String(error?.stack ?? error) });
  }
};
