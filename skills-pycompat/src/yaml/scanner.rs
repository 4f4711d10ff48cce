//! Tokens, in the order and with the errors of ruamel's round-trip scanner as
//! strictyaml subclasses it.
//!
//! The token queue, the simple-key bookkeeping and the comment tokens are kept
//! as ruamel keeps them, because they decide how far the scanner looks ahead
//! and so which of two problems is reported first.

use std::collections::{BTreeMap, VecDeque};

use super::error::ErrorKind;
use super::marked::{Failure, RawMark, py_repr_char};
use super::reader::{NUL, Reader};

/// Characters that end a line or the input.
const THE_END: &[char] = &['\n', '\0', '\r', '\u{85}', '\u{2028}', '\u{2029}'];
/// [`THE_END`] plus space and tab.
const THE_END_SPACE_TAB: &[char] = &[
    ' ', '\n', '\0', '\t', '\r', '\u{85}', '\u{2028}', '\u{2029}',
];
/// Line breaks.
const BREAKS: &[char] = &['\r', '\n', '\u{85}', '\u{2028}', '\u{2029}'];
/// NUL, space and line breaks (no tab).
const NUL_SPACE_BREAKS: &[char] = &['\0', ' ', '\r', '\n', '\u{85}', '\u{2028}', '\u{2029}'];

/// What a token is (ruamel's token classes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    StreamStart,
    StreamEnd,
    Directive,
    DocumentStart,
    DocumentEnd,
    BlockSequenceStart,
    BlockMappingStart,
    BlockEnd,
    FlowSequenceStart,
    FlowMappingStart,
    FlowSequenceEnd,
    FlowMappingEnd,
    Key,
    Value,
    BlockEntry,
    FlowEntry,
    Alias,
    Anchor,
    Tag,
    Scalar,
    Comment,
}

impl Kind {
    /// ruamel's `token.id`, used in parser messages.
    pub(crate) fn id(self) -> &'static str {
        match self {
            Kind::StreamStart => "<stream start>",
            Kind::StreamEnd => "<stream end>",
            Kind::Directive => "<directive>",
            Kind::DocumentStart => "<document start>",
            Kind::DocumentEnd => "<document end>",
            Kind::BlockSequenceStart => "<block sequence start>",
            Kind::BlockMappingStart => "<block mapping start>",
            Kind::BlockEnd => "<block end>",
            Kind::FlowSequenceStart => "[",
            Kind::FlowMappingStart => "{",
            Kind::FlowSequenceEnd => "]",
            Kind::FlowMappingEnd => "}",
            Kind::Key => "?",
            Kind::Value => ":",
            Kind::BlockEntry => "-",
            Kind::FlowEntry => ",",
            Kind::Alias => "<alias>",
            Kind::Anchor => "<anchor>",
            Kind::Tag => "<tag>",
            Kind::Scalar => "<scalar>",
            Kind::Comment => "<comment>",
        }
    }
}

/// The value of a `%YAML` or `%TAG` directive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Directive {
    /// `%YAML major.minor`.
    Yaml(u64, u64),
    /// `%TAG handle prefix`.
    Tag(String),
    /// Any other directive.
    Other,
}

/// One token with its marks.
#[derive(Debug, Clone)]
pub(crate) struct Token {
    pub(crate) kind: Kind,
    pub(crate) start: RawMark,
    pub(crate) end: RawMark,
    /// Scalar text, or the alias/anchor name.
    pub(crate) value: String,
    /// Whether a scalar was plain.
    pub(crate) plain: bool,
    /// What a directive token says.
    pub(crate) directive: Option<Directive>,
    /// Which comments ruamel has attached to the token, if any.
    pub(crate) comment: Option<Comment>,
}

/// The comments ruamel's round-trip scanner attaches to a token. Only their
/// presence matters here: it decides where an empty mapping value is marked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Comment {
    /// A comment after the token (ruamel's `comment[0]`).
    pub(crate) post: bool,
    /// Comments before the token (ruamel's `comment[1]`).
    pub(crate) pre: bool,
}

impl Token {
    fn new(kind: Kind, start: RawMark, end: RawMark) -> Self {
        Self {
            kind,
            start,
            end,
            value: String::new(),
            plain: false,
            directive: None,
            comment: None,
        }
    }

    fn scalar(value: String, plain: bool, start: RawMark, end: RawMark) -> Self {
        Self {
            value,
            plain,
            ..Self::new(Kind::Scalar, start, end)
        }
    }

    fn add_post_comment(&mut self) {
        self.comment.get_or_insert_with(Comment::default).post = true;
    }

    fn add_pre_comments(&mut self) {
        self.comment.get_or_insert_with(Comment::default).pre = true;
    }
}

/// A place where a simple key may start.
#[derive(Debug, Clone, Copy)]
struct SimpleKey {
    token_number: usize,
    required: bool,
    index: usize,
    line: usize,
    column: usize,
    mark: RawMark,
}

/// Scanner result.
pub(crate) type Scan<T> = Result<T, Box<Failure>>;

/// ruamel's scanner over a [`Reader`].
#[derive(Debug)]
pub(crate) struct Scanner {
    pub(crate) reader: Reader,
    done: bool,
    flow_context: Vec<char>,
    tokens: VecDeque<Token>,
    tokens_taken: usize,
    indent: isize,
    indents: Vec<isize>,
    allow_simple_key: bool,
    possible_simple_keys: BTreeMap<usize, SimpleKey>,
    /// The version from a `%YAML` directive, if any.
    pub(crate) yaml_version: Option<(u64, u64)>,
}

fn syntax(context: &str, context_mark: RawMark, problem: String, mark: RawMark) -> Box<Failure> {
    Failure::with_context(ErrorKind::Syntax, context, context_mark, problem, mark)
}

fn is_hex(ch: char) -> bool {
    ch.is_ascii_hexdigit()
}

fn is_word_char(ch: char) -> bool {
    ch.is_ascii_alphanumeric() || ch == '-' || ch == '_'
}

