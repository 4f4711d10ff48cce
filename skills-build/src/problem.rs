//! Problems found in skills: what, how bad, where, and which rule.
//!
//! Every problem carries a [`Code`]: a stable, kebab-case rule identifier
//! that the JSON, GitHub and SARIF outputs of `skills check` and `skills
//! build` print, so CI systems can map, filter and suppress by rule. The
//! table of codes is [`Code::ALL`]; `docs/rule-codes.md` lists them with
//! their meaning (a test keeps the two equal).

use std::fmt;

/// How serious a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The skill is invalid; a build that embeds it fails.
    Error,
    /// The skill works, but breaks a recommendation of the specification.
    Warning,
    /// Information only: something was done on the user's behalf (a junk
    /// file left out, say). Never fails anything.
    Note,
}

impl Severity {
    /// `"error"`, `"warning"` or `"note"`, as diagnostics print it.
    ///
    /// ```
    /// assert_eq!(skills_build::problem::Severity::Note.as_str(), "note");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which rule book a problem comes from.
///
/// ```
/// use skills_build::problem::{Code, Rule};
/// assert_eq!(Code::NameLowercase.rule(), Rule::Reference);
/// assert_eq!(Code::BodyTooLong.rule(), Rule::Specification);
/// assert_eq!(Code::JunkSkipped.rule().as_str(), "build");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Reported, with the same text, by the reference validator
    /// (skills-ref 0.1.1), or where it crashes, in its place.
    Reference,
    /// A rule of the Agent Skills specification that the reference
    /// validator does not check.
    Specification,
    /// agentskills-core's rules for its extension fields (`version`,
    /// `when_to_use`, `when_not_to_use`), checked only when asked for.
    Extension,
    /// A host's rules for the fields it reads (see `skills_build::hosts`),
    /// checked only for the hosts a project targets.
    Host,
    /// What finding, reading and embedding skills needs: sources, files,
    /// limits, names across sources, the bundle itself.
    Build,
    /// Copies installed where coding agents read skills, compared with
    /// their source (`skills status --check`).
    Install,
    /// What makes a skill unsafe to ship: hidden or reordering Unicode,
    /// secrets, downloads piped into a shell, hidden comments, unrestricted
    /// shell grants (`skills audit` runs these alone).
    Audit,
    /// What breaks a skill the specification does not name: links to
    /// nothing, references out of reach, budgets, machine-bound paths.
    Lint,
}

impl Rule {
    /// `"reference"`, `"specification"`, `"extension"`, `"host"`,
    /// `"build"`, `"install"`, `"audit"` or `"lint"`.
    ///
    /// ```
    /// assert_eq!(skills_build::problem::Rule::Extension.as_str(), "extension");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::Reference => "reference",
            Rule::Specification => "specification",
            Rule::Extension => "extension",
            Rule::Host => "host",
            Rule::Build => "build",
            Rule::Install => "install",
            Rule::Audit => "audit",
            Rule::Lint => "lint",
        }
    }
}

/// Where a rule runs: the stage of the pipeline that finds its problems
/// (the rule table's column).
///
/// ```
/// use skills_build::problem::{Code, Stage};
/// assert_eq!(Code::NameLowercase.stage(), Stage::Reference);
/// assert_eq!(Code::JunkSkipped.stage(), Stage::Discover);
/// assert_eq!(Code::BidiControl.stage().as_str(), "content");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    /// The builder's options, before any source is read.
    Options,
    /// Discovery: opening sources, reading and parsing skill files, walking
    /// skill folders, naming skills.
    Discover,
    /// The judge's reference rule book, per skill (the reference's, the
    /// specification's and the extension fields' rules).
    Reference,
    /// The judge's host rule book, per skill, for the hosts targeted.
    Hosts,
    /// The judge's audit and lints, per skill, over every file.
    Content,
    /// The judge, over the catalog as a whole, once every skill is named.
    Catalog,
    /// The compiler, before it encodes a skill the judge passed.
    Limits,
    /// Compiling, signing and writing the bundle.
    Compile,
    /// A command of the `skills` CLI, on its own.
    Command,
    /// The installer, comparing installed copies with their source.
    Install,
}

