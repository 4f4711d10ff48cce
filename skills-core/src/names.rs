//! The table from a skill's listed name to its place in the catalog.
//!
//! A call looks its skill up by name. With a thousand skills spread over
//! megabytes of bundle, a binary search compares the wanted name against
//! ten names in ten different places; this open-addressing table compares
//! a 32-bit hash first and reads a name only when the hashes agree, so a
//! lookup touches one slot and, almost always, one name.

use alloc::vec;
use alloc::vec::Vec;

use crate::bundle::BundleError;

/// Slot contents: the name's hash and the skill's index plus one (zero
/// marks an empty slot).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Slot {
    hash: u32,
    index_plus_one: usize,
}

/// The longest run of occupied slots a hashed table may hold. Ordinary
/// names, at the table's load of one half, make runs of a few slots; names
/// crafted to share slots make runs of thousands, and then every insertion
/// and every lookup walks one. A table with a longer run is given up for a
/// sorted list, so a lookup never reads more than this many slots.
const MAX_RUN: usize = 128;

/// Names to catalog indices; built once, read by every call.
///
/// Two shapes, chosen when the table is built: an open-addressing hash
/// table (the usual one), or, when the names collide more than ordinary
/// names ever do (a bundle made to slow its reader down), the indices
/// sorted by name for a binary search. Building costs O(n) slot probes or
/// O(n log n) comparisons, a lookup O([`MAX_RUN`]) or O(log n), whatever
/// the names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum NameIndex {
    /// Open addressing with linear probing; no run longer than [`MAX_RUN`].
    Hashed {
        /// A power of two in length, at most half full.
        slots: Vec<Slot>,
    },
    /// Skill indices in the byte order of their names.
    Sorted {
        /// Every index once.
        order: Vec<usize>,
    },
}

impl Default for NameIndex {
    fn default() -> Self {
        NameIndex::Hashed { slots: Vec::new() }
    }
}

/// FNV-1a over the name's bytes. Easy to steer, which is why the table
/// bounds its runs rather than trusting the hash.
fn hash(name: &str) -> u32 {
    name.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

impl NameIndex {
    /// Indexes `len` names (`name(i)` for `i` in `0..len`), refusing a name
    /// given twice.
    pub(crate) fn build<'n>(
        len: usize,
        name: impl Fn(usize) -> &'n str,
    ) -> Result<Self, BundleError> {
        match Self::hashed(len, &name)? {
            Some(index) => Ok(index),
            None => Self::sorted(len, &name),
        }
    }

    /// The hash table, or `None` when some run of occupied slots would
    /// grow past [`MAX_RUN`].
    fn hashed<'n>(
        len: usize,
        name: &impl Fn(usize) -> &'n str,
    ) -> Result<Option<Self>, BundleError> {
        let capacity = len
            .saturating_mul(2)
            .max(1)
            .checked_next_power_of_two()
            .unwrap_or(usize::MAX / 2 + 1);
        let mut slots = vec![Slot::default(); capacity];
        let mask = capacity - 1;
        for index in 0..len {
            let wanted = name(index);
            let h = hash(wanted);
            let mut at = h as usize & mask;
            let mut probes = 0;
            loop {
                let slot = slots[at];
                if slot.index_plus_one == 0 {
                    slots[at] = Slot {
                        hash: h,
                        index_plus_one: index + 1,
                    };
                    break;
                }
                if slot.hash == h && name(slot.index_plus_one - 1) == wanted {
                    return Err(BundleError::DuplicateSkill {
                        name: wanted.into(),
                    });
                }
                probes += 1;
                if probes > MAX_RUN {
                    return Ok(None);
                }
                at = (at + 1) & mask;
            }
        }
        // Short probes can still leave a long run (names whose home slots
        // are adjacent); a lookup of a missing name would walk all of it.
        if longest_run(&slots) > MAX_RUN {
            return Ok(None);
        }
        Ok(Some(NameIndex::Hashed { slots }))
    }

    /// The indices sorted by name; a repeated name sits beside its twin.
    fn sorted<'n>(len: usize, name: &impl Fn(usize) -> &'n str) -> Result<Self, BundleError> {
        let mut order: Vec<usize> = (0..len).collect();
        // Stable, so of two equal names the first given comes first.
        order.sort_by(|&a, &b| name(a).cmp(name(b)));
        if let Some(pair) = order.windows(2).find(|pair| name(pair[0]) == name(pair[1])) {
            return Err(BundleError::DuplicateSkill {
                name: name(pair[1]).into(),
            });
        }
        Ok(NameIndex::Sorted { order })
    }

    /// The index of `wanted`, if it is one of the names.
    #[cfg_attr(not(feature = "catalog"), allow(dead_code))]
    pub(crate) fn find<'n>(&self, wanted: &str, name: impl Fn(usize) -> &'n str) -> Option<usize> {
        let slots = match self {
            NameIndex::Sorted { order } => {
                let at = order
                    .binary_search_by(|&index| name(index).cmp(wanted))
                    .ok()?;
                return order.get(at).copied();
            }
            NameIndex::Hashed { slots } => slots,
        };
        let mask = slots.len().checked_sub(1)?;
        let h = hash(wanted);
        let mut at = h as usize & mask;
        // No run is longer than `MAX_RUN`, so an empty slot comes soon.
        for _ in 0..=MAX_RUN {
            let slot = slots.get(at)?;
            if slot.index_plus_one == 0 {
                return None;
            }
            let index = slot.index_plus_one - 1;
            if slot.hash == h && name(index) == wanted {
                return Some(index);
            }
            at = (at + 1) & mask;
        }
        None
    }
}

