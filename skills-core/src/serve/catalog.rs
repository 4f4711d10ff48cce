//! The decoded catalog: the prompt, the usage paragraph, the tool's
//! definition and the skills, all borrowed from the bundle's bytes.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use core::sync::atomic::{AtomicU32, Ordering};

use once_cell::race::OnceBox;

use crate::serve::paged::{PagedBundle, ReadAt, Records};
use crate::wire::bundle::{Bundle, BundleError, Skill, check_skill};
use crate::wire::codec::{Summary, decode_skill};
use crate::wire::decode::{DecodeError, bundle_of, decode_body, decode_parts};
use crate::wire::layout::View;
use crate::wire::names::{Index, Table};
use crate::wire::postcard::entry;

/// The skills of one bundle, ready to list and to serve.
///
/// [`from_bytes`](Self::from_bytes) decodes and checks the whole bundle
/// once; [`open`](Self::open) reads only the catalog-wide texts and the
/// bounds of the layout's tables, and decodes (and checks) a skill the
/// first time it is looked up; [`paged`](Self::paged) does the same over a
/// bundle kept in a file, reading a skill's bytes when it is first used.
/// Either way, looking a skill up by name goes
/// through the name index the compiler wrote into the bundle (a hash
/// table: one slot and one name compared, usually), and every method after
/// that is a lookup into borrowed data.
///
/// ```
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// use skills_core::Catalog;
/// let catalog = Catalog::from_bytes(&bytes)?;
/// assert_eq!(catalog.names().collect::<Vec<_>>(), ["pdf", "git-rebase"]);
/// let system = format!("{}\n\n{}", catalog.prompt(), catalog.usage());
/// assert!(system.starts_with("<available_skills>\n<skill>\n<name>\npdf\n</name>"));
/// # Ok::<(), skills_core::DecodeError>(())
/// ```
pub struct Catalog<'a> {
    /// The bundle's bytes, as given (none for a bundle held whole).
    bytes: Option<&'a [u8]>,
    store: Store<'a>,
    /// The prompt rendered from the skills, for a bundle that does not
    /// store one, made on first use.
    prompt: OnceBox<String>,
    /// One cell per slot of a hashed name index: the [`Hot`] record of
    /// the skill in that slot, filled on the skill's first call (empty for
    /// a sorted index, and for a skill that does not decode).
    hot: HotCells<'a>,
}

/// How many slots' cells are allocated together: 4 KiB of cells.
const CHUNK: usize = 256;

/// The cells of [`Catalog::hot`], one per slot of the name index,
/// allocated a chunk of [`CHUNK`] at a time on first use, so opening
/// allocates one pointer per chunk rather than a cell per slot.
struct HotCells<'a> {
    chunks: Vec<OnceBox<HotChunk<'a>>>,
}

/// The cells of [`CHUNK`] slots: for each, the [`Hot`] record of the skill
/// in the slot, filled on its first call, and a tag of the skill's name
/// (its hash, with the low bit set; 0 until the record is filled), the
/// tags apart from the records' pointers so that a probe reads 4 bytes a
/// slot and passes the slots of other skills without loading their
/// records.
struct HotChunk<'a> {
    tags: [AtomicU32; CHUNK],
    hots: [OnceBox<Hot<'a>>; CHUNK],
}

/// One slot's cell.
struct HotCell<'c, 'a> {
    tag: &'c AtomicU32,
    hot: &'c OnceBox<Hot<'a>>,
}

/// The tag of a name whose hash is `hash` (never 0).
fn tag_of(hash: u32) -> u32 {
    hash | 1
}

impl<'a> HotCells<'a> {
    /// No cells yet, for a table of `slots` slots.
    fn new(slots: usize) -> Self {
        HotCells {
            chunks: (0..slots.div_ceil(CHUNK)).map(|_| OnceBox::new()).collect(),
        }
    }

    /// `slot`'s cell, if its chunk was allocated.
    fn get(&self, slot: usize) -> Option<HotCell<'_, 'a>> {
        let chunk = self.chunks.get(slot / CHUNK)?.get()?;
        Some(HotCell {
            tag: chunk.tags.get(slot % CHUNK)?,
            hot: chunk.hots.get(slot % CHUNK)?,
        })
    }