impl Stage {
    /// The stage as the rule table prints it (`reference`, `content`...).
    ///
    /// ```
    /// assert_eq!(skills_build::problem::Stage::Catalog.as_str(), "catalog");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Options => "options",
            Stage::Discover => "discover",
            Stage::Reference => "reference",
            Stage::Hosts => "hosts",
            Stage::Content => "content",
            Stage::Catalog => "catalog",
            Stage::Limits => "limits",
            Stage::Compile => "compile",
            Stage::Command => "command",
            Stage::Install => "install",
        }
    }
}

/// Declares the codes once: the enum, its table, and each code's text,
/// rule book, default severity, where it runs and meaning.
macro_rules! codes {
    ($($variant:ident = $text:literal, $rule:ident, $severity:ident, $stage:ident, $meaning:literal;)*) => {
        /// A stable identifier of the rule a problem breaks.
        ///
        /// Codes are kebab-case and never reused; a code's meaning does not
        /// change between releases (a new rule gets a new code).
        ///
        /// ```
        /// use skills_build::problem::{Code, Severity};
        /// assert_eq!(Code::NameLowercase.as_str(), "name-lowercase");
        /// assert_eq!(Code::from_str("yaml-syntax"), Some(Code::YamlSyntax));
        /// assert_eq!(Code::BodyTooLong.severity(), Severity::Warning);
        /// ```
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $(
                #[doc = $meaning]
                $variant,
            )*
        }

        impl Code {
            /// Every code, in the order the documentation lists them.
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            /// The code as printed, e.g. `name-lowercase`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $text,)*
                }
            }

            /// The rule book the rule belongs to.
            pub fn rule(self) -> Rule {
                match self {
                    $(Code::$variant => Rule::$rule,)*
                }
            }

            /// The severity a problem of this rule has unless an option
            /// changes it (shadowing under `deny_shadowing`, say).
            pub fn severity(self) -> Severity {
                match self {
                    $(Code::$variant => Severity::$severity,)*
                }
            }

            /// Where the rule runs: which stage of the pipeline finds it.
            pub fn stage(self) -> Stage {
                match self {
                    $(Code::$variant => Stage::$stage,)*
                }
            }

            /// What the rule asks, in one sentence.
            pub fn meaning(self) -> &'static str {
                match self {
                    $(Code::$variant => $meaning,)*
                }
            }

            /// The variant's name (`BidiControl`), as the crate's API
            /// documentation anchors it.
            pub fn variant_name(self) -> &'static str {
                match self {
                    $(Code::$variant => stringify!($variant),)*
                }
            }
        }
    };
}

