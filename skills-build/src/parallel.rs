//! Work spread over threads, with results in input order.
//!
//! The pipeline reads, validates, hashes and prepares each skill on its
//! own; [`map`] runs such per-item work on `threads` scoped threads (std
//! only: no dependency, nothing added to a user's build) and returns the
//! results in the order of the items, so what comes out is the same bytes
//! whatever the thread count. Items are handed out one small block at a
//! time, so one 100 KB skill does not hold back a thread's whole share.

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many items a thread takes at once.
const BLOCK: usize = 8;

/// The number of threads the machine offers (1 when it cannot say).
pub fn available() -> usize {
    std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
}

/// `f` applied to every item, on up to `threads` threads (`0` means
/// [`available`]), the results in item order. With one thread, or few
/// items, it runs on the calling thread.
pub fn map<'a, T, R, F>(items: &'a [T], threads: usize, f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&'a T) -> R + Sync,
{
    let threads = match threads {
        0 => available(),
        n => n,
    }
    .min(items.len().div_ceil(BLOCK));
    if threads <= 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let start = next.fetch_add(BLOCK, Ordering::Relaxed);
                        if start >= items.len() {
                            break out;
                        }
                        let end = (start + BLOCK).min(items.len());
                        for (index, item) in items[start..end].iter().enumerate() {
                            out.push((start + index, f(item)));
                        }
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| match worker.join() {
                Ok(out) => out,
                // A panic in `f` is the caller's panic: pass it on.
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    });
    done.sort_unstable_by_key(|(index, _)| *index);
    done.into_iter().map(|(_, result)| result).collect()
}

#[cfg(test)]
mod tests {
    use super::map;

    #[test]
    fn order_is_kept_whatever_the_threads() {
        let items: Vec<u64> = (0..1000).collect();
        let one = map(&items, 1, |n| n.wrapping_mul(2654435761) % 97);
        for threads in [0, 2, 3, 7, 64] {
            assert_eq!(
                map(&items, threads, |n| n.wrapping_mul(2654435761) % 97),
                one
            );
        }
        assert!(map(&[] as &[u8], 4, |n| *n).is_empty());
    }

    #[test]
    fn results_come_in_item_order() {
        let squares = crate::parallel::map(&[1, 2, 3, 4], 3, |n| n * n);
        assert_eq!(squares, [1, 4, 9, 16]);
    }

    #[test]
    fn at_least_one_thread_is_available() {
        assert!(crate::parallel::available() >= 1);
    }

    #[test]
    fn one_thread_or_many_give_the_same() {
        let one = crate::parallel::map(&["a", "bb", "ccc"], 1, |s| s.len());
        let many = crate::parallel::map(&["a", "bb", "ccc"], 8, |s| s.len());
        assert_eq!(one, many);
    }
}
