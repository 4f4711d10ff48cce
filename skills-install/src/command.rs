//! The `skill` subcommand: `mytool skill install|status|uninstall|list`,
//! its arguments, its help, and running a [`Request`] with its output and
//! exit code. The clap form and the `skills` CLI build a [`Request`] their
//! own way and run it here.

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

use skills_core::wire::bundle::Skill;

use crate::installer::Installer;
use crate::payload::{revision_of, skill_revision};
use crate::report;
use crate::scope::Scope;
use crate::target::{Agents, Layout, Target};

/// Exit code: done (for `status`: every skill up to date).
pub const EXIT_OK: i32 = 0;
/// Exit code: conflicts or problems, nothing written (for `status`: a
/// skill not up to date).
pub const EXIT_FAILED: i32 = 1;
/// Exit code: the command line is wrong.
pub const EXIT_USAGE: i32 = 2;

/// What the subcommand is asked to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Install (or update) the skills.
    Install,
    /// Say, per agent folder and skill, whether it is up to date.
    Status,
    /// Remove what was installed.
    Uninstall,
    /// List the embedded skills.
    List,
}

impl Action {
    /// The subcommand's name.
    pub fn name(self) -> &'static str {
        match self {
            Action::Install => "install",
            Action::Status => "status",
            Action::Uninstall => "uninstall",
            Action::List => "list",
        }
    }
}

/// One run of the subcommand: the action, where, and how to report.
///
/// ```
/// use skills_install::{Action, ParseOutcome, Request};
/// let args = ["install", "--agent", "cursor", "--scope", "user", "--dry-run"];
/// let ParseOutcome::Run(request) = Request::parse(args) else { panic!() };
/// assert_eq!(request.action, Action::Install);
/// assert!(request.dry_run && !request.json);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Request {
    /// The action.
    pub action: Action,
    /// The folders, skills and options.
    pub target: Target,
    /// Show the plan, write nothing.
    pub dry_run: bool,
    /// Print one JSON document instead of text.
    pub json: bool,
    /// For `status`: fail (exit 1) when any installed copy is not exactly
    /// the skill's files (stale, edited, missing, holding extra files, or
    /// something else in its place), listing each difference.
    pub check: bool,
}

impl Request {
    /// A request for `action` on `target`, reported as text.
    pub fn new(action: Action, target: Target) -> Self {
        Request {
            action,
            target,
            dry_run: false,
            json: false,
            check: false,
        }
    }

    /// Only show the plan.
    pub fn dry_run(mut self, dry_run: bool) -> Self {
        self.dry_run = dry_run;
        self
    }

    /// Report as JSON.
    pub fn json(mut self, json: bool) -> Self {
        self.json = json;
        self
    }

    /// For `status`: exit 1 when any installed copy differs from what is
    /// embedded, listing how.
    ///
    /// ```
    /// use skills_install::{ParseOutcome, Request};
    /// let ParseOutcome::Run(request) = Request::parse(["status", "--check"]) else { panic!() };
    /// assert!(request.check);
    /// assert!(matches!(Request::parse(["install", "--check"]), ParseOutcome::Usage(_)));
    /// ```
    pub fn check(mut self, check: bool) -> Self {
        self.check = check;
        self
    }

    /// Reads the subcommand's arguments (what follows `skill`).
    pub fn parse<S: Into<OsString>>(args: impl IntoIterator<Item = S>) -> ParseOutcome {
        parse(args.into_iter().map(Into::into).collect())
    }
}

/// What a command line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseOutcome {
    /// A request to run.
    Run(Request),
    /// `--help`: print the help (of the subcommand, if one was named).
    Help(Option<Action>),
    /// A usage error, with its message.
    Usage(String),
}

