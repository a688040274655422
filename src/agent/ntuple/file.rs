//! The n-tuple network file: magic, version, tuple set, precision (f32 for checkpoints, f16 times
//! a scale for shipping), games trained, weights and an FNV-1a checksum; the f16 conversion.

use super::{NTupleNetwork, TupleSet};
use crate::checksum::fnv1a;

/// Why a saved network cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NTupleFileError {
    /// Wrong magic bytes.
    #[error("this is not a puzzlelab 2048 n-tuple network file")]
    NotANetwork,
    /// Another format version.
    #[error(
        "the n-tuple network file has format version {found}; this build reads version {expected}"
    )]
    Version {
        /// Version in the file.
        found: u8,
        /// Version this build reads.
        expected: u8,
    },
    /// The tuple set is not one this build knows, or its cells differ from this build's.
    #[error("the n-tuple network file uses a tuple set this build does not know ({0})")]
    UnknownTupleSet(String),
    /// Checksum, length or structure wrong.
    #[error("the n-tuple network file is damaged (its checksum or length is wrong)")]
    Corrupt,
}

/// Magic bytes at the start of a network file. The format (version [`FILE_VERSION`]), all
/// numbers little-endian:
///
/// ```text
/// magic "PZL2048N" | version u8 | tuple set id u8 | tuple count u8 | per tuple: length u8, cells
/// | precision u8 (4 = f32, 2 = f16) | scale f32 (f16 only: stored × scale = weight)
/// | games trained u64 | weights (tuple by tuple, index = Σ exponent(cellₖ)·16^k)
/// | checksum u64 (FNV-1a of everything before it)
/// ```
pub const FILE_MAGIC: &[u8; 8] = b"PZL2048N";
/// The file format version this build reads and writes.
pub const FILE_VERSION: u8 = 1;

/// How weights are stored in a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Precision {
    /// 32-bit floats: exact (checkpoints, resuming).
    #[serde(rename = "f32")]
    F32,
    /// 16-bit floats times a scale: half the size, ~3 significant digits (shipping).
    #[serde(rename = "f16")]
    F16,
}

/// f32 → IEEE half, rounding to nearest even (values beyond ±65504 become ±infinity).
fn f32_to_f16(x: f32) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exponent = ((bits >> 23) & 0xFF) as i32;
    let mantissa = bits & 0x7F_FFFF;
    if exponent == 0xFF {
        return sign | 0x7C00 | if mantissa != 0 { 0x200 } else { 0 };
    }
    let e = exponent - 127 + 15;
    if e >= 31 {
        return sign | 0x7C00;
    }
    let round = |value: u32, shift: u32| {
        let kept = value >> shift;
        let rest = value & ((1 << shift) - 1);
        let half = 1 << (shift - 1);
        if rest > half || (rest == half && kept & 1 == 1) {
            kept + 1
        } else {
            kept
        }
    };
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        return sign | round(mantissa | 0x80_0000, (14 - e) as u32) as u16;
    }
    // A carry out of the mantissa correctly bumps the exponent.
    sign | round(((e as u32) << 23) | mantissa, 13) as u16
}

/// IEEE half → f32 (exact).
fn f16_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = ((h >> 10) & 0x1F) as i32;
    let mantissa = (h & 0x3FF) as f32;
    match exponent {
        0 => sign * mantissa * (2f32).powi(-24),
        31 => {
            if mantissa == 0.0 {
                sign * f32::INFINITY
            } else {
                f32::NAN
            }
        }
        _ => sign * (1.0 + mantissa / 1024.0) * (2f32).powi(exponent - 15),
    }
}

