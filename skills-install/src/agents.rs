//! The coding agents that read skill folders, and where each reads them:
//! one table, as data, checked by a test against the reference notes the
//! project keeps (`testdata/agents/agents.md`).

/// A coding agent that reads skills from `<dir>/<name>/SKILL.md`, in a
/// project directory and in a user directory.
///
/// ```
/// use skills_install::agents::agent;
/// let claude = agent("claude-code").unwrap();
/// assert_eq!((claude.name, claude.project_dir), ("Claude Code", ".claude/skills"));
/// assert_eq!(claude.user_dir, "~/.claude/skills");
/// assert_eq!(agent("github-copilot").unwrap().host, Some("vscode"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Agent {
    /// The id `--agent` takes (`claude-code`).
    pub id: &'static str,
    /// The agent's name, for people (`Claude Code`).
    pub name: &'static str,
    /// The folder it reads in a project, relative to the project root.
    pub project_dir: &'static str,
    /// The folder it reads for the user: `~/` is the home directory, and
    /// the [`OVERRIDES`] move parts of it.
    pub user_dir: &'static str,
    /// The id of the compiler's host profile for the skills it reads
    /// (`skills_build::Host`, as `--host` takes it), when it has one.
    pub host: Option<&'static str>,
}

/// An environment variable that moves a part of the user directories:
/// `CLAUDE_CONFIG_DIR` stands for `~/.claude`, `CODEX_HOME` for `~/.codex`,
/// `XDG_CONFIG_HOME` for `~/.config`.
///
/// ```
/// use skills_install::agents::OVERRIDES;
/// assert!(OVERRIDES.iter().any(|o| o.var == "XDG_CONFIG_HOME" && o.replaces == "~/.config"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Override {
    /// The leading folder of a user directory it replaces (`~/.codex`).
    pub replaces: &'static str,
    /// The variable whose value replaces it (`CODEX_HOME`).
    pub var: &'static str,
}

/// The variables that move user directories, as the agents honour them.
pub const OVERRIDES: [Override; 3] = [
    Override {
        replaces: "~/.claude",
        var: "CLAUDE_CONFIG_DIR",
    },
    Override {
        replaces: "~/.codex",
        var: "CODEX_HOME",
    },
    Override {
        replaces: "~/.config",
        var: "XDG_CONFIG_HOME",
    },
];

/// The agents installed for when none is named: Claude Code and Codex. In a
/// project that is `.claude/skills` and the shared `.agents/skills`, which
/// Amp, Codex, Gemini CLI, GitHub Copilot, Kimi Code CLI, OpenCode and
/// Replit all read; for the user, `~/.claude/skills` and `~/.codex/skills`.
///
/// ```
/// use skills_install::agents::{DEFAULT_AGENTS, agent};
/// assert!(DEFAULT_AGENTS.iter().all(|id| agent(id).is_some()));
/// ```
pub const DEFAULT_AGENTS: [&str; 2] = ["claude-code", "codex"];

/// The folder every agent that shares one reads in a project, and where
/// `--link` keeps the one copy the others link to.
pub const SHARED_DIR: &str = ".agents/skills";

const fn a(
    id: &'static str,
    name: &'static str,
    project_dir: &'static str,
    user_dir: &'static str,
) -> Agent {
    Agent {
        id,
        name,
        project_dir,
        user_dir,
        host: None,
    }
}

impl Agent {
    /// The agent with the host profile `host`.
    const fn hosted(self, host: &'static str) -> Agent {
        Agent {
            host: Some(host),
            ..self
        }
    }
}