/// The help text of the `skill` subcommand (`tool` is the program's name).
pub fn help(tool: &str, action: Option<Action>) -> String {
    let options = "\
Options:
  --agent ID           An agent to install for (repeatable, or comma-separated;
                       `all` for every one). Default: claude-code and codex
                       (.claude/skills and .agents/skills, read by eight agents),
                       plus every folder installed to before.
  --scope SCOPE        project (default: the nearest folder above with .git,
                       else this one) or user (the home directory).
  --project-dir DIR    The project root, instead of finding it.
  --dry-run            Show what would change per skill (each file with
                       --json); write nothing.
  --force              Overwrite conflicts: files this tool did not write, or
                       that were changed since it wrote them.
  --link               One copy in .agents/skills, links to it elsewhere (a copy
                       where links cannot be made).
  --copy               A copy in every folder (undoes --link).
  --json               Print one JSON document instead of text.
  --check              (status) Exit 1 when any installed copy is not exactly
                       the skill's files: stale, edited, missing, holding files
                       that are not part of it, or something else in its place;
                       each difference is listed. For CI, where copies are
                       committed.
  -h, --help           Show this help.
";
    let head = match action {
        None => format!(
            "Usage: {tool} skill <COMMAND> [SKILL]... [OPTIONS]\n\n\
             Install {tool}'s skills into the folders coding agents read (Claude Code,\n\
             Codex, Cursor, Gemini CLI, GitHub Copilot, OpenCode and more).\n\n\
             Commands:\n  \
             install    Install or update the skills (all, or those named)\n  \
             status     Say per agent and skill: up to date, outdated, modified,\n             \
             missing, not installed by this tool, and what resolves it\n  \
             uninstall  Remove the installed skills (only the files {tool} wrote)\n  \
             list       List the skills {tool} carries\n\n"
        ),
        Some(action) => format!(
            "Usage: {tool} skill {} [SKILL]... [OPTIONS]\n\n{}\n\n",
            action.name(),
            match action {
                Action::Install =>
                    "Install or update the skills. A file this tool did not write, or one\nchanged since, is a conflict: every conflict is listed first, and nothing\nis written unless --force.",
                Action::Status =>
                    "Say, per agent folder and skill: up to date, outdated, modified by the\nuser, missing, or not installed by this tool, and the command that\nresolves it. Exits 0 only when every skill is up to date (with --check:\nwhen every installed copy is exactly the skill's files).",
                Action::Uninstall =>
                    "Remove the installed skills: only the files this tool's record says it\nwrote (and the folders left empty); other skills, the user's own files and\nfiles that merely hold the same bytes stay.",
                Action::List => "List the skills this tool carries.",
            }
        ),
    };
    format!(
        "{head}{options}\nExit codes: 0 done, 1 conflicts or problems (nothing written), 2 usage error.\n"
    )
}

/// The command (the first argument), or what to do instead: the help,
/// or a usage error.
fn parse_action(first: Option<&str>) -> Result<Action, ParseOutcome> {
    match first {
        None => Err(ParseOutcome::Usage(
            "a command is missing: install, status, uninstall or list".to_string(),
        )),
        Some("-h" | "--help" | "help") => Err(ParseOutcome::Help(None)),
        Some("install") => Ok(Action::Install),
        Some("status") => Ok(Action::Status),
        Some("uninstall") => Ok(Action::Uninstall),
        Some("list") => Ok(Action::List),
        Some(other) => Err(ParseOutcome::Usage(format!(
            "unknown command {other:?}: use install, status, uninstall or list"
        ))),
    }
}

