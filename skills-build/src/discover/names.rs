//! Naming skills: the first source to offer a name wins it, a later one
//! is shadowed (a warning, an error under `deny_shadowing`), unless its
//! source has a qualifier, when it is listed as `qualifier:name`.

use std::collections::BTreeMap;

use super::model::{DiscoveredSkill, Discovery, Listing, Options, Root};
use crate::problem::{Code, Problem, Severity};

/// Gives every readable skill its listing, in search order, one range of
/// skills after another: a skill's listing depends on the skills before it
/// alone.
#[derive(Default)]
pub(super) struct Names {
    /// Listed name -> (source index, location of the skill that took it).
    pub(super) taken: BTreeMap<String, (usize, String)>,
    /// The shadowing problems met so far.
    pub(super) problems: Vec<Problem>,
}

impl Names {
    pub(super) fn assign(
        &mut self,
        roots: &[Root<'_>],
        options: &Options,
        found: &mut Discovery,
        range: std::ops::Range<usize>,
    ) {
        let taken = &mut self.taken;
        let first = range.start;
        assign_names(
            roots,
            options,
            &mut found.skills[range],
            first,
            taken,
            &mut self.problems,
        );
    }
}

fn assign_names(
    roots: &[Root<'_>],
    options: &Options,
    skills: &mut [DiscoveredSkill],
    first: usize,
    taken: &mut BTreeMap<String, (usize, String)>,
    problems: &mut Vec<Problem>,
) {
    for (at, skill) in skills.iter_mut().enumerate() {
        let listing = match (skill.name(), skill.description()) {
            (None, _) | (Some(""), _) => Listing::Unlisted("it has no usable name".into()),
            (_, None) | (_, Some("")) => Listing::Unlisted("it has no usable description".into()),
            (Some(name), _) if name.contains(':') => {
                Listing::Unlisted("its name holds a colon".into())
            }
            (Some(name), _) => {
                let qualifier = roots.get(skill.source).and_then(|root| root.qualifier);
                match taken.get(name) {
                    None => Listing::Listed(name.to_string()),
                    Some((source, by)) => match qualifier {
                        Some(qualifier) if *source < skill.source => {
                            let qualified = format!("{qualifier}:{name}");
                            match taken.get(&qualified) {
                                None => Listing::Listed(qualified),
                                Some((_, by)) => Listing::Shadowed { by: by.clone() },
                            }
                        }
                        _ => Listing::Shadowed { by: by.clone() },
                    },
                }
            }
        };
        match &listing {
            Listing::Listed(name) => {
                taken.insert(name.clone(), (skill.source, skill.file_location.clone()));
            }
            Listing::Shadowed { by } => {
                let message = format!(
                    "skill {:?} is shadowed by {by}, which took the name first; it is not listed",
                    skill.name().unwrap_or_default()
                );
                let problem = Problem::new(Code::SkillShadowed, message);
                let problem = if options.policy.deny_shadowing {
                    problem.with_severity(Severity::Error)
                } else {
                    problem
                };
                problems.push(
                    problem
                        .with_field("name")
                        .with_file(skill.file_location.clone())
                        .with_hint("give its source a qualifier to list it as `qualifier:name`")
                        .of_skill(first + at),
                );
            }
            Listing::Unlisted(_) => {}
        }
        skill.listing = listing;
    }
}