codes! {
    SourceNotFound = "source-not-found", Reference, Error, Discover,
        "The path given as a skill or a folder of skills does not exist.";
    SourceNotDirectory = "source-not-directory", Reference, Error, Discover,
        "The path given as a skill or a folder of skills is not a directory.";
    SkillFileMissing = "skill-file-missing", Reference, Error, Discover,
        "A skill directory holds neither SKILL.md nor skill.md.";
    SkillFileUnreadable = "skill-file-unreadable", Reference, Error, Discover,
        "The skill file cannot be read (a directory of that name, or a read error).";
    SkillFileNotUtf8 = "skill-file-not-utf8", Reference, Error, Discover,
        "The skill file is not UTF-8 text (the reference crashes here; this names the byte).";
    FrontmatterMissing = "frontmatter-missing", Reference, Error, Discover,
        "SKILL.md must start with YAML frontmatter (`---`).";
    FrontmatterUnclosed = "frontmatter-unclosed", Reference, Error, Discover,
        "The frontmatter has no closing `---`.";
    YamlSyntax = "yaml-syntax", Reference, Error, Discover,
        "The frontmatter is not valid strict YAML (no flow style, anchors, tags or duplicate keys).";
    FrontmatterNotMapping = "frontmatter-not-mapping", Reference, Error, Discover,
        "The frontmatter must be a YAML mapping of fields.";
    UnknownField = "unknown-field", Reference, Error, Reference,
        "The frontmatter holds a field the specification does not define.";
    NameMissing = "name-missing", Reference, Error, Reference,
        "The frontmatter has no `name`.";
    NameNotString = "name-not-string", Reference, Error, Reference,
        "`name` must be a non-empty string.";
    NameTooLong = "name-too-long", Reference, Error, Reference,
        "`name` is over 64 characters.";
    NameLowercase = "name-lowercase", Reference, Error, Reference,
        "`name` must be lowercase.";
    NameHyphenEdge = "name-hyphen-edge", Reference, Error, Reference,
        "`name` must not start or end with a hyphen.";
    NameConsecutiveHyphens = "name-consecutive-hyphens", Reference, Error, Reference,
        "`name` must not hold two hyphens in a row.";
    NameInvalidCharacters = "name-invalid-characters", Reference, Error, Reference,
        "`name` may hold only letters, digits and hyphens.";
    NameDirectoryMismatch = "name-directory-mismatch", Reference, Error, Reference,
        "`name` must equal the skill directory's name.";
    DescriptionMissing = "description-missing", Reference, Error, Reference,
        "The frontmatter has no `description`.";
    DescriptionNotString = "description-not-string", Reference, Error, Reference,
        "`description` must be a non-empty string.";
    DescriptionTooLong = "description-too-long", Reference, Error, Reference,
        "`description` is over 1024 characters.";
    CompatibilityNotString = "compatibility-not-string", Reference, Error, Reference,
        "`compatibility` must be a string.";
    CompatibilityTooLong = "compatibility-too-long", Reference, Error, Reference,
        "`compatibility` is over 500 characters.";
    FrontmatterFence = "frontmatter-fence", Specification, Error, Reference,
        "The opening and closing `---` of the frontmatter must each be a line of its own.";
    LicenseNotString = "license-not-string", Specification, Error, Reference,
        "`license` must be text.";
    MetadataNotMapping = "metadata-not-mapping", Specification, Error, Reference,
        "`metadata` must be a mapping.";
    MetadataNotString = "metadata-not-string", Specification, Error, Reference,
        "Every value under `metadata` must be a string.";
    AllowedToolsNotString = "allowed-tools-not-string", Specification, Error, Reference,
        "`allowed-tools` must be one space-separated string.";
    AllowedToolsSyntax = "allowed-tools-syntax", Specification, Error, Reference,
        "`allowed-tools` must parse as tool names with optional `(spec)` patterns.";
    BodyTooLong = "body-too-long", Specification, Warning, Reference,
        "The body of SKILL.md is over the 500 lines the specification advises.";
    VersionNotSemver = "version-not-semver", Extension, Error, Reference,
        "`version` (extension field) must be a quoted semantic version.";
    SelectionCasesInvalid = "selection-cases-invalid", Extension, Error, Reference,
        "`when_to_use` and `when_not_to_use` (extension fields) must be lists of at most 5 non-empty strings of at most 200 characters.";
    HostFieldInvalid = "host-field-invalid", Host, Error, Hosts,
        "A field a chosen host reads is not of the type or value that host documents (a bool that is `maybe`, `effort: extreme`, hooks off the settings schema, paths that are not globs, tools that are not permission rules).";
    HostFieldUnrecognized = "host-field-unrecognized", Host, Warning, Hosts,
        "A field a chosen host reads holds a value outside the set the host documents, where the set grows (a model alias, a hook event or hook key): a newer release may know it.";
    HostFieldIgnored = "host-field-ignored", Host, Note, Hosts,
        "With several hosts, a field one of them reads is ignored (or warned on) by another.";
    CodexSidecarInvalid = "codex-sidecar-invalid", Host, Error, Hosts,
        "Under `codex`, the sidecar agents/openai.yaml is not strict YAML, or holds a value of the wrong type or length for a key Codex reads, or a colour that is not #RRGGBB.";
    CodexSidecarUnknownKey = "codex-sidecar-unknown-key", Host, Warning, Hosts,
        "Under `codex`, the sidecar agents/openai.yaml holds a key Codex does not read (and ignores): a typo, or a field of a newer Codex or of the program's own host.";
    CodexIconMissing = "codex-icon-missing", Host, Error, Hosts,
        "Under `codex`, an icon agents/openai.yaml names is not a file of the skill.";
    ShortDescriptionTooLong = "short-description-too-long", Host, Error, Hosts,
        "Under `codex`, `metadata.short-description` is over the 1,024 characters Codex reads.";
    ListingEntryTooLong = "listing-entry-too-long", Host, Warning, Hosts,
        "Under `claude-code`, a skill's description and when_to_use are over the 1,536 characters Claude Code lists per skill.";
    ListingBudgetExceeded = "listing-budget-exceeded", Host, Warning, Catalog,
        "Under `codex`, the catalog's skills list (name and description per skill) is over the 8,000 characters Codex lists when it does not know the context window.";
    NoSkills = "no-skills", Build, Error, Discover,
        "A source holds no skill: neither SKILL.md in it nor in any folder directly under it.";
    NoValidSkill = "no-valid-skill", Build, Error, Compile,
        "With keep-going, every skill found has errors: nothing valid is left to compile, and no bundle is made.";
    SourceUnreadable = "source-unreadable", Build, Error, Discover,
        "A source or a directory in it cannot be opened or listed.";
    ArchiveInvalid = "archive-invalid", Build, Error, Discover,
        "A `.skill` or `.zip` source cannot be read: not a zip, truncated, an entry that escapes its folder, a link, a duplicate, or over the size limits.";
    FmtUnsupported = "fmt-unsupported", Build, Error, Command,
        "`skills fmt` cannot rewrite this skill file: it does not parse, its frontmatter holds a comment (which the canonical form cannot keep), or it sits inside an archive.";
    SourceDuplicate = "source-duplicate", Build, Error, Discover,
        "The same source is given twice.";
    QualifierInvalid = "qualifier-invalid", Build, Error, Discover,
        "A source's qualifier is empty or holds whitespace or a control character.";
    ExcludeInvalid = "exclude-invalid", Build, Error, Options,
        "An exclude pattern is empty, holds a backslash or an empty segment.";
    AllowInvalid = "allow-invalid", Build, Error, Options,
        "An allowed rule (`--allow`, `allow = [...]`, `Builder::allow`) is no rule's code, or an error that cannot be allowed (the reference's, the specification's or the build's).";
    FileUnreadable = "file-unreadable", Build, Error, Discover,
        "A file of a skill cannot be read.";
    FileTooLarge = "file-too-large", Build, Error, Discover,
        "A file is over the size limit for one file (16 MiB unless raised).";
    FileNameControl = "file-name-control", Build, Error, Discover,
        "A file or directory name holds a control character, a bidirectional control or a tag character, which would forge or hide text in the file list a model reads.";
    FileNameBackslash = "file-name-backslash", Build, Error, Discover,
        "A file or directory name holds a backslash, which the skill tool refuses in paths.";
    SkillFileDuplicate = "skill-file-duplicate", Build, Error, Discover,
        "A second skill file (another case of SKILL.md) sits in a skill.";
    TreeTooDeep = "tree-too-deep", Build, Error, Discover,
        "Directories in a skill nest deeper than the limit (a link loop?).";
    TreeTooManyEntries = "tree-too-many-entries", Build, Error, Discover,
        "A skill holds more files and directories than the limit (a link loop?).";
    SkillTooManyFiles = "skill-too-many-files", Build, Error, Limits,
        "A skill has more than 512 files, the MCP Skills extension's limit.";
    SkillTooLarge = "skill-too-large", Build, Error, Limits,
        "A skill's files add up to more than 16 MiB, the MCP Skills extension's limit.";
    SkillShadowed = "skill-shadowed", Build, Warning, Discover,
        "An earlier source took the skill's name, so it is not listed (an error in include_skills!).";
    JunkSkipped = "junk-skipped", Build, Note, Discover,
        "A file or directory left by an operating system, editor, VCS or cache was not embedded.";
    EvalsSkipped = "evals-skipped", Build, Note, Discover,
        "A skill's evals/ folder (authoring material: agentskills.io's evaluation guide) was not embedded.";
    SigningFailed = "signing-failed", Build, Error, Compile,
        "The bundle could not be signed (key missing or unreadable).";
    BundleEncodeFailed = "bundle-encode-failed", Build, Error, Compile,
        "The bundle could not be encoded.";
    BundleDigestMismatch = "bundle-digest-mismatch", Build, Error, Command,
        "A bundle file's recorded digests (of a file, the instructions, the frontmatter, the skill file, the revision) do not match the bytes it holds: it was changed after it was built, and `skills audit` refuses it.";
    OutputUnwritable = "output-unwritable", Build, Error, Compile,
        "The bundle file cannot be written (or, in a build script, OUT_DIR is not set).";
    PluginInvalid = "plugin-invalid", Build, Error, Command,
        "An Agent Plugins folder breaks the specification: plugin.json is not the closed 1.0.0 manifest, a component is not where the specification puts it, or mcp.json is not the closed transport union (a shell string as a command, plain HTTP off loopback, a secret in `env` or `headers`).";
    PluginSkillSkipped = "plugin-skill-skipped", Build, Error, Command,
        "A plugin's skill fails the Agent Skills specification as the reference judges it without host profiles: every conforming client skips it.";
    WellKnownInvalid = "well-known-invalid", Build, Error, Command,
        "A well-known discovery index does not match its artifacts: a field out of the 0.2.0 schema, a digest that is not of the bytes served, an archive that is not at its root, or a skill that fails the check.";
    InstalledStale = "installed-stale", Install, Error, Install,
        "An installed copy holds an earlier version of the skill (or one no longer carried): `install` updates it.";
    InstalledEdited = "installed-edited", Install, Error, Install,
        "A file of an installed copy was changed since it was installed: `install --force` replaces it.";
    InstalledMissing = "installed-missing", Install, Error, Install,
        "A skill, or a file of it, is missing from an agent's folder it is installed in: `install` writes it.";
    InstalledExtra = "installed-extra", Install, Error, Install,
        "An installed copy holds a file that is not part of the skill: `install` keeps it; remove it by hand.";
    InstalledForeign = "installed-foreign", Install, Error, Install,
        "Something the installer did not write stands in a skill's place and differs from it: `install --force` replaces it.";
    BidiControl = "bidi-control", Audit, Error, Content,
        "A text file holds a bidirectional control character (U+202A-U+202E, U+2066-U+2069), which makes text read in another order than it is shown.";
    TagCharacter = "tag-character", Audit, Error, Content,
        "A text file holds Unicode tag characters (U+E0000-U+E007F): text a model reads and a reviewer does not see.";
    PrivateKey = "private-key", Audit, Error, Content,
        "A file holds a private key block (PEM, OpenSSH or PGP).";
    Credential = "credential", Audit, Error, Content,
        "A file holds a credential in a known format (an AWS key pair, a GitHub, GitLab, Slack, OpenAI or Anthropic token), or a .env file assigns one.";
    InvisibleCharacter = "invisible-character", Audit, Warning, Content,
        "SKILL.md holds a zero-width or other invisible format character inside a word.";
    HtmlComment = "html-comment", Audit, Warning, Content,
        "The body of SKILL.md holds an HTML comment: hidden in rendered views, read by the model.";
    PipeToShell = "pipe-to-shell", Audit, Warning, Content,
        "A script or the instructions pipe a download into a shell (`curl ... | sh`, `iex (iwr ...)`): code that no review of the skill saw.";
    ShellUnrestricted = "shell-unrestricted", Audit, Warning, Content,
        "`allowed-tools` (one string, or Claude Code's list) grants an unrestricted shell (`Bash` or `Bash(*)`).";
    HookCommand = "hook-command", Audit, Warning, Content,
        "A Claude Code `hooks` field runs a command at the host's events without asking (one finding per command).";
    ExecutableEmbedded = "executable-embedded", Audit, Warning, Content,
        "A file is an executable program (ELF, Mach-O or PE).";
    UrlRawIp = "url-raw-ip", Audit, Note, Content,
        "A URL points at a raw IP address rather than a name.";
    UrlPasteSite = "url-paste-site", Audit, Note, Content,
        "A URL points at a paste site, whose content can change after review.";
    Base64Blob = "base64-blob", Audit, Note, Content,
        "SKILL.md holds a long base64 blob, which a reviewer cannot read.";
    LinkBroken = "link-broken", Lint, Error, Content,
        "A relative link in SKILL.md, or in a file it links, names a file the skill does not hold.";
    LinkOutsideSkill = "link-outside-skill", Lint, Error, Content,
        "A link in SKILL.md, or in a file it links, points outside the skill folder (`../`, an absolute path), which a bundle cannot serve.";
    ReferenceTooDeep = "reference-too-deep", Lint, Warning, Content,
        "A file is reached from SKILL.md only through another reference: references should be one level deep.";
    FileUnmentioned = "file-unmentioned", Lint, Note, Content,
        "A bundled file is named neither in SKILL.md nor in a file it links.";
    BodyTooManyTokens = "body-too-many-tokens", Lint, Warning, Content,
        "The body of SKILL.md is over about 5,000 tokens (estimated), the budget the specification advises.";
    DescriptionWithoutWhen = "description-without-when", Lint, Note, Content,
        "The description says what the skill does but not when to use it.";
    DescriptionPlaceholder = "description-placeholder", Lint, Error, Content,
        "The description still holds the placeholder `skills new` writes, for the author to replace.";
    MetadataReservedPrefix = "metadata-reserved-prefix", Lint, Error, Content,
        "A `metadata` key is under `io.modelcontextprotocol/`, the prefix the MCP Skills extension reserves.";
    HomePath = "home-path", Lint, Warning, Content,
        "A text file holds a hard-coded home directory (`/Users/<name>`, `/home/<name>`, `C:\\Users\\<name>`).";
    ReferenceWithoutToc = "reference-without-toc", Lint, Note, Content,
        "A Markdown reference file over 300 lines has no table of contents.";
}

