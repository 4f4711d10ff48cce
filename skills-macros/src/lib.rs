//! `include_skills!`: Agent Skills validated and compiled into the binary
//! at compile time.
//!
//! This crate is a thin shell: it parses the macro's arguments and turns
//! the result into tokens. Reading, validating, compiling and encoding are
//! `skills-build`'s, the same code a `build.rs` uses. Use the macro through
//! `skills-runtime`, which re-exports it:
//!
//! ```ignore
//! static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("skills");
//! ```
// docs.rs (nightly, `--cfg docsrs`): "Available on crate feature …" on
// every feature-gated item, worked out from its `#[cfg]`.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(feature = "document-features", doc = "# Features")]
#![cfg_attr(feature = "document-features", doc = "")]
#![cfg_attr(feature = "document-features", doc = document_features::document_features!())]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod args;
mod expand;
mod literal;
mod tokens;

use proc_macro::TokenStream;

/// Validates and compiles skills and expands to a `skills_runtime::Embedded`
/// over the bundle.
///
/// The path, relative to the crate root (`CARGO_MANIFEST_DIR`), is a skill
/// folder (it holds `SKILL.md`: one skill) or a folder of skill folders; a
/// path that does not exist or holds no skill is a compile error. This is
/// the same pipeline, with the same verdicts, as `skills check`, `skills
/// build` and `skills_build::Builder`. Every error of every skill becomes
/// its own compile error, and every warning and note its own compiler
/// warning, each naming the file, line and column and the rule. Junk
/// (`.DS_Store`, editor swap files, `.git/`, `__pycache__/`,
/// `node_modules/`...) is left out, and so is each skill's `evals/` folder
/// (authoring material). Options follow the path, as
/// `name = value`:
///
/// - `source = "dir"` adds a source searched after the first (earlier
///   ones win a name); `source = "dir" as "vendor"` lists the names an
///   earlier source took as `vendor:name`.
/// - `location_base = "/opt/skills"` prints prompt locations as
///   `<base>/<dir>/SKILL.md` instead of `skill://<name>/SKILL.md`.
/// - `exclude = "*.tmp"` leaves matching files out (repeatable).
/// - `max_file_size = 1048576` refuses larger files (default 16 MiB).
/// - `extensions = true` accepts agentskills-core's extension fields
///   (`version`, `when_to_use`, `when_not_to_use`), which are otherwise
///   unknown keys, as the reference validator says.
/// - `keep_junk = true` embeds junk like any other file.
/// - `hosts = ["claude-code", "codex"]` (or one string) targets those
///   hosts: the fields each documents are accepted and type-checked, Codex's
///   `agents/openai.yaml` checked, keys no targeted host reads stay
///   errors. The ids: `claude-code`, `codex`, `vscode`, `gemini`,
///   `opencode`, `cursor`. Without it, the reference validator's verdict.
/// - `keep_evals = true` embeds each skill's `evals/` folder (authoring
///   material, left out by default).
/// - `allow = ["body-too-long"]` (or one string) silences those rules
///   everywhere: warnings, notes, and the audit's and lints' errors (a
///   private key that is a test fixture, say), which are lowered only this
///   way, by name; naming another error's code is a compile error.
/// - `deny_warnings = true` makes every warning a compile error (`skills
///   check --deny-warnings` does the same; notes never fail).
///
/// Stable Rust gives a macro no way to warn, so each warning and note is
/// the use of a deprecated constant named for its rule, at the macro's
/// path: rustc prints `warning: use of deprecated constant
/// `SKILLS::pipe_to_shell`: skills/tools/SKILL.md:11:1: warning: …`, with
/// the rule and the help on the lines after, and shows it when the build
/// fails for another reason too. `#[deny(deprecated)]` (or `-D warnings`)
/// makes them errors, `#[allow(deprecated)]` on the item silences them,
/// and `allow = ["pipe-to-shell"]` silences one rule.
///
/// Besides the reference validator's rules, the gate audits what makes a
/// skill unsafe to ship (bidirectional controls and tag characters,
/// private keys and credentials are errors; a download piped into a shell
/// or an unrestricted `Bash` grant are warnings) and lints what breaks it
/// (a link to a file the skill does not hold is an error): each rule's
/// code and meaning are
/// [`skills_build::problem::Code`](https://docs.rs/skills-build/latest/skills_build/problem/enum.Code.html)'s,
/// and the repository's `docs/audit.md` and `docs/lints.md` say what each
/// finds and misses.
/// - `sign_key_env = "SKILLS_SIGNING_KEY"` or `sign_key_file = "keys/skills.pem"`
///   (a PKCS#8 PEM Ed25519 key or a hex seed), with `origin = "https://..."`
///   and optionally `key_id = "..."`, signs every skill and the bundle. The
///   key is never embedded; a change of the variable or the file rebuilds.
///   Signing needs skills-runtime's `sign` feature; without it these
///   options are a compile error that says so.
///
/// The bundle is emitted as one byte-string literal. A bundle over 1 MiB in
/// a crate that has a build script is instead written to `OUT_DIR` and
/// included from there, which rustc handles faster and in less memory.
/// There it also serves the next expansion: the digests of files that are
/// unchanged, byte for byte, are taken from it instead of hashed again.
///
/// Edits and deletions of embedded files rebuild the crate. Files *added*
/// to the directory are only seen when the crate rebuilds for another
/// reason, so add a one-line `build.rs` (with it, Cargo watches the whole
/// folder, and the macro leaves the files under a watched path to Cargo
/// instead of making rustc read each again to track it):
///
/// ```ignore
/// fn main() {
///     println!("cargo:rerun-if-changed=skills");
/// }
/// ```
#[proc_macro]
pub fn include_skills(input: TokenStream) -> TokenStream {
    match args::parse(input) {
        Ok(args) => expand::expand(args),
        Err(error) => expand::with_errors(vec![error]),
    }
}
