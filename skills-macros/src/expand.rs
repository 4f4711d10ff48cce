//! Turning the arguments into tokens: the bundle as one byte-string
//! literal, a hidden `include_bytes!` per input file, the format-version
//! lock, or one spanned `compile_error!` per problem.

use std::path::{Path, PathBuf};

use proc_macro::{Literal, Span, TokenStream};
use skills_build::Builder;
#[cfg(feature = "sign")]
use skills_build::KeySource;
#[cfg(feature = "sign")]
use skills_build::Signing;
use skills_build::problem::{Code, Problem, Severity};

use crate::args::{ArgError, MacroArgs, Spanned};
use crate::tokens;

/// The directory relative paths start from. `CARGO_MANIFEST_DIR_OVERRIDE`
/// wins, so UI tests (which compile in a scratch crate) can point at their
/// fixtures.
fn manifest_dir() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR_OVERRIDE")
        .or_else(|| std::env::var_os("CARGO_MANIFEST_DIR"))
        .map(PathBuf::from)
        .unwrap_or_default()
}

/// Resolves a source argument (a skill folder or a folder of skills), or
/// explains (at its span) why not. Whether it exists and holds skills is
/// the pipeline's to say, with the same errors as every other route.
fn resolve(base: &Path, lit: &Spanned<String>) -> Result<PathBuf, ArgError> {
    let value = &lit.value;
    let path = Path::new(value);
    if path.is_absolute() {
        return Err(ArgError::new(
            lit.span,
            // The crate root is not named: it is where the user's Cargo.toml
            // is (and a UI test's expected output stays the same wherever
            // the target folder is).
            format!(
                "`{value}` is an absolute path, which only works on this machine; give the skills directory relative to the crate root (the folder of its Cargo.toml)"
            ),
        ));
    }
    Ok(base.join(path))
}

/// Where rustc runs, which is where the paths it prints start from: the
/// workspace root for a crate of a workspace (so a terminal or an IDE
/// opens them), else the crate's root.
fn rustc_dir(base: &Path) -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| base.to_path_buf())
}

/// The text of one problem's `compile_error!`: `file:line:col: message`
/// (the file as rustc prints its own paths), the message in plain words
/// ([`diagnostic::plain`](skills_build::diagnostic::plain)), with the field,
/// the rule and a hint on their own lines.
fn message(problem: &Problem, base: &Path) -> String {
    message_from(problem, base, &rustc_dir(base))
}

/// [`message`], with paths shown relative to `root` (else to `base`).
fn message_from(problem: &Problem, base: &Path, root: &Path) -> String {
    let mut text = String::new();
    if let Some(file) = &problem.file {
        let shown = Path::new(file)
            .strip_prefix(root)
            .or_else(|_| Path::new(file).strip_prefix(base))
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| file.clone());
        text.push_str(&shown);
        if let Some(position) = problem.position {
            text.push_str(&format!(":{}:{}", position.line, position.column));
        }
        text.push_str(": ");
    }
    match problem.severity {
        Severity::Error => {}
        severity => text.push_str(&format!("{severity}: ")),
    }
    // Paths inside the message (a shadowing skill, say) read relative too.
    let relative = |text: &str| {
        text.replace(&format!("{}/", root.display()), "")
            .replace(&format!("{}/", base.display()), "")
    };
    text.push_str(&relative(&skills_build::diagnostic::plain(
        &problem.message,
    )));
    if let Some(field) = &problem.field {
        text.push_str(&format!("\n  field: {field}"));
    }
    text.push_str(&format!("\n  rule: {}", problem.code));
    if let Some(hint) = &problem.hint {
        text.push_str(&format!("\n  help: {}", relative(hint)));
    } else if problem.code == Code::SourceNotFound {
        text.push_str("\n  help: paths are relative to the crate root (CARGO_MANIFEST_DIR)");
    }
    text
}

/// A value of the right type to stand in when there are errors, so that
/// only the real errors show.
pub fn with_errors(errors: Vec<ArgError>) -> TokenStream {
    let mut out = TokenStream::new();
    for error in errors {
        out.extend(tokens::compile_error(error.span, &error.message));
    }
    out.extend(tokens::code("::skills_runtime::Embedded::new(&[])"));
    tokens::block(out)
}

