//! (being written) strict YAML reader with strictyaml semantics.

/// A position in the parsed text: 1-based line and column, columns in code points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Mark {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, counted in code points.
    pub column: u32,
}

/// A parsed node with the position where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// What the node holds.
    pub value: Value,
    /// Where the node starts.
    pub mark: Mark,
}

/// The three shapes strictyaml produces: text, list, mapping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A scalar, always text as written (after YAML unquoting/folding).
    Str(String),
    /// A block sequence.
    Seq(Vec<Node>),
    /// A block mapping, entries in file order, keys unique.
    Map(Vec<Entry>),
}

/// One key/value pair of a mapping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The key text.
    pub key: String,
    /// Where the key starts.
    pub key_mark: Mark,
    /// The value.
    pub value: Node,
}

/// Why the text is not strict YAML.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    message: String,
    mark: Mark,
}

impl YamlError {
    /// Where the problem is.
    pub fn mark(&self) -> Mark {
        self.mark
    }
}

impl core::fmt::Display for YamlError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for YamlError {}

/// Parse `text` (the frontmatter between the fences) as strictyaml would.
pub fn parse(text: &str) -> Result<Node, YamlError> {
    let _ = text;
    Err(YamlError { message: "not yet written".into(), mark: Mark { line: 1, column: 1 } })
}
