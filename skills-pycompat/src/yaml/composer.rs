//! Nodes from events (ruamel's composer) and strictyaml's construction-time
//! checks: merge keys, unhashable keys, duplicate keys and the indentation of
//! sibling mappings, in the order ruamel's constructor meets them.

use std::collections::HashSet;

use super::error::ErrorKind;
use super::marked::{Failure, RawMark, py_repr_str};
use super::parser::{EventKind, Parser};
use super::scanner::Scan;

/// How deeply collections may nest before the reader gives up.
pub(crate) const MAX_DEPTH: usize = 100;

/// A composed node.
#[derive(Debug)]
pub(crate) struct RawNode {
    pub(crate) body: Body,
    pub(crate) start: RawMark,
    pub(crate) end: RawMark,
}

/// What a composed node holds.
#[derive(Debug)]
pub(crate) enum Body {
    /// Text, and whether it was written plain.
    Scalar { value: String, plain: bool },
    /// Items in order.
    Seq(Vec<RawNode>),
    /// Key/value pairs in order, duplicates and merge keys included.
    Map(Vec<(RawNode, RawNode)>),
}

impl RawNode {
    /// ruamel's node id, as merge messages name it.
    fn id(&self) -> &'static str {
        match self.body {
            Body::Scalar { .. } => "scalar",
            Body::Seq(_) => "sequence",
            Body::Map(_) => "mapping",
        }
    }

    /// Whether this key is the merge key `<<` (plain only).
    pub(crate) fn is_merge_key(&self) -> bool {
        matches!(&self.body, Body::Scalar { value, plain: true } if value == "<<")
    }
}

/// ruamel's `get_single_node`: the one document of the stream, if any.
pub(crate) fn compose(parser: &mut Parser) -> Scan<Option<RawNode>> {
    parser.next()?;
    let mut document = None;
    if !parser.check(EventKind::StreamEnd)? {
        parser.next()?;
        document = Some(compose_node(parser, 0)?);
        parser.next()?;
    }
    if let Some(root) = &document
        && !parser.check(EventKind::StreamEnd)?
    {
        let event = next_event(parser)?;
        return Err(Failure::with_context(
            ErrorKind::MultipleDocuments,
            "expected a single document in the stream",
            root.start,
            "but found another document",
            event.start,
        ));
    }
    parser.next()?;
    Ok(document)
}

fn next_event(parser: &mut Parser) -> Scan<super::parser::Event> {
    let mark = parser.scanner.reader.mark();
    parser.next()?.ok_or_else(|| {
        Failure::problem(
            ErrorKind::Syntax,
            "unexpected end of the event stream",
            mark,
        )
    })
}

fn compose_node(parser: &mut Parser, depth: usize) -> Scan<RawNode> {
    let event = next_event(parser)?;
    if depth > MAX_DEPTH {
        return Err(Failure::problem(
            ErrorKind::TooDeep,
            format!("collections nest more than {MAX_DEPTH} levels deep"),
            event.start,
        ));
    }
    match event.kind {
        EventKind::Alias => Err(Failure::problem(
            ErrorKind::Alias,
            format!("found undefined alias {}", py_repr_str(&event.value)),
            event.start,
        )),
        EventKind::Scalar => Ok(RawNode {
            body: Body::Scalar {
                value: event.value,
                plain: event.plain,
            },
            start: event.start,
            end: event.end,
        }),
        EventKind::SequenceStart => {
            let mut items = Vec::new();
            while !parser.check(EventKind::SequenceEnd)? {
                items.push(compose_node(parser, depth + 1)?);
            }
            let end = next_event(parser)?.end;
            Ok(RawNode {
                body: Body::Seq(items),
                start: event.start,
                end,
            })
        }
        EventKind::MappingStart => {
            let mut pairs = Vec::new();
            while !parser.check(EventKind::MappingEnd)? {
                let key = compose_node(parser, depth + 1)?;
                let value = compose_node(parser, depth + 1)?;
                pairs.push((key, value));
            }
            let end = next_event(parser)?.end;
            Ok(RawNode {
                body: Body::Map(pairs),
                start: event.start,
                end,
            })
        }
        _ => Err(Failure::problem(
            ErrorKind::Syntax,
            "unexpected event in the document",
            event.start,
        )),
    }
}

/// Run strictyaml's construction checks over `root`, in ruamel's order:
/// nested collections met while not constructing "deeply" wait in a queue,
/// while everything inside a mapping is constructed depth-first.
pub(crate) fn check(root: &RawNode) -> Scan<()> {
    let mut checker = Checker {
        deep: false,
        queue: Vec::new(),
        sequence_key: None,
    };
    checker.construct(root, false)?;
    while !checker.queue.is_empty() {
        for node in std::mem::take(&mut checker.queue) {
            checker.fill(node)?;
        }
    }
    match checker.sequence_key {
        Some(mark) => Err(Failure::problem(
            ErrorKind::Unsupported,
            "found a sequence used as a mapping key, which strictyaml cannot load",
            mark,
        )),
        None => Ok(()),
    }
}

