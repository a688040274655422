//! The model file: `puzzlelab-dqn\n`, a JSON header ([`ModelHeader`]), then the weights; written
//! and read by [`QPolicy`].

use super::{DqnError, QNetworkConfig, QPolicy, TrainingRecord};
use crate::checksum::fnv1a_hex;
use crate::env::Environment;
use burn::tensor::Device;

impl QPolicy {
    /// The model as bytes: `puzzlelab-dqn\n`, the JSON header's length (u32, little-endian), the
    /// header ([`ModelHeader`]), then every parameter as a little-endian `f32` in
    /// [`QNetwork::weights`](super::QNetwork::weights)'s order.
    pub fn to_bytes(&self) -> Vec<u8> {
        let weights = self.network.weights();
        let mut weight_bytes = Vec::with_capacity(weights.len() * 4);
        for w in &weights {
            weight_bytes.extend_from_slice(&w.to_le_bytes());
        }
        let header = ModelHeader {
            format_version: MODEL_FORMAT_VERSION,
            puzzle_id: self.puzzle_id.clone(),
            network: self.network_config.clone(),
            mask_actions: self.mask_actions,
            parameter_count: weights.len(),
            weights_checksum: fnv1a_hex(&weight_bytes),
            training: self.training.clone(),
        };
        let header = serde_json::to_vec(&header).expect("the header serializes");
        let mut out = Vec::with_capacity(MAGIC.len() + 4 + header.len() + weight_bytes.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
        out.extend_from_slice(&header);
        out.extend_from_slice(&weight_bytes);
        out
    }

    /// Reads a model written by [`QPolicy::to_bytes`]; damaged bytes or another format version
    /// are an error. Use [`QPolicy::check_fits`] before playing an environment.
    pub fn from_bytes(bytes: &[u8], device: &Device) -> Result<QPolicy, DqnError> {
        let corrupt = |why: &str| DqnError::Corrupt(why.to_string());
        let rest = bytes.strip_prefix(MAGIC).ok_or(DqnError::NotAModel)?;
        if rest.len() < 4 {
            return Err(corrupt("it ends before its header"));
        }
        let (length, rest) = rest.split_at(4);
        let length = u32::from_le_bytes(length.try_into().expect("four bytes")) as usize;
        if rest.len() < length {
            return Err(corrupt("it ends inside its header"));
        }
        let (header, weight_bytes) = rest.split_at(length);
        // The version first, so that a future header reads as "unsupported", not "corrupt".
        let json: serde_json::Value = serde_json::from_slice(header)
            .map_err(|e| DqnError::Corrupt(format!("the header is not JSON: {e}")))?;
        let version = json.get("formatVersion").and_then(|v| v.as_u64());
        match version {
            Some(v) if v == MODEL_FORMAT_VERSION as u64 => {}
            Some(found) => {
                return Err(DqnError::UnsupportedVersion {
                    found,
                    supported: MODEL_FORMAT_VERSION as u64,
                })
            }
            None => return Err(corrupt("the header has no format version")),
        }
        let header: ModelHeader = serde_json::from_value(json)
            .map_err(|e| DqnError::Corrupt(format!("the header does not parse: {e}")))?;
        let expected = header.network.checked_num_params().map_err(|why| {
            DqnError::Corrupt(format!("the header describes no usable network: {why}"))
        })?;
        if header.parameter_count != expected {
            return Err(DqnError::Corrupt(format!(
                "the header announces {} parameters for a network that has {expected}",
                header.parameter_count
            )));
        }
        if weight_bytes.len() != expected * 4 {
            return Err(DqnError::Corrupt(format!(
                "{} bytes of weights where {expected} parameters need {}",
                weight_bytes.len(),
                expected * 4
            )));
        }
        if fnv1a_hex(weight_bytes) != header.weights_checksum {
            return Err(corrupt("the weights do not match their checksum"));
        }
        let weights: Vec<f32> = weight_bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().expect("four bytes")))
            .collect();
        if weights.iter().any(|w| !w.is_finite()) {
            return Err(corrupt("a weight is not a finite number"));
        }
        let device = device.clone().without_autodiff();
        Ok(QPolicy {
            network: header.network.from_weights(&weights, &device),
            network_config: header.network,
            puzzle_id: header.puzzle_id,
            mask_actions: header.mask_actions,
            device,
            training: header.training,
            sparse_input: Default::default(),
        })
    }

    /// The weighted mean of `models`' weights, each model counting in proportion to its share:
    /// weight averaging of models trained on from one ancestor, which lands between their
    /// solutions in one basin of the loss ("model soups", Wortsman et al. 2022; stochastic weight
    /// averaging, Izmailov et al. 2018). The models must play the same puzzle with the same
    /// network; the first one's training record is kept.
    pub fn average(models: &[(QPolicy, f64)]) -> Result<QPolicy, DqnError> {
        let invalid = |why: String| Err(DqnError::InvalidSetup(why));
        let Some((first, _)) = models.first() else {
            return invalid("no model to average".into());
        };
        if models
            .iter()
            .any(|(_, share)| !(share.is_finite() && *share > 0.0))
        {
            return invalid("each model's share must be a positive number".into());
        }
        let total: f64 = models.iter().map(|(_, share)| share).sum();
        let mut sum = vec![0.0f64; first.network_config.num_params()];
        for (model, share) in models {
            if model.puzzle_id != first.puzzle_id
                || model.network_config != first.network_config
                || model.mask_actions != first.mask_actions
            {
                return invalid(format!(
                    "only models of one puzzle and network average: \"{}\" with {:?} and \"{}\" with {:?}",
                    first.puzzle_id, first.network_config.hidden, model.puzzle_id, model.network_config.hidden
                ));
            }
            for (s, w) in sum.iter_mut().zip(model.network.weights()) {
                *s += share / total * f64::from(w);
            }
        }
        let weights: Vec<f32> = sum.into_iter().map(|w| w as f32).collect();
        Ok(QPolicy {
            network: first.network_config.from_weights(&weights, &first.device),
            network_config: first.network_config.clone(),
            puzzle_id: first.puzzle_id.clone(),
            mask_actions: first.mask_actions,
            device: first.device.clone(),
            training: first.training.clone(),
            sparse_input: Default::default(),
        })
    }

    /// Writes [`QPolicy::to_bytes`] to a file.
    pub fn save(&self, path: impl AsRef<std::path::Path>) -> Result<(), DqnError> {
        std::fs::write(path, self.to_bytes())?;
        Ok(())
    }

    /// Reads a file written by [`QPolicy::save`] and checks that it fits `env`.
    pub fn load_for<E: Environment>(
        path: impl AsRef<std::path::Path>,
        env: &E,
        device: &Device,
    ) -> Result<QPolicy, DqnError> {
        let policy = QPolicy::from_bytes(&std::fs::read(path)?, device)?;
        policy.check_fits(env)?;
        Ok(policy)
    }
}

/// The version of the model format [`QPolicy::to_bytes`] writes.
pub const MODEL_FORMAT_VERSION: u32 = 1;

/// The first bytes of every model file.
const MAGIC: &[u8] = b"puzzlelab-dqn\n";

/// The JSON header of a saved model.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelHeader {
    /// [`MODEL_FORMAT_VERSION`] when written.
    pub format_version: u32,
    /// The puzzle it plays ([`Environment::puzzle_id`]).
    pub puzzle_id: String,
    /// The network's shape.
    pub network: QNetworkConfig,
    /// Whether it was trained (and plays) with illegal actions masked.
    pub mask_actions: bool,
    /// Parameters that follow the header.
    pub parameter_count: usize,
    /// FNV-1a (64-bit) of the weight bytes, in hexadecimal (a JSON number would lose bits).
    pub weights_checksum: String,
    /// How it was trained, when known.
    #[serde(default)]
    pub training: Option<TrainingRecord>,
}
