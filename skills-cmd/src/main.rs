//! The `skills` command-line tool.
//!
//! `validate`, `read-properties` and `to-prompt` behave exactly like the
//! reference command line (`agentskills` from skills-ref 0.1.1); invoked
//! under the name `agentskills`, the tool is a drop-in replacement for it,
//! down to its help texts and version line. The other commands are ours.

mod atomic;
#[cfg(feature = "mcp")]
mod bundle_file;
mod canonical;
#[cfg(test)]
mod cli_reference;
mod commands;
mod gate;
mod output;
mod packing;
mod plugin;
mod progress;
mod properties;
mod public_key;
mod python;
mod report;
mod skill_dir;
mod targets;
mod well_known;

fn program_name() -> String {
    std::env::args_os()
        .next()
        .map(|arg0| {
            std::path::Path::new(&arg0)
                .file_name()
                .unwrap_or(&arg0)
                .to_string_lossy()
                .into_owned()
        })
        .unwrap_or_else(|| "skills".to_string())
}

/// Under WASI the module's working directory is whatever the host names:
/// the launchers (`packaging/npm`, `packaging/pypi`) pre-open the user's
/// working directory under its own path and name it in `PWD`, so relative
/// arguments and the absolute paths the output shows are the native
/// binary's. Without `PWD` the directory stays `/`.
#[cfg(target_os = "wasi")]
fn enter_host_directory() {
    if let Some(dir) = std::env::var_os("PWD") {
        // A directory that is not pre-opened fails every later access
        // with a message that names the path; nothing to add here.
        let _ = std::env::set_current_dir(dir);
    }
}

fn main() {
    #[cfg(target_os = "wasi")]
    enter_host_directory();
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|arg| arg.to_string_lossy().into_owned())
        .collect();
    let spec = commands::group(program_name());
    let code = match spec.parse(&args) {
        Err(exit) => exit.emit(),
        Ok(call) => spec.run(&call),
    };
    // Output that could not be written (a full disk) fails the command,
    // whatever it printed.
    if let Some(error) = output::stdout_failure() {
        output::write(
            output::Stream::Err,
            &format!("error: cannot write to standard output: {error}\n"),
        );
        std::process::exit(1);
    }
    std::process::exit(code);
}