impl Code {
    /// The code for `text`, if it is one.
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(text: &str) -> Option<Code> {
        Code::ALL.iter().copied().find(|code| code.as_str() == text)
    }

    /// Its position in [`Code::ALL`] (SARIF's `ruleIndex`).
    ///
    /// ```
    /// use skills_build::problem::Code;
    /// assert_eq!(Code::ALL[Code::YamlSyntax.index()], Code::YamlSyntax);
    /// ```
    pub fn index(self) -> usize {
        Code::ALL
            .iter()
            .position(|code| *code == self)
            .unwrap_or_default()
    }

    /// Where the rule is documented on the web: the API documentation of
    /// its [`Code`] variant, for this version (what SARIF's `helpUri`
    /// carries; `docs/rule-codes.md` holds the same text with every rule's
    /// rule book and severity).
    ///
    /// ```
    /// use skills_build::problem::Code;
    /// assert!(Code::BidiControl.help_uri().ends_with("/skills_build/problem/enum.Code.html#variant.BidiControl"));
    /// ```
    pub fn help_uri(self) -> String {
        format!(
            "https://docs.rs/skills-build/{}/skills_build/problem/enum.Code.html#variant.{}",
            env!("CARGO_PKG_VERSION"),
            self.variant_name()
        )
    }

