//! A fast hasher for the search tables' exact keys (memos of positions, of sets of placements).
//!
//! std's SipHash resists hash flooding, which a table of our own positions does not need, and it
//! costs more than the look-up it serves. This is rustc's FxHash idea: each 64-bit word is
//! rotated in and multiplied by an odd constant.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The multiply-rotate hasher.
#[derive(Default)]
pub struct FastHasher(u64);

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        // Eight bytes a step (a key of many small integers is hashed as one slice of bytes).
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.write_u64(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(last) ^ (rest.len() as u64) << 59);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A `HashMap` with [`FastHasher`].
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::Hash;

    fn hash<T: Hash + ?Sized>(x: &T) -> u64 {
        let mut h = FastHasher::default();
        x.hash(&mut h);
        h.finish()
    }

    #[test]
    fn keys_that_differ_in_any_byte_or_length_hash_apart() {
        let base: Vec<u16> = (0..37).collect();
        let mut seen = std::collections::HashSet::new();
        assert!(seen.insert(hash(&base)));
        for i in 0..base.len() {
            let mut k = base.clone();
            k[i] ^= 1;
            assert!(seen.insert(hash(&k)), "changing element {i}");
        }
        for n in 0..base.len() {
            assert!(seen.insert(hash(&base[..n])), "length {n}");
        }
        // Trailing zero bytes are told apart from a shorter key.
        assert_ne!(hash(&[1u8, 0][..]), hash(&[1u8][..]));
    }
}