impl NTupleNetwork {
    /// Serialises the network (format in [`FILE_MAGIC`]'s documentation).
    pub fn to_bytes(&self, precision: Precision) -> Vec<u8> {
        let width = match precision {
            Precision::F32 => 4,
            Precision::F16 => 2,
        };
        let mut out = Vec::with_capacity(64 + self.weights.len() * width);
        out.extend_from_slice(FILE_MAGIC);
        out.push(FILE_VERSION);
        out.push(self.set.id());
        let tuples = self.set.tuples();
        out.push(tuples.len() as u8);
        for tuple in &tuples {
            out.push(tuple.len() as u8);
            out.extend_from_slice(tuple);
        }
        out.push(width as u8);
        let largest = self.weights.iter().fold(0f32, |m, w| m.max(w.abs()));
        // Keep f16 values under 60,000 (its largest finite value is 65,504).
        let scale = (largest / 60_000.0).max(1.0);
        out.extend_from_slice(&scale.to_le_bytes());
        out.extend_from_slice(&self.games_trained.to_le_bytes());
        match precision {
            Precision::F32 => {
                for w in &self.weights {
                    out.extend_from_slice(&w.to_le_bytes());
                }
            }
            Precision::F16 => {
                for w in &self.weights {
                    out.extend_from_slice(&f32_to_f16(w / scale).to_le_bytes());
                }
            }
        }
        let checksum = fnv1a(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Reads a network written by [`NTupleNetwork::to_bytes`] (not gzip: unpack first),
    /// refusing other files, other versions, unknown tuple sets and damaged files.
    pub fn from_bytes(bytes: &[u8]) -> Result<NTupleNetwork, NTupleFileError> {
        if bytes.len() < FILE_MAGIC.len() + 8 || &bytes[..FILE_MAGIC.len()] != FILE_MAGIC {
            return Err(NTupleFileError::NotANetwork);
        }
        let (body, checksum) = bytes.split_at(bytes.len() - 8);
        let mut at = FILE_MAGIC.len();
        let mut take = |count: usize| -> Result<&[u8], NTupleFileError> {
            let slice = body.get(at..at + count).ok_or(NTupleFileError::Corrupt)?;
            at += count;
            Ok(slice)
        };
        let version = take(1)?[0];
        if version != FILE_VERSION {
            return Err(NTupleFileError::Version {
                found: version,
                expected: FILE_VERSION,
            });
        }
        if fnv1a(body) != u64::from_le_bytes(checksum.try_into().expect("8 bytes")) {
            return Err(NTupleFileError::Corrupt);
        }
        let id = take(1)?[0];
        let count = take(1)?[0] as usize;
        let mut tuples = Vec::with_capacity(count);
        for _ in 0..count {
            let len = take(1)?[0] as usize;
            tuples.push(take(len)?.to_vec());
        }
        let set = TupleSet::from_id(id)
            .filter(|s| s.tuples() == tuples)
            .ok_or_else(|| NTupleFileError::UnknownTupleSet(format!("id {id}, {tuples:?}")))?;
        let width = take(1)?[0] as usize;
        let scale = f32::from_le_bytes(take(4)?.try_into().expect("4 bytes"));
        let games_trained = u64::from_le_bytes(take(8)?.try_into().expect("8 bytes"));
        let mut network = NTupleNetwork::new(set);
        network.games_trained = games_trained;
        let data = take(network.weights.len() * width)?;
        match width {
            4 => {
                for (w, b) in network.weights.iter_mut().zip(data.chunks_exact(4)) {
                    *w = f32::from_le_bytes(b.try_into().expect("4 bytes"));
                }
            }
            2 => {
                for (w, b) in network.weights.iter_mut().zip(data.chunks_exact(2)) {
                    *w = f16_to_f32(u16::from_le_bytes([b[0], b[1]])) * scale;
                }
            }
            _ => return Err(NTupleFileError::Corrupt),
        }
        if take(1).is_ok() {
            return Err(NTupleFileError::Corrupt);
        }
        Ok(network)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::ntuple::td::trained;

    #[test]
    fn half_floats_round_trip_within_their_precision() {
        for x in [0.0f32, 1.0, -2.5, 0.1, 1234.567, -60000.0, 1e-6, 3e-8] {
            let y = f16_to_f32(f32_to_f16(x));
            assert!((y - x).abs() <= x.abs() / 1024.0 + 6e-8, "{x} → {y}");
        }
        assert_eq!(f16_to_f32(f32_to_f16(65504.0)), 65504.0);
    }

    #[test]
    fn save_then_load_gives_identical_values_and_damage_is_refused() {
        let network = trained(TupleSet::FiveFourTuples, 30);
        let bytes = network.to_bytes(Precision::F32);
        let loaded = NTupleNetwork::from_bytes(&bytes).unwrap();
        assert_eq!(loaded.weights(), network.weights());
        assert_eq!(loaded.games_trained(), 30);
        let half = NTupleNetwork::from_bytes(&network.to_bytes(Precision::F16)).unwrap();
        for (a, b) in half.weights().iter().zip(network.weights()) {
            assert!((a - b).abs() <= b.abs() / 1000.0 + 1e-3);
        }
        // Saving what was loaded gives the same bytes (a stable format).
        assert_eq!(loaded.to_bytes(Precision::F32), bytes);

        let mut damaged = bytes.clone();
        damaged[bytes.len() / 2] ^= 0x40;
        assert_eq!(
            NTupleNetwork::from_bytes(&damaged).unwrap_err(),
            NTupleFileError::Corrupt
        );
        assert_eq!(
            NTupleNetwork::from_bytes(&bytes[..bytes.len() - 100]).unwrap_err(),
            NTupleFileError::Corrupt
        );
        assert_eq!(
            NTupleNetwork::from_bytes(b"PZLPDB not this").unwrap_err(),
            NTupleFileError::NotANetwork
        );
        let mut other_version = bytes.clone();
        other_version[8] = 9;
        assert!(matches!(
            NTupleNetwork::from_bytes(&other_version),
            Err(NTupleFileError::Version { found: 9, .. })
        ));
    }
}
