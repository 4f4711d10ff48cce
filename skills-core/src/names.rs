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
struct Slot {
    hash: u32,
    index_plus_one: usize,
}

/// Names to catalog indices; built once, read by every call.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct NameIndex {
    slots: Vec<Slot>,
}

/// FNV-1a over the name's bytes: short names, no attacker-chosen table
/// sizes to exploit (the bundle is compiled in), so a simple hash does.
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
                at = (at + 1) & mask;
            }
        }
        Ok(NameIndex { slots })
    }

    /// The index of `wanted`, if it is one of the names.
    pub(crate) fn find<'n>(&self, wanted: &str, name: impl Fn(usize) -> &'n str) -> Option<usize> {
        let mask = self.slots.len().checked_sub(1)?;
        let h = hash(wanted);
        let mut at = h as usize & mask;
        // At most every slot once; the table is never full (twice the names).
        for _ in 0..self.slots.len() {
            let slot = self.slots.get(at)?;
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

    #[test]
    fn an_empty_index_finds_nothing() {
        let index = NameIndex::build(0, |_| "").unwrap();
        assert_eq!(index.find("x", |_| "x"), None);
    }
}
