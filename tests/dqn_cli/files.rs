//! What every trainer shares: a run killed between its model and its manifest, the GPU build's flag,
//! models averaged into one.

use crate::common::{args, fails_with, manifest, scratch, succeeds};
use crate::train_tiny_sliding_model;

#[test]
fn a_run_killed_between_its_model_and_its_manifest_resumes_from_a_matching_pair() {
    let dir = scratch("dqn_cli_kill");
    let model = dir.join("killed.dqn").to_string_lossy().to_string();
    let train = "sliding train --size 2x3 --steps 900 --seed 3 --hidden 16 --batch 16 \
                 --replay 2000 --warmup 5 --difficulty 3 --chunk 300 --checkpoint-every 300 \
                 --eval-every 100000 --per-distance 1 --out {}";
    // Killed right after the second checkpoint's model is in place, before its manifest.
    let killed = std::process::Command::new(env!("CARGO_BIN_EXE_puzzlelab"))
        .args(args(train, &[&model]))
        .env("PUZZLELAB_FAULT", "between-model-and-manifest:2")
        .output()
        .unwrap();
    assert_eq!(
        killed.status.code(),
        Some(137),
        "the fault hook stops the run"
    );
    let bytes = std::fs::read(&model).unwrap();
    let behind = manifest(&model);
    assert_eq!(
        behind["steps"], 300,
        "the manifest is one checkpoint behind its model"
    );
    let checksum = format!("{:016x}", puzzlelab::checksum::fnv1a(&bytes));
    assert_ne!(behind["model_fnv1a"], checksum.as_str());

    // Resuming finishes the interrupted write: the model's own manifest, not the older one.
    let resumed = succeeds(&args(
        "sliding train --steps 1200 --chunk 300 --checkpoint-every 300 --eval-every 100000 \
         --per-distance 1 --resume {} --out {}",
        &[&model, &model],
    ));
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(
        stderr.contains("finished the write a stopped run left"),
        "{stderr}"
    );
    assert!(
        stderr.contains("step 900 ") || stderr.contains("step 900/"),
        "it goes on from the model's 600 steps, not the manifest's 300:\n{stderr}"
    );
    let m = manifest(&model);
    assert_eq!(m["steps"], 1200);
    let bytes = std::fs::read(&model).unwrap();
    assert_eq!(
        m["model_fnv1a"],
        format!("{:016x}", puzzlelab::checksum::fnv1a(&bytes)).as_str(),
        "the manifest records the checksum of the model beside it"
    );

    // A model that is not the manifest's (another run's) is refused, with which is newer.
    let other = dir.join("other.dqn").to_string_lossy().to_string();
    succeeds(&args(
        "sliding train --size 2x3 --steps 300 --seed 4 --hidden 16 --batch 16 --replay 2000 \
         --warmup 5 --difficulty 3 --chunk 300 --eval-every 100000 --per-distance 1 --out {}",
        &[&other],
    ));
    std::fs::copy(&other, &model).unwrap();
    let refused = fails_with(
        &args(
            "sliding train --steps 1500 --resume {} --out {}",
            &[&model, &model],
        ),
        "does not match its manifest",
    );
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains(&format!("{model} was written after {model}.json"))
            && stderr.contains("train again without --resume"),
        "{stderr}"
    );
}

/// A build without the GPU feature says how to get one.
#[cfg(not(feature = "gpu"))]
#[test]
fn training_on_the_gpu_needs_the_gpu_build() {
    fails_with(
        &[
            "sliding", "train", "--size", "2x3", "--steps", "10", "--device", "gpu",
        ],
        "--device gpu needs the GPU build: cargo build --release --features gpu",
    );
}

#[test]
fn models_average_into_one_whose_manifest_lists_every_input_and_command() {
    let dir = scratch("dqn_cli_average");
    let [a, b, mean, wide] = ["a.dqn", "b.dqn", "mean.dqn", "wide.dqn"]
        .map(|f| dir.join(f).to_string_lossy().to_string());
    train_tiny_sliding_model(&a);
    let tiny = "sliding train --size 2x3 --steps 50 --warmup 1 --batch 8 --per-distance 1";
    succeeds(&args(
        &format!("{tiny} --hidden 8 --seed 5 --out {{}}"),
        &[&b],
    ));
    let models = format!("{a},{b}");
    let out = succeeds(&args(
        "sliding average --models {} --shares 3,1 --out {}",
        &[&models, &mean],
    ));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("validation:"), "{stderr}");

    // The weights are the weighted mean: the last parameter_count × 4 bytes of each file.
    let weights = |path: &str| -> Vec<f32> {
        let bytes = std::fs::read(path).unwrap();
        let count = manifest(path)["parameters"].as_u64().unwrap() as usize;
        (bytes[bytes.len() - 4 * count..].chunks_exact(4))
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
            .collect()
    };
    let (wa, wb, wm) = (weights(&a), weights(&b), weights(&mean));
    assert_ne!(wa, wb, "two seeds, two models");
    for ((x, y), m) in wa.iter().zip(&wb).zip(&wm) {
        assert!((0.75 * x + 0.25 * y - m).abs() < 1e-6, "{x} {y} {m}");
    }

    let m = manifest(&mean);
    let inputs = m["inputs"].as_array().unwrap();
    assert_eq!(inputs.len(), 2);
    assert_eq!(inputs[0]["share"], 3.0);
    assert_eq!(inputs[1]["model_fnv1a"], manifest(&b)["model_fnv1a"]);
    let commands: Vec<&str> = (m["commands"].as_array().unwrap().iter())
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(commands.len(), 3, "{commands:?}");
    assert!(commands[1].contains("--seed 5") && commands[2].contains("sliding average"));
    assert!(m["validation"]["overall"]["positions"].as_u64().unwrap() > 0);
    assert!(
        m.get("training_curve").is_none(),
        "the inputs' curves are not the mean's"
    );
    succeeds(&args("sliding eval --model {} --per-distance 1", &[&mean]));

    // Models of other networks, or shares that do not fit, are refused in words.
    succeeds(&args(&format!("{tiny} --hidden 4 --out {{}}"), &[&wide]));
    let mixed = format!("{a},{wide}");
    fails_with(
        &args("sliding average --models {} --out {}", &[&mixed, &mean]),
        "has another network than",
    );
    let stepped = dir.join("steps.dqn").to_string_lossy().to_string();
    succeeds(&args(
        &format!("{tiny} --hidden 8 --reward steps --out {{}}"),
        &[&stepped],
    ));
    let rewards = format!("{a},{stepped}");
    fails_with(
        &args("sliding average --models {} --out {}", &[&rewards, &mean]),
        "has another reward than",
    );
    // A model averaged with itself: one run, its time counted once.
    let twice = format!("{a},{a}");
    succeeds(&args(
        "sliding average --models {} --out {}",
        &[&twice, &mean],
    ));
    let m = manifest(&mean);
    let once =
        manifest(&a)["wall_seconds"].as_f64().unwrap() + m["average_seconds"].as_f64().unwrap();
    assert!(
        (m["wall_seconds"].as_f64().unwrap() - once).abs() < 0.11,
        "{m}"
    );
    assert_eq!(m["commands"].as_array().unwrap().len(), 2);
    assert_eq!(weights(&mean), wa, "a model's mean with itself is itself");
    fails_with(
        &args(
            "sliding average --models {} --shares 1 --out {}",
            &[&models, &mean],
        ),
        "1 shares for 2 models: give one share a model",
    );
    fails_with(
        &args(
            "sliding average --models {} --shares 1,0 --out {}",
            &[&models, &mean],
        ),
        "each model's share must be a positive number",
    );
}
