//! The decoded catalog: the prompt, the usage paragraph, the tool's
//! definition and the skills, all borrowed from the bundle's bytes.

use alloc::string::String;
use alloc::vec::Vec;

use crate::bundle::{Bundle, BundleError, Skill};
use crate::decode::{DecodeError, decode_unchecked};
use crate::tool::{TOOL_NAME, ToolDefinition};

/// The skills of one bundle, ready to list and to serve.
///
/// Decoding checks the header, the body and the bundle's rules once; after
/// that every method is a lookup into borrowed data. Looking a skill up by
/// name is a binary search over an index built at decoding.
///
/// ```
/// # let bytes = skills_core::__doc_bundle();
/// use skills_core::Catalog;
/// let catalog = Catalog::from_bytes(&bytes)?;
/// assert_eq!(catalog.names().collect::<Vec<_>>(), ["pdf", "git-rebase"]);
/// let system = format!("{}\n\n{}", catalog.prompt(), catalog.usage());
/// assert!(system.starts_with("<available_skills>\n<skill>\n<name>\npdf\n</name>"));
/// # Ok::<(), skills_core::DecodeError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Catalog<'a> {
    bundle: Bundle<'a>,
    /// Indices into `bundle.skills`, sorted by name.
    by_name: Vec<usize>,
}

impl<'a> Catalog<'a> {
    /// Decodes a bundle and checks it: see [`Bundle::decode`]. Strings and
    /// file bytes stay in `bytes`; only the tables are allocated.
    ///
    /// ```
    /// use skills_core::{Catalog, DecodeError};
    /// assert!(matches!(Catalog::from_bytes(b"not a bundle"), Err(DecodeError::BadMagic { .. })));
    /// ```
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Self, DecodeError> {
        let bundle = decode_unchecked(bytes)?;
        Ok(Catalog::from_bundle(bundle)?)
    }

    /// Builds a catalog over a bundle in memory, after [`Bundle::check`].
    ///
    /// ```
    /// use skills_core::{Catalog, bundle::Bundle};
    /// let catalog = Catalog::from_bundle(Bundle::default()).unwrap();
    /// assert!(catalog.is_empty());
    /// ```
    pub fn from_bundle(bundle: Bundle<'a>) -> Result<Self, BundleError> {
        let by_name = bundle.name_index()?;
        Ok(Catalog { bundle, by_name })
    }

    /// The decoded bundle.
    ///
    /// ```
    /// # let bytes = skills_core::__doc_bundle();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// assert_eq!(catalog.bundle().skills.len(), 2);
    /// ```
    pub fn bundle(&self) -> &Bundle<'a> {
        &self.bundle
    }

    /// The text listing the skills for the system prompt, by default the
    /// `<available_skills>` block (no trailing newline).
    ///
    /// ```
    /// # let bytes = skills_core::__doc_bundle();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// assert!(catalog.prompt().ends_with("</available_skills>"));
    /// ```
    pub fn prompt(&self) -> &'a str {
        self.bundle.prompt
    }

    /// The paragraph telling the model how to use the `skill` tool, to put
    /// after the prompt, separated by an empty line.
    ///
    /// ```
    /// # let bytes = skills_core::__doc_bundle();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// assert_eq!(catalog.usage(), skills_core::USAGE);
    /// ```
    pub fn usage(&self) -> &'a str {
        self.bundle.usage
    }

    /// [`prompt`](Self::prompt), an empty line, then [`usage`](Self::usage):
    /// the skills' part of a system prompt, as the Go module's README wires it.
    ///
    /// ```
    /// # let bytes = skills_core::__doc_bundle();
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

    /// The `skill` tool's definition to give the model.
    ///
    /// ```
    /// # let bytes = skills_core::__doc_bundle();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// let tool = catalog.tool_definition();
    /// assert_eq!(tool.name, "skill");
    /// assert_eq!(tool.description, skills_core::TOOL_DESCRIPTION);
    /// assert!(tool.parameters.starts_with(r#"{"type":"object""#));
    /// ```
    pub fn tool_definition(&self) -> ToolDefinition<'a> {
        ToolDefinition {
            name: TOOL_NAME,
            description: self.bundle.tool_description,
            parameters: self.bundle.tool_schema,
        }
    }

    /// The listed skills, in catalog order.
    ///
    /// ```
    /// # let bytes = skills_core::__doc_bundle();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// let pdf = &catalog.skills()[0];
    /// assert_eq!((pdf.name, pdf.files.len()), ("pdf", 3));
    /// ```
    pub fn skills(&self) -> &[Skill<'a>] {
        &self.bundle.skills
    }

    /// The skill listed as `name`, exactly.
    ///
    /// ```
    /// # let bytes = skills_core::__doc_bundle();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// assert_eq!(catalog.lookup("git-rebase").unwrap().description, "Rebase safely.");
    /// assert!(catalog.lookup("PDF").is_none());
    /// ```
    pub fn lookup(&self, name: &str) -> Option<&Skill<'a>> {
        let skills = &self.bundle.skills;
        let found = self
            .by_name
            .binary_search_by(|&at| skills.get(at).map_or("", |skill| skill.name).cmp(name))
            .ok()?;
        skills.get(*self.by_name.get(found)?)
    }

    /// The listed names, in catalog order.
    ///
    /// ```
    /// # let bytes = skills_core::__doc_bundle();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// assert_eq!(catalog.names().len(), 2);
    /// ```
    pub fn names(&self) -> impl ExactSizeIterator<Item = &'a str> + DoubleEndedIterator + '_ {
        self.bundle.skills.iter().map(|skill| skill.name)
    }

    /// How many skills are listed.
    ///
    /// ```
    /// # let bytes = skills_core::__doc_bundle();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// assert_eq!(catalog.len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.bundle.skills.len()
    }

    /// Whether no skill is listed.
    ///
    /// ```
    /// # let bytes = skills_core::__doc_bundle();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// assert!(!catalog.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.bundle.skills.is_empty()
    }
}