    /// `slot`'s cell, its chunk allocated if need be.
    fn cell(&self, slot: usize) -> Option<HotCell<'_, 'a>> {
        let chunk = self.chunks.get(slot / CHUNK)?.get_or_init(|| {
            Box::new(HotChunk {
                tags: core::array::from_fn(|_| AtomicU32::new(0)),
                hots: core::array::from_fn(|_| OnceBox::new()),
            })
        });
        Some(HotCell {
            tag: chunk.tags.get(slot % CHUNK)?,
            hot: chunk.hots.get(slot % CHUNK)?,
        })
    }
}

/// The longest name a [`Hot`] record holds in itself: longer than most
/// (the generated registry's names average 17 bytes, none over 32); a
/// longer one is compared through its pointer, one load more.
const INLINE_NAME: usize = 32;

/// What a read of a skill's instructions serves, copied out of the decoded
/// skill (so checked once, when the skill was decoded), with the name's
/// bytes held inline: a warm call hashes the name, reads the tag and the
/// cell of its slot and this record (152 bytes, one allocation), and
/// nothing else: no slot of the bundle's table, no table of name ends, no
/// name in the bundle, no decoded skill.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Hot<'a> {
    // 8 + 32 + 3 × 16 + 2 × 32 = 152 bytes.
    /// The name's length, then its bytes (when it fits).
    name_len: usize,
    name_bytes: [u8; INLINE_NAME],
    pub(crate) name: &'a str,
    pub(crate) location: &'a str,
    pub(crate) instructions: &'a str,
    pub(crate) instructions_sha256: [u8; 32],
    pub(crate) frontmatter_sha256: [u8; 32],
}

impl<'a> Hot<'a> {
    fn of(skill: &Skill<'a>) -> Self {
        let mut name_bytes = [0u8; INLINE_NAME];
        if skill.name.len() <= INLINE_NAME {
            for (to, from) in name_bytes.iter_mut().zip(skill.name.bytes()) {
                *to = from;
            }
        }
        Hot {
            name_len: skill.name.len(),
            name_bytes,
            name: skill.name,
            location: skill.location,
            instructions: skill.instructions,
            instructions_sha256: skill.instructions_sha256,
            frontmatter_sha256: skill.frontmatter_sha256,
        }
    }

    /// Whether this is the record of the skill listed as `wanted`.
    fn is(&self, wanted: &str) -> bool {
        self.name_len == wanted.len()
            && match self.name_bytes.get(..wanted.len()) {
                Some(inline) => inline == wanted.as_bytes(),
                None => self.name == wanted,
            }
    }
}

/// An empty cache of [`Hot`] records for this index.
fn hot_cells<'a>(index: &Index<'_>) -> HotCells<'a> {
    HotCells::new(index.slots())
}

enum Store<'a> {
    /// Decoded and checked at once.
    Full {
        bundle: Bundle<'a>,
        /// The skills' names, for lookups.
        names: Index<'a>,
        /// The listing order.
        listing: Table<'a>,
    },
    /// Decoded skill by skill, on first use.
    Lazy {
        view: View<'a>,
        /// Where the skills' encodings are read from, for a paged bundle
        /// (else the view's bytes hold them).
        records: Option<&'a dyn Records>,
        /// One cell per skill, in catalog order: the skill decoded and
        /// checked, or why it could not be.
        skills: Vec<OnceBox<Result<Skill<'a>, DecodeError>>>,
        /// The whole bundle, for [`Catalog::bundle`], made on first use.
        full: OnceBox<Bundle<'a>>,
    },
}

impl core::fmt::Debug for Catalog<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Catalog")
            .field("skills", &self.len())
            .field("lazy", &matches!(self.store, Store::Lazy { .. }))
            .finish()
    }
}

impl Clone for Catalog<'_> {
    /// A lazily opened catalog's clone decodes its skills again on use.
    fn clone(&self) -> Self {
        let store = match &self.store {
            Store::Full {
                bundle,
                names,
                listing,
            } => Store::Full {
                bundle: bundle.clone(),
                names: names.clone(),
                listing: listing.clone(),
            },
            Store::Lazy {
                view,
                records,
                skills,
                ..
            } => Store::Lazy {
                view: view.clone(),
                records: *records,
                skills: skills.iter().map(|_| OnceBox::new()).collect(),
                full: OnceBox::new(),
            },
        };
        Catalog {
            bytes: self.bytes,
            hot: HotCells {
                chunks: self.hot.chunks.iter().map(|_| OnceBox::new()).collect(),
            },
            store,
            prompt: OnceBox::new(),
        }
    }
}

