//! Native GPU training (`--features gpu`, `--device gpu|auto`): a DQN trains on burn's wgpu
//! backend (here Mesa's software Vulkan driver, lavapipe, which scripts/setup.sh installs), its
//! manifest says where it trained, and its model file is the one format every device reads: the
//! CPU evaluates it and resumes its training.
#![cfg(feature = "gpu")]

mod common;

use common::{args, manifest, scratch, succeeds};

#[test]
fn a_dqn_trains_on_the_gpu_and_its_model_goes_on_on_the_cpu() {
    let dir = scratch("gpu_train");
    let model = dir.join("gpu.dqn").to_string_lossy().to_string();
    let out = succeeds(&args(
        "sliding train --size 2x3 --steps 200 --seed 1 --hidden 32,32 --batch 32 --replay 2000 \
         --warmup 5 --difficulty 3 --chunk 100 --per-distance 1 --device gpu --out {}",
        &[&model],
    ));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("to step 200 on the GPU"), "{stderr}");
    assert!(stderr.contains("step 200/200"), "{stderr}");
    let m = manifest(&model);
    assert_eq!(m["device"], "gpu");
    assert_eq!(m["steps"], 200);
    let loss = m["training_curve"].as_array().map(|c| c.len());
    assert_eq!(loss, Some(1), "the final validation");

    // The CPU reads the GPU's model: it evaluates it and goes on training it.
    let eval = succeeds(&args("sliding eval --model {} --per-distance 1", &[&model]));
    assert_eq!(common::json(&eval)["steps"], 200);
    let resumed = succeeds(&args(
        "sliding train --resume {} --steps 300 --chunk 100 --per-distance 1 --device cpu",
        &[&model],
    ));
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(stderr.contains("resuming at step 200"), "{stderr}");
    assert!(stderr.contains("on the CPU"), "{stderr}");
    assert_eq!(manifest(&model)["device"], "cpu");
    assert_eq!(manifest(&model)["steps"], 300);

    // And back: `auto` finds the GPU.
    let auto = succeeds(&args(
        "sliding train --resume {} --steps 400 --chunk 100 --per-distance 1 --device auto",
        &[&model],
    ));
    assert!(String::from_utf8_lossy(&auto.stderr).contains("on the GPU"));
    assert_eq!(manifest(&model)["steps"], 400);
}
