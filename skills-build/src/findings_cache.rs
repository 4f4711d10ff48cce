//! The content rules' findings per skill, kept between builds and keyed
//! by content, so that a rebuild after one edit judges one skill again.
//!
//! Build scripts and proc macros run unoptimised in Cargo's default dev
//! profile, where the audit's and lints' scans (vectorised searches whose
//! intrinsics are calls at opt-level 0) cost most of a rebuild. Their
//! findings are a function of the skill's bytes (its skill file and every
//! file embedded beside it, by path), where it is (the locations the
//! problems name) and the rules allowed; so a cache file holds, per skill,
//! those inputs as they were and the problems found. A skill whose inputs
//! are, compared byte for byte, the ones recorded gets the recorded
//! problems; any other is judged and recorded. The problems are those a
//! cold build finds, as the bundle is (comparing bytes cannot collide as
//! a hash can).
//!
//! The file is written only when something changed, beside the earlier
//! bundle ([`Builder::reuse_from`](crate::Builder::reuse_from)): in
//! `OUT_DIR` for a build script and `include_skills!`. It records the
//! version of this crate and the state of its sources (their count and
//! newest modification time, when they are where this crate was built
//! from: a path dependency edited in place), so findings of other rules
//! are never taken. A file that is missing, unreadable or of another
//! version is no error: every skill is judged then.

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::problem::{Code, Position, Problem, Severity};

/// Bytes the rules read: where they are in the findings file as read (an
/// earlier build's, taken without a copy), or read by this build.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Bytes {
    Recorded(Range<usize>),
    Read(Vec<u8>),
}

impl Bytes {
    /// The bytes, `recorded` being the findings file as read.
    fn of<'a>(&'a self, recorded: &'a [u8]) -> &'a [u8] {
        match self {
            Bytes::Recorded(range) => recorded.get(range.clone()).unwrap_or_default(),
            Bytes::Read(bytes) => bytes,
        }
    }
}

/// What the rules read of one skill, and what they found.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Judged {
    /// The skill file's bytes.
    skill_file: Bytes,
    /// Every other file of the skill: path and bytes, in the order read.
    files: Vec<(String, Bytes)>,
    /// The rules allowed by name (which do not run).
    allowed: Vec<Code>,
    /// What the rules found.
    problems: Vec<Problem>,
}

impl Judged {
    /// Whether these are the inputs recorded (`recorded`: the findings
    /// file as read).
    fn same_inputs(
        &self,
        recorded: &[u8],
        skill_file: &[u8],
        files: &[(&str, &[u8])],
        allowed: &[Code],
    ) -> bool {
        self.skill_file.of(recorded) == skill_file
            && self.allowed == allowed
            && self.files.len() == files.len()
            && self
                .files
                .iter()
                .zip(files)
                .all(|((path, bytes), (now_path, now_bytes))| {
                    path == now_path && bytes.of(recorded) == *now_bytes
                })
    }
}

/// The findings an earlier build recorded, and this build's, by the skill
/// file's location; the default keeps nothing (every skill is judged).
/// Shared by the threads that read skills.
#[derive(Debug, Default)]
pub(crate) struct FindingsCache {
    /// Where the findings are kept; `None` for none.
    path: Option<PathBuf>,
    /// The findings file as read; `earlier`'s bytes are ranges of it.
    recorded: Vec<u8>,
    earlier: HashMap<String, Judged>,
    /// This build's: every skill judged or taken, by location.
    now: Mutex<HashMap<String, Judged>>,
    /// Whether a skill was judged anew (so the file is out of date).
    changed: Mutex<bool>,
}

/// The first bytes of the file, then its format's version.
const MAGIC: &[u8] = b"skills-findings\n";
const VERSION: u32 = 1;

impl FindingsCache {
    /// The findings recorded at `path`, or none.
    pub(crate) fn load(path: &Path) -> FindingsCache {
        let recorded = std::fs::read(path).unwrap_or_default();
        let earlier = decode(&recorded).unwrap_or_default();
        FindingsCache {
            path: Some(path.to_path_buf()),
            recorded,
            earlier,
            now: Mutex::new(HashMap::new()),
            changed: Mutex::new(false),
        }
    }

    /// The problems the rules find in the skill whose skill file is at
    /// `location`: the recorded ones when its inputs are the recorded
    /// inputs, else what `judge` finds, recorded.
    pub(crate) fn findings(
        &self,
        location: &str,
        skill_file: &[u8],
        files: &[(&str, &[u8])],
        allowed: &[Code],
        judge: impl FnOnce() -> Vec<Problem>,
    ) -> Vec<Problem> {
        if self.path.is_none() {
            return judge();
        }
        if let Some(earlier) = self.earlier.get(location)
            && earlier.same_inputs(&self.recorded, skill_file, files, allowed)
        {
            let problems = earlier.problems.clone();
            self.record(location, earlier.clone(), false);
            return problems;
        }
        let problems = judge();
        let judged = Judged {
            skill_file: Bytes::Read(skill_file.to_vec()),
            files: files
                .iter()
                .map(|(path, bytes)| (path.to_string(), Bytes::Read(bytes.to_vec())))
                .collect(),
            allowed: allowed.to_vec(),
            problems: problems.clone(),
        };
        self.record(location, judged, true);
        problems
    }

