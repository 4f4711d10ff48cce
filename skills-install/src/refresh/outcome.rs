//! What a refresh found and did: per scope a [`Refreshed`], and each
//! installed copy it left as it is (or moved aside) a [`Kept`].

use crate::plan::{Change, Plan, State as SkillState};

/// What a refresh found in one scope, and did.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refreshed {
    /// Nothing of this tool is installed here (no record).
    NotInstalled,
    /// Every installed skill is at the embedded revision (or was left
    /// before, as the user changed it, at that revision): the record was
    /// all that was read.
    Current,
    /// The record was written by a newer version of the tool: left to it
    /// (two versions of a tool on one machine do not undo each other).
    Newer {
        /// The version the record names.
        version: String,
    },
    /// The installed skills at another revision were looked at: the plan
    /// carried out (its updated and removed skills), and the skills left
    /// as the user changed them.
    Applied {
        /// The plan as carried out.
        plan: Box<Plan>,
        /// The skills left as they are.
        kept: Vec<Kept>,
    },
}

/// An installed skill a refresh left as it is, because the user changed
/// it (or removed it, or put something else in its place).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Kept {
    /// Its agent folder, as shown (relative to the scope's base).
    pub dir: String,
    /// Its folder name.
    pub name: String,
    /// What is there: modified by the user, missing, or not installed by
    /// this tool.
    pub state: SkillState,
    /// Whether the skill is still embedded (else the refresh would have
    /// removed it).
    pub embedded: bool,
    /// Whether this refresh said so (the first one to find it at this
    /// revision); later refreshes say nothing.
    pub told: bool,
    /// Where the user's version was moved aside (`name.user-1`, beside
    /// it), when the folder's policy is to replace it
    /// ([`FolderPolicy::Replace`](crate::FolderPolicy::Replace)): the
    /// new version was then written in its place.
    pub aside: Option<String>,
}

impl Refreshed {
    /// The skills updated (or removed, or written again) in each folder:
    /// `(folder, skill)`.
    ///
    /// ```
    /// # use skills_install::Refreshed;
    /// assert_eq!(Refreshed::Current.changed().count(), 0);
    /// ```
    pub fn changed(&self) -> impl Iterator<Item = (&str, &str, Change)> {
        let plan = match self {
            Refreshed::Applied { plan, .. } => Some(plan),
            _ => None,
        };
        plan.into_iter().flat_map(|plan| {
            plan.dirs.iter().flat_map(|dir| {
                dir.skills
                    .iter()
                    .filter(|skill| skill.change.writes())
                    .map(move |skill| (dir.shown.as_str(), skill.name.as_str(), skill.change))
            })
        })
    }
}
