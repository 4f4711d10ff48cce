//! Events from tokens: ruamel's block-context parser state machine.
//!
//! Flow collections, anchors and tags never reach a parser state here:
//! strictyaml refuses them the moment the parser asks for them
//! ([`Scanner::check`]), so only the block grammar is needed.

use super::error::ErrorKind;
use super::marked::{Failure, RawMark, py_repr_str};
use super::scanner::{Comment, Directive, Kind, Scan, Scanner, Token};

/// What an event is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EventKind {
    StreamStart,
    StreamEnd,
    DocumentStart,
    DocumentEnd,
    Alias,
    Scalar,
    SequenceStart,
    SequenceEnd,
    MappingStart,
    MappingEnd,
}

/// One parser event with its marks.
#[derive(Debug, Clone)]
pub(crate) struct Event {
    pub(crate) kind: EventKind,
    pub(crate) start: RawMark,
    pub(crate) end: RawMark,
    /// Scalar text or alias name.
    pub(crate) value: String,
    /// Whether a scalar was plain (so `<<` may be a merge key).
    pub(crate) plain: bool,
}

impl Event {
    fn new(kind: EventKind, start: RawMark, end: RawMark) -> Self {
        Self {
            kind,
            start,
            end,
            value: String::new(),
            plain: false,
        }
    }
}

/// The parser's states (ruamel's `parse_*` methods that are stored as states).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    StreamStart,
    ImplicitDocumentStart,
    DocumentStart,
    DocumentEnd,
    DocumentContent,
    BlockNode,
    BlockSequenceFirstEntry,
    BlockSequenceEntry,
    IndentlessSequenceEntry,
    BlockMappingFirstKey,
    BlockMappingKey,
    BlockMappingValue,
}

/// ruamel's parser over the strictyaml scanner.
#[derive(Debug)]
pub(crate) struct Parser {
    pub(crate) scanner: Scanner,
    current: Option<Event>,
    state: Option<State>,
    states: Vec<State>,
    marks: Vec<RawMark>,
}

fn parser_failure(
    context: Option<(&str, RawMark)>,
    problem: String,
    mark: RawMark,
) -> Box<Failure> {
    match context {
        Some((text, context_mark)) => {
            Failure::with_context(ErrorKind::Syntax, text, context_mark, problem, mark)
        }
        None => Failure::problem(ErrorKind::Syntax, problem, mark),
    }
}

impl Parser {
    /// A parser at the start of `text`.
    pub(crate) fn new(text: &str) -> Self {
        Self {
            scanner: Scanner::new(text),
            current: None,
            state: Some(State::StreamStart),
            states: Vec::new(),
            marks: Vec::new(),
        }
    }

    /// Whether the next event is of `kind`.
    pub(crate) fn check(&mut self, kind: EventKind) -> Scan<bool> {
        Ok(self.peek()?.is_some_and(|e| e.kind == kind))
    }

    /// The next event, left in place.
    pub(crate) fn peek(&mut self) -> Scan<Option<&Event>> {
        if self.current.is_none()
            && let Some(state) = self.state
        {
            self.current = Some(self.step(state)?);
        }
        Ok(self.current.as_ref())
    }

    /// The next event, taken.
    pub(crate) fn next(&mut self) -> Scan<Option<Event>> {
        self.peek()?;
        Ok(self.current.take())
    }

    fn pop_state(&mut self) {
        self.state = self.states.pop();
    }

    fn step(&mut self, state: State) -> Scan<Event> {
        match state {
            State::StreamStart => self.parse_stream_start(),
            State::ImplicitDocumentStart => self.parse_implicit_document_start(),
            State::DocumentStart => self.parse_document_start(),
            State::DocumentEnd => self.parse_document_end(),
            State::DocumentContent => self.parse_document_content(),
            State::BlockNode => self.parse_node(true, false),
            State::BlockSequenceFirstEntry => {
                let token = self.scanner.next()?;
                self.marks.push(token.start);
                self.parse_block_sequence_entry()
            }
            State::BlockSequenceEntry => self.parse_block_sequence_entry(),
            State::IndentlessSequenceEntry => self.parse_indentless_sequence_entry(),
            State::BlockMappingFirstKey => {
                let token = self.scanner.next()?;
                self.marks.push(token.start);
                self.parse_block_mapping_key()
            }
            State::BlockMappingKey => self.parse_block_mapping_key(),
            State::BlockMappingValue => self.parse_block_mapping_value(),
        }
    }

    fn parse_stream_start(&mut self) -> Scan<Event> {
        let mut token = self.scanner.next()?;
        self.scanner.move_comment(&mut token)?;
        self.state = Some(State::ImplicitDocumentStart);
        Ok(Event::new(EventKind::StreamStart, token.start, token.end))
    }

    fn parse_implicit_document_start(&mut self) -> Scan<Event> {
        if self
            .scanner
            .check(&[Kind::Directive, Kind::DocumentStart, Kind::StreamEnd])?
        {
            return self.parse_document_start();
        }
        let token = self.scanner.peek()?;
        self.states.push(State::DocumentEnd);
        self.state = Some(State::BlockNode);
        Ok(Event::new(
            EventKind::DocumentStart,
            token.start,
            token.start,
        ))
    }