/// The longest run of occupied slots, wrapping around the end.
fn longest_run(slots: &[Slot]) -> usize {
    let occupied = |slot: &Slot| slot.index_plus_one != 0;
    // Start counting after an empty slot, so a run across the end is one.
    let Some(empty) = slots.iter().position(|slot| !occupied(slot)) else {
        return slots.len();
    };
    let (mut longest, mut run) = (0, 0);
    for offset in 1..=slots.len() {
        if occupied(&slots[(empty + offset) % slots.len()]) {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    longest
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::String;

    #[test]
    fn finds_every_name_and_nothing_else() {
        let names: Vec<String> = (0..1000).map(|i| format!("skill-{i}")).collect();
        let index = NameIndex::build(names.len(), |i| &names[i]).unwrap();
        for (i, name) in names.iter().enumerate() {
            assert_eq!(index.find(name, |j| &names[j]), Some(i));
        }
        assert_eq!(index.find("skill-1000", |j| &names[j]), None);
        assert_eq!(index.find("", |j| &names[j]), None);
    }

    #[test]
    fn refuses_a_name_given_twice() {
        let names = ["a", "b", "a"];
        assert_eq!(
            NameIndex::build(3, |i| names[i]),
            Err(BundleError::DuplicateSkill { name: "a".into() })
        );
    }

    /// Names whose home slots all fall in the first half of the table:
    /// one run of every name, which makes probing quadratic.
    fn crowded(len: usize) -> Vec<String> {
        let half = len; // the table holds `2 * len` slots
        (0u64..)
            .map(|i| format!("n{i:x}"))
            .filter(|name| (hash(name) as usize) & (2 * len - 1) < half)
            .take(len)
            .collect()
    }

    #[test]
    fn crowded_names_fall_back_to_a_sorted_list_and_are_all_found() {
        let names = crowded(4096);
        let index = NameIndex::build(names.len(), |i| &names[i]).unwrap();
        assert!(matches!(index, NameIndex::Sorted { .. }));
        for (i, name) in names.iter().enumerate() {
            assert_eq!(index.find(name, |j| &names[j]), Some(i));
        }
        assert_eq!(index.find("absent", |j| &names[j]), None);
        let mut twice = names.clone();
        twice.push(names[17].clone());
        assert_eq!(
            NameIndex::build(twice.len(), |i| &twice[i]),
            Err(BundleError::DuplicateSkill {
                name: names[17].clone()
            })
        );
    }

    #[test]
    fn ordinary_names_keep_the_hash_table() {
        let names: Vec<String> = (0..100_000).map(|i| format!("skill-{i}")).collect();
        let index = NameIndex::build(names.len(), |i| &names[i]).unwrap();
        assert!(matches!(index, NameIndex::Hashed { .. }));
    }

    #[test]
    fn runs_wrap_around_the_end() {
        let full = Slot {
            hash: 0,
            index_plus_one: 1,
        };
        let empty = Slot::default();
        assert_eq!(longest_run(&[full, empty, full, full]), 3);
        assert_eq!(longest_run(&[empty, full, full, empty]), 2);
        assert_eq!(longest_run(&[full, full]), 2);
        assert_eq!(longest_run(&[empty]), 0);
    }

    #[test]
    fn an_empty_index_finds_nothing() {
        let index = NameIndex::build(0, |_| "").unwrap();
        assert_eq!(index.find("x", |_| "x"), None);
    }
}