/// What [`Catalog::skill_at`] answers for an index past the end (which
/// no caller passes).
const OUT_OF_RANGE: DecodeError = DecodeError::Corrupt(crate::wire::postcard::WireError {
    kind: crate::wire::postcard::WireErrorKind::UnexpectedEnd,
    offset: 0,
});

impl<'a> Catalog<'a> {
    /// Decodes a bundle and checks it: see [`Bundle::decode`]. Strings and
    /// file bytes stay in `bytes`; only the tables are allocated. Every
    /// skill is decoded and checked here, so a corrupt bundle is refused
    /// now rather than at a call (see [`open`](Self::open) for the lazy
    /// way).
    ///
    /// ```
    /// use skills_core::{Catalog, DecodeError};
    /// assert!(matches!(Catalog::from_bytes(b"not a bundle"), Err(DecodeError::BadMagic { .. })));
    /// ```
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Self, DecodeError> {
        let view: View<'a> = decode_body(bytes)?;
        view.check_tables()?;
        let names = view.index().clone();
        let listing = Table::Bytes(view.listing());
        let bundle = bundle_of(view)?;
        for skill in &bundle.skills {
            check_skill(skill)?;
        }
        Ok(Self::full(bundle, names, listing))
    }

    /// Opens a bundle lazily: checks the header, reads the catalog-wide
    /// texts and checks the bounds of the layout's tables (the names and
    /// the skills' ends, the name index's size), and leaves each skill's
    /// encoding to be decoded and checked the first time the skill is
    /// looked up, then kept. Opening costs a few nanoseconds a skill and
    /// one allocation, whatever the size of the skills.
    ///
    /// A skill whose encoding is corrupt is reported when it is used: the
    /// tool answers [`crate::ToolError::CorruptSkill`], [`lookup`](Self::lookup)
    /// gives `None`. [`check`](Self::check) decodes every skill at once,
    /// and checks the name index (a name listed twice).
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// let catalog = skills_core::Catalog::open(&bytes)?;
    /// assert_eq!(catalog.len(), 2);
    /// assert!(catalog.call("pdf", Some("reference.md")).is_ok());
    /// catalog.check()?;
    /// # Ok::<(), skills_core::DecodeError>(())
    /// ```
    pub fn open(bytes: &'a [u8]) -> Result<Self, DecodeError> {
        let view: View<'a> = decode_body(bytes)?;
        Ok(Self::lazy(view, Some(bytes), None))
    }

    /// Opens a bundle kept outside memory, as [`open`](Self::open) opens
    /// one in memory: the head and the tail `bundle` read are checked now,
    /// and each skill's bytes are read from `bundle` when the skill is
    /// first used (and kept), or read for one use by a listing
    /// ([`with_skill`](Self::with_skill)). A skill that cannot be read
    /// (the file changed or shrank) is an error for that skill, as a
    /// corrupt one is. See [`crate::serve::paged`] for an example.
    pub fn paged<R: ReadAt>(bundle: &'a PagedBundle<R>) -> Result<Self, DecodeError> {
        let (head, tail) = bundle.parts();
        let view = decode_parts(head, tail)?;
        Ok(Self::lazy(view, None, Some(bundle)))
    }

    /// A catalog that decodes the skills of `view` on first use.
    fn lazy(view: View<'a>, bytes: Option<&'a [u8]>, records: Option<&'a dyn Records>) -> Self {
        let skills = (0..view.len()).map(|_| OnceBox::new()).collect();
        Catalog {
            bytes,
            hot: hot_cells(view.index()),
            store: Store::Lazy {
                view,
                records,
                skills,
                full: OnceBox::new(),
            },
            prompt: OnceBox::new(),
        }
    }

