//! The deadlines of one connection: a clock that knows what the
//! connection is doing (waiting for a request, reading a head, serving a
//! request) and so when it must be done, and a socket wrapper that fails
//! any read or write still waiting at that instant, so hyper closes the
//! connection. Whatever hyper waits for from the client, it waits for
//! through this wrapper: no state of a connection is without a deadline.

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::{Instant, Sleep};

/// The three limits, as [`HttpOptions`](super::HttpOptions) names them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    pub(crate) idle: Duration,
    pub(crate) head: Duration,
    pub(crate) request: Duration,
}

/// What a connection is doing, since when.
#[derive(Debug, Clone, Copy)]
enum Phase {
    /// No request under way (just opened, or a reply handed over).
    Waiting(Instant),
    /// A request's first bytes came at this instant; its head is not
    /// complete.
    Head(Instant),
    /// A request (started at this instant) is being read or answered.
    Request(Instant),
}

/// One connection's clock, shared by its socket wrapper and its service.
#[derive(Debug)]
pub(crate) struct Clock {
    limits: Limits,
    phase: Mutex<Phase>,
}

impl Clock {
    pub(crate) fn new(limits: Limits) -> Self {
        Clock {
            limits,
            phase: Mutex::new(Phase::Waiting(Instant::now())),
        }
    }

    fn phase(&self) -> std::sync::MutexGuard<'_, Phase> {
        self.phase
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// When the current phase must be over. A request has its own
    /// deadline for the body (`408`, [`Clock::body_deadline`]); the socket
    /// allows one idle period more, for that reply to be written.
    fn deadline(&self) -> Instant {
        let Limits {
            idle,
            head,
            request,
        } = self.limits;
        match *self.phase() {
            Phase::Waiting(since) => since + idle,
            Phase::Head(start) => start + head.min(request),
            Phase::Request(start) => start + request + idle,
        }
    }

    /// Bytes came from the client: a request begins if none was under way.
    fn bytes_arrived(&self) {
        let mut phase = self.phase();
        if let Phase::Waiting(_) = *phase {
            *phase = Phase::Head(Instant::now());
        }
    }

    /// The head of a request is complete (hyper calls the service): its
    /// body must be in by the instant returned.
    pub(crate) fn request_started(&self) -> Instant {
        let mut phase = self.phase();
        let start = match *phase {
            Phase::Head(start) | Phase::Request(start) => start,
            // A pipelined head read along with the previous request.
            Phase::Waiting(_) => Instant::now(),
        };
        *phase = Phase::Request(start);
        start + self.limits.request
    }

    /// The reply is handed to hyper: the client has an idle period to
    /// take it and to start the next request.
    pub(crate) fn request_answered(&self) {
        *self.phase() = Phase::Waiting(Instant::now());
    }
}

/// A connection's socket, failing with `TimedOut` any read or write that
/// is still waiting at the clock's deadline.
#[derive(Debug)]
pub(crate) struct Guarded<'s> {
    stream: &'s mut TcpStream,
    clock: Arc<Clock>,
    timer: Pin<Box<Sleep>>,
}

impl<'s> Guarded<'s> {
    pub(crate) fn new(stream: &'s mut TcpStream, clock: Arc<Clock>) -> Self {
        let timer = Box::pin(tokio::time::sleep_until(clock.deadline()));
        Guarded {
            stream,
            clock,
            timer,
        }
    }

    /// The socket is not ready: wait on, unless the deadline has passed.
    fn waiting<T>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        let deadline = self.clock.deadline();
        if self.timer.deadline() != deadline {
            self.timer.as_mut().reset(deadline);
        }
        match self.timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the connection's deadline passed",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for Guarded<'_> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        match Pin::new(&mut *this.stream).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before {
                    this.clock.bytes_arrived();
                }
                Poll::Ready(Ok(()))
            }
            Poll::Pending => this.waiting(cx),
            failed => failed,
        }
    }
}

impl AsyncWrite for Guarded<'_> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        match Pin::new(&mut *this.stream).poll_write(cx, buf) {
            Poll::Pending => this.waiting(cx),
            done => done,
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        match Pin::new(&mut *this.stream).poll_write_vectored(cx, bufs) {
            Poll::Pending => this.waiting(cx),
            done => done,
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut *this.stream).poll_flush(cx) {
            Poll::Pending => this.waiting(cx),
            done => done,
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut *this.stream).poll_shutdown(cx) {
            Poll::Pending => this.waiting(cx),
            done => done,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            idle: Duration::from_secs(1),
            head: Duration::from_secs(2),
            request: Duration::from_secs(5),
        }
    }

    #[test]
    fn each_phase_has_its_deadline() {
        let opened = Instant::now();
        let clock = Clock::new(limits());
        let waiting = clock.deadline();
        assert!(waiting >= opened + Duration::from_secs(1));
        assert!(waiting <= Instant::now() + Duration::from_secs(1));
        clock.bytes_arrived();
        let Phase::Head(start) = *clock.phase() else {
            panic!("bytes begin a request")
        };
        assert_eq!(clock.deadline(), start + Duration::from_secs(2));
        // More bytes do not move the start.
        clock.bytes_arrived();
        assert_eq!(clock.deadline(), start + Duration::from_secs(2));
        let body_by = clock.request_started();
        assert_eq!(body_by, start + Duration::from_secs(5));
        assert_eq!(clock.deadline(), start + Duration::from_secs(6));
        clock.request_answered();
        assert!(matches!(*clock.phase(), Phase::Waiting(_)));
    }

    #[test]
    fn a_head_is_never_allowed_longer_than_the_request() {
        let clock = Clock::new(Limits {
            head: Duration::from_secs(60),
            ..limits()
        });
        clock.bytes_arrived();
        let Phase::Head(start) = *clock.phase() else {
            panic!("bytes begin a request")
        };
        assert_eq!(clock.deadline(), start + Duration::from_secs(5));
    }
}
