//! What every stage of the reader shares: the position type (ruamel's
//! marks, as its errors print them: 1-based line, column in code points)
//! and the kinds of rule a text can break (ruamel's scanner and parser
//! errors, and strictyaml's refusals), apart from the stages so that each
//! stage imports them from here and the parent only imports the stages.

/// A position in the parsed text: 1-based line and column, columns in code points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Mark {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, counted in code points.
    pub column: u32,
}

/// Which rule the text broke.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A YAML syntax error from ruamel's scanner or parser (tabs, `key: a: b`,
    /// unclosed quotes, bad indentation, stray `-`, block scalar headers...).
    Syntax,
    /// A flow mapping or sequence (`{}` / `[]`), refused by strictyaml.
    FlowStyle,
    /// An anchor (`&name`), refused by strictyaml.
    Anchor,
    /// An alias (`*name`); with anchors refused, every alias is undefined.
    Alias,
    /// A tag (`!!str`, `!local`), refused by strictyaml.
    Tag,
    /// A merge key `<<` whose value is not a mapping or a list of mappings.
    MergeKey,
    /// A key repeated in one mapping.
    DuplicateKey,
    /// Sibling mapping values starting in different columns.
    InconsistentIndentation,
    /// A mapping used as a key.
    UnhashableKey,
    /// More than one document in the text.
    MultipleDocuments,
    /// A character ruamel's reader refuses (controls, DEL, C1, U+FFFE/U+FFFF).
    NonPrintable,
    /// Collections nested deeper than the reader allows.
    TooDeep,
    /// Input the reference cannot load at all (it crashes); ours says why.
    Unsupported,
}
