//! Agent Skills compiled into your binary, and the `skill` tool served from
//! them with no IO.
//!
//! ```
//! // Your crate writes `include_skills!("skills")` for its skills/ folder
//! // (relative to its Cargo.toml); this example embeds the three skills of
//! // this crate's own doc-skills/ folder.
//! static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("doc-skills");
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let catalog = SKILLS.catalog()?;
//! let system_prompt = catalog.system_prompt(); // <available_skills> + usage
//! let tool = catalog.tool_definition(); // name, description, JSON schema
//! let served = catalog.call("pdf-forms", Some("reference.md"))?;
//! assert_eq!(served.read.path, "reference.md");
//! # let _ = (system_prompt, tool);
//! # Ok(())
//! # }
//! ```
//!
//! `include_skills!` validates every skill at compile time with the
//! reference validator's verdicts (an invalid skill is a compile error
//! naming the file and line) and embeds one bundle. The one-line `build.rs`
//! `println!("cargo:rerun-if-changed=skills");` makes added files rebuild
//! too. Projects that prefer a build script use `skills_build::Builder` and
//! [`include_bundle!`] (the workspace's `examples/serve-skills` is that
//! program, built and run by its tests).
//!
//! # What this crate exports
//!
//! What an application uses, by name: [`Embedded`] and [`Catalog`]; the
//! tool ([`ToolDefinition`], [`Catalog::call`], [`Served`], [`Reply`],
//! [`Image`], [`Resolution`] and [`Target`] for a host that decides reads
//! by policy); the record of a read ([`ReadRecord`], [`Sha256`], [`HexDigest`]);
//! the errors ([`DecodeError`], [`ToolError`], [`RenderError`]); the
//! render options ([`RenderOptions`], [`Format`]); the records a catalog
//! holds ([`bundle`]); and behind their features agentskills-core's
//! catalog features (`agentskills`: outlines, manifests and
//! `ManifestError`, resources, the fast path and the `core_tools`
//! vocabulary), `revision`, `verify`, `ToolArguments` and `providers`
//! (feature `json`: the tool in model providers' JSON). The implementation lives in
//! `skills-core`, shared with the compiler; what the compiler and the
//! macro's expansion need of it is not part of this crate's API.
//!
//! # Installing the skills into coding agents
//!
//! With the `install` feature, a program installs the skills it embeds
//! where coding agents read them (`.claude/skills`, `.agents/skills`,
//! `~/.cursor/skills`, ...), with a record of what it wrote, so an update
//! replaces only its own files and a user's edit is never lost without
//! `--force`. One line of `main` gives it `mytool skill
//! install|status|uninstall|list`:
//!
//! ```ignore
//! skills_runtime::install::Installer::new(&SKILLS)
//!     .tool_name("mytool")
//!     .version(env!("CARGO_PKG_VERSION"))
//!     .intercept(); // handles `mytool skill ...` and exits; returns otherwise
//! ```
//!
//! With the `clap` feature, `install::SkillCommand` is the same subcommand
//! as a `clap::Subcommand`, to nest in a clap CLI
//! (`#[command(subcommand)] Skill(SkillCommand)`, then
//! `installer.run_command(&command)`). See the `install` module.

// docs.rs (nightly, `--cfg docsrs`): "Available on crate feature …" on
// every feature-gated item, worked out from its `#[cfg]`.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(feature = "document-features", doc = "# Features")]
#![cfg_attr(feature = "document-features", doc = "")]
#![cfg_attr(feature = "document-features", doc = document_features::document_features!())]
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

/// Installing the embedded skills where coding agents read them (feature
/// `install`): the [`skills-install`](https://docs.rs/skills-install)
/// crate.
#[cfg(feature = "install")]
pub use skills_install as install;

pub use skills_core::include_bundle;
#[cfg(feature = "macros")]
pub use skills_macros::include_skills;

#[cfg(any(feature = "json", feature = "serde"))]
pub use skills_core::ToolArguments;
#[cfg(feature = "agentskills")]
pub use skills_core::features::manifest::ManifestError;
pub use skills_core::features::render::{Format, RenderError, RenderOptions};
pub use skills_core::{
    Catalog, DecodeError, Embedded, HexDigest, Image, ReadRecord, Reply, Resolution, Served,
    Sha256, Target, ToolDefinition, ToolError,
};