    fn record(&self, location: &str, judged: Judged, changed: bool) {
        if let Ok(mut now) = self.now.lock() {
            now.insert(location.to_string(), judged);
        }
        if changed && let Ok(mut flag) = self.changed.lock() {
            *flag = true;
        }
    }

    /// Writes this build's findings when they differ from the file's (a
    /// skill judged anew, or one gone), through a temporary file renamed
    /// into place. A failure to write costs the next build time only.
    pub(crate) fn save(self) {
        let Some(path) = self.path else {
            return;
        };
        let now = self.now.into_inner().unwrap_or_default();
        let changed = self.changed.into_inner().unwrap_or(true);
        if !changed && now.len() == self.earlier.len() {
            return;
        }
        // A file of its own, made anew (never through a link left there),
        // then renamed into place.
        let partial = PathBuf::from(format!(
            "{}.{}",
            path.display(),
            crate::process_tag::process_tag()
        ));
        let _ = std::fs::remove_file(&partial);
        let written = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&partial)
            .and_then(|mut file| {
                std::io::Write::write_all(&mut file, &encode(&now, &self.recorded))
            });
        if written.is_err() || std::fs::rename(&partial, &path).is_err() {
            let _ = std::fs::remove_file(&partial);
        }
    }
}

/// What the recorded findings hold true for: this crate's version, and
/// the count and newest modification time of its sources when they are
/// where it was built from (so a path dependency edited in place, whose
/// version stays, records findings of its own).
fn stamp() -> String {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = 0u64;
    let mut newest = 0u128;
    let mut dirs = vec![src];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(meta) = entry.metadata() else { continue };
            if meta.is_dir() {
                dirs.push(entry.path());
                continue;
            }
            files += 1;
            let modified = meta
                .modified()
                .ok()
                .and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |since| since.as_nanos());
            newest = newest.max(modified);
        }
    }
    format!("{} {files} {newest}", env!("CARGO_PKG_VERSION"))
}

fn put(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
    out.extend_from_slice(bytes);
}

fn put_opt(out: &mut Vec<u8>, text: Option<&str>) {
    match text {
        Some(text) => {
            out.push(1);
            put(out, text.as_bytes());
        }
        None => out.push(0),
    }
}

fn encode(entries: &HashMap<String, Judged>, recorded: &[u8]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&VERSION.to_le_bytes());
    put(&mut out, stamp().as_bytes());
    // In location order, so the same findings make the same file.
    let mut keys: Vec<&String> = entries.keys().collect();
    keys.sort();
    put(&mut out, &(keys.len() as u64).to_le_bytes());
    for key in keys {
        let judged = &entries[key];
        put(&mut out, key.as_bytes());
        put(&mut out, judged.skill_file.of(recorded));
        put(&mut out, &(judged.files.len() as u64).to_le_bytes());
        for (path, bytes) in &judged.files {
            put(&mut out, path.as_bytes());
            put(&mut out, bytes.of(recorded));
        }
        let allowed: Vec<&str> = judged.allowed.iter().map(|code| code.as_str()).collect();
        put(&mut out, allowed.join(",").as_bytes());
        put(&mut out, &(judged.problems.len() as u64).to_le_bytes());
        for problem in &judged.problems {
            put(&mut out, problem.severity.as_str().as_bytes());
            put(&mut out, problem.code.as_str().as_bytes());
            put_opt(&mut out, problem.field.as_deref());
            put(&mut out, problem.message.as_bytes());
            put_opt(&mut out, problem.hint.as_deref());
            put_opt(&mut out, problem.file.as_deref());
            match problem.position {
                Some(position) => {
                    out.push(1);
                    out.extend_from_slice(&position.line.to_le_bytes());
                    out.extend_from_slice(&position.column.to_le_bytes());
                }
                None => out.push(0),
            }
        }
    }
    out
}

/// A reader over the file's bytes; every read is checked, so a truncated
/// or foreign file gives `None`, never a panic.
struct Reader<'a> {
    bytes: &'a [u8],
    /// Where `bytes` starts in the file.
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, len: usize) -> Option<&'a [u8]> {
        if self.bytes.len() < len {
            return None;
        }
        let (head, rest) = self.bytes.split_at(len);
        self.bytes = rest;
        self.at += len;
        Some(head)
    }

    /// A length-prefixed run of bytes, as where it is in the file.
    fn range(&mut self) -> Option<Range<usize>> {
        let len = usize::try_from(self.u64()?).ok()?;
        let start = self.at;
        self.take(len)?;
        Some(start..start + len)
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn bytes(&mut self) -> Option<&'a [u8]> {
        let len = usize::try_from(self.u64()?).ok()?;
        self.take(len)
    }

    fn text(&mut self) -> Option<&'a str> {
        std::str::from_utf8(self.bytes()?).ok()
    }

    fn count(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.bytes()?.try_into().ok()?))
    }

    fn opt(&mut self) -> Option<Option<String>> {
        match self.take(1)?[0] {
            0 => Some(None),
            1 => Some(Some(self.text()?.to_string())),
            _ => None,
        }
    }
}