/// The whole expansion of `include_skills!(...)`.
pub fn expand(args: MacroArgs) -> TokenStream {
    let base = manifest_dir();
    let span = args.path.span;
    let mut errors = Vec::new();
    let mut builder = Builder::new().deny_shadowing();
    match resolve(&base, &args.path) {
        Ok(dir) => builder = builder.source(dir),
        Err(error) => errors.push(error),
    }
    for extra in &args.sources {
        match (resolve(&base, &extra.path), &extra.qualifier) {
            (Ok(dir), None) => builder = builder.source(dir),
            (Ok(dir), Some(qualifier)) => {
                builder = builder.qualified_source(dir, qualifier.value.clone())
            }
            (Err(error), _) => errors.push(error),
        }
    }
    if let Some(base_lit) = &args.location_base {
        builder = builder.location_base(base_lit.value.clone());
    }
    if let Some(extensions) = &args.extensions {
        builder = builder.extensions(extensions.value);
    }
    if let Some(keep_junk) = &args.keep_junk {
        builder = builder.keep_junk(keep_junk.value);
    }
    if let Some(keep_evals) = &args.keep_evals {
        builder = builder.keep_evals(keep_evals.value);
    }
    for id in &args.hosts {
        match id.value.parse::<skills_build::Host>() {
            Ok(host) => builder = builder.host(host),
            Err(error) => errors.push(ArgError::new(id.span, error.to_string())),
        }
    }
    for rule in &args.allow {
        builder = builder.allow(rule.value.as_str());
    }
    for pattern in &args.excludes {
        builder = builder.exclude(pattern.value.clone());
    }
    if let Some(limit) = &args.max_file_size {
        builder = builder.max_file_size(limit.value);
    }
    #[cfg(feature = "sign")]
    let mut key_env = None;
    #[cfg(feature = "sign")]
    match signing(&args, &base) {
        Ok(Some(signing)) => {
            key_env = signing.env_var().map(str::to_string);
            builder = builder.sign(signing);
        }
        Ok(None) => {}
        Err(error) => errors.push(error),
    }
    #[cfg(not(feature = "sign"))]
    let key_env: Option<String> = None;
    #[cfg(not(feature = "sign"))]
    errors.extend(signing_unavailable(&args));
    if !errors.is_empty() {
        return with_errors(errors);
    }
    let out_file = bundle_file(&builder);
    if let Some(path) = &out_file {
        builder = builder.reuse_from(path);
    }
    let (result, inputs) = builder.compile_with_inputs();
    let deny_warnings = args.deny_warnings.as_ref().is_some_and(|deny| deny.value);
    match result {
        // With `deny_warnings`, warnings fail the build as the errors do.
        Ok(compiled) if !(deny_warnings && compiled.warnings.iter().any(is_warning)) => {
            let file = large_bundle_file(&compiled.bytes, out_file.as_deref());
            let mut out = shown(&compiled.warnings, span, &base);
            let watched = watched_by_build_script(&base);
            let tracked: Vec<PathBuf> = inputs
                .into_iter()
                .filter(|input| !covered(input, &watched))
                .collect();
            out.extend(embed(&compiled.bytes, file, &tracked, key_env.as_deref()));
            tokens::block(out)
        }
        Ok(compiled) => failed(compiled.warnings, deny_warnings, span, &base),
        Err(error) => failed(error.problems, deny_warnings, span, &base),
    }
}

/// Whether a problem is a warning (not an error, not a note).
fn is_warning(problem: &Problem) -> bool {
    problem.severity == Severity::Warning
}

/// Whether a problem fails the build: an error, or a warning with
/// `deny_warnings`. Notes never do.
fn fails(problem: &Problem, deny_warnings: bool) -> bool {
    problem.is_error() || (deny_warnings && is_warning(problem))
}

/// A failed build: one `compile_error!` per problem that fails it, and
/// the other warnings and notes shown as compiler warnings, as `skills
/// check` shows them beside its errors.
fn failed(mut problems: Vec<Problem>, deny_warnings: bool, span: Span, base: &Path) -> TokenStream {
    Problem::sort(&mut problems);
    let (errors, rest): (Vec<Problem>, Vec<Problem>) = problems
        .into_iter()
        .partition(|problem| fails(problem, deny_warnings));
    let mut out = shown(&rest, span, base);
    for problem in &errors {
        out.extend(tokens::compile_error(span, &message(problem, base)));
    }
    out.extend(tokens::code("::skills_runtime::Embedded::new(&[])"));
    tokens::block(out)
}