/// The records a [`Catalog`] holds, as the compiler wrote them:
/// [`Catalog::skills`] and [`Catalog::lookup`] give a [`Skill`](bundle::Skill),
/// [`Catalog::bundle`] the whole [`Bundle`](bundle::Bundle) (what
/// `verify::TrustPolicy` checks). All of it borrows the embedded bytes.
///
/// ```
/// use skills_runtime::bundle::{Content, Skill};
/// static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("doc-skills");
///
/// let catalog = SKILLS.catalog()?;
/// let skill: &Skill<'_> = catalog.lookup("pdf-forms").expect("listed");
/// assert!(skill.description.starts_with("Fill"));
/// for file in &skill.files {
///     let kind = match file.content {
///         Content::Text(_) => "text",
///         Content::Image { .. } => "image",
///         _ => "binary",
///     };
///     assert!(!file.path.is_empty() && !kind.is_empty());
/// }
/// # Ok::<(), skills_runtime::DecodeError>(())
/// ```
pub mod bundle {
    #[cfg(feature = "agentskills")]
    pub use skills_core::features::outline::{Outline, Section};
    pub use skills_core::wire::bundle::{
        Bundle, Bytes, Content, File, Signature, Skill, SkillFileName, ToolRule,
    };
}

/// agentskills-core's tool vocabulary, served from the bundle: the tools
/// its outline and fast-path texts tell the model to call
/// ([`Catalog::core_tool`]), and the single-skill fast path
/// ([`Catalog::fast_path`]). A host that puts those texts in front of a
/// model offers these tools beside `skill`.
///
/// ```
/// use skills_runtime::core_tools::{CORE_TOOLS, CoreTool};
/// static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("doc-skills");
///
/// let catalog = SKILLS.catalog()?;
/// // Declare each tool to the model, then answer its calls.
/// assert!(CORE_TOOLS.iter().all(|tool| tool.schema().starts_with('{')));
/// let outline = catalog.core_tool(CoreTool::GetSkillOutline, "pdf-forms", None).unwrap();
/// assert!(outline.contains("pdf-forms"));
/// let missing = catalog.core_tool(CoreTool::GetSkillBody, "no-such-skill", None).unwrap_err();
/// assert!(missing.to_string().contains("no-such-skill"));
/// # Ok::<(), skills_runtime::DecodeError>(())
/// ```
#[cfg(feature = "agentskills")]
pub mod core_tools {
    pub use skills_core::features::core_tools::{CORE_TOOLS, CoreTool, CoreToolError};
    pub use skills_core::features::fastpath::{
        DEFAULT_FAST_PATH_MAX_TOKENS, FAST_PATH_DROPPED_TOOLS, FastPath,
    };
    pub use skills_core::features::outline::SectionNotFound;
    pub use skills_core::features::resources::ResourceNotFound;
}

/// The `skill` tool in the JSON of model providers' HTTP APIs (feature
/// `json`), for a program that talks to OpenAI Chat Completions (or any
/// server that speaks it), OpenAI Responses or Anthropic Messages with an
/// HTTP client and serde_json: [`Provider::tool`](providers::Provider::tool)
/// is the request's `tools` entry, [`Provider::skill_calls`](providers::Provider::skill_calls)
/// reads the calls of `skill` from the model's reply, and
/// [`SkillCall::serve`](providers::SkillCall::serve) answers one with the
/// message (or item, or block) that provider takes. A refusal is answered
/// with its text for the model, like any other call.
///
/// ```
/// use skills_runtime::providers::Provider;
/// use serde_json::json;
/// static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("doc-skills");
///
/// let catalog = SKILLS.catalog()?;
/// let provider = Provider::Responses;
/// let request = json!({
///     "model": "gpt-5",
///     "instructions": catalog.system_prompt(),
///     "input": "Fill in the form in form.pdf",
///     "tools": [provider.tool(&catalog.tool_definition())],
/// });
/// # let _ = request;
/// // The model's reply (its `output` items) calls the tool:
/// let reply = json!({"output": [{"type": "function_call", "call_id": "call_1",
///     "name": "skill", "arguments": "{\"name\":\"pdf-forms\"}"}]});
/// for call in provider.skill_calls(&reply)? {
///     let item = call.serve(catalog); // goes into the next request's `input`
///     assert_eq!(item["type"], "function_call_output");
///     assert_eq!(item["output"], catalog.lookup("pdf-forms").unwrap().instructions);
/// }
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[cfg(feature = "json")]
pub mod providers {
    pub use skills_core::serve::providers::{CallShapeError, Provider, SkillCall};
}