fn decode(bytes: &[u8]) -> Option<HashMap<String, Judged>> {
    let mut reader = Reader {
        bytes: bytes.strip_prefix(MAGIC)?,
        at: MAGIC.len(),
    };
    if reader.u32()? != VERSION || reader.text()? != stamp() {
        return None;
    }
    let mut entries = HashMap::new();
    for _ in 0..reader.count()? {
        let key = reader.text()?.to_string();
        let skill_file = Bytes::Recorded(reader.range()?);
        let mut files = Vec::new();
        for _ in 0..reader.count()? {
            let path = reader.text()?.to_string();
            files.push((path, Bytes::Recorded(reader.range()?)));
        }
        let allowed = match reader.text()? {
            "" => Vec::new(),
            list => list
                .split(',')
                .map(Code::from_str)
                .collect::<Option<Vec<Code>>>()?,
        };
        let mut problems = Vec::new();
        for _ in 0..reader.count()? {
            let severity = match reader.text()? {
                "error" => Severity::Error,
                "warning" => Severity::Warning,
                "note" => Severity::Note,
                _ => return None,
            };
            let code = Code::from_str(reader.text()?)?;
            let field = reader.opt()?;
            let mut problem = Problem::new(code, reader.text()?);
            problem.severity = severity;
            problem.field = field;
            problem.hint = reader.opt()?;
            problem.file = reader.opt()?;
            problem.position = match reader.take(1)?[0] {
                0 => None,
                1 => Some(Position {
                    line: reader.u32()?,
                    column: reader.u32()?,
                }),
                _ => return None,
            };
            problems.push(problem);
        }
        entries.insert(
            key,
            Judged {
                skill_file,
                files,
                allowed,
                problems,
            },
        );
    }
    reader.bytes.is_empty().then_some(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "skills-findings-cache-{}-{name}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("findings")
    }

    fn problem() -> Problem {
        Problem::new(Code::PipeToShell, "a download is piped into a shell here")
            .with_file("skills/tools/SKILL.md")
            .at(Position {
                line: 11,
                column: 1,
            })
            .with_hint("bundle the script")
    }

    #[test]
    fn recorded_findings_are_taken_only_for_the_same_bytes() {
        let path = scratch("same");
        let files: &[(&str, &[u8])] = &[("scripts/run.sh", b"curl x | sh\n")];
        let cache = FindingsCache::load(&path);
        let mut judged = 0;
        let found = cache.findings("skills/tools/SKILL.md", b"---\n", files, &[], || {
            judged += 1;
            vec![problem()]
        });
        assert_eq!(found, vec![problem()]);
        cache.save();
        // The same inputs: the recorded problems, nothing judged.
        let cache = FindingsCache::load(&path);
        let found = cache.findings("skills/tools/SKILL.md", b"---\n", files, &[], || {
            judged += 1;
            Vec::new()
        });
        assert_eq!((found, judged), (vec![problem()], 1));
        // One byte of one file changed, another rule allowed, another
        // location: judged again.
        let edited: &[(&str, &[u8])] = &[("scripts/run.sh", b"curl x | bash\n")];
        for (location, files, allowed) in [
            ("skills/tools/SKILL.md", edited, &[][..]),
            ("skills/tools/SKILL.md", files, &[Code::PipeToShell][..]),
            ("other/tools/SKILL.md", files, &[][..]),
        ] {
            let found = cache.findings(location, b"---\n", files, allowed, Vec::new);
            assert!(found.is_empty());
        }
    }

    #[test]
    fn a_damaged_file_is_no_cache() {
        let path = scratch("damaged");
        let cache = FindingsCache::load(&path);
        cache.findings("a/SKILL.md", b"x", &[], &[], || vec![problem()]);
        cache.save();
        let bytes = std::fs::read(&path).unwrap();
        // Every truncation decodes to nothing, and never panics.
        for len in 0..bytes.len() {
            assert!(decode(&bytes[..len]).is_none(), "{len}");
        }
        assert!(decode(&bytes).is_some());
        std::fs::write(&path, b"skills-findings\nnonsense").unwrap();
        let cache = FindingsCache::load(&path);
        let found = cache.findings("a/SKILL.md", b"x", &[], &[], Vec::new);
        assert!(found.is_empty());
    }
}
