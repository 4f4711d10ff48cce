//! What the example's tests share: a temporary home and project, and
//! running a build of ship-skills there with the process environment the
//! installer reads set to them (`VARIABLES`: only `HOME`).
#![allow(dead_code)] // each test file uses what it needs

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A folder removed when dropped.
pub struct Temp(pub PathBuf);

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// A home and a project (with `.git`) under one temporary folder.
pub fn world(name: &str) -> Temp {
    let path = std::env::temp_dir().join(format!("ship-skills-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&path);
    fs::create_dir_all(path.join("home")).unwrap();
    fs::create_dir_all(path.join("project/.git")).unwrap();
    Temp(fs::canonicalize(path).unwrap())
}

/// Runs `binary ARGS` in the project of `root`, with its home.
pub fn run(binary: &Path, root: &Path, args: &[&str]) -> Output {
    let mut command = Command::new(binary);
    for variable in skills_runtime::install::VARIABLES {
        command.env_remove(variable);
    }
    command
        .args(args)
        .current_dir(root.join("project"))
        .env("HOME", root.join("home"))
        .output()
        .unwrap()
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