    /// Whether `allow` may name the rule: every warning and note, and the
    /// errors of the audit and lint rule books, which a project can lower
    /// only by naming them. The reference's, the specification's and the
    /// build's errors say the skill cannot be served as it is, and stay.
    ///
    /// ```
    /// use skills_build::problem::Code;
    /// assert!(Code::BodyTooLong.allowable() && Code::PrivateKey.allowable());
    /// assert!(!Code::NameLowercase.allowable() && !Code::FileTooLarge.allowable());
    /// ```
    pub fn allowable(self) -> bool {
        self.severity() != Severity::Error || matches!(self.rule(), Rule::Audit | Rule::Lint)
    }

    /// The rule-code table as `docs/rule-codes.md` holds it: one Markdown
    /// row per code (code, rule book, severity, where it runs, whether
    /// `allow` may name it, meaning).
    pub fn table() -> String {
        let mut text = String::from(
            "| code | rule book | severity | runs in | allowable | meaning |\n| --- | --- | --- | --- | --- | --- |\n",
        );
        for code in Code::ALL {
            text.push_str(&format!(
                "| `{}` | {} | {} | {} | {} | {} |\n",
                code.as_str(),
                code.rule().as_str(),
                code.severity(),
                code.stage().as_str(),
                if code.allowable() { "yes" } else { "no" },
                code.meaning().replace('|', "\\|")
            ));
        }
        text
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A position in a file: 1-based line and column, columns in characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column, counted in Unicode scalar values.
    pub column: u32,
}

/// One problem with a skill.
///
/// ```
/// use skills_build::problem::{Code, Position, Problem, Severity};
/// let p = Problem::new(Code::NameLowercase, "Skill name 'PDF' must be lowercase")
///     .with_field("name")
///     .with_file("skills/PDF/SKILL.md")
///     .at(Position { line: 2, column: 7 });
/// assert_eq!(p.severity, Severity::Error);
/// assert_eq!(p.to_string(), "skills/PDF/SKILL.md:2:7: error: Skill name 'PDF' must be lowercase");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Problem {
    /// How serious it is.
    pub severity: Severity,
    /// The rule it breaks.
    pub code: Code,
    /// The frontmatter field concerned, if any.
    pub field: Option<String>,
    /// What is wrong, in one sentence (reference wording for reference rules).
    pub message: String,
    /// A suggestion for fixing it, when one helps.
    pub hint: Option<String>,
    /// The file the problem is in, as the user would type it.
    pub file: Option<String>,
    /// Where in the file, when known.
    pub position: Option<Position>,
    /// The skill the problem belongs to (see [`Problem::skill`]); 32 bits,
    /// so a problem stays small enough to pass around by value.
    skill: Option<u32>,
}

