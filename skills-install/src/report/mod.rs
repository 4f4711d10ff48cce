//! How plans, statuses and skill lists are shown: text for people
//! ([`text`]), one JSON document for programs ([`json`]), each state with
//! the command that resolves it ([`remedy`]). The `skill` subcommand, its
//! clap form and the `skills` CLI all print through here.

pub(crate) mod json;
pub(crate) mod remedy;
pub(crate) mod text;
