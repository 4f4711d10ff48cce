// The version lock the macro emits, driven with a format this runtime does
// not read, as a macro built against another runtime would.
skills_runtime::__check_bundle_format!(999, "9.9.9");

fn main() {}
