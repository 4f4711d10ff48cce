//! The arguments of `include_skills!`: a path, then `name = value` options,
//! read from the compiler's tokens with the span of each value, so every
//! error points at what caused it.

use proc_macro::{Delimiter, Span, TokenStream, TokenTree};

use crate::literal;

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
    "keep_evals",
    "hosts",
    "allow",
    "deny_warnings",
];

/// A value as written, with where it was written.
#[derive(Debug, Clone)]
pub struct Spanned<T> {
    /// The value.
    pub value: T,
    /// The literal's span.
    pub span: Span,
}

/// Something the macro cannot use, and where: a compile error.
#[derive(Debug, Clone)]
pub struct ArgError {
    /// Where the error points.
    pub span: Span,
    /// What is wrong, and what to write instead.
    pub message: String,
}

impl ArgError {
    /// An error at `span`.
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        ArgError {
            span,
            message: message.into(),
        }
    }
}

/// One more directory of skills, optionally qualified (`"dir" as "vendor"`).
pub struct ExtraSource {
    pub path: Spanned<String>,
    pub qualifier: Option<Spanned<String>>,
}

/// What the invocation asked for.
pub struct MacroArgs {
    /// The first skills directory, relative to `CARGO_MANIFEST_DIR`.
    pub path: Spanned<String>,
    /// More directories, in precedence order after `path`.
    pub sources: Vec<ExtraSource>,
    /// Prompt locations: `<base>/<dir>/SKILL.md` instead of `skill://<name>/SKILL.md`.
    pub location_base: Option<Spanned<String>>,
    /// Glob patterns of files to leave out.
    pub excludes: Vec<Spanned<String>>,
    /// Largest file to embed, in bytes.
    pub max_file_size: Option<Spanned<u64>>,
    /// The environment variable holding the signing key.
    pub sign_key_env: Option<Spanned<String>>,
    /// The file holding the signing key, relative to `CARGO_MANIFEST_DIR`.
    pub sign_key_file: Option<Spanned<String>>,
    /// The origin the signatures are made for.
    pub origin: Option<Spanned<String>>,
    /// The key id recorded with the signatures.
    pub key_id: Option<Spanned<String>>,
    /// Accept agentskills-core's extension fields (`version`,
    /// `when_to_use`, `when_not_to_use`).
    pub extensions: Option<Spanned<bool>>,
    /// Embed junk (`.DS_Store`, swap files, `.git/`...) instead of leaving
    /// it out.
    pub keep_junk: Option<Spanned<bool>>,
    /// Embed each skill's `evals/` folder instead of leaving it out.
    pub keep_evals: Option<Spanned<bool>>,
    /// The hosts targeted, by id (`claude-code`, `codex`...).
    pub hosts: Vec<Spanned<String>>,
    /// Rules silenced everywhere, by code: warnings, notes and the audit's
    /// and lints' errors.
    pub allow: Vec<Spanned<String>>,
    /// Make every warning a compile error (they are compiler warnings
    /// otherwise).
    pub deny_warnings: Option<Spanned<bool>>,
}

/// The input's tokens, with invisible groups (what a `macro_rules!`
/// fragment passes on) opened, one at a time.
struct Tokens {
    tokens: Vec<TokenTree>,
    at: usize,
    /// The span of the whole input, for "expected ..." at its end.
    end: Span,
}

impl Tokens {
    fn new(input: TokenStream) -> Self {
        fn flatten(stream: TokenStream, out: &mut Vec<TokenTree>) {
            for token in stream {
                match token {
                    TokenTree::Group(group) if group.delimiter() == Delimiter::None => {
                        flatten(group.stream(), out)
                    }
                    other => out.push(other),
                }
            }
        }
        let mut tokens = Vec::new();
        flatten(input, &mut tokens);
        let end = tokens.last().map_or_else(Span::call_site, TokenTree::span);
        Tokens { tokens, at: 0, end }
    }

    fn peek(&self) -> Option<&TokenTree> {
        self.tokens.get(self.at)
    }

    fn next(&mut self) -> Option<TokenTree> {
        let token = self.tokens.get(self.at).cloned();
        self.at += 1;
        token
    }

    fn is_empty(&self) -> bool {
        self.at >= self.tokens.len()
    }

    /// The span of the next token, or of the input's end.
    fn here(&self) -> Span {
        self.peek().map_or(self.end, TokenTree::span)
    }

    /// Takes the punctuation `ch`, or fails naming `what` was expected.
    fn punct(&mut self, ch: char, what: &str) -> Result<(), ArgError> {
        match self.peek() {
            Some(TokenTree::Punct(punct)) if punct.as_char() == ch => {
                self.at += 1;
                Ok(())
            }
            _ => Err(ArgError::new(self.here(), format!("expected {what}"))),
        }
    }

    /// Takes an identifier, and gives its text.
    fn ident(&mut self, what: &str) -> Result<Spanned<String>, ArgError> {
        match self.peek() {
            Some(TokenTree::Ident(ident)) => {
                let value = ident.to_string();
                let span = ident.span();
                self.at += 1;
                Ok(Spanned { value, span })
            }
            _ => Err(ArgError::new(self.here(), format!("expected {what}"))),
        }
    }

    /// Takes a string literal, and gives its value.
    fn string(&mut self) -> Result<Spanned<String>, ArgError> {
        let span = self.here();
        match self.next() {
            Some(TokenTree::Literal(lit)) => literal::string(&lit.to_string())
                .map(|value| Spanned { value, span })
                .map_err(|why| ArgError::new(span, why)),
            _ => Err(ArgError::new(span, literal::EXPECTED_STRING)),
        }
    }