/// Each warning and note as a compiler warning at `span` (the macro's
/// path), its text the same as a compile error's (file:line:col, the
/// message, the rule code and the hint), named for its rule. Past
/// [`LISTED_AT_MOST`](skills_build::diagnostic::LISTED_AT_MOST) of them,
/// as `skills check` does, one warning a rule that has more than one
/// (how many, and the first as an example), warnings before notes, the
/// most frequent first.
fn shown(problems: &[Problem], span: Span, base: &Path) -> TokenStream {
    let mut out = TokenStream::new();
    for (name, text) in warnings(problems, base) {
        out.extend(tokens::warning(span, &name, &text));
    }
    out
}

/// The warnings [`shown`] makes, each as the constant's name (the rule
/// code, `-` written `_`) and its text.
fn warnings(problems: &[Problem], base: &Path) -> Vec<(String, String)> {
    let name = |problem: &Problem| problem.code.as_str().replace('-', "_");
    if problems.len() <= skills_build::diagnostic::LISTED_AT_MOST {
        return problems
            .iter()
            .map(|problem| (name(problem), message(problem, base)))
            .collect();
    }
    let mut groups: Vec<(&Problem, usize)> = Vec::new();
    for problem in problems {
        match groups
            .iter_mut()
            .find(|(first, _)| first.code == problem.code && first.severity == problem.severity)
        {
            Some((_, count)) => *count += 1,
            None => groups.push((problem, 1)),
        }
    }
    groups.sort_by_key(|(first, count)| {
        (first.severity == Severity::Note, std::cmp::Reverse(*count))
    });
    groups
        .into_iter()
        .map(|(first, count)| {
            let text = match count {
                1 => message(first, base),
                _ => format!(
                    "{count} {}s of rule {}, the first: {}\n  (`skills check -v` lists every one; `allow = [\"{}\"]` silences the rule)",
                    first.severity,
                    first.code,
                    message(first, base),
                    first.code
                ),
            };
            (name(first), text)
        })
        .collect()
}

/// Without the `sign` feature the macro compiles no Ed25519 code, so a
/// signing option is an error that says which feature to turn on.
#[cfg(not(feature = "sign"))]
fn signing_unavailable(args: &MacroArgs) -> Option<ArgError> {
    let (name, lit) = [
        ("sign_key_env", &args.sign_key_env),
        ("sign_key_file", &args.sign_key_file),
        ("origin", &args.origin),
        ("key_id", &args.key_id),
    ]
    .into_iter()
    .find_map(|(name, lit)| lit.as_ref().map(|lit| (name, lit)))?;
    Some(ArgError::new(
        lit.span,
        format!(
            "`{name}` is a signing option, and signing needs skills-runtime's `sign` feature: \
             `skills-runtime = {{ version = \"0.1\", features = [\"sign\"] }}`"
        ),
    ))
}

/// The signing options, checked: a key source and an origin go together.
#[cfg(feature = "sign")]
fn signing(args: &MacroArgs, base: &Path) -> Result<Option<Signing>, ArgError> {
    let key = match (&args.sign_key_env, &args.sign_key_file) {
        (Some(_), Some(file)) => {
            return Err(ArgError::new(
                file.span,
                "give either `sign_key_env` or `sign_key_file`, not both",
            ));
        }
        (Some(var), None) => Some(KeySource::Env(var.value.clone())),
        (None, Some(file)) => {
            let path = Path::new(&file.value).to_path_buf();
            if path.is_absolute() {
                return Err(ArgError::new(
                    file.span,
                    "`sign_key_file` is relative to the crate root; an absolute path only works on this machine",
                ));
            }
            Some(KeySource::File(base.join(path)))
        }
        (None, None) => None,
    };
    match (key, &args.origin) {
        (Some(key), Some(origin)) => {
            let signing = Signing::new(key, origin.value.clone());
            Ok(Some(match &args.key_id {
                Some(id) => signing.key_id(id.value.clone()),
                None => signing,
            }))
        }
        (Some(_), None) => Err(ArgError::new(
            args.path.span,
            "signing needs `origin = \"...\"`: the origin the signatures vouch for",
        )),
        (None, Some(origin)) => Err(ArgError::new(
            origin.span,
            "`origin` is for signing: add `sign_key_env = \"VAR\"` or `sign_key_file = \"path\"`",
        )),
        (None, None) => match &args.key_id {
            Some(id) => Err(ArgError::new(id.span, "`key_id` is for signing")),
            None => Ok(None),
        },
    }
}