    fn parse_document_start(&mut self) -> Scan<Event> {
        while self.scanner.check(&[Kind::DocumentEnd])? {
            self.scanner.next()?;
        }
        if self.scanner.check(&[Kind::StreamEnd])? {
            let token = self.scanner.next()?;
            self.state = None;
            return Ok(Event::new(EventKind::StreamEnd, token.start, token.end));
        }
        let start = self.scanner.peek()?.start;
        self.process_directives()?;
        if !self.scanner.check(&[Kind::DocumentStart])? {
            let token = self.scanner.peek()?;
            return Err(parser_failure(
                None,
                format!(
                    "expected '<document start>', but found {}",
                    py_repr_str(token.kind.id())
                ),
                token.start,
            ));
        }
        let token = self.scanner.next()?;
        self.states.push(State::DocumentEnd);
        self.state = Some(State::DocumentContent);
        Ok(Event::new(EventKind::DocumentStart, start, token.end))
    }

    fn parse_document_end(&mut self) -> Scan<Event> {
        let token = self.scanner.peek()?;
        let (start, mut end) = (token.start, token.start);
        if self.scanner.check(&[Kind::DocumentEnd])? {
            end = self.scanner.next()?.end;
        }
        self.state = Some(if self.scanner.version() == (1, 1) {
            State::DocumentStart
        } else {
            State::ImplicitDocumentStart
        });
        Ok(Event::new(EventKind::DocumentEnd, start, end))
    }

    fn parse_document_content(&mut self) -> Scan<Event> {
        let ends = [
            Kind::Directive,
            Kind::DocumentStart,
            Kind::DocumentEnd,
            Kind::StreamEnd,
        ];
        if self.scanner.check(&ends)? {
            let mark = self.scanner.peek()?.start;
            self.pop_state();
            return Ok(empty_scalar(mark));
        }
        self.parse_node(true, false)
    }

    fn process_directives(&mut self) -> Scan<()> {
        let mut version_seen = false;
        let mut handles: Vec<String> = Vec::new();
        while self.scanner.check(&[Kind::Directive])? {
            let token = self.scanner.next()?;
            match token.directive {
                Some(Directive::Yaml(major, _)) => {
                    if version_seen {
                        return Err(parser_failure(
                            None,
                            "found duplicate YAML directive".into(),
                            token.start,
                        ));
                    }
                    if major != 1 {
                        return Err(parser_failure(
                            None,
                            "found incompatible YAML document (version 1.* is required)".into(),
                            token.start,
                        ));
                    }
                    version_seen = true;
                }
                Some(Directive::Tag(handle)) => {
                    if handles.contains(&handle) {
                        return Err(parser_failure(
                            None,
                            format!("duplicate tag handle {}", py_repr_str(&handle)),
                            token.start,
                        ));
                    }
                    handles.push(handle);
                }
                Some(Directive::Other) | None => {}
            }
        }
        Ok(())
    }

    /// ruamel's `parse_node` with no anchor or tag (strictyaml refuses both
    /// when they are checked for).
    fn parse_node(&mut self, block: bool, indentless_sequence: bool) -> Scan<Event> {
        if self.scanner.check(&[Kind::Alias])? {
            let token = self.scanner.next()?;
            self.pop_state();
            let mut event = Event::new(EventKind::Alias, token.start, token.end);
            event.value = token.value;
            return Ok(event);
        }
        // Both refuse with strictyaml's messages when present.
        self.scanner.check(&[Kind::Anchor])?;
        self.scanner.check(&[Kind::Tag])?;
        let start = self.scanner.peek()?.start;
        if indentless_sequence && self.scanner.check(&[Kind::BlockEntry])? {
            let next = self.scanner.peek()?;
            if let Some(comment) = next.comment.filter(|c| c.post) {
                self.scanner.set_front_comment(Some(Comment {
                    post: false,
                    ..comment
                }));
            }
            let end = next.end;
            self.state = Some(State::IndentlessSequenceEntry);
            return Ok(Event::new(EventKind::SequenceStart, start, end));
        }
        if self.scanner.check(&[Kind::Scalar])? {
            let token = self.scanner.next()?;
            self.pop_state();
            return Ok(scalar_event(token, start));
        }
        // These two refuse flow collections with strictyaml's message.
        self.scanner.check(&[Kind::FlowSequenceStart])?;
        self.scanner.check(&[Kind::FlowMappingStart])?;
        if block && self.scanner.check(&[Kind::BlockSequenceStart])? {
            let next = self.scanner.peek()?;
            // ruamel's `split_comment` drops a lone trailing comment.
            if next.comment.is_some_and(|c| c.post && !c.pre) {
                self.scanner.set_front_comment(None);
            }
            let end = next.start;
            self.state = Some(State::BlockSequenceFirstEntry);
            return Ok(Event::new(EventKind::SequenceStart, start, end));
        }
        if block && self.scanner.check(&[Kind::BlockMappingStart])? {
            let end = self.scanner.peek()?.start;
            self.state = Some(State::BlockMappingFirstKey);
            return Ok(Event::new(EventKind::MappingStart, start, end));
        }
        let token = self.scanner.peek()?;
        let what = if block { "block" } else { "flow" };
        Err(parser_failure(
            Some((&format!("while parsing a {what} node"), start)),
            format!(
                "expected the node content, but found {}",
                py_repr_str(token.kind.id())
            ),
            token.start,
        ))
    }