/// Every agent, in the order of the reference table: 39 ids (the table
/// has 37 rows, one of which names Amp, Kimi Code CLI and Replit).
///
/// ```
/// use skills_install::agents::AGENTS;
/// assert_eq!(AGENTS.len(), 39);
/// let shared = AGENTS.iter().filter(|a| a.project_dir == ".agents/skills").count();
/// assert_eq!(shared, 7);
/// ```
pub const AGENTS: [Agent; 39] = [
    a("amp", "Amp", ".agents/skills", "~/.config/agents/skills"),
    a(
        "kimi-cli",
        "Kimi Code CLI",
        ".agents/skills",
        "~/.config/agents/skills",
    ),
    a(
        "replit",
        "Replit",
        ".agents/skills",
        "~/.config/agents/skills",
    ),
    a(
        "antigravity",
        "Antigravity",
        ".agent/skills",
        "~/.gemini/antigravity/skills",
    ),
    a("augment", "Augment", ".augment/skills", "~/.augment/skills"),
    a(
        "claude-code",
        "Claude Code",
        ".claude/skills",
        "~/.claude/skills",
    )
    .hosted("claude-code"),
    a("openclaw", "OpenClaw", "skills", "~/.moltbot/skills"),
    a("cline", "Cline", ".cline/skills", "~/.cline/skills"),
    a(
        "codebuddy",
        "CodeBuddy",
        ".codebuddy/skills",
        "~/.codebuddy/skills",
    ),
    a("codex", "Codex", ".agents/skills", "~/.codex/skills").hosted("codex"),
    a(
        "command-code",
        "Command Code",
        ".commandcode/skills",
        "~/.commandcode/skills",
    ),
    a(
        "continue",
        "Continue",
        ".continue/skills",
        "~/.continue/skills",
    ),
    a("crush", "Crush", ".crush/skills", "~/.config/crush/skills"),
    a("cursor", "Cursor", ".cursor/skills", "~/.cursor/skills").hosted("cursor"),
    a("droid", "Droid", ".factory/skills", "~/.factory/skills"),
    a(
        "gemini-cli",
        "Gemini CLI",
        ".agents/skills",
        "~/.gemini/skills",
    )
    .hosted("gemini"),
    a(
        "github-copilot",
        "GitHub Copilot",
        ".agents/skills",
        "~/.copilot/skills",
    )
    .hosted("vscode"),
    a("goose", "Goose", ".goose/skills", "~/.config/goose/skills"),
    a("junie", "Junie", ".junie/skills", "~/.junie/skills"),
    a("iflow-cli", "iFlow CLI", ".iflow/skills", "~/.iflow/skills"),
    a(
        "kilo",
        "Kilo Code",
        ".kilocode/skills",
        "~/.kilocode/skills",
    ),
    a("kiro-cli", "Kiro CLI", ".kiro/skills", "~/.kiro/skills"),
    a("kode", "Kode", ".kode/skills", "~/.kode/skills"),
    a("mcpjam", "MCPJam", ".mcpjam/skills", "~/.mcpjam/skills"),
    a(
        "mistral-vibe",
        "Mistral Vibe",
        ".vibe/skills",
        "~/.vibe/skills",
    ),
    a("mux", "Mux", ".mux/skills", "~/.mux/skills"),
    a(
        "opencode",
        "OpenCode",
        ".agents/skills",
        "~/.config/opencode/skills",
    )
    .hosted("opencode"),
    a(
        "openhands",
        "OpenHands",
        ".openhands/skills",
        "~/.openhands/skills",
    ),
    a("pi", "Pi", ".pi/skills", "~/.pi/agent/skills"),
    a("qoder", "Qoder", ".qoder/skills", "~/.qoder/skills"),
    a("qwen-code", "Qwen Code", ".qwen/skills", "~/.qwen/skills"),
    a("roo", "Roo Code", ".roo/skills", "~/.roo/skills"),
    a("trae", "Trae", ".trae/skills", "~/.trae/skills"),
    a("trae-cn", "Trae CN", ".trae/skills", "~/.trae-cn/skills"),
    a(
        "windsurf",
        "Windsurf",
        ".windsurf/skills",
        "~/.codeium/windsurf/skills",
    ),
    a(
        "zencoder",
        "Zencoder",
        ".zencoder/skills",
        "~/.zencoder/skills",
    ),
    a("neovate", "Neovate", ".neovate/skills", "~/.neovate/skills"),
    a("pochi", "Pochi", ".pochi/skills", "~/.pochi/skills"),
    a("adal", "AdaL", ".adal/skills", "~/.adal/skills"),
];

/// The agent with this id.
///
/// ```
/// use skills_install::agents::agent;
/// assert_eq!(agent("codex").unwrap().project_dir, ".agents/skills");
/// assert!(agent("Codex").is_none());
/// ```
pub fn agent(id: &str) -> Option<&'static Agent> {
    AGENTS.iter().find(|agent| agent.id == id)
}
