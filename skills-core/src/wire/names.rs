//! The index from a skill's listed name to its place in the catalog, which
//! the compiler writes into the bundle (see the `layout` module) so a
//! reader looks a name up without building anything.
//!
//! Two shapes. Usually an open-addressing hash table: a power of two of
//! slots, at least twice the names, each the skill's index plus one (zero
//! for empty), probed linearly from the name's seeded hash; a lookup
//! touches one slot and, almost always, one name. The hash is easy to
//! steer, so the compiler bounds every name's probe run by [`MAX_RUN`],
//! trying seeds in turn; when no seed does (names made to collide), the
//! indices sorted by name, for a binary search. Building costs O(n) probes
//! (or O(n log n) comparisons), a lookup O([`MAX_RUN`]) or O(log n),
//! whatever the names.

use alloc::vec;
use alloc::vec::Vec;

use crate::wire::postcard::{Reader, Sink, WireError, WireErrorKind, entry, put_table, put_varint};

/// The longest probe run from a name's home slot to its own slot. Ordinary
/// names, at a load of one half, need a few; a table needing more for some
/// name is built again with the next seed.
pub(crate) const MAX_RUN: usize = 128;

/// Why names cannot be indexed, or an index is not theirs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum IndexError {
    /// A name is given twice.
    Duplicate(alloc::string::String),
    /// The index is not the one [`Index::build`] makes for the names.
    Bad,
}

/// How many seeds the compiler tries before it sorts.
const SEEDS: u32 = 8;

/// The name's hash under `seed`: the bytes taken eight at a time as
/// little-endian words (the last one padded with zeros, the length mixed
/// in first so padding cannot collide), each folded in with a rotate, an
/// exclusive or and a multiply, then mixed (the 64-bit finaliser of
/// MurmurHash3) so the low bits a slot takes depend on every byte. A
/// word at a time, so a name of 20 bytes costs three multiplies rather
/// than twenty: the hash is on every call's path.
pub(crate) fn hash(seed: u32, name: &str) -> u32 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let bytes = name.as_bytes();
    let fold = |h: u64, word: u64| (h.rotate_left(5) ^ word).wrapping_mul(K);
    let mut h = fold(u64::from(seed) ^ 0x243f_6a88_85a3_08d3, bytes.len() as u64);
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        h = fold(
            h,
            u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]),
        );
    }
    let rest = words.remainder();
    if !rest.is_empty() {
        // The little-endian word of the last bytes, zeros above (built in
        // a register: copying into a buffer costs a call and a stall).
        let last = rest
            .iter()
            .rev()
            .fold(0u64, |word, &byte| (word << 8) | u64::from(byte));
        h = fold(h, last);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^= h >> 33;
    h as u32
}

/// The number of slots of a hashed table for `count` names.
pub(crate) fn slots_for(count: usize) -> Option<usize> {
    match count {
        0 => Some(0),
        n => n.checked_mul(2)?.checked_next_power_of_two(),
    }
}

/// An index as read from a bundle (borrowing its table) or as built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Index<'a> {
    /// Slots of little-endian `u32`: 0 empty, else index + 1.
    Hashed {
        /// The seed of the hash.
        seed: u32,
        /// `slots_for(count)` slots, 4 bytes each.
        slots: Table<'a>,
    },
    /// Indices in the byte order of their names, 4 bytes each.
    Sorted {
        /// `count` indices.
        order: Table<'a>,
    },
}

/// A table of `u32`: borrowed little-endian bytes, or built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Table<'a> {
    /// Read from a bundle.
    Bytes(&'a [u8]),
    /// Built by [`Index::build`].
    Built(Vec<u32>),
}

impl Table<'_> {
    pub(crate) fn get(&self, at: usize) -> usize {
        match self {
            Table::Bytes(bytes) => entry(bytes, at),
            Table::Built(values) => values.get(at).map_or(0, |&v| v as usize),
        }
    }

    fn len(&self) -> usize {
        match self {
            Table::Bytes(bytes) => bytes.len() / 4,
            Table::Built(values) => values.len(),
        }
    }

    fn values(&self) -> Vec<u32> {
        (0..self.len()).map(|at| self.get(at) as u32).collect()
    }
}

