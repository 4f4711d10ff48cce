//! The `include_skills!` macro (see skills-runtime).
