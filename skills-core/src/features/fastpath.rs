//! The single-skill fast path: when the effective set of skills is exactly
//! one and its body is small, put the body in the prompt instead of a
//! catalog, as agentskills-core's `resolve_fast_path` decides it.
//!
//! ```
//! # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
//! # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
//! use skills_core::features::fastpath::DEFAULT_FAST_PATH_MAX_TOKENS;
//! let fast = catalog.fast_path(Some(&["git-rebase"]), DEFAULT_FAST_PATH_MAX_TOKENS).unwrap();
//! assert_eq!(fast.name, "git-rebase");
//! assert!(fast.prompt().starts_with("You have one skill, `git-rebase`"));
//! assert!(!fast.keeps("get_skill_body") && fast.keeps("get_skill_script"));
//! assert!(catalog.fast_path(None, 300).is_none()); // two skills: no fast path
//! ```

use alloc::string::String;

use crate::serve::catalog::Catalog;

/// The largest body, in estimated tokens, the fast path inlines by default.
///
/// ```
/// use skills_core::features::fastpath::DEFAULT_FAST_PATH_MAX_TOKENS;
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// // A short body is inlined into the prompt under the default budget.
/// let fast = catalog.fast_path(Some(&["git-rebase"]), DEFAULT_FAST_PATH_MAX_TOKENS).unwrap();
/// assert!(fast.tokens <= DEFAULT_FAST_PATH_MAX_TOKENS);
/// ```
pub const DEFAULT_FAST_PATH_MAX_TOKENS: u64 = 300;

/// The agentskills-core tools a host may stop offering on the fast path:
/// the body is already in the prompt. Resource tools stay.
///
/// ```
/// assert!(skills_core::features::fastpath::FAST_PATH_DROPPED_TOOLS.contains(&"get_skill_outline"));
/// ```
pub const FAST_PATH_DROPPED_TOOLS: [&str; 4] = [
    "get_skill_metadata",
    "get_skill_body",
    "get_skill_outline",
    "get_skill_section",
];

/// The paragraph after the inlined body telling the model how to fetch the
/// skill's resources, in agentskills-core's words (its tool names).
///
/// ```
/// assert!(skills_core::features::fastpath::FAST_PATH_RESOURCE_INSTRUCTIONS.starts_with("### Bundled resources"));
/// ```
pub const FAST_PATH_RESOURCE_INSTRUCTIONS: &str = "### Bundled resources\n\nThe instructions above may name reference documents, scripts or assets. Retrieve one only when the instructions call for it:\n\n- `get_skill_reference(skill_id, name)` - reference documents (policies, templates, runbooks)\n- `get_skill_script(skill_id, name)` - executable scripts\n- `get_skill_asset(skill_id, name)` - diagrams, data files, or other assets\n\nDo not guess resource names. Fetch only what the instructions name, or what `list_skill_resources(skill_id)` reports. That tool reports that it is unsupported on backends that cannot be enumerated - when it does, rely on the instructions above alone.";

/// A resolved fast path: the one skill and its body.
///
/// ```
/// use skills_core::features::fastpath::FastPath;
/// let fast = FastPath { name: "s", body: "Do it.\n", tokens: 2 };
/// assert!(fast.prompt().contains("<skill id=\"s\">\nDo it.\n</skill>\n\n### Bundled resources"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FastPath<'a> {
    /// The skill's id (in a bundle, its listed name).
    pub name: &'a str,
    /// Its body, stripped as agentskills-core strips it.
    pub body: &'a str,
    /// The body's estimated tokens.
    pub tokens: u64,
}

impl FastPath<'_> {
    /// The text to put in the system prompt instead of a catalog, exactly
    /// as agentskills-core's `FastPath.prompt` writes it (name and body
    /// not escaped).
    pub fn prompt(&self) -> String {
        let body = crate::text::pytext::rstrip(self.body);
        let mut out = String::with_capacity(body.len() + 2 * self.name.len() + 900);
        out.push_str("You have one skill, `");
        out.push_str(self.name);
        out.push_str("`, and its full instructions are below. Follow them when the task aligns with their domain.\n\n<skill id=\"");
        out.push_str(self.name);
        out.push_str("\">\n");
        out.push_str(body);
        out.push_str("\n</skill>\n\n");
        out.push_str(FAST_PATH_RESOURCE_INSTRUCTIONS);
        out
    }

    /// Whether a host should still offer the tool `tool_name`: everything
    /// but [`FAST_PATH_DROPPED_TOOLS`]. (This crate's own `skill` tool is
    /// still needed for the skill's files.)
    ///
    /// ```
    /// let fast = skills_core::features::fastpath::FastPath { name: "s", body: "", tokens: 0 };
    /// assert!(fast.keeps("skill") && fast.keeps("list_skill_resources"));
    /// ```
    pub fn keeps(&self, tool_name: &str) -> bool {
        !FAST_PATH_DROPPED_TOOLS.contains(&tool_name)
    }
}

impl<'a> Catalog<'a> {
    /// The fast path, if the skills narrowed by `include` (ids not in the
    /// catalog are ignored here) are exactly one whose body is at most
    /// `max_tokens` estimated tokens; `None` means: render a catalog.
    pub fn fast_path(&self, include: Option<&[&str]>, max_tokens: u64) -> Option<FastPath<'a>> {
        let mut chosen = (0..self.len())
            .filter(|&at| include.is_none_or(|ids| ids.contains(&self.name_at(at))))
            .filter_map(|at| self.skill_at(at).ok());
        let skill = chosen.next()?;
        if chosen.next().is_some() {
            return None;
        }
        let outline = skill.outline();
        let body = outline.stripped_body(skill.body());
        let tokens = outline.total_tokens;
        (tokens <= max_tokens).then_some(FastPath {
            name: skill.name,
            body,
            tokens,
        })
    }

    /// The outline of the skill listed as `name` as text for an agent (see
    /// [`crate::features::outline::Outline::render`]), split from the body, or `None`
    /// for an unknown skill.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// assert!(catalog.outline("nope").is_none());
    /// ```
    pub fn outline(&self, name: &str) -> Option<String> {
        self.lookup(name)
            .map(|skill| skill.outline().render(skill.name))
    }

    /// The text of section `key` of the skill listed as `name`: a slice of
    /// the embedded body (rejoined with `\n` when its lines end otherwise).
    /// `None` for an unknown skill; an unknown key is agentskills-core's
    /// error listing the keys.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// assert_eq!(catalog.section("pdf", "pdf").unwrap().unwrap(), "# PDF\n\nRead reference.md first.");
    /// let error = catalog.section("pdf", "setup").unwrap().unwrap_err();
    /// assert_eq!(error.to_string(), "Skill 'pdf' has no section 'setup'; available keys: pdf");
    /// ```
    pub fn section(
        &self,
        name: &str,
        key: &str,
    ) -> Option<Result<alloc::borrow::Cow<'a, str>, crate::features::outline::SectionNotFound>>
    {
        let skill = self.lookup(name)?;
        Some(skill.outline().section(skill.name, skill.body(), key))
    }
}