impl<'a> Index<'a> {
    /// Indexes `count` names (`name(i)` for `i` in `0..count`), refusing a
    /// name given twice.
    pub(crate) fn build<'n>(
        count: usize,
        name: impl Fn(usize) -> &'n str,
    ) -> Result<Index<'static>, IndexError> {
        for seed in 0..SEEDS {
            if let Some(slots) = hashed(seed, count, &name)? {
                return Ok(Index::Hashed {
                    seed,
                    slots: Table::Built(slots),
                });
            }
        }
        sorted(count, &name).map(|order| Index::Sorted {
            order: Table::Built(order),
        })
    }

    /// Reads an index written by [`encode`](Self::encode) for `count`
    /// names, checking its table's length.
    pub(crate) fn decode(reader: &mut Reader<'a>, count: usize) -> Result<Self, WireError> {
        let bad = WireError {
            kind: WireErrorKind::BadTable,
            offset: 0,
        };
        Ok(match reader.variant(2)? {
            0 => {
                let seed = reader.take(4)?;
                let seed = u32::from_le_bytes([seed[0], seed[1], seed[2], seed[3]]);
                let slots = reader.bytes()?;
                if slots_for(count).and_then(|n| n.checked_mul(4)) != Some(slots.len()) {
                    return Err(bad);
                }
                Index::Hashed {
                    seed,
                    slots: Table::Bytes(slots),
                }
            }
            _ => {
                let order = reader.bytes()?;
                if count.checked_mul(4) != Some(order.len()) {
                    return Err(bad);
                }
                Index::Sorted {
                    order: Table::Bytes(order),
                }
            }
        })
    }

    /// Writes the index: its kind, the seed, the table.
    pub(crate) fn encode(&self, out: &mut dyn Sink) {
        match self {
            Index::Hashed { seed, slots } => {
                put_varint(out, 0);
                out.put(&seed.to_le_bytes());
                put_table(out, &slots.values());
            }
            Index::Sorted { order } => {
                put_varint(out, 1);
                put_table(out, &order.values());
            }
        }
    }

    /// The number of slots of a hashed index (0 for a sorted one).
    #[cfg_attr(not(feature = "catalog"), allow(dead_code))]
    pub(crate) fn slots(&self) -> usize {
        match self {
            Index::Hashed { slots, .. } => slots.len(),
            Index::Sorted { .. } => 0,
        }
    }

    /// For a hashed index, the hash of `wanted`, its home slot and the
    /// mask that wraps a probe; `None` for a sorted or an empty one.
    #[cfg_attr(not(feature = "catalog"), allow(dead_code))]
    pub(crate) fn home(&self, wanted: &str) -> Option<(u32, usize, usize)> {
        match self {
            Index::Hashed { seed, slots } => {
                let mask = slots.len().checked_sub(1)?;
                let hash = hash(*seed, wanted);
                Some((hash, hash as usize & mask, mask))
            }
            Index::Sorted { .. } => None,
        }
    }

    /// The index of `wanted` among the `count` names, if the table finds it.
    #[cfg_attr(not(feature = "catalog"), allow(dead_code))]
    pub(crate) fn find<'n>(
        &self,
        wanted: &str,
        count: usize,
        name: impl Fn(usize) -> &'n str,
    ) -> Option<usize> {
        self.find_slot(wanted, count, name).map(|(index, _)| index)
    }

    /// [`find`](Self::find), with the slot of a hashed index the name was
    /// found in.
    #[cfg_attr(not(feature = "catalog"), allow(dead_code))]
    pub(crate) fn find_slot<'n>(
        &self,
        wanted: &str,
        count: usize,
        name: impl Fn(usize) -> &'n str,
    ) -> Option<(usize, Option<usize>)> {
        match self {
            Index::Hashed { slots, .. } => {
                let (_, mut at, mask) = self.home(wanted)?;
                for _ in 0..=MAX_RUN {
                    let index = slots.get(at).checked_sub(1)?;
                    if index < count && name(index) == wanted {
                        return Some((index, Some(at)));
                    }
                    at = (at + 1) & mask;
                }
                None
            }
            Index::Sorted { order } => {
                let (mut low, mut high) = (0, order.len().min(count));
                while low < high {
                    let mid = low + (high - low) / 2;
                    let index = order.get(mid);
                    match name(index).cmp(wanted) {
                        core::cmp::Ordering::Less => low = mid + 1,
                        core::cmp::Ordering::Greater => high = mid,
                        core::cmp::Ordering::Equal => {
                            return (index < count).then_some((index, None));
                        }
                    }
                }
                None
            }
        }
    }

    /// Checks that this index is the one [`build`](Self::build) makes for
    /// the names with this seed (or a sorted order of all of them): then it
    /// finds every name at its place, and no name is listed twice.
    pub(crate) fn check<'n>(
        &self,
        count: usize,
        name: impl Fn(usize) -> &'n str,
    ) -> Result<(), IndexError> {
        let bad = || IndexError::Bad;
        match self {
            Index::Hashed { seed, slots } => {
                let built = hashed(*seed, count, &name)?.ok_or_else(bad)?;
                if built.len() != slots.len()
                    || built
                        .iter()
                        .enumerate()
                        .any(|(at, &v)| slots.get(at) != v as usize)
                {
                    return Err(bad());
                }
                Ok(())
            }
            Index::Sorted { order } => {
                if order.len() != count {
                    return Err(bad());
                }
                for at in 0..count {
                    let index = order.get(at);
                    if index >= count {
                        return Err(bad());
                    }
                    if at > 0 {
                        let previous = name(order.get(at - 1));
                        match previous.cmp(name(index)) {
                            core::cmp::Ordering::Less => {}
                            core::cmp::Ordering::Equal => {
                                return Err(IndexError::Duplicate(name(index).into()));
                            }
                            core::cmp::Ordering::Greater => return Err(bad()),
                        }
                    }
                }
                Ok(())
            }
        }
    }
}