/// ruamel's `check_anchorname_char`.
fn is_anchor_char(ch: char) -> bool {
    !matches!(ch, ',' | '[' | ']' | '{' | '}')
        && matches!(ch, '\x21'..='\x7E' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
        && ch != '\u{FEFF}'
}

impl Scanner {
    /// A scanner at the start of `text`, holding the STREAM-START token.
    pub(crate) fn new(text: &str) -> Self {
        let reader = Reader::new(text);
        let mark = reader.mark();
        let mut tokens = VecDeque::new();
        tokens.push_back(Token::new(Kind::StreamStart, mark, mark));
        Self {
            reader,
            done: false,
            flow_context: Vec::new(),
            tokens,
            tokens_taken: 0,
            indent: -1,
            indents: Vec::new(),
            allow_simple_key: true,
            possible_simple_keys: BTreeMap::new(),
            yaml_version: None,
        }
    }

    /// The YAML version in force (1.2 unless a directive says otherwise).
    pub(crate) fn version(&self) -> (u64, u64) {
        self.yaml_version.unwrap_or((1, 2))
    }

    fn is_1_1(&self) -> bool {
        self.version() == (1, 1)
    }

    fn flow_level(&self) -> usize {
        self.flow_context.len()
    }

    fn column(&self) -> isize {
        isize::try_from(self.reader.column()).unwrap_or(isize::MAX)
    }

    // ---- public queue operations (strictyaml / round-trip scanner) ----

    /// strictyaml's `check_token`: whether the next token is one of `choices`,
    /// refusing tags, flow collections and anchors when they are asked for.
    pub(crate) fn check(&mut self, choices: &[Kind]) -> Scan<bool> {
        self.fill()?;
        self.gather_comments()?;
        let Some(token) = self.tokens.front() else {
            return Ok(false);
        };
        if !choices.contains(&token.kind) {
            return Ok(false);
        }
        match token.kind {
            Kind::Tag => Err(Failure::with_context(
                ErrorKind::Tag,
                "While scanning",
                token.end,
                "Found disallowed tag tokens (do not specify types in markup)",
                token.start,
            )),
            Kind::FlowMappingStart | Kind::FlowSequenceStart => Err(Failure::with_context(
                ErrorKind::FlowStyle,
                "While scanning",
                token.start,
                "Found ugly disallowed JSONesque flow mapping \
                 (surround with ' and ' to make text appear literally)",
                token.end,
            )),
            Kind::Anchor => Err(Failure::with_context(
                ErrorKind::Anchor,
                "While scanning",
                token.start,
                "Found confusing disallowed anchor token \
                 (surround with ' and ' to make text appear literally)",
                token.end,
            )),
            _ => Ok(true),
        }
    }

    /// The next token, left in the queue.
    pub(crate) fn peek(&mut self) -> Scan<Token> {
        self.fill()?;
        self.gather_comments()?;
        Ok(self.front())
    }

    /// ruamel's `token.move_comment(scanner.peek_token())`: hand the
    /// comments of a taken token on to the next one.
    pub(crate) fn move_comment(&mut self, from: &mut Token) -> Scan<()> {
        self.peek()?;
        let Some(comment) = from.comment else {
            return Ok(());
        };
        let Some(target) = self.tokens.front_mut() else {
            return Ok(());
        };
        if matches!(target.kind, Kind::StreamEnd | Kind::DocumentStart) {
            return Ok(());
        }
        from.comment = None;
        let merged = target.comment.unwrap_or_default();
        // ruamel raises NotImplementedError on overlapping comments; we merge.
        target.comment = Some(Comment {
            post: merged.post || comment.post,
            pre: merged.pre || comment.pre,
        });
        Ok(())
    }

    /// Replace the comments of the next token (already peeked).
    pub(crate) fn set_front_comment(&mut self, comment: Option<Comment>) {
        if let Some(front) = self.tokens.front_mut() {
            front.comment = comment;
        }
    }

    fn front(&self) -> Token {
        self.tokens.front().cloned().unwrap_or_else(|| {
            let mark = self.reader.mark();
            Token::new(Kind::StreamEnd, mark, mark)
        })
    }

    /// The next token, taken from the queue (with ruamel's comment handling).
    pub(crate) fn next(&mut self) -> Scan<Token> {
        self.fill()?;
        self.gather_comments()?;
        if self.tokens.is_empty() {
            return Ok(self.front());
        }
        self.attach_post_comments()?;
        self.tokens_taken += 1;
        Ok(self.tokens.pop_front().unwrap_or_else(|| self.front()))
    }

    /// The round-trip `get_token` step that takes comments following a token.
    fn attach_post_comments(&mut self) -> Scan<()> {
        let (Some(first), Some(second)) = (self.tokens.front(), self.tokens.get(1)) else {
            return Ok(());
        };
        if second.kind != Kind::Comment {
            return Ok(());
        }
        let same_line = first.end.line == second.start.line;
        let single_line = matches!(
            first.kind,
            Kind::Scalar | Kind::Value | Kind::FlowSequenceEnd | Kind::FlowMappingEnd
        );
        if (single_line && same_line) || (first.kind == Kind::Scalar && !same_line) {
            if let Some(front) = self.tokens.front_mut() {
                front.add_post_comment();
            }
            self.take_second()?;
            while self.tokens.get(1).is_some_and(|t| t.kind == Kind::Comment) {
                self.take_second()?;
            }
        }
        Ok(())
    }

    fn take_second(&mut self) -> Scan<()> {
        self.tokens_taken += 1;
        self.tokens.remove(1);
        self.fetch_more_tokens()
    }

    fn fill(&mut self) -> Scan<()> {
        while self.need_more_tokens()? {
            self.fetch_more_tokens()?;
        }
        Ok(())
    }

    fn gather_comments(&mut self) -> Scan<()> {
        if self.tokens.is_empty() {
            return Ok(());
        }
        let mut gathered = false;
        if self.tokens.front().is_some_and(|t| t.kind == Kind::Comment) {
            self.tokens.pop_front();
            self.tokens_taken += 1;
            gathered = true;
        }
        while self.need_more_tokens()? {
            self.fetch_more_tokens()?;
            if self.tokens.is_empty() {
                return Ok(());
            }
            if self.tokens.front().is_some_and(|t| t.kind == Kind::Comment) {
                self.tokens_taken += 1;
                self.tokens.pop_front();
                gathered = true;
            }
        }
        if gathered && let Some(front) = self.tokens.front_mut() {
            front.add_pre_comments();
        }
        if !self.done && self.tokens.len() < 2 {
            self.fetch_more_tokens()?;
        }
        Ok(())
    }

    fn need_more_tokens(&mut self) -> Scan<bool> {
        if self.done {
            return Ok(false);
        }
        if self.tokens.is_empty() {
            return Ok(true);
        }
        self.stale_possible_simple_keys()?;
        Ok(self.next_possible_simple_key() == Some(self.tokens_taken))
    }

    fn fetch_more_tokens(&mut self) -> Scan<()> {
        if let Some((start, end)) = self.scan_to_next_token() {
            self.tokens.push_back(Token::new(Kind::Comment, start, end));
            return Ok(());
        }
        self.stale_possible_simple_keys()?;
        self.unwind_indent(self.column());
        let ch = self.reader.peek(0);
        let at_column_0 = self.reader.column() == 0;
        match ch {
            NUL => self.fetch_stream_end(),
            '%' if at_column_0 => self.fetch_directive(),
            '-' if self.check_document_indicator("---") => {
                self.fetch_document_indicator(Kind::DocumentStart)
            }
            '.' if self.check_document_indicator("...") => {
                self.fetch_document_indicator(Kind::DocumentEnd)
            }
            '[' => self.fetch_flow_collection_start(Kind::FlowSequenceStart, '['),
            '{' => self.fetch_flow_collection_start(Kind::FlowMappingStart, '{'),
            ']' => self.fetch_flow_collection_end(Kind::FlowSequenceEnd),
            '}' => self.fetch_flow_collection_end(Kind::FlowMappingEnd),
            ',' => self.fetch_flow_entry(),
            '-' if THE_END_SPACE_TAB.contains(&self.reader.peek(1)) => self.fetch_block_entry(),
            '?' if self.check_key() => self.fetch_key(),
            ':' if self.check_value() => self.fetch_value(),
            '*' => self.fetch_anchor_or_alias(Kind::Alias),
            '&' => self.fetch_anchor_or_alias(Kind::Anchor),
            '!' => self.fetch_tag(),
            '|' | '>' if self.flow_level() == 0 => self.fetch_block_scalar(ch),
            '\'' | '"' => self.fetch_flow_scalar(ch),
            _ if self.check_plain() => self.fetch_plain(),
            _ => Err(Failure::problem(
                ErrorKind::Syntax,
                format!(
                    "found character {} that cannot start any token",
                    py_repr_char(ch)
                ),
                self.reader.mark(),
            )
            .context_line("while scanning for the next token")),
        }
    }

    // ---- simple keys ----

    fn next_possible_simple_key(&self) -> Option<usize> {
        self.possible_simple_keys
            .values()
            .map(|k| k.token_number)
            .min()
    }

    fn stale_possible_simple_keys(&mut self) -> Scan<()> {
        let line = self.reader.line();
        let index = self.reader.index();
        let levels: Vec<usize> = self.possible_simple_keys.keys().copied().collect();
        for level in levels {
            let Some(key) = self.possible_simple_keys.get(&level).copied() else {
                continue;
            };
            if key.line != line || index.saturating_sub(key.index) > 1024 {
                if key.required {
                    return Err(self.simple_key_failure(key));
                }
                self.possible_simple_keys.remove(&level);
            }
        }
        Ok(())
    }

    fn simple_key_failure(&self, key: SimpleKey) -> Box<Failure> {
        syntax(
            "while scanning a simple key",
            key.mark,
            "could not find expected ':'".into(),
            self.reader.mark(),
        )
    }

    fn save_possible_simple_key(&mut self) -> Scan<()> {
        let required = self.flow_level() == 0 && self.indent == self.column();
        if self.allow_simple_key {
            self.remove_possible_simple_key()?;
            let key = SimpleKey {
                token_number: self.tokens_taken + self.tokens.len(),
                required,
                index: self.reader.index(),
                line: self.reader.line(),
                column: self.reader.column(),
                mark: self.reader.mark(),
            };
            self.possible_simple_keys.insert(self.flow_level(), key);
        }
        Ok(())
    }

    fn remove_possible_simple_key(&mut self) -> Scan<()> {
        if let Some(key) = self.possible_simple_keys.remove(&self.flow_level())
            && key.required
        {
            return Err(self.simple_key_failure(key));
        }
        Ok(())
    }

    // ---- indentation ----

    fn unwind_indent(&mut self, column: isize) {
        if self.flow_level() > 0 {
            return;
        }
        while self.indent > column {
            let mark = self.reader.mark();
            self.indent = self.indents.pop().unwrap_or(-1);
            self.tokens
                .push_back(Token::new(Kind::BlockEnd, mark, mark));
        }
    }

    fn add_indent(&mut self, column: isize) -> bool {
        if self.indent < column {
            self.indents.push(self.indent);
            self.indent = column;
            return true;
        }
        false
    }

    // ---- fetchers ----

    fn push_simple(&mut self, kind: Kind) {
        let start = self.reader.mark();
        self.reader.forward(1);
        let end = self.reader.mark();
        self.tokens.push_back(Token::new(kind, start, end));
    }

    fn fetch_stream_end(&mut self) -> Scan<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        self.possible_simple_keys.clear();
        let mark = self.reader.mark();
        self.tokens
            .push_back(Token::new(Kind::StreamEnd, mark, mark));
        self.done = true;
        Ok(())
    }

    fn fetch_directive(&mut self) -> Scan<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_directive()?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn check_document_indicator(&self, indicator: &str) -> bool {
        self.reader.column() == 0
            && self.reader.starts_with(indicator)
            && THE_END_SPACE_TAB.contains(&self.reader.peek(3))
    }

    fn fetch_document_indicator(&mut self, kind: Kind) -> Scan<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        let start = self.reader.mark();
        self.reader.forward(3);
        let end = self.reader.mark();
        self.tokens.push_back(Token::new(kind, start, end));
        Ok(())
    }

    fn fetch_flow_collection_start(&mut self, kind: Kind, bracket: char) -> Scan<()> {
        self.save_possible_simple_key()?;
        self.flow_context.push(bracket);
        self.allow_simple_key = true;
        self.push_simple(kind);
        Ok(())
    }

    fn fetch_flow_collection_end(&mut self, kind: Kind) -> Scan<()> {
        self.remove_possible_simple_key()?;
        self.flow_context.pop();
        self.allow_simple_key = false;
        self.push_simple(kind);
        Ok(())
    }

    fn fetch_flow_entry(&mut self) -> Scan<()> {
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        self.push_simple(Kind::FlowEntry);
        Ok(())
    }

    fn not_allowed(&self, what: &str) -> Box<Failure> {
        Failure::problem(
            ErrorKind::Syntax,
            format!("{what} are not allowed here"),
            self.reader.mark(),
        )
    }

    fn fetch_block_entry(&mut self) -> Scan<()> {
        if self.flow_level() == 0 {
            if !self.allow_simple_key {
                return Err(self.not_allowed("sequence entries"));
            }
            if self.add_indent(self.column()) {
                let mark = self.reader.mark();
                self.tokens
                    .push_back(Token::new(Kind::BlockSequenceStart, mark, mark));
            }
        }
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        self.push_simple(Kind::BlockEntry);
        Ok(())
    }

    fn check_key(&self) -> bool {
        self.flow_level() > 0 || THE_END_SPACE_TAB.contains(&self.reader.peek(1))
    }

    fn fetch_key(&mut self) -> Scan<()> {
        if self.flow_level() == 0 {
            if !self.allow_simple_key {
                return Err(self.not_allowed("mapping keys"));
            }
            if self.add_indent(self.column()) {
                let mark = self.reader.mark();
                self.tokens
                    .push_back(Token::new(Kind::BlockMappingStart, mark, mark));
            }
        }
        self.allow_simple_key = self.flow_level() == 0;
        self.remove_possible_simple_key()?;
        self.push_simple(Kind::Key);
        Ok(())
    }

    fn check_value(&self) -> bool {
        let next_ends = THE_END_SPACE_TAB.contains(&self.reader.peek(1));
        if self.is_1_1() {
            return self.flow_level() > 0 || next_ends;
        }
        if self.flow_level() > 0 {
            if self.flow_context.last() == Some(&'[') {
                return next_ends;
            }
            if self.tokens.back().is_some_and(|t| t.kind == Kind::Value) {
                return next_ends;
            }
            return true;
        }
        next_ends
    }

    fn fetch_value(&mut self) -> Scan<()> {
        let level = self.flow_level();
        if let Some(key) = self.possible_simple_keys.remove(&level) {
            let at = key
                .token_number
                .saturating_sub(self.tokens_taken)
                .min(self.tokens.len());
            self.tokens
                .insert(at, Token::new(Kind::Key, key.mark, key.mark));
            if level == 0 && self.add_indent(isize::try_from(key.column).unwrap_or(isize::MAX)) {
                self.tokens
                    .insert(at, Token::new(Kind::BlockMappingStart, key.mark, key.mark));
            }
            self.allow_simple_key = false;
        } else {
            if level == 0 {
                if !self.allow_simple_key {
                    return Err(self.not_allowed("mapping values"));
                }
                if self.add_indent(self.column()) {
                    let mark = self.reader.mark();
                    self.tokens
                        .push_back(Token::new(Kind::BlockMappingStart, mark, mark));
                }
            }
            self.allow_simple_key = level == 0;
            self.remove_possible_simple_key()?;
        }
        self.push_simple(Kind::Value);
        Ok(())
    }

    fn fetch_anchor_or_alias(&mut self, kind: Kind) -> Scan<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_anchor(kind)?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_tag(&mut self) -> Scan<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_tag()?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_block_scalar(&mut self, style: char) -> Scan<()> {
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        let token = self.scan_block_scalar(style)?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_flow_scalar(&mut self, quote: char) -> Scan<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_flow_scalar(quote)?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_plain(&mut self) -> Scan<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_plain()?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn check_plain(&self) -> bool {
        let ch = self.reader.peek(0);
        let next = self.reader.peek(1);
        const INDICATORS: &str = "\0 \t\r\n\u{85}\u{2028}\u{2029}-?:,[]{}#&*!|>'\"%@`";
        let flow = self.flow_level() > 0;
        if !INDICATORS.contains(ch) {
            return true;
        }
        let next_ends = THE_END_SPACE_TAB.contains(&next);
        if self.is_1_1() {
            return !next_ends && (ch == '-' || (!flow && (ch == '?' || ch == ':')));
        }
        if ch == '-' && !next_ends {
            return true;
        }
        if ch == ':' && flow && next != ' ' && next != '\t' {
            return true;
        }
        !next_ends && (ch == '-' || (!flow && (ch == '?' || ch == ':')))
    }

    // ---- scanning between tokens ----

    /// The round-trip `scan_to_next_token`: skips spaces and returns the span
    /// of a comment or of a run of empty lines, which become comment tokens.
    fn scan_to_next_token(&mut self) -> Option<(RawMark, RawMark)> {
        if self.reader.index() == 0 && self.reader.peek(0) == '\u{FEFF}' {
            self.reader.forward(1);
        }
        loop {
            while self.reader.peek(0) == ' ' {
                self.reader.forward(1);
            }
            if self.reader.peek(0) == '#' {
                let start = self.reader.mark();
                self.reader.forward(1);
                while !THE_END.contains(&self.reader.peek(0)) {
                    self.reader.forward(1);
                }
                while !self.scan_line_break(false).is_empty() {}
                let end = self.reader.mark();
                if self.flow_level() == 0 {
                    self.allow_simple_key = true;
                }
                return Some((start, end));
            }
            if self.scan_line_break(false).is_empty() {
                return None;
            }
            if self.flow_level() == 0 {
                self.allow_simple_key = true;
            }
            if self.reader.peek(0) == '\n' {
                let start = self.reader.mark();
                while !self.scan_line_break(true).is_empty() {}
                return Some((start, self.reader.mark()));
            }
        }
    }

    /// Consume one line break: `\r\n`, `\r`, `\n` and NEL read as `\n`; LS and
    /// PS as themselves. With `empty_line`, a space or tab is consumed too.
    fn scan_line_break(&mut self, empty_line: bool) -> String {
        let ch = self.reader.peek(0);
        match ch {
            '\r' | '\n' | '\u{85}' => {
                let width = if self.reader.starts_with("\r\n") {
                    2
                } else {
                    1
                };
                self.reader.forward(width);
                "\n".into()
            }
            '\u{2028}' | '\u{2029}' => {
                self.reader.forward(1);
                ch.into()
            }
            ' ' | '\t' if empty_line => {
                self.reader.forward(1);
                ch.into()
            }
            _ => String::new(),
        }
    }

    // ---- directives ----

    fn scan_directive(&mut self) -> Scan<Token> {
        let start = self.reader.mark();
        self.reader.forward(1);
        let name = self.scan_directive_name(start)?;
        let directive = match name.as_str() {
            "YAML" => {
                let (major, minor) = self.scan_yaml_directive_value(start)?;
                Directive::Yaml(major, minor)
            }
            "TAG" => Directive::Tag(self.scan_tag_directive_value(start)?),
            _ => Directive::Other,
        };
        let end = self.reader.mark();
        if directive == Directive::Other {
            while !THE_END.contains(&self.reader.peek(0)) {
                self.reader.forward(1);
            }
        }
        self.scan_directive_ignored_line(start)?;
        let mut token = Token::new(Kind::Directive, start, end);
        token.value = name;
        token.directive = Some(directive);
        Ok(token)
    }

    fn directive_failure(&self, start: RawMark, problem: String) -> Box<Failure> {
        syntax(
            "while scanning a directive",
            start,
            problem,
            self.reader.mark(),
        )
    }

    fn expected_but(&self, start: RawMark, context: &str, what: &str) -> Box<Failure> {
        let found = py_repr_char(self.reader.peek(0));
        syntax(
            context,
            start,
            format!("expected {what}, but found {found}"),
            self.reader.mark(),
        )
    }

    fn scan_directive_name(&mut self, start: RawMark) -> Scan<String> {
        let mut length = 0;
        while matches!(self.reader.peek(length), '0'..='9' | 'A'..='Z' | 'a'..='z' | '-' | '_' | ':' | '.')
        {
            length += 1;
        }
        if length == 0 {
            let found = py_repr_char(self.reader.peek(0));
            return Err(self.directive_failure(
                start,
                format!("expected alphabetic or numeric character, but found {found}"),
            ));
        }
        let value = self.reader.prefix(length);
        self.reader.forward(length);
        if !NUL_SPACE_BREAKS.contains(&self.reader.peek(0)) {
            let found = py_repr_char(self.reader.peek(0));
            return Err(self.directive_failure(
                start,
                format!("expected alphabetic or numeric character, but found {found}"),
            ));
        }
        Ok(value)
    }

    fn scan_yaml_directive_value(&mut self, start: RawMark) -> Scan<(u64, u64)> {
        while self.reader.peek(0) == ' ' {
            self.reader.forward(1);
        }
        let major = self.scan_yaml_directive_number(start)?;
        if self.reader.peek(0) != '.' {
            return Err(self.expected_but(start, "while scanning a directive", "a digit or '.'"));
        }
        self.reader.forward(1);
        let minor = self.scan_yaml_directive_number(start)?;
        if !NUL_SPACE_BREAKS.contains(&self.reader.peek(0)) {
            return Err(self.expected_but(start, "while scanning a directive", "a digit or ' '"));
        }
        self.yaml_version = Some((major, minor));
        Ok((major, minor))
    }

    fn scan_yaml_directive_number(&mut self, start: RawMark) -> Scan<u64> {
        if !self.reader.peek(0).is_ascii_digit() {
            return Err(self.expected_but(start, "while scanning a directive", "a digit"));
        }
        let mut length = 0;
        while self.reader.peek(length).is_ascii_digit() {
            length += 1;
        }
        let digits = self.reader.prefix(length);
        self.reader.forward(length);
        Ok(digits.parse().unwrap_or(u64::MAX))
    }

    fn scan_tag_directive_value(&mut self, start: RawMark) -> Scan<String> {
        while self.reader.peek(0) == ' ' {
            self.reader.forward(1);
        }
        let handle = self.scan_tag_handle("directive", start)?;
        if self.reader.peek(0) != ' ' {
            return Err(self.expected_but(start, "while scanning a directive", "' '"));
        }
        while self.reader.peek(0) == ' ' {
            self.reader.forward(1);
        }
        self.scan_tag_uri("directive", start)?;
        if !NUL_SPACE_BREAKS.contains(&self.reader.peek(0)) {
            return Err(self.expected_but(start, "while scanning a directive", "' '"));
        }
        Ok(handle)
    }

    fn scan_directive_ignored_line(&mut self, start: RawMark) -> Scan<()> {
        while self.reader.peek(0) == ' ' {
            self.reader.forward(1);
        }
        if self.reader.peek(0) == '#' {
            while !THE_END.contains(&self.reader.peek(0)) {
                self.reader.forward(1);
            }
        }
        if !THE_END.contains(&self.reader.peek(0)) {
            return Err(self.expected_but(
                start,
                "while scanning a directive",
                "a comment or a line break",
            ));
        }
        self.scan_line_break(false);
        Ok(())
    }

    // ---- anchors, aliases, tags ----

    fn scan_anchor(&mut self, kind: Kind) -> Scan<Token> {
        let start = self.reader.mark();
        let context = if kind == Kind::Alias {
            "while scanning an alias"
        } else {
            "while scanning an anchor"
        };
        self.reader.forward(1);
        let mut length = 0;
        while is_anchor_char(self.reader.peek(length)) {
            length += 1;
        }
        if length == 0 {
            return Err(self.expected_but(start, context, "alphabetic or numeric character"));
        }
        let value = self.reader.prefix(length);
        self.reader.forward(length);
        // ruamel tests the character that ended the name, now under the cursor.
        if !"\0 \t\r\n\u{85}\u{2028}\u{2029}?:,[]{}%@`".contains(self.reader.peek(0)) {
            return Err(self.expected_but(start, context, "alphabetic or numeric character"));
        }
        let end = self.reader.mark();
        let mut token = Token::new(kind, start, end);
        token.value = value;
        Ok(token)
    }

    fn scan_tag(&mut self) -> Scan<Token> {
        let start = self.reader.mark();
        let next = self.reader.peek(1);
        if next == '<' {
            self.reader.forward(2);
            self.scan_tag_uri("tag", start)?;
            if self.reader.peek(0) != '>' {
                return Err(self.expected_but(start, "while parsing a tag", "'>'"));
            }
            self.reader.forward(1);
        } else if THE_END_SPACE_TAB.contains(&next) {
            self.reader.forward(1);
        } else {
            let mut length = 1;
            let mut use_handle = false;
            let mut ch = next;
            while !NUL_SPACE_BREAKS.contains(&ch) {
                if ch == '!' {
                    use_handle = true;
                    break;
                }
                length += 1;
                ch = self.reader.peek(length);
            }
            if use_handle {
                self.scan_tag_handle("tag", start)?;
            } else {
                self.reader.forward(1);
            }
            self.scan_tag_uri("tag", start)?;
        }
        if !NUL_SPACE_BREAKS.contains(&self.reader.peek(0)) {
            return Err(self.expected_but(start, "while scanning a tag", "' '"));
        }
        let end = self.reader.mark();
        Ok(Token::new(Kind::Tag, start, end))
    }

    fn scan_tag_handle(&mut self, name: &str, start: RawMark) -> Scan<String> {
        let context = format!("while scanning a {name}");
        if self.reader.peek(0) != '!' {
            return Err(self.expected_but(start, &context, "'!'"));
        }
        let mut length = 1;
        if self.reader.peek(length) != ' ' {
            while is_word_char(self.reader.peek(length)) {
                length += 1;
            }
            if self.reader.peek(length) != '!' {
                self.reader.forward(length);
                return Err(self.expected_but(start, &context, "'!'"));
            }
            length += 1;
        }
        let value = self.reader.prefix(length);
        self.reader.forward(length);
        Ok(value)
    }

    fn scan_tag_uri(&mut self, name: &str, start: RawMark) -> Scan<String> {
        let mut chunks = String::new();
        let mut length = 0;
        let version_after_1_1 = self.version() > (1, 1);
        loop {
            let ch = self.reader.peek(length);
            let uri_char = ch.is_ascii_alphanumeric()
                || "-;/?:@&=+$,_.!~*'()[]%".contains(ch)
                || (version_after_1_1 && ch == '#');
            if !uri_char || ch == NUL {
                break;
            }
            if ch == '%' {
                chunks.push_str(&self.reader.prefix(length));
                self.reader.forward(length);
                length = 0;
                chunks.push_str(&self.scan_uri_escapes(name, start)?);
            } else {
                length += 1;
            }
        }
        if length != 0 {
            chunks.push_str(&self.reader.prefix(length));
            self.reader.forward(length);
        }
        if chunks.is_empty() {
            let found = py_repr_char(self.reader.peek(length));
            return Err(syntax(
                &format!("while parsing a {name}"),
                start,
                format!("expected URI, but found {found}"),
                self.reader.mark(),
            ));
        }
        Ok(chunks)
    }

    fn scan_uri_escapes(&mut self, name: &str, start: RawMark) -> Scan<String> {
        let context = format!("while scanning a {name}");
        let mark = self.reader.mark();
        let mut bytes = Vec::new();
        while self.reader.peek(0) == '%' {
            self.reader.forward(1);
            for k in 0..2 {
                let ch = self.reader.peek(k);
                if !is_hex(ch) {
                    return Err(syntax(
                        &context,
                        start,
                        format!(
                            "expected URI escape sequence of 2 hexdecimal numbers, but found {}",
                            py_repr_char(ch)
                        ),
                        self.reader.mark(),
                    ));
                }
            }
            bytes.push(u8::from_str_radix(&self.reader.prefix(2), 16).unwrap_or(0));
            self.reader.forward(2);
        }
        String::from_utf8(bytes).map_err(|_| {
            // Python's UnicodeDecodeError text is not reproduced here.
            syntax(
                &context,
                start,
                "'utf-8' codec can't decode the URI escapes".into(),
                mark,
            )
        })
    }

    // ---- block scalars ----

    fn scan_block_scalar(&mut self, style: char) -> Scan<Token> {
        let folded = style == '>';
        let start = self.reader.mark();
        self.reader.forward(1);
        let (chomping, increment) = self.scan_block_scalar_indicators(start)?;
        let indicator_comment = self.scan_block_scalar_ignored_line(start)?;

        let mut min_indent = usize::try_from(self.indent + 1).unwrap_or(0);
        let (indent, mut breaks, mut end) = match increment {
            None => {
                let (breaks, max_indent, end) = self.scan_block_scalar_indentation();
                (min_indent.max(max_indent), breaks, end)
            }
            Some(increment) => {
                min_indent = min_indent.max(1);
                let indent = min_indent + increment - 1;
                let (breaks, end) = self.scan_block_scalar_breaks(indent);
                (indent, breaks, end)
            }
        };
        let mut chunks = String::new();
        let mut line_break = String::new();
        while self.reader.column() == indent && self.reader.peek(0) != NUL {
            chunks.extend(breaks.iter().map(String::as_str));
            let leading_non_space = !matches!(self.reader.peek(0), ' ' | '\t');
            let mut length = 0;
            while !THE_END.contains(&self.reader.peek(length)) {
                length += 1;
            }
            chunks.push_str(&self.reader.prefix(length));
            self.reader.forward(length);
            line_break = self.scan_line_break(false);
            (breaks, end) = self.scan_block_scalar_breaks(indent);
            if min_indent == 0
                && (self.check_document_indicator("---") || self.check_document_indicator("..."))
            {
                break;
            }
            if self.reader.column() != indent || self.reader.peek(0) == NUL {
                break;
            }
            if folded
                && line_break == "\n"
                && leading_non_space
                && !matches!(self.reader.peek(0), ' ' | '\t')
            {
                if breaks.is_empty() {
                    chunks.push(' ');
                }
            } else {
                chunks.push_str(&line_break);
            }
        }
        if chomping != Some(false) {
            chunks.push_str(&line_break);
        }
        if chomping == Some(true) {
            chunks.extend(breaks.iter().map(String::as_str));
        }
        let trailing = chomping != Some(true) && !breaks.is_empty();
        let mut token = Token::scalar(chunks, false, start, end);
        if indicator_comment {
            token.add_pre_comments();
        }
        if trailing {
            // ruamel gathers the comments after a clipped or stripped block.
            while self.scan_to_next_token().is_some() {}
            token.add_post_comment();
        }
        Ok(token)
    }

    fn scan_block_scalar_indicators(
        &mut self,
        start: RawMark,
    ) -> Scan<(Option<bool>, Option<usize>)> {
        let context = "while scanning a block scalar";
        let zero = |s: &Self| {
            syntax(
                context,
                start,
                "expected indentation indicator in the range 1-9, but found 0".into(),
                s.reader.mark(),
            )
        };
        let mut chomping = None;
        let mut increment = None;
        let ch = self.reader.peek(0);
        if ch == '+' || ch == '-' {
            chomping = Some(ch == '+');
            self.reader.forward(1);
            if let Some(digit) = self.reader.peek(0).to_digit(10) {
                if digit == 0 {
                    return Err(zero(self));
                }
                increment = usize::try_from(digit).ok();
                self.reader.forward(1);
            }
        } else if let Some(digit) = ch.to_digit(10) {
            if digit == 0 {
                return Err(zero(self));
            }
            increment = usize::try_from(digit).ok();
            self.reader.forward(1);
            let ch = self.reader.peek(0);
            if ch == '+' || ch == '-' {
                chomping = Some(ch == '+');
                self.reader.forward(1);
            }
        }
        if !NUL_SPACE_BREAKS.contains(&self.reader.peek(0)) {
            return Err(self.expected_but(start, context, "chomping or indentation indicators"));
        }
        Ok((chomping, increment))
    }

    /// The rest of a block scalar's header line; whether it held a comment.
    fn scan_block_scalar_ignored_line(&mut self, start: RawMark) -> Scan<bool> {
        while self.reader.peek(0) == ' ' {
            self.reader.forward(1);
        }
        let comment = self.reader.peek(0) == '#';
        if comment {
            while !THE_END.contains(&self.reader.peek(0)) {
                self.reader.forward(1);
            }
        }
        if !THE_END.contains(&self.reader.peek(0)) {
            return Err(self.expected_but(
                start,
                "while scanning a block scalar",
                "a comment or a line break",
            ));
        }
        self.scan_line_break(false);
        Ok(comment)
    }

    fn scan_block_scalar_indentation(&mut self) -> (Vec<String>, usize, RawMark) {
        let mut chunks = Vec::new();
        let mut max_indent = 0;
        let mut end = self.reader.mark();
        while matches!(
            self.reader.peek(0),
            ' ' | '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}'
        ) {
            if self.reader.peek(0) == ' ' {
                self.reader.forward(1);
                max_indent = max_indent.max(self.reader.column());
            } else {
                chunks.push(self.scan_line_break(false));
                end = self.reader.mark();
            }
        }
        (chunks, max_indent, end)
    }

    fn scan_block_scalar_breaks(&mut self, indent: usize) -> (Vec<String>, RawMark) {
        let mut chunks = Vec::new();
        let mut end = self.reader.mark();
        while self.reader.column() < indent && self.reader.peek(0) == ' ' {
            self.reader.forward(1);
        }
        while BREAKS.contains(&self.reader.peek(0)) {
            chunks.push(self.scan_line_break(false));
            end = self.reader.mark();
            while self.reader.column() < indent && self.reader.peek(0) == ' ' {
                self.reader.forward(1);
            }
        }
        (chunks, end)
    }

    // ---- quoted scalars ----

    fn scan_flow_scalar(&mut self, quote: char) -> Scan<Token> {
        let double = quote == '"';
        let start = self.reader.mark();
        self.reader.forward(1);
        let mut chunks = String::new();
        self.scan_flow_scalar_non_spaces(double, start, &mut chunks)?;
        while self.reader.peek(0) != quote {
            self.scan_flow_scalar_spaces(double, start, &mut chunks)?;
            self.scan_flow_scalar_non_spaces(double, start, &mut chunks)?;
        }
        self.reader.forward(1);
        let end = self.reader.mark();
        Ok(Token::scalar(chunks, false, start, end))
    }

    fn scan_flow_scalar_non_spaces(
        &mut self,
        double: bool,
        start: RawMark,
        chunks: &mut String,
    ) -> Scan<()> {
        const STOP: &str = " \n'\"\\\0\t\r\u{85}\u{2028}\u{2029}";
        let context = "while scanning a double-quoted scalar";
        loop {
            let mut length = 0;
            while !STOP.contains(self.reader.peek(length)) {
                length += 1;
            }
            if length != 0 {
                chunks.push_str(&self.reader.prefix(length));
                self.reader.forward(length);
            }
            let ch = self.reader.peek(0);
            if !double && ch == '\'' && self.reader.peek(1) == '\'' {
                chunks.push('\'');
                self.reader.forward(2);
            } else if (double && ch == '\'') || (!double && (ch == '"' || ch == '\\')) {
                chunks.push(ch);
                self.reader.forward(1);
            } else if double && ch == '\\' {
                self.reader.forward(1);
                let ch = self.reader.peek(0);
                if let Some(replacement) = escape_replacement(ch) {
                    chunks.push(replacement);
                    self.reader.forward(1);
                } else if let Some(length) = escape_code_length(ch) {
                    self.reader.forward(1);
                    for k in 0..length {
                        let digit = self.reader.peek(k);
                        if !is_hex(digit) {
                            return Err(syntax(
                                context,
                                start,
                                format!(
                                    "expected escape sequence of {length} hexdecimal numbers, but found {}",
                                    py_repr_char(digit)
                                ),
                                self.reader.mark(),
                            ));
                        }
                    }
                    let code =
                        u32::from_str_radix(&self.reader.prefix(length), 16).unwrap_or(u32::MAX);
                    match char::from_u32(code) {
                        Some(decoded) => chunks.push(decoded),
                        None => {
                            // Python would build a surrogate or fail with ValueError.
                            return Err(Failure::problem(
                                ErrorKind::Unsupported,
                                format!(
                                    "escape \\{ch}{} is not a Unicode scalar value",
                                    self.reader.prefix(length)
                                ),
                                self.reader.mark(),
                            ));
                        }
                    }
                    self.reader.forward(length);
                } else if BREAKS.contains(&ch) {
                    self.scan_line_break(false);
                    self.scan_flow_scalar_breaks(start, chunks)?;
                } else {
                    return Err(syntax(
                        context,
                        start,
                        format!("found unknown escape character {}", py_repr_char(ch)),
                        self.reader.mark(),
                    ));
                }
            } else {
                return Ok(());
            }
        }
    }

    fn scan_flow_scalar_spaces(
        &mut self,
        _double: bool,
        start: RawMark,
        chunks: &mut String,
    ) -> Scan<()> {
        let mut length = 0;
        while matches!(self.reader.peek(length), ' ' | '\t') {
            length += 1;
        }
        let whitespace = self.reader.prefix(length);
        self.reader.forward(length);
        let ch = self.reader.peek(0);
        if ch == NUL {
            return Err(syntax(
                "while scanning a quoted scalar",
                start,
                "found unexpected end of stream".into(),
                self.reader.mark(),
            ));
        }
        if BREAKS.contains(&ch) {
            let line_break = self.scan_line_break(false);
            let mut breaks = String::new();
            self.scan_flow_scalar_breaks(start, &mut breaks)?;
            if line_break != "\n" {
                chunks.push_str(&line_break);
            } else if breaks.is_empty() {
                chunks.push(' ');
            }
            chunks.push_str(&breaks);
        } else {
            chunks.push_str(&whitespace);
        }
        Ok(())
    }

    fn scan_flow_scalar_breaks(&mut self, start: RawMark, chunks: &mut String) -> Scan<()> {
        loop {
            if (self.reader.starts_with("---") || self.reader.starts_with("..."))
                && THE_END_SPACE_TAB.contains(&self.reader.peek(3))
            {
                return Err(syntax(
                    "while scanning a quoted scalar",
                    start,
                    "found unexpected document separator".into(),
                    self.reader.mark(),
                ));
            }
            while matches!(self.reader.peek(0), ' ' | '\t') {
                self.reader.forward(1);
            }
            if BREAKS.contains(&self.reader.peek(0)) {
                chunks.push_str(&self.scan_line_break(false));
            } else {
                return Ok(());
            }
        }
    }

    // ---- plain scalars ----

    fn scan_plain(&mut self) -> Scan<Token> {
        let start = self.reader.mark();
        let mut end = start;
        let indent = self.indent + 1;
        let flow = self.flow_level() > 0;
        let mut chunks = String::new();
        let mut spaces: Option<String> = Some(String::new());
        loop {
            if self.reader.peek(0) == '#' {
                break;
            }
            let mut length = 0;
            let mut ch;
            loop {
                ch = self.reader.peek(length);
                let next = self.reader.peek(length + 1);
                if (ch == ':' && !THE_END_SPACE_TAB.contains(&next))
                    || (ch == '?' && !self.is_1_1())
                {
                    // part of the scalar
                } else if THE_END_SPACE_TAB.contains(&ch)
                    || (!flow && ch == ':' && THE_END_SPACE_TAB.contains(&next))
                    || (flow && ",:?[]{}".contains(ch))
                {
                    break;
                }
                length += 1;
            }
            if flow
                && ch == ':'
                && !"\0 \t\r\n\u{85}\u{2028}\u{2029},[]{}".contains(self.reader.peek(length + 1))
            {
                self.reader.forward(length);
                let mut failure = syntax(
                    "while scanning a plain scalar",
                    start,
                    "found unexpected ':'".into(),
                    self.reader.mark(),
                );
                failure.note = Some(
                    "Please check http://pyyaml.org/wiki/YAMLColonInFlowContext for details."
                        .into(),
                );
                return Err(failure);
            }
            if length == 0 {
                break;
            }
            self.allow_simple_key = false;
            chunks.push_str(spaces.as_deref().unwrap_or_default());
            chunks.push_str(&self.reader.prefix(length));
            self.reader.forward(length);
            end = self.reader.mark();
            spaces = self.scan_plain_spaces();
            let below_indent = !flow && self.column() < indent;
            if spaces.as_deref().is_none_or(str::is_empty)
                || self.reader.peek(0) == '#'
                || below_indent
            {
                break;
            }
        }
        let mut token = Token::scalar(chunks, true, start, end);
        if spaces.is_some_and(|s| s.starts_with('\n')) {
            token.add_post_comment();
        }
        Ok(token)
    }

    /// The folded whitespace after a plain scalar's run of text; `None` when a
    /// document marker follows.
    fn scan_plain_spaces(&mut self) -> Option<String> {
        let mut length = 0;
        while self.reader.peek(length) == ' ' {
            length += 1;
        }
        let whitespace = self.reader.prefix(length);
        self.reader.forward(length);
        if !BREAKS.contains(&self.reader.peek(0)) {
            return Some(whitespace);
        }
        let line_break = self.scan_line_break(false);
        self.allow_simple_key = true;
        let at_marker = |s: &Self| {
            (s.reader.starts_with("---") || s.reader.starts_with("..."))
                && THE_END_SPACE_TAB.contains(&s.reader.peek(3))
        };
        if at_marker(self) {
            return None;
        }
        let mut breaks = String::new();
        while matches!(
            self.reader.peek(0),
            ' ' | '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}'
        ) {
            if self.reader.peek(0) == ' ' {
                self.reader.forward(1);
            } else {
                breaks.push_str(&self.scan_line_break(false));
                if at_marker(self) {
                    return None;
                }
            }
        }
        let mut chunks = String::new();
        if line_break != "\n" {
            chunks.push_str(&line_break);
        } else if breaks.is_empty() {
            chunks.push(' ');
        }
        chunks.push_str(&breaks);
        Some(chunks)
    }
}

/// The character a one-letter escape in a double-quoted scalar stands for.
fn escape_replacement(ch: char) -> Option<char> {
    Some(match ch {
        '0' => '\0',
        'a' => '\x07',
        'b' => '\x08',
        't' | '\t' => '\t',
        'n' => '\n',
        'v' => '\x0B',
        'f' => '\x0C',
        'r' => '\r',
        'e' => '\x1B',
        ' ' => ' ',
        '"' => '"',
        '/' => '/',
        '\\' => '\\',
        'N' => '\u{85}',
        '_' => '\u{A0}',
        'L' => '\u{2028}',
        'P' => '\u{2029}',
        _ => return None,
    })
}

/// How many hex digits follow `\x`, `\u` or `\U`.
fn escape_code_length(ch: char) -> Option<usize> {
    match ch {
        'x' => Some(2),
        'u' => Some(4),
        'U' => Some(8),
        _ => None,
    }
}
