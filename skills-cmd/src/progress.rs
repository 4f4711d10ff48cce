//! A long build's progress line: on stderr when it is a terminal, once the
//! build has taken more than a moment, rewritten in place a few times a
//! second and cleared at the end, so a short build prints nothing more and
//! a redirected one nothing at all.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// How long a build runs before its progress shows.
const MOMENT: Duration = Duration::from_millis(400);

/// How often the line is rewritten, at most.
const EVERY: Duration = Duration::from_millis(100);

/// The progress line of one build.
pub struct Progress<W: Write> {
    out: Option<W>,
    start: Instant,
    last: Option<Instant>,
    shown: bool,
}

impl Progress<std::io::Stderr> {
    /// A progress line on stderr, shown only when stderr is a terminal.
    pub fn on_stderr() -> Self {
        let err = std::io::stderr();
        let out = err.is_terminal().then_some(err);
        Progress::new(out, Instant::now())
    }
}

impl<W: Write> Progress<W> {
    /// A progress line written to `out` (none: nothing is written), for a
    /// build that started at `start`.
    pub fn new(out: Option<W>, start: Instant) -> Self {
        Progress {
            out,
            start,
            last: None,
            shown: false,
        }
    }

    /// Says that `read` skill folders were read and compiled, at `now`.
    pub fn update_at(&mut self, read: usize, now: Instant) {
        let Some(out) = self.out.as_mut() else {
            return;
        };
        if now.duration_since(self.start) < MOMENT
            || self
                .last
                .is_some_and(|last| now.duration_since(last) < EVERY)
        {
            return;
        }
        self.last = Some(now);
        self.shown = true;
        let seconds = now.duration_since(self.start).as_secs_f64();
        // A failed write to stderr only costs the progress line.
        let _ = write!(
            out,
            "\r\x1b[Kskills: {} skill folders read and compiled ({seconds:.1} s)",
            thousands(read)
        );
        let _ = out.flush();
    }

    /// [`update_at`](Self::update_at) now.
    pub fn update(&mut self, read: usize) {
        self.update_at(read, Instant::now());
    }

    /// Clears the line, if it was shown, before the report is printed.
    pub fn finish(&mut self) {
        if let (true, Some(out)) = (self.shown, self.out.as_mut()) {
            let _ = write!(out, "\r\x1b[K");
            let _ = out.flush();
        }
        self.shown = false;
    }
}

/// `n` with a comma between groups of three digits.
pub use skills_build::diagnostic::thousands;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shows_after_a_moment_at_most_every_so_often_and_clears() {
        let start = Instant::now();
        let mut progress = Progress::new(Some(Vec::new()), start);
        progress.update_at(10, start + Duration::from_millis(100));
        assert!(progress.out.as_ref().unwrap().is_empty(), "not after 0.1 s");
        progress.update_at(1_000, start + Duration::from_millis(500));
        progress.update_at(1_001, start + Duration::from_millis(550));
        progress.update_at(31_000, start + Duration::from_millis(700));
        progress.finish();
        let text = String::from_utf8(progress.out.take().unwrap()).unwrap();
        assert_eq!(
            text,
            "\r\x1b[Kskills: 1,000 skill folders read and compiled (0.5 s)\
             \r\x1b[Kskills: 31,000 skill folders read and compiled (0.7 s)\
             \r\x1b[K"
        );
    }

    #[test]
    fn nothing_without_a_terminal() {
        let mut progress: Progress<Vec<u8>> = Progress::new(None, Instant::now());
        progress.update_at(5, Instant::now() + Duration::from_secs(5));
        progress.finish();
        assert!(progress.out.is_none());
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(31_628), "31,628");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