#[derive(Debug)]
struct Checker<'a> {
    deep: bool,
    queue: Vec<&'a RawNode>,
    sequence_key: Option<RawMark>,
}

impl<'a> Checker<'a> {
    /// ruamel's `construct_object`.
    fn construct(&mut self, node: &'a RawNode, deep: bool) -> Scan<()> {
        let old = self.deep;
        if deep {
            self.deep = true;
        }
        let result = match node.body {
            Body::Scalar { .. } => Ok(()),
            _ if self.deep => self.fill(node),
            _ => {
                self.queue.push(node);
                Ok(())
            }
        };
        if deep {
            self.deep = old;
        }
        result
    }

    /// The body of ruamel's collection constructors.
    fn fill(&mut self, node: &'a RawNode) -> Scan<()> {
        match &node.body {
            Body::Scalar { .. } => Ok(()),
            Body::Seq(items) => items
                .iter()
                .try_for_each(|item| self.construct(item, false)),
            Body::Map(pairs) => self.fill_mapping(node, pairs),
        }
    }

    fn fill_mapping(&mut self, node: &'a RawNode, pairs: &'a [(RawNode, RawNode)]) -> Scan<()> {
        self.flatten(node, pairs)?;
        let mut seen: HashSet<&str> = HashSet::new();
        for (key, value) in pairs.iter().filter(|(k, _)| !k.is_merge_key()) {
            self.construct(key, true)?;
            match &key.body {
                Body::Map(_) => {
                    return Err(Failure::with_context(
                        ErrorKind::UnhashableKey,
                        "while constructing a mapping",
                        node.start,
                        "found unhashable key",
                        key.start,
                    ));
                }
                Body::Seq(_) => {
                    self.sequence_key.get_or_insert(key.start);
                }
                Body::Scalar { .. } => {}
            }
            self.construct(value, true)?;
            if let Body::Scalar { value: text, .. } = &key.body
                && !seen.insert(text)
            {
                return Err(Failure::with_context(
                    ErrorKind::DuplicateKey,
                    "While parsing",
                    key.start,
                    format!("Duplicate key '{text}' found"),
                    key.end,
                ));
            }
        }
        check_sibling_indentation(pairs)
    }

    /// ruamel's `flatten_mapping`: what a merge key may hold.
    fn flatten(&mut self, node: &'a RawNode, pairs: &'a [(RawNode, RawNode)]) -> Scan<()> {
        let refuse = |kind, problem: String, mark| {
            Err(Failure::with_context(
                kind,
                "while constructing a mapping",
                node.start,
                problem,
                mark,
            ))
        };
        let mut merged = false;
        for (key, value) in pairs.iter().filter(|(k, _)| k.is_merge_key()) {
            if merged {
                // ruamel raises a DuplicateKeyError that strictyaml does not catch.
                return refuse(
                    ErrorKind::DuplicateKey,
                    "found duplicate key \"<<\"".into(),
                    key.start,
                );
            }
            merged = true;
            match &value.body {
                Body::Map(_) => self.construct(value, false)?,
                Body::Seq(items) => {
                    for item in items {
                        if !matches!(item.body, Body::Map(_)) {
                            let problem =
                                format!("expected a mapping for merging, but found {}", item.id());
                            return refuse(ErrorKind::MergeKey, problem, item.start);
                        }
                        self.construct(item, false)?;
                    }
                }
                Body::Scalar { .. } => {
                    let problem = format!(
                        "expected a mapping or list of mappings for merging, but found {}",
                        value.id()
                    );
                    return refuse(ErrorKind::MergeKey, problem, value.start);
                }
            }
        }
        Ok(())
    }
}

/// strictyaml's rule: mapping values of one mapping start in the same column.
fn check_sibling_indentation(pairs: &[(RawNode, RawNode)]) -> Scan<()> {
    let mut first_column = None;
    for (_, value) in pairs.iter().filter(|(k, _)| !k.is_merge_key()) {
        if !matches!(value.body, Body::Map(_)) {
            continue;
        }
        let column = *first_column.get_or_insert(value.start.column);
        if value.start.column != column {
            return Err(Failure::with_context(
                ErrorKind::InconsistentIndentation,
                "While parsing",
                value.start,
                "Found mapping with indentation inconsistent with previous mapping",
                value.end,
            ));
        }
    }
    Ok(())
}