/// Content revisions and the bundle revision (feature `revision`):
/// agentskills-core's `sha256:<hex>` identity of a skill's bytes, and this
/// crate's identity of a whole bundle.
///
/// ```
/// use skills_runtime::revision::{Revision, recorded_revision};
/// static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("doc-skills");
///
/// let catalog = SKILLS.catalog()?;
/// let skill = catalog.lookup("pdf-forms").expect("listed");
/// let revision: Revision = recorded_revision(skill);
/// assert!(revision.to_string().starts_with("sha256:"));
/// assert_eq!(revision.to_string().parse::<Revision>(), Ok(revision));
/// # Ok::<(), skills_runtime::DecodeError>(())
/// ```
#[cfg(feature = "revision")]
pub mod revision {
    pub use skills_core::trust::revision::{
        ParseRevisionError, Revision, bundle_revision, recorded_revision,
    };
}

/// Who published the embedded skills, and are they the bytes that were
/// signed (feature `verify`): a [`TrustPolicy`](verify::TrustPolicy)
/// checks the publisher signatures against trusted keys, with revision and
/// version pins, and can hash the embedded bytes again.
///
/// ```
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/signed.bin")).to_vec();
/// # let public_key: [u8; 32] = *include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/signed.pub"));
/// use skills_runtime::verify::{Status, TrustPolicy};
///
/// // static SKILLS: Embedded = include_skills!("skills", sign_key_env = "...", origin = "...");
/// let catalog = skills_runtime::Catalog::from_bytes(&bytes)?;
/// let policy = TrustPolicy::new("https://example.com/skills")?.trust("release-2026", public_key)?;
/// let verified = policy.verify(catalog.bundle())?;
/// assert_eq!(verified.skills[0].status, Status::Verified);
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[cfg(feature = "verify")]
pub mod verify {
    pub use skills_core::trust::revision::PayloadError;
    pub use skills_core::trust::verify::{
        BundleIdentity, Check, Identity, Status, Subject, TrustPolicy, Verified, VerifyError,
    };
}

/// The check that `include_skills!` expands to: the bundle format the macro
/// encoded must be the one this runtime reads. On a mismatch the build
/// fails with two errors, one naming the skills-macros version and the
/// format it wrote, one naming this skills-runtime version and the format
/// it reads.
#[doc(hidden)]
#[macro_export]
macro_rules! __check_bundle_format {
    ($format:literal, $macros_version:literal) => {
        const _: () = if $crate::__private::FORMAT_VERSION != $format {
            ::core::panic!(::core::concat!(
                "include_skills! from skills-macros ",
                $macros_version,
                " encoded bundle format ",
                ::core::stringify!($format),
                "; use the skills-runtime and skills-macros of one release"
            ));
        };
        const _: () = if $crate::__private::FORMAT_VERSION != $format {
            ::core::panic!("{}", $crate::__private::RUNTIME_READS);
        };
    };
}

/// What the macro's expansion and the compiler need of the runtime, and
/// nothing an application should name: not part of the API, may change in
/// any release.
#[doc(hidden)]
pub mod __private {
    pub use skills_core::FORMAT_VERSION;

    const PREFIX: &str = concat!(
        "this crate links skills-runtime ",
        env!("CARGO_PKG_VERSION"),
        ", which reads bundle format "
    );

    /// The decimal digits of `n`, most significant first, and their count.
    const fn digits(mut n: u16) -> ([u8; 5], usize) {
        let mut reversed = [0u8; 5];
        let mut count = 0;
        loop {
            reversed[count] = b'0' + (n % 10) as u8;
            count += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        let mut out = [0u8; 5];
        let mut i = 0;
        while i < count {
            out[i] = reversed[count - 1 - i];
            i += 1;
        }
        (out, count)
    }

    const DIGITS: ([u8; 5], usize) = digits(FORMAT_VERSION);
    const LEN: usize = PREFIX.len() + DIGITS.1;
    const BYTES: [u8; LEN] = {
        let mut out = [0u8; LEN];
        let prefix = PREFIX.as_bytes();
        let mut i = 0;
        while i < prefix.len() {
            out[i] = prefix[i];
            i += 1;
        }
        let mut j = 0;
        while j < DIGITS.1 {
            out[prefix.len() + j] = DIGITS.0[j];
            j += 1;
        }
        out
    };

    /// `this crate links skills-runtime <version>, which reads bundle format <n>`.
    pub const RUNTIME_READS: &str = match core::str::from_utf8(&BYTES) {
        Ok(text) => text,
        Err(_) => PREFIX,
    };

    #[cfg(test)]
    mod tests {
        extern crate std;
        use std::borrow::ToOwned;
        use std::string::ToString;

        #[test]
        fn names_the_version_and_format() {
            assert_eq!(
                super::RUNTIME_READS,
                concat!(
                    "this crate links skills-runtime ",
                    env!("CARGO_PKG_VERSION"),
                    ", which reads bundle format "
                )
                .to_owned()
                    + &super::FORMAT_VERSION.to_string()
            );
        }
    }
}