fn parse(args: Vec<OsString>) -> ParseOutcome {
    let mut args = args
        .into_iter()
        .map(|arg| arg.to_string_lossy().into_owned());
    let action = match parse_action(args.next().as_deref()) {
        Ok(action) => action,
        Err(outcome) => return outcome,
    };
    let mut target = Target::new(Scope::Project);
    let mut agents: Vec<String> = Vec::new();
    let mut request = Request::new(action, Target::default());
    let mut rest: Vec<String> = args.collect();
    rest.reverse();
    while let Some(arg) = rest.pop() {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => {
                (flag.to_string(), Some(value.to_string()))
            }
            _ => (arg.clone(), None),
        };
        // A flag without a value.
        let flag_slot: Option<&mut bool> = match flag.as_str() {
            "--dry-run" => Some(&mut request.dry_run),
            "--force" => Some(&mut target.force),
            "--json" => Some(&mut request.json),
            "--check" => Some(&mut request.check),
            _ => None,
        };
        if let Some(slot) = flag_slot {
            *slot = true;
            continue;
        }
        match flag.as_str() {
            "-h" | "--help" => return ParseOutcome::Help(Some(action)),
            "--link" => target.layout = Layout::Link,
            "--copy" => target.layout = Layout::Copy,
            "--" => target.skills.extend(rest.drain(..).rev()),
            "--agent" | "--scope" | "--project-dir" => {
                let Some(value) = inline.or_else(|| rest.pop()) else {
                    return ParseOutcome::Usage(format!("{flag} needs a value"));
                };
                match flag.as_str() {
                    "--agent" => agents.push(value),
                    "--scope" => match value.parse::<Scope>() {
                        Ok(scope) => target.scope = scope,
                        Err(message) => return ParseOutcome::Usage(message),
                    },
                    _ => target.project_dir = Some(PathBuf::from(value)),
                }
            }
            flag if flag.starts_with('-') => {
                return ParseOutcome::Usage(format!("unknown option {flag:?}"));
            }
            _ => target.skills.push(arg.clone()),
        }
    }
    match Agents::parse(&agents) {
        Ok(agents) => target.agents = agents,
        Err(error) => return ParseOutcome::Usage(error.to_string()),
    }
    if let (Some(_), Scope::User) = (&target.project_dir, target.scope) {
        return ParseOutcome::Usage("--project-dir is for --scope project".to_string());
    }
    if request.check && action != Action::Status {
        return ParseOutcome::Usage("--check is for status".to_string());
    }
    request.target = target;
    ParseOutcome::Run(request)
}