/// The hash table with `seed`, or `None` when some name would sit more
/// than [`MAX_RUN`] slots past its home.
fn hashed<'n>(
    seed: u32,
    count: usize,
    name: &impl Fn(usize) -> &'n str,
) -> Result<Option<Vec<u32>>, IndexError> {
    let Some(capacity) = slots_for(count) else {
        return Ok(None);
    };
    if u32::try_from(count).is_err() {
        return Ok(None);
    }
    let mut slots = vec![0u32; capacity];
    let mask = capacity.wrapping_sub(1);
    for index in 0..count {
        let wanted = name(index);
        let mut at = hash(seed, wanted) as usize & mask;
        let mut probes = 0;
        loop {
            let slot = slots[at] as usize;
            if slot == 0 {
                slots[at] = index as u32 + 1;
                break;
            }
            if name(slot - 1) == wanted {
                return Err(IndexError::Duplicate(wanted.into()));
            }
            probes += 1;
            if probes > MAX_RUN {
                return Ok(None);
            }
            at = (at + 1) & mask;
        }
    }
    Ok(Some(slots))
}

/// The indices sorted by name; a repeated name sits beside its twin.
fn sorted<'n>(count: usize, name: &impl Fn(usize) -> &'n str) -> Result<Vec<u32>, IndexError> {
    let mut order: Vec<u32> = (0..count as u32).collect();
    // Stable, so of two equal names the first given comes first.
    order.sort_by(|&a, &b| name(a as usize).cmp(name(b as usize)));
    if let Some(pair) = order
        .windows(2)
        .find(|pair| name(pair[0] as usize) == name(pair[1] as usize))
    {
        return Err(IndexError::Duplicate(name(pair[1] as usize).into()));
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::String;

    #[test]
    fn finds_every_name_and_nothing_else() {
        let names: Vec<String> = (0..1000).map(|i| format!("skill-{i}")).collect();
        let index = Index::build(names.len(), |i| &names[i]).unwrap();
        assert!(matches!(index, Index::Hashed { seed: 0, .. }));
        for (i, name) in names.iter().enumerate() {
            assert_eq!(index.find(name, names.len(), |j| &names[j]), Some(i));
        }
        assert_eq!(index.find("skill-1000", names.len(), |j| &names[j]), None);
        assert_eq!(index.find("", names.len(), |j| &names[j]), None);
        assert_eq!(index.check(names.len(), |j| &names[j]), Ok(()));
    }

    /// The hash decides where the compiler puts each name, so it is part
    /// of the format: pinned here.
    #[test]
    fn the_hash_is_pinned_and_sees_every_byte() {
        let pins = [
            hash(0, ""),
            hash(0, "pdf"),
            hash(1, "pdf"),
            hash(0, "git-rebase"),
            hash(0, "a-skill-name-of-twenty"),
        ];
        assert_eq!(
            pins,
            [
                0x0692_b575,
                0x1fec_5211,
                0x50f8_47d9,
                0x5e58_42e6,
                0x5045_18e9
            ],
            "{pins:#x?}"
        );
        // Padding and length: a trailing zero byte is another name.
        assert_ne!(hash(0, "a"), hash(0, "a\0"));
        assert_ne!(hash(0, "abcdefgh"), hash(0, "abcdefgh\0"));
        assert_ne!(hash(0, "abcdefgh1"), hash(0, "abcdefgh2"));
    }

    #[test]
    fn refuses_a_name_given_twice() {
        let names = ["a", "b", "a"];
        assert_eq!(
            Index::build(3, |i| names[i]),
            Err(IndexError::Duplicate("a".into()))
        );
    }

    /// Names whose home slots under every seed tried fall in the first
    /// slot: found by search, a few hundred names.
    fn crowded(len: usize) -> Vec<String> {
        let mask = slots_for(len).unwrap() - 1;
        (0u64..)
            .map(|i| format!("n{i:x}"))
            .filter(|name| (0..2).all(|seed| hash(seed, name) as usize & mask < 8))
            .take(len)
            .collect()
    }

    #[test]
    fn crowded_names_move_to_another_seed_and_are_all_found() {
        let names = crowded(300);
        let index = Index::build(names.len(), |i| &names[i]).unwrap();
        assert!(
            !matches!(index, Index::Hashed { seed: 0 | 1, .. }),
            "{index:?}"
        );
        for (i, name) in names.iter().enumerate() {
            assert_eq!(index.find(name, names.len(), |j| &names[j]), Some(i));
        }
        assert_eq!(index.find("absent", names.len(), |j| &names[j]), None);
        assert_eq!(index.check(names.len(), |j| &names[j]), Ok(()));
    }

    #[test]
    fn sorted_indices_find_and_check() {
        let names = ["c", "a", "b"];
        let index = Index::Sorted {
            order: Table::Built(sorted(3, &|i| names[i]).unwrap()),
        };
        assert_eq!(index.find("a", 3, |i| names[i]), Some(1));
        assert_eq!(index.find("d", 3, |i| names[i]), None);
        assert_eq!(index.check(3, |i| names[i]), Ok(()));
        let wrong = Index::Sorted {
            order: Table::Built(vec![0, 1, 2]),
        };
        assert_eq!(wrong.check(3, |i| names[i]), Err(IndexError::Bad));
        let twice = ["a", "a"];
        let index = Index::Sorted {
            order: Table::Built(vec![0, 1]),
        };
        assert!(matches!(
            index.check(2, |i| twice[i]),
            Err(IndexError::Duplicate(_))
        ));
    }

    #[test]
    fn ordinary_names_keep_the_first_seed() {
        let names: Vec<String> = (0..100_000).map(|i| format!("skill-{i}")).collect();
        let index = Index::build(names.len(), |i| &names[i]).unwrap();
        assert!(matches!(index, Index::Hashed { seed: 0, .. }));
    }

    #[test]
    fn an_empty_index_finds_nothing() {
        let index = Index::build(0, |_| "").unwrap();
        assert_eq!(index.find("x", 0, |_| "x"), None);
        assert_eq!(index.check(0, |_| ""), Ok(()));
    }

    #[test]
    fn a_hostile_table_is_bounded_and_refused() {
        // Every slot claims skill 0: lookups of other names stop after
        // MAX_RUN probes; check refuses it.
        let names = ["a", "b"];
        let bytes: Vec<u8> = (0..4).flat_map(|_| 1u32.to_le_bytes()).collect();
        let index = Index::Hashed {
            seed: 0,
            slots: Table::Bytes(&bytes),
        };
        assert_eq!(index.find("b", 2, |i| names[i]), None);
        assert_eq!(index.check(2, |i| names[i]), Err(IndexError::Bad));
        // Indices past the count are never served.
        let bytes: Vec<u8> = (0..4).flat_map(|_| 9u32.to_le_bytes()).collect();
        let index = Index::Hashed {
            seed: 0,
            slots: Table::Bytes(&bytes),
        };
        assert_eq!(index.find("a", 2, |i| names[i]), None);
    }
}
