//! A number that tells this process's scratch files from another's.

/// This process's id; under WASI, which has no process ids (the standard
/// library's [`std::process::id`] panics there), the wall clock's
/// nanoseconds when first asked, the same for the rest of the process.
/// Names made with it are still created exclusively or checked: the tag
/// keeps two runs apart, it guards nothing alone.
///
/// ```
/// let tag = skills_build::unstable::process_tag::process_tag();
/// assert_eq!(tag, skills_build::unstable::process_tag::process_tag());
/// ```
pub fn process_tag() -> u64 {
    #[cfg(not(target_os = "wasi"))]
    {
        u64::from(std::process::id())
    }
    #[cfg(target_os = "wasi")]
    {
        static TAG: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
        *TAG.get_or_init(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |elapsed| elapsed.as_nanos() as u64)
        })
    }
}