/// What the crate's build script asked Cargo to watch
/// (`cargo:rerun-if-changed=PATH`, relative to the crate root), read from
/// the record Cargo keeps of the script's output beside `OUT_DIR`
/// (`OUT_DIR/../output`); none when there is no such record (no build
/// script, or a build system other than Cargo).
///
/// Cargo runs the script again when anything under a watched path
/// changes (a directory is scanned whole: an edit, an addition, a
/// deletion), and a script run again rebuilds the crate; so a file under
/// one needs no tracking of its own, and rustc need not read it again
/// (the README's one-line `build.rs` watches the skills folder).
fn watched_by_build_script(base: &Path) -> Vec<PathBuf> {
    let Some(out_dir) = std::env::var_os("OUT_DIR") else {
        return Vec::new();
    };
    let record = Path::new(&out_dir).with_file_name("output");
    match std::fs::read_to_string(record) {
        Ok(text) => watched_in(&text, base),
        Err(_) => Vec::new(),
    }
}

/// The paths a build script's output watches, resolved against `base`.
fn watched_in(output: &str, base: &Path) -> Vec<PathBuf> {
    output
        .lines()
        .filter_map(|line| {
            line.strip_prefix("cargo::rerun-if-changed=")
                .or_else(|| line.strip_prefix("cargo:rerun-if-changed="))
        })
        .filter(|path| !path.is_empty())
        .map(|path| lexical(&base.join(path)))
        .collect()
}

/// `path` with `.` and `..` taken out, lexically (as Cargo resolves a
/// watched path: without following links).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                if !out.pop() {
                    out.push(part);
                }
            }
            part => out.push(part),
        }
    }
    out
}

/// Whether `input` is a watched path or inside one.
fn covered(input: &Path, watched: &[PathBuf]) -> bool {
    let input = lexical(input);
    watched.iter().any(|dir| input.starts_with(dir))
}

/// The bundle literal, the rebuild tracking and the version lock: the
/// statements and the value of the expansion's block.
///
/// Each input file not under a path the build script watches (see
/// [`watched_by_build_script`]) is tracked by an `include_bytes!` in a
/// function that is never called: rustc records the file as a dependency when it expands the
/// macro, so an edit or a deletion rebuilds; being dead code, the bytes are
/// neither evaluated as constants nor compiled into the binary (a key
/// file's least of all), which keeps rustc's time and memory close to
/// `include_dir!`'s. A key in an environment variable is tracked through
/// `option_env!`, reduced to a `bool` so its value is kept nowhere.
fn embed(
    bytes: &[u8],
    file: Option<String>,
    inputs: &[PathBuf],
    key_env: Option<&str>,
) -> TokenStream {
    let mut code = String::from("#[allow(dead_code)] fn __include_skills_tracked_inputs() {");
    for path in inputs.iter().filter_map(|path| path.to_str()) {
        code.push_str(&format!(
            " let _ = ::core::include_bytes!({});",
            tokens::string(path)
        ));
    }
    code.push('}');
    if let Some(name) = key_env {
        code.push_str(&format!(
            " const _: bool = ::core::option_env!({}).is_some();",
            tokens::string(name)
        ));
    }
    code.push_str(&format!(
        " ::skills_runtime::__check_bundle_format!({}, {});",
        skills_core::FORMAT_VERSION,
        tokens::string(env!("CARGO_PKG_VERSION"))
    ));
    let bundle = match file {
        Some(path) => tokens::code(&format!(
            "::core::include_bytes!({})",
            tokens::string(&path)
        )),
        None => {
            let mut literal = Literal::byte_string(bytes);
            literal.set_span(Span::call_site());
            TokenStream::from(proc_macro::TokenTree::Literal(literal))
        }
    };
    let mut out = tokens::code(&code);
    out.extend(tokens::call("::skills_runtime::Embedded::new", bundle));
    out
}

/// Where a large bundle of this invocation goes: a file in `OUT_DIR`
/// (when the crate has a build script) named for the invocation's options.
/// The next expansion takes the digests of unchanged files from it, and
/// resumes the revision's hash, instead of hashing everything again
/// (`Builder::reuse_from`).
fn bundle_file(builder: &Builder) -> Option<PathBuf> {
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR")?);
    let key = skills_core::sha256::digest(format!("{builder:?}").as_bytes());
    let name: String = key[..8].iter().map(|b| format!("{b:02x}")).collect();
    Some(out_dir.join(format!("include_skills-{name}.bin")))
}

/// Bundles up to this size are emitted as one byte-string literal.
const LITERAL_LIMIT: usize = 1 << 20;

