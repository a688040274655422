// TensorFlow.js's side of scripts/bench-webml.mjs: the same DQN gradient step as puzzlelab's
// (LearnerTrainer.benchmarkSteps), written with TF.js's ops, timed the same way. A classic worker: the
// UMD build of @tensorflow/tfjs (core, gradients, the cpu and webgl backends) and, for wasm and
// webgpu, that backend's UMD build are loaded with importScripts.
//
// One step: upload a replay batch (observations, actions, next observations, rewards,
// not-terminated flags, illegal-action penalties; a pool of random batches stands in for the
// replay buffer), the target network's max Q′ over legal next actions, the policy's Q(s, a),
// the Huber (or squared) loss, its gradient, one Adam step, the target's copy every
// `targetUpdateInterval` steps, and the loss read back every `readEvery` steps.
// A greedy move: upload one observation, the policy's Q-values, read back.
const TFJS = "/node_modules/@tensorflow";
const BACKEND_SCRIPTS = {
  cpu: [],
  wasm: [`${TFJS}/tfjs-backend-wasm/dist/tf-backend-wasm.min.js`],
  webgl: [],
  webgpu: [`${TFJS}/tfjs-backend-webgpu/dist/tf-backend-webgpu.min.js`],
};

function randomBatches(count, b, n, a, random) {
  const batches = [];
  for (let k = 0; k < count; k += 1) {
    const binary = (length) => Float32Array.from({ length }, () => (random() < 1 / Math.sqrt(n) ? 1 : 0));
    batches.push({
      observations: binary(b * n),
      actions: Int32Array.from({ length: b }, () => Math.floor(random() * a)),
      nextObservations: binary(b * n),
      rewards: Float32Array.from({ length: b }, () => -1),
      notTerminated: Float32Array.from({ length: b }, () => (random() < 0.05 ? 0 : 1)),
      // Like a sliding puzzle's: up to two of the actions illegal, never all of them.
      penalties: Float32Array.from({ length: b * a }, (_, i) => (i % a < 2 && random() < 0.3 ? -1e6 : 0)),
    });
  }
  return batches;
}

/** Glorot-uniform weights and zero biases for layers n → hidden… → a. */
function network(widths, random) {
  const layers = [];
  for (let i = 0; i + 1 < widths.length; i += 1) {
    const [fanIn, fanOut] = [widths[i], widths[i + 1]];
    const limit = Math.sqrt(6 / (fanIn + fanOut));
    const w = Float32Array.from({ length: fanIn * fanOut }, () => (random() * 2 - 1) * limit);
    layers.push({ w: tf.variable(tf.tensor2d(w, [fanIn, fanOut])), b: tf.variable(tf.zeros([fanOut])) });
  }
  return layers;
}

function forward(layers, x) {
  let h = x;
  layers.forEach(({ w, b }, i) => {
    h = tf.add(tf.matMul(h, w), b);
    if (i + 1 < layers.length) h = tf.relu(h);
  });
  return h;
}

/**
 * The same single operations as puzzlelab's benchmarkOps, `count` of each, each run settled by one
 * readback: a [rows, width] × [width, width] product, adding a constant, an upload, a readback.
 */
async function opTimes(rows, width, count) {
  const values = (n, scale) => Float32Array.from({ length: n }, (_, i) => (((i * 7919) % 1000) / 1000 - 0.5) * scale);
  const x = tf.tensor2d(values(rows * width, 1), [rows, width]);
  const w = tf.tensor2d(values(width * width, 2 / width), [width, width]);
  const settle = async (t) => {
    await tf.slice(t, [0, 0], [1, 1]).data();
  };
  await settle(tf.add(tf.matMul(x, w), 1));
  const per = (since) => (performance.now() - since) / count;
  const chain = async (op) => {
    const started = performance.now();
    const result = tf.tidy(() => {
      let y = x;
      for (let i = 0; i < count; i += 1) y = op(y);
      return y;
    });
    await settle(result);
    result.dispose();
    return per(started);
  };
  const matmulMs = await chain((y) => tf.matMul(y, w));
  const addMs = await chain((y) => tf.add(y, 1));
  const data = values(rows * width, 1);
  let started = performance.now();
  let last = null;
  for (let i = 0; i < count; i += 1) {
    last?.dispose();
    last = tf.tensor2d(data, [rows, width]);
  }
  await settle(last);
  last.dispose();
  const uploadMs = per(started);
  const one = tf.slice(x, [0, 0], [1, 1]);
  await one.data();
  started = performance.now();
  for (let i = 0; i < count; i += 1) await one.data();
  const readbackMs = per(started);
  tf.dispose([x, w, one]);
  return { count, matmulMs, matmulFlops: (2 * rows * width * width) / (matmulMs / 1000), addMs, uploadMs, readbackMs };
}