    /// The bundle's bytes, as given to [`open`](Self::open) or
    /// [`from_bytes`](Self::from_bytes) (`None` for a catalog
    /// [`from_bundle`](Self::from_bundle)): what a verifier of the exact
    /// bytes (`verify::TrustPolicy::verify_bytes`, feature `verify`) checks.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// let catalog = skills_core::Catalog::open(&bytes)?;
    /// assert_eq!(catalog.bytes(), Some(&bytes[..]));
    /// # Ok::<(), skills_core::DecodeError>(())
    /// ```
    pub fn bytes(&self) -> Option<&'a [u8]> {
        self.bytes
    }

    /// Decodes and checks every skill not decoded yet, and the name index,
    /// and reports the first problem. A catalog from
    /// [`from_bytes`](Self::from_bytes) always passes.
    pub fn check(&self) -> Result<(), DecodeError> {
        if let Store::Lazy { view, .. } = &self.store {
            view.check_tables()?;
        }
        for at in 0..self.len() {
            self.skill_at(at)?;
        }
        Ok(())
    }

    /// The skill at `at` in catalog order (`0..len()`), decoded and
    /// checked on first use and kept; an error for a skill whose part of
    /// the bundle does not decode or cannot be read, or an index past the
    /// end.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// let catalog = skills_core::Catalog::open(&bytes)?;
    /// assert_eq!(catalog.skill_at(1)?.name, "git-rebase");
    /// assert!(catalog.skill_at(2).is_err());
    /// # Ok::<(), skills_core::DecodeError>(())
    /// ```
    pub fn skill_at(&self, at: usize) -> Result<&Skill<'a>, DecodeError> {
        match &self.store {
            Store::Full { bundle, .. } => bundle.skills.get(at).ok_or(OUT_OF_RANGE),
            Store::Lazy { skills, .. } => {
                let Some(cell) = skills.get(at) else {
                    return Err(OUT_OF_RANGE);
                };
                cell.get_or_init(|| Box::new(self.decode_kept(at)))
                    .as_ref()
                    .map_err(Clone::clone)
            }
        }
    }

    /// The encoding of the skill at `at`, borrowed for as long as the
    /// catalog's bytes: from the bundle's bytes, or read from a paged
    /// bundle and kept there.
    fn kept_detail(&self, at: usize) -> Result<&'a [u8], DecodeError> {
        match &self.store {
            Store::Full { .. } => Err(OUT_OF_RANGE),
            Store::Lazy {
                view,
                records: None,
                ..
            } => Ok(view.detail(at)),
            Store::Lazy {
                view,
                records: Some(records),
                ..
            } => records.kept(at, view.detail_span(at)),
        }
    }

    /// The skill at `at` of a lazily opened catalog, decoded from its
    /// kept encoding and checked (not cached here).
    fn decode_kept(&self, at: usize) -> Result<Skill<'a>, DecodeError> {
        let detail = self.kept_detail(at)?;
        let skill = decode_skill(self.name_at(at), detail).map_err(DecodeError::Corrupt)?;
        check_skill(&skill)?;
        Ok(skill)
    }

    /// Calls `use_skill` with the skill at `at` (`0..len()`), decoded and
    /// checked, and gives its result: the skill kept by an earlier use if
    /// there is one; else decoded for this call only and dropped after it
    /// (for a paged bundle, its bytes read for this call only). What a
    /// listing uses, so walking every page of a large catalog holds no more
    /// than a page of it.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// let catalog = skills_core::Catalog::open(&bytes)?;
    /// assert_eq!(catalog.with_skill(0, |skill| skill.files.len())?, 3);
    /// assert!(catalog.with_skill(5, |_| ()).is_err());
    /// # Ok::<(), skills_core::DecodeError>(())
    /// ```
    pub fn with_skill<T>(
        &self,
        at: usize,
        use_skill: impl FnOnce(&Skill<'_>) -> T,
    ) -> Result<T, DecodeError> {
        let Store::Lazy {
            view,
            records,
            skills,
            ..
        } = &self.store
        else {
            return self.skill_at(at).map(use_skill);
        };
        let Some(cell) = skills.get(at) else {
            return Err(OUT_OF_RANGE);
        };
        if let Some(kept) = cell.get() {
            return kept.as_ref().map(use_skill).map_err(Clone::clone);
        }
        let read;
        let detail = match records {
            None => view.detail(at),
            Some(records) => {
                read = records.read(at, view.detail_span(at))?;
                &read
            }
        };
        let skill = decode_skill(view.name(at), detail).map_err(DecodeError::Corrupt)?;
        check_skill(&skill)?;
        Ok(use_skill(&skill))
    }

    /// The catalog index of the skill at `position` in the listing order
    /// (`0..len()`): the byte order of the skills' `skill://` URIs, as MCP
    /// servers list them, written into the bundle by the compiler so a page
    /// of a listing is made without reading the skills before it.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// let catalog = skills_core::Catalog::open(&bytes)?;
    /// // skill://git-rebase/SKILL.md sorts before skill://pdf/SKILL.md.
    /// let listed: Vec<&str> = (0..catalog.len()).filter_map(|p| catalog.listed(p)).map(|at| catalog.name_at(at)).collect();
    /// assert_eq!(listed, ["git-rebase", "pdf"]);
    /// assert_eq!(catalog.listed(2), None);
    /// # Ok::<(), skills_core::DecodeError>(())
    /// ```
    pub fn listed(&self, position: usize) -> Option<usize> {
        if position >= self.len() {
            return None;
        }
        let at = match &self.store {
            Store::Full { listing, .. } => listing.get(position),
            Store::Lazy { view, .. } => entry(view.listing(), position),
        };
        (at < self.len()).then_some(at)
    }

    /// The summary of the skill at `at` (what listings show), from the
    /// decoded skill when there is one, else from the front of its
    /// encoding; `None` for a skill that does not decode.
    pub(crate) fn summary_at(&self, at: usize) -> Option<Summary<'a>> {
        match &self.store {
            Store::Full { bundle, .. } => bundle.skills.get(at).map(Summary::of),
            Store::Lazy { skills, .. } => match skills.get(at)?.get() {
                Some(decoded) => decoded.as_ref().ok().map(Summary::of),
                None => Summary::decode(self.kept_detail(at).ok()?).ok(),
            },
        }
    }

    /// The listed name of the skill at `at` in catalog order (empty past
    /// the end), read from the bundle's table of names without decoding
    /// the skill.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// let catalog = skills_core::Catalog::open(&bytes)?;
    /// assert_eq!((catalog.name_at(0), catalog.name_at(2)), ("pdf", ""));
    /// # Ok::<(), skills_core::DecodeError>(())
    /// ```
    pub fn name_at(&self, at: usize) -> &'a str {
        match &self.store {
            Store::Full { bundle, .. } => bundle.skills.get(at).map_or("", |skill| skill.name),
            Store::Lazy { view, .. } => view.name(at),
        }
    }

    /// The catalog index of the skill listed as `name`, exactly, through
    /// the bundle's name index (no skill decoded).
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// let catalog = skills_core::Catalog::open(&bytes)?;
    /// assert_eq!((catalog.index_of("git-rebase"), catalog.index_of("nope")), (Some(1), None));
    /// # Ok::<(), skills_core::DecodeError>(())
    /// ```
    pub fn index_of(&self, name: &str) -> Option<usize> {
        match &self.store {
            Store::Full { bundle, names, .. } => names.find(name, bundle.skills.len(), |at| {
                bundle.skills.get(at).map_or("", |skill| skill.name)
            }),
            Store::Lazy { view, .. } => view.find(name),
        }
    }

    /// The [`Hot`] record of the skill at `at`, from the decoded skill
    /// when there is one; else decoded and checked for the purpose and
    /// dropped (so the records of warm skills sit close together in
    /// memory rather than among the decoded skills' tables).
    fn hot_of(&self, at: usize) -> Option<Hot<'a>> {
        match &self.store {
            Store::Full { bundle, .. } => bundle.skills.get(at).map(Hot::of),
            Store::Lazy { skills, .. } => match skills.get(at)?.get() {
                Some(decoded) => decoded.as_ref().ok().map(Hot::of),
                None => self.decode_kept(at).ok().as_ref().map(Hot::of),
            },
        }
    }

    /// The name index.
    fn name_index(&self) -> &Index<'a> {
        match &self.store {
            Store::Full { names, .. } => names,
            Store::Lazy { view, .. } => view.index(),
        }
    }

    /// The [`Hot`] record of the skill listed as `name`, given to `serve`;
    /// `None` for an unknown skill or one that does not decode (the
    /// general path reports why). Warm, from the cache cell of the name's
    /// slot; cold (or for a sorted index), through the index and the
    /// decoded skill, filling the cell.
    pub(crate) fn with_hot<'c, T>(
        &'c self,
        name: &str,
        serve: impl FnOnce(&Hot<'c>) -> T,
    ) -> Option<T> {
        let index = self.name_index();
        let home = index.home(name);
        if let Some((hash, mut at, mask)) = home {
            let tag = tag_of(hash);
            for _ in 0..=crate::wire::names::MAX_RUN {
                let Some(cell) = self.hot.get(at) else {
                    break;
                };
                match cell.tag.load(Ordering::Acquire) {
                    // Not filled yet (or not tagged yet): the slow way.
                    0 => break,
                    found if found == tag => {
                        if let Some(hot) = cell.hot.get().filter(|hot| hot.is(name)) {
                            return Some(serve(hot));
                        }
                    }
                    _ => {}
                }
                at = (at + 1) & mask;
            }
        }
        let (at, slot) = index.find_slot(name, self.len(), |at| self.name_at(at))?;
        match slot.and_then(|slot| self.hot.cell(slot)).zip(home) {
            // Another thread may have filled it meanwhile, alike.
            Some((cell, (hash, _, _))) => {
                let hot = self.hot_of(at)?;
                let hot = cell.hot.get_or_init(|| Box::new(hot));
                cell.tag.store(tag_of(hash), Ordering::Release);
                Some(serve(hot))
            }
            // A sorted index has no cells: the decoded skill, kept.
            None => Some(serve(&Hot::of(self.skill_at(at).ok()?))),
        }
    }

    /// A catalog over a bundle decoded whole, its name index and listing
    /// order made: what both whole-bundle constructors end with.
    fn full(bundle: Bundle<'a>, names: Index<'a>, listing: Table<'a>) -> Self {
        Catalog {
            bytes: None,
            hot: hot_cells(&names),
            store: Store::Full {
                bundle,
                names,
                listing,
            },
            prompt: OnceBox::new(),
        }
    }

    /// Builds a catalog over a bundle in memory, after [`Bundle::check`].
    ///
    /// ```
    /// use skills_core::{Catalog, wire::bundle::Bundle};
    /// let catalog = Catalog::from_bundle(Bundle::default()).unwrap();
    /// assert!(catalog.is_empty());
    /// ```
    pub fn from_bundle(bundle: Bundle<'a>) -> Result<Self, BundleError> {
        let names = bundle.name_index()?;
        let listing = Table::Built(crate::wire::listing::order(bundle.skills.len(), |at| {
            bundle.skills.get(at).map_or("", |skill| skill.name)
        }));
        Ok(Self::full(bundle, names, listing))
    }

    /// The decoded bundle. A catalog from [`open`](Self::open) makes it on
    /// first use from its skills, leaving out any that does not decode
    /// (call [`check`](Self::check) first to be told).
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// assert_eq!(catalog.bundle().skills.len(), 2);
    /// ```
    pub fn bundle(&self) -> &Bundle<'a> {
        match &self.store {
            Store::Full { bundle, .. } => bundle,
            Store::Lazy { view, full, .. } => full.get_or_init(|| {
                Box::new(Bundle {
                    prompt: view.prompt,
                    usage: view.usage,
                    tool_description: view.tool_description,
                    tool_schema: view.tool_schema,
                    skills: (0..view.len())
                        .filter_map(|at| self.skill_at(at).ok().cloned())
                        .collect(),
                    revision: view.revision,
                    signatures: view.signatures.clone(),
                })
            }),
        }
    }

    /// The bundle revision the bundle records (all zeros for one made
    /// without it), read without decoding any skill: what an MCP server
    /// names the catalog's generation by.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// let catalog = skills_core::Catalog::open(&bytes)?;
    /// assert_eq!(catalog.recorded_revision(), catalog.bundle().revision);
    /// # Ok::<(), skills_core::DecodeError>(())
    /// ```
    pub fn recorded_revision(&self) -> [u8; 32] {
        match &self.store {
            Store::Full { bundle, .. } => bundle.revision,
            Store::Lazy { view, .. } => view.revision,
        }
    }

    /// The prompt the bundle stores, if it stores one.
    pub(crate) fn stored_prompt(&self) -> Option<&'a str> {
        match &self.store {
            Store::Full { bundle, .. } => bundle.prompt,
            Store::Lazy { view, .. } => view.prompt,
        }
    }

    /// Where the prompt rendered from the skills is kept.
    pub(crate) fn rendered_prompt(&self) -> &OnceBox<String> {
        &self.prompt
    }

    /// The paragraph telling the model how to use the `skill` tool, to put
    /// after the prompt, separated by an empty line.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// assert_eq!(catalog.usage(), skills_core::USAGE);
    /// ```
    pub fn usage(&self) -> &'a str {
        match &self.store {
            Store::Full { bundle, .. } => bundle.usage,
            Store::Lazy { view, .. } => view.usage,
        }
    }

    /// [`prompt`](Self::prompt), an empty line, then [`usage`](Self::usage):
    /// the skills' part of a system prompt, as the Go module's README wires it.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// assert!(catalog.system_prompt().ends_with(&format!("</available_skills>\n\n{}", catalog.usage())));
    /// ```
    pub fn system_prompt(&self) -> String {
        let mut out = String::with_capacity(self.prompt().len() + 2 + self.usage().len());
        out.push_str(self.prompt());
        out.push_str("\n\n");
        out.push_str(self.usage());
        out
    }

    /// The bundle's tool description and tool schema.
    pub(crate) fn tool_texts(&self) -> (&'a str, &'a str) {
        match &self.store {
            Store::Full { bundle, .. } => (bundle.tool_description, bundle.tool_schema),
            Store::Lazy { view, .. } => (view.tool_description, view.tool_schema),
        }
    }

    /// The listed skills, in catalog order (for a catalog from
    /// [`open`](Self::open), decoded on first use: see
    /// [`bundle`](Self::bundle)).
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// let pdf = &catalog.skills()[0];
    /// assert_eq!((pdf.name, pdf.files.len()), ("pdf", 3));
    /// ```
    pub fn skills(&self) -> &[Skill<'a>] {
        &self.bundle().skills
    }

    /// The skill listed as `name`, exactly; `None` also for a skill of a
    /// lazily opened catalog that does not decode.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// assert_eq!(catalog.lookup("git-rebase").unwrap().description, "Rebase safely.");
    /// assert!(catalog.lookup("PDF").is_none());
    /// ```
    pub fn lookup(&self, name: &str) -> Option<&Skill<'a>> {
        self.skill_at(self.index_of(name)?).ok()
    }

    /// The listed names, in catalog order.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// assert_eq!(catalog.names().len(), 2);
    /// ```
    pub fn names(&self) -> impl ExactSizeIterator<Item = &'a str> + DoubleEndedIterator + '_ {
        (0..self.len()).map(|at| self.name_at(at))
    }

    /// How many skills are listed.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// assert_eq!(catalog.len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        match &self.store {
            Store::Full { bundle, .. } => bundle.skills.len(),
            Store::Lazy { view, .. } => view.len(),
        }
    }

    /// Whether no skill is listed.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// assert!(!catalog.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;

    /// The warm call's record stays within three cache lines.
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn the_hot_record_is_152_bytes() {
        assert_eq!(core::mem::size_of::<Hot<'_>>(), 152);
    }

    /// Warm calls, cold calls and calls racing on other threads all give
    /// what resolve and serve give, for every name of a catalog whose name
    /// index has probe runs (names sharing home slots), lazily opened or
    /// decoded whole; names not listed are not found.
    #[test]
    fn warm_calls_find_every_name_past_their_neighbours() {
        let bytes = crate::serve::paged::tests::bundle(3000);
        let view: View<'_> = decode_body(&bytes).unwrap();
        let names: Vec<&str> = (0..view.len()).map(|at| view.name(at)).collect();
        let index = view.index().clone();
        let mut shared = 0;
        for name in &names {
            let (_, home, _) = index.home(name).unwrap();
            let (_, found) = index.find_slot(name, names.len(), |at| names[at]).unwrap();
            shared += usize::from(found != Some(home));
        }
        assert!(shared > 100, "probe runs to walk: {shared}");
        for catalog in [
            Catalog::open(&bytes).unwrap(),
            Catalog::from_bytes(&bytes).unwrap(),
        ] {
            std::thread::scope(|scope| {
                for round in 0..3 {
                    let catalog = &catalog;
                    let names = &names;
                    scope.spawn(move || {
                        for at in (0..names.len()).map(|i| (i * 7 + round * 11) % names.len()) {
                            let name = &names[at];
                            let expected =
                                catalog.serve(catalog.resolve(name, None).unwrap()).unwrap();
                            assert_eq!(catalog.call(name, None).unwrap(), expected);
                            assert_eq!(catalog.call(name, Some("SKILL.md")).unwrap(), expected);
                        }
                    });
                }
            });
            for missing in ["skill-03000", "skill-", "", "skill-00012 "] {
                assert!(catalog.call(missing, None).is_err(), "{missing}");
            }
        }
    }
}