impl Installer<'_> {
    /// Handles `<program> skill ...` and exits; returns for any other
    /// command line, so it can be the first line of `main`.
    ///
    /// ```no_run
    /// # static SKILLS: skills_core::Embedded = skills_core::Embedded::new(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/skills.bin")));
    /// fn main() {
    ///     skills_install::Installer::new(&SKILLS).tool_name("mytool").intercept();
    ///     // not `mytool skill ...`: the program goes on
    /// }
    /// ```
    pub fn intercept(&self) {
        let args: Vec<OsString> = std::env::args_os().skip(1).collect();
        if let Some(code) = self.intercept_args(&args) {
            let _ = std::io::stdout().flush();
            std::process::exit(code);
        }
    }

    /// [`intercept`](Self::intercept) over given arguments (without the
    /// program's name), printing to stdout and stderr: `Some(exit code)`
    /// when the first is `skill`, else `None` (after a
    /// [`refresh`](Self::refresh), with
    /// [`refresh_on_start`](Self::refresh_on_start)).
    pub fn intercept_args(&self, args: &[OsString]) -> Option<i32> {
        let Some(("skill", rest)) = args
            .split_first()
            .map(|(first, rest)| (first.to_str().unwrap_or_default(), rest))
        else {
            if self.refresh_on_start {
                self.refresh();
            }
            return None;
        };
        let stdout = std::io::stdout();
        let stderr = std::io::stderr();
        Some(self.run_args(rest, &mut stdout.lock(), &mut stderr.lock()))
    }

    /// Runs the subcommand's arguments (what follows `skill`), writing to
    /// `out` and `err`; returns the exit code.
    ///
    /// ```
    /// use skills_install::Installer;
    /// # static SKILLS: skills_core::Embedded = skills_core::Embedded::new(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/skills.bin")));
    /// let (mut out, mut err) = (Vec::new(), Vec::new());
    /// let code = Installer::new(&SKILLS).tool_name("mytool").run_args(&["list".into()], &mut out, &mut err);
    /// assert_eq!(code, 0);
    /// assert!(String::from_utf8(out).unwrap().contains("pdf-forms"));
    /// ```
    pub fn run_args(&self, args: &[OsString], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
        match Request::parse(args.iter().cloned()) {
            ParseOutcome::Run(request) => self.run_request(&request, out, err),
            ParseOutcome::Help(action) => {
                let _ = out.write_all(help(self.tool(), action).as_bytes());
                EXIT_OK
            }
            ParseOutcome::Usage(message) => {
                let _ = writeln!(
                    err,
                    "error: {message}\nUsage: {} skill <install|status|uninstall|list> [SKILL]... [OPTIONS]\nRun `{} skill --help` for more.",
                    self.tool(),
                    self.tool()
                );
                EXIT_USAGE
            }
        }
    }

    /// Runs a request: prints the plan (or the status, or the list) to
    /// `out`, errors to `err`, and returns the exit code: 0 done (for
    /// `status`, every skill up to date), 1 conflicts or problems (nothing
    /// written; for `status`, a skill not up to date), 2 a skill named that
    /// is not carried.
    pub fn run_request(&self, request: &Request, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
        let run = match request.action {
            Action::List => self.run_list(request, out),
            Action::Status => self.run_status(request, out),
            Action::Install | Action::Uninstall => self.run_change(request, out, err),
        };
        run.unwrap_or_else(|error| report_error(request, &error, out, err))
    }

    /// `list`: prints the skills carried; an error before anything is
    /// printed.
    fn run_list(&self, request: &Request, out: &mut dyn Write) -> Result<i32, crate::InstallError> {
        let text = self.list(request.json)?;
        let _ = out.write_all(text.as_bytes());
        Ok(EXIT_OK)
    }

    /// `status`: prints it, and exits 0 when every skill is up to date
    /// (with `--check`: in sync); an error before anything is printed.
    fn run_status(
        &self,
        request: &Request,
        out: &mut dyn Write,
    ) -> Result<i32, crate::InstallError> {
        let status = self.status(&request.target)?;
        let text = match request.json {
            true => report::json::status(self, &status),
            false => report::text::status_text(self, &status, request.check),
        };
        let _ = out.write_all(text.as_bytes());
        let fine = match request.check {
            true => status.in_sync(),
            false => status.all_up_to_date(),
        };
        Ok(match fine {
            true => EXIT_OK,
            false => EXIT_FAILED,
        })
    }

    /// `install` or `uninstall`: plans, carries the plan out (unless a dry
    /// run, or it is not ready) and reports it; an error before anything
    /// is printed when it cannot plan.
    fn run_change(
        &self,
        request: &Request,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> Result<i32, crate::InstallError> {
        let plan = match request.action {
            Action::Install => self.plan(&request.target),
            _ => self.plan_uninstall(&request.target),
        }?;
        let carried = self.carry_out(plan, request.dry_run);
        Ok(self.report_change(request, &carried, out, err))
    }

    /// Applies `plan` when it is ready and not a dry run; a plan with
    /// conflicts or problems is refused with an error that counts them.
    fn carry_out(&self, plan: crate::Plan, dry_run: bool) -> Carried {
        let ready = plan.is_ready();
        let (shown, applied, error) = match (dry_run, ready) {
            (false, true) => match self.apply_plan(&plan) {
                Ok(done) => (done.unwrap_or(plan), true, None),
                Err(error) => (plan, false, Some(error)),
            },
            (_, false) => {
                let error = match plan.problems.len() {
                    0 => crate::InstallError::Conflicts {
                        count: plan.conflicts().count(),
                    },
                    count => crate::InstallError::Problems { count },
                };
                (plan, false, Some(error))
            }
            (true, true) => (plan, false, None),
        };
        Carried {
            shown,
            applied,
            error,
        }
    }

    /// Prints what an install or uninstall did (as JSON, or as text with
    /// its error on `err`); returns the exit code.
    fn report_change(
        &self,
        request: &Request,
        carried: &Carried,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> i32 {
        let Carried {
            shown,
            applied,
            error,
        } = carried;
        match request.json {
            true => {
                let text = report::json::plan(shown, request.dry_run, *applied, error.as_ref());
                let _ = out.write_all(text.as_bytes());
            }
            false => {
                let version = self.version_text();
                let mut text = report::text::plan_text(self.tool(), version, shown);
                if error.is_none() {
                    text.push_str(&report::text::outcome_line(
                        shown,
                        request.dry_run,
                        *applied,
                    ));
                }
                let _ = out.write_all(text.as_bytes());
                if !error_lines(shown, error.as_ref(), *applied, err) {
                    return EXIT_FAILED;
                }
            }
        }
        match error {
            None => EXIT_OK,
            Some(_) => EXIT_FAILED,
        }
    }

    /// The skills carried, one per line (or as JSON).
    fn list(&self, json: bool) -> Result<String, crate::InstallError> {
        let bundle = self.bundle()?;
        // Each skill's files: its skill file and the rest.
        let file_count = |skill: &Skill<'_>| 1 + skill.files.len();
        if json {
            return Ok(report::json::document(&report::json::ListReport {
                tool: self.tool(),
                bundle_revision: revision_of(bundle).to_string(),
                skills: bundle
                    .skills
                    .iter()
                    .map(|skill| report::json::ListedSkill {
                        name: skill.name,
                        description: skill.description,
                        revision: skill_revision(skill).to_string(),
                        files: file_count(skill),
                    })
                    .collect(),
            }));
        }
        // Three columns, each as wide as its widest entry.
        let rows: Vec<(&str, String, &str)> = bundle
            .skills
            .iter()
            .map(|skill| {
                let files = file_count(skill);
                let files = format!("{files} file{}", if files == 1 { "" } else { "s" });
                let description = skill.description.lines().next().unwrap_or_default();
                (skill.name, files, description)
            })
            .collect();
        let width =
            |column: fn(&(&str, String, &str)) -> usize| rows.iter().map(column).max().unwrap_or(0);
        let (names, counts) = (
            width(|row| row.0.chars().count()),
            width(|row| row.1.chars().count()),
        );
        Ok(rows
            .iter()
            .map(|(name, files, description)| {
                format!("{name:<names$}  {files:<counts$}  {description}\n")
            })
            .collect())
    }
}

/// An install or uninstall carried out (or not): the plan to show, whether
/// it was applied, and the error that stopped it.
struct Carried {
    shown: crate::Plan,
    applied: bool,
    error: Option<crate::InstallError>,
}

/// Reports an error that stopped a run before it printed anything (as
/// JSON on `out`, or on `err`); returns the exit code.
fn report_error(
    request: &Request,
    error: &crate::InstallError,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    match request.json {
        true => {
            let _ = out.write_all(report::json::error(request.action.name(), error).as_bytes());
        }
        false => {
            let _ = writeln!(err, "error: {error}");
        }
    }
    // A skill named on the command line that is not carried is the
    // command line's mistake, as an unknown option is.
    match error {
        crate::InstallError::UnknownSkill { .. } => EXIT_USAGE,
        _ => EXIT_FAILED,
    }
}

/// What a run says on `err` after its plan: the error (a refusal for
/// conflicts in words that say what was not done and what `--force` does),
/// or the skills it kept as they are. Returns whether the run went as
/// asked (nothing kept, no error).
fn error_lines(
    shown: &crate::Plan,
    error: Option<&crate::InstallError>,
    applied: bool,
    err: &mut dyn Write,
) -> bool {
    let line = match error {
        Some(crate::InstallError::Conflicts { count }) => {
            Some(report::text::conflicts_line(shown, *count))
        }
        Some(error) => Some(error.to_string()),
        None if applied => report::text::kept_line(shown),
        None => None,
    };
    match line {
        Some(line) => {
            let _ = writeln!(err, "error: {line}");
            false
        }
        None => true,
    }
}
