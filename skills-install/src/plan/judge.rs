//! One skill in one agent folder: what is there, whose it is, and what an
//! install or uninstall does with it.
//!
//! Ownership is the record, never matching bytes. A file is this tool's
//! only when its record lists it for this folder and skill and the file
//! still has the digest recorded (or, for an install, already holds what
//! is embedded now). A skill folder the record does not list is not this
//! tool's, whatever its bytes: when it holds exactly what is embedded it
//! is reported as not installed by this tool and left alone (even with
//! `force`), but in a plain folder ([`Scope::Folder`](crate::Scope)) it is
//! adopted: recorded as this tool's, and updated from then on; when it holds something else in the skill's place (files of
//! its own included: an existing folder is never taken for a missing
//! one), that is a conflict an install overwrites only with `force`; an
//! uninstall never touches it. Files nobody lists (a user's notes beside a
//! skill) are carried over by an update and kept by an uninstall.
//!
//! A record entry this tool did not write here (a record committed to the
//! repository: see [`owned`](crate::owned)) is a claim: status believes
//! it, and an update may replace or remove a file of a skill the tool
//! carries when the file holds exactly what the claim records; anything
//! else it names (a file that differs, a whole skill removed by an
//! uninstall or as no longer carried, a link) is a conflict that says
//! where the claim comes from, acted on only with `force`.

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::{Path, PathBuf};

use crate::dir::Dir;
use crate::payload::Payload;
use crate::plan::model::{Operation, Outcome, SkillPlan, Work};
use crate::plan::verdicts::{Change, Conflict, ConflictKind, FileAction, FileChange, State};
use crate::record::RecordSkill;
use crate::tree::{self, Entry, Node};

/// One skill in one folder, and what we know of it.
pub(crate) struct Judge<'j, 'c> {
    /// The skill's folder.
    pub folder: &'j Path,
    /// The embedded skill (with its index among the payloads), if any.
    pub payload: Option<(usize, &'j Payload<'c>)>,
    /// What the record says this tool wrote here, if anything.
    pub recorded: Option<&'j RecordSkill>,
    /// Whether that is a claim: an entry this tool did not write here.
    pub claimed: bool,
    /// The link we make to the shared copy, as written.
    pub ours_link: Option<PathBuf>,
    /// The shared copy of this skill.
    pub store: Option<PathBuf>,
    /// Whether a folder that holds exactly what is embedded, and that the
    /// record does not list, is taken into the record (a plain folder:
    /// what an earlier installer of the program wrote becomes ours).
    pub adopt: bool,
}

/// How a path of ours (embedded now, or recorded) is found on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Found {
    /// Not there.
    Absent,
    /// A regular file: whether it holds what we embed now, and whether it
    /// holds what the record says we wrote there.
    File { current: bool, owned: bool },
    /// A folder, link or special file.
    NotAFile,
}

/// A skill folder read path by path.
struct Reading<'n> {
    /// Every entry of the folder, links not followed.
    nodes: &'n BTreeMap<PathBuf, Node>,
    /// Each path of ours (embedded or recorded) and how it is found.
    found: BTreeMap<String, Found>,
    /// Entries that are not folders where our files need one.
    blockers: Vec<(PathBuf, Node)>,
    /// Entries an install keeps (carries into the new folder): the ones we
    /// know nothing of, and what stands where a file the new version
    /// drops was.
    extras: Vec<(PathBuf, Node)>,
}

impl Reading<'_> {
    /// Whether anything stands at a path of ours.
    fn present(&self) -> bool {
        self.found.values().any(|found| *found != Found::Absent)
    }
}

impl Judge<'_, '_> {
    fn embedded(&self, path: &str) -> Option<&[u8]> {
        let (_, payload) = self.payload?;
        payload.file(path).map(|file| &file.bytes[..])
    }

    fn recorded_file(&self, path: &str) -> bool {
        self.recorded.is_some_and(|r| r.files.contains_key(path))
    }

