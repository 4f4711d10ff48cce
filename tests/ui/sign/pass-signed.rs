// Signing at compile time: every skill and the bundle are signed with the
// key file, and the signatures verify against the public key at run time.
use skills_runtime::verify::TrustPolicy;

static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!(
    "ui-skills/valid",
    sign_key_file = "ui-skills/keys/test-only.pem",
    origin = "https://skills.example",
    key_id = "test-only",
);

const PUBLIC_KEY: &str = "8927c0dd63a5dbb4ef2603479a57acb2ada047390f49a5c040d16b81ca0e55bf";

fn main() {
    let mut key = [0u8; 32];
    for (i, byte) in key.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&PUBLIC_KEY[2 * i..2 * i + 2], 16).unwrap();
    }
    let catalog = SKILLS.catalog().expect("the embedded bundle decodes");
    let policy = TrustPolicy::new("https://skills.example")
        .and_then(|policy| policy.trust("test-only", key))
        .expect("a valid policy");
    let verified = policy.verify(catalog.bundle()).expect("signed at compile time");
    assert_eq!(verified.skills.len(), 1);

    let elsewhere = TrustPolicy::new("https://elsewhere.example")
        .and_then(|policy| policy.trust("test-only", key))
        .expect("a valid policy");
    assert!(elsewhere.verify(catalog.bundle()).is_err(), "another origin is refused");

    // The secret key is not in the bundle.
    let secret = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/ui-skills/keys/test-only.pem"))
        .unwrap_or_default();
    let body: String = secret.lines().filter(|line| !line.starts_with("-----")).collect();
    let bytes = SKILLS.bytes();
    assert!(!body.is_empty() && !bytes.windows(body.len()).any(|w| w == body.as_bytes()));
}
