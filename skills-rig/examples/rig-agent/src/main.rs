//! A rig agent with skills, against any OpenAI-compatible Chat Completions
//! server (OpenAI, or a local model server).
//!
//! ```text
//! OPENAI_API_KEY=... cargo run --manifest-path skills-rig/Cargo.toml -p rig-agent-example -- --base-url https://api.openai.com/v1 "Fill in form.pdf"
//! OPENAI_API_KEY=none cargo run --manifest-path skills-rig/Cargo.toml -p rig-agent-example -- --base-url http://127.0.0.1:8080/v1 --model qwen3 "..."
//! ```
//!
//! The skills of `testdata/skills` are validated at compile time and
//! embedded; the agent's preamble lists them, and the model reads them
//! through the `skill` tool as often as it wants (up to `--max-turns` model
//! calls), then the final answer is printed.

use std::process::ExitCode;

use rig_agent::AgentBuilder;
use rig_agent::completion::PromptError;
use rig_core::providers::openai::OpenAIConfig;
use skills_rig::{SkillTool, SkillsAgentExt};
use skills_runtime::Embedded;

// In your own crate: `include_skills!("skills")`, relative to Cargo.toml.
static SKILLS: Embedded = skills_runtime::include_skills!("../../../testdata/skills");

const USAGE: &str = "usage: rig-agent --base-url URL [--model NAME] [--max-turns N] PROMPT
  --base-url URL   an OpenAI-compatible API, such as https://api.openai.com/v1
  --model NAME     the model to ask (default: gpt-4o-mini)
  --max-turns N    the most model calls, each tool call round included (default: 64)
The API key is read from OPENAI_API_KEY.";

const PREAMBLE: &str =
    "You are a helpful assistant. When a skill applies to the task, read it before you act.";

/// What the command line asks for.
#[derive(Debug, PartialEq)]
struct Options {
    base_url: String,
    model: String,
    max_turns: usize,
    prompt: String,
}

/// Reads the arguments after the program name.
fn parse(arguments: impl IntoIterator<Item = String>) -> Result<Options, String> {
    let mut base_url = None;
    let mut model = "gpt-4o-mini".to_string();
    let mut max_turns = 64;
    let mut prompt = None;
    let mut arguments = arguments.into_iter();
    while let Some(argument) = arguments.next() {
        let mut value = |name: &str| {
            arguments
                .next()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match argument.as_str() {
            "--base-url" => base_url = Some(value("--base-url")?),
            "--model" => model = value("--model")?,
            "--max-turns" => {
                let text = value("--max-turns")?;
                max_turns = text
                    .parse()
                    .ok()
                    .filter(|turns| *turns > 0)
                    .ok_or_else(|| format!("--max-turns takes a positive number, not {text:?}"))?;
            }
            "-h" | "--help" => return Err(String::new()),
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            _ if prompt.is_some() => return Err("give the prompt as one argument".into()),
            _ => prompt = Some(argument),
        }
    }
    Ok(Options {
        base_url: base_url.ok_or("--base-url is required")?,
        model,
        max_turns,
        prompt: prompt.ok_or("the prompt is missing")?,
    })
}

#[tokio::main]
async fn main() -> ExitCode {
    let options = match parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(problem) => {
            if !problem.is_empty() {
                eprintln!("rig-agent: {problem}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let Ok(api_key) = std::env::var("OPENAI_API_KEY") else {
        eprintln!("rig-agent: set OPENAI_API_KEY (any text for a server that needs no key)");
        return ExitCode::from(2);
    };
    let tool = match SkillTool::from_embedded(&SKILLS) {
        Ok(tool) => tool,
        Err(error) => {
            eprintln!("rig-agent: the embedded skills do not decode: {error}");
            return ExitCode::FAILURE;
        }
    };
    let model = OpenAIConfig::new(api_key)
        .with_base_url(&options.base_url)
        .client()
        .chat(&options.model);
    let agent = AgentBuilder::new(model)
        .preamble(PREAMBLE)
        .skills(tool)
        .default_max_turns(options.max_turns)
        .build();
    match agent.prompt(options.prompt.as_str()).await {
        Ok(response) => {
            println!("{}", response.output());
            ExitCode::SUCCESS
        }
        Err(error @ PromptError::MaxTurns { .. }) => {
            eprintln!("rig-agent: {error}; raise --max-turns to let the model go on");
            ExitCode::FAILURE
        }
        Err(error) => {
            eprintln!("rig-agent: {error}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &[&str]) -> Vec<String> {
        text.iter().map(|arg| arg.to_string()).collect()
    }

    #[test]
    fn reads_the_options_and_the_prompt() {
        assert_eq!(
            parse(args(&["--base-url", "http://x/v1", "hi there"])),
            Ok(Options {
                base_url: "http://x/v1".into(),
                model: "gpt-4o-mini".into(),
                max_turns: 64,
                prompt: "hi there".into(),
            })
        );
        let options = parse(args(&[
            "p",
            "--model",
            "m",
            "--max-turns",
            "3",
            "--base-url",
            "u",
        ]));
        assert_eq!(options.map(|o| (o.model, o.max_turns)), Ok(("m".into(), 3)));
    }

    #[test]
    fn refuses_what_it_cannot_use() {
        assert_eq!(parse(args(&["hi"])), Err("--base-url is required".into()));
        assert_eq!(
            parse(args(&["--base-url", "u"])),
            Err("the prompt is missing".into())
        );
        assert_eq!(
            parse(args(&["--base-url"])),
            Err("--base-url needs a value".into())
        );
        assert_eq!(parse(args(&["--x", "u"])), Err("unknown option --x".into()));
        assert_eq!(
            parse(args(&["--base-url", "u", "a", "b"])),
            Err("give the prompt as one argument".into())
        );
        assert_eq!(
            parse(args(&["--base-url", "u", "--max-turns", "0", "p"])),
            Err(r#"--max-turns takes a positive number, not "0""#.into())
        );
    }
}
