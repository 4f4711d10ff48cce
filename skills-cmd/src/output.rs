//! Writing to stdout and stderr the way click does: ANSI CSI sequences are
//! removed when the stream is not a terminal.
//!
//! A failed write to stdout (a full disk: `skills sign ... > sigs.txt`) is
//! remembered, and the program then ends with status 1 and says so on
//! stderr ([`stdout_failure`], read by `main`), whatever the command: a
//! step whose output was lost does not succeed. A closed pipe (`skills
//! inspect b.bin | head -1`) is not such a failure: the reader has all it
//! wanted, and output just stops.

use std::io::{self, IsTerminal, Write};
use std::sync::Mutex;

/// The first error writing to stdout, other than a closed pipe.
static STDOUT_FAILED: Mutex<Option<String>> = Mutex::new(None);

/// Remembers `result` of a write to stdout when it is a failure that
/// matters.
fn note_stdout<T>(result: &io::Result<T>) {
    if let Err(error) = result
        && error.kind() != io::ErrorKind::BrokenPipe
    {
        let mut failed = STDOUT_FAILED.lock().unwrap_or_else(|e| e.into_inner());
        failed.get_or_insert_with(|| error.to_string());
    }
}

/// Flushes stdout and gives the first error any write to it met (other
/// than a closed pipe), if one did.
pub fn stdout_failure() -> Option<String> {
    note_stdout(&io::stdout().lock().flush());
    STDOUT_FAILED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
}

/// A writer to stdout for code that writes itself (the installer's
/// reports): its errors are remembered as [`write()`]'s are.
#[cfg(feature = "installer")]
pub struct Stdout(io::StdoutLock<'static>);

#[cfg(feature = "installer")]
impl Stdout {
    /// Stdout, locked.
    pub fn lock() -> Stdout {
        Stdout(io::stdout().lock())
    }
}

#[cfg(feature = "installer")]
impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let result = self.0.write(buf);
        note_stdout(&result);
        result
    }

    fn flush(&mut self) -> io::Result<()> {
        let result = self.0.flush();
        note_stdout(&result);
        result
    }
}

use std::borrow::Cow;

use skills_build::unstable::printable::printable;

/// Removes every match of `\x1b\[[0-?]*[ -/]*[@-~]`.
pub fn strip_ansi(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == 0x1b && bytes.get(i + 1) == Some(&b'[') {
            let mut j = i + 2;
            while j < bytes.len() && (0x30..=0x3f).contains(&bytes[j]) {
                j += 1;
            }
            while j < bytes.len() && (0x20..=0x2f).contains(&bytes[j]) {
                j += 1;
            }
            if j < bytes.len() && (0x40..=0x7e).contains(&bytes[j]) {
                out.push_str(&text[copied..i]);
                i = j + 1;
                copied = i;
                continue;
            }
        }
        i += 1;
    }
    out.push_str(&text[copied..]);
    out
}

/// Which stream a line goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// Standard output.
    Out,
    /// Standard error.
    Err,
}

/// Writes `text` and a newline, as `click.echo` does.
pub fn echo(stream: Stream, text: &str) {
    let mut line = String::with_capacity(text.len() + 1);
    line.push_str(text);
    line.push('\n');
    write(stream, &line);
}

/// Writes `text`: ANSI-stripped when the stream is not a terminal; on a
/// terminal, with control characters other than line breaks and tabs
/// escaped, so text from a skill cannot drive the terminal (set its title,
/// clear it). A closed pipe is not an error worth a panic: output just
/// stops; any other failure on stdout is remembered ([`stdout_failure`]).
pub fn write(stream: Stream, text: &str) {
    match stream {
        Stream::Out => note_stdout(&write_to(io::stdout().lock(), text)),
        Stream::Err => {
            let _ = write_to(io::stderr().lock(), text);
        }
    }
}

/// `text` as the compiler's `printable` writes it, but with its line
/// breaks and tabs kept: for whole messages and listings bound for a
/// terminal.
fn printable_lines(text: &str) -> Cow<'_, str> {
    let plain = |part: &str| matches!(printable(part), Cow::Borrowed(_));
    if text.split(['\n', '\t']).all(plain) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for line in text.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(body) => (body, "\n"),
            None => (line, ""),
        };
        for piece in body.split_inclusive('\t') {
            let (part, tab) = match piece.strip_suffix('\t') {
                Some(part) => (part, "\t"),
                None => (piece, ""),
            };
            out.push_str(&printable(part));
            out.push_str(tab);
        }
        out.push_str(end);
    }
    Cow::Owned(out)
}

/// [`write()`] to one stream.
fn write_to(mut stream: impl Write + IsTerminal, text: &str) -> io::Result<()> {
    let text = if stream.is_terminal() {
        printable_lines(text).into_owned()
    } else {
        strip_ansi(text)
    };
    stream
        .write_all(text.as_bytes())
        .and_then(|()| stream.flush())
}

/// Writes raw bytes to stdout (for `--format json` and files); on a
/// terminal, control characters escaped as [`write()`] does.
pub fn write_stdout(text: &str) {
    let mut out = io::stdout().lock();
    let text = if out.is_terminal() {
        printable_lines(text)
    } else {
        text.into()
    };
    note_stdout(&out.write_all(text.as_bytes()).and_then(|()| out.flush()));
}

#[cfg(test)]
mod tests {
    use super::{Cow, printable_lines, strip_ansi};

    #[test]
    fn printable_lines_keep_breaks_and_tabs() {
        assert_eq!(printable_lines("a\n\tb\u{1b}[2J\r"), "a\n\tb\\u{1b}[2J\\r");
        assert!(matches!(printable_lines("plain\n\ttext"), Cow::Borrowed(_)));
    }

    #[test]
    fn strips_csi_but_not_osc() {
        assert_eq!(strip_ansi("\x1b[31mred\x1b[0m"), "red");
        assert_eq!(strip_ansi("\x1b[1;2 q x"), " x");
        assert_eq!(strip_ansi("\x1b]0;title\x07"), "\x1b]0;title\x07");
        assert_eq!(strip_ansi("\x1b[\u{e9}"), "\x1b[\u{e9}");
        assert_eq!(strip_ansi("end\x1b["), "end\x1b[");
    }
}