async function benchmark({ backend, shape, steps, warmupSteps, readEvery, moves, counted, ops }) {
  importScripts(`${TFJS}/tfjs/dist/tf.min.js`, ...BACKEND_SCRIPTS[backend], "./gpu-counter.js");
  if (backend === "wasm") tf.wasm.setWasmPaths(`${TFJS}/tfjs-backend-wasm/dist/`);
  if (!(await tf.setBackend(backend))) throw new Error(`TensorFlow.js backend ${backend} did not start`);
  await tf.ready();
  const { observationLen: n, hidden, numActions: a, batchSize: b } = shape;
  // A seeded generator (a classic worker imports the module dynamically), so that the data do not depend on Math.random.
  const { seededRandom } = await import("../seeded-random.mjs");
  const random = seededRandom(1);
  const widths = [n, ...hidden, a];
  const policy = network(widths, random);
  const target = network(widths, random);
  const policyVariables = policy.flatMap(({ w, b }) => [w, b]);
  const targetVariables = target.flatMap(({ w, b }) => [w, b]);
  targetVariables.forEach((v, i) => v.assign(policyVariables[i]));
  const optimizer = tf.train.adam(shape.learningRate);
  const batches = randomBatches(8, b, n, a, random);
  let updates = 0;

  /** One gradient step; returns the loss tensor (the caller reads or disposes it). */
  const step = () => {
    const batch = batches[updates % batches.length];
    const inputs = {
      observations: tf.tensor2d(batch.observations, [b, n]),
      actions: tf.tensor1d(batch.actions, "int32"),
      nextObservations: tf.tensor2d(batch.nextObservations, [b, n]),
      rewards: tf.tensor2d(batch.rewards, [b, 1]),
      notTerminated: tf.tensor2d(batch.notTerminated, [b, 1]),
      penalties: tf.tensor2d(batch.penalties, [b, a]),
    };
    const tdTarget = tf.tidy(() => {
      let next = forward(target, inputs.nextObservations);
      if (shape.maskActions) next = tf.add(next, inputs.penalties);
      return tf.add(inputs.rewards, tf.mul(tf.mul(tf.max(next, 1, true), inputs.notTerminated), shape.gamma));
    });
    const loss = optimizer.minimize(
      () => {
        const q = forward(policy, inputs.observations);
        const taken = tf.sum(tf.mul(q, tf.oneHot(inputs.actions, a)), 1, true);
        return shape.huberLoss ? tf.losses.huberLoss(tdTarget, taken) : tf.losses.meanSquaredError(tdTarget, taken);
      },
      true,
      policyVariables,
    );
    tf.dispose([...Object.values(inputs), tdTarget]);
    updates += 1;
    if (updates % shape.targetUpdateInterval === 0) targetVariables.forEach((v, i) => v.assign(policyVariables[i]));
    return loss;
  };

  for (let k = 0; k < warmupSteps; k += 1) {
    const loss = step();
    await loss.data();
    loss.dispose();
  }
  const tensorsBefore = tf.memory().numTensors;
  let [lossSum, lossesRead] = [0, 0];
  const started = performance.now();
  for (let k = 1; k <= steps; k += 1) {
    const loss = step();
    if (k % readEvery === 0 || k === steps) {
      lossSum += (await loss.data())[0];
      lossesRead += 1;
    }
    loss.dispose();
  }
  const seconds = (performance.now() - started) / 1000;
  const leaked = tf.memory().numTensors - tensorsBefore;

  const observation = batches[0].observations.slice(0, n);
  const move = async () => {
    const x = tf.tensor2d(observation, [1, n]);
    const q = tf.tidy(() => forward(policy, x));
    await q.data();
    tf.dispose([x, q]);
  };
  await move();
  const movesStarted = performance.now();
  for (let k = 0; k < moves; k += 1) await move();
  const greedyMoveMs = (performance.now() - movesStarted) / Math.max(moves, 1);

  let counts = null;
  if (counted > 0 && self.gpuCounter.available && backend === "webgpu") {
    self.gpuCounter.reset();
    for (let k = 0; k < counted; k += 1) {
      const loss = step();
      await loss.data();
      loss.dispose();
    }
    counts = self.gpuCounter.perStep(counted);
  }
  const opResults = ops ? await opTimes(b, hidden[0], ops) : null;
  return {
    library: `TensorFlow.js ${tf.version_core}`,
    backend: tf.getBackend(),
    parameters: policyVariables.reduce((sum, v) => sum + v.size, 0),
    batchSize: b,
    steps,
    readEvery,
    seconds,
    stepsPerS: steps / seconds,
    meanLoss: lossSum / Math.max(lossesRead, 1),
    tensorsLeaked: leaked,
    greedyMoves: moves,
    greedyMoveMs,
    countsPerStep: counts,
    ops: opResults,
  };
}

self.onmessage = async ({ data }) => {
  try {
    postMessage({ result: await benchmark(data) });
  } catch (error) {
    postMessage({ error: String(error?.stack ?? error) });
  }
};
