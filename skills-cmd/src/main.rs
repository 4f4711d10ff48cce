//! The `skills` command-line tool.
//!
//! `validate`, `read-properties` and `to-prompt` behave exactly like the
//! reference command line (`agentskills` from skills-ref 0.1.1); invoked
//! under the name `agentskills`, the tool is a drop-in replacement for it,
//! down to its help texts and version line. The other commands are ours.

mod atomic;
mod bundle_file;
mod canonical;
#[cfg(test)]
mod cli_reference;
mod commands;
mod gate;
mod output;
mod packing;
mod progress;
mod properties;
mod public_key;
mod python;
mod report;
mod skill_dir;
mod targets;

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

fn main() {
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|arg| arg.to_string_lossy().into_owned())
        .collect();
    let spec = commands::group(program_name());
    let code = match spec.parse(&args) {
        Err(exit) => exit.emit(),
        Ok(call) => spec.run(&call),
    };
    std::process::exit(code);
}