    /// Takes an integer literal, and gives its value.
    /// A string literal, or a bracketed list of them (`["a", "b"]`, a
    /// trailing comma allowed).
    fn strings(&mut self) -> Result<Vec<Spanned<String>>, ArgError> {
        let group = match self.peek() {
            Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Bracket => {
                group.clone()
            }
            _ => return Ok(vec![self.string()?]),
        };
        self.next();
        let mut inner = Tokens::new(group.stream());
        inner.end = group.span_close();
        let mut out = Vec::new();
        while !inner.is_empty() {
            out.push(inner.string()?);
            if inner.is_empty() {
                break;
            }
            inner.punct(',', "`,` or `]`")?;
        }
        Ok(out)
    }

    fn integer(&mut self) -> Result<Spanned<u64>, ArgError> {
        let span = self.here();
        match self.next() {
            Some(TokenTree::Literal(lit)) => literal::integer(&lit.to_string())
                .map(|value| Spanned { value, span })
                .map_err(|why| ArgError::new(span, why)),
            _ => Err(ArgError::new(span, "expected an integer literal")),
        }
    }

    /// Takes `true` or `false`.
    fn boolean(&mut self) -> Result<Spanned<bool>, ArgError> {
        let span = self.here();
        let value = match self.next() {
            Some(TokenTree::Ident(ident)) if ident.to_string() == "true" => true,
            Some(TokenTree::Ident(ident)) if ident.to_string() == "false" => false,
            _ => return Err(ArgError::new(span, "expected `true` or `false`")),
        };
        Ok(Spanned { value, span })
    }
}

/// Reads the invocation's arguments.
pub fn parse(input: TokenStream) -> Result<MacroArgs, ArgError> {
    let mut tokens = Tokens::new(input);
    if tokens.is_empty() {
        return Err(ArgError::new(
            Span::call_site(),
            "include_skills! needs the skills directory, relative to CARGO_MANIFEST_DIR: include_skills!(\"skills\")",
        ));
    }
    let mut args = MacroArgs {
        path: tokens.string()?,
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
        keep_evals: None,
        hosts: Vec::new(),
        allow: Vec::new(),
        deny_warnings: None,
    };
    while !tokens.is_empty() {
        tokens.punct(',', "`,`")?;
        if tokens.is_empty() {
            break;
        }
        let name = tokens.ident("an option name, such as `source`")?;
        tokens.punct('=', "`=`")?;
        match name.value.as_str() {
            "source" => {
                let path = tokens.string()?;
                let qualifier = match tokens.peek() {
                    Some(TokenTree::Ident(ident)) if ident.to_string() == "as" => {
                        tokens.next();
                        Some(tokens.string()?)
                    }
                    _ => None,
                };
                args.sources.push(ExtraSource { path, qualifier });
            }
            "location_base" => set_once(&mut args.location_base, &name, tokens.string()?)?,
            "exclude" => args.excludes.push(tokens.string()?),
            "max_file_size" => set_once(&mut args.max_file_size, &name, tokens.integer()?)?,
            "sign_key_env" => set_once(&mut args.sign_key_env, &name, tokens.string()?)?,
            "sign_key_file" => set_once(&mut args.sign_key_file, &name, tokens.string()?)?,
            "origin" => set_once(&mut args.origin, &name, tokens.string()?)?,
            "key_id" => set_once(&mut args.key_id, &name, tokens.string()?)?,
            "extensions" => set_once(&mut args.extensions, &name, tokens.boolean()?)?,
            "keep_junk" => set_once(&mut args.keep_junk, &name, tokens.boolean()?)?,
            "keep_evals" => set_once(&mut args.keep_evals, &name, tokens.boolean()?)?,
            "hosts" => args.hosts.extend(tokens.strings()?),
            "allow" => args.allow.extend(tokens.strings()?),
            "deny_warnings" => set_once(&mut args.deny_warnings, &name, tokens.boolean()?)?,
            other => {
                return Err(ArgError::new(
                    name.span,
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

fn set_once<T>(
    slot: &mut Option<Spanned<T>>,
    name: &Spanned<String>,
    value: Spanned<T>,
) -> Result<(), ArgError> {
    if slot.is_some() {
        return Err(ArgError::new(
            name.span,
            format!("option `{}` is given twice", name.value),
        ));
    }
    *slot = Some(value);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::OPTIONS;

    /// The option names `parse` matches on, read from this file's source:
    /// the proc-macro API cannot run outside a macro, so the list and the
    /// match are held together by their text.
    fn matched() -> Vec<String> {
        let source = include_str!("args.rs");
        let start = source.find("match name.value.as_str() {").unwrap();
        let end = start + source[start..].find("other => {").unwrap();
        source[start..end]
            .lines()
            .filter_map(|line| {
                let arm = line.trim().strip_prefix('"')?;
                let (name, rest) = arm.split_once('"')?;
                rest.trim_start()
                    .starts_with("=>")
                    .then(|| name.to_string())
            })
            .collect()
    }

    #[test]
    fn the_option_list_is_the_match() {
        assert_eq!(matched(), OPTIONS, "OPTIONS and parse's match disagree");
    }

    #[test]
    fn the_readme_names_every_option() {
        let readme = include_str!("../../README.md");
        let start = readme.find("Options follow the path").unwrap();
        let list = &readme[start..start + readme[start..].find(". ").unwrap()];
        for option in OPTIONS.iter().filter(|option| **option != "source") {
            assert!(
                list.contains(&format!("`{option}`")),
                "the README does not name `{option}`"
            );
        }
    }
}
