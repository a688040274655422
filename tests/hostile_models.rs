//! Hostile model files (property tests, proptest): the shipped DQN models damaged byte by byte,
//! cut short, and with their JSON header's network shape rewritten to hostile numbers (zero,
//! one, huge, past 32 and 64 bits). Invariants: `QPolicy::from_bytes` never panics, refuses
//! with a sentence, sizes nothing from the header before the shape is checked and counted
//! without overflow, and a model it accepts answers a forward pass of its observation length.
//! Case counts as in `hostile_input.rs` (`PROPTEST_CASES` overrides).
#![cfg(feature = "learn")]

use burn::tensor::Device;
use proptest::prelude::*;
use puzzlelab::agent::dqn::{GridConvConfig, PairConvConfig, QNetworkConfig, QPolicy};
use serde_json::Value;
use std::sync::OnceLock;

const MAGIC: &[u8] = b"puzzlelab-dqn\n";

mod common;

fn cases() -> ProptestConfig {
    common::proptest_cases(300)
}

/// Shipped models of each network kind: per-cell board convolutions (Minesweeper), 1×1 grid
/// layers (Sudoku's cells), pair convolutions (2048) and dense layers (the 15-puzzle).
fn models() -> &'static [Vec<u8>] {
    static MODELS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    MODELS.get_or_init(|| {
        ["minesweeper-dqn", "sudoku-cells", "2048-dqn", "15puzzle"]
            .iter()
            .map(|name| {
                let path = format!("{}/www/models/{name}.dqn", env!("CARGO_MANIFEST_DIR"));
                std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
            })
            .collect()
    })
}

/// (header as JSON, weights) of a model file.
fn split(bytes: &[u8]) -> (Value, &[u8]) {
    let rest = &bytes[MAGIC.len()..];
    let length = u32::from_le_bytes(rest[..4].try_into().unwrap()) as usize;
    let header = serde_json::from_slice(&rest[4..4 + length]).unwrap();
    (header, &rest[4 + length..])
}

fn join(header: &Value, weights: &[u8]) -> Vec<u8> {
    let text = serde_json::to_vec(header).unwrap();
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(&text);
    out.extend_from_slice(weights);
    out
}

/// Every number in `value` (the network's shape), by a path of keys and indices.
fn numbers(value: &Value, path: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    match value {
        Value::Number(_) => out.push(path.clone()),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(Value::from(i));
                numbers(item, path, out);
                path.pop();
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                path.push(Value::from(key.as_str()));
                numbers(item, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(value: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(value, |v, key| match key {
        Value::String(k) => &mut v[k.as_str()],
        k => &mut v[k.as_u64().unwrap() as usize],
    })
}

const HOSTILE: [u64; 12] = [
    0,
    1,
    2,
    3,
    17,
    4_096,
    65_537,
    (1 << 31) + 1,
    (1 << 32) + 3,
    1 << 40,
    (1 << 53) + 1,
    u64::MAX,
];

fn outcome(bytes: &[u8]) -> Result<(), TestCaseError> {
    match QPolicy::from_bytes(bytes, &Device::flex()) {
        Ok(policy) => {
            let config = policy.network_config().clone();
            prop_assert!(config.observation_len <= 1 << 20, "{config:?}");
            let values = policy.q_values(&vec![0.0; config.observation_len]);
            prop_assert_eq!(values.len(), config.num_actions);
        }
        Err(e) => {
            let message = e.to_string();
            prop_assert!(
                !message.trim().is_empty() && message.len() < 2_000,
                "{message}"
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(cases())]

    #[test]
    fn a_model_whose_network_shape_is_rewritten_loads_usably_or_is_refused(
        which in 0usize..4,
        changes in prop::collection::vec((any::<usize>(), 0usize..HOSTILE.len(), any::<bool>()), 1..4),
    ) {
        let (mut header, weights) = split(&models()[which]);
        for (pick, value, also_count) in changes {
            let mut paths = Vec::new();
            numbers(&header["network"], &mut vec![Value::from("network")], &mut paths);
            let path = &paths[pick % paths.len()];
            *at(&mut header, path) = Value::from(HOSTILE[value]);
            if also_count {
                header["parameterCount"] = Value::from(HOSTILE[value]);
            }
        }
        outcome(&join(&header, weights))?;
    }

    #[test]
    fn a_model_damaged_byte_by_byte_or_cut_loads_usably_or_is_refused(
        which in 0usize..4,
        writes in prop::collection::vec((any::<usize>(), any::<u8>()), 0..4),
        header_writes in prop::collection::vec((0usize..400, any::<u8>()), 0..4),
        cut in prop::option::of(any::<usize>()),
    ) {
        let mut bytes = models()[which].clone();
        for (i, b) in writes.into_iter().chain(header_writes) {
            let len = bytes.len();
            bytes[i % len] = b;
        }
        if let Some(cut) = cut {
            bytes.truncate(cut % (bytes.len() + 1));
        }
        outcome(&bytes)?;
    }
}

/// A network shape of every kind, small and valid.
fn valid_shape() -> impl Strategy<Value = QNetworkConfig> {
    let hidden = prop::collection::vec(1usize..40, 0..3);
    prop_oneof![
        (1usize..60, hidden.clone(), 1usize..20).prop_map(
            |(observation_len, hidden, num_actions)| {
                QNetworkConfig {
                    observation_len,
                    hidden,
                    num_actions,
                    conv: None,
                    grid: None,
                }
            }
        ),
        (
            1usize..4,
            2usize..6,
            2usize..6,
            1usize..6,
            1usize..6,
            hidden.clone(),
            1usize..8
        )
            .prop_map(
                |(channels, height, width, filters1, filters2, hidden, num_actions)| {
                    QNetworkConfig {
                        observation_len: channels * height * width,
                        hidden,
                        num_actions,
                        conv: Some(PairConvConfig {
                            channels,
                            height,
                            width,
                            filters1,
                            filters2,
                        }),
                        grid: None,
                    }
                }
            ),
        (
            1usize..4,
            1usize..7,
            1usize..7,
            prop::collection::vec((1usize..8, 1usize..4), 0..3),
            any::<bool>(),
            any::<bool>(),
            hidden,
            1usize..8,
        )
            .prop_map(
                |(channels, height, width, layers, board_plane, per_cell, hidden, actions)| {
                    QNetworkConfig {
                        observation_len: channels * height * width,
                        hidden: if per_cell { Vec::new() } else { hidden },
                        num_actions: if per_cell { height * width } else { actions },
                        conv: None,
                        grid: Some(GridConvConfig {
                            channels,
                            height,
                            width,
                            layers: layers.into_iter().map(|(f, k)| [f, k]).collect(),
                            board_plane,
                            per_cell,
                        }),
                    }
                }
            ),
    ]
}

proptest! {
    #![proptest_config(cases())]

    /// The loader's overflow-safe count accepts every valid shape (so that no valid model is
    /// refused) and counts the weights a network of that shape has.
    #[test]
    fn the_checked_parameter_count_equals_the_networks_on_every_valid_shape(shape in valid_shape()) {
        prop_assert_eq!(shape.check(), Ok(()));
        let count = shape.checked_num_params();
        prop_assert_eq!(count.clone(), Ok(shape.num_params()));
        prop_assert_eq!(count, Ok(shape.init(&Device::flex(), 1).weights().len()));
    }
}
