"""Cross-check revisions and Ed25519 signatures against agentskills-core 0.7.0.

Run by scripts/check/interop-signatures.sh with the .venv-core interpreter:

    interop-signatures.py SKILLS_BIN SKILLS_ROOT WORKDIR

1. For every skill under SKILLS_ROOT (registered through agentskills-fs, its
   id the directory name), `skills revision` prints agentskills-core's
   `content_revision`.
2. Detached signatures made by `skills sign DIR...` verify in
   `TrustPolicy.verify`; for another origin they are refused.
3. Signatures made here with the `cryptography` package verify in
   `skills verify DIR... --signatures`; a flipped bit is refused.
4. A bundle built and signed by `skills` verifies with `skills verify`, and
   records the same revisions as agentskills-core computes.
5. The reference test vector (sig-demo) from the SDK's own functions.
"""

from __future__ import annotations

import asyncio
import base64
import subprocess
import sys
from pathlib import Path

from agentskills_core.skill import Skill
from agentskills_core.snapshots import capture_skill
from agentskills_core.trust import (
    DetachedSignature,
    TrustPolicy,
    VerificationError,
    content_revision,
    signature_payload,
)
from agentskills_fs import LocalFileSystemSkillProvider
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    PublicFormat,
    load_pem_private_key,
    load_pem_public_key,
)

ORIGIN = "https://example.com/skills"
failures: list[str] = []
checks = 0


def check(ok: bool, what: str) -> None:
    global checks
    checks += 1
    if not ok:
        failures.append(what)
        print(f"FAIL: {what}", file=sys.stderr)


def run(*args: str, expect: int = 0) -> str:
    done = subprocess.run(args, capture_output=True, text=True)
    check(done.returncode == expect, f"{' '.join(args)} exited {done.returncode}, not {expect}: {done.stderr.strip()}")
    return done.stdout


async def snapshots(root: Path) -> dict[str, object]:
    # A Skill handle straight on the provider: SkillRegistry.register would
    # run validate_skill, which wants `compatibility` as a dict and
    # `allowed-tools` as a list where the specification has strings.
    provider = LocalFileSystemSkillProvider(root)
    result = {}
    for skill_id in await provider.discover():
        result[skill_id] = await capture_skill(Skill(skill_id, provider))
    return result


