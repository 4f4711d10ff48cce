//! The arguments of `include_skills!`: a path, then `name = value` options.

use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitBool, LitInt, LitStr, Token};

/// Every option the macro takes, for the "unknown option" message.
pub const OPTIONS: &[&str] = &[
    "source",
    "location_base",
    "exclude",
    "max_file_size",
    "sign_key_env",
    "sign_key_file",
    "origin",
    "key_id",
    "extensions",
    "keep_junk",
];

/// One more directory of skills, optionally qualified (`"dir" as "vendor"`).
pub struct ExtraSource {
    pub path: LitStr,
    pub qualifier: Option<LitStr>,
}

/// What the invocation asked for.
pub struct MacroArgs {
    /// The first skills directory, relative to `CARGO_MANIFEST_DIR`.
    pub path: LitStr,
    /// More directories, in precedence order after `path`.
    pub sources: Vec<ExtraSource>,
    /// Prompt locations: `<base>/<dir>/SKILL.md` instead of `skill://<name>/SKILL.md`.
    pub location_base: Option<LitStr>,
    /// Glob patterns of files to leave out.
    pub excludes: Vec<LitStr>,
    /// Largest file to embed, in bytes.
    pub max_file_size: Option<LitInt>,
    /// The environment variable holding the signing key.
    pub sign_key_env: Option<LitStr>,
    /// The file holding the signing key, relative to `CARGO_MANIFEST_DIR`.
    pub sign_key_file: Option<LitStr>,
    /// The origin the signatures are made for.
    pub origin: Option<LitStr>,
    /// The key id recorded with the signatures.
    pub key_id: Option<LitStr>,
    /// Accept agentskills-core's extension fields (`version`,
    /// `when_to_use`, `when_not_to_use`).
    pub extensions: Option<LitBool>,
    /// Embed junk (`.DS_Store`, swap files, `.git/`...) instead of leaving
    /// it out.
    pub keep_junk: Option<LitBool>,
}

impl Parse for MacroArgs {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        if input.is_empty() {
            return Err(input.error(
                "include_skills! needs the skills directory, relative to CARGO_MANIFEST_DIR: include_skills!(\"skills\")",
            ));
        }
        let path: LitStr = input.parse()?;
        let mut args = MacroArgs {
            path,
            sources: Vec::new(),
            location_base: None,
            excludes: Vec::new(),
            max_file_size: None,
            sign_key_env: None,
            sign_key_file: None,
            origin: None,
            key_id: None,
            extensions: None,
            keep_junk: None,
        };
        while !input.is_empty() {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            let name: Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            match name.to_string().as_str() {
                "source" => {
                    let path: LitStr = input.parse()?;
                    let qualifier = if input.peek(Token![as]) {
                        input.parse::<Token![as]>()?;
                        Some(input.parse()?)
                    } else {
                        None
                    };
                    args.sources.push(ExtraSource { path, qualifier });
                }
                "location_base" => set_once(&mut args.location_base, &name, input.parse()?)?,
                "exclude" => args.excludes.push(input.parse()?),
                "max_file_size" => set_once(&mut args.max_file_size, &name, input.parse()?)?,
                "sign_key_env" => set_once(&mut args.sign_key_env, &name, input.parse()?)?,
                "sign_key_file" => set_once(&mut args.sign_key_file, &name, input.parse()?)?,
                "origin" => set_once(&mut args.origin, &name, input.parse()?)?,
                "key_id" => set_once(&mut args.key_id, &name, input.parse()?)?,
                "extensions" => set_once(&mut args.extensions, &name, input.parse()?)?,
                "keep_junk" => set_once(&mut args.keep_junk, &name, input.parse()?)?,
                other => {
                    return Err(syn::Error::new(
                        name.span(),
                        format!(
                            "unknown option `{other}`; include_skills! takes {}",
                            OPTIONS
                                .iter()
                                .map(|o| format!("`{o}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    ));
                }
            }
        }
        Ok(args)
    }
}

fn set_once<T>(slot: &mut Option<T>, name: &Ident, value: T) -> syn::Result<()> {
    if slot.is_some() {
        return Err(syn::Error::new(
            name.span(),
            format!("option `{name}` is given twice"),
        ));
    }
    *slot = Some(value);
    Ok(())
}