    fn expected_block_end(&mut self, context: &str) -> Scan<Event> {
        let token = self.scanner.peek()?;
        let context_mark = self.marks.last().copied().unwrap_or(token.start);
        Err(parser_failure(
            Some((context, context_mark)),
            format!(
                "expected <block end>, but found {}",
                py_repr_str(token.kind.id())
            ),
            token.start,
        ))
    }

    fn parse_block_sequence_entry(&mut self) -> Scan<Event> {
        if self.scanner.check(&[Kind::BlockEntry])? {
            let mut token = self.scanner.next()?;
            self.scanner.move_comment(&mut token)?;
            if !self.scanner.check(&[Kind::BlockEntry, Kind::BlockEnd])? {
                self.states.push(State::BlockSequenceEntry);
                return self.parse_node(true, false);
            }
            self.state = Some(State::BlockSequenceEntry);
            return Ok(empty_scalar(token.end));
        }
        if !self.scanner.check(&[Kind::BlockEnd])? {
            return self.expected_block_end("while parsing a block collection");
        }
        let token = self.scanner.next()?;
        self.pop_state();
        self.marks.pop();
        Ok(Event::new(EventKind::SequenceEnd, token.start, token.end))
    }

    fn parse_indentless_sequence_entry(&mut self) -> Scan<Event> {
        if self.scanner.check(&[Kind::BlockEntry])? {
            let mut token = self.scanner.next()?;
            self.scanner.move_comment(&mut token)?;
            if !self
                .scanner
                .check(&[Kind::BlockEntry, Kind::Key, Kind::Value, Kind::BlockEnd])?
            {
                self.states.push(State::IndentlessSequenceEntry);
                return self.parse_node(true, false);
            }
            self.state = Some(State::IndentlessSequenceEntry);
            return Ok(empty_scalar(token.end));
        }
        let token = self.scanner.peek()?;
        self.pop_state();
        Ok(Event::new(EventKind::SequenceEnd, token.start, token.start))
    }

    fn parse_block_mapping_key(&mut self) -> Scan<Event> {
        if self.scanner.check(&[Kind::Key])? {
            let mut token = self.scanner.next()?;
            self.scanner.move_comment(&mut token)?;
            if !self
                .scanner
                .check(&[Kind::Key, Kind::Value, Kind::BlockEnd])?
            {
                self.states.push(State::BlockMappingValue);
                return self.parse_node(true, true);
            }
            self.state = Some(State::BlockMappingValue);
            return Ok(empty_scalar(token.end));
        }
        if self.scanner.version() > (1, 1) && self.scanner.check(&[Kind::Value])? {
            self.state = Some(State::BlockMappingValue);
            let mark = self.scanner.peek()?.start;
            return Ok(empty_scalar(mark));
        }
        if !self.scanner.check(&[Kind::BlockEnd])? {
            return self.expected_block_end("while parsing a block mapping");
        }
        let mut token = self.scanner.next()?;
        self.scanner.move_comment(&mut token)?;
        self.pop_state();
        self.marks.pop();
        Ok(Event::new(EventKind::MappingEnd, token.start, token.end))
    }

    fn parse_block_mapping_value(&mut self) -> Scan<Event> {
        if !self.scanner.check(&[Kind::Value])? {
            self.state = Some(State::BlockMappingKey);
            let mark = self.scanner.peek()?.start;
            return Ok(empty_scalar(mark));
        }
        let mut token = self.scanner.next()?;
        if self.scanner.check(&[Kind::Value])? || !self.scanner.check(&[Kind::Key])? {
            self.scanner.move_comment(&mut token)?;
        }
        if !self
            .scanner
            .check(&[Kind::Key, Kind::Value, Kind::BlockEnd])?
        {
            self.states.push(State::BlockMappingKey);
            return self.parse_node(true, true);
        }
        self.state = Some(State::BlockMappingKey);
        if token.comment.is_some() {
            return Ok(empty_scalar(token.end));
        }
        // Without comments of its own, ruamel marks the empty value at the
        // end of the next token, and takes that token's trailing comment.
        let next = self.scanner.peek()?;
        if let Some(comment) = next.comment {
            self.scanner.set_front_comment(Some(Comment {
                post: false,
                ..comment
            }));
        }
        Ok(empty_scalar(next.end))
    }
}

/// An empty node (`key:` with no value): a plain scalar, as YAML reads
/// it (null to a schema that types scalars).
fn empty_scalar(mark: RawMark) -> Event {
    Event {
        plain: true,
        ..Event::new(EventKind::Scalar, mark, mark)
    }
}

fn scalar_event(token: Token, start: RawMark) -> Event {
    Event {
        kind: EventKind::Scalar,
        start,
        end: token.end,
        value: token.value,
        plain: token.plain,
    }
}