impl Problem {
    /// A problem of rule `code`, with the rule's default severity.
    ///
    /// ```
    /// use skills_build::problem::{Code, Problem, Severity};
    /// let note = Problem::new(Code::JunkSkipped, "skipped .DS_Store");
    /// assert_eq!(note.severity, Severity::Note);
    /// ```
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Problem {
            severity: code.severity(),
            code,
            field: None,
            message: message.into(),
            hint: None,
            file: None,
            position: None,
            skill: None,
        }
    }

    /// Says which skill (by its index in the discovery) the problem
    /// belongs to.
    ///
    /// ```
    /// use skills_build::problem::{Code, Problem};
    /// assert_eq!(Problem::new(Code::BodyTooLong, "long").of_skill(3).skill(), Some(3));
    /// ```
    pub fn of_skill(mut self, index: usize) -> Self {
        self.set_skill(index);
        self
    }

    /// The skill the problem belongs to: its index in the discovery's
    /// skills (search order), set where the skill is read and named;
    /// `None` for a problem of no skill (a source, an option). A build
    /// that keeps going leaves out the skills its errors belong to.
    ///
    /// ```
    /// use skills_build::problem::{Code, Problem};
    /// assert_eq!(Problem::new(Code::NoSkills, "none").skill(), None);
    /// ```
    pub fn skill(&self) -> Option<usize> {
        self.skill.map(|index| index as usize)
    }

    /// Sets [`skill`](Self::skill) (an index past `u32::MAX`, which no
    /// discovery reaches, is left unset).
    pub(crate) fn set_skill(&mut self, index: usize) {
        self.skill = u32::try_from(index).ok();
    }

    /// Changes the severity (an option can make a warning an error).
    ///
    /// ```
    /// use skills_build::problem::{Code, Problem, Severity};
    /// let p = Problem::new(Code::SkillShadowed, "shadowed").with_severity(Severity::Error);
    /// assert!(p.is_error());
    /// ```
    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    /// The rule book of its rule.
    pub fn rule(&self) -> Rule {
        self.code.rule()
    }

    /// Names the frontmatter field concerned.
    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    /// Adds a suggestion for fixing the problem.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Names the file the problem is in.
    pub fn with_file(mut self, file: impl Into<String>) -> Self {
        self.file = Some(file.into());
        self
    }

    /// Sets the position in the file.
    pub fn at(mut self, position: Position) -> Self {
        self.position = Some(position);
        self
    }

    /// Sets the position in the file when one is known.
    pub fn at_opt(mut self, position: Option<Position>) -> Self {
        self.position = position;
        self
    }

    /// `true` for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `file:line:col` (or as much of it as is known), for diagnostics.
    pub fn location(&self) -> Option<String> {
        let file = self.file.as_deref()?;
        Some(match self.position {
            Some(p) => format!("{file}:{}:{}", p.line, p.column),
            None => file.to_string(),
        })
    }

    /// Orders problems by file, then line and column, then severity.
    pub fn sort(problems: &mut [Problem]) {
        problems.sort_by(|a, b| {
            (&a.file, a.position.is_some(), a.position, a.severity).cmp(&(
                &b.file,
                b.position.is_some(),
                b.position,
                b.severity,
            ))
        });
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(location) = self.location() {
            write!(f, "{location}: ")?;
        }
        write!(f, "{}: {}", self.severity, self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_by_file_then_position() {
        let at = |line| Position { line, column: 1 };
        let mut problems = vec![
            Problem::new(Code::YamlSyntax, "c")
                .with_file("b/SKILL.md")
                .at(at(1)),
            Problem::new(Code::NameLowercase, "b")
                .with_file("a/SKILL.md")
                .at(at(9)),
            Problem::new(Code::BodyTooLong, "a")
                .with_file("a/SKILL.md")
                .at(at(2)),
            Problem::new(Code::UnknownField, "d").with_file("a/SKILL.md"),
        ];
        Problem::sort(&mut problems);
        let order: Vec<_> = problems.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(order, ["d", "a", "b", "c"]);
    }

    #[test]
    fn every_code_is_kebab_case_and_unique() {
        let mut seen = std::collections::BTreeSet::new();
        for (index, code) in Code::ALL.iter().enumerate() {
            let text = code.as_str();
            assert!(
                !text.is_empty()
                    && text
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                    && !text.starts_with('-')
                    && !text.ends_with('-'),
                "{text:?} is not kebab-case"
            );
            assert!(seen.insert(text), "two rules share the code {text}");
            assert_eq!(code.index(), index);
            assert_eq!(Code::from_str(text), Some(*code));
            assert!(code.meaning().ends_with('.'), "{text}: {}", code.meaning());
        }
    }

    #[test]
    fn displays_without_a_location() {
        assert_eq!(
            Problem::new(Code::BodyTooLong, "long").to_string(),
            "warning: long"
        );
    }
}