    fn read<'n>(&self, skill: &Dir, nodes: &'n BTreeMap<PathBuf, Node>) -> io::Result<Reading<'n>> {
        let mut ours: BTreeSet<&str> = BTreeSet::new();
        if let Some((_, payload)) = self.payload {
            ours.extend(payload.files.iter().map(|file| file.path));
        }
        if let Some(recorded) = self.recorded {
            ours.extend(recorded.files.keys().map(String::as_str));
        }
        let embedded_paths: BTreeSet<PathBuf> = ours
            .iter()
            .filter(|path| self.embedded(path).is_some())
            .map(|path| tree::relative(path))
            .collect();
        let needed_dirs: BTreeSet<PathBuf> = embedded_paths
            .iter()
            .flat_map(|path| path.ancestors().skip(1).map(Path::to_path_buf))
            .collect();
        let mut found = BTreeMap::new();
        let mut dropped_files: BTreeSet<PathBuf> = BTreeSet::new();
        for path in &ours {
            let relative = tree::relative(path);
            let here = match nodes.get(&relative) {
                None => Found::Absent,
                Some(Node::File { size }) => {
                    let current = match self.embedded(path) {
                        Some(bytes) => tree::same_bytes(skill, &relative, *size, bytes)?,
                        None => false,
                    };
                    let owned = match self.recorded.and_then(|r| r.files.get(*path)) {
                        Some(was) if was.size == *size => {
                            let digest = match (current, self.embedded(path)) {
                                (true, Some(bytes)) => skills_core::sha256::digest(bytes),
                                _ => tree::sha256(skill, &relative)?,
                            };
                            digest == was.sha256
                        }
                        _ => false,
                    };
                    if !embedded_paths.contains(&relative) {
                        dropped_files.insert(relative);
                    }
                    Found::File { current, owned }
                }
                Some(_) => Found::NotAFile,
            };
            found.insert(path.to_string(), here);
        }
        let mut blockers = Vec::new();
        let mut extras = Vec::new();
        for (path, node) in nodes {
            if embedded_paths.contains(path) || dropped_files.contains(path) {
                continue;
            }
            if path.ancestors().skip(1).any(|a| embedded_paths.contains(a)) {
                // Inside something standing where a file of ours goes.
                continue;
            }
            if needed_dirs.contains(path) {
                if *node != Node::Dir {
                    blockers.push((path.clone(), node.clone()));
                }
                continue;
            }
            extras.push((path.clone(), node.clone()));
        }
        Ok(Reading {
            nodes,
            found,
            blockers,
            extras,
        })
    }

    /// Whether the link at the skill's place is one this tool made: the
    /// record says it installed a link here, and it points at the shared
    /// copy.
    fn is_our_link(&self, target: &Path) -> bool {
        if self.recorded.is_none_or(|r| r.link.is_none()) {
            return false;
        }
        if self.ours_link.as_deref() == Some(target) {
            return true;
        }
        match (&self.store, std::fs::canonicalize(self.folder)) {
            (Some(store), Ok(real)) => std::fs::canonicalize(store).is_ok_and(|s| s == real),
            _ => false,
        }
    }

    fn after_copy(&self) -> Option<RecordSkill> {
        let (_, payload) = self.payload?;
        Some(payload.copy_record())
    }

    fn after_link(&self, target: &Path) -> Option<RecordSkill> {
        let (_, payload) = self.payload?;
        Some(RecordSkill {
            revision: payload.revision.to_string(),
            link: Some(target.to_string_lossy().into_owned()),
            files: BTreeMap::new(),
        })
    }

    fn all_added(&self) -> Vec<FileChange> {
        self.payload
            .map(|(_, payload)| {
                payload
                    .files
                    .iter()
                    .map(|file| FileChange {
                        path: file.path.to_string(),
                        action: FileAction::Add,
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// What is at the skill's place, and what `op` does with it (`link`:
    /// the folder holds links to the shared copy).
    pub(crate) fn plan(&self, entry: &Entry, op: Operation, link: bool) -> io::Result<SkillPlan> {
        let mut skill = self.nothing_planned();
        let link_target = self.ours_link.as_deref().filter(|_| link);
        match entry {
            Entry::Absent => {
                skill.state = State::Missing;
                if op == Operation::Install {
                    skill.change = Change::Write;
                    self.install(&mut skill, link_target);
                }
            }
            Entry::NotFolder => {
                let kind = Some(ConflictKind::NotAFolder);
                self.plan_not_ours(&mut skill, op, kind, link_target);
            }
            Entry::Link(to) if self.is_our_link(to) => {
                self.plan_our_link(&mut skill, to, op, link_target);
            }
            Entry::Link(to) => {
                // The very link we would make, not made by us: left alone.
                let same = link_target == Some(to.as_path());
                let kind = (!same).then(|| ConflictKind::Link(to.clone()));
                self.plan_not_ours(&mut skill, op, kind, link_target);
            }
            Entry::Folder(dir, nodes) => {
                let reading = self.read(dir, nodes)?;
                skill.state = self.state(&reading);
                match op {
                    Operation::Install => self.plan_install(&mut skill, &reading, link_target),
                    Operation::Uninstall => self.plan_uninstall(&mut skill, &reading),
                }
            }
        }
        if !skill.change.writes() {
            self.nothing_to_remove(&mut skill, op);
        }
        Ok(skill)
    }

    /// The plan before anything is known of the skill's place: missing,
    /// kept, nothing to do.
    fn nothing_planned(&self) -> SkillPlan {
        SkillPlan {
            name: String::new(),
            state: State::Missing,
            change: Change::Keep,
            files: Vec::new(),
            conflicts: Vec::new(),
            kept: Vec::new(),
            others: Vec::new(),
            same: Vec::new(),
            notes: Vec::new(),
            work: Work {
                payload: self.payload.map(|(at, _)| at),
                outcome: Outcome::Same,
                after: None,
                forgets: false,
                keeps: false,
                adopted: false,
            },
        }
    }

    /// A conflict for the whole skill when its entry is a claim.
    fn claim(&self, skill: &mut SkillPlan) {
        if self.claimed {
            skill.conflicts.push(whole(ConflictKind::Claimed));
        }
    }

    /// What an uninstall that finds nothing to remove does with the
    /// entry: forgets its own, keeps a claim's as it is.
    fn nothing_to_remove(&self, skill: &mut SkillPlan, op: Operation) {
        if op == Operation::Uninstall && self.recorded.is_some() {
            match self.claimed {
                true => skill.work.keeps = true,
                false => skill.work.forgets = true,
            }
        }
    }

    /// What an install puts in the skill's place: every file added, as a
    /// link to the shared copy (`link_target`) or a copy.
    fn install(&self, skill: &mut SkillPlan, link_target: Option<&Path>) {
        skill.files = self.all_added();
        match link_target {
            Some(target) => self.link_to(skill, target),
            None => {
                skill.work.outcome = Outcome::Folder {
                    write: true,
                    carry: Vec::new(),
                };
                skill.work.after = self.after_copy();
            }
        }
    }

    /// The skill's place becomes a link to `target`, recorded as such.
    fn link_to(&self, skill: &mut SkillPlan, target: &Path) {
        skill.change = Change::Link;
        skill.work.outcome = Outcome::Link(target.to_path_buf());
        skill.work.after = self.after_link(target);
    }

    /// Something not ours in the skill's place (not a folder, or a link):
    /// left, but an install writes over it when it stands in the way
    /// (`in_way`, the conflict it is).
    fn plan_not_ours(
        &self,
        skill: &mut SkillPlan,
        op: Operation,
        in_way: Option<ConflictKind>,
        link_target: Option<&Path>,
    ) {
        skill.state = State::NotOurs;
        skill.change = Change::Leave;
        if op == Operation::Install
            && let Some(kind) = in_way
        {
            skill.conflicts.push(whole(kind));
            skill.change = Change::Write;
            self.install(skill, link_target);
        }
    }

    /// The link this tool made to the shared copy (`to`): removed by an
    /// uninstall, kept by an install that links to it, else replaced.
    fn plan_our_link(
        &self,
        skill: &mut SkillPlan,
        to: &Path,
        op: Operation,
        link_target: Option<&Path>,
    ) {
        skill.state = State::UpToDate;
        match (op, link_target) {
            (Operation::Uninstall, _) => {
                skill.change = Change::Remove;
                skill.work.outcome = Outcome::Gone;
                self.claim(skill);
            }
            (Operation::Install, Some(target)) if target == to => {
                skill.work.after = self.after_link(target);
            }
            (Operation::Install, _) => {
                // A link of ours where a copy (or another link) goes.
                skill.state = State::Outdated;
                skill.change = Change::Update;
                self.install(skill, link_target);
                self.claim(skill);
            }
        }
    }

    /// What is in a skill folder now (the same for every operation, and
    /// what `status` says).
    fn state(&self, reading: &Reading<'_>) -> State {
        let present = reading.present();
        if self.recorded.is_none() {
            // A folder holding anything is someone's: not missing.
            return match present || !reading.blockers.is_empty() || !reading.extras.is_empty() {
                true => State::NotOurs,
                false => State::Missing,
            };
        }
        let mut changed = !reading.blockers.is_empty();
        let mut deleted = false;
        let mut behind = false;
        for (path, found) in &reading.found {
            let embedded = self.embedded(path).is_some();
            let recorded = self.recorded_file(path);
            match (embedded, found) {
                (true, Found::Absent) => deleted |= recorded,
                (true, Found::File { current: true, .. }) => changed |= !recorded,
                (_, Found::File { owned: true, .. }) => behind = true,
                (false, Found::Absent) => {}
                _ => changed = true,
            }
        }
        if changed || deleted {
            State::Modified
        } else if !present {
            State::Missing
        } else if behind || self.payload.is_none() {
            State::Outdated
        } else {
            State::UpToDate
        }
    }

    /// What an install does with a skill folder that is there, file by
    /// file (`link`: it becomes a link to the shared copy).
    fn plan_install(&self, skill: &mut SkillPlan, reading: &Reading<'_>, link: Option<&Path>) {
        note_others_and_same(skill, reading);
        let present = reading.present();
        if self.recorded.is_none() && present && holds_only_embedded(reading) {
            // What we embed, but not installed by us: not ours to take,
            // but in a plain folder (what an earlier installer wrote).
            self.adopt_or_leave(skill);
            return;
        }
        if self.recorded.is_none() && !present && !reading.extras.is_empty() {
            // A folder of someone else's where the skill goes, holding
            // none of the skill's files: writing into it takes it over.
            skill.conflicts.push(whole(ConflictKind::NotOurs));
        }
        self.plan_files(skill, reading);
        blocker_conflicts(skill, reading);
        self.install_outcome(skill, reading, link, present);
    }

    /// Each path of ours in the folder: what an install does with it, and
    /// the conflict where it does not hold what the record says.
    fn plan_files(&self, skill: &mut SkillPlan, reading: &Reading<'_>) {
        // A file the record lists that does not hold what it says.
        let differs = match (self.recorded.is_some(), self.claimed) {
            (true, true) => ConflictKind::Claimed,
            (true, false) => ConflictKind::Changed,
            (false, _) => ConflictKind::NotOurs,
        };
        for (path, found) in &reading.found {
            let (action, conflict) = self.file_verdict(path, *found, &differs);
            if let Some(kind) = conflict {
                skill.conflicts.push(Conflict {
                    path: path.clone(),
                    kind,
                });
            }
            if let Some(action) = action {
                skill.files.push(FileChange {
                    path: path.clone(),
                    action,
                });
            }
        }
    }

    /// What an install does with the path of ours `path`, found as
    /// `found`, and the conflict that is (`differs`: the one for a
    /// recorded file that does not hold what the record says).
    fn file_verdict(
        &self,
        path: &str,
        found: Found,
        differs: &ConflictKind,
    ) -> (Option<FileAction>, Option<ConflictKind>) {
        let recorded = self.recorded_file(path);
        match (self.embedded(path).is_some(), found) {
            (true, Found::Absent) => (Some(FileAction::Add), None),
            (true, Found::File { current: true, .. }) if recorded => (None, None),
            (true, Found::File { owned: true, .. }) => (Some(FileAction::Replace), None),
            (true, Found::File { .. }) => (
                Some(FileAction::Replace),
                Some(match recorded {
                    true => differs.clone(),
                    false => ConflictKind::NotOurs,
                }),
            ),
            (true, Found::NotAFile) => (Some(FileAction::Replace), Some(ConflictKind::NotAFile)),
            (false, Found::File { owned: true, .. }) => (Some(FileAction::Remove), None),
            (false, Found::File { .. }) => (Some(FileAction::Remove), Some(differs.clone())),
            // A folder where a file the new version drops was: kept.
            (false, Found::NotAFile | Found::Absent) => (None, None),
        }
    }

    /// What the install leaves in the skill's place: a link (hiding the
    /// user's files, a conflict each), the folder rewritten with the
    /// user's entries carried over, or the folder as it is.
    fn install_outcome(
        &self,
        skill: &mut SkillPlan,
        reading: &Reading<'_>,
        link: Option<&Path>,
        present: bool,
    ) {
        if let Some(target) = link {
            // Replacing the folder with a link hides the user's files.
            for (path, node) in &reading.extras {
                if *node != Node::Dir {
                    skill.conflicts.push(Conflict {
                        path: slashed(path),
                        kind: ConflictKind::Hidden,
                    });
                }
            }
            for file in skill.files.iter_mut() {
                file.action = FileAction::Remove;
            }
            self.link_to(skill, target);
        } else if !skill.files.is_empty() || !skill.conflicts.is_empty() {
            skill.change = match present {
                true => Change::Update,
                false => Change::Write,
            };
            let carry = reading
                .extras
                .iter()
                .map(|(path, _)| path.clone())
                .collect();
            skill.work.outcome = Outcome::Folder { write: true, carry };
            skill.work.after = self.after_copy();
        } else {
            skill.work.after = self.after_copy();
        }
    }

    /// A folder holding exactly what is embedded that the record does not
    /// list: adopted in a plain folder (recorded as ours, nothing written),
    /// else left as it is.
    fn adopt_or_leave(&self, skill: &mut SkillPlan) {
        if self.adopt {
            skill.state = State::UpToDate;
            skill.work.after = self.after_copy();
            skill.work.adopted = true;
        } else {
            skill.change = Change::Leave;
        }
    }

    /// An uninstall removes the files the record lists and that still
    /// hold what it says (others, changed since, only with `force`), and
    /// keeps everything else in the folder.
    fn plan_uninstall(&self, skill: &mut SkillPlan, reading: &Reading<'_>) {
        let mut removed: BTreeSet<PathBuf> = BTreeSet::new();
        for (path, found) in &reading.found {
            if !self.recorded_file(path) {
                continue;
            }
            // A claim removes nothing without `force`, whatever its bytes.
            let conflict = match found {
                Found::File { .. } if self.claimed => Some(ConflictKind::Claimed),
                Found::File { owned: true, .. } => None,
                Found::File { .. } => Some(ConflictKind::Changed),
                // A folder where our file was is the user's.
                Found::NotAFile | Found::Absent => continue,
            };
            if let Some(kind) = conflict {
                skill.conflicts.push(Conflict {
                    path: path.clone(),
                    kind,
                });
            }
            skill.files.push(FileChange {
                path: path.clone(),
                action: FileAction::Remove,
            });
            removed.insert(tree::relative(path));
        }
        if removed.is_empty() {
            skill.change = match reading.present() {
                true => Change::Leave,
                false => Change::Keep,
            };
            return;
        }
        skill.change = Change::Remove;
        // What stays: every entry not removed, but the folders that held
        // only our files.
        let kept_files: Vec<&PathBuf> = reading
            .nodes
            .iter()
            .filter(|(path, node)| **node != Node::Dir && !removed.contains(*path))
            .map(|(path, _)| path)
            .collect();
        let ours_dirs: BTreeSet<&Path> = removed
            .iter()
            .flat_map(|path| path.ancestors().skip(1))
            .collect();
        let carry: Vec<PathBuf> = reading
            .nodes
            .keys()
            .filter(|path| !removed.contains(*path))
            .filter(|path| {
                !ours_dirs.contains(path.as_path())
                    || kept_files.iter().any(|file| file.starts_with(path))
            })
            .cloned()
            .collect();
        let keeps = carry.iter().any(|path| reading.nodes[path] != Node::Dir);
        skill.work.outcome = match keeps {
            true => Outcome::Folder {
                write: false,
                carry,
            },
            false => Outcome::Gone,
        };
    }
}

/// The user's files beside the skill's (what an install keeps), and the
/// skill's files that already hold what is embedded.
fn note_others_and_same(skill: &mut SkillPlan, reading: &Reading<'_>) {
    skill.others = reading
        .extras
        .iter()
        .filter(|(_, node)| *node != Node::Dir)
        .map(|(path, _)| slashed(path))
        .collect();
    skill.same = reading
        .found
        .iter()
        .filter(|(_, found)| matches!(found, Found::File { current: true, .. }))
        .map(|(path, _)| path.clone())
        .collect();
}

/// Whether every path of ours holds what is embedded now, and nothing
/// blocks a folder of the skill.
fn holds_only_embedded(reading: &Reading<'_>) -> bool {
    reading.blockers.is_empty()
        && reading
            .found
            .values()
            .all(|found| matches!(found, Found::File { current: true, .. }))
}

/// A conflict for each entry that is not a folder where a file of ours
/// needs one.
fn blocker_conflicts(skill: &mut SkillPlan, reading: &Reading<'_>) {
    for (path, node) in &reading.blockers {
        let kind = match node {
            Node::Link(to) => ConflictKind::Link(to.clone()),
            _ => ConflictKind::NotAFolder,
        };
        skill.conflicts.push(Conflict {
            path: slashed(path),
            kind,
        });
    }
}

/// A conflict about the skill as a whole (no path).
fn whole(kind: ConflictKind) -> Conflict {
    Conflict {
        path: String::new(),
        kind,
    }
}

/// A relative path, `/`-separated.
fn slashed(path: &Path) -> String {
    path.components()
        .map(|part| part.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}
