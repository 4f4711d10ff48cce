//! Agent Skills compiled into your binary, and the `skill` tool served from
//! them with no IO.
//!
//! ```
//! // In your crate: `include_skills!("skills")`, relative to its Cargo.toml.
//! static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("../testdata/skills");
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let catalog = SKILLS.catalog()?;
//! let system_prompt = catalog.system_prompt(); // <available_skills> + usage
//! let tool = catalog.tool_definition(); // name, description, JSON schema
//! let served = catalog.call("pdf-forms", Some("reference.md"))?;
//! assert_eq!(served.read.path, "reference.md");
//! # let _ = (system_prompt, tool);
//! # Ok(())
//! # }
//! ```
//!
//! `include_skills!` validates every skill at compile time with the
//! reference validator's verdicts (an invalid skill is a compile error
//! naming the file and line) and embeds one bundle. The one-line `build.rs`
//! `println!("cargo:rerun-if-changed=skills");` makes added files rebuild
//! too. Projects that prefer a build script use `skills_build::Builder` and
//! [`include_bundle!`].
//!
//! Everything besides the macro lives in `skills-core` and is re-exported
//! here; see [`Catalog`] for the tool and [`Embedded`] for the bytes.
//!
//! Features: `macros` (default, `include_skills!`), `sign` (the macro's
//! signing options; without it no Ed25519 code is compiled), `json`
//! (`Catalog::call_json`), `serde` (the read record as JSON), `revision`
//! and `verify` (content revisions, Ed25519 signature checks).
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub use skills_core::*;

#[cfg(feature = "macros")]
pub use skills_macros::include_skills;

/// The check that `include_skills!` expands to: the bundle format the macro
/// encoded must be the one this runtime reads. On a mismatch the build
/// fails with two errors, one naming the skills-macros version and the
/// format it wrote, one naming this skills-runtime version and the format
/// it reads.
#[doc(hidden)]
#[macro_export]
macro_rules! __check_bundle_format {
    ($format:literal, $macros_version:literal) => {
        const _: () = if $crate::FORMAT_VERSION != $format {
            ::core::panic!(::core::concat!(
                "include_skills! from skills-macros ",
                $macros_version,
                " encoded bundle format ",
                ::core::stringify!($format),
                "; use the skills-runtime and skills-macros of one release"
            ));
        };
        const _: () = if $crate::FORMAT_VERSION != $format {
            ::core::panic!("{}", $crate::__private::RUNTIME_READS);
        };
    };
}

#[doc(hidden)]
pub mod __private {
    const PREFIX: &str = concat!(
        "this crate links skills-runtime ",
        env!("CARGO_PKG_VERSION"),
        ", which reads bundle format "
    );

    /// The decimal digits of `n`, most significant first, and their count.
    const fn digits(mut n: u16) -> ([u8; 5], usize) {
        let mut reversed = [0u8; 5];
        let mut count = 0;
        loop {
            reversed[count] = b'0' + (n % 10) as u8;
            count += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        let mut out = [0u8; 5];
        let mut i = 0;
        while i < count {
            out[i] = reversed[count - 1 - i];
            i += 1;
        }
        (out, count)
    }

    const DIGITS: ([u8; 5], usize) = digits(crate::FORMAT_VERSION);
    const LEN: usize = PREFIX.len() + DIGITS.1;
    const BYTES: [u8; LEN] = {
        let mut out = [0u8; LEN];
        let prefix = PREFIX.as_bytes();
        let mut i = 0;
        while i < prefix.len() {
            out[i] = prefix[i];
            i += 1;
        }
        let mut j = 0;
        while j < DIGITS.1 {
            out[prefix.len() + j] = DIGITS.0[j];
            j += 1;
        }
        out
    };

    /// `this crate links skills-runtime <version>, which reads bundle format <n>`.
    pub const RUNTIME_READS: &str = match core::str::from_utf8(&BYTES) {
        Ok(text) => text,
        Err(_) => PREFIX,
    };

    #[cfg(test)]
    mod tests {
        extern crate std;
        use std::borrow::ToOwned;
        use std::string::ToString;

        #[test]
        fn names_the_version_and_format() {
            assert_eq!(
                super::RUNTIME_READS,
                concat!(
                    "this crate links skills-runtime ",
                    env!("CARGO_PKG_VERSION"),
                    ", which reads bundle format "
                )
                .to_owned()
                    + &crate::FORMAT_VERSION.to_string()
            );
        }
    }
}
