//! The decoded catalog: the prompt, the usage paragraph, the tool's
//! definition and the skills, all borrowed from the bundle's bytes.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use once_cell::race::OnceBox;

use crate::wire::bundle::{Bundle, BundleError, Skill, check_skill};
use crate::wire::codec::Summary;
use crate::wire::decode::{DecodeError, bundle_of, decode_body};
use crate::wire::layout::View;
use crate::wire::names::Index;

/// The skills of one bundle, ready to list and to serve.
///
/// [`from_bytes`](Self::from_bytes) decodes and checks the whole bundle
/// once; [`open`](Self::open) reads only the catalog-wide texts and the
/// bounds of the layout's tables, and decodes (and checks) a skill the
/// first time it is looked up. Either way, looking a skill up by name goes
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

/// How many slots' cells are allocated together.
const CHUNK: usize = 256;

/// The cells of [`Catalog::hot`], allocated a chunk of [`CHUNK`] at a time
/// on first use, so opening allocates one pointer per chunk rather than
/// one cell per slot.
struct HotCells<'a> {
    chunks: Vec<OnceBox<[OnceBox<Hot<'a>>; CHUNK]>>,
}

impl<'a> HotCells<'a> {
    /// No cells yet, for a table of `slots` slots.
    fn new(slots: usize) -> Self {
        HotCells {
            chunks: (0..slots.div_ceil(CHUNK)).map(|_| OnceBox::new()).collect(),
        }
    }

    /// The record in `slot`'s cell, if filled.
    fn get(&self, slot: usize) -> Option<&Hot<'a>> {
        self.chunks
            .get(slot / CHUNK)?
            .get()?
            .get(slot % CHUNK)?
            .get()
    }

    /// `slot`'s cell, its chunk allocated if need be.
    fn cell(&self, slot: usize) -> Option<&OnceBox<Hot<'a>>> {
        self.chunks
            .get(slot / CHUNK)?
            .get_or_init(|| Box::new(core::array::from_fn(|_| OnceBox::new())))
            .get(slot % CHUNK)
    }
}

/// The longest name a [`Hot`] record holds in itself.
const INLINE_NAME: usize = 64;

/// What a read of a skill's instructions serves, copied out of the decoded
/// skill (so checked once, when the skill was decoded), with the name's
/// bytes held inline: a warm call hashes the name, reads the cache cell
/// of its slot and this record (184 bytes, one allocation), and nothing
/// else: no slot of the bundle's table, no table of name ends, no name in
/// the bundle, no decoded skill.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Hot<'a> {
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
    },
    /// Decoded skill by skill, on first use.
    Lazy {
        view: View<'a>,
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
            Store::Full { bundle, names } => Store::Full {
                bundle: bundle.clone(),
                names: names.clone(),
            },
            Store::Lazy { view, skills, .. } => Store::Lazy {
                view: view.clone(),
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
        view.check_index()?;
        let names = view.index().clone();
        let bundle = bundle_of(view)?;
        for skill in &bundle.skills {
            check_skill(skill)?;
        }
        Ok(Catalog {
            bytes: None,
            hot: hot_cells(&names),
            store: Store::Full { bundle, names },
            prompt: OnceBox::new(),
        })
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
        let skills = (0..view.len()).map(|_| OnceBox::new()).collect();
        Ok(Catalog {
            bytes: Some(bytes),
            hot: hot_cells(view.index()),
            store: Store::Lazy {
                view,
                skills,
                full: OnceBox::new(),
            },
            prompt: OnceBox::new(),
        })
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
            view.check_index()?;
        }
        for at in 0..self.len() {
            self.skill_at(at)?;
        }
        Ok(())
    }

    /// The skill at `at` in catalog order, decoding it on first use.
    pub(crate) fn skill_at(&self, at: usize) -> Result<&Skill<'a>, DecodeError> {
        match &self.store {
            Store::Full { bundle, .. } => bundle.skills.get(at).ok_or(OUT_OF_RANGE),
            Store::Lazy { view, skills, .. } => {
                let Some(cell) = skills.get(at) else {
                    return Err(OUT_OF_RANGE);
                };
                cell.get_or_init(|| {
                    Box::new(
                        crate::wire::codec::decode_skill(view.name(at), view.detail(at))
                            .map_err(DecodeError::Corrupt)
                            .and_then(|skill| {
                                check_skill(&skill)?;
                                Ok(skill)
                            }),
                    )
                })
                .as_ref()
                .map_err(Clone::clone)
            }
        }
    }

    /// The summary of the skill at `at` (what listings show), from the
    /// decoded skill when there is one, else from the front of its
    /// encoding; `None` for a skill that does not decode.
    pub(crate) fn summary_at(&self, at: usize) -> Option<Summary<'a>> {
        match &self.store {
            Store::Full { bundle, .. } => bundle.skills.get(at).map(Summary::of),
            Store::Lazy { view, skills, .. } => match skills.get(at)?.get() {
                Some(decoded) => decoded.as_ref().ok().map(Summary::of),
                None => Summary::decode(view.detail(at)).ok(),
            },
        }
    }

    /// The name of the skill at `at` in catalog order.
    pub(crate) fn name_at(&self, at: usize) -> &'a str {
        match &self.store {
            Store::Full { bundle, .. } => bundle.skills.get(at).map_or("", |skill| skill.name),
            Store::Lazy { view, .. } => view.name(at),
        }
    }

    /// The catalog-order index of the skill listed as `name`.
    pub(crate) fn index_of(&self, name: &str) -> Option<usize> {
        match &self.store {
            Store::Full { bundle, names } => names.find(name, bundle.skills.len(), |at| {
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
            Store::Lazy { view, skills, .. } => match skills.get(at)?.get() {
                Some(decoded) => decoded.as_ref().ok().map(Hot::of),
                None => {
                    let skill =
                        crate::wire::codec::decode_skill(view.name(at), view.detail(at)).ok()?;
                    check_skill(&skill).ok()?;
                    Some(Hot::of(&skill))
                }
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
        if let Some((mut at, mask)) = index.home(name) {
            for _ in 0..=crate::wire::names::MAX_RUN {
                match self.hot.get(at) {
                    Some(hot) if hot.is(name) => return Some(serve(hot)),
                    Some(_) => at = (at + 1) & mask,
                    None => break,
                }
            }
        }
        let (at, slot) = index.find_slot(name, self.len(), |at| self.name_at(at))?;
        match slot.and_then(|slot| self.hot.cell(slot)) {
            // Another thread may have filled it meanwhile, alike.
            Some(cell) => {
                let hot = self.hot_of(at)?;
                Some(serve(cell.get_or_init(|| Box::new(hot))))
            }
            // A sorted index has no cells: the decoded skill, kept.
            None => Some(serve(&Hot::of(self.skill_at(at).ok()?))),
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
        Ok(Catalog {
            bytes: None,
            hot: hot_cells(&names),
            store: Store::Full { bundle, names },
            prompt: OnceBox::new(),
        })
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