/// A large bundle is cheaper for rustc as a file it includes than as a
/// literal it must lex (binary bytes take four characters each in a
/// literal). When the crate has a build script (the recommended one-line
/// `build.rs`), `OUT_DIR` is there to hold it: the bundle is written to
/// `path` (unless it already holds these bytes) and included from there.
fn large_bundle_file(bytes: &[u8], path: Option<&Path>) -> Option<String> {
    if bytes.len() <= LITERAL_LIMIT {
        return None;
    }
    let path = path?;
    let current = std::fs::read(path).is_ok_and(|old| old == bytes);
    if !current {
        let partial = PathBuf::from(format!("{}.{}", path.display(), std::process::id()));
        std::fs::write(&partial, bytes).ok()?;
        std::fs::rename(&partial, path).ok()?;
    }
    path.to_str().map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use skills_build::problem::Position;

    /// Up to 50 warnings and notes show one by one; past that, one a rule
    /// with more than one, warnings first, then the most frequent.
    #[test]
    fn many_warnings_are_grouped_by_rule() {
        let base = Path::new("/work/app");
        let note = |at: usize| {
            Problem::new(Code::FileUnmentioned, format!("f{at}.txt is named nowhere"))
                .with_file(format!("/work/app/skills/a/f{at}.txt"))
        };
        let few: Vec<Problem> = (0..3).map(note).collect();
        assert_eq!(warnings(&few, base).len(), 3);
        let mut many: Vec<Problem> = (0..60).map(note).collect();
        many.push(
            Problem::new(Code::PipeToShell, "a download is piped into a shell here")
                .with_file("/work/app/skills/a/SKILL.md")
                .at(Position { line: 9, column: 1 }),
        );
        let shown = warnings(&many, base);
        assert_eq!(shown.len(), 2);
        assert_eq!(shown[0].0, "pipe_to_shell");
        assert!(
            shown[0]
                .1
                .starts_with("skills/a/SKILL.md:9:1: warning: a download"),
            "{}",
            shown[0].1
        );
        assert_eq!(shown[1].0, "file_unmentioned");
        assert!(
            shown[1].1.starts_with(
                "60 notes of rule file-unmentioned, the first: skills/a/f0.txt: note: "
            ),
            "{}",
            shown[1].1
        );
    }

    /// Files under a path the build script watches are not tracked one
    /// by one; others (a key file elsewhere, a source outside) are.
    #[test]
    fn files_under_a_watched_path_need_no_tracking() {
        let base = Path::new("/work/app");
        let output = "cargo:rerun-if-changed=../shared/skills\ncargo:warning=hi\ncargo::rerun-if-changed=./keys/\ncargo:rerun-if-changed=\n";
        let watched = watched_in(output, base);
        assert_eq!(
            watched,
            [
                PathBuf::from("/work/shared/skills"),
                PathBuf::from("/work/app/keys")
            ]
        );
        assert!(covered(
            Path::new("/work/app/../shared/skills/pdf/SKILL.md"),
            &watched
        ));
        assert!(covered(Path::new("/work/app/keys/skills.pem"), &watched));
        assert!(!covered(
            Path::new("/work/shared/skills-extra/a/SKILL.md"),
            &watched
        ));
        assert!(!covered(
            Path::new("/work/app/skills/pdf/SKILL.md"),
            &watched
        ));
        assert!(!covered(Path::new("/work/app/skills/pdf/SKILL.md"), &[]));
    }

    /// Issue 20, finding 9: a path as rustc prints it, from the workspace
    /// root (clickable in a terminal and an IDE), in plain words, with a
    /// help for an unquoted `: `.
    #[test]
    fn messages_name_files_from_the_workspace_root_in_plain_words() {
        let root = Path::new("/work/space");
        let base = root.join("crates/agent");
        let problem = Problem::new(
            Code::YamlSyntax,
            "Invalid YAML in frontmatter: mapping values are not allowed here\n  in \"<unicode string>\", line 3, column 24:\n    description: Use when: asked\n                           ^ (line: 3)",
        )
        .with_file(base.join("skills/notes/SKILL.md").display().to_string())
        .at(Position { line: 3, column: 24 })
        .with_hint("quote the value");
        assert_eq!(
            message_from(&problem, &base, root),
            "crates/agent/skills/notes/SKILL.md:3:24: Invalid YAML in frontmatter: mapping values are not allowed here\n    description: Use when: asked\n                           ^\n  rule: yaml-syntax\n  help: quote the value"
        );
        // Outside the root (a crate built from elsewhere): from the crate.
        let elsewhere = Path::new("/elsewhere");
        assert!(
            message_from(&problem, &base, elsewhere).starts_with("skills/notes/SKILL.md:3:24: ")
        );
    }
}
