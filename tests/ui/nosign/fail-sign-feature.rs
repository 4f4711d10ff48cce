// Without skills-runtime's `sign` feature the macro compiles no Ed25519
// code: a signing option is an error naming the feature to turn on.
static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!(
    "ui-skills/valid",
    sign_key_file = "ui-skills/keys/test-only.pem",
    origin = "https://skills.example",
);

fn main() {
    let _ = SKILLS.bytes();
}