def main() -> int:
    skills_bin, root, work = sys.argv[1], Path(sys.argv[2]).resolve(), Path(sys.argv[3])
    snaps = asyncio.run(snapshots(root))
    check(len(snaps) > 0, f"no skills found under {root}")
    dirs = [str(root / skill_id) for skill_id in snaps]

    # 1. Revisions.
    ours = {}
    for line in run(skills_bin, "revision", *dirs).splitlines():
        revision, directory = line.split("  ", 1)
        ours[Path(directory).name] = revision
    for skill_id, snap in snaps.items():
        theirs = content_revision(snap)
        check(ours.get(skill_id) == theirs, f"revision of {skill_id}: ours {ours.get(skill_id)}, agentskills-core {theirs}")

    # 2. Signatures made here verify there.
    key_file = work / "interop.pem"
    run(skills_bin, "keygen", str(key_file))
    public_pem = (work / "interop.pub.pem").read_bytes()
    public_raw = load_pem_public_key(public_pem).public_bytes(Encoding.Raw, PublicFormat.Raw)
    signatures = run(skills_bin, "sign", *dirs, "--key", str(key_file), "--origin", ORIGIN, "--key-id", "rust-key")
    signed = {}
    for line in signatures.splitlines():
        skill_id, key_id, signature = line.split(" ")
        signed[skill_id] = DetachedSignature(key_id, base64.b64decode(signature, validate=True))
    for skill_id, snap in snaps.items():
        proof = signed.get(skill_id)
        check(proof is not None, f"no signature printed for {skill_id}")
        if proof is None:
            continue
        identity = TrustPolicy(ORIGIN, {"rust-key": public_raw}).verify(snap, proof)
        check(identity.status == "verified" and identity.publisher == "rust-key", f"{skill_id}: {identity}")
        try:
            TrustPolicy("https://elsewhere.example", {"rust-key": public_raw}).verify(snap, proof)
            check(False, f"{skill_id}: a signature for another origin verified")
        except VerificationError as error:
            check(str(error) == "Publisher signature verification failed", f"{skill_id}: {error}")

    # The secret key written by `skills keygen` is a PKCS#8 key that cryptography reads.
    private = load_pem_private_key(key_file.read_bytes(), password=None)
    check(private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw) == public_raw, "keygen's PEM pair")

    # 3. Signatures made there verify here.
    python_key = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    python_public = python_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    lines = []
    for skill_id, snap in snaps.items():
        signature = python_key.sign(signature_payload(snap, origin=ORIGIN))
        lines.append(f"{skill_id} py-key {base64.b64encode(signature).decode()}")
    sig_file = work / "python.sigs"
    sig_file.write_text("\n".join(lines) + "\n")
    out = run(skills_bin, "verify", *dirs, "--origin", ORIGIN, "--trust", f"py-key={python_public}", "--signatures", str(sig_file))
    check(out.count("verified  ") == len(snaps), f"skills verify over Python signatures: {out!r}")
    tampered = bytearray(base64.b64decode(lines[0].split(" ")[2]))
    tampered[0] ^= 1
    bad = lines[0].rsplit(" ", 1)[0] + " " + base64.b64encode(bytes(tampered)).decode()
    sig_file.write_text("\n".join([bad, *lines[1:]]) + "\n")
    run(skills_bin, "verify", *dirs, "--origin", ORIGIN, "--trust", f"py-key={python_public}", "--signatures", str(sig_file), expect=1)

    # 4. A bundle signed here records agentskills-core's revisions.
    bundle = work / "skills.bin"
    run(skills_bin, "build", str(root), "-o", str(bundle))
    run(skills_bin, "sign", str(bundle), "--key", str(key_file), "--origin", ORIGIN, "--key-id", "rust-key")
    out = run(skills_bin, "verify", str(bundle), "--origin", ORIGIN, "--trust", f"rust-key={work / 'interop.pub.pem'}")
    for skill_id, snap in snaps.items():
        check(f"verified  {skill_id}  {content_revision(snap)}  by rust-key" in out, f"bundle line for {skill_id}: {out!r}")

    # 5. The reference vector, through the SDK's own functions.
    vector = work / "vector"
    (vector / "sig-demo" / ".hidden").mkdir(parents=True)
    (vector / "sig-demo" / "references").mkdir()
    (vector / "sig-demo" / "SKILL.md").write_bytes(
        b'---\nname: sig-demo\ndescription: Demo skill for signing.\nversion: "0.1.0"\nmetadata:\n  owner: team-a\n---\n# Sig Demo\n\nSee references/a b.md.\n'
    )
    (vector / "sig-demo" / ".hidden" / "f.txt").write_bytes(b"x")
    (vector / "sig-demo" / "references" / "a b.md").write_bytes(b"ref\n")
    snap = asyncio.run(snapshots(vector))["sig-demo"]
    seed_file = work / "seed.hex"
    seed_file.write_text(bytes(range(32)).hex() + "\n")
    line = run(skills_bin, "sign", str(vector / "sig-demo"), "--key", str(seed_file), "--origin", ORIGIN, "--key-id", "k1").strip()
    signature = base64.b64decode(line.split(" ")[2])
    expected = python_key.sign(signature_payload(snap, origin=ORIGIN))
    check(signature == expected, "sig-demo signature equals the SDK vector")
    check(signature.hex().startswith("59aa1b71202d6e88"), "sig-demo signature equals the reference notes' vector")

    print(f"interop-signatures: {checks - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
